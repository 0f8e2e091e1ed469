"""Converters between dialects: model in, model out, knowing no files.

A conversion of a store read from dialect A into dialect B runs in four steps:

1. **Restore.** Records that carry a ``memconv`` carry (they were converted
   into A earlier) are put back the way they were, native edits winning.
2. **Forward.** Every record goes to its native home in B (``mapping.py``):
   its kind, a link name B can use, every ``[[link]]`` and edge renamed.
   Text B's kind has no field for is written into its readable home
   (``transforms.show``): the carry is never its only copy. Records B cannot
   hold live (a retired claim in memfmt) become *notes*: files under
   ``.memconv/notes/``, which B's tools ignore.
3. **Read back.** B's writer renders the store, B's reader reads each file
   back in memory (``read_file``), and each record is mapped home to A again.
4. **Carry the difference.** Whatever did not come back is encoded under the
   one ``memconv`` key of B's extension mechanism, so B→A gives A again.

The only dialect facts here are the names of their extension mechanisms
(:func:`_set_carry`, :func:`_get_carry`); the rest is the model.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import dialects
from ..errors import MemconvError, ReadError, StoreError
from ..migrations.memspec.fields import ID as _MEMSPEC_ID  # a memspec id: ms_01JQ8Z6Y…, the one pattern
from ..model import ForeignFile, Quarantined, Record, Store, clone, fingerprint
from ..report import FileReport
from ..text import slug
from . import carry as carrying
from . import layout, links, native as renderings, notes, transforms
from .carry import KEY, Carry
from .mapping import name_part as stem_slug
from .mapping import EDGE_TYPES, INDEX_IS_CONTENT, LIFECYCLE, LOSSY_AS_DOSSIER, TARGET_KIND, type_word


@dataclass
class Conversion:
    """A converted store and what happened to every record."""

    store: Store
    #: One entry per record: where it came from and went, what went native, carried or dropped.
    records: list[FileReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: id(record) → the dialect a restored record came from (it keeps its link and kind there).
    origins: dict[int, str] = field(default_factory=dict)
    #: id(record) of restored records whose lifecycle state was changed in the dialect read
    #: id(record) → the fields of a restored record edited in the dialect read (the edit won).
    edited: dict[int, list[str]] = field(default_factory=dict)
    #: (retracted, retired…), and the file it was read from: that edit wins over the state they had at home.
    state_edited: dict[int, str] = field(default_factory=dict)


def convert(store: Store, target: str, *, lossy: bool = False) -> Store:
    """The store as ``target`` should be written (see :func:`run` for the report)."""
    return run(store, target, lossy=lossy).store


def run(store: Store, target: str, *, lossy: bool = False) -> Conversion:
    if target not in TARGET_KIND:
        raise StoreError(f"unknown target dialect {target!r}")
    own = any(_get_carry(r) is None for r in store.records)
    indexes = _carried_indexes(store, own)
    if not own:
        # Every record came from elsewhere: the store's own facts (memfmt's generated date) are
        # only a rendering of them, and need not travel. Facts restored from a note still do.
        store = Store(dialect=store.dialect, records=store.records, working_set=store.working_set,
                      indexes=store.indexes, foreign=store.foreign, quarantined=store.quarantined,
                      migrations=store.migrations, warnings=store.warnings)
    restored, report = restore(store)
    restored.indexes = indexes + [i for i in restored.indexes if i not in store.indexes]
    return forward(restored, target, lossy=lossy, report=report)


# --- 1. restore ---------------------------------------------------------------------


def _get_carry(record: Record) -> Any:
    value = record.extra.get(KEY)
    if value is None:
        ext = getattr(record, "ext", None)
        value = ext.get(KEY) if isinstance(ext, dict) else None
    if isinstance(value, dict):
        # claude keeps its own marker (``kind``) in the same namespace: the carry sits beside it.
        value = value.get("carry")
    return value


def _strip_carry(record: Record) -> None:
    record.extra.pop(KEY, None)
    ext = getattr(record, "ext", None)
    if isinstance(ext, dict) and KEY in ext:
        rest = {k: v for k, v in ext.items() if k != KEY}
        record.ext = rest or None


def _set_carry(record: Record, target: str, carry: Carry | str) -> None:
    """Put ``carry`` under the one ``memconv`` key of the target's extension mechanism."""
    text = carry if isinstance(carry, str) else carry.dumps()
    if target == "memspec":
        record.ext = {**(record.ext or {}), KEY: text}
    elif target == "claude":
        # A mapping, so that the claude writer can add its kind marker beside it.
        record.extra[KEY] = {"carry": text}
    else:
        record.extra[KEY] = text


def _memspec_unknown(native: Record) -> None:
    """A record from another dialect: its ``scope`` is not memspec's, so it rides with the unknown keys.

    The memspec writer puts a record's unknown keys under ``ext.memconv.fields``, which
    memspec's own rewrites keep (docs/memspec.md); its reader gives ``scope`` back.
    """
    if native.scope is not None:
        native.extra = {"scope": native.scope, **native.extra}
        native.scope = None


def restore(store: Store) -> tuple[Store, Conversion]:
    """Put records that came from another dialect back the way they were."""
    out = Store(dialect=store.dialect, indexes=list(store.indexes), quarantined=list(store.quarantined),
                migrations=list(store.migrations), warnings=list(store.warnings), meta=dict(store.meta),
                working_set=store.working_set)
    report = Conversion(store=out)
    pending: list[tuple[Record, Carry | None]] = []
    restored: list[tuple[Record, Record, carrying.Applied]] = []
    carries: list[Carry] = []
    noted: list[tuple[Record, str, dict[str, Any]]] = []
    sidecars: dict[str, str] = {}
    #: Inline bullets retracted in this dialect: taken out of their restored index.
    withdrawn: list[dict[str, Any]] = []
    for foreign in store.foreign:
        try:
            found = notes.read(foreign)
        except ValueError as exc:
            said = str(exc)
            report.warnings.append(said if said.startswith(foreign.path) else
                                   f"{foreign.path}: a memconv note memconv cannot use: {said}; "
                                   "kept as a file, not restored")
            found = None
        if found is not None and found[0] == "sidecar":
            sidecars[found[1][0]] = found[1][1]
            continue
        carried = notes.carried_file_path(foreign.path)
        if carried is not None:
            file = ForeignFile(carried[1], foreign.raw, foreign.why)
            report.origins[id(file)] = carried[0]
            out.foreign.append(file)
        elif found is None:
            out.foreign.append(foreign)
        elif found[0] == "record":
            record, origin, patch = found[1]
            report.origins[id(record)] = origin
            if patch is not None:
                noted.append((record, origin, patch))
            out.records.append(record)
        elif found[0] == "working_set":
            document, patch, edited = found[1]
            out.working_set = layout.restore_working_set(document, patch)
            if edited:
                report.warnings.append(f"{foreign.path} was edited in {store.dialect}; the working set is restored "
                                       "from its carried copy, and the edits to the rendering are not applied")
        else:
            _restore_store(out, found[1], store, foreign.path, report.warnings)
    for record in store.records:
        raw = _get_carry(record)
        if raw is None and record.source is not None:
            raw = sidecars.get(record.source.path)
        if raw is None:
            pending.append((record, None))
            continue
        try:
            carry = Carry.loads(raw)
        except ValueError as exc:
            # Not applied, and not passed on: the record is what the target shows.
            report.warnings.append(f"{_where(record)}: {exc}; the carry is ignored and the record "
                                   "converted as it stands")
            record = clone(record, keep_source=True)
            _strip_carry(record)
            pending.append((record, None))
            continue
        pending.append((record, carry))
    untouched: list[Record] = []
    for record, carry in pending:
        if carry is None:
            untouched.append(record)
            continue
        if carry.origin == store.dialect and set(carry.fields) <= _SELF_CARRIED and not carry.payload:
            # A record of this dialect carrying what another dialect's tool added to it (a
            # verification in memspec): the fields go back on it; it is still this dialect's own.
            own = clone(record, keep_source=True)
            _strip_carry(own)
            carrying.apply(own, carry)
            untouched.append(own)
            continue
        if renderings.WORKING_SET in carry.payload:
            # A rendering of the working set, which its note restores exactly: not a record of its own.
            if renderings.digest(record) != carry.payload[renderings.WORKING_SET]:
                report.warnings.append(f"{_where(record)}: the working set's rendering was edited in {store.dialect}; "
                                       "the working set is restored from its carried copy, and the edits are not "
                                       "applied")
            witnessed = [n for n in _WITNESS
                         if getattr(record, n) is not None and (n != "ext" or set(record.ext) - {KEY})]
            if record.lifecycle.state != "active":
                report.warnings.append(f"{_where(record)}: the working set's rendering is {record.lifecycle.state} in "
                                       f"{store.dialect}; the working set is session state, restored as it was")
            if witnessed:
                report.warnings.append(f"{_where(record)}: the working set's rendering holds {', '.join(witnessed)} "
                                       f"from {store.dialect}; the working set has no place for them: dropped")
            continue
        home = _back(record, carry)
        was_active = "lifecycle" not in carry.fields
        # The link the way back derives, exactly as at conversion time (before the carry):
        # a carried link then replaces it.
        _home_link(home, carry.origin)
        derived = home.link
        applied = carrying.apply(home, carry)  # edit detection sees the target's own link names
        if "body" in applied.overridden and store.dialect in TARGET_KIND:
            # The edited body still holds what the target showed of the fields now restored.
            transforms.unshow(home, store.dialect, record.kind)
        if home.link != derived and carrying.link_names_a_file(carry.origin) and home.link \
                and not _safe_link(home.link):
            report.warnings.append(f"{_where(record)}: its carry names the link {home.link!r}, which would be "
                                   "written outside the store; the link is derived again")
            home.link = derived
        if applied.overridden:
            report.edited[id(home)] = list(applied.overridden)
        if home.lifecycle.state != "active" and (was_active or "lifecycle" in applied.overridden):
            # Retracted, retired… in this dialect since the conversion: the edit wins.
            report.state_edited[id(home)] = _where(record)
        # Remember where it came from: converting it back there keeps its link and kind.
        home.source = None
        if not _origin_holds(home, carry.origin):
            # A carry of IN claims a dialect that cannot hold what it describes (crafted, or damaged):
            # not applied; the record is converted from what the target shows.
            report.warnings.append(f"{_where(record)}: its carry says it came from {carry.origin}, which cannot "
                                   f"hold a {home.kind}; the carry is ignored and the record converted as it stands")
            plain = clone(record, keep_source=True)
            _strip_carry(plain)
            untouched.append(plain)
            continue
        report.origins[id(home)] = carry.origin
        mark = carry.payload.get(renderings.INLINE)
        if mark is not None:
            # A rendering of an inline index bullet: the index, restored from its note, says it again.
            retracted = id(home) in report.state_edited
            if not applied.overridden and not retracted and isinstance(mark, dict) \
                    and renderings.digest(record) == mark.get("digest"):
                continue
            where = mark.get("path") if isinstance(mark, dict) else None
            if retracted and isinstance(mark, dict):
                # Not live any more: the bullet leaves the index, the record is kept out of the live set.
                withdrawn.append(mark)
                report.warnings.append(f"{_where(record)}: an inline bullet of {where} was {home.lifecycle.state} "
                                       f"in {store.dialect}; it is taken out of {where}")
            else:
                report.warnings.append(f"{_where(record)}: an inline bullet of {where} was edited in {store.dialect}; "
                                       "it comes back as an entry of its own, and the bullet as it was")
            carry.payload.pop("format", None)
        restored.append((record, home, applied))
        carries.append(carry)
    if withdrawn:
        out.indexes = [_withdraw(index, withdrawn, store) for index in out.indexes]
    rename = {record.link: home.link for record, home, _ in restored}
    if store.dialect in TARGET_KIND:
        # Text names a record by the link memconv gave it in this dialect, which its reader may
        # not use as the link (memfmt episodes are linked by file stem, written by name).
        for record, home, _ in restored:
            rename.setdefault(native_link(record, record.kind, store.dialect), home.link)
    for record in untouched:
        # Its links to restored records follow them home; its own link is the forward step's business.
        if rename and ("[[" in record.body or record.edges):
            record = clone(record, keep_source=True)
            _rename(record, rename)
        out.records.append(record)
    formats = []
    for (record, home, applied), carry in zip(restored, carries):
        _rename(home, rename, keep=set(applied.carried))
        out.records.append(home)
        if "format" in carry.payload:
            formats.append((home, carry.origin, carry.payload["format"]))
        if applied.overridden:
            report.warnings.append(
                f"{_where(record)}: edited in {store.dialect}: " + ", ".join(applied.overridden)
                + " — the edit wins, the carried copies were dropped")
    report.warnings.extend(_restore_sources(formats + noted))
    return out, report


def _withdraw(index, marks: list[dict[str, Any]], store: Store):
    """``index`` without the inline bullets ``marks`` name (each by section heading and position)."""
    source = index.source
    layout = getattr(source, "layout", None) if source is not None else None
    mine = [(m.get("section"), m.get("n")) for m in marks if m.get("path") == index.path]
    if not mine or source is None or not source.has_raw or not hasattr(layout, "items") \
            or source.dialect not in TARGET_KIND or not hasattr(dialects.get(source.dialect), "read_index"):
        return index
    lines = source.raw.split(b"\n")
    drop, at = set(), 0
    for item in layout.items:
        size = len(item[3]) if item[0] == "inline" else 1
        if item[0] == "inline" and 0 <= item[1] < len(index.sections) \
                and (index.sections[item[1]].heading, item[2]) in mine:
            drop.update(range(at, at + size))
        at += size
    if not drop or at != len(lines) - (1 if source.raw.endswith(b"\n") else 0):
        return index  # the layout does not match the bytes: keep the index as it was
    raw = b"\n".join(line for n, line in enumerate(lines) if n not in drop)
    present = {f"{r.link}.md" for r in store.records}
    return dialects.get(source.dialect).read_index(raw, index.path, present)


def _safe_link(link: object) -> bool:
    """Whether a writer may make a file of ``link`` (``<link>.md``) inside the store."""
    from ..errors import OutputError
    from ..fs import safe_relpath

    if not isinstance(link, str) or not link:
        return False
    try:
        safe_relpath(f"{link}.md")
    except OutputError:
        return False
    return True


def _back(record: Record, carry: Carry, kind: str | None = None, fresh: bool = False) -> Record:
    """``record`` read from a target, mapped home to the dialect it was converted from.

    ``kind`` is the kind it had there, when known (carried, or at conversion time);
    otherwise the origin's own word for the target's kind. ``fresh``: ``record`` is
    used by no one else (a read-back), so it is changed in place rather than copied.
    """
    home = record if fresh else clone(record)
    if fresh:
        home.source = None
    _strip_carry(home)
    kind = kind or carry.payload.get("kind") or TARGET_KIND.get(carry.origin, {}).get(record.kind, record.kind)
    return transforms.backward(home, record.kind, kind, carry.origin)


def _home_link(home: Record, origin: str) -> None:
    """The link the way back gives a record whose link was not carried (or was renamed in the target)."""
    if origin in TARGET_KIND:
        home.link = native_link(home, home.kind, origin)


#: Store facts that name a folder of the store: a note from IN may not point them outside it.
_META_PATHS = ("prefix", "root")


def _restore_store(out: Store, payload: dict[str, Any], store: Store, where: str, warnings: list[str]) -> None:
    """Index files and store facts from a store note, parsed again by their own dialect when it can.

    The note came from IN: an index whose path, or a store fact whose folder, would leave the
    store is ignored with a warning naming the note (``where``).
    """
    from ..model import IndexFile
    from .codec import decode

    origin = payload.get("from")
    module = dialects.get(origin) if origin in TARGET_KIND else None
    present = {f"{r.link}.md" for r in store.records}
    raws = payload.get("raw", {}) if isinstance(payload.get("raw"), dict) else {}
    for encoded in payload.get("indexes", []) if isinstance(payload.get("indexes"), list) else ():
        try:
            index = decode(encoded, IndexFile)
        except (TypeError, ValueError, KeyError, AttributeError):
            warnings.append(f"{where}: an index it holds does not hold together; ignored")
            continue
        if not _safe_link(index.path.removesuffix(".md") if isinstance(index.path, str) else None):
            warnings.append(f"{where}: it names the index {index.path!r}, which would land outside the store; ignored")
            continue
        raw = raws.get(index.path)
        if isinstance(raw, str) and module is not None and hasattr(module, "read_index"):
            index = module.read_index(raw.encode("utf-8"), index.path, present)
        out.indexes.append(index)
    meta = payload.get("meta")
    if isinstance(meta, dict) and meta:
        for key in _META_PATHS:
            value = meta.get(key)
            if value is not None and value != "" and not _safe_link(str(value).rstrip("/")):
                warnings.append(f"{where}: its store fact {key}={value!r} names a folder outside the store; ignored")
                meta = {k: v for k, v in meta.items() if k != key}
        out.meta = {"memconv.meta_from": origin, **meta}


# --- 2. forward ---------------------------------------------------------------------


def forward(store: Store, target: str, *, lossy: bool, report: Conversion) -> Conversion:
    origins = report.origins
    meta_from = store.meta.get("memconv.meta_from", store.dialect)
    home_meta = meta_from == target
    out = Store(dialect=f"{store.dialect}→{target}",
                quarantined=list(store.quarantined), migrations=list(store.migrations),
                warnings=list(report.warnings),
                meta={k: v for k, v in store.meta.items() if not k.startswith("memconv.")} if home_meta else {})
    for foreign in store.foreign:
        home = origins.get(id(foreign), _store_origin(store))
        if home == target:
            out.foreign.append(foreign)
        else:
            # A file the target might mistake for its own (a README.md among claude memories): set aside.
            out.foreign.append(ForeignFile(notes.carried_file(foreign.path, home, target), foreign.raw,
                                           foreign.why))
    report.store = out
    note_names = notes.Names()
    taken: set[str] = set()
    rename: dict[str, str] = {}
    natives: list[tuple[Record, Record]] = []
    kept_out: list[Record] = []
    #: Records whose link had to be numbered: the way back could not derive it, so they always carry.
    numbered: set[int] = set()
    inline: dict[int, dict[str, Any]] = {}
    #: id(record) → why a record home again is kept out of the live set (its state was edited).
    unmarked: dict[int, str] = {}
    records = list(store.records)
    if target != "claude":
        # Memory kept as inline bullets of a hand-written index: facts the target's tools show.
        for record, mark in renderings.inline_records(store.indexes, {r.link for r in store.records}):
            origins[id(record)] = "claude"
            inline[id(record)] = mark
            records.append(record)
    for record in records:
        home = _origin(store, record, origins) == target
        kind = record.kind if home else TARGET_KIND[target].get(record.kind)
        live = home or (record.lifecycle.state in LIFECYCLE[target] and holds_state(target, kind, record))
        if home and id(record) in report.state_edited:
            live = _mark_home(record, target)
            if not live:
                unmarked[id(record)] = (f"{record.lifecycle.state} in {store.dialect} since its conversion; "
                                        f"{target} cannot mark a {record.kind} so")
        if record.opaque and not home:
            # memoir and claude keep a legacy entry whole; elsewhere it is a record of the kind its
            # legacy type means (a fact by default), its frontmatter carried.
            kind = "opaque" if target in ("memoir", "claude") else TARGET_KIND[target][transforms.legacy_kind(record)]
        if kind is None or not live:
            kept_out.append(record)
            continue
        # Home again, a record keeps its kind and its link: it is what that dialect wrote.
        wanted = record.link if home else native_link(record, kind, target)
        link = wanted if home else _unique(wanted, taken, target)
        if link != wanted:
            numbered.add(id(record))
        taken.add(link)
        rename[record.link] = link
        native = _to_kind(record, kind, link, None if home else target)
        if target == "memspec" and not home:
            _memspec_unknown(native)
        if target == "memfmt" and not home and native.kind == "entity":
            native.title = link  # memfmt links entities by name: two of one name would be one
        if home and record.source is not None and record.source.dialect == target:
            native.source = record.source  # home again: its own writer reuses its file
        if lossy and kind in LOSSY_AS_DOSSIER.get(target, ()):
            native = _dossier(native)
        natives.append((record, native))
    for _, native in natives:
        _rename(native, rename)
    formats = {} if lossy else layout.patches(_by_origin(store, [r for r, _ in natives] + kept_out, origins))
    # The working set's native rendering is made before the read-back, so that the target's
    # writer sees the same records both times (store facts such as memspec's date of undated
    # records are taken from all of them).
    ws_note = shown = None
    if store.working_set is not None and target != "memoir":
        ws_note = notes.working_set(store.working_set, target, store.dialect, lossy=lossy)
        shown = renderings.working_set_record(store.working_set, target)
        if shown is not None:
            shown.link = _unique(native_link(shown, shown.kind, target) if target != "claude" else shown.link,
                                 taken, target)
            if target == "memfmt":
                shown.title = shown.link
            taken.add(shown.link)
            if not lossy:
                _set_carry(shown, target, Carry(origin=_store_origin(store),
                                                payload={renderings.WORKING_SET: renderings.digest(shown)}))
    # 3. read back what the target's writer makes of the native records.
    back = _read_back(target, natives, store, also=[shown] if shown is not None else [])
    unrename = {new: old for old, new in rename.items()}
    for original, native in natives:
        returned = back.get(id(native))
        written_at = returned.source.path if returned is not None and returned.source is not None else None
        rep = FileReport(source=_where(original), source_kind=original.kind, target=written_at or native.link,
                         target_kind=native.kind)
        if id(original) in inline:
            rep.source, rep.source_kind = f"{inline[id(original)]['path']} (inline bullet)", "inline"
        out.records.append(native)
        report.records.append(rep)
        if _origin(store, original, origins) == target:
            # Home again: the target's own reader and writer keep it; nothing to carry.
            rep.native = [n for n, v in carrying.flat(original).items() if v not in (None, [], False)]
            _carry_witness(native, target, lossy, rep, out, note_names, written_at, report.edited.get(id(original), ()))
            continue
        if returned is None:
            if _quarantine_unwritable(out, original, target, back.get(_REFUSED)):
                out.records.remove(native)
                report.records.remove(rep)
                continue
            raise StoreError(f"{_where(original)}: the {target} writer lost this record on read-back",
                             hint="this is a bug in memconv; please report it with the file")
        origin = _origin(store, original, origins)
        returned_kind = returned.kind
        shown_digest = renderings.digest(returned) if id(original) in inline else None
        # The record read back is this conversion's own: mapped home in place, not copied.
        home = _back(returned, Carry(origin=origin), kind=original.kind, fresh=True)
        # What the target's files say, before the links are named home (_rename changes edge
        # targets in place: the copy keeps the edges as read, home gets new ones).
        as_written = copy.copy(home)
        home.edges = [copy.copy(e) for e in home.edges]
        _home_link(home, origin)
        _rename(home, unrename)
        carry = carrying.difference(original, home, origin=origin, native=as_written)
        if id(original) in formats:
            carry.payload["format"] = formats[id(original)]
        if id(original) in inline:
            # What the target's files say of the bullet: an edit there changes it.
            carry.payload[renderings.INLINE] = {**inline[id(original)], "digest": shown_digest}
        if original.kind != TARGET_KIND.get(origin, {}).get(returned_kind, returned_kind):
            carry.payload["kind"] = original.kind
        if original.lifecycle.state != "active" and "lifecycle" not in carry.fields:
            # Its state, as it was: an edit of it in the target is then told from the state it came with.
            carry.fields["lifecycle"] = carrying.encode(original.lifecycle)
            carry.native["lifecycle"] = carrying._digest(as_written.lifecycle)
        rep.native = [n for n, v in carrying.flat(original).items() if v not in (None, [], False)
                      and n not in carry.fields and n != "kind"]
        # A dialect that declares CARRY_ORIGIN (a plugin holding every field) carries the origin even
        # when nothing else differs, so the way back treats the record as its origin's (docs/plugins.md).
        if carry.fields or carry.extra_order or carry.payload or id(original) in numbered or id(original) in inline \
                or getattr(dialects.get(target), "CARRY_ORIGIN", False):
            if lossy:
                rep.dropped = sorted(carry.fields)
            else:
                rep.carried = sorted(carry.fields)
                if target in ("memoir", "claude") and native.opaque and not native.extra:
                    # A bare file stays bare: a frontmatter holding only the carry would make it an
                    # invalid entry. Its carry waits in a note, keyed by the file's path.
                    out.foreign.append(notes.sidecar(written_at or f"{native.link}.md", carry.dumps(), target,
                                                     note_names))
                else:
                    _set_carry(native, target, carry)
    for record in kept_out:
        state = record.lifecycle.state
        why = (unmarked[id(record)] if id(record) in unmarked
               else f"{state} in the source; {target} cannot mark it so" if state not in LIFECYCLE[target]
               else f"{record.kind} has no home in {target}")
        note = notes.write(record, _origin(store, record, origins), target, why, lossy=lossy,
                           format_patch=formats.get(id(record)), names=note_names)
        out.foreign.append(note)
        rep = FileReport(source=report.state_edited.get(id(record)) or _where(record), source_kind=record.kind,
                         target=note.path, target_kind="note",
                         warnings=[f"kept as a note, not as a current memory: {why}"])
        if lossy:
            rep.dropped = [n for n, v in carrying.flat(record).items() if v not in (None, [], False)]
        else:
            rep.carried = ["(whole record)"]
        report.records.append(rep)
    if store.working_set is not None:
        if target == "memoir":
            out.working_set = store.working_set
        else:
            out.foreign.append(ws_note)
            if shown is not None:
                out.records.append(shown)
                report.records.append(FileReport(source="session.json", source_kind="working_set",
                                                 target=shown.link, target_kind=shown.kind))
            report.warnings.append("session.json (goals, next actions, decisions) is written as a memory of its own"
                                   + ("" if lossy else f"; its exact JSON is kept in {ws_note.path}"))
    indexes = store.indexes if target != "claude" else []
    meta = {} if home_meta else _carried_meta(store)
    if indexes or meta:
        payload = {"from": meta_from if meta_from in TARGET_KIND else _store_origin(store),
                   "indexes": [carrying.encode(i) for i in indexes],
                   "raw": {i.path: i.source.raw.decode("utf-8") for i in indexes
                           if i.source is not None and i.source.has_raw}}
        if meta:
            payload["meta"] = meta
        note = notes.store_note(payload, target, store.dialect, lossy=lossy)
        out.foreign.append(note)
        if indexes:
            report.warnings.append(f"{len(indexes)} index file(s) carried in {note.path}")
    if target == "claude" and store.indexes:
        out.indexes = store.indexes
    return report


#: What memspec's own commands add to a record (``verify``, ``sweep``) that the other dialects
#: have no word for: a record home again keeps them in its own carry.
_WITNESS = ("last_verified", "verified_with", "stale", "ext")
_SELF_CARRIED = frozenset(_WITNESS) | {"link", "check_by"}


def _carry_witness(native: Record, target: str, lossy: bool, rep: FileReport, out: Store,
                   note_names: notes.Names, written_at: str | None, edited=()) -> None:
    """A record home again keeps what the other dialect's tool added that home cannot say.

    Carried under home's own ``memconv`` key, so converting it to memspec again gives them back
    (docs/conversion.md); with ``--lossy`` they are reported dropped.
    """
    if target == "memspec":
        return
    holds = getattr(dialects.get(target), "NATIVE_FIELDS", ())  # a plugin's fields of its own: not carried
    ext = {k: v for k, v in (native.ext or {}).items() if k != KEY}
    found = {n: (ext or None) if n == "ext" else getattr(native, n) for n in _WITNESS if n not in holds}
    if "check_by" in edited:  # memspec's verify sets the next review: edited there, it is kept too
        found["check_by"] = native.check_by
    found = {n: v for n, v in found.items() if v is not None}
    if not found:
        return
    if lossy:
        rep.dropped = sorted(set(rep.dropped) | set(found))
        return
    carry = Carry(origin=target, fields={"link": native.link, **{n: carrying.encode(v) for n, v in found.items()}})
    rep.carried = sorted(set(rep.carried) | set(found))
    rep.warnings.append(f"{', '.join(sorted(found))}: {target} has no field for them; carried in its memconv key")
    if target in ("memoir", "claude") and native.opaque and not native.extra:
        out.foreign.append(notes.sidecar(written_at or f"{native.link}.md", carry.dumps(), target, note_names))
    else:
        _set_carry(native, target, carry)


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


def _mark_home(record: Record, target: str) -> bool:
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


def _carried_indexes(store: Store, own: bool) -> list:
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


def _store_origin(store: Store) -> str:
    return store.dialect if store.dialect in TARGET_KIND else "memoir"


def _by_origin(store: Store, records: list[Record], origins: dict[int, str]) -> dict[str, list[Record]]:
    """Records read from a file of their own dialect and unchanged since, grouped by that dialect."""
    groups: dict[str, list[Record]] = {}
    for record in records:
        src = record.source
        if src is not None and src.has_raw and src.dialect in TARGET_KIND \
                and src.dialect == _origin(store, record, origins) and src.fingerprint == fingerprint(record):
            groups.setdefault(src.dialect, []).append(record)
    return groups


def _reread(files: list[tuple[str, str, bytes]]) -> dict[tuple[str, str], Record]:
    """Source files read again by their own dialect, each in memory: (dialect, path, bytes) → record
    with its source. A file the reader refuses is left out (the record is then written anew)."""
    out: dict[tuple[str, str], Record] = {}
    for dialect, path, raw in files:
        if dialect not in TARGET_KIND or dialects.unportable(path) is not None:
            continue
        try:
            record = dialects.get(dialect).read_file(path, raw, {})
        except ReadError:
            continue
        if record is not None and record.source is not None:
            out[(dialect, record.source.path)] = record
    return out


def _one_line_per_key(record: Record) -> bool:
    """Whether no frontmatter key of ``record``'s file is written twice (YAML lets the last win)."""
    fm = getattr(getattr(record.source, "layout", None), "frontmatter", None)
    keys = [c.key for c in getattr(fm, "chunks", None) or () if c.key is not None]
    return len(keys) == len(set(keys))


def _restore_sources(items: list[tuple[Record, str, dict[str, Any]]]) -> list[str]:
    """Give restored records their original file back from its format patch, where it still applies.

    The patch came from IN: one that names a path outside the store is ignored, with a warning.
    """
    from ..errors import OutputError
    from ..fs import safe_relpath

    rebuilt, warnings = [], []
    for home, origin, patch in items:
        path = patch.get("path") if isinstance(patch, dict) else None
        try:
            safe_relpath(path if isinstance(path, str) else "")
        except OutputError:
            warnings.append(f"{home.link}: its carried format patch names {path!r}, which would land outside "
                            "the store; ignored, the record is written canonically")
            continue
        try:
            canonical = layout.render_alone(origin, home)
            raw = layout.apply(canonical, patch)
            if raw is None:  # edited since: its file's layout still comes home, for its writer to use
                raw = layout.apply_after_edit(canonical, patch)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            warnings.append(f"{home.link}: its carried format patch does not hold together; ignored, "
                            "the record is written canonically")
            continue
        if raw is not None:
            rebuilt.append((home, origin, patch["path"], raw))
    if not rebuilt:
        return warnings
    again = _reread([(origin, path, raw) for _, origin, path, raw in rebuilt])
    for home, origin, path, _ in rebuilt:
        found = again.get((origin, path))
        if found is not None and _one_line_per_key(found):
            # Unedited, the file is the original and its writer reuses it; edited, the writer
            # renders the record in the original's layout (docs/conversion.md, "One formatting mechanism").
            home.source = found.source
    return warnings


def _origin_holds(record: Record, origin: str) -> bool:
    """Whether ``origin``'s writer can write ``record`` as its own; the writer itself judges a kind
    the mapping does not name for it (a carry in IN may claim any origin)."""
    if origin not in TARGET_KIND or record.kind in set(TARGET_KIND[origin].values()):
        return True
    try:
        dialects.get(origin).write(Store(dialect=origin, records=[clone(record)]))
    except MemconvError:
        return False
    return True


def _origin(store: Store, record: Record, origins: dict[int, str]) -> str:
    """The dialect ``record`` belongs to: where it was restored from, read from, or the store's."""
    if id(record) in origins:
        return origins[id(record)]
    if record.source is not None and record.source.dialect in TARGET_KIND:
        return record.source.dialect
    return store.dialect if store.dialect in TARGET_KIND else "memoir"


#: Store facts every writer assumes when it is told nothing: not worth a note.
_META_DEFAULTS = {"layout": "nested", "prefix": ".memspec/", "operators": (), "root": "memory"}
#: Store facts that describe one read, not the store: never carried.
_META_TRANSIENT = frozenset({"left_out"})


def _carried_meta(store: Store) -> dict[str, Any]:
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


#: The marker a record wears while it is written and read back: which one it was.
_PROBE = "memconv-probe:"


def _read_back(target: str, natives: list[tuple[Record, Record]], store: Store,
               also: list[Record] = ()) -> dict[int, Record]:
    """What the target's reader makes of what its writer wrote: id(native) → record read back.

    Each native record wears a marker in the target's extension mechanism for
    the trip, so it is found again whatever path or link the writer gave it.
    ``also`` are the other records the final store holds (written beside them,
    not read back), so that the writer's store-wide facts are the same both times.
    """
    if not natives:
        return {}
    module = dialects.get(target)
    written = Store(dialect=f"{store.dialect}→{target}", records=[n for _, n in natives] + list(also))
    for i, (_, native) in enumerate(natives):
        _set_carry(native, target, f"{_PROBE}{i}")
    back: dict[int, Any] = {}
    refused: tuple[str, str] | None = None
    try:
        files = module.write(written)
        # Each file is read as the target's reader reads it, in memory and one at a time: no
        # folder, no second store, none of the reader's store-wide checks (their warnings
        # are the final write's business).
        # A dialect whose file holds many records (a plugin's JSON Lines) reads one with ``read_records``.
        many = getattr(module, "read_records", None)
        for path, raw in (files.items() if isinstance(files, dict) else files):
            why = dialects.unportable(path)
            try:
                records = [] if why is not None else many(path, raw, written.meta) if many is not None \
                    else [module.read_file(path, raw, written.meta)]
            except ReadError as exc:
                why = Quarantined.because(exc, path, raw).reason
                records = []
            if why is not None:
                refused = refused or (path, why)
                continue
            for record in records:
                marker = _get_carry(record) if record is not None else None
                if isinstance(marker, str) and marker.startswith(_PROBE):
                    _, native = natives[int(marker[len(_PROBE):])]
                    back[id(native)] = record
    finally:
        for _, native in natives:
            _strip_carry(native)
    if refused is not None:
        path, reason = refused
        if len(back) == len(natives):
            raise StoreError(f"the {target} writer made a file its own reader refuses: {path}: {reason}",
                             hint="this is a bug in memconv; please report it")
        # Records that did not come back: the caller quarantines their source files, with this reason.
        back[_REFUSED] = f"its {target} rendering ({path}) is refused by the {target} reader: {reason}"
    return back


#: Key of :func:`_read_back`'s answer that holds why records did not come back.
_REFUSED = -1


def _quarantine_unwritable(out: Store, original: Record, target: str, why: str | None) -> bool:
    """Set ``original``'s source file aside when the target cannot hold it; False when there is no file."""
    from ..model import Quarantined

    src = original.source
    if why is None or src is None or not src.has_raw:
        return False
    out.quarantined.append(Quarantined(path=src.path, raw=src.raw, reason=why))
    return True


def _to_kind(record: Record, kind: str, link: str, target: str | None = None) -> Record:
    native = clone(record)
    native = transforms.convert(native, kind, target)
    if target is not None:
        native = transforms.finish(native, target)
        native = transforms.show(native, target)
    native.link = link
    if kind != "opaque":
        native.opaque = False
    edge_types = EDGE_TYPES.get(target)
    if edge_types is not None:
        # Links the target has no word for are carried, not forced into a wrong one.
        native.edges = [e for e in native.edges if e.type in edge_types and e.direction == "out"]
    return native


def _dossier(record: Record) -> Record:
    """A record as a plain Claude ``project`` memory: name, description, body; nothing else."""
    extra = {"name": record.title or record.link}
    if record.description is not None:
        extra["description"] = record.description
    extra["type"] = "project"
    return Record(kind="opaque", link=record.link, title=record.title, description=record.description,
                  body=record.body, opaque=True, extra=extra)


#: One-line fields that may name other records with ``[[links]]`` too.
_LINKED_TEXT = ("description", "trigger", "how_to_apply", "why", "rejected", "outcome")


def _rename(record: Record, rename: dict[str, str], keep: set[str] = frozenset()) -> None:
    """Point ``record``'s wikilinks and edges at renamed records; ``keep`` fields were restored whole."""
    if not rename:
        return
    if "body" not in keep:
        record.body = links.rewrite(record.body, rename)
    if record.facts and "facts" not in keep:
        record.facts = [links.rewrite(f, rename) for f in record.facts]
    for name in _LINKED_TEXT:
        value = getattr(record, name)
        if value and "[[" in value and name not in keep:
            setattr(record, name, links.rewrite(value, rename))
    if "edges" not in keep:
        for edge in record.edges:
            edge.target = rename.get(edge.target, edge.target)


def _unique(link: str, taken: set[str], target: str = "") -> str:
    """``link``, or ``link-2``… (``link (2)``… in memfmt, as it numbers names) when taken."""
    if link not in taken:
        return link
    n = 2
    form = "{} ({})" if target == "memfmt" else "{}-{}"
    while form.format(link, n) in taken:
        n += 1
    return form.format(link, n)


#: A link that is already a file stem (memoir, claude), not a name or an id: ``feedback_no_mocks``.
_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _base(record: Record) -> str:
    """The name part of a file-stem link: the stem without its type word, or the title's slug."""
    if _STEM.match(record.link) and not _MEMSPEC_ID.match(record.link):
        return stem_slug(record.link)
    return slug(record.title or record.link)


def native_link(record: Record, kind: str, target: str) -> str:
    """A link name the target's users would write for this record (upgrade's naming rule for memoir)."""
    if kind == "opaque" and target in ("memoir", "claude"):
        return record.link
    if target == "memoir":
        return f"{kind}_{_base(record)}"
    if target == "claude":
        return f"{type_word(target, kind)}_{_base(record)}"
    if target == "memfmt":
        return (record.title or record.link).strip() or record.link
    own = getattr(dialects.get(target), "native_link", None)  # a plugin dialect names its own (docs/plugins.md)
    if own is not None:
        return own(record, kind)
    # memspec: the id its writer derives from the record (created + identity), so it is stable.
    return dialects.get("memspec").records.memspec_id(record)


def _where(record: Record) -> str:
    return record.source.path if record.source is not None else record.link
