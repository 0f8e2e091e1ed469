"""A next action or goal its session has completed is not shown as live in the target.

memoir's completion tombstones are temporal (spec §5.3.2): an item of ``next_actions`` (or ``parked_actions``) whose
identity is in ``completed_actions`` with a ``done_at`` not before its ``added`` is done, and so is a goal against
``completed_goals`` on ``set_on``; a copy added later is a deliberate re-add and lives. Such a stale copy is what a
merge of two replicas by hand (or by git) leaves, and a reader must never display a completed action as live (§8).
The working set's rendering showed it under "Next actions" (and "Goals") in Claude, memspec and memfmt, beside the
same item under "Completed actions". The session still comes home byte for byte from its note.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import tree

SESSION = {
    "version": 1,
    "created_at": "2026-04-18T08:22:36.703Z",
    "updated_at": "2026-08-06T21:10:03.001Z",
    "machines": {},
    "current": {
        "goals": [{"text": "Reach 100 beta sign-ups", "set_on": "2026-06-01T09:00:00.000Z"},
                  {"text": "Ship v1 again", "set_on": "2026-08-01T09:00:00.000Z"}],
        "next_actions": [{"text": "Fix the flaky upload test", "added": "2026-06-01T09:00:00.000Z"},
                         {"text": "Tag the release", "added": "2026-08-02T09:00:00.000Z"}],
        "parked_actions": [{"text": "Write the migration guide", "added": "2026-05-20T10:00:00.000Z",
                            "parked_at": "2026-06-12T09:30:00.000Z"}],
        "completed_actions": [{"text": "fix the flaky upload test", "done_at": "2026-06-05T17:45:00.000Z"},
                              {"text": "Write the migration guide", "done_at": "2026-06-20T10:00:00.000Z"},
                              {"text": "Tag the release", "done_at": "2026-07-01T09:00:00.000Z"}],
        "completed_goals": [{"text": "Reach 100 beta sign-ups", "done_at": "2026-07-30T12:00:00.000Z"},
                            {"text": "ship v1 again", "done_at": "2026-07-01T12:00:00.000Z"}],
        "open_questions": [],
        "decisions": [],
    },
    "history": [],
}


def _shown(root) -> str:
    """Every file of ``root`` the target's user reads (memconv's notes and manifest aside), as one text."""
    return "\n".join(data.decode("utf-8") for path, data in sorted(tree(root).items())
                     if ".memconv" not in path.split("/"))


def test_a_completed_action_or_goal_is_shown_only_as_completed(runner, tmp_path):
    inp = tmp_path / "in"
    (inp / "memory").mkdir(parents=True)
    (inp / "session.json").write_text(json.dumps(SESSION, indent=2), encoding="utf-8")
    for tgt in ("claude", "memspec", "memfmt"):
        out = tmp_path / tgt
        assert runner.invoke(main, [f"memoir-to-{tgt}", str(inp), str(out)]).exit_code == 0
        shown = _shown(out)
        # Done: shown only where the session says it was completed.
        assert "Fix the flaky upload test (added" not in shown, tgt
        assert "Write the migration guide (added" not in shown, tgt
        assert "Reach 100 beta sign-ups (set_on" not in shown, tgt
        assert "fix the flaky upload test (done_at 2026-06-05" in shown, tgt
        assert "Reach 100 beta sign-ups (done_at" in shown, tgt
        # Re-added after its done_at: live.
        assert "Tag the release (added 2026-08-02" in shown, tgt
        assert "Ship v1 again (set_on 2026-08-01" in shown, tgt
        back = runner.invoke(main, [f"{tgt}-to-memoir", "--fail-on-loss", str(out), str(tmp_path / f"{tgt}-home")])
        assert back.exit_code == 0, back.output
        assert tree(tmp_path / f"{tgt}-home")["session.json"] == tree(inp)["session.json"], tgt
