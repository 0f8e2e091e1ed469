"""memspec record frontmatter facts shared by the ladder's steps and the memspec dialect.

One place for the id pattern and for the key order, so that a ladder step, the
reader's checks and the writer cannot drift apart:

- :data:`ID`: ``ms_`` + a 26-character ULID, as memspec mints them;
- :data:`ORDER`: the order memspec 0.7.2's writer (``serializeMemoryFile`` in
  ``src/lib/frontmatter.ts``) puts its keys in, with the newer ``scope`` and
  ``probes``, which 0.7.2 does not know, placed before ``ext`` (the seed names
  them, not their place);
- :func:`slot` and :func:`place`: where a key that is not there yet goes.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

#: The text of a memspec id, without anchors: ``ms_01HXK7Y3P5QZJKM8N4R2T6W9VB``.
ID_TEXT = r"ms_[0-9A-Z]{26}"
#: A memspec id: ``ms_01HXK7Y3P5QZJKM8N4R2T6W9VB``.
ID = re.compile(rf"^{ID_TEXT}$")

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
