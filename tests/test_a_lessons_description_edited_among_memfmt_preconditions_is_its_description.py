"""A memoir lesson's description, edited where memfmt shows it (the procedure's first precondition), is the
description at home.

memfmt's procedure has no description: a lesson's is written as its first precondition (docs/conversion.md,
"Native first"). Edited there through memfmt's own API, it came home as a new ``**Preconditions:**`` list at the
end of the body, beside the old description, which memoir-cli's index and ``recall`` still show.
"""

from __future__ import annotations

from pathlib import Path

import memfmt

from .convert_helpers import convert_dir

LESSON = ("---\ntype: lesson\nname: Rehearse migrations\ndescription: Never migrate the only copy of the data\n"
          "trigger: before a destructive migration\nhow_to_apply: restore a backup and run it there first\n---\n\n"
          "**Why:** a backfill lost a column once.\n")


def _edit_in_memfmt(tmp_path: Path, edit) -> str:
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "lesson_rehearse.md").write_text(LESSON)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    memory = memfmt.load(out / "memory")
    [procedure] = memory.procedures
    assert procedure.preconditions[0] == "Never migrate the only copy of the data"
    edit(procedure)
    for path, text in memfmt.serialise(memory, generated="2026-12-07").items():
        if "/procedures/" in path:  # memfmt's own writer, on the one file the edit is in
            (out / path).write_text(text)
    return (convert_dir(out, "memoir", tmp_path / "back") / "memory" / "lesson_rehearse.md").read_text()


def _new_description(procedure) -> None:
    procedure.preconditions[0] = "Never migrate a database without a restored copy"


def test_the_description_edited_as_a_precondition_is_the_description_at_home(tmp_path):
    # Watched fail before the fix: the old description stayed, and the edit came home as a
    # "**Preconditions:**" list appended to the body.
    back = _edit_in_memfmt(tmp_path, _new_description)
    assert back == LESSON.replace("Never migrate the only copy of the data",
                                  "Never migrate a database without a restored copy"), \
        "the description edited where memfmt shows it is the lesson's description at home"


def test_a_precondition_added_above_it_is_not_taken_for_the_description(tmp_path):
    # Verified by dropping the length test of readable._description_back: the added line became the description.
    back = _edit_in_memfmt(tmp_path, lambda p: p.preconditions.insert(0, "Tell the on-call first"))
    assert "description: Never migrate the only copy of the data\n" in back, "the description was not edited"
    assert back.endswith("- Tell the on-call first\n"), "an added precondition is written into the body"
