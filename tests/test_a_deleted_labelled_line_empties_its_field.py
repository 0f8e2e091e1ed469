"""A labelled line memconv wrote for a field (``**Why:** …``, an unknown key's ``**priority:** high``), deleted whole
in the target, empties the field on the way home, and the report says the field was edited: as an emptied line does
(tests/test_an_emptied_labelled_line_empties_its_field.py).

Before (2026-12-05, twenty-fourth session): the field came home from the carry, so text the target's user deleted was
back at home, and the report said only that the body was edited. memconv tells a line deleted from one never written
by rendering the record as it was converted and comparing that body with the digest its carry holds of what the
target showed, its links named as the target named them (restore._shown_then); where they differ, it cannot
tell, and the field stays.
"""

from __future__ import annotations

import re

import yaml

from memconv.cli import main

from .conftest import GOLDEN

CLAIM = ".memspec/memory/decisions/ms_00000000005DNX7R97BE9VQ70Q.md"
WHY = "\n**Why:** make requires tabs; no choice here\n"


def memspec_of_messy_memoir(runner, tmp_path):
    """memoir's messy store in memspec: (the folder, the claim of the decision with a why, its text)."""
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "messy" / "input"), str(there)]
                         ).exit_code == 0
    claim = there / CLAIM
    text = claim.read_text(encoding="utf-8")
    assert WHY in text
    return there, claim, text


def decision_home(runner, there, tmp_path):
    """``there`` home again: (what was said, the decision's file)."""
    back = runner.invoke(main, ["memspec-to-memoir", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / "memory" / "decision_tabs.md").read_text(encoding="utf-8")


def test_a_deleted_why_line_takes_the_decisions_why_out(runner, tmp_path):
    # The line was the claim's whole text under its title: the body comes home empty, and the why with it.
    there, claim, text = memspec_of_messy_memoir(runner, tmp_path)
    claim.write_text(text.replace(WHY, "\n"), encoding="utf-8")
    said, decision = decision_home(runner, there, tmp_path)
    assert re.search(r"edited in memspec: [^\n]*\bwhy\b", said), said
    assert "why:" not in decision and "tabs" not in decision.split("---", 2)[2]
    assert "name: Use tabs in Makefiles" in decision


def test_a_line_kept_elsewhere_in_the_body_keeps_the_field(runner, tmp_path):
    # Its label still in the body (the line joined to the paragraph above it): not deleted, the field stays.
    there, claim, text = memspec_of_messy_memoir(runner, tmp_path)
    claim.write_text(text.replace("# Use tabs in Makefiles\n" + WHY, "# Use tabs in Makefiles\n\nNote:" + WHY[1:]),
                     encoding="utf-8")
    said, decision = decision_home(runner, there, tmp_path)
    assert "make requires tabs" in yaml.safe_load(decision.split("---", 2)[1])["why"]


def test_a_line_the_carry_cannot_say_was_shown_keeps_the_field(runner, tmp_path):
    # The carry's digest of the body shown is not the body memconv renders now (a file another memconv wrote): a
    # line missing may never have been written, and the field comes home as carried.
    there, claim, text = memspec_of_messy_memoir(runner, tmp_path)
    digest = re.search(r'"native":\{"body":"([0-9a-f]+)"', text).group(1)
    assert text.count(digest) == 1
    claim.write_text(text.replace(WHY, "\n").replace(digest, "0" * len(digest)), encoding="utf-8")
    said, decision = decision_home(runner, there, tmp_path)
    assert "make requires tabs" in yaml.safe_load(decision.split("---", 2)[1])["why"]


def test_a_deleted_line_beside_a_renamed_link_takes_the_field_out(runner, tmp_path):
    # memspec names the linked record by its id ([[ms_…]]): the body shown then is compared as memspec named it.
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "canonical" / "input"), str(there)]
                         ).exit_code == 0
    shown = [p for p in there.rglob("*.md") if "\n**Project:** acme-api\n\n**Also known as:** staging urls\n"
             in p.read_text(encoding="utf-8")]
    assert len(shown) == 1 and "[[ms_" in shown[0].read_text(encoding="utf-8")
    shown[0].write_text(shown[0].read_text(encoding="utf-8").replace("\n**Project:** acme-api\n", "\n"),
                        encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-memoir", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert re.search(r"edited in memspec: [^\n]*\bproject\b", back.stderr), back.stderr
    fact = (tmp_path / "back" / "memory" / "fact_staging-endpoints.md").read_text(encoding="utf-8")
    assert "project:" not in fact and "[[decision_local-db-choice]]" in fact
    assert "aliases:\n  - staging urls\n" in fact


def _memoir_through_memspec(tmp_path, entry: str, text: str, line: str) -> tuple[str, str]:
    """``text`` as memoir's ``memory/{entry}.md``, converted to memspec, ``line`` deleted there, and home again: the
    report and the file."""
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / f"{entry}.md").write_text(text, encoding="utf-8")
    from click.testing import CliRunner

    runner = CliRunner()
    assert runner.invoke(main, ["memoir-to-memspec", str(tmp_path / "in"), str(tmp_path / "ms")]).exit_code == 0
    (claim,) = (tmp_path / "ms" / ".memspec").rglob("ms_*.md")
    shown = claim.read_text(encoding="utf-8")
    assert f"\n{line}\n" in shown
    claim.write_text(shown.replace(f"\n{line}\n", "\n"), encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-memoir", str(tmp_path / "ms"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / "memory" / f"{entry}.md").read_text(encoding="utf-8")


def test_a_line_the_body_held_at_home_is_its_own_text(tmp_path):
    # The decision's body says its why in its own words: memspec shows that paragraph, and show wrote none for it
    # (it did for the project). Deleted there, the paragraph leaves the body; the why stays (its key).
    said, decision = _memoir_through_memspec(
        tmp_path, "decision_x", "---\ntype: decision\nname: Pick X\ndate: 2026-01-02\nwhy: zero deps\n"
        "project: acme\n---\n\nChose X.\n\n**Why:** zero deps\n", "**Why:** zero deps")
    assert "\nwhy: zero deps\n" in decision and "**Why:**" not in decision and "\nproject: acme\n" in decision


def test_a_field_home_requires_stays(tmp_path):
    # memoir requires a lesson's trigger: its **When:** line deleted in memspec leaves the key as it was.
    said, lesson = _memoir_through_memspec(
        tmp_path, "lesson_t", "---\ntype: lesson\nname: Run tests first\ndescription: Always run the tests\n"
        "trigger: before committing\nhow_to_apply: run make test\n---\n\nRun the suite.\n",
        "**When:** before committing")
    assert "\ntrigger: before committing\n" in lesson


def test_a_deleted_fact_of_a_memfmt_entity_takes_the_field_out(runner, tmp_path):
    # memfmt shows a memoir preference as an entity, its text as facts: the **Scope:** fact deleted there.
    there = tmp_path / "memfmt"
    assert runner.invoke(main, ["memoir-to-memfmt", str(GOLDEN / "memoir" / "messy" / "input"), str(there)]
                         ).exit_code == 0
    entity = there / "memory" / "entities" / "Tone of reviews.md"
    text = entity.read_text(encoding="utf-8")
    assert "\n- Say what is wrong first, then why.\n- **Scope:** project\n" in text
    entity.write_text(text.replace("\n- **Scope:** project\n", "\n"), encoding="utf-8")
    back = runner.invoke(main, ["memfmt-to-memoir", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert re.search(r"edited in memfmt: [^\n]*\bscope\b", back.stderr), back.stderr
    tone = (tmp_path / "back" / "memory" / "preference_tone.md").read_text(encoding="utf-8")
    assert "scope" not in tone and "Scope" not in tone and tone.endswith("\nSay what is wrong first, then why.\n")


def test_the_files_layout_comes_home_around_the_key_taken_out(runner, tmp_path):
    # The file's hand layout (its '---   ' lines) follows the key's lines out: the format patch's changes are moved to
    # where their lines are in the rendering without the key (format_patch.rebuild_moved). Before, the patch no
    # longer fit, and the file came home as memoir writes it.
    there, claim, text = memspec_of_messy_memoir(runner, tmp_path)
    claim.write_text(text.replace(WHY, "\n"), encoding="utf-8")
    said, decision = decision_home(runner, there, tmp_path)
    original = (GOLDEN / "memoir" / "messy" / "input" / "memory" / "decision_tabs.md").read_text(encoding="utf-8")
    assert decision == original.replace("why: >-\n  make requires tabs;\n  no choice here\n", "")
