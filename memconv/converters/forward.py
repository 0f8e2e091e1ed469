"""Step 2, forward: every record to its native home in the target, read back, and what did not
come back carried under the target's ``memconv`` key."""

from __future__ import annotations

import copy
from typing import Any

from .. import dialects
from ..errors import StoreError
from ..model import ForeignFile, Record, Store, clone
from ..report import FileReport
from . import carry as carrying
from . import layout, native as renderings, notes, transforms
from .carry import KEY, Carry
from .conversion import Conversion
from .mapping import EDGE_TYPES, LIFECYCLE, LOSSY_AS_DOSSIER, TARGET_KIND
from .naming import home_link, native_link, rename_links, unique_link
from .read_back import REFUSED, quarantine_unwritable, read_back
from .restore import home_record
from .slots import set_carry
from .store_facts import (WITNESS, by_origin, carried_meta, holds_state, mark_home, origin_of, store_origin,
                          where_from)


def forward(store: Store, target: str, *, lossy: bool, report: Conversion) -> Conversion:
    origins = report.origins
    meta_from = store.meta.get("memconv.meta_from", store.dialect)
    home_meta = meta_from == target
    out = Store(dialect=f"{store.dialect}→{target}",
                quarantined=list(store.quarantined), migrations=list(store.migrations),
                warnings=list(report.warnings),
                meta={k: v for k, v in store.meta.items() if not k.startswith("memconv.")} if home_meta else {})
    for foreign in store.foreign:
        home = origins.get(id(foreign), store_origin(store))
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
        home = origin_of(store, record, origins) == target
        kind = record.kind if home else TARGET_KIND[target].get(record.kind)
        live = home or (record.lifecycle.state in LIFECYCLE[target] and holds_state(target, kind, record))
        if home and id(record) in report.state_edited:
            live = mark_home(record, target)
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
        link = wanted if home else unique_link(wanted, taken, target)
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
        rename_links(native, rename)
    formats = {} if lossy else layout.patches(by_origin(store, [r for r, _ in natives] + kept_out, origins))
    # The working set's native rendering is made before the read-back, so that the target's
    # writer sees the same records both times (store facts such as memspec's date of undated
    # records are taken from all of them).
    ws_note = shown = None
    if store.working_set is not None and target != "memoir":
        ws_note = notes.working_set(store.working_set, target, store.dialect, lossy=lossy)
        shown = renderings.working_set_record(store.working_set, target)
        if shown is not None:
            shown.link = unique_link(native_link(shown, shown.kind, target) if target != "claude" else shown.link,
                                 taken, target)
            if target == "memfmt":
                shown.title = shown.link
            taken.add(shown.link)
            if not lossy:
                set_carry(shown, target, Carry(origin=store_origin(store),
                                                payload={renderings.WORKING_SET: renderings.digest(shown)}))
    # 3. read back what the target's writer makes of the native records.
    back = read_back(target, natives, store, also=[shown] if shown is not None else [])
    unrename = {new: old for old, new in rename.items()}
    for original, native in natives:
        returned = back.get(id(native))
        written_at = returned.source.path if returned is not None and returned.source is not None else None
        rep = FileReport(source=where_from(original), source_kind=original.kind, target=written_at or native.link,
                         target_kind=native.kind)
        if id(original) in inline:
            rep.source, rep.source_kind = f"{inline[id(original)]['path']} (inline bullet)", "inline"
        out.records.append(native)
        report.records.append(rep)
        if origin_of(store, original, origins) == target:
            # Home again: the target's own reader and writer keep it; nothing to carry.
            rep.native = [n for n, v in carrying.flat(original).items() if v not in (None, [], False)]
            _carry_witness(native, target, lossy, rep, out, note_names, written_at, report.edited.get(id(original), ()))
            continue
        if returned is None:
            if quarantine_unwritable(out, original, target, back.get(REFUSED)):
                out.records.remove(native)
                report.records.remove(rep)
                continue
            raise StoreError(f"{where_from(original)}: the {target} writer lost this record on read-back",
                             hint="this is a bug in memconv; please report it with the file")
        origin = origin_of(store, original, origins)
        returned_kind = returned.kind
        shown_digest = renderings.digest(returned) if id(original) in inline else None
        # The record read back is this conversion's own: mapped home in place, not copied.
        home = home_record(returned, Carry(origin=origin), kind=original.kind, fresh=True)
        # What the target's files say, before the links are named home (rename_links changes edge
        # targets in place: the copy keeps the edges as read, home gets new ones).
        as_written = copy.copy(home)
        home.edges = [copy.copy(e) for e in home.edges]
        home_link(home, origin)
        rename_links(home, unrename)
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
                    set_carry(native, target, carry)
    for record in kept_out:
        state = record.lifecycle.state
        why = (unmarked[id(record)] if id(record) in unmarked
               else f"{state} in the source; {target} cannot mark it so" if state not in LIFECYCLE[target]
               else f"{record.kind} has no home in {target}")
        note = notes.write(record, origin_of(store, record, origins), target, why, lossy=lossy,
                           format_patch=formats.get(id(record)), names=note_names)
        out.foreign.append(note)
        rep = FileReport(source=report.state_edited.get(id(record)) or where_from(record), source_kind=record.kind,
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
    meta = {} if home_meta else carried_meta(store)
    if indexes or meta:
        payload = {"from": meta_from if meta_from in TARGET_KIND else store_origin(store),
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


def _memspec_unknown(native: Record) -> None:
    """A record from another dialect: its ``scope`` is not memspec's, so it rides with the unknown keys.

    The memspec writer puts a record's unknown keys under ``ext.memconv.fields``, which
    memspec's own rewrites keep (docs/memspec.md); its reader gives ``scope`` back.
    """
    if native.scope is not None:
        native.extra = {"scope": native.scope, **native.extra}
        native.scope = None


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
    found = {n: (ext or None) if n == "ext" else getattr(native, n) for n in WITNESS if n not in holds}
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
        set_carry(native, target, carry)


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
