"""Importing a store into an existing store of the target dialect, in place (``--into``, issue 11).

``memconv convert --from X --to Y IN --into EXISTING`` (and ``X-to-Y IN --into
EXISTING``):

1. IN is converted to Y in memory by the ordinary pipeline, written to a
   scratch folder and read back by Y's reader, so the imported side is a Y
   store exactly as Y's reader sees one (the same shape as EXISTING: memspec's
   ``.memspec/`` prefix, memfmt's ``memory/`` root, memoir's layout);
2. EXISTING, which must be detected as Y, is read by the same reader;
3. records are paired by the dialect's identity, and then by their memconv
   carry (:func:`pair_by_carry`), so a record memconv imported earlier is
   updated, not duplicated, when it was renamed since in IN; the import
   record EXISTING keeps (``.memconv/imports.json``) says which side changed
   a record since the last import of this IN (:func:`_three_way`), and the
   carries give the owner's dates;
4. the two stores are merged by Y's merge rules (``merge(EXISTING, imported)``:
   the merge depends on the two copies only, never on their order), and the
   report says "from IN" / "from EXISTING" instead of A / B;
5. the CLI swaps the merged files into EXISTING under its lock, after a
   verified backup, with the one in-place rule ``upgrade --in-place`` uses
   (:func:`memconv.upgrade.backed_up_and_replaced`).
   Files of EXISTING its reader did not read are kept as they are.

See docs/merge.md ("Importing into an existing store").
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import dialects, fs, pipeline
from ..errors import MemconvError, StoreError, UsageError, WrongDialect
from ..converters.codec import check_json
from ..fs import QUARANTINE_DIR, list_files
from ..limits import load_json
from ..markdown import renamed_target
from ..model import Record, Store, clone
from ..report import Report
from . import merge
from ..text import short_digest, unwritable
from .records import SAME_CONTENT, Hints
from .memoir import APPENDED, MergeResult
from .report import IMPORT_SIDES, Outcome

#: How the report names the two sides (merge's A and B).
SIDES = {"A": "EXISTING", "B": "IN"}


@dataclass
class Import:
    """What importing IN into EXISTING would do."""

    #: Every file of the merged store (paths relative to EXISTING).
    files: dict[str, bytes]
    #: The files of EXISTING its reader read: the swap replaces or removes these, and keeps every other file.
    read: set[str]
    #: Whether EXISTING would change at all.
    changes: bool
    #: The files of EXISTING a diff compares: those read, and any other the import writes the same bytes over.
    compared: set[str]
    result: MergeResult
    existing: Store
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def guard(in_path: Path, existing: Path) -> None:
    """IN and EXISTING may not be one folder, nor lie one inside the other (exit 2)."""
    a, b = os.path.realpath(in_path), os.path.realpath(existing)
    if a == b or b.startswith(a.rstrip(os.sep) + os.sep) or a.startswith(b.rstrip(os.sep) + os.sep):
        raise UsageError(f"{fs.display(str(existing))}: EXISTING and IN overlap",
                         hint="--into imports IN into another store: give two separate folders")


def confirm_existing(existing: Path, target: str) -> None:
    """EXISTING must be a store detected as ``target`` (exit 2 otherwise, saying what it is)."""
    shown = fs.display(str(existing))
    # The one rule of what a path given as a store folder is: this said "no such folder" of a file, a link loop
    # and a link to nothing.
    why = fs.no_folder(existing)
    if why is not None:
        raise WrongDialect(f"{shown}: {why}: there is no {target} store to import into",
                           hint="to write a new store, give OUT instead of --into")
    with fs.noting_refusals(existing):
        survey = dialects.survey(existing)
    if not survey.found:
        raise WrongDialect(f"{shown}: not a {target} store: {survey.describe()}",
                           hint="--into needs a store of the target dialect; to write a new store, give OUT "
                                "instead of --into")
    if survey.finding == "several stores":
        raise WrongDialect(f"{shown}: {survey.describe()}", hint="name the store folder itself with --into")
    best = survey.found[0]
    if best.dialect != target:
        raise WrongDialect(f"{shown}: a {best.dialect} store, not a {target} store ({best.evidence})",
                           hint=f"--into imports into a store of the --to dialect; convert to {best.dialect}, "
                                f"or give a {target} store")
    if best.elsewhere(existing):
        raise WrongDialect(f"{shown}: {best.evidence}", hint=best.hint or "name the store folder itself with --into")


# --- the imported side ------------------------------------------------------------------------

def _prefix(store: Store) -> str:
    """Where a store's own files start inside its folder (memspec's ``.memspec/``, memfmt's ``memory/``)."""
    if store.dialect == "memspec":
        return dialects.kept_folder(store.dialect, store)
    if store.dialect == "memfmt":
        root = store.meta.get("root", "memory")
        return f"{root}/" if root else ""
    return ""


def _reshape(files: dict[str, bytes], old: str, new: str) -> dict[str, bytes]:
    return {(new + p[len(old):] if p.startswith(old) else p): b for p, b in files.items()}


def imported(files: dict[str, bytes], target: str, existing: Store) -> Store:
    """The converted files read back by ``target``'s reader, in EXISTING's shape."""
    with fs.scratch_folder("into") as tmp:
        fs.write_files(tmp, files)
        store = pipeline.read(tmp, target, held=True)
    old, new = _prefix(store), _prefix(existing)
    if old != new:
        with fs.scratch_folder("into") as tmp:
            fs.write_files(tmp, _reshape(files, old, new))
            store = pipeline.read(tmp, target, held=True)
    if target == "memoir":
        store.meta["layout"] = existing.meta.get("layout", "nested")  # entries go where EXISTING keeps them
        if store.meta["layout"] == "flat" and store.working_set is not None:
            # A folder holding session.json is a nested store: written beside flat entries, it made every entry of
            # EXISTING, its own included, a file no memoir reader takes for one (docs/merge.md).
            raise UsageError("EXISTING is a flat memoir store (its entries in the folder itself, no session.json), "
                             "and IN brings a session.json (goals, next actions, decisions): written there, it "
                             "would make the folder a store with memory/ and no entry in it; nothing was changed",
                             hint="import into a memoir store with memory/ and session.json, or convert IN to a "
                                  "new OUT")
    return store


# --- identity by carry ------------------------------------------------------------------------

@dataclass
class ConvertedFrom:
    """Where memconv converted a record from, by its carry: the dialect it belongs to (its owner), its link there."""

    dialect: str
    link: str
    #: The carry's digests show a field was edited in the store's own tool since memconv wrote it.
    edited: bool
    #: The owner's dates the carry holds, as ``(field, value)``: they order copies (:class:`.records.Hints`).
    dates: list[tuple[str, object]]


#: The owner's dates that say when a record last changed there.
_DATES = ("updated", "created", "last_verified")


def converted_from(record: Record, dialect: str) -> ConvertedFrom | None:
    """Where memconv converted this record (of ``dialect``) from, read from its carry; None without one.

    The carry is read as the converters read it when they bring a record home
    (:func:`memconv.converters.restore`): checked whole, its dialect able to
    hold the record; the link is the one the way home gives (the carried link,
    or the one derived from the record when none was carried).
    """
    from ..converters import Carry, get_carry, restore, set_carry, strip_carry

    raw = get_carry(record)
    if raw is None:
        return None
    try:
        carry = Carry.loads(raw)
    except ValueError:
        return None  # not a carry memconv reads: the record is EXISTING's (or IN's) own
    if "format" in carry.payload:
        # The file's original formatting is not needed to know where it came from (and rebuilding it
        # reads the original again): left out.
        carry.payload.pop("format")
        record = clone(record)
        strip_carry(record)
        set_carry(record, dialect, carry)
    try:
        home, conversion = restore(Store(dialect=dialect, records=[record]))
    except MemconvError:
        return None
    back = [r for r in home.records if id(r) in conversion.owners]
    if len(back) != 1 or not back[0].link:
        return None
    found = back[0]
    dates = [(f"{name} in its carry from {conversion.owners[id(found)]}", getattr(found, name)) for name in _DATES
             if isinstance(getattr(found, name), str)]
    return ConvertedFrom(conversion.owners[id(found)], found.link, bool(conversion.edited.get(id(found))), dates)


def _converted_from_all(existing: Store, incoming: Store, identity, dialect: str) -> dict[int, ConvertedFrom]:
    """Where the records an import needs it for were converted from, each carry read once.

    Reading a carry costs as much as converting its record, so only: records no dialect identity
    matched (for identity by carry; IN's only when some record of EXISTING makes a claim at all),
    and the two copies of a record that differ (for their owner's dates).
    """
    def by_identity(records):
        found: dict[str, list[Record]] = {}
        for r in records:
            found.setdefault(identity(r), []).append(r)
        return found

    ours, theirs = by_identity(existing.records), by_identity(incoming.records)
    out: dict[int, ConvertedFrom] = {}

    def add(records) -> None:
        for r in records:
            if id(r) not in out and (o := converted_from(r, dialect)) is not None:
                out[id(r)] = o

    add(r for key, rs in ours.items() if key not in theirs for r in rs)
    if out:
        add(r for key, rs in theirs.items() if key not in ours for r in rs)
    for key in sorted(set(ours) & set(theirs)):
        mine, new = ours[key], theirs[key]
        if len(mine) != 1 or len(new) != 1 or _digest(mine[0]) != _digest(new[0]) or _digest(new[0]) is None:
            add(mine + new)
    return out


@dataclass
class Pairing:
    #: id(imported record) → the EXISTING record it is (identity by carry).
    pairs: dict[int, Record] = field(default_factory=dict)
    #: (EXISTING record, imported record, why): same owner and link, but not paired; both kept, reported as a conflict.
    unsure: list[tuple[Record, Record, str]] = field(default_factory=list)
    #: id(imported record) → its identity in IN, for a record paired by the import record (renamed in EXISTING).
    renamed: dict[int, str] = field(default_factory=dict)
    #: id(imported record) → the identity it had in IN at the last import, for a record paired by the import
    #: record's ``in`` digest (renamed in IN since; :func:`pair_moved`).
    moved: dict[int, str] = field(default_factory=dict)
    #: The identities of EXISTING's records and of IN's (made once, by :func:`pair_by_carry`).
    mine: set[str] = field(default_factory=set)
    theirs: set[str] = field(default_factory=set)


def pair_renamed(existing: Store, incoming: Store, identity, base: dict[str, dict[str, str]], pairing: Pairing) -> None:
    """Records of IN whose file, as the last import of this IN left it, EXISTING holds under another name.

    A person renamed it there (a Claude or memoir file moved to another name keeps its bytes): it is that record,
    paired as a carry pairs (:attr:`Pairing.renamed`), not imported again beside it. Only a record no identity or
    carry matched whose identity the import record knows is looked for, and only one file of EXISTING, no other
    record of IN claiming it, pairs.
    """
    new = pairing.theirs - pairing.mine
    if not new or not base:
        return  # every record of IN is EXISTING's by its identity: nothing looked for
    unsure = {id(c) for _, c, _ in pairing.unsure}
    lost = [r for r in incoming.records if (k := identity(r)) in new and id(r) not in pairing.pairs
            and id(r) not in unsure and base.get(k, {}).get("out")]
    if not lost:
        return
    theirs = pairing.theirs
    taken = {id(e) for e in pairing.pairs.values()} | {id(e) for e, _, _ in pairing.unsure}
    by_digest: dict[str, list[Record]] = {}
    for e in existing.records:
        if id(e) not in taken and identity(e) not in theirs and (d := _digest(e)) is not None:
            by_digest.setdefault(d, []).append(e)
    wanted: dict[str, int] = {}
    for c in lost:
        wanted[base[identity(c)]["out"]] = wanted.get(base[identity(c)]["out"], 0) + 1
    for c in lost:
        left = base[identity(c)]["out"]
        found = by_digest.get(left, [])
        if len(found) == 1 and wanted[left] == 1 and found[0].kind == c.kind:
            pairing.pairs[id(c)] = found[0]
            pairing.renamed[id(c)] = identity(c)


def pair_moved(existing: Store, incoming: Store, identity, base: dict[str, dict[str, str]], pairing: Pairing) -> None:
    """Records of IN renamed there since the last import of this IN: the mirror of :func:`pair_renamed`.

    A person renamed an entry in IN (a memoir file moved to another name, its links with it): it converts to the
    bytes the last import brought for its old name (``in``). A record of IN no identity or carry paired, which
    the import record does not know by its name, is paired with EXISTING's record of the one identity the import
    record knows, IN no longer has, and whose ``in`` is this record's digest, of one kind; only one record of IN
    and one identity of the import record making that claim pairs. EXISTING's name is kept (:func:`_adopt`).

    Renamed *and* edited, it converts to other bytes: a record of IN left over is then paired with EXISTING's
    record of such an old identity by the two records' kind and title (the name a person reads, which a rename of
    the file keeps), one record and one old identity making that claim. :func:`_three_way` then takes the edit
    as an edit (its base is the old identity's), and an edit made in EXISTING too as one on both sides. Only
    where a link is a name: an id (the dialect's ``LINK_ID``) is in the file, so the import record could not tell
    the pair's next edit in IN from one on both sides.
    """
    new = pairing.theirs - pairing.mine
    if not new or not base:
        return
    taken = {id(c) for c in pairing.pairs} | {id(c) for _, c, _ in pairing.unsure}
    candidates = [r for r in incoming.records if (k := identity(r)) in new and k not in base and id(r) not in taken
                  and _digest(r) is not None]
    if not candidates:
        return
    held = {id(e) for e in pairing.pairs.values()} | {id(e) for e, _, _ in pairing.unsure}
    mine: dict[str, list[Record]] = {}
    for e in existing.records:
        mine.setdefault(identity(e), []).append(e)
    gone: dict[str, list[str]] = {}  # ``in`` digest → the identities IN had then and has no longer
    for k, at in base.items():
        if k not in pairing.theirs and at.get("in") and len(mine.get(k, ())) == 1 and id(mine[k][0]) not in held:
            gone.setdefault(at["in"], []).append(k)
    claims: dict[str, list[Record]] = {}
    for c in candidates:
        claims.setdefault(_digest(c), []).append(c)
    for digest, cs in sorted(claims.items()):
        olds = gone.get(digest, [])
        if len(cs) != 1 or len(olds) != 1 or mine[olds[0]][0].kind != cs[0].kind:
            continue  # no old name, or more than one record or name making the claim: each stays its own
        pairing.pairs[id(cs[0])] = mine[olds[0]][0]
        pairing.moved[id(cs[0])] = olds[0]
    # Renamed and edited: the records left, by kind and title. Not where a link is an id written in the file
    # (memspec): the pair's file holds EXISTING's id, never IN's copy, so IN's next edit was one on both sides.
    if dialects.declaration(existing.dialect, "LINK_ID") is not None:
        return
    left: dict[tuple[str, str], tuple[list[Record], list[str]]] = {}
    for c in candidates:
        if id(c) not in pairing.pairs and c.title:
            left.setdefault((c.kind, c.title), ([], []))[0].append(c)
    moved = set(pairing.moved.values())
    for ks in gone.values():
        for k in ks:
            if k not in moved and (e := mine[k][0]).title and (e.kind, e.title) in left:
                left[(e.kind, e.title)][1].append(k)
    for _, (cs, olds) in sorted(left.items()):
        if len(cs) == 1 and len(olds) == 1:  # else no old name, or more than one making the claim: each its own
            pairing.pairs[id(cs[0])] = mine[olds[0]][0]
            pairing.moved[id(cs[0])] = olds[0]


def pair_by_carry(existing: Store, incoming: Store, identity, came_from: dict[int, ConvertedFrom]) -> Pairing:
    """Records of the two stores that are one record by their carries (docs/merge.md, "Identity by carry").

    Only records no dialect identity matched are considered. A claim pairs
    when exactly one record of each store makes it, both of one kind (the
    EXISTING record's own carry makes it: memconv wrote it there at an earlier
    import). The EXISTING record must also be as memconv wrote it: one edited
    in its own tool since (its carry's digests say so) is never replaced
    through a carry; both are kept, reported as a conflict.
    """
    dialect = existing.dialect
    mine = {identity(r) for r in existing.records}
    theirs = {identity(r) for r in incoming.records}
    claims: dict[tuple[str, str], tuple[list, list]] = {}
    for side, records, other in ((0, existing.records, theirs), (1, incoming.records, mine)):
        for record in records:
            found = came_from.get(id(record))
            if found is not None and identity(record) not in other:
                claims.setdefault((found.dialect, found.link), ([], []))[side].append(record)
    out = Pairing(mine=mine, theirs=theirs)
    for (home, link), (ours, new) in sorted(claims.items()):
        if len(ours) != 1 or len(new) != 1 or ours[0].kind != new[0].kind:
            continue  # no claim on one side, an ambiguous one, or another kind of record: each stays its own
        e, c = ours[0], new[0]
        if came_from[id(e)].edited:
            out.unsure.append((e, c, f"its carry names the same record ({home} {link}) as an imported one, but it "
                                     f"was edited in {dialect} since memconv wrote it"))
            continue
        out.pairs[id(c)] = e
    return out


def _adopt(incoming: Store, pairs: dict[int, Record]) -> tuple[Store, list[tuple[int, Record]]]:
    """The imported store with each paired record renamed to its EXISTING record's link (and links to it: its
    records', and its index's lines, which the merge keeps as written: left, they linked a file not there).

    Also ``(id of the record read, the record in its place)`` for every record replaced by an edited copy.
    """
    rename = {r.link: pairs[id(r)].link for r in incoming.records if id(r) in pairs and pairs[id(r)].link != r.link}
    records, indexes = list(incoming.records), incoming.indexes
    if rename:
        from ..converters import rename_links

        for i, record in enumerate(records):
            linked = "[[" in (record.body or "") or any(renamed_target(edge.target, rename) for edge in record.edges)
            if record.link in rename or linked:
                record = clone(record)
                record.link = rename.get(record.link, record.link)
                rename_links(record, rename)
                records[i] = record
        relink = dialects.declaration(incoming.dialect, "relinked_index")
        if relink is not None:
            indexes = [relink(idx, rename) or idx for idx in indexes]
    out = Store(dialect=incoming.dialect, records=records, working_set=incoming.working_set,
                indexes=indexes, foreign=incoming.foreign, quarantined=incoming.quarantined,
                migrations=incoming.migrations, warnings=incoming.warnings, meta=incoming.meta)
    out.refused = incoming.refused
    return out, [(id(old), new) for old, new in zip(incoming.records, records) if old is not new]


def _identity(dialect: str):
    if dialect == "memfmt":
        from .memfmt import RULES
        return RULES.identity
    return lambda r: r.link


# --- the import -------------------------------------------------------------------------------

# --- the import record: a three-way base ------------------------------------------------------

#: What each import brought, per IN: the digest of every record's imported file, by identity.
RECORD = ".memconv/imports.json"
_RECORD_NOTE = ("what memconv imported here with --into, per IN, so that a later import tells an edit made in IN "
                "from one made here; deleting it only makes the next import compare dates instead")


def record_path(store: Store) -> str:
    return dialects.kept_folder(store.dialect, store) + RECORD


def source_key(in_path: Path, dialect: str) -> str:
    """Which IN an import came from: its dialect and a digest of its real path (the path itself is not stored)."""
    return f"{dialect}:{short_digest(os.path.realpath(in_path), 16)}"


def _digest(record: Record) -> str | None:
    raw = record.source.raw if record.source is not None else None
    return None if raw is None else short_digest(raw, 32)


#: Per IN, per identity: the digest of the record's file as converted from IN (``in``) and as the import
#: left it in EXISTING (``out``; they differ when the merge kept EXISTING's copy or combined the two).
Bases = dict[str, dict[str, dict[str, str]]]


#: The key of an import record's entry saying (``"in"``) that its ``out`` is IN's copy as the merge completes it
#: from IN's store alone (a memspec chain, a link renamed to EXISTING's name): it holds nothing of EXISTING's.
HOLDS = "holds"


#: The version of the import record this memconv reads and writes (``{"memconv": {"imports": 1}}``).
RECORD_VERSION = 1


def _load_record(existing: Store, warnings: list[str]) -> Bases:
    """The import record EXISTING holds (taken out of its foreign files); {} when none, or when it is not one at
    :data:`RECORD_VERSION`. One of a newer version stops the import: written anew, it would lose what it held."""
    path = record_path(existing)
    found = [f for f in existing.foreign if f.path == path]
    existing.foreign[:] = [f for f in existing.foreign if f.path != path]
    if not found:
        return {}
    try:
        doc = load_json(found[0].raw.decode("utf-8"))
        mark = doc.get("memconv") if isinstance(doc, dict) else None
        version = mark.get("imports") if isinstance(mark, dict) else None
        if type(version) is int and version > RECORD_VERSION:  # (not a bool: true is no version)
            raise StoreError(f"{path}: an import record written by a newer memconv (version {version}); this one "
                             f"reads version {RECORD_VERSION}, and nothing was written",
                             hint="import with that memconv, or take the record out to import comparing dates only")
        if type(version) is not int or version != RECORD_VERSION:
            raise ValueError(version)
        bases = doc["from"]
        check_json(bases, dict[str, dict[str, dict[str, str]]], "the import record")
        if unwritable(bases):  # a lone surrogate cannot be written back, a NUL is no digest (docs/merge.md)
            raise ValueError("text no file holds")
        return bases
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        warnings.append(f"{path}: not an import record memconv reads; it is written anew, and this import "
                        "compares dates only")
        return {}


def _render_record(bases: Bases) -> bytes:
    doc = {"memconv": {"imports": RECORD_VERSION, "note": _RECORD_NOTE},
           "from": {k: dict(sorted(v.items())) for k, v in sorted(bases.items()) if v}}
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


#: Why EXISTING's copy wins where only it changed since the last import: IN's copy brings nothing new.
EDITED_IN_EXISTING = "changed in EXISTING since the last import of IN, not in IN"
#: What a record's line and notice say where IN's copy lost to the one EXISTING holds (report.NOTICE_KINDS).
NOT_TAKEN = "IN's copy not taken, EXISTING's kept as it is"


def _three_way(existing: Store, incoming: Store, ident, base: dict[str, dict[str, str]], digests: dict[int, str],
               origin: dict[int, str]) -> dict[int, str]:
    """Which copy wins whatever the dates: the one that changed since the last import of this IN, the other not.

    The base is IN's copy as last imported (``in``). EXISTING's copy is unchanged only when it is the file the
    import left (``out``) and that file was IN's copy: where the import left EXISTING's own copy, or the two
    combined, it holds what IN never had, so IN's next edit is a change on both sides, for the dialect's rules.
    ``origin``: the identity in IN (the record's key) of an imported record paired under EXISTING's name.
    """
    def unique(records):
        seen: dict[str, list[Record]] = {}
        for r in records:
            seen.setdefault(ident(r), []).append(r)
        return {k: v[0] for k, v in seen.items() if len(v) == 1}

    ours, theirs = unique(existing.records), unique(incoming.records)
    prefer: dict[int, str] = {}
    for key in sorted(set(ours) & set(theirs)):
        e, c = ours[key], theirs[key]
        side = _changed(_digest(e), digests.get(id(c)), base.get(origin.get(id(c), key)))
        if side is not None:
            prefer[id(c) if side == "IN" else id(e)] = _CHANGED[side]
    return prefer


#: Why the one copy that changed since the last import of IN wins, by the side it is on.
_CHANGED = {"IN": "changed in IN since its last import, not in EXISTING", "EXISTING": EDITED_IN_EXISTING}


def _changed(mine: str | None, theirs: str | None, at: dict[str, str] | None) -> str | None:
    """The one side (``IN``, ``EXISTING``) whose copy changed since the last import, by the digests of EXISTING's
    copy and of IN's and the import record's entry ``at``; None where neither or both did, or nothing is known."""
    if at is None:
        return None
    left, brought = at.get("out"), at.get("in")
    e_same, c_same = mine == left, theirs == brought
    if e_same and not c_same and (left == brought or at.get(HOLDS) == "in"):
        return "IN"  # EXISTING holds IN's copy as last imported (as the merge completed it), nothing more
    if c_same and not e_same:
        return "EXISTING"
    return None


def _kept_files(existing: Store, incoming: Store, base: dict[str, dict[str, str]]) -> dict[str, tuple[bytes, str]]:
    """The files no record owns that both hold (a kept note), changed on one side only since the last import of IN:
    path → (that side's bytes, why), for the merge (:attr:`.records.Hints.files`). The import record holds them by
    their path, as it holds records by identity."""
    theirs = {f.path: f.raw for f in incoming.foreign}
    out: dict[str, tuple[bytes, str]] = {}
    for f in existing.foreign:
        other = theirs.get(f.path)
        if other is None or other == f.raw:
            continue
        side = _changed(short_digest(f.raw, 32), short_digest(other, 32), base.get(f.path))
        if side is not None:
            out[f.path] = (other if side == "IN" else f.raw, _CHANGED[side])
    return out


def _left(files: dict[str, bytes], existing: Store, incoming: Store, identity, digests: dict[int, str],
          target: str) -> dict[str, str]:
    """identity → the digest of the file the import leaves for it in EXISTING.

    A file that is an input's file as it was is known by its bytes; the few the merge rewrote
    (combined, renamed, re-rendered among other records) are read back by the target's reader.
    """
    known: dict[str, str] = {}
    for records, digest in ((existing.records, _digest), (incoming.records, lambda r: digests.get(id(r)))):
        for r in records:
            d = digest(r)
            if d is not None:
                known.setdefault(d, identity(r))
    out: dict[str, str] = {}
    rest: dict[str, bytes] = {}
    for path, data in files.items():
        d = short_digest(data, 32)
        if d in known:
            out.setdefault(known[d], d)
        elif not path.startswith((QUARANTINE_DIR + "/", ".memconv/")) and "/.memconv/" not in path:
            rest[path] = data
    if rest:
        with fs.scratch_folder("into") as tmp:
            fs.write_files(tmp, rest)
            try:
                back = pipeline.read(tmp, target, held=True)
            except MemconvError:
                back = Store(dialect=target)
        for r in back.records:
            d = _digest(r)
            if d is not None:
                out.setdefault(identity(r), d)
    return out


def plan(in_store: Store, target: str, existing_path: Path, report: Report, *, lossy: bool = False,
         date: str | None = None, in_path: Path | None = None) -> Import:
    """What importing ``in_store`` (read from ``in_path``) into the ``target`` store at ``existing_path`` gives.

    Writes nothing there.
    """
    converted = pipeline.plan(in_store, target, report, lossy=lossy, date=date)
    existing = pipeline.read_to_merge(existing_path, target)  # its layouts left on disk, as a merge reads
    notes: list[str] = []
    bases = _load_record(existing, notes)
    key = source_key(in_path, in_store.dialect) if in_path is not None else f"{in_store.dialect}:"
    kept_in = {p: b for p, b in converted.files.items() if dialects.in_quarantine(p)}
    incoming = imported({p: b for p, b in converted.files.items() if p not in kept_in}, target, existing)
    if any(f.path == record_path(existing) for f in incoming.foreign):
        # Only EXISTING's own record says what was imported into it: IN's is input like any file.
        incoming.foreign[:] = [f for f in incoming.foreign if f.path != record_path(existing)]
        notes.append(f"IN holds an import record of its own ({record_path(existing)}); it is not used, and not "
                     "imported")
    identity = _identity(target)
    came_from = _converted_from_all(existing, incoming, identity, target)
    pairing = pair_by_carry(existing, incoming, identity, came_from)
    pair_renamed(existing, incoming, identity, bases.get(key, {}), pairing)
    pair_moved(existing, incoming, identity, bases.get(key, {}), pairing)
    origin = dict(pairing.renamed)  # id(imported record) → its identity in IN, where it is paired under another
    origin.update((i, identity(r)) for r in incoming.records if (i := id(r)) in pairing.moved)
    # id(imported record) → where the import record holds its base: IN's name, or IN's old name (renamed in IN)
    at_base = {**pairing.renamed, **pairing.moved}
    digests = {id(r): d for r in incoming.records if (d := _digest(r)) is not None}
    hints = Hints()
    if target == "memfmt":
        # memfmt names a record by its title: the pair shares EXISTING's identity, the winner keeps its own name.
        hints.same = {c_id: identity(e) for c_id, e in pairing.pairs.items()}
    else:
        incoming, renamed = _adopt(incoming, pairing.pairs)
        for old, new in renamed:
            if old in came_from:
                came_from[id(new)] = came_from[old]
            if old in digests:
                digests[id(new)] = digests[old]
            if old in origin:
                origin[id(new)] = origin[old]
            if old in at_base:
                at_base[id(new)] = at_base[old]
    hints.dates = {i: o.dates for i, o in came_from.items() if o.dates}

    def ident(record: Record) -> str:
        return hints.same.get(id(record)) or identity(record)

    hints.prefer = _three_way(existing, incoming, ident, bases.get(key, {}), digests, at_base)
    hints.files = _kept_files(existing, incoming, bases.get(key, {}))
    result = merge(existing, incoming, hints=hints)
    outcomes = _relabel(result.outcomes, pairing, result, identity)
    files = dict(result.files)
    # The record, per identity IN still has: kept as it was while IN's copy has not changed (so an import
    # that changes nothing writes nothing), else what this import brought and left.
    left = _left(files, existing, incoming, identity, digests, target)
    before, now = bases.get(key, {}), {}
    # A record this import left in conflict is recorded with IN's copy and no copy agreed (``out`` empty): recorded as
    # agreed, EXISTING's copy (left in place, IN's beside it) was taken for unchanged by the next import, which
    # replaced it with IN's next edit, exit 0, nothing said. Now the next import of the same IN keeps EXISTING's,
    # and one of IN edited again is a conflict again (docs/merge.md, "A conflict stays one").
    conflicted = {o.identity for o in outcomes if o.status == "conflict"}
    completed: dict[str, str] = {}  # the import record's key → identity, of a new entry whose ``out`` is not ``in``
    for r in incoming.records:
        k, d = identity(r), digests.get(id(r))
        if d is None:
            continue
        at = origin.get(id(r), k)  # a record renamed in EXISTING is IN's under IN's name
        if k in conflicted or ident(r) in conflicted:
            now[at] = {"in": d, "out": ""}
        elif at in before and before[at].get("in") == d and (at == k or before[at].get("out") == left.get(k)):
            now[at] = before[at]
        elif k in left:
            now[at] = {"in": d, "out": left[k]}
            if left[k] != d:
                completed[at] = k
    if completed:  # a file left that is what IN's store alone gives holds nothing of EXISTING's (_changed)
        alone = _left(dict(merge(incoming, incoming).files), incoming, incoming, identity, digests, target)
        for at, k in completed.items():
            if alone.get(k) == left[k]:
                now[at][HOLDS] = "in"
    suffix = _kept_suffix(existing)
    for f in incoming.foreign:  # a file no record owns (a kept note), by its path, by the same rules
        d, written = short_digest(f.raw, 32), files.get(fs.kept_name(f.path, suffix))
        if f.path in conflicted:
            now[f.path] = {"in": d, "out": ""}
        elif f.path in before and before[f.path].get("in") == d:
            now[f.path] = before[f.path]
        elif written is not None:
            now[f.path] = {"in": d, "out": short_digest(written, 32)}
    bases[key] = now
    files[record_path(existing)] = _render_record(bases)
    # EXISTING's own quarantined files stay where they are (not read, so kept by the swap): the copies the merge
    # made of them are dropped where it put them (side A's ``kept_at``). This spelled that place again, and so
    # dropped the file EXISTING carries at ``.memconv/quarantine/<path>`` (read, so the swap left it out).
    for q in result.quarantined:
        if q["side"] == "A" and q["kept_at"] is not None:
            files.pop(q["kept_at"], None)
    with fs.noting_refusals(existing_path):  # EXISTING's listing, confined to EXISTING (not to IN)
        on_disk = set(list_files(existing_path))
        for path, data in sorted(kept_in.items()):  # IN's quarantined originals, beside EXISTING's
            at = _free(path, data, files, on_disk, existing_path, suffix)
            for q in report.quarantined:  # (the report named the place EXISTING's own copy holds)
                if q["kept_at"] == path:
                    q["kept_at"] = at
            if at is not None:
                files[at] = data
        read = _read_paths(existing, on_disk) | ({record_path(existing)} & on_disk)
        held = _held(existing, existing_path)
        folders: dict[str, str | None] = {}
        for path in files:
            link = _link_on_the_way(existing_path, path, folders)
            if link is not None and (link != path or path in on_disk and held(path) != files[path]):
                # The swap keeps EXISTING's links as links: a file written there would be lost (docs/merge.md).
                raise MemconvError(f"{fs.display(str(existing_path / link))}: the import would write "
                                   f"{fs.display(path)} where EXISTING has a symbolic link",
                                   hint="replace the link with what it names, or move it away, then run again; "
                                        "nothing was changed")
            if path in read:
                continue
            if path in on_disk and fs.read_bytes(existing_path, path) == files[path]:
                continue  # the same bytes (memspec's empty archive/.gitkeep): no replacement
            if path in on_disk or os.path.lexists(existing_path / path):
                # A file (or link, or anything) of EXISTING its reader did not take in: the swap keeps it.
                raise MemconvError(f"{fs.display(str(existing_path / path))}: the import would replace a file the "
                                   f"{target} reader did not read",
                                   hint="move that file away, then run again; nothing was changed")
        for o in outcomes:  # EXISTING's copy won and is what EXISTING holds: nothing changes there
            # An item of session.json (where "session.json current.goals") shares that file with every other: it is
            # left as it is where EXISTING (side A) holds what the merge kept of it, in its list, whichever rule
            # chose (a tombstone EXISTING already held "won" over IN's live copy), even where another item changed.
            path = o.where.partition(" ")[0] if o.kind == "session" else o.where
            if o.status == "updated" and path in on_disk and ("A" in o.held_by or (
                    o.won == "EXISTING" or o.kind == "session") and files.get(path) == held(path)):
                o.status, o.won = "unchanged", None
                rule = f" ({o.why})" if o.why else ""
                if o.why and (SAME_CONTENT in o.why or APPENDED in o.why):  # IN's copy says no more than EXISTING's
                    o.why = "EXISTING already holds it" + rule
                    continue
                o.why = NOT_TAKEN + rule  # the record is unchanged in EXISTING: IN's different copy is not in it
                # An edit of IN left out: said without -v too. A session item has no import record to tell an edit
                # from a copy unchanged since the last import (a stale last_seen): its line says it, under -v.
                if EDITED_IN_EXISTING not in o.why and o.kind != "session":
                    notes.append(f"{o.where}: {o.why}")
        changes = bool(read - set(files)) or any(p not in on_disk or held(p) != b
                                                 for p, b in files.items())
    said = {f"{side}: ": f"{words}: " for side, words in IMPORT_SIDES.items()}
    warnings = [said[w[:3]] + w[3:] if w[:3] in said else w for w in result.warnings]
    return Import(files, read, changes, read | (set(files) & on_disk), result, existing, outcomes,
                  notes + warnings)


def _held(store: Store, root: Path):
    """``path → bytes`` of EXISTING: what its reader already read, else read from disk (each file read once)."""
    suffix = _kept_suffix(store)
    known: dict[str, bytes] = {fs.kept_name(f.path, suffix): f.raw for f in store.foreign}
    known.update((r.source.path, r.source.raw) for r in store.records
                 if r.source is not None and r.source.has_raw)
    known.update((i.source.path, i.source.raw) for i in store.indexes
                 if i.source is not None and i.source.path and i.source.has_raw)
    ws = store.working_set
    if ws is not None and ws.source is not None and ws.source.has_raw:
        known[ws.source.path] = ws.source.raw

    def held(path: str) -> bytes:
        found = known.get(path)
        return found if found is not None else fs.read_bytes(root, path)
    return held


def _link_on_the_way(root: Path, path: str, folders: dict[str, str | None]) -> str | None:
    """The symbolic link of EXISTING at ``path`` or at a folder above it (the first one from the top), or None.
    ``folders``: what was found for each folder above a path asked before, so that a folder of many files is asked
    of once, not once a file."""
    folder = path.rpartition("/")[0]
    if folder:
        if folder not in folders:
            folders[folder] = _link_on_the_way(root, folder, folders)
        if folders[folder] is not None:
            return folders[folder]
    return path if os.path.islink(root / path) else None


def _free(path: str, data: bytes, files: dict[str, bytes], on_disk: set[str], root: Path,
          suffix: str) -> str | None:
    """Where IN's quarantined original, written as ``path``, goes: its own place, or one holding the same bytes, or
    a free one, as written. The one rule, :func:`fs.quarantine_path`, numbers the place (``suffix``: EXISTING's
    ``KEPT_SUFFIX``) and cuts it to fit as written: numbered as written (``x.md-2.kept``), a name near the limit
    passed it and refused the whole import, exit 4."""

    class Differs:  # a place is taken when the file written there holds other bytes
        def __contains__(self, place: object) -> bool:
            at = fs.kept_name(str(place), suffix)
            if at not in files and at not in on_disk:
                return False
            return (files.get(at) if at in files else fs.read_if_safe(root, at)) != data

    head, _, name = fs.kept_path(path, suffix).rpartition("/")
    place = fs.quarantine_path(name, Differs(), head, suffix)
    return fs.kept_name(place, suffix) if place is not None else None


def _kept_suffix(store: Store) -> str:
    """What the name of a .md file memconv keeps gains in EXISTING's dialect (claude: ``.kept``), as on disk."""
    return dialects.declaration(store.dialect, "KEPT_SUFFIX") if store.dialect in dialects.available() else ""


def _read_paths(store: Store, on_disk: set[str]) -> set[str]:
    """The files of EXISTING its reader made part of the store (records, indexes, session, foreign files)."""
    suffix = _kept_suffix(store)
    read = {fs.kept_name(f.path, suffix) for f in store.foreign}  # (as they are named on disk)
    read.update(r.source.path for r in store.records if r.source is not None)
    read.update(i.source.path for i in store.indexes if i.source is not None and i.source.path)
    ws = store.working_set
    if ws is not None and ws.source is not None:
        read.add(ws.source.path)
    return read & on_disk


#: A side named in a rule's words ("hidden inherited from A", "re-added after B's done_at").
_SIDE_WORDS = re.compile(r"\b(from |after )([AB])\b")


def _relabel(outcomes: list[Outcome], pairing: Pairing, result: MergeResult, identity) -> list[Outcome]:
    """Outcomes in the words of an import: from IN / from EXISTING; a record only EXISTING has is unchanged."""
    out: list[Outcome] = []
    unsure = {identity(c): (e, why) for e, c, why in pairing.unsure}
    renamed = {identity(pairing.pairs[c]) for c in pairing.renamed}
    moved = {identity(pairing.pairs[c]) for c in pairing.moved}
    paired = {identity(e) for e in pairing.pairs.values()} - renamed - moved
    for o in outcomes:
        o.won = SIDES.get(o.won, o.won) if o.won else o.won
        o.why = _SIDE_WORDS.sub(lambda m: m[1] + SIDES[m[2]], o.why) if o.why else o.why
        if o.status == "added" and o.won == "EXISTING":
            o.status, o.won, o.why = "unchanged", None, "only in EXISTING" + (f"; {o.why}" if o.why else "")
        if o.identity in paired and o.status != "added":
            o.why = (o.why + "; " if o.why else "") + "the same record by its memconv carry"
        if o.identity in renamed and o.status != "added":
            o.why = (o.why + "; " if o.why else "") + "renamed in EXISTING since the last import of IN"
        if o.identity in moved and o.status != "added":
            o.why = (o.why + "; " if o.why else "") + "renamed in IN since its last import; EXISTING's name kept"
        if o.status == "added" and o.won == "IN" and o.identity in unsure:
            e, why = unsure[o.identity]
            o.status, o.won = "conflict", "EXISTING"
            o.conflict_copy, o.where = o.where, e.source.path if e.source is not None else e.link
            o.identity, o.why = identity(e), f"{why}: both kept, the imported one beside it"
        out.append(o)
    return out


__all__ = ["Import", "SIDES", "confirm_existing", "converted_from", "guard", "pair_by_carry", "pair_moved",
           "pair_renamed", "plan"]
