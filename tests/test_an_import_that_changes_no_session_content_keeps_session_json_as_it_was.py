"""`--into` of a session that changes nothing of EXISTING's leaves session.json's bytes as they were.

memoir-cli appends a next action (``addNext`` pushes), so a store it wrote holds its next actions oldest first,
while the merge lists them newest first (as ``mergeSessions`` sorts). A Claude folder converted from a memoir
store, imported back into a copy of that store where an action was since added and another done, changed no
item of the copy: EXISTING already held the newer machine, the new action and the tombstone. Yet the import
rewrote session.json with its next actions reordered (so ``memoir done 1`` named another action) and reported
"updated … tombstone won" and "updated … machines: EXISTING won". The merged document equal to one side's in
every item, list by list, keeps that side's bytes; an outcome of a session.json left as it is is unchanged
(docs/merge.md, forty-sixth session).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from memconv.cli import main

from .memoir_cli_session import session_json

def _stores(tmp_path: Path, runner) -> tuple[Path, Path]:
    s1, claude, existing = tmp_path / "s1", tmp_path / "o-claude", tmp_path / "s1copy"
    s1.mkdir()
    (s1 / "session.json").write_text(session_json(
        "2026-12-07T22:11:29.747Z",
        [("Fix the flaky test", "2026-12-07T22:11:21.030Z"), ("Review PR", "2026-12-07T22:11:29.747Z")],
        [("Write the docs", "2026-12-07T22:11:26.730Z")]))
    done = runner.invoke(main, ["memoir-to-claude", str(s1), str(claude)])
    assert done.exit_code == 0, done.output
    shutil.copytree(s1, existing)
    # In the copy, as memoir-cli does it: `next "Ping Alice"`, then `done "Fix the"`.
    (existing / "session.json").write_text(session_json(
        "2026-12-07T22:11:42.994Z",
        [("Review PR", "2026-12-07T22:11:29.747Z"), ("Ping Alice", "2026-12-07T22:11:40.331Z")],
        [("Fix the flaky test", "2026-12-07T22:11:42.994Z"), ("Write the docs", "2026-12-07T22:11:26.730Z")]))
    return claude, existing


def test_an_import_that_changes_no_session_item_leaves_session_json_as_it_was(runner, tmp_path):
    claude, existing = _stores(tmp_path, runner)
    before = (existing / "session.json").read_bytes()
    done = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--json"])
    assert done.exit_code == 0, done.output
    assert (existing / "session.json").read_bytes() == before
    doc = json.loads(done.stdout)
    session = [r for r in doc["records"] if r["kind"] == "session"]
    assert session and all(r["status"] == "unchanged" for r in session), session
    [stale] = [r for r in session if r["where"] == "session.json current.next_actions (done)"]
    assert stale["why"].startswith("IN's copy not taken"), stale  # IN's live copy is not in EXISTING


def test_a_merge_equal_to_one_side_in_every_item_keeps_its_order(runner, tmp_path):
    claude, existing = _stores(tmp_path, runner)
    home = tmp_path / "home"
    assert runner.invoke(main, ["claude-to-memoir", str(claude), str(home)]).exit_code == 0
    out = tmp_path / "out"
    done = runner.invoke(main, ["merge", str(existing), str(home), str(out)])
    assert done.exit_code == 0, done.output
    assert (out / "session.json").read_bytes() == (existing / "session.json").read_bytes()
