"""Facts about the store being converted: which dialect each record belongs to, which of its
indexes and store facts travel, and which lifecycle states a target can mark."""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..errors import MemconvError
from ..model import Record, Store, clone, fingerprint
from . import layout
from .mapping import INDEX_IS_CONTENT, LIFECYCLE, TARGET_KIND


#: What memspec's own commands add to a record (``verify``, ``sweep``) that the other dialects
#: have no word for: a record home again keeps them in its own carry.
WITNESS = ("last_verified", "verified_with", "stale", "ext")


SELF_CARRIED = frozenset(WITNESS) | {"link", "check_by"}


def store_origin(store: Store) -> str:
    return store.dialect if store.dialect in TARGET_KIND else "memoir"


def origin_of(store: Store, record: Record, origins: dict[int, str]) -> str:
    """The dialect ``record`` belongs to: where it was restored from, read from, or the store's."""
    if id(record) in origins:
        return origins[id(record)]
    if record.source is not None and record.source.dialect in TARGET_KIND:
        return record.source.dialect
    return store.dialect if store.dialect in TARGET_KIND else "memoir"


def origin_holds(record: Record, origin: str) -> bool:
    """Whether ``origin``'s writer can write ``record`` as its own; the writer itself judges a kind
    the mapping does not name for it (a carry in IN may claim any origin)."""
    if origin not in TARGET_KIND or record.kind in set(TARGET_KIND[origin].values()):
        return True
    try:
        dialects.get(origin).write(Store(dialect=origin, records=[clone(record)]))
    except MemconvError:
        return False
    return True


def by_origin(store: Store, records: list[Record], origins: dict[int, str]) -> dict[str, list[Record]]:
    """Records read from a file of their own dialect and unchanged since, grouped by that dialect."""
    groups: dict[str, list[Record]] = {}
    for record in records:
        src = record.source
        if src is not None and src.has_raw and src.dialect in TARGET_KIND \
                and src.dialect == origin_of(store, record, origins) and src.fingerprint == fingerprint(record):
            groups.setdefault(src.dialect, []).append(record)
    return groups


#: Store facts every writer assumes when it is told nothing: not worth a note.
_META_DEFAULTS = {"layout": "nested", "prefix": ".memspec/", "operators": (), "root": "memory"}


#: Store facts that describe one read, not the store: never carried.
_META_TRANSIENT = frozenset({"left_out"})


def carried_meta(store: Store) -> dict[str, Any]:
    """The source store's facts its own writer needs to give the same files back."""
    out = {}
    for key, value in store.meta.items():
        if key in _META_TRANSIENT or key.startswith("memconv."):
            continue
        default = _META_DEFAULTS.get(key, object())
        if value == default or (isinstance(value, (list, tuple)) and tuple(value) == default):
            continue
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


def carried_indexes(store: Store, own: bool) -> list:
    """The store's index files that carry something of their own.

    A memfmt ``MEMORY.md`` is regenerated from the records by every writer of
    memfmt, so it never is (its ``generated`` date travels as a store fact).
    A claude ``MEMORY.md`` is maintained by hand: inline bullets and links to
    missing files are content; otherwise it is carried only when the store's
    own records are in it and its writer would not regenerate it as it is.
    """
    if store.dialect not in INDEX_IS_CONTENT:
        return []
    content = [i for i in store.indexes
               if any(s.inline or not all(link.resolved for link in s.links) for s in i.sections)]
    rest = [i for i in store.indexes if i not in content]
    if not own or not rest:
        return content
    # The pages its writer would generate for these records, written anew (from their names,
    # descriptions and type words: no entry is rendered).
    probe = Store(dialect="probe", records=[layout.anew(r) for r in store.records])
    regenerated = dialects.get(store.dialect).generated_index(probe)
    return content + [i for i in rest
                      if i.source is None or not i.source.has_raw or regenerated.get(i.path) != i.source.raw]


def holds_state(target: str, kind: str | None, record: Record) -> bool:
    """Whether a ``kind`` of ``target`` can say the record's state (memoir marks it per kind)."""
    state = record.lifecycle.state
    if state == "active" or target != "memoir":
        return True
    if state == "hidden":
        return kind == "decision"
    if state == "superseded":
        return kind == "decision" and any(e.type == "superseded_by" for e in record.edges)
    return state == "done" and kind in ("goal", "next_action") and record.lifecycle.at is not None


def mark_home(record: Record, target: str) -> bool:
    """Whether ``target``, the record's home, can mark its edited state; a decision retracted is forgotten."""
    state, kind = record.lifecycle.state, record.kind
    if target == "memspec":
        return state in LIFECYCLE[target]
    if target != "memoir":
        return False
    if kind == "decision":
        if state == "superseded" and any(e.type == "superseded_by" for e in record.edges):
            return True
        if state in ("hidden", "superseded", "retired") and record.lifecycle.at is not None:
            # memoir's own word for a decision taken back: hidden (``memoir forget``), with the date
            # memoir's validate requires; memspec's supersede records none, and no writer reads the clock.
            record.lifecycle.state = "hidden"
            return True
        return False
    return kind in ("goal", "next_action") and state == "done" and record.lifecycle.at is not None


def where_from(record: Record) -> str:
    return record.source.path if record.source is not None else record.link
