"""The ``**Relations:**`` lines a target shows for edges it has no key for, where home has a key for each (a memspec
claim's ``supersedes`` shown in Claude), are that key's rendering: a body edited in the target comes home without
them, as it comes home without the other lines memconv showed.

Before (2026-12-05, twenty-fourth session; found by deleting a labelled line of every golden conversion): a body
edited in Claude came home to memspec with the block at its end, beside the ``supersedes`` key it said again.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN

STORE = GOLDEN / "memspec" / "v02-dated-observations" / "input"
MEMORY = "feedback_deploy-with-the-blue-green-script.md"


def _home(runner, tmp_path, edit, warnings: list[str] | None = None) -> str:
    there = tmp_path / "claude"
    assert runner.invoke(main, ["memspec-to-claude", str(STORE), str(there)]).exit_code == 3  # (one file is broken)
    text = (there / MEMORY).read_text(encoding="utf-8")
    assert "\n**Relations:**\n\n- supersedes → [[" in text
    (there / MEMORY).write_text(edit(text), encoding="utf-8")
    back = runner.invoke(main, ["claude-to-memspec", "--json", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code in (0, 3), back.stderr
    if warnings is not None:
        warnings.extend(json.loads(back.stdout)["warnings"])
    (claim,) = [p for p in (tmp_path / "back" / ".memspec").rglob("*.md") if "blue/green" in p.read_text()]
    return claim.read_text(encoding="utf-8")


def test_an_edited_body_comes_home_without_the_relations_lines(runner, tmp_path):
    claim = _home(runner, tmp_path, lambda t: t.replace("**Relations:**", "Check the dashboard after.\n\n**Relations:**"))
    body = claim.split("\n---\n", 1)[1]
    assert "**Relations:**" not in body and "supersedes →" not in body
    assert body.endswith("Run `scripts/deploy --blue-green`.\n\nCheck the dashboard after.\n")
    assert "\nsupersedes:\n" in claim


def test_a_relations_line_edited_to_no_key_of_home_stays_text_and_takes_its_edge_out(runner, tmp_path):
    # The edited block is the claim's edges (readable.relations_back, as a memfmt entity's): the line no longer says
    # the supersedes it showed, so that edge goes; what it says now, a relation memspec has no key for, comes home
    # as text of the body, and the report says both. Before (twenty-fourth session), the whole edited block stayed
    # in the body and the supersedes key came back from the carry (overturned 2026-12-07, forty-third session).
    warnings: list[str] = []
    claim = _home(runner, tmp_path, lambda t: t.replace("- supersedes → [[", "- supersedes (mostly) → [["), warnings)
    frontmatter, body = claim.split("\n---\n", 1)
    assert "\nsupersedes (mostly) → [[ms_" in body and "**Relations:**" not in body
    assert "\nsupersedes:" not in frontmatter
    assert any("says no relation memspec has a key for ('supersedes (mostly) →" in w for w in warnings), warnings
    assert any("edited in claude: body, edges" in w for w in warnings), warnings


def test_relations_of_carried_edges_are_taken_out_by_their_home_names(runner, tmp_path):
    # A memspec claim's depends_on in memoir, the body edited there: the edges come home from the carry, named as
    # memspec names them (ms_…), while the body still named them as memoir does; the block was not found, and came
    # home as text of the memspec body beside the depends_on key (watched fail before; found by editing a body line
    # in the target, bringing it home and converting it there again).
    src = GOLDEN / "memspec" / "canonical" / "input"
    there = tmp_path / "memoir"
    assert runner.invoke(main, ["memspec-to-memoir", str(src), str(there)]).exit_code == 0
    entry = there / "memory" / "decision_team-a-ships-on-tuesdays.md"
    text = entry.read_text(encoding="utf-8")
    assert "\n**Relations:**\n\n- depends_on → [[" in text
    entry.write_text(text.replace("\n\n**Scope:**", "\n\nBring the changelog.\n\n**Scope:**"), encoding="utf-8")
    back = runner.invoke(main, ["memoir-to-memspec", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    (claim,) = [p for p in (tmp_path / "back" / ".memspec").rglob("*.md") if "Team A ships" in p.read_text()]
    claim_text = claim.read_text(encoding="utf-8")
    assert claim_text.endswith("\n# Team A ships on Tuesdays\n\nRelease train leaves Tuesday 10:00.\n\n"
                               "Bring the changelog.\n")
    assert "\ndepends_on:\n" in claim_text
