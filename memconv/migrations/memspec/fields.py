"""memspec record frontmatter facts shared by the ladder's steps and the memspec dialect.

One place for the id pattern and for the key order, so that a ladder step, the
reader's checks and the writer cannot drift apart:

- :data:`ID`: ``ms_`` + a 26-character ULID, as memspec mints them;
- :data:`ORDER`: the order memspec 0.7.2's writer (``serializeMemoryFile`` in
  ``src/lib/frontmatter.ts``) puts its keys in, with the newer ``scope`` and
  ``probes``, which 0.7.2 does not know, placed before ``ext`` (the seed names
  them, not their place);
- :func:`slot` and :func:`place`: where a key that is not there yet goes;
- :func:`movable_anchors`: an ``ext.code_anchors`` that memspec's migrator
  moves to ``anchors`` and its schema then accepts;
- the values memspec infers when a record does not say: :func:`infer_source_kind`
  (the trust tier of a ``source``), :func:`infer_verified_with` (its witness),
  :data:`PREDATES_REASON`, :func:`default_check_by` (the default review
  window), and :func:`implied_path` (the folder a record's state, kind and tier
  put it in).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .dates import instant_ms, iso

#: The text of a memspec id, without anchors: ``ms_01HXK7Y3P5QZJKM8N4R2T6W9VB``.
ID_TEXT = r"ms_[0-9A-Z]{26}"
#: A memspec id: ``ms_01HXK7Y3P5QZJKM8N4R2T6W9VB``.
ID = re.compile(rf"^{ID_TEXT}$")

#: What memspec's migrate writes as the ``supersede_reason`` of a superseded record that has none.
PREDATES_REASON = "(predates reason tracking)"

#: memspec's writer key order (see the module docstring).
ORDER = ("id", "kind", "type", "state", "created", "source", "source_kind", "tags", "check_by", "stale",
         "last_verified", "verified_with", "pinned", "anchors", "supersedes", "superseded_by",
         "supersede_reason", "conflicts_with", "refines", "supports", "depends_on", "expires",
         "valid_from", "valid_to", "scope", "probes", "ext")


def slot(keys: Iterable[str | None], key: str) -> int:
    """Where ``key`` goes among ``keys``: just after the last one that comes before it in :data:`ORDER`, else first."""
    earlier = ORDER[: ORDER.index(key)]
    at = 0
    for i, k in enumerate(keys):
        if k in earlier:
            at = i + 1
    return at


def place(values: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``values`` with ``key`` set: in place if present, else at its :func:`slot`."""
    out = dict(values)
    if key in values:
        out[key] = value
        return out
    items = list(values.items())
    items.insert(slot(values, key), (key, value))
    return dict(items)


def insert_after(values: dict[str, Any], after: str, key: str, value: Any) -> dict[str, Any]:
    """``values`` with ``key`` just after ``after`` (first, if ``after`` is absent)."""
    out: dict[str, Any] = {}
    placed = False
    for k, v in values.items():
        out[k] = v
        if k == after:
            out[key] = value
            placed = True
    if not placed:
        out = {key: value, **values}
    return out


def movable_anchors(value: Any) -> bool:
    """Whether a v0.2 ``ext.code_anchors`` moves to ``anchors``: a list (memspec's migrator moves only an array)
    of mappings with a string ``file`` and ``sha`` and, if present, a string ``repo`` (memspec's anchor schema)."""
    return isinstance(value, list) and all(
        isinstance(item, dict) and isinstance(item.get("file"), str) and isinstance(item.get("sha"), str)
        and isinstance(item.get("repo", ""), str) for item in value)


#: memspec's operator names: ``siim``, ``user`` (any case).
_OPERATOR = re.compile(r"^(siim|user)$", re.IGNORECASE)
#: Import sources: ``migration-2026``, ``claude-fable``, ``brownfield-import``.
_IMPORT = re.compile(r"^(migration-|claude-fable|.*-import$|openclaw-import)", re.IGNORECASE)


def infer_source_kind(source: str, operators: tuple[str, ...] = ()) -> str:
    """The trust tier memspec infers from a ``source``: operator, import or agent."""
    if _OPERATOR.match(source) or source.lower().startswith("human:") or source in operators:
        return "operator"
    if _IMPORT.match(source):
        return "import"
    return "agent"


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
    """Where (relative to ``.memspec``) the record belongs; a dated observations folder it is in is kept."""
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


def infer_verified_with(values: dict[str, Any]) -> str:
    """memspec's ``inferVerifiedWith`` (``src/commands/migrate.ts``): how a record that does not say was witnessed."""
    anchors = values.get("anchors")
    if isinstance(anchors, list) and anchors and values.get("last_verified"):
        return "anchor"
    ext = values.get("ext")
    last = ext.get("last_verification") if isinstance(ext, dict) else None
    if isinstance(last, dict) and "evidence" in last:
        return "evidence"
    if values.get("source_kind") == "operator":
        return "operator"
    return "assertion"
