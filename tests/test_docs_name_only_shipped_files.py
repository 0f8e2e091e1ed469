"""README.md and docs/*.md name no file the repository does not ship (issue 12 item 10).

Checked: every relative Markdown link (``[text](docs/cli.md)``, resolved from
the page's folder), and every path in backticks whose first part is a
top-level entry of the repository (``memconv/dialects/claude/index.py``,
``golden/memoir/canonical/input``, ``tests/test_api.py``). Paths that are
examples or belong to a store or OUT (``./in``, ``OUT/.memconv/manifest.json``,
``memory/*.md``, ``MEMORY-<n>.md``) start with something else, or hold a
wildcard or a placeholder, and are left alone.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: What the repository ships at its top: a backticked path starting with one of these is a claim about it.
TOP = {p.name for p in ROOT.iterdir() if not p.name.startswith(".") or p.name in (".ci", ".pre-commit-hooks.yaml")} \
    - {".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
#: Placeholders and wildcards: an example of a path, not a path.
EXAMPLE = re.compile(r"[*<>{}$?\[\]]|\.\.\.|…|\bX\b|\bY\b")


def _shipped() -> set[str] | None:
    """Files git tracks or would (new, not ignored): what a clone gets; None outside a git checkout."""
    try:
        done = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                              capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    files = set(done.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}
    return files | {str(Path(f).parent.as_posix()) for f in files} | {
        "/".join(f.split("/")[:i]) for f in files for i in range(1, f.count("/") + 1)}


SHIPPED = _shipped()


def _exists(rel: str) -> bool:
    rel = rel.rstrip("/")
    if SHIPPED is not None:
        return rel in SHIPPED or (ROOT / rel).is_dir() and any(f.startswith(rel + "/") for f in SHIPPED)
    return (ROOT / rel).exists()


def _claims(page: Path) -> list[tuple[int, str]]:
    """(line, repository-relative path) of every path the page names."""
    found = []
    fenced = False
    for n, line in enumerate(page.read_text(encoding="utf-8").split("\n"), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue  # a sample of a file or a session, not a claim about the repository
        for target in LINK.findall(CODE.sub("", line)):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            target = target.split("#", 1)[0]
            if target and not EXAMPLE.search(target):
                rel = (page.parent / target).resolve().relative_to(ROOT.resolve()).as_posix()
                found.append((n, rel))
        for span in CODE.findall(line):
            path = span.split()[0] if span.split() else ""
            first = path.split("/", 1)[0]
            if first in TOP and "/" in path or path in TOP and "." in path:
                if not EXAMPLE.search(path) and ":" not in path:
                    found.append((n, path))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_page_names_is_shipped(page):
    # Verified by adding `docs/report.md` (not shipped yet) to README.md: fails naming README.md and the line.
    missing = [f"{page.name}:{n}: {path}" for n, path in _claims(page) if not _exists(path)]
    assert not missing, "named but not in the repository:\n" + "\n".join(missing)


def test_the_check_looks_at_real_claims():
    claims = {path for page in PAGES for _, path in _claims(page)}
    assert {"docs/cli.md", "LICENSE", "memconv/api.py", "golden/memoir/canonical/input"} <= claims, "the README's links and the code paths are seen"
    assert not any(p.startswith(("in", "./", "OUT")) for p in claims), "examples are not claims"


def test_the_readme_example_is_real_output(tmp_path):
    """The README's "In 30 seconds" session, run again: each command succeeds and says what the README shows.

    The lines after a command's first are its report, whose wording may change
    with the report's work (issue 12); its first line, the files it writes and
    its exit status are what the example promises, and are compared exactly.
    When the report's wording changes, paste the new output into the README.
    """
    # Verified by shortening the pasted MEMORY.md line, and by a second space in the pasted headline: both fail.
    import os
    import sys

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    session = text.split("## In 30 seconds", 1)[1].split("```console\n", 1)[1].split("\n```", 1)[0]
    commands = re.split(r"^\$ ", session, flags=re.M)[1:]
    assert len(commands) >= 3
    out = tmp_path / "demo-claude"
    for block in commands:
        line, *shown = block.rstrip("\n").split("\n")
        shown = [s for s in shown if s]
        args = line.replace("/tmp/demo-claude", str(out)).split()
        if args[0] == "memconv":
            done = subprocess.run([sys.executable, "-m", "memconv", *args[1:]], cwd=ROOT, capture_output=True,
                                  text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
            assert done.returncode == 0, f"$ {line}\n{done.stdout}{done.stderr}"
            said = [s for s in (done.stdout + done.stderr).replace(str(out), "/tmp/demo-claude").split("\n") if s]
            assert said[0] == shown[0], f"$ {line}: the README shows {shown[0]!r}, memconv says {said[0]!r}"
        elif args[0] == "head":
            n = int(args[1].lstrip("-"))
            lines = Path(args[2]).read_text(encoding="utf-8").split("\n")[:n]
            assert [s for s in lines if s] == shown, f"$ {line}"
