"""memspec v0.3/v0.4 → current: put the file where current memspec keeps it, and give it a ``check_by``.

Relocation follows memspec's migrator: a superseded or retired record goes to
``archive/``; an observation to ``observations/`` (an observation already in a
dated ``observations/YYYY-MM-DD/`` folder stays there, as memspec leaves it);
an active claim to ``memory/<type>s/``, or ``memory/operator/<type>s/`` when its
trust tier is operator (v0.4 tier segregation).

``check_by`` is required by every memspec since v0.3. A legacy record with no
``decay_after`` gets memspec's default review window from ``created`` (fact 90
days, decision 180, procedure 90; an observation its ``expires``), and the
report says so. Nothing else changes: the fields added after v0.4 are optional.
"""

from __future__ import annotations

import re
from typing import Any

from .dates import instant_ms, iso
from .fields import place
from .v02_to_v04 import infer_source_kind

DESCRIPTION = "memspec v0.3/v0.4 → current: moved the file to the folder its state, kind and tier imply"

#: Default review windows in days, from memspec's ``DEFAULT_DECAY_DAYS``.
REVIEW_DAYS = {"fact": 90, "decision": 180, "procedure": 90}
OBSERVATION_DAYS = 7
#: A dated observations folder of older stores: ``observations/2026-04-04/``.
DATED_OBSERVATIONS = re.compile(r"^observations/\d{4}-\d{2}-\d{2}[^/]*/")


def implied_folder(values: dict[str, Any], operators: tuple[str, ...] = ()) -> str:
    """The folder (relative to ``.memspec``) that a record's state, kind and tier imply."""
    if values.get("state") != "active":
        return "archive"
    kind = values.get("kind", "claim")
    rtype = values.get("type")
    if kind == "observation" or not rtype:
        return "observations"
    tier = values.get("source_kind")
    if tier is None:
        source = values.get("source")
        tier = infer_source_kind(source if isinstance(source, str) else "", operators)
    return f"memory/operator/{rtype}s" if tier == "operator" else f"memory/{rtype}s"


def implied_path(values: dict[str, Any], current: str | None, operators: tuple[str, ...] = ()) -> str:
    folder = implied_folder(values, operators)
    if folder == "observations" and values.get("kind") == "observation" and current:
        dated = DATED_OBSERVATIONS.match(current)
        if dated:
            folder = dated.group(0).rstrip("/")
    return f"{folder}/{values['id']}.md"


def default_check_by(values: dict[str, Any]) -> str | None:
    """memspec's default ``check_by`` for a record that has none, or None if ``created`` is unusable."""
    if values.get("kind") == "observation":
        if isinstance(values.get("expires"), str):
            return values["expires"]
        days = OBSERVATION_DAYS
    else:
        days = REVIEW_DAYS.get(values.get("type"), 90)
    ms = instant_ms(values.get("created"))
    if ms is None:
        return None
    return iso(ms + days * 86_400_000)


def step(draft):
    values = dict(draft.values)
    notes = []
    if "check_by" not in values:
        default = default_check_by(values)
        if default is None:
            values = place(values, "check_by", "never")
            notes.append("check_by: never (absent, and created is not a date to count a review window from)")
        else:
            values = place(values, "check_by", default)
            notes.append(f"check_by: {default} (absent; memspec's default review window from created)")
    target = implied_path(values, draft.path, draft.operators)
    if target != draft.path:
        notes.append(f"relocated {draft.path} → {target}")
    return draft.note(values, *notes, path=target)
