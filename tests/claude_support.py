"""Helpers shared by the claude dialect and upgrade tests: goldens, links, frontmatter."""

from __future__ import annotations

import json
from pathlib import Path

from memconv import frontmatter as fmx
from memconv.markdown import link_targets
from memconv.dialects.claude import index as claude_index
from memconv.errors import ReadError
from memconv.fs import list_files

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden" / "claude"
SCHEMAS = Path(__file__).resolve().parent / "schemas"
STORES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())


def tree(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in list_files(root)}


def write(files: dict[str, bytes], root: Path) -> Path:
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    return root


def ran_on_one_feedback_memory(tmp_path: Path, title: str, text: str, command: list[str], out: str) -> Path:
    """IN (``tmp_path/in``): a Claude folder of one memory, ``feedback_deploy.md`` holding ``text``, linked in its
    MEMORY.md as ``title``; then ``memconv *command IN tmp_path/out``, which must succeed. Returns that OUT."""
    from click.testing import CliRunner

    from memconv.cli import main

    write({"MEMORY.md": f"# Memory Index\n\n- [{title}](feedback_deploy.md)\n".encode(),
           "feedback_deploy.md": text.encode()}, tmp_path / "in")
    result = CliRunner().invoke(main, [*command, str(tmp_path / "in"), str(tmp_path / out)])
    assert result.exit_code == 0, result.output
    return tmp_path / out

def entry_schema() -> dict:
    return json.loads((SCHEMAS / "entry.schema.json").read_text(encoding="utf-8"))


def frontmatter(data: bytes, path: str = "x.md") -> dict | None:
    fm, _ = fmx.split(data.decode("utf-8").replace("\r\n", "\n").lstrip("\ufeff"), path)
    return fm.values if fm is not None else None


def links(files: dict[str, bytes], folder: str) -> list[tuple[str, str, bool]]:
    """Every link in the memory ``folder`` of ``files``: (file, link name, resolves)."""
    prefix = folder + "/" if folder else ""
    names = {p[len(prefix):-3] for p in files if p.startswith(prefix) and p.endswith(".md")
             and "/" not in p[len(prefix):]}
    found = []
    for path, data in files.items():
        if not (path.startswith(prefix) and path.endswith(".md")) or "/" in path[len(prefix):]:
            continue
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        rel = path[len(prefix):]
        if claude_index.is_index_path(rel):
            for line in text.split("\n"):
                m = claude_index.LINK_LINE.match(line)
                if m:
                    target = m.group("target")[:-3]
                    found.append((rel, target, target in names))
            continue
        try:
            fm, body = fmx.split(text, path)
        except ReadError:  # a quarantined file: its links are text like any other
            fm, body = None, text
        targets = link_targets(body)
        if fm is not None:
            for key in ("how_to_apply", "trigger", "description", "why", "rejected"):
                if isinstance(fm.values.get(key), str):
                    targets += link_targets(fm.values[key])
            if isinstance(fm.values.get("superseded_by"), str):
                targets.append(fm.values["superseded_by"])
        found.extend((rel, t, t in names) for t in targets)
    return found


def upgraded(files: dict[str, bytes], root: Path, shape: str = "flat") -> dict[str, bytes]:
    """The files ``memconv upgrade`` would write of a Claude folder holding ``files``, written at ``root``."""
    from memconv import upgrade as upgrading
    from memconv.report import Report

    write(files, root)
    return upgrading.plan(root, Report(command="upgrade", input=root.name), shape).files


def memoir_entries_and_home(files: dict[str, bytes], tmp: Path) -> tuple[list[str], str]:
    """A Claude folder holding ``files`` (at ``tmp/in``) converted to memoir (``tmp/out``) and back (``tmp/back``),
    both asserted to exit 0, and its index asserted home as written: (memoir's entries, the first run's output)."""
    from click.testing import CliRunner

    from memconv.cli import main

    write(files, tmp / "in")
    result = CliRunner().invoke(main, ["claude-to-memoir", str(tmp / "in"), str(tmp / "out")])
    assert result.exit_code == 0, result.output
    back = CliRunner().invoke(main, ["memoir-to-claude", str(tmp / "out"), str(tmp / "back")])
    assert back.exit_code == 0, back.output
    assert tree(tmp / "back")["MEMORY.md"] == files["MEMORY.md"], "the index comes home as it was written"
    return sorted(p for p in tree(tmp / "out") if p.startswith("memory/")), result.output


def assert_upgrade_links(files: dict[str, bytes], root: Path, *lines: str) -> None:
    """The upgrade of a Claude folder holding ``files`` writes each of ``lines`` in MEMORY.md, and makes no fact of
    any of its lines (each is a link to its memory, not a memory of its own)."""
    written = upgraded(files, root)
    index = written["MEMORY.md"].decode("utf-8")
    for line in lines:
        assert line in index, index
    assert not any(path.startswith("fact_") for path in written), sorted(written)
