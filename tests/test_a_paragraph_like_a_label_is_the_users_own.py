"""A paragraph the body wrote by hand stays the body's, however like a line memconv writes it is.

memfmt has no tags: a record's tags are shown as a ``**Tags:** a, b`` line among an entity's facts, and the way back
takes that line out again, or reads an edit of it as the new tags (docs/conversion.md, "Native first"). A body that
says ``**Tags:** infra`` itself is shown as it is, and no line is added. Before the fix, once the entity was edited
in memfmt, its own paragraph was taken out at home as memconv's (the report said 0 dropped), and one that said other
tags than the record's (``**Tags:** foo``) was read as an edit: the record's tags became ``foo`` and the paragraph
was gone.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest

from .convert_helpers import convert_dir


def _fact(paragraph: str) -> str:
    return ("---\ntype: fact\nname: X\ndescription: x desc\ntags:\n  - infra\n---\n\n"
            f"P.\n\n{paragraph}\n\nQ.\n\n**Note:**\n\n- x\n")


def _home_after_a_memfmt_edit(tmp_path: Path, text: str) -> str:
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_x.md").write_text(text)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    entity = out / "memory" / "entities" / "X.md"
    entity.write_text(entity.read_text() + "- Added in memfmt.\n")  # a fact added, as memfmt's own tools add one
    memfmt.load(out / "memory")  # memfmt's own reader takes the edited store
    return (convert_dir(out, "memoir", tmp_path / "back") / "memory" / "fact_x.md").read_text()


@pytest.mark.parametrize("paragraph", ["**Tags:** infra", "**Tags:** foo"], ids=["the-tags-said", "other-tags"])
def test_a_tags_paragraph_written_by_hand_survives_an_edit_in_memfmt(tmp_path, paragraph):
    # Watched fail before the fix: the paragraph was gone, and with "foo" the tags were foo.
    text = _fact(paragraph)
    back = _home_after_a_memfmt_edit(tmp_path, text)
    assert back == text.replace("- x\n", "- x\n\nAdded in memfmt.\n")


def test_memconvs_own_tags_line_still_goes_home_as_the_tags(tmp_path):
    # The line memconv wrote beside a hand-written one (other tags) is still memconv's: taken out, not a paragraph.
    back = _home_after_a_memfmt_edit(tmp_path, _fact("**Tags:** foo"))
    assert back.count("**Tags:**") == 1 and "tags:\n  - infra\n" in back
