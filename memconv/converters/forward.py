"""Step 2, forward: every record to its native home in the target, read back, and what did not
come back carried under the target's ``memconv`` key."""

from __future__ import annotations

import array
import copy
import dataclasses
import functools
import json
import re
import sys
from typing import Any, Iterator, NamedTuple

from .. import dialects, progress
from .. import jobs as parallel
from ..dialects.protocol import declared
from ..errors import StoreError, Unstreamable
from ..model import Edge, ForeignFile, IndexFile, Packed, Quarantined, Record, Store, clearer, clone, unpacked
from ..report import FileReport
from ..text import unwritable
from . import carry as carrying
from . import format_patch, native as renderings, native_form, notes, readable, transforms
from .carry import KEY, Carry
from .codec import TextOfBytes
from .conversion import Conversion, edits_said
from .mapping import EDGE_TYPES, INDEX_IS_CONTENT, LIFECYCLE, LOSSY_AS_DOSSIER, TARGET_KIND, working_set_dialect
from .naming import (differs_however_renamed, home_link, link_probe, links_to, native_link, rename_links,
                     unique_link)
from .read_back import Natives, Prepared, ReadBack, quarantine_unwritable
from .restore import home_record
from .slots import get_carry, set_carry, strip_carry
from .store_facts import (by_owner, carried_meta, holds_anchors, holds_state, mark_home, owner_of, store_owner,
                          where_from, witness_edits, witness_fields)


def forward(store: Store, target: str, *, lossy: bool, report: Conversion, date: str | None = None,
            release: bool = False, lazy: bool = False) -> Conversion:
    """``store`` in ``target``'s words, with the per-record report; ``release``: each source record is let go
    as soon as its native record and carry are made (``store.records`` is empty after), so the source store
    and the converted one are never both held whole (docs/performance.md).

    ``lazy`` (with ``release``): where the target splices, the records are read back and carried as the final
    write asks for them, so that each file is written as soon as it is spliced (:attr:`Conversion.pending`
    holds the rest of the conversion); elsewhere, and for a store with no record, the whole conversion is done
    here as without it.
    """
    steps = _forward(store, target, lossy=lossy, report=report, date=date, release=release, lazy=lazy)
    if next(steps):  # left to the final write
        report.pending = steps
        return report
    for _ in steps:
        pass
    return report


def _forward(store: Store, target: str, *, lossy: bool, report: Conversion, date: str | None, release: bool,
             lazy: bool) -> Iterator[bool | int]:
    """:func:`forward`, in steps: it yields once the native records are made (whether the rest may run as the
    final write asks, ``lazy``), then the index of each native record once it is read back and carried."""
    owners = report.owners
    meta_from = store.meta.get("memconv.meta_from", store.dialect)
    home_meta = meta_from == target
    out = Store(dialect=f"{store.dialect}→{target}",
                quarantined=list(store.quarantined), migrations=list(store.migrations),
                warnings=list(report.warnings),
                meta={k: v for k, v in store.meta.items() if not k.startswith("memconv.")} if home_meta else {})
    for foreign in store.foreign:
        home = owners.get(id(foreign), store_owner(store))
        if home == target:
            out.foreign.append(foreign)
        else:
            # A file the target might mistake for its own (a README.md among claude memories): set aside.
            out.foreign.append(ForeignFile(notes.carried_file(foreign.path, home, target), foreign.raw,
                                           foreign.why))
        # Listed, with its reason, as a run within a dialect lists it (pipeline._rest_within): a file carried
        # where the target's tools do not look is never carried in silence (docs/conversion.md).
        report.records.append(FileReport(source=foreign.path, target=out.foreign[-1].path, status="foreign",
                                         warnings=foreign.reasons()))
    report.store = out
    note_names = notes.NoteNames()
    taken: set[str] = set()
    rename: dict[str, str] = {}
    natives: list[tuple[Record, Record]] = []
    kept_out: list[Record] = []
    #: Records whose link had to be numbered: the way back could not derive it, so they always carry.
    numbered: set[int] = set()
    inline: dict[int, dict[str, Any]] = {}
    #: The links of the entries of a folder whose index is written by hand (the note lists them).
    members: set[str] = set(report.members)
    #: id(record) → why a record home again is kept out of the live set (its state was edited).
    unmarked: dict[int, str] = {}
    #: Records whose trigger their reader took from the description (a Claude feedback memory's): the way
    #: back puts an edit of the trigger in the description (restore: _trigger_is_description).
    derived: set[int] = set()
    records = list(store.records)
    if release:
        store.records.clear()  # ``records`` holds them now, and lets each go once it is converted
    declares = dialects.get(target)
    # A target that holds hand-written indexes keeps them, and an index home again is its writer's
    # (memfmt's, written in by hand); elsewhere they travel in a store note.
    written = [i for i in store.indexes if _written_by(i, target)]
    indexes = [i for i in store.indexes if not any(i is w for w in written)]
    if release:
        for index in indexes:
            # How its lines were written is for its own dialect's writer, which writes none here: the note
            # carries its model and its bytes. A line per link, held to the end (docs/performance.md).
            unformatted_index(index, target)
    if indexes:
        # Memory kept as inline bullets of an index, and its own words: facts the target's tools show.
        written_by = {index.path: renderings.index_dialect(index) for index in indexes}
        # The store's records from ``records``: with ``release``, ``store.records`` is already empty here.
        for record, mark in renderings.inline_records(indexes, records, report.read_as, store.dialect):
            owners[id(record)] = written_by[mark["path"]]
            inline[id(record)] = mark
            records.append(record)
    report.read_as = {}  # (asked of the indexes only: let go)
    # Which records have a native home, in order (the rest are kept out, as notes), first: the format patches are
    # made of the records read before any is converted, so that each can be packed as soon as it is.
    to_convert: list[tuple[Record | Packed, str, bool, str]] = []
    for record in records:
        # A record held packed (held) is looked at as it is (each field read as asked), and stays packed: it is known
        # by its Packed. Only a record restored, never packed, is changed here (mark_home).
        owner = owner_of(store, record, owners)
        home = owner == target
        kind = record.kind if home else TARGET_KIND[target].get(record.kind)
        # Home again or not, a state is live only where the target's kind can mark it: a record home cannot mark
        # so (a memfmt entity superseded in memspec) came home a note, and its carry holds the state it was read
        # with from that note, which is no mark of home's own (docs/conversion.md).
        state = record.lifecycle.state
        live = state == "active" or (state in LIFECYCLE[target] and holds_state(target, kind, record))
        if home and id(record) in report.state_edited:
            live = mark_home(record, target)
            if not live:
                unmarked[id(record)] = (f"{record.lifecycle.state} in {store.dialect} since its conversion; "
                                        f"{target} cannot mark {_a_kind(record.kind)} so")
        if record.opaque and not home:
            # A dialect of OPAQUE_FILES (memoir, claude) keeps a legacy entry whole; elsewhere it is a record
            # of the kind its legacy type means (a fact by default), its frontmatter carried.
            kind = "opaque" if declared(declares, "OPAQUE_FILES") \
                else TARGET_KIND[target][transforms.legacy_kind(record)]
        if kind is None or not live:
            kept = unpacked(record)  # (made again if it was packed: known by this record from now on)
            if kind is not None and state in LIFECYCLE[target] and id(record) not in unmarked:
                # The target has the kind and the state, but its kind cannot mark the state (memoir marks a decision
                # superseded, not a fact): its state keeps it out, not its kind.
                unmarked[id(kept)] = f"{state} in the source; {target} cannot mark {_a_kind(kind)} so"
            kept_out.append(kept)
            continue
        to_convert.append((record, owner, home, kind))
    records.clear()
    record = None
    # Made in a worker (jobs) while the native records are made here: it holds the records as they are now, with
    # their files' layouts, which are let go here as each record is converted.
    formats_made = None if lossy else parallel.Later(
        functools.partial(_format_patches, store, [r for r, *_ in to_convert] + kept_out, owners),
        parallel.current() if parallel.worth_spreading(len(to_convert)) else 1)
    # A writer that works out at its call where a record home again goes from whether it is unchanged (memfmt:
    # PLANS_HOME_BY_CARRY) must see such records as they will be written: each wears its marker, then its carry,
    # before the writer is called, so nothing it renders can be spliced.
    splices = not (declared(declares, "PLANS_HOME_BY_CARRY") and any(o == target for _, o, _, _ in to_convert))
    # The final write takes the read-back's renderings, each with its carry spliced in, where the writer
    # sees the store it saw in the read-back: the same records, and no store facts (prefix, operators).
    rendered = report.rendered if not out.meta and splices else None
    # Handed the records, the conversion keeps of a spliced record only what the final write reads of it.
    reads = declared(declares, "SPLICED_READS") if release else None
    # As the final write asks: it holds the final store's records from now on, in their order (the working
    # set's last), and takes each spliced file as soon as it is made. The records read back are then counted by
    # the write's bar, and the conversion's counts the records made.
    lazy = bool(lazy and to_convert and rendered is not None and reads is not None)
    # Where the target's writer takes a conversion's records one at a time (WRITES_EACH_CONVERTED) and no record
    # is home again (a record home is named as at home, and may write a hand-written index of its own), each
    # native record is made again of its source when the read-back asks for it, and let go once the final write has
    # written it: no more than a batch of them is held (docs/performance.md, "native records let go as written").
    each = lazy and declared(declares, "WRITES_EACH_CONVERTED") and not written and not report.split_off \
        and not any(home for _, _, home, _ in to_convert)
    if lazy:
        progress.expect(len(to_convert))
    #: What the read-back looks up by each source record: its identity, and its owner. With ``release`` the record is
    #: packed once its native record is made (a record object holds a slot for each of its 58 fields), and another
    #: object may then take its identity.
    keys = array.array("Q")
    owned: list[str] = []
    #: With ``each``: the sources, packed, with the kind and link of each one's native record (``native_of``), and
    #: whether each native record is kept whole (the one thing a worker's carry asks of it).
    sources: list[Packed] = []
    kinds: list[str] = []
    links: list[str] = []
    kept_whole = bytearray()
    #: The kinds a lossy conversion writes as a plain memory kept whole (a dossier).
    dossiers = LOSSY_AS_DOSSIER.get(target, ()) if lossy else ()
    rides, title_is_link = declared(declares, "RIDES_AS_UNKNOWN"), declared(declares, "TITLE_IS_LINK")

    def as_native(record: Record, kind: str, link: str, home: bool) -> Record:
        """``record`` in the target's words, a ``kind`` named ``link``, or the plain memory kept whole a lossy
        conversion writes a ``kind`` of ``dossiers`` as: made of the same record the same each time, so ``native_of``
        can make it again of the source packed."""
        native = native_form.in_target_words(record, kind, link, None if home else target)
        if home and native.lifecycle.reason is not None:
            # The reason memspec's supersede gave it, which home has no key for: on its labelled line, and carried
            # (_carry_witness), so that home's tools show the person's words and the way back takes them out again.
            readable.show_reason(native, target)
        if not home:
            _rides_as_unknown(native, rides)
            if native.kind in title_is_link:
                native.title = link  # linked by name (memfmt's entities): two of one name would be one
        return native_form.dossier(native, target) if kind in dossiers else native

    #: With ``each``: what the target's writer works out of every record before the first (its ``each_facts``).
    gather = declared(declares, "each_facts") if each else None
    gathered, facts_of = gather() if gather is not None else (None, None)
    # Words carried from a dialect that is neither the target nor the store's own (a memoir lesson's body, carried
    # in a Claude folder on its way to memfmt) name each record as that dialect did when the carry was made: a record
    # that became another dialect's own since (the goal that is a Claude ``project_`` file now) by the link that
    # dialect derives for it (``goal_retry-release``), which no record of this store has. Its links name it by that
    # link too (``aliases``); a record's own link wins (docs/conversion.md, "words carried from a third dialect").
    carried_from = {owner for _, owner, _, _ in to_convert} - {target, store_owner(store)}
    aliases: dict[str, str] = {}
    to_convert.reverse()
    while to_convert:
        item, owner, home, kind = to_convert.pop()  # in order, and not held here once converted
        # Known by ``key`` from now on: the identity of the record, or of the Packed it was held as from its read,
        # which ``sources`` or ``natives`` hold to the end (a record made again here is let go once converted).
        key = id(item)
        # Made again where its native record is made here; else only read (its native record is made of it again as
        # the read-back asks for it: ``native_of``).
        record = item if each and gathered is None else unpacked(item)
        # Home again, a record keeps its kind and its link: it is what that dialect wrote.
        wanted = record.link if home else native_link(record, kind, target)
        link = wanted if home else unique_link(wanted, taken, target)
        if link != wanted:
            numbered.add(key)
            if rename.get(wanted) == wanted:
                # A record home again holds the name (it keeps its link: docs/limits.md, "Names never collide"), and
                # a carry of IN may name any link (a crafted note's): the record numbered for it is said, never silent.
                report.warnings.append(f"{where_from(record)}: {dialects.written_as(wanted, link, 'same')}")
        taken.add(link)
        if owner in INDEX_IS_CONTENT:
            members.add(record.link)  # an entry of a folder whose index is written by hand
        rename[record.link] = link
        for other in carried_from:
            if other != owner and not record.opaque and (there := TARGET_KIND[other].get(record.kind)) is not None:
                if (alias := native_link(record, there, other)) != record.link:
                    aliases.setdefault(alias, link)
        # Made here where the writer gathers facts of every native record before the first, else only as the
        # read-back asks for it (``native_of``): made twice, it cost 4% of a conversion's instructions.
        native = None if each and gathered is None else as_native(record, kind, link, home)
        if not home and "trigger" in getattr(getattr(record.source, "layout", None), "derived", ()):
            derived.add(key)  # asked before the layout is let go, below
        if home and record.source is not None and record.source.dialect == target and kind not in dossiers:
            native.source = record.source  # home again: its own writer reuses its file (not a dossier's)
        elif release and record.source is not None and record.source.dialect != target:
            # How its file was formatted, and the fingerprint that told whether it was edited since, are for its
            # own dialect's writer, which writes nothing here; the format patches, made above, were their last
            # use. A third of a read record, let go now.
            record.source.layout = record.source.fingerprint = None
        if home:
            report.home.add(id(native))  # named by its link as at home: its writer keeps that name (Occasion.home)
        if each:
            # Not held: what the writer works out of every record is gathered of it here, and it is made (again) of
            # its source (``native_of``) as the read-back asks for it, its links renamed, and let go once written.
            # Held, packed, it was 730-1,000 bytes an entry beside its source's (docs/performance.md, "(thirty-third)").
            keys.append(key)
            owned.append(owner)
            sources.append(item if item.__class__ is Packed else Packed(record))
            kinds.append(kind)
            links.append(link)
            kept_whole.append(kind in dossiers or native_form.kept_whole(record, kind))
            if gathered is not None:
                gathered(native)
            progress.advance()
            continue
        if not home and not _stays_bare(declares, native) and native.link not in report.members \
                or key in report.split_off:
            # Arrived from another dialect; a bare file carries nothing, so its owner is not known: it
            # may be the target's own, home again, and is not counted as new. (Asked before the read-back
            # marks it: a marker is no frontmatter of its own.)
            report.arrived.add(id(native))
        keys.append(key)
        owned.append(owner)
        natives.append((item if item.__class__ is Packed else Packed(record) if release else record, native))
        if lazy:
            progress.advance()
    item = record = None  # the last one converted is held packed, not here
    named = {**aliases, **rename} if aliases else rename  # (``unrename``, below, is of ``rename``: the links given)
    if each:
        def native_of(i: int) -> Record:
            """The native record of ``sources[i]``, made again as the loop above made it, its links renamed: asked once,
            before the source is let go."""
            native = as_native(sources[i].record(), kinds[i], links[i], False)
            rename_links(native, named)
            return native

        natives = Natives(sources, native_of)
    else:
        for _, native in natives:
            rename_links(native, named)
    formats = formats_made.result() if formats_made is not None else {}
    formats_made = None
    # The working set's native rendering is made before the read-back, so that the target's
    # writer sees the same records both times (store facts such as memspec's date of undated
    # records are taken from all of them).
    ws_note = shown = None
    holds_working_set = working_set_dialect() is declares  # it has the working set's own file format
    working_set = store.working_set
    if working_set is not None and not holds_working_set and unwritable(working_set.document):
        out.quarantined.append(_unwritable(working_set, target))
        working_set = None
    if working_set is not None and not holds_working_set:
        ws_note = notes.working_set(working_set, target, store.dialect, lossy=lossy)
        shown = renderings.working_set_record(working_set, target)
        if shown is not None:
            shown.link = unique_link(native_link(shown, shown.kind, target), taken, target)
            if shown.kind in declared(declares, "TITLE_IS_LINK"):
                shown.title = shown.link
            taken.add(shown.link)
            if not lossy:
                set_carry(shown, target, Carry(owner=store_owner(store),
                                                payload={renderings.WORKING_SET: renderings.digest(shown)}))
    # 3. read back what the target's writer makes of the native records.
    unrename = {new: old for old, new in rename.items()}
    #: The lists of field names the records' reports hold, one tuple for each list said: most records of a store say
    #: the same few (a list each took 120-220 bytes an entry to the run's end; docs/performance.md, "(thirty-fourth)").
    said_once: dict[tuple[str, ...], tuple[str, ...]] = {}

    def shared(names) -> tuple[str, ...]:
        names = tuple(names)
        return said_once.setdefault(names, names)

    def made_of(original: Record, opaque: bool, returned: Record, key: int, owner: str) -> _Made:
        return _made_carry(original, opaque, returned, owner, target, lossy=lossy, inline=inline.get(key),
                           unrename=unrename, derived=key in derived, fmt=formats.get(key), numbered=key in numbered)

    def prepare(i: int, returned: Record) -> _Made | None:
        """What the loop below makes of a record converted into another dialect, read back: in a worker (jobs)."""
        if owned[i] == target:
            return None  # home again: its report is this process's
        if each:  # the worker makes no native record of its own: the carry asks only whether it is kept whole
            return made_of(sources[i].record(), bool(kept_whole[i]), returned, keys[i], owned[i])
        original, native = natives[i]
        return made_of(unpacked(original), native.opaque, returned, keys[i], owned[i])

    if not (report.members and written):
        taken = None  # every link is given: asked again only of a hand-written index's links (4 MB at 100,000)
    if facts_of is not None:  # of every record the writer is given: the working set's last, as in out.records
        if shown is not None:
            gathered(shown)
        natives.facts = facts_of()
    back = ReadBack(target, natives, store, also=[shown] if shown is not None else [], date=date, beside=out,
                    splices=splices, home=report.home, prepare=prepare, jobs=parallel.current())
    # What the final write works out at its call (a Claude index linking the records, memoir's session.json) is
    # the final store's from the start: a lazy conversion's final write is called before the rest of it runs.
    if written:
        out.indexes = written
    if working_set is not None and holds_working_set:
        out.working_set = working_set
    if each:
        report.natives = natives  # the final write's records, then ``out.records``
    elif lazy:
        out.records = [native for _, native in natives]
    if lazy:
        if shown is not None and working_set is not None and not holds_working_set:
            out.records.append(shown)
            report.arrived.add(id(shown))
    yield lazy
    if not lazy:
        progress.expect(len(natives))  # the bar of a conversion under way counts the records read back
    # The links of the records kept out as notes, and each written record linking one (said once the notes are).
    noted = sorted({record.link for record in kept_out} | report.elsewhere.keys())
    probe = link_probe(noted)
    linking: list[tuple[FileReport, list[str]]] = []
    for i in range(len(natives)):
        original, native = natives[i]
        if not lazy:
            progress.advance()
        if i:
            yield i - 1  # the record before this one is read back and carried
        key, owner = keys[i], owned[i]
        if release:
            natives[i] = (None, native)  # the loop's ``original`` is now its last hold
            original = original.record()
        returned = back.take(i)  # read as it is asked for, and dropped when its carry is made
        made = None
        if isinstance(returned, Prepared):  # read, and its carry made, by a worker
            written_at, made, returned = returned.path, returned.made.here(), None
        else:
            written_at = returned.source.path if returned is not None and returned.source is not None else None
        rep = FileReport(source=where_from(original), source_kind=original.kind, target=written_at or native.link,
                         target_kind=native.kind)
        if key in inline:
            what = "its own words" if inline[key].get(renderings.WORDS) else "inline bullet"
            rep.source, rep.source_kind = f"{inline[key]['path']} ({what})", "inline"
        if not lazy:
            out.records.append(native)
        report.records.append(rep)
        if noted and (found := links_to(native, noted, probe)):
            linking.append((rep, found))
        if owner == target:
            # Home again: the target's own reader and writer keep it; nothing to carry.
            rep.native = shared(carrying.said(original))
            rep.dropped = shared(report.lost.get(key, ()))
            _carry_witness(native, target, lossy, rep, out, note_names, written_at, report.edited.get(key, ()))
            if original.kind in dossiers:
                # Written as a plain memory kept whole (--lossy): it says what the dossier keeps, and drops the rest,
                # as a record arriving so does; not what its own writer would have kept of it.
                kept = set(carrying.said(native)) - {"kind"}
                rep.native = [name for name in rep.native if name in kept]
                rep.dropped = sorted(set(rep.dropped) | set(carrying.said(original)) - kept)
            elif returned is not None:
                _count_unwritten(original, returned, owner, rep, report.edits_warned.get(key), report, rename)
            continue
        if returned is None and made is None:
            if quarantine_unwritable(out, original, target, back.refused()):
                if lazy:  # the final write took the record for one of its files: it must start again
                    raise Unstreamable(f"{where_from(original)}: its {target} rendering is refused on read-back")
                out.records.remove(native)
                if rendered is not None:
                    # The writer sees other records than in the read-back: render anew, but for the records
                    # already let go, which only their rendering can write (made with this one present).
                    for key in [key for key in rendered if key not in report.let_go]:
                        del rendered[key]
                    rendered = None
                report.records.remove(rep)
                report.arrived.discard(id(native))
                continue
            raise StoreError(f"{where_from(original)}: the {target} writer lost this record on read-back",
                             hint="this is a bug in memconv; please report it with the file")
        if made is None:
            made = made_of(original, native.opaque, returned, key, owner)
        rep.native = shared(made.native)
        if made.fields is not None:
            if lossy:
                rep.dropped = shared(made.fields)
            else:
                rep.carried = shared(made.fields)
                if _stays_bare(declares, native):
                    # A bare file stays bare: a frontmatter holding only the carry would make it an
                    # invalid entry. Its carry waits in a note, keyed by the file's path.
                    out.foreign.append(notes.sidecar(written_at or f"{native.link}.md", made.carry, target,
                                                     note_names))
                else:
                    set_carry(native, target, made.carry)
        if refused := declared(declares, "refused_values")(native):
            said = ", ".join(f"{key}: {json.dumps(value, ensure_ascii=False, default=str)}"
                             for key, value in refused.items())
            one = len(refused) == 1
            rep.warn(f"{said}: {target} validate refuses {'this value' if one else 'these values'} there, so "
                     f"{'it is' if one else 'they are'} not written under {'that key' if one else 'those keys'}; "
                     + ("dropped (--lossy)" if lossy else "carried in its memconv key, and home again as it was"))
        original = returned = made = None
        if rendered is not None and not _stays_bare(declares, native):
            # What the read-back rendered, the marker replaced by the carry, or taken out where it wears none.
            spliced = back.spliced(i, get_carry(native))
            if spliced is not None:
                rendered[id(native)] = spliced
                # Let go, unless the read-back wrote it elsewhere (it was the later of two claiming one file):
                # the final write renders such a record again. An opaque record is kept: its frontmatter is its
                # whole ``extra``, which its writer may read to place it.
                if reads is not None and _written_where_read(spliced, written_at) and not native.opaque:
                    _let_go(native, reads)
                    if not each:  # (let go whole once written: its id may then be another's)
                        report.let_go.add(id(native))
    if natives:
        yield len(natives) - 1
    back.close()
    if report.members and written:
        report.warnings.extend(_links_to_the_deleted(written, report.members, taken | {r.link for r in kept_out},
                                                     store.dialect))
    noted_at = dict(report.elsewhere)  # a link of ``noted`` → where its record is
    for record in kept_out:
        state = record.lifecycle.state
        why = (unmarked[id(record)] if id(record) in unmarked
               else f"{state} in the source; {target} cannot mark it so" if state not in LIFECYCLE[target]
               else f"{record.kind} has no home in {target}")
        note = notes.write(record, owner_of(store, record, owners), target, why, lossy=lossy,
                           format_patch=formats.get(id(record)), names=note_names)
        out.foreign.append(note)
        rep = FileReport(source=report.state_edited.get(id(record)) or where_from(record), source_kind=record.kind,
                         target=note.path, target_kind="note",
                         warnings=[f"kept as a note, not as a current memory: {why}"])
        if lossy:
            rep.dropped = carrying.said(record)
        else:
            rep.carried = ["(whole record)"]
        report.records.append(rep)
        noted_at[record.link] = f"which is kept as a note ({note.path})"
    for rep, found in linking:
        _say_links_to_notes(rep, found, noted_at, target)
    if kept_out and written:
        report.warnings.extend(_index_links_to_notes(written, {r.link for r in kept_out}, noted_at, target))
    if working_set is not None and not holds_working_set:
        out.foreign.append(ws_note)
        if shown is not None:
            if not lazy:
                out.records.append(shown)
            report.arrived.add(id(shown))
            report.records.append(FileReport(source="session.json", source_kind="working_set",
                                             target=shown.link, target_kind=shown.kind,
                                             dropped=renderings.working_set_unshown(working_set, shown)
                                             if lossy else []))
        elif lossy and (dropped := renderings.working_set_unshown(working_set, None)):
            # (nothing to show: the note holds no payload either)
            report.records.append(FileReport(source="session.json", source_kind="working_set",
                                             target=ws_note.path, target_kind="note", dropped=dropped))
        report.warnings.append("session.json (goals, next actions, decisions) is written as a memory of its own"
                               + ("" if lossy else f"; its exact JSON is kept in {ws_note.path}"))
    meta = {} if home_meta else carried_meta(store)
    if indexes or meta:
        came_from = meta_from if meta_from in TARGET_KIND else store_owner(store)

        def facts() -> dict[str, Any]:  # asked when the note is written: its texts are read from IN then
            # Each index is read again by its own dialect, which is not the store's after two hops (a
            # Claude MEMORY.md carried through memfmt into memoir came home read as memfmt's, and lost).
            read_by = {i.path: renderings.index_dialect(i) for i in indexes}
            payload = {"from": came_from,
                       # model values, encoded as the note is written (notes.store_note); of an index whose text is
                       # carried and whose dialect reads it again (restore), its path alone
                       "indexes": [_noted(i, read_by[i.path]) for i in indexes],
                       # read from IN as each is encoded, a slice of its text at a time
                       "raw": {i.path: TextOfBytes(i.source.raw_pieces) for i in indexes
                               if i.source is not None and i.source.has_raw}}
            if any(dialect != came_from for dialect in read_by.values()):
                payload["index_from"] = read_by
            # A regenerated index's fingerprint (the digest of the text its writer regenerates): home
            # again with the same records, its writer keeps the bytes written in it.
            regenerated = {i.path: i.source.fingerprint for i in indexes if read_by[i.path] not in INDEX_IS_CONTENT
                           and i.source is not None and isinstance(i.source.fingerprint, str)}
            if regenerated:
                payload["fingerprints"] = regenerated
            if any(dialect in INDEX_IS_CONTENT for dialect in read_by.values()) and members:
                # Which entries were the folder's: home again, an entry the index leaves out stays out.
                payload["members"] = sorted(members)
            if meta:
                payload["meta"] = meta
            return payload

        note = notes.store_note(facts, target, store.dialect, lossy=lossy, shown=indexes)
        out.foreign.append(note)
        if indexes:
            # Of the note, named first as every warning of a file is (report.split_name): its notice's path.
            report.warnings.append(f"{note.path}: {len(indexes)} index file(s) carried here, as written, "
                                   "for the way back")


def _noted(index: IndexFile, dialect: str) -> IndexFile:
    """What a store note holds of ``index`` beside its text: its path alone where the text is carried and
    ``dialect`` (the index's own) reads it again, as the way home does (restore: _restore_store). Its model beside
    it said every link a second time, in JSON: 4.3 MB of a 20,000-entry Claude store's 8 MB note, rendered whole
    at the run's end, its peak (docs/performance.md)."""
    if index.source is None or not index.source.has_raw or dialects.declaration(dialect, "read_index") is None:
        return index
    return IndexFile(path=index.path)


def _made_carry(original: Record, opaque: bool, returned: Record, owner: str, target: str, *, lossy: bool,
                inline: dict[str, Any] | None, unrename: dict[str, str], derived: bool, fmt: dict[str, Any] | None,
                numbered: bool) -> _Made:
    """The carry of ``original``, converted into ``target`` as a native record (kept whole there: ``opaque``) and read
    back there as ``returned`` (the read-back's own record, taken home in place): what did not come back, and what the
    way back needs to tell an edit in the target. It depends on this record alone, so a worker of ``--jobs`` can make
    it (read_back.py).
    ``inline``: the bullet's mark of a record kept as an inline index bullet; ``derived``: its reader took the
    trigger from the description; ``fmt``: its format patch; ``numbered``: its link had to be numbered;
    ``unrename``: each link the conversion gave, to the link it had."""
    returned_kind = returned.kind
    shown_digest = renderings.digest(returned) if inline is not None else None
    # The body of an entity's facts, as the target shows them: read home (below) paragraph by paragraph.
    facts_body = returned.body if original.kind == "entity" and returned.facts is None else None
    # The record read back is this conversion's own: mapped home in place, not copied.
    home = home_record(returned, Carry(owner=owner), kind=original.kind, fresh=True)
    # What the target's files say, before the links are named home (rename_links changes edge
    # targets in place: the copy keeps the edges as read, home gets new ones).
    as_written = copy.copy(home)
    home.edges = [copy.copy(e) for e in home.edges]
    home_link(home, owner)
    # A body that cannot come home equal is carried whole: renaming its links is work for nothing.
    rename_links(home, unrename, {"body"} if differs_however_renamed(original.body, home.body) else frozenset())
    carry = carrying.difference(original, home, owner=owner, native=as_written)
    if original.opaque and not opaque and "title" not in carry.fields and not original.extra \
            and transforms.heading_is_title(original):
        # A bare memory (a Claude or memoir file with no frontmatter) whose ``# Title`` line the target
        # shows as its name: the name's digest tells an edit of it there, which comes home on that line
        # (restore: transforms.heading_back).
        carry.fields["title"] = carrying.as_json(original.title)
        carry.native["title"] = carrying.field_digest(as_written.title)
    if derived and "description" in carry.fields:
        carry.payload["derived"] = ["trigger"]
    if fmt is not None:
        carry.payload["format"] = fmt
    if inline is not None:
        # What the target's files say of the bullet: an edit there changes it.
        carry.payload[renderings.INLINE] = {**inline, "digest": shown_digest}
    if original.kind != TARGET_KIND.get(owner, {}).get(returned_kind, returned_kind):
        carry.payload["kind"] = original.kind
    if "edges" not in carry.fields and owner in TARGET_KIND \
            and readable.unsaid(original.edges, EDGE_TYPES[owner]):
        # Edges its own files cannot say (a record built in code): carried as they are, so that the way home
        # tells them from an edge the target added, which it writes into the body (readable.fold_in_relations).
        carry.fields["edges"] = carrying.as_json(original.edges)
        carry.native["edges"] = carrying.field_digest(as_written.edges)
    if "anchors" not in carry.fields and original.anchors and owner in TARGET_KIND and not holds_anchors(owner):
        # Anchors its own files cannot say (a record built in code), likewise (readable.fold_in_anchors).
        carry.fields["anchors"] = carrying.as_json(original.anchors)
        carry.native["anchors"] = carrying.field_digest(as_written.anchors)
    for name in readable.unsaid_text(original, owner) if owner in TARGET_KIND else ():
        if name not in carry.fields:
            # Text its own files cannot say (a record built in code), likewise (readable.unsaid_text).
            carry.fields[name] = carrying.as_json(getattr(original, name))
            carry.native[name] = carrying.field_digest(getattr(as_written, name))
    if original.lifecycle.state != "active" and "lifecycle" not in carry.fields:
        # Its state, as it was: an edit of it in the target is then told from the state it came with.
        carry.fields["lifecycle"] = carrying.as_json(original.lifecycle)
        carry.native["lifecycle"] = carrying.field_digest(as_written.lifecycle)
    said = [n for n in carrying.said(original) if n not in carry.fields and n != "kind"]
    # Between a dialect that declares CARRY_ORIGIN (a plugin holding every field) and any other, the
    # owner is carried even when nothing else differs, both ways: the way back then treats the
    # record as its owner's (docs/plugins.md).
    # An entity whose facts the target shows as something else than paragraphs (a fact ``- b`` is a list
    # item there) carries its owner even when nothing differs: the way home then reads its body as the
    # read-back did, paragraph by paragraph; taken for the target's own, it would be read by blocks (``b``)
    # (docs/conversion.md, "Facts from a body's blocks").
    if carry.fields or carry.extra_order or carry.payload or numbered or inline is not None \
            or _carries_owner(target, owner) \
            or (facts_body is not None and original.facts and not transforms.facts_read_alike(facts_body)):
        return _Made(said, sorted(carry.fields), None if lossy else carry.dumps())
    return _Made(said, None, None)


class _Made(NamedTuple):
    """What :func:`_made_carry` makes of a record: the fields the target holds as they are (its report's
    ``native``), and the fields carried (None: no carry at all) with the carry as written (None with
    ``--lossy``, where they are reported dropped)."""

    native: list[str]
    fields: list[str] | None
    carry: str | None

    def here(self) -> _Made:
        """As a worker sent it: its field names made this process's own. Unpickled, each name was a string of its
        own, held in the record's report to the run's end: about 160 bytes an entry (docs/performance.md)."""
        return _Made([sys.intern(n) for n in self.native],
                     None if self.fields is None else [sys.intern(n) for n in self.fields], self.carry)


def unformatted(record: Record) -> None:
    """``record``, just read for a conversion into another dialect, without its file's layout (how its lines were
    written), in place: a third of a read record (docs/performance.md). Only the source's own writer reads a
    layout, and it writes nothing in such a conversion; the format patch is made from the file's bytes. What
    :func:`forward` asks of it is kept: which fields its reader derived from others (a Claude feedback
    memory's trigger, from its description)."""
    source = record.source
    if source is None or source.layout is None:
        return
    derived = getattr(source.layout, "derived", None)
    source.layout = _derived(frozenset(derived)) if derived else None


def held(record: Record) -> Record | Packed:
    """What a store read for a conversion into another dialect holds of ``record`` until it is converted (after
    :func:`unformatted`): packed (:class:`~memconv.model.Packed`), unless it wears a carry, which :func:`restore`
    reads and changes. A record object holds a slot for each of its 58 fields, and its empty lists, dict and
    lifecycle: 680 of the 2,062 bytes a Claude memory held once read (docs/performance.md, "(thirty-ninth)").
    The conversion knows a packed record by the identity of its :class:`Packed`, which it holds to its end."""
    return record if get_carry(record) is not None else Packed(record)


def unformatted_index(index: IndexFile, target: str) -> None:
    """``index``, just read for a conversion into ``target``, without its layout (a line for each of its links:
    a third of a Claude store as read, docs/performance.md), where :func:`forward` lets it go: an index the
    target's writer does not write, read by another dialect than the target. Its bytes are read again from IN
    for the store note, and by the way back (``restore``), which reads its layout again from them."""
    source = index.source
    if source is not None and source.dialect != target and not _written_by(index, target):
        source.layout = None


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived:
    """What is left of a record's layout by :func:`unformatted`: the fields its reader derived from others."""

    derived: frozenset[str]


@functools.lru_cache(maxsize=None)
def _derived(fields: frozenset[str]) -> _Derived:  # one for each set of fields, shared by the records
    return _Derived(fields)


def _unwritable(working_set, target: str) -> Quarantined:
    """The quarantine entry of a working set whose JSON says text no file holds (a lone surrogate or a NUL, as a
    ``\\u`` escape): its own dialect keeps it, but ``target``'s files and a note cannot (docs/limits.md)."""
    source = working_set.source
    raw = source.raw if source is not None and source.has_raw else json.dumps(working_set.document).encode()
    text = raw.decode("utf-8", "replace")
    m = _UNWRITABLE_ESCAPE.search(text)
    return Quarantined(source.path if source is not None else "session.json", raw,
                       "holds a lone surrogate or a NUL (a \\u escape such as \\ud800 or \\u0000): text "
                       f"{target}'s files cannot hold (fix or remove the escape: a lone surrogate is usually half of "
                       "an emoji cut in two)", text.count("\n", 0, m.start()) + 1 if m else None)


#: A JSON escape of a lone surrogate or a NUL.
_UNWRITABLE_ESCAPE = re.compile(r"\\u(?:[dD][89a-fA-F][0-9a-fA-F]{2}|0000)")


def _written_where_read(spliced: Any, written_at: str | None) -> bool:
    """Whether the final write writes a spliced rendering where the read-back read it. A rendering that names its
    file (a tuple, the path first: memspec's, whose writer names a file as it renders it) says where; a rendering
    of bytes goes where its writer placed the record before rendering any, from the same records both times."""
    return spliced[0] == written_at if isinstance(spliced, tuple) else True


def _let_go(record: Record, reads: tuple[str, ...]) -> None:
    """Every field of ``record`` but ``reads`` (and its kind and link) back to its default, in place: what the
    final write takes from its rendering need not be held until then (docs/performance.md)."""
    _clearer(reads)(record)


@functools.lru_cache(maxsize=None)
def _clearer(reads: tuple[str, ...]):  # one for each target's SPLICED_READS
    return clearer(frozenset(("kind", "link", *reads)))


def _a_kind(kind: str) -> str:
    """A kind with its article, as a warning says it: ``a fact``, ``an entity`` (not "a entity")."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _format_patches(store: Store, converted: list[Record], owners: dict[int, str]) -> dict[int, dict[str, Any]]:
    """The format patches of ``converted`` (the list is let go on return: the records are let go one by one
    after, as they are converted)."""
    return format_patch.patches(by_owner(store, converted, owners), converted)


def _links_to_the_deleted(indexes: list, members: set[str], written: set[str], dialect: str) -> list[str]:
    """A warning for each link of ``indexes`` to an entry the folder had (``members``, as its store note lists
    them) that came back from ``dialect`` no more: deleted there, its link in the index points at nothing."""
    said = []
    for index in indexes:
        for section in index.sections:
            for link in section.links:
                stem = link.target.removeprefix("./").removesuffix(".md")
                if stem in members and stem not in written:
                    said.append(f"{index.path}: it links {link.target}, whose memory is not in {dialect} any more "
                                f"(deleted there?): the link points at nothing; take it out of {index.path} if it "
                                "should go")
    return said


def _say_links_to_notes(rep: FileReport, found: list[str], noted_at: dict[str, str], target: str) -> None:
    """A warning on ``rep`` for each link of its record to a record that is no memory in ``target`` (``noted_at``
    says where it is: a note, the session state): the link is kept as written (the edge and the text are the user's;
    converting again gives the record back, and the link with it), but its tools and readers find nothing there."""
    for link in found:
        rep.warn(_links_a_note(link, noted_at[link], target))


def _links_a_note(link: str, where: str, target: str) -> str:
    return (f"it links {link}, {where}, not as a current memory: in {target} the link points at no memory; it is "
            "kept as written, for the way back")


def _index_links_to_notes(indexes: list, noted: set[str], noted_at: dict[str, str], target: str) -> list[str]:
    """A warning for each line of ``indexes`` (written as they came) linking the file of a record kept out as a note
    (``noted``): the line is kept as written, as a record's link is (:func:`_say_links_to_notes`), but the index the
    target's tools load points at no file there."""
    said = []
    for index in indexes:
        for section in index.sections:
            for link in section.links:
                stem = link.target.removeprefix("./").removesuffix(".md")
                if stem in noted:
                    said.append(f"{index.path}: " + _links_a_note(link.target, noted_at[stem], target))
    return said


def _written_by(index, target: str) -> bool:
    """Whether the target's writer writes ``index``: a hand-written index in a target that keeps its index as
    content, or the target's own index home again."""
    dialect = renderings.index_dialect(index)
    return dialect == target or (target in INDEX_IS_CONTENT and dialect in INDEX_IS_CONTENT)


def _carries_owner(target: str, owner: str) -> bool:
    """Whether a record from ``owner`` carries its owner into ``target`` even when nothing else differs."""
    return bool(dialects.declaration(target, "CARRY_ORIGIN")
                or (owner in TARGET_KIND and dialects.declaration(owner, "CARRY_ORIGIN")))


def _stays_bare(declares, native: Record) -> bool:
    """A bare file (an opaque record with no frontmatter) stays bare in a dialect of OPAQUE_FILES: a
    frontmatter holding only the carry would make it an invalid entry, so its carry waits in a note."""
    return bool(declared(declares, "OPAQUE_FILES")) and native.opaque and not native.extra


def _rides_as_unknown(native: Record, names: tuple[str, ...]) -> None:
    """A record from another dialect: the fields the target's writer keeps with the unknown keys
    (memspec's ``scope``, under ``ext.memconv.fields``, which memspec's own rewrites keep; its reader
    gives them back) move to ``extra``, first, in the order the target declares them."""
    moved = {name: getattr(native, name) for name in names if getattr(native, name) is not None}
    if moved:
        native.extra = {**moved, **native.extra}
        for name in moved:
            setattr(native, name, None)


#: What a record home again keeps though no reader's record of its file holds it: text its own reader does not read
#: (``Record.unread``), which its file keeps in the bytes its format patch writes again; other dialects show it.
_KEPT_IN_ITS_BYTES = frozenset({"unread"})


def _count_unwritten(original: Record, returned: Record, owner: str, rep: FileReport,
                     edits: tuple[str, str, list[str]] | None = None, report: Conversion | None = None,
                     rename: dict[str, str] | None = None) -> None:
    """A record home again keeps what its own writer writes; whatever else it brought from the dialect it was
    read from (a memfmt procedure's step counts, an evolution or a knowledge entry added there to a memoir lesson
    or fact), and nothing carries or shows, its writer leaves out: counted dropped, so that ``--fail-on-loss``
    fails. Before, it was lost while the report said "0 dropped". (``returned``: the record as its own reader read
    its rendering back.) A field edited in the dialect read (``edits``: where, that
    dialect, the fields edited) is said dropped in the warning of ``report`` that said the edit won, instead.
    ``rename``: each link as read → as written; its file names the memories it links so, and so is it compared."""
    lost = _unset_as_read(carrying.difference(original, returned, owner).fields.keys() - _KEPT_IN_ITS_BYTES,
                          original, returned, owner)
    if not lost:
        return
    if rename:
        # Its links as the target named them (a memory no carry names home: Claude's ``reference_x``) are named
        # home as its file names them: a link renamed is no text lost (docs/claude.md).
        original = clone(original)
        rename_links(original, rename)
    read = copy.copy(returned)
    read.extra = dict(returned.extra)
    strip_carry(read)  # the read-back's marker is no part of it (a new ``ext`` is made without it)
    if original.lifecycle.reason is not None and readable.shows_reason(original, owner):
        readable.reason_back(read, owner)  # its line (readable.show_reason) is the reason, as the way back reads it
    if isinstance(original.body, str) and isinstance(read.body, str) and original.body != read.body \
            and original.body.rstrip("\n") == read.body.rstrip("\n"):
        # A body's last line ends are its file's, no text: a reader that takes them off (memfmt's, of a profile
        # edited in memspec, whose file ends with one) was counted as a body dropped (docs/conversion.md).
        original = clone(original) if not rename else original
        original.body = read.body
    lost = _unset_as_read(set(carrying.difference(original, read, owner).fields) - {"link"} - _KEPT_IN_ITS_BYTES
                          - set(rep.carried), original, read, owner)
    if "edges" in lost and _alike_key_by_key(original.edges, read.edges, EDGE_TYPES.get(owner)):
        lost.discard("edges")
    if not lost:
        return
    rep.dropped = sorted(set(rep.dropped) | lost)
    said = edits_said(*edits) if edits is not None and lost & set(edits[2]) else None
    if said is not None and said in report.warnings:
        where, dialect, edited = edits
        report.restated[said] = edits_said(where, dialect, [n for n in edited if n not in lost],
                                           [n for n in edited if n in lost], owner)
        report.warnings[report.warnings.index(said)] = report.restated[said]
        lost -= set(edited)
    # Taken out there, where home's file still says it (a description in the frontmatter a record kept whole keeps
    # as it was): the deletion is what is lost, not something brought home.
    kept = lost & (set(carrying.said(read)) - set(carrying.said(original)))
    if kept:
        rep.warn(f"{', '.join(sorted(kept))}: taken out in the dialect it was read from, but its {owner} "
                 "file still says it: the deletion is dropped")
    if lost - kept:
        rep.warn(f"{', '.join(sorted(lost - kept))}: brought home from another dialect, and {owner}'s "
                 "files have no place for them: dropped")


def _unset_as_read(lost: set[str], original: Record, read: Record, owner: str) -> set[str]:
    """``lost`` without each field ``original`` leaves unset and ``read`` holds as its home's tools read the key left
    out (its ``UNSET_READS_AS``: a memfmt procedure's version 1, counts 0): its writer writes that value for it, one
    value with the key left out to those tools, so nothing is lost. Before, a memfmt procedure written without
    ``success_count`` came home from memoir, Claude or memspec with its counts said dropped (``--fail-on-loss``
    exiting 5) though its file came back byte for byte (docs/conversion.md). A value set is compared as it is."""
    unset = dialects.declaration(owner, "UNSET_READS_AS").get(original.kind)
    if not unset or not lost & unset.keys():
        return lost
    return {name for name in lost if name not in unset or getattr(original, name) is not None
            or getattr(read, name) != unset[name]}


def _alike_key_by_key(written: list[Edge], read: list[Edge], held: frozenset[str] | None) -> bool:
    """The edges ``read`` back of a home that holds each in a key of its type (its ``EDGE_TYPES``: memspec's
    ``depends_on``, ``supports``…) are those ``written``, key by key and in each key's order: such a home holds no
    order across its keys (its writer puts them in its order, a kept layout in the file's), so that order is no edge
    lost. Before, a ``supports`` line added in Claude after the ``depends_on`` ones (``readable.relations_back``) read
    back before them, and ``edges`` was counted dropped, ``--fail-on-loss`` exiting 5 with the key written. A home
    holding relations in one list (memfmt's, ``held`` None), or an edge of a type it carries, keeps the order whole."""
    if held is None or len(written) != len(read) or not all(e.type in held for e in (*written, *read)):
        return False
    return sorted(written, key=_edge_type) == sorted(read, key=_edge_type)  # stable: each key keeps its order


def _edge_type(edge: Edge) -> str:
    return edge.type


def _carry_witness(native: Record, target: str, lossy: bool, rep: FileReport, out: Store,
                   note_names: notes.NoteNames, written_at: str | None, edited=()) -> None:
    """A record home again keeps what another dialect's tool added that home cannot say.

    Carried under home's own ``memconv`` key, so converting it to the dialect whose tool added them
    gives them back (docs/conversion.md); with ``--lossy`` they are reported dropped.
    """
    declares = dialects.get(target)
    holds = declared(declares, "NATIVE_FIELDS")  # fields the target holds as they are: not carried
    ext = {k: v for k, v in (native.ext or {}).items() if k != KEY}
    found = {n: (ext or None) if n == "ext" else getattr(native, n) for n in witness_fields() if n not in holds}
    for name in witness_edits():  # what those tools change (the next review): edited there, kept too
        if name in edited and name not in holds:
            found[name] = getattr(native, name)
    found = {n: v for n, v in found.items() if v is not None}
    reason = native.lifecycle.reason is not None and readable.shows_reason(native, target)
    if reason:  # written on its line (readable.show_reason): carried too, so that the way back takes the line out
        found["lifecycle"] = native.lifecycle
    if not found:
        return
    if lossy:
        rep.dropped = sorted(set(rep.dropped) | set(found))
        return
    carry = Carry(owner=target, fields={"link": native.link, **{n: carrying.as_json(v) for n, v in found.items()}})
    rep.carried = sorted(set(rep.carried) | set(found))
    if reason:
        rep.warn(f"supersede_reason: {target} has no field for it; written on a **Supersede reason:** line, and "
                 "carried in its memconv key")
    if set(found) - {"lifecycle"}:
        rep.warn(f"{', '.join(sorted(set(found) - {'lifecycle'}))}: {target} has no field for them; carried in its "
                 "memconv key")
    if _stays_bare(declares, native):
        out.foreign.append(notes.sidecar(written_at or f"{native.link}.md", carry.dumps(), target, note_names))
    else:
        set_carry(native, target, carry)
