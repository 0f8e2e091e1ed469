"""An upgrade that renames a memory points every ``superseded_by`` naming it at the new name, in any form the body's
links follow (a link name, a part of it, a sibling file name), and keeps the form the person wrote.

Before (forty-first session, noticed): only a ``superseded_by`` that was the whole old name was renamed; one written
``db-choice.md`` or ``db-choice#Why`` pointed at nothing once ``db-choice.md`` became ``decision_db-choice.md``.
"""

from __future__ import annotations

import pytest

from memconv import upgrade as upgrading
from memconv.report import Report

from .claude_support import frontmatter, write

TARGET = b"---\ntype: decision\nname: Use SQLite\ndescription: new\nwhy: simple\n---\nBody.\n"

FORMS = [
    ("db-choice", "decision_db-choice"),
    ("db-choice#Why", "decision_db-choice#Why"),
    ("' db-choice '", "decision_db-choice"),
    ("db-choice.md", "decision_db-choice.md"),
    ("./db-choice.md", "./decision_db-choice.md"),
    ("db-choice.md#Why", "decision_db-choice.md#Why"),
]


def _upgraded(root, written: str) -> tuple[dict[str, bytes], Report]:
    old = (f"---\ntype: decision\nname: Old\ndescription: old\nwhy: x\nsuperseded_by: {written}\n---\n"
           "See [[db-choice#Why]] and [it](db-choice.md#Why).\n").encode()
    write({"db-choice.md": TARGET, "old-db.md": old}, root)
    report = Report(command="upgrade", input=str(root))
    return upgrading.plan(root, report).files, report


@pytest.mark.parametrize("written, expected", FORMS)
def test_a_superseded_by_follows_the_rename_in_its_own_form(tmp_path, written, expected):
    files, report = _upgraded(tmp_path / "in", written)
    assert "memory/decision_db-choice.md" in files
    entry = files["memory/decision_old-db.md"]
    assert frontmatter(entry)["superseded_by"] == expected
    # The body's links to the same record, by the same rule.
    assert entry.endswith(b"See [[decision_db-choice#Why]] and [it](decision_db-choice.md#Why).\n")
    changes = [c for f in report.files for c in f.changes if c.startswith("superseded_by")]
    assert changes == [f"superseded_by {written.strip(chr(39))} → {expected}"]


@pytest.mark.parametrize("written, expected", FORMS)
def test_upgrading_again_changes_nothing(tmp_path, written, expected):
    files, _ = _upgraded(tmp_path / "in", written)
    again = write({k.removeprefix("memory/"): v for k, v in files.items()}, tmp_path / "again")
    assert upgrading.plan(again, Report(command="upgrade", input="again")).files == files


def test_a_name_that_holds_the_form_is_the_whole_name_first(tmp_path):
    # A memory whose own name is `a.md` (file `a.md.md`) is what `superseded_by: a.md` names, before `a`.
    write({"a.md": TARGET, "a.md.md": TARGET,
           "old-db.md": b"---\ntype: decision\nname: Old\nwhy: x\nsuperseded_by: a.md\n---\n"}, tmp_path / "in")
    files = upgrading.plan(tmp_path / "in", Report(command="upgrade", input="in")).files
    assert {"memory/decision_a.md", "memory/decision_a-md.md"} <= set(files)
    assert frontmatter(files["memory/decision_old-db.md"])["superseded_by"] == "decision_a-md"
