"""A session.json as memoir-cli 3.12 writes it, for the import and merge tests of session items."""

from __future__ import annotations

import json

MACHINE = "469b55a7-69d0-4283-9214-19f15c023e6e"
CREATED = "2026-12-07T22:11:15.335Z"


def session_json(last_seen: str, next_actions: list[tuple[str, str]], done: list[tuple[str, str]], *,
                 goal_set_on: str = "2026-12-07T22:11:15.351Z", more_goals: tuple[tuple[str, str], ...] = (),
                 decision: tuple[str, str] = ("2026-12-07T22:11:23.812Z", "it scales")) -> str:
    """Two-space JSON, next actions in the order they were added (memoir-cli appends): one machine seen at
    ``last_seen``, the goal "Ship v1" set on ``goal_set_on`` and ``more_goals`` (text, set on), the decision
    "Use Postgres" (date, why), ``next_actions`` (text, added) and ``done`` (text, done at)."""
    when, why = decision
    doc = {
        "version": 1,
        "created_at": CREATED,
        "updated_at": last_seen,
        "machines": {MACHINE: {"label": "vm", "last_seen": last_seen}},
        "current": {
            "goals": [{"text": t, "machine_id": MACHINE, "set_on": s}
                      for t, s in (("Ship v1", goal_set_on), *more_goals)],
            "next_actions": [{"text": t, "machine_id": MACHINE, "added": a} for t, a in next_actions],
            "open_questions": [],
            "decisions": [{"text": "Use Postgres", "machine_id": MACHINE, "date": when, "why": why}],
            "completed_actions": [{"text": t, "done_at": d} for t, d in done],
        },
        "history": [],
    }
    return json.dumps(doc, indent=2)
