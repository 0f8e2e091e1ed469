"""Upgraded entries get type-prefixed slug link names, chosen so a second upgrade keeps every one."""

from __future__ import annotations

from memconv.converters.mapping import name_part as slug
from memconv.report import Report
from memconv import upgrade as upgrading

from .claude_support import write


def test_slug_drops_the_old_type_word_and_is_stable():
    assert slug("feedback_No_Mocks") == "no-mocks"
    assert slug("user_role") == "role"
    assert slug("next_action-ship it") == "ship-it"
    for stem in ("feedback_No_Mocks", "Q3 roadmap!", "lesson_x", "__"):
        assert slug(slug(stem)) == slug(stem), "slugging a slug changes nothing"


def test_an_already_canonical_name_is_never_taken_by_another_entry(tmp_path):
    # `fact-b` sorts before `fact_b` and wants the same name; the canonical file keeps it.
    # Verified by disabling the reservation of unchanged names: fact_b.md became fact_b-2.md.
    write({"fact-b.md": b"---\nname: B1\ntype: reference\n---\n",
           "fact_b.md": b"---\ntype: fact\nname: B2\n---\nSee [[fact-b]].\n"}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    files = upgrading.plan(tmp_path / "in", report).files
    assert files["memory/fact_b.md"] == b"---\ntype: fact\nname: B2\n---\nSee [[fact_b-2]].\n"
    assert b"name: B1" in files["memory/fact_b-2.md"]
