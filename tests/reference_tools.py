"""The formats' own tools as test oracles: memoir-cli 3.12 and memspec 0.7.2, run isolated.

memconv's output is judged by the tools people run on their stores
(``../shared/reference-tools/README.md``). Both are Node programs built from
pinned sources by ``../shared/reference-tools/build.sh``, which ``.ci/run``
runs; it prints ``MEMOIR_CLI`` and ``MEMSPEC_DIST``. Where those are unset the
default build folder (``~/.cache/memconv-reference-tools``) is tried. A machine
without node, or without the built tools, skips the tests that need them,
saying why (:data:`needs_memoir`, :data:`needs_memspec`).

Every run is isolated: a temporary ``HOME`` (the tools keep config and
telemetry ids there), telemetry off, no colours, a timeout, and no network
(``unshare -rn``) where the kernel lets an unprivileged user namespace be made.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Where build.sh puts the tools when given no destination.
DEFAULT_BUILD = Path.home() / ".cache" / "memconv-reference-tools"
#: Seconds a single tool run may take before the test fails (not a timing assertion: a hang guard).
TIMEOUT = 120


def _memoir_cli() -> Path | None:
    given = os.environ.get("MEMOIR_CLI")
    path = Path(given) if given else DEFAULT_BUILD / "memoir-cli" / "bin" / "memoir.js"
    return path if path.is_file() and (path.parent.parent / "src" / "commands" / "validate.js").is_file() else None


def _memspec_dist() -> Path | None:
    given = os.environ.get("MEMSPEC_DIST")
    path = Path(given) if given else DEFAULT_BUILD / "memspec" / "dist"
    return path if (path / "cli.js").is_file() and (path / "lib" / "store.js").is_file() else None


def _missing(tool: str, found: Path | None, variable: str) -> str | None:
    if shutil.which("node") is None:
        return f"node is not installed, so {tool} cannot run (install node and run .ci/run to build it)"
    if found is None:
        return (f"{tool} is not built: run `eval \"$(bash ../shared/reference-tools/build.sh)\"` "
                f"or set {variable} (.ci/run does both)")
    return None


MEMOIR_CLI = _memoir_cli()
MEMSPEC_DIST = _memspec_dist()
MEMOIR_MISSING = _missing("memoir-cli", MEMOIR_CLI, "MEMOIR_CLI")
MEMSPEC_MISSING = _missing("memspec", MEMSPEC_DIST, "MEMSPEC_DIST")

needs_memoir = pytest.mark.skipif(MEMOIR_MISSING is not None, reason=MEMOIR_MISSING or "")
needs_memspec = pytest.mark.skipif(MEMSPEC_MISSING is not None, reason=MEMSPEC_MISSING or "")


@functools.cache
def _offline_prefix() -> tuple[str, ...]:
    """``unshare -rn`` when this machine allows it (no network for the tools), else nothing."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    try:
        done = subprocess.run([unshare, "-rn", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (unshare, "-rn") if done.returncode == 0 else ()


def run_node(args: list[str], *, cwd: Path, stdin: str | None = None, home: Path | None = None
             ) -> subprocess.CompletedProcess:
    """``node ARGS`` in ``cwd``: a fresh HOME (or ``home``), telemetry off, no colours, offline where possible."""
    with tempfile.TemporaryDirectory(prefix="memconv-tool-home-") as fresh:
        home = str(home) if home is not None else fresh
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "DO_NOT_TRACK": "1",
            "MEMOIR_TELEMETRY": "off",
            "NO_COLOR": "1",
            "FORCE_COLOR": "0",
            "TZ": "UTC",
            "LANG": "C.UTF-8",
        }
        return subprocess.run([*_offline_prefix(), "node", *args], cwd=cwd, env=env, input=stdin,
                              capture_output=True, text=True, timeout=TIMEOUT)


# --- memoir-cli ------------------------------------------------------------------------


@dataclass
class MemoirVerdict:
    """What ``memoir validate DIR`` said."""

    #: Exit status 0 and no file marked failed.
    ok: bool
    #: (file relative to DIR, error message), one per ``error`` line.
    errors: list[tuple[str, str]]
    #: (file relative to DIR, warning message).
    warnings: list[tuple[str, str]]
    #: How many files it checked (its summary line), so a run that checked nothing shows.
    checked: int
    output: str


#: The module behind ``memoir validate`` (bin/memoir.js only parses the command line and calls it).
MEMOIR_VALIDATE = MEMOIR_CLI.parent.parent / "src" / "commands" / "validate.js" if MEMOIR_CLI else None
#: ``memoir validate DIR``, the command's own function run without the CLI's start-up (its
#: update check and telemetry notice), which costs seconds per run.
_VALIDATE = r"""
const [module, folder] = process.argv.slice(1);
const { validateCommand } = await import(module);
await validateCommand([folder], {});
"""
_SUMMARY = re.compile(r"^\s*(\d+) files? checked · (?:(\d+) failed|all passed)", re.M)


def memoir_validate(folder: Path) -> MemoirVerdict:
    """``memoir validate FOLDER``: every ``*.md`` under it (dot-names skipped) and its ``session.json``.

    memoir-cli exits 1 when any file has an error; its output names each file
    (``✖``/``⚠``/``✔``) followed by its ``error``/``warning`` lines, then a
    summary ``N files checked · M failed``. Both the status and the summary
    are checked, so a changed output format cannot pass silently.
    """
    assert MEMOIR_CLI is not None, MEMOIR_MISSING
    folder = Path(folder).resolve()
    done = run_node(["--input-type=module", "-e", _VALIDATE, str(MEMOIR_VALIDATE), str(folder)], cwd=folder)
    out = done.stdout + done.stderr
    summary = _SUMMARY.search(out)
    assert summary is not None, f"memoir validate printed no summary (exit {done.returncode}):\n{out}"
    errors, warnings, current = [], [], None
    for line in out.splitlines():
        mark = re.match(r"^\s+[✖⚠✔] (.+)$", line)
        if mark:
            name = mark.group(1).strip()
            current = os.path.relpath(name, folder) if os.path.isabs(name) else name
            continue
        said = re.match(r"^\s+(error|warning)\s{2,}(.*)$", line)
        if said:
            (errors if said.group(1) == "error" else warnings).append((current or "?", said.group(2)))
    failed = int(summary.group(2) or 0)
    ok = done.returncode == 0 and failed == 0 and not errors
    return MemoirVerdict(ok, errors, warnings, int(summary.group(1)), out)


#: memoir-cli's own frontmatter parser (``parseFrontmatter``, exported by the validate module) on one file.
_PARSE = r"""
const [module, file] = process.argv.slice(1);
const { parseFrontmatter } = await import(module);
const { readFileSync } = await import('fs');
console.log(JSON.stringify(parseFrontmatter(readFileSync(file, 'utf8')).fields));
"""


def memoir_frontmatter(entry: Path, cwd: Path) -> dict:
    """The fields memoir-cli's own parser reads from ENTRY's frontmatter (run from ``cwd``, asserted to exit 0)."""
    done = run_node(["--input-type=module", "-e", _PARSE, str(MEMOIR_VALIDATE), str(entry)], cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


#: memoir-cli's own edit of an entry's lists (``withFrontmatterLists``, which its MCP ``save`` runs with the
#: aliases and tags it is given): each list named is written again, its items as its parser read them.
_WITH_LISTS = r"""
const [module, file, lists] = process.argv.slice(1);
const { withFrontmatterLists } = await import(module);
const { readFileSync } = await import('fs');
process.stdout.write(withFrontmatterLists(readFileSync(file, 'utf8'), JSON.parse(lists)));
"""


def memoir_with_lists(entry: Path, lists: dict[str, list[str]], cwd: Path) -> str:
    """ENTRY's text once memoir-cli has added ``lists`` (``{"tags": [...]}``) to its frontmatter as its MCP
    ``save`` does (asserted to exit 0)."""
    assert MEMOIR_CLI is not None, MEMOIR_MISSING
    search = MEMOIR_CLI.parent.parent / "src" / "memory" / "search.js"
    done = run_node(["--input-type=module", "-e", _WITH_LISTS, str(search), str(entry), json.dumps(lists)], cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout

# --- memspec ---------------------------------------------------------------------------

#: Loads a store with memspec's own loader (``MemspecStore.loadAll``, its zod schema) and its
#: status report's schema scan; prints what it skipped and why, and what it loaded.
_LOAD = r"""
const [dist, root] = process.argv.slice(1);
const { MemspecStore } = await import(dist + '/lib/store.js');
const { buildStatusReport } = await import(dist + '/commands/status.js');
const store = new MemspecStore(root);
const items = store.loadAll();
const { report } = buildStatusReport({ cwd: root });
console.log(JSON.stringify({
  root: store.root,
  warnings: store.warnings.map((w) => ({ file: w.file, reason: w.reason })),
  violations: report.schemaViolations,
  items: items.map((i) => ({ id: i.id, kind: i.kind, type: i.type ?? null, state: i.state, title: i.title,
                             created: i.created, check_by: i.check_by, expires: i.expires ?? null,
                             file: i.filePath })),
}));
"""


@dataclass
class MemspecLoad:
    """What memspec's loader made of a store."""

    #: (file relative to the project, reason) for each file ``loadAll`` skipped.
    warnings: list[tuple[str, str]]
    #: (file relative to the project, errors) from ``memspec status``'s schema scan.
    violations: list[tuple[str, list[str]]]
    #: The records it loaded (id, kind, type, state, title, created, check_by, expires, file).
    items: list[dict]

    @property
    def problems(self) -> list[str]:
        return [f"{f}: {r}" for f, r in self.warnings] + [f"{f}: {'; '.join(e)}" for f, e in self.violations]


def memspec_load(project: Path) -> MemspecLoad:
    """memspec's loader on ``project`` (a folder holding ``.memspec/``, or that folder itself)."""
    assert MEMSPEC_DIST is not None, MEMSPEC_MISSING
    project = Path(project).resolve()
    with tempfile.TemporaryDirectory(prefix="memconv-memspec-") as tmp:
        base = project
        if not (project / ".memspec").is_dir() and project.name != ".memspec":
            # The .memspec folder itself under another name: memspec finds a store by its name.
            base = Path(tmp)
            (base / ".memspec").symlink_to(project, target_is_directory=True)
        done = run_node(["--input-type=module", "-e", _LOAD, str(MEMSPEC_DIST), str(base)], cwd=base)
    assert done.returncode == 0, f"memspec's loader failed (exit {done.returncode}):\n{done.stderr}"
    doc = json.loads(done.stdout.strip().splitlines()[-1])

    def rel(path: str) -> str:
        return os.path.relpath(path, base)

    return MemspecLoad(warnings=[(rel(w["file"]), w["reason"]) for w in doc["warnings"]],
                       violations=[(rel(v["file"]), v["errors"]) for v in doc["violations"]],
                       items=[{**i, "file": rel(i["file"])} for i in doc["items"]])


def memspec(project: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """memspec's CLI (``verify``, ``supersede``, ``sweep``, ``status``, ``search``…) run in ``project``."""
    assert MEMSPEC_DIST is not None, MEMSPEC_MISSING
    project = Path(project).resolve()
    return run_node([str(MEMSPEC_DIST / "cli.js"), *args], cwd=project, stdin=stdin)


def memspec_sweep(project: Path, answer: str = "y") -> tuple[int, str]:
    """``memspec sweep`` in ``project``, answering ``answer`` to each "Retire this item?" prompt.

    sweep asks one question per stale record through node's readline, which drops
    lines piped before it asks (and then exits 13 with the question unanswered),
    so each answer is written only once its prompt has been read. (exit status, output).
    """
    assert MEMSPEC_DIST is not None, MEMSPEC_MISSING
    project = Path(project).resolve()
    prompt = "[y/N/q] "
    with tempfile.TemporaryDirectory(prefix="memconv-tool-home-") as home:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "DO_NOT_TRACK": "1",
               "NO_COLOR": "1", "FORCE_COLOR": "0", "TZ": "UTC", "LANG": "C.UTF-8"}
        proc = subprocess.Popen([*_offline_prefix(), "node", str(MEMSPEC_DIST / "cli.js"), "sweep"], cwd=project,
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        timer = __import__("threading").Timer(TIMEOUT, proc.kill)
        timer.start()
        out = b""
        try:
            while True:
                chunk = proc.stdout.read1(4096)
                if not chunk:
                    break
                out += chunk
                if out.decode("utf-8", "replace").endswith(prompt):
                    proc.stdin.write(answer.encode() + b"\n")
                    proc.stdin.flush()
            proc.stdin.close()
            status = proc.wait()
        finally:
            timer.cancel()
    return status, out.decode("utf-8", "replace")
