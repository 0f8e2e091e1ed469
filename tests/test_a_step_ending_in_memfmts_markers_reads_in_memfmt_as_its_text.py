"""A lesson's step whose line ends in what memfmt reads as a step's slots or runs (``Promote [canary → prod]``,
``Retry (1✓/0✗)``) is, in memfmt, the text the person wrote, and comes home as written.

memfmt takes a step line's tail ``[a → b]`` for what the step needs and gives, and ``(n✓/m✗)`` for its runs,
before it reads the action and the detail. memconv wrote the item as it stands, so memfmt read it as a step
needing ``canary``: ``memfmt validate`` failed ("step 3 needs 'canary', nothing before it produces that"), and with
another step edited in memfmt the lesson came home with a ``how_to_apply`` key of actions alone and a warning that
the counts of its steps were dropped. Found by a hunt (2026-12-07, forty-third session). Now the closing bracket of
such a tail is written as its character reference (``[canary → prod&#93;``): Markdown shows the bracket, memfmt reads
the tail as text, and memconv reads it back to the bracket on the way home.
"""

from __future__ import annotations

import html
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from memconv.model import Store

from .convert_helpers import convert_files, read_files, write_files

memfmt = pytest.importorskip("memfmt")

#: Items as a person writes them; the last ends as memfmt's own step line would.
_CASES = {
    "slots": ["Check the canary — look at p99", "Wait 10 minutes", "Promote [canary → prod]"],
    "runs": ["Check the canary", "Wait 10 minutes", "Retry (1✓/0✗)"],
    "detail": ["Check the canary — look at [p99 → alert]", "Wait 10 minutes", "Promote"],
    "both": ["Check the canary", "Wait 10 minutes", "Promote [a → b] (3✓/0✗)"],
    "said so": ["Check the canary", "Wait 10 minutes", "Promote [canary → prod&#93;"],
}


def _list(items: list[str]) -> str:
    return "".join(f"{n}. {item}\n" for n, item in enumerate(items, 1))


def _store(dialect: str, items: list[str]) -> Store:
    if dialect == "claude":
        raw = ("---\nname: Deploy carefully\ndescription: Always check the canary\ntype: feedback\n---\n\n"
               f"Never deploy on Friday.\n\n**How to apply:**\n\n{_list(items)}")
        index = "- [Deploy carefully](feedback_deploy.md) — Always check the canary\n"
        return read_files({"feedback_deploy.md": raw.encode(), "MEMORY.md": index.encode()}, "claude")
    # A memoir lesson's how_to_apply is one line: its last item alone.
    raw = ("---\ntype: lesson\nname: Deploy carefully\ndescription: Deploys need care\ntrigger: About to deploy\n"
           f"how_to_apply: {items[-1]}\ncreated: 2026-04-11\n---\n\nNever deploy on Friday.\n")
    return read_files({"memory/lesson_deploy.md": raw.encode()}, "memoir")


def _procedure(files: dict[str, bytes]) -> tuple[str, str]:
    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    return path, files[path].decode()


def _written(dialect: str, case: str) -> list[str]:
    return _CASES[case] if dialect == "claude" else _CASES[case][-1:]


@pytest.mark.parametrize("case", list(_CASES))
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_memfmt_reads_the_step_as_its_text_and_validates_it(dialect, case):
    files, _ = convert_files(_store(dialect, _CASES[case]), "memfmt")
    path, text = _procedure(files)
    steps = memfmt.parse({path.removeprefix("memory/"): text}).procedures[0].steps
    assert [(s.needs, s.gives, s.success_count, s.fail_count) for s in steps] == [([], [], None, None)] * len(steps)
    shown = [html.unescape(s.action + (" — " + s.detail if s.detail else "")) for s in steps]
    assert shown[-len(_written(dialect, case)):] == _written(dialect, case), "Markdown shows what the person wrote"
    with tempfile.TemporaryDirectory() as tmp:
        write_files(files, Path(tmp))
        run = subprocess.run([sys.executable, "-m", "memfmt", "validate", str(Path(tmp) / "memory")],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("case", list(_CASES))
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_memfmt_rewriting_the_store_changes_no_step_and_it_comes_home_exact(dialect, case):
    store = _store(dialect, _CASES[case])
    files, _ = convert_files(store, "memfmt")
    with tempfile.TemporaryDirectory() as tmp:
        write_files(files, Path(tmp))
        memfmt.write_dir(memfmt.serialise(memfmt.load(Path(tmp) / "memory"), root=""), Path(tmp) / "memory")
        path, before = _procedure(files)
        assert (Path(tmp) / path).read_text(encoding="utf-8") == before, "memfmt writes the steps as they were"
    back, report = convert_files(read_files(files, "memfmt"), dialect)
    assert back == convert_files(_store(dialect, _CASES[case]), dialect)[0], "the way home is exact"
    assert report.totals()["dropped"] == 0 and not report.warnings


def _edited_with_memfmt(files: dict[str, bytes]) -> dict[str, bytes]:
    from memfmt.serialize import procedure_file

    path, text = _procedure(files)
    procedure = memfmt.parse({path.removeprefix("memory/"): text}).procedures[0]
    (step,) = [s for s in procedure.steps if s.action == "Wait 10 minutes"]
    step.action = "Wait 15 minutes"
    return {**files, path: procedure_file(procedure).encode()}


@pytest.mark.parametrize("case", list(_CASES))
def test_another_step_edited_in_memfmt_lands_on_its_line_beside_it(case):
    files, _ = convert_files(_store("claude", _CASES[case]), "memfmt")
    back, report = convert_files(read_files(_edited_with_memfmt(files), "memfmt"), "claude")
    head, _, body = back["feedback_deploy.md"].decode().rpartition("---\n")
    items = [item.replace("Wait 10", "Wait 15") for item in _CASES[case]]
    assert body.lstrip("\n") == f"Never deploy on Friday.\n\n**How to apply:**\n\n{_list(items)}"
    assert "how_to_apply" not in head, "no key beside the list, which Claude Code would read first"
    assert report.totals()["dropped"] == 0
    assert not [w for w in report.warnings if "counts" in w], "no step had counts to drop"


@pytest.mark.parametrize("case", ["slots", "runs", "said so"])
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_the_step_itself_edited_in_memfmt_comes_home_as_the_person_would_read_it(dialect, case):
    from memfmt.serialize import procedure_file

    files, _ = convert_files(_store(dialect, _CASES[case]), "memfmt")
    path, text = _procedure(files)
    procedure = memfmt.parse({path.removeprefix("memory/"): text}).procedures[0]
    procedure.steps[-1].action = "Then " + procedure.steps[-1].action
    back, report = convert_files(read_files({**files, path: procedure_file(procedure).encode()}, "memfmt"), dialect)
    (home,) = [back[p].decode() for p in back if p.endswith("_deploy.md")]
    said = "Then " + _CASES[case][-1]
    assert (f"3. {said}\n" if dialect == "claude" else f"how_to_apply: {said}\n") in home
    assert report.totals()["dropped"] == 0
