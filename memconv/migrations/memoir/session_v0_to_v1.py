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
    items = [("version", 1)] + [(k, v) for k, v in document.items() if k != "version"]
    keys = [k for k, _ in items]
    if not isinstance(document.get("machines"), dict) and "machines" not in keys:
        # Where memoir-cli writes it: after the dates.
        at = max(keys.index(k) for k in ("version", "created_at", "updated_at") if k in keys) + 1
        items.insert(at, ("machines", {}))
    out = dict(items)
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
