"""session.json 0 → 1: stamp the version and fill the lists v1 requires.

Version 0 is what a file without ``version`` (or with ``0``) is: written by
memoir-cli builds before the field existed. Step 1 adds ``version: 1`` as the
first key, as memoir-cli writes it, and fills the containers spec §4.1 makes
required (``machines``, ``current`` with its four lists, ``history``) when they
are missing or ``null`` (memoir-cli's own migration does the same; a ``null`` kept
was a file its validator rejects). A value of another wrong shape is kept as written:
it may hold someone's data (the reader says so: :data:`REQUIRED` is what it checks). It
invents no dates: a missing ``created_at`` stays missing, and the reader warns about it.
Every key it does not know passes through.
"""

from __future__ import annotations

from typing import Any

DESCRIPTION = "session.json: version 0 (unversioned) → 1: stamped version, filled missing required lists"

REQUIRED_CURRENT = ("goals", "next_actions", "open_questions", "decisions")
#: The containers spec §4.1 requires, by dotted key, and the JSON type each must be (memoir-cli's validator's rule).
REQUIRED = {"machines": dict, "current": dict, **{f"current.{n}": list for n in REQUIRED_CURRENT}, "history": list}


def step(document: dict[str, Any]) -> dict[str, Any]:
    items = [("version", 1)] + [(k, v) for k, v in document.items() if k != "version"]
    keys = [k for k, _ in items]
    if "machines" not in keys:
        # Where memoir-cli writes it: after the dates.
        at = max(keys.index(k) for k in ("version", "created_at", "updated_at") if k in keys) + 1
        items.insert(at, ("machines", {}))
    out = dict(items)
    for name, empty in (("machines", {}), ("history", [])):
        if name in out and out[name] is None:  # null holds nothing: filled where it is, as memoir-cli's migration does
            out[name] = empty
    current = out.get("current")
    if current is None:
        current = {}
    if isinstance(current, dict):
        current = dict(current)  # a step is pure: never mutate the input
        for name in REQUIRED_CURRENT:
            if current.get(name) is None:  # missing or null: null holds nothing, so it is filled where it is
                current[name] = []
        out["current"] = current
    out.setdefault("history", [])
    return out
