"""`memconv merge` writes no two files whose names fold alike (docs/merge.md, "Names that fold alike").

Two names that differ only in case or Unicode normalisation are one file on macOS and Windows: a merge that
wrote both let one memory overwrite the other there, with exit 0 and no word. The second is kept as a conflict
copy, as two copies at one path are, and reported so (exit 6); merging again changes nothing.
"""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

import pytest

from memconv.cli import main
from memconv.dialects import fold

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NFC, NFD = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _no_two_fold_alike(out: Path) -> None:
    names: dict[str, str] = {}
    for path in _files(out):
        assert fold(path) not in names, f"{path} and {names[fold(path)]} are one file on macOS and Windows"
        names[fold(path)] = path


def _merge(runner, a: Path, b: Path, out: Path, *more: str):
    result = runner.invoke(main, ["merge", "--json", *more, str(a), str(b), str(out)])
    return result, json.loads(result.stdout)


def _stores(tmp_path: Path, golden: str, change) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(GOLDEN / golden, a)
    shutil.copytree(GOLDEN / golden, b)
    change(a, b)
    return a, b


def _claude_case(a: Path, b: Path) -> None:
    text = (a / "user_role.md").read_text()
    (b / "User_Role.md").write_text(text.replace("Ten years", "TWENTY years"))


def _claude_unicode(a: Path, b: Path) -> None:
    text = (a / "user_role.md").read_text()
    (a / f"user_{NFC}.md").write_text(text)
    (b / f"user_{NFD}.md").write_text(text.replace("Ten years", "TWENTY years"))


def _claude_index_name(a: Path, b: Path) -> None:
    text = (a / "user_role.md").read_text()
    (b / "memory.md").write_text(text.replace("Ten years", "TWENTY years"))


def _memoir_case(a: Path, b: Path) -> None:
    text = (a / "memory/fact_staging-endpoints.md").read_text()
    (b / "memory/Fact_Staging-Endpoints.md").write_text(text + "\nOne more line.\n")


def _foreign(root: str):
    def change(a: Path, b: Path) -> None:
        (a / root / "Notes.txt").write_text("A's notes\n")
        (b / root / "notes.txt").write_text("B's notes\n")
    return change


CASES = {
    "claude, case": ("claude/canonical/input", _claude_case, "TWENTY years"),
    "claude, Unicode form": ("claude/canonical/input", _claude_unicode, "TWENTY years"),
    "claude, the index's name": ("claude/canonical/input", _claude_index_name, "TWENTY years"),
    "memoir entries, case": ("memoir/canonical/input", _memoir_case, "One more line."),
    "memoir, foreign files": ("memoir/canonical/input", _foreign(""), "B's notes"),
    "claude, foreign files": ("claude/canonical/input", _foreign(""), "B's notes"),
    "memspec, foreign files": ("memspec/canonical/input", _foreign(".memspec"), "B's notes"),
    "memfmt, foreign files": ("memfmt/full/input", _foreign("memory"), "B's notes"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_merge_keeps_the_second_of_two_names_that_fold_alike_as_a_conflict_copy(runner, tmp_path, case):
    golden, change, marker = CASES[case]
    a, b = _stores(tmp_path, golden, change)
    result, report = _merge(runner, a, b, tmp_path / "out")
    out = _files(tmp_path / "out")
    _no_two_fold_alike(tmp_path / "out")
    assert any(marker.encode() in data for data in out.values()), "neither memory is lost"
    assert result.exit_code == 6, result.output
    said = [r for r in report["records"] if r["status"] == "conflict" and "case or Unicode" in (r["why"] or "")]
    assert len(said) == 1 and said[0]["conflict_copy"] in out, report["records"]
    assert said[0]["where"] not in out or fold(said[0]["where"]) != fold(said[0]["conflict_copy"])
    # The same bytes whichever store is named first; merging the result again changes nothing.
    _, _ = _merge(runner, b, a, tmp_path / "out-ba")
    assert _files(tmp_path / "out-ba") == out
    for side in (a, b, tmp_path / "out"):
        again, _ = _merge(runner, tmp_path / "out", side, tmp_path / f"again-{side.name}")
        assert again.exit_code == 0, again.output
        assert _files(tmp_path / f"again-{side.name}") == out


def test_a_claude_index_links_the_kept_copy_not_the_name_it_lost(runner, tmp_path):
    a, b = _stores(tmp_path, "claude/canonical/input", _claude_case)
    _, report = _merge(runner, a, b, tmp_path / "out")
    said = next(r for r in report["records"] if r["status"] == "conflict")
    index = (tmp_path / "out" / "MEMORY.md").read_text()
    assert f"({said['conflict_copy']})" in index
    assert f"({said['where']})" not in index or said["where"] in _files(tmp_path / "out")
