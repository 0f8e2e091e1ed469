"""Facts about the store being converted: which dialect each record belongs to, which of its
indexes and store facts travel, and which lifecycle states a target can mark."""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..errors import MemconvError
from ..model import Record, Store, clone, fingerprint, unpacked
from . import format_patch, native
from .mapping import INDEX_IS_CONTENT, TARGET_KIND


def witness_fields() -> tuple[str, ...]:
    """What the dialects' own tools add to a record (a verification: memspec's ``verify``, ``sweep``),
    which another dialect may have no word for: a record home again keeps them in its own carry."""
    return tuple(dict.fromkeys(f for fields in dialects.declarations("WITNESS_FIELDS").values() for f in fields))


def witness_edits() -> tuple[str, ...]:
    """What the dialects' own tools change on a record (memspec's ``verify`` sets the next review)."""
    return tuple(dict.fromkeys(f for fields in dialects.declarations("WITNESS_EDITS").values() for f in fields))


def self_carried() -> frozenset[str]:
    """What a record of a dialect may carry in its own dialect: its link, and what other dialects'
    tools added to it or changed on it (its lifecycle: the reason memspec's ``supersede`` gave it,
    ``readable.show_reason``)."""
    return frozenset(witness_fields()) | {"link", "lifecycle", *witness_edits()}


def holds_anchors(dialect: str) -> bool:
    """Whether ``dialect``'s files hold a record's anchors (its ``NATIVE_FIELDS``: memspec's ``anchors``). A record
    of one that does not carries the anchors it has (built in code), so that the way home tells them from anchors
    the target added, which it writes into the body (``readable.fold_in_anchors``)."""
    return "anchors" in dialects.declaration(dialect, "NATIVE_FIELDS")


def reference_dialect() -> str:
    """The dialect a store of no registered dialect is taken for: the registry's first (memoir, whose
    spec the model follows; docs/plugins.md)."""
    return next(iter(dialects.MODULES))


def store_owner(store: Store) -> str:
    return store.dialect if store.dialect in TARGET_KIND else reference_dialect()


def owner_of(store: Store, record: Record, owners: dict[int, str]) -> str:
    """The dialect ``record`` belongs to: where it was restored from, read from, or the store's."""
    if id(record) in owners:
        return owners[id(record)]
    if record.source is not None and record.source.dialect in TARGET_KIND:
        return record.source.dialect
    return store_owner(store)


def owner_can_write(record: Record, owner: str) -> bool:
    """Whether ``owner``'s writer can write ``record`` as its own; the writer itself judges a kind
    the mapping does not name for it (a carry in IN may claim any owner)."""
    if owner not in TARGET_KIND or record.kind in set(TARGET_KIND[owner].values()):
        return True
    try:
        dialects.get(owner).write(Store(dialect=owner, records=[clone(record)]))
    except MemconvError:
        return False
    return True


def by_owner(store: Store, records: list[Record], owners: dict[int, str]) -> dict[str, list[Record]]:
    """Records read from a file of their own dialect and unchanged since, grouped by that dialect."""
    groups: dict[str, list[Record]] = {}
    for record in records:  # (or records held packed: each made again to be digested, and grouped as it is held)
        src = record.source
        if src is not None and src.has_raw and src.dialect in TARGET_KIND \
                and src.dialect == owner_of(store, record, owners) and src.fingerprint == fingerprint(unpacked(record)):
            groups.setdefault(src.dialect, []).append(record)
    return groups


def _fact_defaults() -> dict[str, Any]:
    """Store facts every writer assumes when it is told nothing (each dialect's ``STORE_FACTS``): not
    worth a note. Where two dialects declare one fact, the first in the registry's order says."""
    out: dict[str, Any] = {}
    for facts in dialects.declarations("STORE_FACTS").values():
        for key, value in facts.items():
            out.setdefault(key, value)
    return out


def folder_facts() -> tuple[str, ...]:
    """Store facts that name a folder of the store (each dialect's ``FOLDER_FACTS``): a note from IN
    may not point them outside it, and may name only a folder its reader gives (:func:`folder_fact_read`)."""
    return tuple(dict.fromkeys(f for facts in dialects.declarations("FOLDER_FACTS").values() for f in facts))


def folder_fact_read(key: str, value: Any) -> bool:
    """Whether a folder fact's ``value`` is one its dialect's reader gives: the folder its writer assumes (its
    ``STORE_FACTS``), or ``""``, a store read at its folder's root (memfmt's ``root``: ``memory`` or ``""``;
    memspec's ``prefix``: ``.memspec/`` or ``""``). A note from IN naming another was followed: memfmt's whole store
    written under ``.memconv/``, memspec's kept folders beside its records (decided 2026-12-07)."""
    return value == "" or value == _fact_defaults().get(key)


#: Store facts that describe one read, not the store: never carried. (memspec's ``kept``: keep files beside records,
#: which hold no memory; written again by the memspec writer where a folder is empty.)
_META_TRANSIENT = frozenset({"left_out", "kept"})


def carried_meta(store: Store) -> dict[str, Any]:
    """The source store's facts its own writer needs to give the same files back."""
    out = {}
    defaults = _fact_defaults()
    for key, value in store.meta.items():
        if key in _META_TRANSIENT or key.startswith("memconv."):
            continue
        default = defaults.get(key, object())
        if value == default or (isinstance(value, (list, tuple)) and tuple(value) == default):
            continue
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


def carried_indexes(store: Store, own: bool, read_as: dict[str, Record] | None = None) -> list:
    """The store's index files that carry something of their own.

    A memfmt ``MEMORY.md`` is regenerated from the records by every writer of
    memfmt: it is carried only when its bytes are not what its writer regenerates
    for the store as read (someone wrote in it); otherwise its ``generated`` date
    travels as a store fact. A claude ``MEMORY.md`` is maintained by hand: inline
    bullets, links to missing files and words of its own (``IndexFile.words``: a
    paragraph a person added) are content, whoever its records are; otherwise it is
    carried only when the store's own records are in it and its writer would not
    regenerate it as it is. Of a store whose records all came from elsewhere
    (``own`` false), a link line that says what its memory does not (a hook edited
    there) is content too: ``read_as``, the records as read, by the link the index
    names them by (``Conversion.read_as``), tell it (``native.links_unsaid``).
    """
    if store.dialect not in INDEX_IS_CONTENT:
        regenerate = dialects.declaration(store.dialect, "generated_index") if store.indexes else None
        pages = regenerate(store) if regenerate is not None else {}
        return [i for i in store.indexes if i.path in pages and i.source is not None and i.source.has_raw
                and not i.source.holds(pages[i.path])]
    content = [i for i in store.indexes if i.words.strip()
               or any(s.inline or not all(link.resolved for link in s.links) for s in i.sections)]
    rest = [i for i in store.indexes if i not in content]
    if not own and not content and read_as:
        # (asked only of such a store with nothing else carried: a link at a time, until one says more; its pages
        # then travel together, _whole)
        pages = frozenset(i.path for i in store.indexes)
        if any(native.links_unsaid(i, read_as, pages) for i in rest):
            content = rest
    if not own or not rest:
        return _whole(store, content)
    # The pages its writer would generate for these records, written anew (from their names,
    # descriptions and type words: no entry is rendered), unless every index left is larger than any.
    beyond = {id(i) for i in rest if _beyond_generated(store.dialect, i)}
    regenerated: dict[str, bytes] = {}
    if len(beyond) < len(rest):
        with format_patch.sources_aside(store.records):
            regenerated = dialects.get(store.dialect).generated_index(
                Store(dialect="probe", records=format_patch.Anew(store.records)))
    return _whole(store, content + [i for i in rest
                                    if id(i) in beyond or i.source is None or not i.source.has_raw
                                    or i.path not in regenerated or not i.source.holds(regenerated[i.path])])


def _whole(store: Store, carried: list) -> list:
    """The pages of one index travel together (``MEMORY.md`` and the ``MEMORY-<n>.md`` it links): one of them
    carried, all are, or the way home would keep the hand-written page and regenerate none beside it."""
    return list(store.indexes) if carried else []


def _beyond_generated(dialect: str, index) -> bool:
    """Whether ``index`` is larger than any page its dialect's writer generates (``GENERATED_PAGE_BYTES``):
    then it is no such page, known from its size, without generating them (a 100,000-link ``MEMORY.md``'s
    pages were about 85 MB made only to be compared; docs/performance.md)."""
    bound = dialects.declaration(dialect, "GENERATED_PAGE_BYTES")
    size = index.source.size if index.source is not None else None
    return bound is not None and size is not None and size > bound


def holds_state(target: str, kind: str | None, record: Record) -> bool:
    """Whether a ``kind`` of ``target`` can say the record's state (as the target declares: memoir marks
    it per kind)."""
    return record.lifecycle.state == "active" or dialects.declaration(target, "kind_says_state")(record, kind)


def mark_home(record: Record, target: str) -> bool:
    """Whether ``target``, the record's home, can mark its edited state (it may say it in its own word:
    a decision retracted is forgotten in memoir)."""
    return dialects.declaration(target, "marks_edited_state")(record)


def where_from(record: Record) -> str:
    return record.source.path if record.source is not None else record.link
