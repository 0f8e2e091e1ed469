"""memspec v0.1/v0.2 → v0.3/v0.4: the field mapping of memspec's MIGRATION-v0.3.

- state ``captured→active``, ``corrected→superseded``, ``decayed|archived→retired``;
- ``kind: claim`` when absent;
- ``decay_after→check_by``; ``corrects→supersedes[]``; ``corrected_by→superseded_by``;
  ``correction_reason→supersede_reason``, backfilled with
  ``(predates reason tracking)`` on a superseded record that has none;
- ``ext.code_anchors→anchors`` when it is a list memspec's schema accepts (memspec's
  migrator moves only a list), else left in ``ext`` as it was, and said;
  ``confidence→ext.legacy_confidence``;
- ``source_kind`` inferred from ``source`` (``human:*``, ``siim``, ``user`` or a
  configured operator → operator; ``*-import``, ``migration-*`` and memspec's
  known importers → import; else agent);
- ``verified_with`` inferred (anchors + ``last_verified`` → anchor; evidence in
  ``ext.last_verification`` → evidence; operator source → operator; else assertion).

Where memspec's migrator drops a value (a ``decay_after`` beside a
``check_by``, a second copy of the anchors, a non-numeric confidence), this
step keeps it under ``ext.legacy_*`` and says so; a value already under that key
keeps it, and the new one takes the first free ``<key>_2``, ``<key>_3``…
(:func:`_keep`), so neither is lost. It never sets ``stale``:
that depends on the day the migration runs, and memspec computes it on read.
An empty (null) ``decay_after``, ``corrects``, ``corrected_by`` or ``correction_reason`` holds
nothing and is dropped, and said, rather than renamed to a null memspec's schema refuses.
Unknown keys pass through in order.
"""

from __future__ import annotations

from typing import Any

from .fields import PREDATES_REASON, infer_source_kind, infer_verified_with, insert_after, movable_anchors, place

DESCRIPTION = "memspec v0.2 → v0.3/v0.4: renamed legacy fields, mapped states, inferred source_kind and verified_with"

_LEGACY_STATES = {"captured": "active", "corrected": "superseded", "decayed": "retired", "archived": "retired"}


def _rename(values: dict[str, Any], old: str, new: str, convert=lambda v: v) -> dict[str, Any]:
    """``values`` with ``old`` renamed to ``new`` in place (same position)."""
    return {(new if k == old else k): (convert(v) if k == old else v) for k, v in values.items()}


def _keep(ext: dict[str, Any], key: str, value: Any) -> str | None:
    """Put ``value`` in ``ext`` under ``key``, or the first free ``key_2``, ``key_3``… when ``key`` holds another
    value (never overwritten); the key it is under, or None when ``ext`` already holds it there."""
    name, n = key, 1
    while name in ext:
        if ext[name] == value:
            return None
        n += 1
        name = f"{key}_{n}"
    ext[name] = value
    return name


def _kept_said(ext: dict[str, Any], key: str, value: Any, what: str, why: str) -> str:
    """``value`` of ``what`` kept in ``ext`` under ``key`` (:func:`_keep`), and the report's line that says where."""
    name = _keep(ext, key, value)
    return f"{what} kept as ext.{name} ({why})" if name else f"{what} dropped (same as ext.{key}; {why})"


def step(draft):
    values = dict(draft.values)
    changes: list[str] = []
    raw_ext = values.get("ext")
    ext = dict(raw_ext) if isinstance(raw_ext, dict) else None

    def open_ext() -> dict[str, Any]:
        """``ext`` as a mapping to keep a value in; an ``ext`` that is not one (a list, a word) is kept in it first,
        under ``legacy_ext``, and said, never replaced: memspec's schema wants a mapping there."""
        nonlocal ext
        if ext is None:
            ext = {}
            if raw_ext is not None:
                changes.append(_kept_said(ext, "legacy_ext", raw_ext, "ext",
                                          "it was not a mapping, and a legacy value goes into ext"))
        return ext

    state = values.get("state")
    if state in _LEGACY_STATES:
        values["state"] = _LEGACY_STATES[state]
        changes.append(f"state {state} → {values['state']}")
    if "kind" not in values:
        values = insert_after(values, "id", "kind", "claim")
        changes.append("kind: claim (absent; pre-0.3 records were all claims)")

    def keep_legacy(key: str, value: Any, why: str) -> None:
        changes.append(_kept_said(open_ext(), f"legacy_{key}", value, key, why))

    for old, new in (("decay_after", "check_by"), ("corrected_by", "superseded_by"),
                     ("correction_reason", "supersede_reason"), ("corrects", "supersedes")):
        if old not in values:
            continue
        if values[old] is None:  # `corrects:` with no value holds nothing; renamed, memspec's schema refuses it
            del values[old]
            changes.append(f"{old} dropped (empty)")
            continue
        convert = (lambda v: v if isinstance(v, list) else [v]) if old == "corrects" else (lambda v: v)
        if new in values:
            if values[new] != convert(values[old]):
                keep_legacy(old, values[old], f"{new} is also set and wins")
            else:
                changes.append(f"{old} dropped (same as {new})")
            del values[old]
        else:
            values = _rename(values, old, new, convert)
            changes.append(f"{old} → {new}")

    if (values.get("state") == "superseded" or "superseded_by" in values) and not values.get("supersede_reason"):
        values = place(values, "supersede_reason", PREDATES_REASON)
        changes.append(f"supersede_reason backfilled: \"{PREDATES_REASON}\"")

    if ext is not None and "code_anchors" in ext and not movable_anchors(ext["code_anchors"]):
        changes.append("ext.code_anchors left in ext (not a list of {file, sha, repo?}: memspec's anchors "
                       "could not hold it)")
    elif ext is not None and "code_anchors" in ext:
        anchors = ext.pop("code_anchors")
        if "anchors" not in values:
            values = place(values, "anchors", anchors)
            changes.append("ext.code_anchors → anchors")
        elif values["anchors"] == anchors:
            changes.append("ext.code_anchors dropped (same as anchors)")
        else:
            changes.append(_kept_said(ext, "legacy_code_anchors", anchors, "ext.code_anchors",
                                      "anchors is also set and wins"))

    if "confidence" in values:
        confidence = values.pop("confidence")
        ext = open_ext()
        if "legacy_confidence" not in ext:
            ext["legacy_confidence"] = confidence
            changes.append(f"confidence {confidence!r} → ext.legacy_confidence")
        elif ext["legacy_confidence"] == confidence:
            changes.append("confidence dropped (same as ext.legacy_confidence)")
        else:
            changes.append(_kept_said(ext, "legacy_confidence_top_level", confidence, "confidence",
                                      "ext.legacy_confidence is also set"))

    if ext is not None:
        if ext:
            values = place(values, "ext", ext)
        else:
            values.pop("ext", None)
            changes.append("ext removed (empty once code_anchors moved out)")

    if "source_kind" not in values:
        source = values.get("source")
        kind = infer_source_kind(source if isinstance(source, str) else "", draft.operators)
        values = place(values, "source_kind", kind)
        changes.append(f"source_kind: {kind} (inferred from source {source!r})")

    if "verified_with" not in values:
        witness = infer_verified_with(values)
        values = place(values, "verified_with", witness)
        changes.append(f"verified_with: {witness} (inferred)")

    return draft.changed(values, *changes)
