"""``memconv check`` on a memspec store that memspec itself made, kept in git, exits 0.

memconv's memspec writer puts an empty ``.gitkeep`` in ``archive/`` (and ``observations/``) when nothing else
lands there: memspec's ``supersede`` and ``sweep`` write into ``archive/`` and fail when it is missing. memspec's
``init`` makes the folder, but git keeps no empty folder, so a store checked out from git (where ``check`` runs
as a CI step, docs/ci.md) has none, and ``check`` reported the keep file as a change (``bytes differ``) and exited
1 on the golden ``memspec/canonical`` store. The keep file holds a folder, not memory: it is no difference, and
the report says in a note that it would be added and why. A real difference still exits 1.
"""

from __future__ import annotations

import json
import shutil

import pytest

from memconv.cli import main
from memconv.pipeline import file_diff

from .conftest import GOLDEN


def _check(runner, *args):
    result = runner.invoke(main, ["check", "--json", *map(str, args)])
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("name", ["canonical", "newer-scope-probes"])
@pytest.mark.parametrize("via", [None, "memoir", "claude", "memfmt"])
def test_a_golden_memspec_store_without_archive_checks_clean(runner, name, via):
    # Watched fail (exit 1, '.memspec/archive/.gitkeep: bytes differ') before the keep file was asked of memspec.
    store = GOLDEN / "memspec" / name / "input"
    assert not any(p.name == "archive" for p in store.rglob("*")), "the golden store has no archive/ (git keeps none)"
    code, report = _check(runner, "--from", "memspec", *(["--via", via] if via else []), store)
    assert code == 0, report["differences"]
    assert report["differences"] == []
    if via is None:
        [said] = [n for n in report["notices"] if n["kind"] == "placeholder"]
        assert said["path"].endswith("archive/.gitkeep") and "would be added" in said["message"] \
            and "supersede" in said["message"], "a note says what would be added, and why"


def test_a_store_with_a_real_difference_still_exits_1(runner, tmp_path):
    store = tmp_path / "project"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", store)
    [record] = sorted((store / ".memspec" / "memory" / "decisions").glob("*.md"))
    text = record.read_text(encoding="utf-8")
    assert "\nstate: active\n" in text
    record.write_text(text.replace("\nstate: active\n", "\nstate: captured\n"), encoding="utf-8")  # v0.2's word
    code, report = _check(runner, "--from", "memspec", store)
    assert code == 1, "a record the round trip would migrate is a difference"
    assert [d["path"] for d in report["differences"]] == [f".memspec/memory/decisions/{record.name}"], \
        "that record, and not the keep file"


def test_an_empty_file_of_the_store_s_own_comes_back_as_it_was(runner, tmp_path):
    # A keep file is the writer's only where it puts one: an empty file elsewhere is the store's own, carried.
    store = tmp_path / "project"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", store)
    (store / ".memspec" / "memory" / "facts" / ".gitkeep").write_bytes(b"")
    code, report = _check(runner, "--from", "memspec", store)
    assert code == 0, report["differences"]
    assert [n["path"] for n in report["notices"] if n["kind"] == "placeholder"] == [".memspec/archive/.gitkeep"], \
        "only archive/ would get a placeholder"


def test_the_diff_of_an_empty_file_added_says_so():
    # It said '--- a/x +++ b/x @@ bytes differ (line endings, BOM or final newline) @@' of a file not there.
    assert file_diff("archive/.gitkeep", None, b"") == "index 0000000..e69de29\n"  # git's form: no hunk
    assert file_diff("x.md", b"", None) == "index e69de29..0000000\n"
