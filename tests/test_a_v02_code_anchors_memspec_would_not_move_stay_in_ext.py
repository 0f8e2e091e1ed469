"""A v0.2 record's ``ext.code_anchors`` moves to ``anchors`` only as a list memspec accepts; else it stays in ext.

memspec's migrator (and its reader's legacy adapter) promotes ``ext.code_anchors`` only when it is an array;
its schema's ``anchors`` is a list of ``{file, sha, repo?}`` (strings). memconv's ladder moved anything, so a
mapping written by hand (``code_anchors: {file: …, sha: …}``) became ``anchors:`` a mapping, and memspec 0.7.2
skipped the migrated record ("anchors: Invalid input: expected array, received object") while it loads the
original v0.2 record fine. Now only such a list moves; anything else is left in ``ext`` as it was, and the
report says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.cli import main
from memconv.frontmatter import load_yaml
from memconv.migrations.memspec import Draft, climb, generation

from .conftest import write_files
from .reference_tools import memspec_load, needs_memspec

ID = "ms_01KNH5F5209RFZEDKNQS6AEYMA"
PATH = f".memspec/memory/facts/{ID}.md"
SHA = "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"
RECORD = (f"---\nid: {ID}\ntype: fact\nstate: captured\ncreated: 2026-01-10T09:00:00Z\nsource: therin\n"
          "decay_after: 2030-01-01T00:00:00Z\next:\n  code_anchors:\n    file: src/auth.ts\n"
          f"    sha: {SHA}\n---\n\n# Auth lives in src/auth.ts\n")


def _legacy(code_anchors) -> dict:
    return {"id": ID, "type": "fact", "state": "captured", "created": "2026-01-10T09:00:00Z", "source": "therin",
            "decay_after": "2030-01-01T00:00:00Z", "ext": {"code_anchors": code_anchors, "note": "kept"}}


@pytest.mark.parametrize("code_anchors", [
    {"file": "src/auth.ts", "sha": SHA},                  # a mapping, not a list
    ["src/auth.ts"],                                      # a list of paths
    [{"file": "src/auth.ts"}],                            # no sha: memspec's schema requires one
    [{"file": "src/auth.ts", "sha": SHA, "repo": 7}],     # repo not a string
])
def test_code_anchors_memspec_would_not_accept_stay_in_ext_and_the_report_says_so(code_anchors):
    draft, start, _ = climb(Draft(_legacy(code_anchors), f"memory/facts/{ID}.md"))
    assert start == "v0.2"
    assert "anchors" not in draft.values, "memspec's anchors are a list of {file, sha, repo?}"
    assert draft.values["ext"] == {"code_anchors": code_anchors, "note": "kept"}, "left in ext as it was"
    assert any("ext.code_anchors left in ext" in line for line in draft.changes), draft.changes


def test_a_list_memspec_accepts_still_moves():
    anchors = [{"file": "src/auth.ts", "sha": SHA}, {"file": "lib/x.ts", "sha": SHA, "repo": "other"}]
    draft, _, _ = climb(Draft(_legacy(anchors), f"memory/facts/{ID}.md"))
    assert draft.values["anchors"] == anchors
    assert draft.values["ext"] == {"note": "kept"}


def test_code_anchors_that_do_not_move_do_not_make_a_current_record_legacy():
    values = {"id": ID, "kind": "claim", "type": "fact", "state": "active", "created": "2026-01-10",
              "source": "x", "check_by": "never", "ext": {"code_anchors": {"file": "a", "sha": "b"}}}
    assert generation(values) == "current", "nothing to migrate: memspec reads it as it is"


def test_migrate_leaves_a_mapping_in_ext(tmp_path: Path, runner):
    write_files(tmp_path / "in", {PATH: RECORD.encode()})
    result = runner.invoke(main, ["migrate", "-v", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    values = load_yaml((tmp_path / "out" / PATH).read_text().split("---\n")[1])
    assert "anchors" not in values
    assert values["ext"] == {"code_anchors": {"file": "src/auth.ts", "sha": SHA}}
    assert "ext.code_anchors left in ext" in result.output


@needs_memspec
def test_memspec_loads_the_migrated_record_as_it_loads_the_original(tmp_path: Path, runner):
    # Watched fail before the fix: anchors: Invalid input: expected array, received object.
    write_files(tmp_path / "in", {PATH: RECORD.encode()})
    original = memspec_load(tmp_path / "in")
    assert original.violations == [] and [i["id"] for i in original.items] == [ID]
    assert runner.invoke(main, ["migrate", str(tmp_path / "in"), str(tmp_path / "out")]).exit_code == 0
    migrated = memspec_load(tmp_path / "out")
    assert migrated.violations == [] and migrated.warnings == []
    assert [i["id"] for i in migrated.items] == [ID]
