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
   updated, not duplicated, when it was renamed since in IN;
4. the two stores are merged by Y's merge rules (``merge(EXISTING, imported)``:
   the merge depends on the two copies only, never on their order), and the
   report says "from IN" / "from EXISTING" instead of A / B;
5. the CLI swaps the merged files into EXISTING under its lock, after a
   verified backup, with the one in-place rule ``upgrade --in-place`` uses
   (:func:`memconv.upgrade.backup`, :func:`memconv.upgrade.replace_in_place`).
   Files of EXISTING its reader did not read are kept as they are.

See docs/merge.md ("Importing into an existing store").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .. import dialects, fs, pipeline
from ..errors import MemconvError, UsageError, WrongDialect
from ..fs import QUARANTINE_DIR, list_files
from ..model import Record, Store, clone
from ..report import Report
from . import merge
from .memoir import MergeResult
from .report import Outcome

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
    if not existing.is_dir():
        raise WrongDialect(f"{shown}: no such folder: there is no {target} store to import into",
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
        return store.meta.get("prefix", ".memspec/")
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
        store = pipeline.read(tmp, target)
    old, new = _prefix(store), _prefix(existing)
    if old != new:
        with fs.scratch_folder("into") as tmp:
            fs.write_files(tmp, _reshape(files, old, new))
            store = pipeline.read(tmp, target)
    if target == "memoir":
        store.meta["layout"] = existing.meta.get("layout", "nested")  # entries go where EXISTING keeps them
    return store


# --- identity by carry ------------------------------------------------------------------------

def origin(record: Record, dialect: str) -> tuple[str, str, bool] | None:
    """``(dialect, link, edited)``: where memconv converted this record from, by its carry.

    The carry is read as the converters read it when they bring a record home
    (:func:`memconv.converters.restore`): checked whole, its dialect able to
    hold the record; the link is the one the way home gives (the carried link,
    or the one derived from the record when none was carried). ``edited``: the
    carry's digests show a field was edited in ``dialect`` since memconv wrote
    it. None for a record with no usable carry (a record of ``dialect``'s own).
    """
    from ..converters import _get_carry, restore

    if _get_carry(record) is None:
        return None
    home, conversion = restore(Store(dialect=dialect, records=[record]))
    back = [r for r in home.records if id(r) in conversion.origins]
    if len(back) != 1:
        return None
    found = back[0]
    return conversion.origins[id(found)], found.link, bool(conversion.edited.get(id(found)))


@dataclass
class Pairing:
    #: id(imported record) → the EXISTING record it is (identity by carry).
    pairs: dict[int, Record] = field(default_factory=dict)
    #: (EXISTING record, imported record, why): same origin, but not paired; both kept, reported as a conflict.
    unsure: list[tuple[Record, Record, str]] = field(default_factory=list)


def pair_by_carry(existing: Store, incoming: Store, identity) -> Pairing:
    """Records of the two stores that are one record by their carries (docs/merge.md, "Identity by carry").

    Only records no dialect identity matched are considered. A claim pairs
    when exactly one record of each store makes it, both of one kind, and the
    EXISTING record's own carry makes it too. The EXISTING record must also be
    as memconv wrote it: one edited in its own tool since (its carry's digests
    say so) is never replaced through a carry; both are kept, as a conflict.
    """
    dialect = existing.dialect
    mine = {identity(r) for r in existing.records}
    theirs = {identity(r) for r in incoming.records}
    claims: dict[tuple[str, str], tuple[list, list]] = {}
    for side, records, other in ((0, existing.records, theirs), (1, incoming.records, mine)):
        for record in records:
            if identity(record) in other:
                continue
            found = origin(record, dialect)
            if found is not None:
                claims.setdefault(found[:2], ([], []))[side].append((record, found[2]))
    out = Pairing()
    for (home, link), (ours, new) in sorted(claims.items()):
        if len(ours) != 1 or len(new) != 1:
            continue  # no claim, or an ambiguous one: each record stays its own
        (e, edited), (c, _) = ours[0], new[0]
        if e.kind != c.kind:
            continue
        if edited:
            out.unsure.append((e, c, f"its carry names the same record ({home} {link}) as an imported one, but it "
                                     f"was edited in {dialect} since memconv wrote it"))
            continue
        out.pairs[id(c)] = e
    return out


def _adopt(incoming: Store, pairs: dict[int, Record]) -> Store:
    """The imported store with each paired record renamed to its EXISTING record's link (and links to it)."""
    rename = {}
    records = []
    for record in incoming.records:
        e = pairs.get(id(record))
        if e is not None and e.link != record.link:
            rename[record.link] = e.link
            record = clone(record)
            record.link = e.link
        records.append(record)
    if rename:
        from ..converters import _rename

        for i, record in enumerate(records):
            if "[[" in (record.body or "") or any(edge.target in rename for edge in record.edges):
                record = clone(record)
                _rename(record, rename)
                records[i] = record
    out = Store(dialect=incoming.dialect, records=records, working_set=incoming.working_set,
                indexes=incoming.indexes, foreign=incoming.foreign, quarantined=incoming.quarantined,
                migrations=incoming.migrations, warnings=incoming.warnings, meta=incoming.meta)
    out.refused = incoming.refused
    return out


def _identity(dialect: str):
    if dialect == "memfmt":
        from .memfmt import RULES
        return RULES.identity
    return lambda r: r.link


# --- the import -------------------------------------------------------------------------------

def plan(in_store: Store, target: str, existing_path: Path, report: Report, *, lossy: bool = False,
         date: str | None = None) -> Import:
    """What importing ``in_store`` into the ``target`` store at ``existing_path`` gives. Writes nothing there."""
    converted = pipeline.plan(in_store, target, report, lossy=lossy, date=date)
    existing = pipeline.read(existing_path, target)
    kept_in = {p: b for p, b in converted.files.items() if p.startswith(QUARANTINE_DIR + "/")}
    incoming = imported({p: b for p, b in converted.files.items() if p not in kept_in}, target, existing)
    identity = _identity(target)
    pairing = pair_by_carry(existing, incoming, identity)
    same = None
    if target == "memfmt":
        # memfmt names a record by its title: the pair shares EXISTING's identity, the winner keeps its own name.
        same = {c_id: identity(e) for c_id, e in pairing.pairs.items()}
    else:
        incoming = _adopt(incoming, pairing.pairs)
    result = merge(existing, incoming, same=same)
    outcomes = _relabel(result.outcomes, pairing, result, identity)
    files = dict(result.files)
    # EXISTING's own quarantined files stay where they are (not read, so kept by the swap).
    for q in existing.quarantined:
        files.pop(f"{QUARANTINE_DIR}/{q.path}", None)
    with fs.noting_refusals(existing_path):  # EXISTING's listing, confined to EXISTING (not to IN)
        on_disk = set(list_files(existing_path))
        for path, data in sorted(kept_in.items()):  # IN's quarantined originals, beside EXISTING's
            at = _free(path, data, files, on_disk, existing_path)
            files[at] = data
        read = _read_paths(existing, on_disk)
        for path in files:
            if path in on_disk and path not in read:
                raise MemconvError(f"{fs.display(str(existing_path / path))}: the import would replace a file the "
                                   f"{target} reader did not read",
                                   hint="move that file away, then run again; nothing was changed")
        for o in outcomes:  # EXISTING's copy won and is what EXISTING holds: nothing changes there
            if o.status == "updated" and o.won == "EXISTING" and o.where in on_disk \
                    and files.get(o.where) == fs.read_bytes(existing_path, o.where):
                o.status, o.won, o.why = "unchanged", None, "EXISTING already holds it" + (f" ({o.why})" if o.why else "")
        changes = set(files) != read or any(fs.read_bytes(existing_path, p) != b for p, b in files.items()
                                            if p in on_disk)
    return Import(files, read, changes, result, existing, outcomes, list(result.warnings))


def _free(path: str, data: bytes, files: dict[str, bytes], on_disk: set[str], root: Path) -> str:
    """Where IN's quarantined original goes: its own place, or one holding the same bytes, or a free one."""
    taken = dict.fromkeys(on_disk | set(files), b"")
    n = 1
    head, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    at = path
    while at in taken:
        held = files.get(at) if at in files else fs.read_if_safe(root, at)
        if held == data:
            return at
        n += 1
        at = f"{head}/{stem}-{n}{'.' + ext if ext else ''}"
    return at


def _read_paths(store: Store, on_disk: set[str]) -> set[str]:
    """The files of EXISTING its reader made part of the store (records, indexes, session, foreign files)."""
    read = {f.path for f in store.foreign}
    read.update(r.source.path for r in store.records if r.source is not None)
    read.update(i.source.path for i in store.indexes if i.source is not None and i.source.path)
    ws = store.working_set
    if ws is not None and ws.source is not None:
        read.add(ws.source.path)
    prefix = _prefix(store)
    if store.dialect == "memspec":  # its folder markers and config, which the writer writes again
        read.update(p for p in on_disk if p.startswith(prefix) and (p.endswith("/.keep") or p == prefix + "config.yaml"))
    if store.dialect == "memfmt":
        read.update(p for p in on_disk if p == prefix + "MEMORY.md")
    return read & on_disk


def _relabel(outcomes: list[Outcome], pairing: Pairing, result: MergeResult, identity) -> list[Outcome]:
    """Outcomes in the words of an import: from IN / from EXISTING; a record only EXISTING has is unchanged."""
    out: list[Outcome] = []
    unsure = {identity(c): (e, why) for e, c, why in pairing.unsure}
    paired = {identity(e) for e in pairing.pairs.values()}
    for o in outcomes:
        o.won = SIDES.get(o.won, o.won) if o.won else o.won
        o.why = o.why.replace("A won", "EXISTING won").replace("B won", "IN won") if o.why else o.why
        if o.status == "added" and o.won == "EXISTING":
            o.status, o.won, o.why = "unchanged", None, "only in EXISTING" + (f"; {o.why}" if o.why else "")
        if o.identity in paired and o.status != "added":
            o.why = (o.why + "; " if o.why else "") + "the same record by its memconv carry"
        if o.status == "added" and o.won == "IN" and o.identity in unsure:
            e, why = unsure[o.identity]
            o.status, o.won = "conflict", "EXISTING"
            o.conflict_copy, o.where = o.where, e.source.path if e.source is not None else e.link
            o.identity, o.why = identity(e), f"{why}: both kept, the imported one beside it"
        out.append(o)
    return out


__all__ = ["Import", "SIDES", "confirm_existing", "guard", "origin", "pair_by_carry", "plan"]
