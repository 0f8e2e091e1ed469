"""A store-level warning of one input of a merge keeps its file and its kind in ``notices``, and names its side.

``merge`` writes each input's own warnings as ``B: memory/x.md: message`` (``--into``: ``EXISTING: …`` and
``IN (as converted): …``). Parsed as any warning, "B" stood where a file's name stands: the notice's ``path`` was
null and its kind ``other`` ("B: left out (memspec caches …)" is ``left-out``), so a person saw them one by one,
never grouped. The side is now a key of its own (``side``, optional in the schema), taken off before the name.
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from memconv.cli import main
from memconv.report import kind_of

from .conftest import GOLDEN
from .test_report_schema import validate

#: Two stores of each dialect whose merge warns of files of one side or both.
PAIRS = [("memoir", "canonical", "messy"), ("memoir", "messy", "messy"),
         ("claude", "broken-links", "canonical"), ("claude", "inline-only", "broken-links"),
         ("memspec", "current-every-field", "v02-dated-observations"), ("memfmt", "legacy", "vault")]


def _merged(tmp_path, dialect, a, b, *more):
    result = CliRunner().invoke(main, ["merge", str(GOLDEN / dialect / a / "input"),
                                       str(GOLDEN / dialect / b / "input"), str(tmp_path / "out"), *more])
    assert result.exit_code in (0, 3, 6), result.output
    return result


@pytest.mark.parametrize("dialect,a,b", PAIRS)
def test_every_merge_notice_has_its_side_file_and_kind(tmp_path, dialect, a, b):
    # Watched fail before the side was taken off: "B: memory/legacy_user-role.md: …" had path null.
    doc = validate(_merged(tmp_path, dialect, a, b, "--json").stdout)
    said = [n for n in doc["notices"] if "side" in n]
    for n in doc["notices"]:
        assert not n["message"].startswith(("A: ", "B: ")), f"a side is never read as a file's name: {n}"
        if "side" not in n:
            continue
        assert n["side"] in ("A", "B")
        # The store-level warning as written is the side, the file and the message, in that order: nothing lost.
        written = f"{n['side']}: " + (f"{n['path']}: " if n["path"] else "") + n["message"]
        assert written in doc["warnings"], f"a notice says what its warning said: {n}"
        known = kind_of(n["message"])
        assert n["kind"] == (known.name if known else "other"), f"a side's warning has the kind it has alone: {n}"
    if (dialect, a) == ("memoir", "messy") or (dialect, b) == ("memoir", "messy"):
        assert {n["path"] for n in said} >= {"memory/legacy_user-role.md", "memory/release-checklist.md"}
    if dialect == "claude":
        broken = "B" if b == "broken-links" else "A"
        assert [(n["side"], n["path"], n["kind"]) for n in said if n["kind"] == "link-to-nothing"] == \
            [(broken, "MEMORY.md:3", "link-to-nothing"), (broken, "MEMORY.md:7", "link-to-nothing")]
    if dialect == "memspec":
        assert sorted((n["side"], n["kind"], n["path"]) for n in said if n["message"].startswith("left out")) == \
            [("A", "left-out", None), ("B", "left-out", None)]


def test_a_person_sees_one_sides_warnings_grouped_and_named_with_their_side(tmp_path):
    # Watched fail before: six lines "warning: A: memory/legacy_user-role.md: not a canonical memoir entry; …".
    result = _merged(tmp_path, "memoir", "messy", "messy")
    lines = [line for line in result.stderr.splitlines() if "not a canonical memoir entry" in line]
    assert lines == ["  warning (6×) not a canonical memoir entry; kept whole as an opaque entry: "
                     "A: memory/legacy_user-role.md, A: memory/question_windows-paths.md, "
                     "A: memory/release-checklist.md and 3 more"], result.stderr
    verbose = _merged(tmp_path, "memoir", "messy", "messy", "--dry-run", "--force", "-v")
    assert "  warning: B: memory/release-checklist.md: not a canonical memoir entry; kept whole as an opaque " \
           "entry" in verbose.stderr.splitlines()


def test_an_imports_notice_names_existing_as_its_side(tmp_path):
    # --into writes EXISTING's own warnings as "EXISTING: …": the side is EXISTING, the kind left-out.
    existing = tmp_path / "existing"
    shutil.copytree(GOLDEN / "memspec" / "current-every-field" / "input", existing)
    result = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", "memspec", "--dry-run", "--json",
                                       str(GOLDEN / "memoir" / "canonical" / "input"), "--into", str(existing)])
    assert result.exit_code in (0, 3, 6), result.output
    doc = validate(result.stdout)
    assert not [n for n in doc["notices"] if n["message"].startswith(("EXISTING: ", "IN (as converted): "))]
    [left] = [n for n in doc["notices"] if n["kind"] == "left-out"]
    assert (left["side"], left["path"]) == ("EXISTING", None)
    [unquoted] = [n for n in doc["notices"] if "is unquoted" in n["message"]]
    assert (unquoted["side"], unquoted["path"]) == \
        ("EXISTING", ".memspec/memory/decisions/ms_01KN6VW9204RGZAZ9BSYT25SEB.md")


def test_a_conversion_has_no_side(tmp_path):
    # Outside merge and --into a warning that happens to start with "A: " is not taken for a side.
    result = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", "claude", "--json",
                                       str(GOLDEN / "memoir" / "messy" / "input"), str(tmp_path / "out")])
    doc = json.loads(result.stdout)
    assert all("side" not in n for n in doc["notices"])


def test_the_schema_names_every_side_a_merge_takes_off():
    # One list in the code (MergeReport.SIDES), one in the published schema: they agree.
    from memconv.merge.report import MergeReport

    from .test_report_schema import SCHEMA

    assert SCHEMA["$defs"]["notice"]["properties"]["side"]["enum"] == list(MergeReport.SIDES)


def test_a_merged_session_list_past_memoir_clis_cap_is_said_of_session_json(tmp_path):
    # Watched fail before: "session.json current.goals: 5 items, …" had path null ("session.json current.goals" is
    # no file's name); the warning now names the file first, then the list.
    for side, goals in (("a", ["g1", "g2"]), ("b", ["g3", "g4"])):
        shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", tmp_path / side)
        session = tmp_path / side / "session.json"
        doc = json.loads(session.read_text(encoding="utf-8"))
        doc["current"]["goals"] += [{"text": g, "machine_id": "7b1e9c52-0a43-4f8e-b1d2-6c3a9e8f4d21",
                                     "set_on": "2026-06-02T09:00:00.000Z"} for g in goals]
        session.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    result = CliRunner().invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out"),
                                       "--json"])
    assert result.exit_code == 0, result.output
    [said] = [n for n in validate(result.stdout)["notices"] if "more than memoir-cli keeps" in n["message"]]
    assert said["path"] == "session.json" and said["message"].startswith("current.goals holds 5 items"), said
