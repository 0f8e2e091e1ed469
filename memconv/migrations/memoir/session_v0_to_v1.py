"""session.json 0 → 1: stamp the version and fill the lists v1 requires.

Version 0 is what a file without ``version`` (or with ``0``) is: written by
memoir-cli builds before the field existed. Step 1 adds ``version: 1`` as the
first key, as memoir-cli writes it, and fills the containers spec §4.1 makes
required (``machines``, ``current`` with its four lists, ``history``) when they
are missing. It invents no dates: a missing ``created_at`` stays missing, and
the reader warns about it. Every key it does not know passes through.
"""

from __future__ import annotations

from typing import Any

DESCRIPTION = "session.json: version 0 (unversioned) → 1: stamped version, filled missing required lists"

_REQUIRED_CURRENT = ("goals", "next_actions", "open_questions", "decisions")


def step(document: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"version": 1}
    for key, value in document.items():
        if key != "version":
            out[key] = value
    if not isinstance(out.get("machines"), dict):
        out.setdefault("machines", {})
    current = out.get("current")
    if current is None:
        current = {}
    if isinstance(current, dict):
        current = dict(current)  # a step is pure: never mutate the input
        for name in _REQUIRED_CURRENT:
            current.setdefault(name, [])
        out["current"] = current
    out.setdefault("history", [])
    return out
