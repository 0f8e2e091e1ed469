"""`--into` that changes session.json for one item reports the items it leaves as EXISTING holds them `unchanged`.

A Claude folder converted from a memoir store, imported into a memoir store whose session.json differs from it:
IN brings one next action EXISTING lacks ("Ping Bob") and a goal newer than EXISTING's copy, while EXISTING holds
a newer machine, a decision edited since and an action IN still has live marked done. session.json is rewritten for
IN's two items; every other item stays as EXISTING holds it. Those were reported `updated … EXISTING won` and
`updated … (done) 'Fix the flaky test': tombstone won`, updates counted where nothing of EXISTING's changed; the
rule for an unchanged session.json (forty-sixth session) looked at the whole file. An item is now `unchanged` where
what the merge keeps of it is what EXISTING holds (its list and content), and only changed items read `updated`
(docs/merge.md, forty-seventh session). `memconv merge`, which writes a new OUT, still names the side that won.
"""

from __future__ import annotations

import json
from pathlib import Path

from memconv.cli import main

from .memoir_cli_session import MACHINE, session_json



GOALS = (("Keep the docs true", "2026-12-07T22:11:15.400Z"),)


def _stores(tmp_path: Path, runner) -> tuple[Path, Path]:
    s1, claude, existing = tmp_path / "s1", tmp_path / "o-claude", tmp_path / "existing"
    s1.mkdir()
    (s1 / "session.json").write_text(session_json(
        "2026-12-07T22:11:50.000Z",
        [("Fix the flaky test", "2026-12-07T22:11:21.030Z"), ("Review PR", "2026-12-07T22:11:29.747Z"),
         ("Ping Bob", "2026-12-07T22:11:50.000Z")],
        [("Write the docs", "2026-12-07T22:11:26.730Z")], goal_set_on="2026-12-07T22:11:45.000Z", more_goals=GOALS))
    done = runner.invoke(main, ["memoir-to-claude", str(s1), str(claude)])
    assert done.exit_code == 0, done.output
    existing.mkdir()
    (existing / "session.json").write_text(session_json(
        "2026-12-07T22:12:42.994Z", [("Review PR", "2026-12-07T22:11:29.747Z")],
        [("Fix the flaky test", "2026-12-07T22:11:42.994Z"), ("Write the docs", "2026-12-07T22:11:26.730Z")],
        more_goals=GOALS, decision=("2026-12-07T22:12:30.000Z", "it scales, and we know it")))
    return claude, existing


def _session_records(output: str) -> dict[str, dict]:
    doc = json.loads(output)
    return {f"{r['where']} {r['label']}": r for r in doc["records"] if r["kind"] == "session"}


def test_an_import_reports_only_the_session_items_it_changes_as_updated(runner, tmp_path):
    claude, existing = _stores(tmp_path, runner)
    before = (existing / "session.json").read_bytes()
    done = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--json"])
    assert done.exit_code == 0, done.output
    assert (existing / "session.json").read_bytes() != before  # IN's new action and newer goal are written
    records = _session_records(done.stdout)
    changed = {k: (r["status"], r["won"]) for k, r in records.items() if r["status"] != "unchanged"}
    assert changed == {"session.json current.next_actions Ping Bob": ("added", "IN"),
                       "session.json current.goals Ship v1": ("updated", "IN")}, records
    # EXISTING's newer machine and edited decision, and the action it holds done, stay as EXISTING holds them.
    for kept in (f"session.json machines {MACHINE}", "session.json current.decisions Use Postgres",
                 "session.json current.next_actions (done) Fix the flaky test"):
        assert records[kept]["won"] is None and records[kept]["why"].startswith("IN's copy not taken"), records[kept]
    document = json.loads((existing / "session.json").read_text())
    assert document["machines"][MACHINE]["last_seen"] == "2026-12-07T22:12:42.994Z"
    assert document["current"]["decisions"][0]["why"] == "it scales, and we know it"
    assert "Fix the flaky test" not in [a["text"] for a in document["current"]["next_actions"]]


def test_the_closing_line_counts_the_items_left_as_existing_holds_them_unchanged(runner, tmp_path):
    claude, existing = _stores(tmp_path, runner)
    done = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert done.exit_code == 0, done.output
    assert "1 added, 1 updated," in done.output.splitlines()[-1], done.output
    assert "EXISTING won" not in done.output and "tombstone won" not in done.output, done.output


def test_a_merge_into_a_new_out_still_names_the_side_that_won(runner, tmp_path):
    claude, existing = _stores(tmp_path, runner)
    home = tmp_path / "home"
    assert runner.invoke(main, ["claude-to-memoir", str(claude), str(home)]).exit_code == 0
    done = runner.invoke(main, ["merge", str(existing), str(home), str(tmp_path / "out"), "--json"])
    assert done.exit_code == 0, done.output
    records = _session_records(done.stdout)
    assert (records[f"session.json machines {MACHINE}"]["status"],
            records[f"session.json machines {MACHINE}"]["won"]) == ("updated", "A")  # B's copy is not in OUT
    assert records["session.json current.next_actions (done) Fix the flaky test"]["won"] == "tombstone"
