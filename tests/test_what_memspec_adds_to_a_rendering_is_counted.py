"""What memspec's tools add to a rendering memconv wrote (an inline ``MEMORY.md`` bullet's claim, the working
set's) is counted as dropped on the way home, not only warned about.

``memspec migrate --apply`` gives a claim ``stale`` once its review is past (and ``verified_with`` where it has
none). A claim that renders an inline bullet of a Claude index comes home as that bullet, from the index's note,
byte for byte: the index has no place for them. A warning said "dropped" while the counts said 0 dropped and
``--fail-on-loss`` passed. They are now counted, so ``--fail-on-loss`` fails (exit 5), and the index still comes
back as it was.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import memspec, needs_memspec


@needs_memspec
def test_a_migrate_of_inline_bullets_claims_is_counted_dropped(runner, tmp_path):
    # Broken once: without restore._dropped_from_rendering the counts said 0 dropped and --fail-on-loss exited 0.
    inp = GOLDEN / "claude" / "inline-only" / "input"
    out = tmp_path / "ms"
    assert runner.invoke(main, ["claude-to-memspec", str(inp), str(out)]).exit_code == 0
    done = memspec(out, "migrate", "--apply")
    assert done.returncode == 0 and "Wrote" in done.stdout, done.stdout + done.stderr
    args = ["memspec-to-claude", "--json", str(out)]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["MEMORY.md"] == tree(inp)["MEMORY.md"]
    report = json.loads(result.stdout)
    dropped = [f for f in report["files"] if f["dropped"]]
    # (memconv writes the verified_with migrate would infer, forty-seventh session: what it adds is stale, its
    # check_by past today)
    assert dropped and all(f["target"] == "MEMORY.md" and f["dropped"] == ["stale"] for f in dropped), dropped
    assert report["counts"]["dropped"] == sum(len(f["dropped"]) for f in dropped)
    failed = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")])
    assert failed.exit_code == 5, failed.output
    assert not (tmp_path / "back2").exists()


def test_a_verification_of_the_working_set_rendering_is_counted_dropped(runner, tmp_path):
    # The working set comes home from its note; what memspec's verify added to its claim has no place there.
    # Broken once with the inline test (one helper): 0 dropped, exit 0.
    inp = GOLDEN / "memoir" / "canonical" / "input"
    out = tmp_path / "ms"
    assert runner.invoke(main, ["memoir-to-memspec", str(inp), str(out)]).exit_code == 0
    [claim] = [c for c in (out / ".memspec" / "memory").rglob("ms_*.md") if "\n# Working set\n" in c.read_text()]
    text = claim.read_text()
    # as memspec's verify (memconv wrote the assertion memspec's migrate would infer)
    claim.write_text(text.replace("\nverified_with: assertion\n", "\nverified_with: evidence\n", 1))
    args = ["memspec-to-memoir", "--json", str(out)]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["session.json"] == tree(inp)["session.json"]
    report = json.loads(result.stdout)
    assert [(f["target"], f["dropped"]) for f in report["files"] if f["dropped"]] == [("session.json",
                                                                                          ["verified_with"])]
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5


def test_a_key_added_to_an_inline_bullets_rendering_is_counted_dropped(runner, tmp_path):
    # An inline bullet of a Claude index is a memoir fact there; a key written into its frontmatter by hand has no place
    # in the bullet, which comes home from the index's note. Before, it was lost with nothing said: 0 dropped, exit 0
    # (found by adding a key to each file of every golden conversion).
    inp = GOLDEN / "claude" / "inline-only" / "input"
    out = tmp_path / "memoir"
    assert runner.invoke(main, ["claude-to-memoir", str(inp), str(out)]).exit_code == 0
    [fact] = [p for p in (out / "memory").glob("fact_*.md") if "Tailwind" in p.read_text()]
    fact.write_text(fact.read_text().replace("---\n", "---\nowner: ana\n", 1))
    args = ["memoir-to-claude", "--json", str(out)]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["MEMORY.md"] == tree(inp)["MEMORY.md"]
    report = json.loads(result.stdout)
    assert [(f["target"], f["dropped"]) for f in report["files"] if f["dropped"]] == [("MEMORY.md", ["extra.owner"])]
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5
