"""A memory that comes home by its format patch, and links a memory whose name the target changed, drops nothing."""

from __future__ import annotations

import json

from .conftest import round_trip, tree

FACT = b"---\ntype: fact\nname: Staging host\ndescription: Where staging lives\ncreated: 2026-01-02\n---\n\n" \
       b"Staging is at staging.example.com.\n"
# `created` before `date`: not the order memoir's writer gives, so the way to Claude carries a format patch.
DECISION = b"---\ntype: decision\nname: Use staging first\ndescription: Deploy to staging before prod\n" \
           b"created: 2026-01-02\ndate: 2026-01-02\n---\n\nSee [[fact_staging-host]].\n"


def test_an_unedited_round_trip_through_claude_counts_no_body_dropped(runner, tmp_path):
    # memoir -> claude -> memoir, nothing edited: the fact is `reference_staging-host` in Claude, and the decision's
    # body there links it so. Before, the body the decision brought home (named as in Claude) was compared with the
    # file written home (named as in memoir), and counted dropped: a warning, and --fail-on-loss refused the run.
    files = {"memory/fact_staging-host.md": FACT, "memory/decision_staging-first.md": DECISION}
    _, back = round_trip(runner, tmp_path, files, "memoir", "claude")
    assert b"[[reference_staging-host]]" in (tmp_path / "away" / "project_staging-first.md").read_bytes()
    report = json.loads(back.stdout)
    assert report["counts"]["dropped"] == 0, [(f["source"], f["dropped"]) for f in report["files"] if f["dropped"]]
    assert not report["warnings"]
    came = {p: b for p, b in tree(tmp_path / "back").items() if not p.startswith(".memconv")}
    assert came == files
    result = runner.invoke(__import__("memconv.cli").cli.main,
                           ["claude-to-memoir", "--fail-on-loss", str(tmp_path / "away"), str(tmp_path / "again")])
    assert result.exit_code == 0, result.output
