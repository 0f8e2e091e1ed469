"""A labelled line memconv wrote for a field (``**Why:** …``, ``**Entity type:** person``), its value taken out in
the target and its label left, empties the field on the way home, and the report says the field was edited.

Before (found by fuzzing edits of converted stores, 2026-12-05): the bare label came home as a paragraph of the
body, or as one more fact of a memfmt entity (``- **Entity type:**``), and the old value stayed, so the edit was
said ("edited: facts") but not done.
"""

from __future__ import annotations

import re

import pytest

from memconv.cli import main

from .conftest import GOLDEN
from .test_a_deleted_labelled_line_empties_its_field import WHY, decision_home, memspec_of_messy_memoir


def test_an_emptied_why_line_empties_the_decisions_why(runner, tmp_path):
    there, claim, text = memspec_of_messy_memoir(runner, tmp_path)
    claim.write_text(text.replace(WHY, "\n**Why:**\n"), encoding="utf-8")
    said, decision = decision_home(runner, there, tmp_path)
    assert re.search(r"edited in memspec: [^\n]*\bwhy\b", said), said
    assert "why:" not in decision and "**Why:**" not in decision and "tabs" in decision


@pytest.mark.parametrize("edit", [("\n**Entity type:** person\n", "\n**Entity type:**\n"),
                                  # Deleted whole (tests/test_a_deleted_labelled_line_empties_its_field.py): a memfmt
                                  # entity's text is its facts at home, and the deletion is told from the facts shown
                                  # then (before, facts without the line read as unchanged, and the type stayed).
                                  ("\n\n**Entity type:** person\n", "\n")], ids=["emptied", "deleted"])
def test_an_emptied_entity_type_line_empties_the_entitys_type(runner, tmp_path, edit):
    there = tmp_path / "memoir"
    assert runner.invoke(main, ["memfmt-to-memoir", str(GOLDEN / "memfmt" / "full" / "input"), str(there)]
                         ).exit_code == 0
    ali = there / "memory" / "fact_ali.md"
    text = ali.read_text(encoding="utf-8")
    assert edit[0] in text
    ali.write_text(text.replace(*edit), encoding="utf-8")
    back = runner.invoke(main, ["memoir-to-memfmt", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "edited in memoir: category" in back.stderr
    entity = (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(encoding="utf-8")
    assert "entity_type:" not in entity and "Entity type" not in entity
    assert entity.split("## Facts\n\n", 1)[1].split("\n\n", 1)[0] == (
        "- prefers Rust for memory safety\n- based in Tokyo\n- writes \"memfmt\": a format")



@pytest.mark.parametrize("now", ["\n**priority:**\n", "\n"], ids=["emptied", "deleted"])
def test_an_emptied_line_of_an_unknown_key_takes_the_key_out(runner, tmp_path, now):
    # memspec hides a record's unknown keys, so each is a line of the body there (`**priority:** high`). Deleted
    # whole (tests/test_a_deleted_labelled_line_empties_its_field.py), likewise: the rest of the body as it was.
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["claude-to-memspec", str(GOLDEN / "claude" / "mixed-project" / "input"), str(there)]
                         ).exit_code == 0
    shown = [p for p in there.rglob("*.md") if "\n**priority:** high\n" in p.read_text(encoding="utf-8")]
    assert len(shown) == 1
    shown[0].write_text(shown[0].read_text(encoding="utf-8").replace("\n**priority:** high\n", now),
                        encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-claude", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "extra.priority" in back.stderr
    staging = (tmp_path / "back" / "reference_staging.md").read_text(encoding="utf-8")
    assert "priority" not in staging
    assert staging.endswith("bearer-token auth, tokens minted by\n`scripts/mint-token.sh`.\n")


def test_an_emptied_rejected_line_of_an_episode_empties_the_decisions_rejected(runner, tmp_path):
    # A decision is a memfmt episode whose context ends with its **Why:** and **Rejected:** lines (transforms:
    # to_episode). Emptied there, the bare label came home as a paragraph with the why line, both out of the keys.
    there = tmp_path / "memfmt"
    assert runner.invoke(main, ["claude-to-memfmt", str(GOLDEN / "claude" / "mixed-project" / "input"), str(there)]
                         ).exit_code == 0
    episode = next((there / "memory" / "episodes").glob("*Local store is SQLite*.md"))
    text = episode.read_text(encoding="utf-8")
    assert "\n**Rejected:** Postgres — better concurrency" in text
    episode.write_text(re.sub(r"\n\*\*Rejected:\*\* [^\n]*", "\n**Rejected:**", text), encoding="utf-8")
    back = runner.invoke(main, ["memfmt-to-claude", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    decision = (tmp_path / "back" / "decision_local-db.md").read_text(encoding="utf-8")
    assert "rejected" not in decision.lower().replace("postgres rejected", "")
    assert "\nwhy: Zero-dependency install" in decision and "**Why:**" not in decision
