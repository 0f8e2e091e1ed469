"""memspec's ladder: v0.1/v0.2 → v0.3/v0.4 → current, one pure step per generation.

memspec writes no version marker, so a file's generation is read from its
fields (:func:`generation`):

- ``v0.2`` (also v0.1): any of ``confidence``, ``decay_after``, ``corrects``,
  ``corrected_by``, ``correction_reason``, an ``ext.code_anchors`` that moves
  to ``anchors`` (:func:`~.fields.movable_anchors`), or a state in
  ``captured|corrected|decayed|archived``;
- ``current``: none of those. Every field added since v0.3 (``kind``,
  ``source_kind``, ``verified_with``, the v0.4 edges, v0.5 validity, the newer
  ``scope`` and probes) is optional, so a record without legacy fields is a
  valid current record and is never rewritten.

Before climbing, :func:`check` refuses what cannot be read honestly: no or
bad ``id``, an unknown ``state``, a claim without ``type`` (:class:`Unreadable`),
and enum values this memconv does not know — a ``kind``, ``type``,
``verified_with`` or ``source_kind`` from a newer memspec (:class:`TooNew`).
The reader quarantines such files whole.

A step takes a :class:`Draft` (frontmatter values, path, inferences so far)
and returns a new one; the inferences are listed per file in the report so a
person can check every one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .. import Ladder, TooNew, Unreadable
from . import v02_to_v04, v04_to_current
from .fields import ID, movable_anchors

STATES = ("active", "superseded", "retired")
#: Pre-0.3 states and what memspec's own MIGRATION-v0.3 maps them to.
LEGACY_STATES = {"captured": "active", "corrected": "superseded", "decayed": "retired", "archived": "retired"}
#: memspec's own ``kind`` values (not the model's record kinds, :data:`memconv.model.KINDS`).
MEMSPEC_KINDS = ("claim", "observation")
TYPES = ("fact", "decision", "procedure")
SOURCE_KINDS = ("operator", "agent", "import")
#: Witness classes, strongest first; ``probe`` is the newer mechanical witness.
VERIFIED_WITH = ("anchor", "probe", "operator", "evidence", "assertion")
#: Top-level keys only v0.1/v0.2 writers produced.
LEGACY_KEYS = ("confidence", "decay_after", "corrects", "corrected_by", "correction_reason")

LADDER = Ladder(
    subject="memspec record",
    versions=("v0.2", "v0.4", "current"),
    steps={"v0.2": v02_to_v04.step, "v0.4": v04_to_current.step},
    describe={"v0.2": v02_to_v04.DESCRIPTION, "v0.4": v04_to_current.DESCRIPTION},
)


@dataclass(frozen=True)
class Draft:
    """One record on its way up the ladder."""

    #: Frontmatter values, in order.
    values: dict[str, Any]
    #: Path relative to the ``.memspec`` folder (``memory/facts/ms_….md``).
    path: str
    #: What the ladder inferred or changed, one line each, for the report.
    changes: tuple[str, ...] = ()
    #: Source names that mean a person (config ``operators``), besides memspec's own.
    operators: tuple[str, ...] = ()

    def changed(self, values: dict[str, Any], *lines: str, path: str | None = None) -> "Draft":
        """This draft with ``values`` (and ``path``), and ``lines`` added to its changes."""
        return replace(self, values=values, changes=self.changes + lines, path=path or self.path)


def generation(values: dict[str, Any]) -> str:
    """``v0.2`` when any legacy field is present, else ``current``."""
    if any(key in values for key in LEGACY_KEYS):
        return "v0.2"
    if values.get("state") in LEGACY_STATES:
        return "v0.2"
    ext = values.get("ext")
    if isinstance(ext, dict) and "code_anchors" in ext and movable_anchors(ext["code_anchors"]):
        return "v0.2"
    return "current"


def check(values: dict[str, Any]) -> None:
    """Raise :class:`Unreadable` or :class:`TooNew` for a record that must be quarantined."""
    ident = values.get("id")
    if ident is None:
        raise Unreadable("has no 'id'; memspec records are named by an id 'ms_' + 26-character ULID")
    if not isinstance(ident, str) or not ID.match(ident):
        raise Unreadable(f"id {ident!r} is not 'ms_' followed by a 26-character uppercase ULID")
    state = values.get("state")
    if state is None:
        raise Unreadable("has no 'state' (active, superseded or retired)")
    if not isinstance(state, str) or (state not in STATES and state not in LEGACY_STATES):
        raise Unreadable(f"state {state!r} is not a memspec state (active, superseded, retired, or the "
                         "pre-0.3 captured, corrected, decayed, archived)")
    for key, known in (("kind", MEMSPEC_KINDS), ("type", TYPES), ("verified_with", VERIFIED_WITH),
                       ("source_kind", SOURCE_KINDS)):
        if key in values and values[key] not in known:
            raise TooNew(f"{key} {values[key]!r} is not one this memconv knows ({', '.join(known)}); "
                         "it was written by a newer memspec, or by mistake — upgrade memconv or fix it by hand")
    if values.get("kind", "claim") == "claim" and "type" not in values:
        raise Unreadable("is a claim without a 'type' (fact, decision or procedure); memspec skips such files")


def climb(draft: Draft) -> tuple[Draft, str, list[str]]:
    """``draft`` brought to the current generation: the draft, its starting generation, steps applied."""
    check(draft.values)
    start = generation(draft.values)
    if start == "current":
        return draft, start, []
    migrated, done = LADDER.climb(draft, start)
    return migrated, start, done


__all__ = ["Draft", "LADDER", "check", "climb", "generation", "TooNew", "Unreadable"]
