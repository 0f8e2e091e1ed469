"""The memspec dialect: claims and observations under ``.memspec/``, every generation.

A store is either a project folder holding ``.memspec/`` or the ``.memspec``
folder itself; the writer keeps whichever shape it read (a store from another
dialect is written as a project folder holding ``.memspec/``). Records live in
``memory/{facts,decisions,procedures}/``, ``memory/operator/…/``,
``observations/`` (flat, or ``observations/YYYY-MM-DD/`` in older stores) and
``archive/``. ``config.yaml`` and every other file are carried byte for byte;
memspec's caches and logs (``.fts.db*``, ``usage.jsonl``, ``.reconcile.json``,
``dream/``) are not records and are left out, and the report says so.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Iterator
from pathlib import Path

from ...errors import ReadError, StoreError
from ...fs import is_file, is_folder, kept_own, kept_present, list_files, read_bytes, read_if_safe, store_folder
from ...frontmatter import load_yaml
from ...model import ForeignFile, Quarantined, Store
from ...text import replaced
from ...migrations.memspec.fields import ID, ID_TEXT
from .. import Detection, evidence, passed_through, quarantine_folder, rendered_as_named, unportable
from ..protocol import NO_OCCASION, Occasion
from .ulid import derive
from .records import (ALL_DATES, EDGE_KEYS, ISO_Z, NAME, UNDATED, RecordLayout, WriteContext, memspec_id, newest_date,
                      read_record, store_date, write_record, writes_edge)

#: Model kind → the model kind this dialect's writer gives it a native home as; a kind left out is
#: carried whole (memconv.converters.mapping builds its tables and docs/mapping.md from this).
KIND_HOMES = {
    "fact": "fact", "preference": "fact", "decision": "decision", "lesson": "procedure",
    "goal": "fact", "next_action": "observation", "procedure": "procedure", "observation": "observation",
    "entity": "fact", "episode": "observation", "profile": "fact",
}
#: The lifecycle states this dialect says natively; a record in another is kept out of the live set.
LIFECYCLE_STATES = frozenset({"active", "superseded", "retired"})

STORE_DIR = ".memspec"
#: Folders of a ``.memspec`` store that hold records.
RECORD_DIRS = ("memory/", "observations/", "archive/")
#: Files memspec rebuilds or appends to on its own: ``.fts.db``, ``.fts.db-wal``, ``usage.jsonl``.
CACHE = re.compile(r"^(?:\.fts\.db.*|usage\.jsonl|\.reconcile\.json|dream/.*)$")
#: Folders only a memspec store has (the type folders first).
_STORE_SUBDIRS = ("memory/facts", "memory/decisions", "memory/procedures", "memory/operator", "observations", "archive")
#: Folders memspec's own commands write into, which a store always has (``memspec init`` makes them).
KEPT_FOLDERS = ("archive/", "observations/")
#: The empty file that keeps an otherwise empty folder of :data:`KEPT_FOLDERS` in OUT.
KEEP = ".gitkeep"
#: A record file name: ``ms_01HXK7Y3P5QZJKM8N4R2T6W9VB.md``.
RECORD_FILE = re.compile(rf"^{ID_TEXT}\.md$")


_KEEP_FILES = frozenset(folder + KEEP for folder in KEPT_FOLDERS)


def is_keep_file(path: str, data: bytes) -> bool:
    """Whether ``path`` is an empty keep file of ``archive/`` or ``observations/`` (in any store shape)."""
    return not data and any(path == k or path.endswith("/" + k) for k in _KEEP_FILES)


def placeholder(path: str, data: bytes) -> str | None:
    """Why the writer adds ``path`` when it is a keep file (:func:`is_keep_file`), else None."""
    if not is_keep_file(path, data):
        return None
    return (f"it keeps {path[: -len(KEEP)]}, which memspec's own commands write into (supersede and sweep fail "
            "without archive/); memspec's init makes the folder, and git keeps no empty folder")


def _prefix(root: Path) -> str | None:
    """``.memspec/`` for a project folder, ``""`` for the ``.memspec`` folder itself, None otherwise."""
    if is_folder(root, STORE_DIR):
        return STORE_DIR + "/"
    if root.name == STORE_DIR:
        return ""
    if any(is_folder(root, d) for d in _STORE_SUBDIRS) and (
            is_file(root, "config.yaml") or any(is_folder(root, d) for d in _STORE_SUBDIRS[:4])):
        return ""
    return None


def detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None:
    if not root.is_dir():
        return None
    prefix = _prefix(root)
    if prefix is None:
        return None
    seen = seen or evidence.Folder(root)
    files = [p for p in seen.sub(prefix) if p.startswith(RECORD_DIRS) and p.endswith(".md")]
    named = sum(1 for p in files if RECORD_FILE.match(p.rsplit("/", 1)[-1]))
    if prefix == "" and root.name != STORE_DIR and files and not named:
        return None  # a memory/ folder of another tool (memfmt's), not a .memspec store
    legacy = 0
    for path in files[:evidence.SAMPLE]:
        head = seen.raw_head(prefix + path).decode("utf-8", "replace")
        if re.search(r"^(?:confidence|decay_after|corrects|corrected_by):|^state: *(?:captured|corrected|decayed|archived)\b",
                     head, re.M):
            legacy += 1
    # A .memspec folder is memspec's own mark (``memspec init`` makes it, even with no record yet);
    # a folder that merely has memspec-like subfolders is less sure.
    own = prefix == STORE_DIR + "/" or root.name == STORE_DIR
    confidence = (0.8 if own else 0.6) + ((1.0 - (0.8 if own else 0.6)) * named / len(files) if files else 0.0)
    version = "v0.2" if legacy == len(files) and files else "mixed" if legacy else "current"
    where = prefix or "./"
    evidence_text = f"{where} with {len(files)} record file(s) ({named} named ms_<ULID>.md)"
    hint = None
    if legacy:
        hint = f"{legacy} record(s) use pre-0.3 fields; `memconv migrate` brings them to the current generation"
    return Detection(NAME, version, min(confidence, 1.0), evidence_text, hint, where=where)


def _operators(config: bytes | None) -> tuple[str, ...]:
    """Operator source names a ``config.yaml`` declares (``operators: [ana]`` or ``operator: ana``)."""
    if not config:
        return ()
    try:
        doc = load_yaml(config.decode("utf-8"))
    except Exception:  # a config that does not parse is carried, not interpreted
        return ()
    if not isinstance(doc, dict):
        return ()
    names = doc.get("operators", doc.get("operator"))
    if isinstance(names, str):
        return (names,)
    if isinstance(names, list):
        return tuple(n for n in names if isinstance(n, str))
    return ()


def read(root: Path) -> Store:
    """Read a memspec store. Files that cannot be read are quarantined, never guessed at."""
    store, records = iter_read(root)
    store.records.extend(records)
    return store


def iter_read(root: Path) -> tuple[Store, Iterator[Record]]:
    """:func:`read`, one record at a time: the store without its records, and its records as they are read.

    ``config.yaml`` (its operators, which place and read a record) is read now and IN listed; each
    record file is read when the iterator reaches it. The store is whole (foreign and quarantined
    files, warnings, ladder notes) once the records have been read to the end; what is left out
    (memspec's caches) is known from the listing, now. A record file is read alone, so a run that
    lets each record go once it is written holds one at a time (``memconv migrate``, ``check``).
    """
    store_folder(root, hint="give the path of a project holding .memspec/")
    prefix = _prefix(root)
    if prefix is None:
        raise StoreError(f"{root}: no .memspec folder here", hint="give the project folder or its .memspec folder")
    store = Store(dialect=NAME, meta={"prefix": prefix})
    operators = _operators(read_if_safe(root, f"{prefix}config.yaml"))
    if operators:
        store.meta["operators"] = operators
    # Only .memspec/ is the store: the project around it (its code, its node_modules) is not
    # memory, is never read, and is never copied into OUT.
    rels = list_files(root / prefix if prefix else root)
    left_out = [prefix + rel for rel in rels if CACHE.match(rel)]
    if left_out:
        #: for tools that compare a round trip (``check``): these were left out on purpose
        store.meta["left_out"] = left_out
    return store, _records(root, prefix, rels, operators, store)


def _records(root: Path, prefix: str, rels: list[str], operators: tuple[str, ...], store: Store) -> Iterator[Record]:
    # An empty keep file holds a folder, no memory: never a file of the store. Alone in its folder it is the
    # writer's (it writes one exactly there); beside records (memspec's supersede, sweep and observe write beside
    # the one memconv wrote) it is remembered, so that the memspec writer puts it back, and carried nowhere else.
    alone = {k for k in _KEEP_FILES if not any(r.startswith(k[: -len(KEEP)]) and r != k for r in rels)}
    seen: dict[str, str] = {}
    present = kept_present(rels, KEPT_SUFFIX, prefix)
    for rel in rels:
        if CACHE.match(rel):
            continue
        path = prefix + rel
        raw = read_bytes(root, path)
        if rel in _KEEP_FILES and not raw:
            if rel not in alone:
                store.meta.setdefault("kept", []).append(rel)
            continue  # holds archive/ or observations/: the writer makes it again
        if (why := unportable(path)) is not None:
            store.quarantined.append(Quarantined(path=path, raw=raw, reason=why))
            continue
        if not (rel.startswith(RECORD_DIRS) and rel.endswith(".md")):
            # config.yaml, .gitignore, notes: carried byte for byte (memspec reads only its record folders); a .md
            # file memconv kept (.memconv/files/, .memconv/quarantine/) under its own name again (KEPT_SUFFIX)
            store.foreign.append(ForeignFile(kept_own(path, present, KEPT_SUFFIX), raw))
            continue
        try:
            record, notes = read_record(raw, path, prefix, operators)
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))
            continue
        store.migrations.extend(notes)
        _warn(store, record, path, rel, seen)
        yield record
    left_out = store.meta.get("left_out")
    if left_out:
        store.warnings.append("left out (memspec caches and logs, rebuilt by memspec, not records): "
                              + ", ".join(left_out))


def read_file(path: str, raw: bytes, meta: dict):
    """One file as :func:`read` reads it, with no folder: its record, or None when ``path`` holds none.

    ``meta`` is the store's facts (``prefix``, ``operators``; without a prefix, the path says
    it). Raises ``ReadError`` where :func:`read` quarantines.
    """
    prefix = meta.get("prefix")
    if prefix is None:
        prefix = STORE_DIR + "/" if path.startswith(STORE_DIR + "/") else ""
    rel = path[len(prefix):]
    if not path.startswith(prefix) or CACHE.match(rel) or not (rel.startswith(RECORD_DIRS) and rel.endswith(".md")):
        return None
    return read_record(raw, path, prefix, tuple(meta.get("operators", ())))[0]


def _warn(store: Store, record, path: str, rel: str, seen: dict[str, str]) -> None:
    stem = rel.rsplit("/", 1)[-1][:-3]
    if stem != record.link:
        store.warnings.append(f"{path}: file name does not match its id {record.link}; kept where it is")
    if record.link in seen:
        store.warnings.append(f"{path}: same id as {seen[record.link]}; memspec keeps only one of them "
                              "(the operator-tier one, else the first)")
    else:
        seen[record.link] = path
    fm = record.source.layout.frontmatter
    for key in ("valid_from", "valid_to"):
        value = getattr(record, key)
        if value is None:
            continue  # nothing to say, so the block is not cut into its keys
        lines = [line for c in fm.chunks or () if c.key == key for line in c.lines]
        unquoted = bool(lines) and not re.match(rf"^{key}:\s*['\"]", lines[0])
        if unquoted or not ISO_Z.match(value):
            store.warnings.append(f"{path}: {key} {value!r} is {'unquoted' if unquoted else 'not an ISO date-time ending in Z'}; "
                                  "memspec 0.7.2 rejects it (quote it as 'YYYY-MM-DDTHH:MM:SS.sssZ'); kept as written")
    for key, value in (("check_by", record.check_by), ("created", record.created), ("source", record.source_text)):
        if value is None:
            store.warnings.append(f"{path}: no usable {key}; memspec skips this record until one is added "
                                  "(memconv does not invent it)")


def write(store: Store, context: Occasion | None = None) -> dict[str, bytes]:
    """The files of ``store`` as a memspec store: relative path → bytes (``context``: :func:`iter_write`)."""
    return dict(iter_write(store, context=context))


def iter_write(store: Store, render=None, context: Occasion | None = None) -> Iterator[tuple[str, bytes]]:
    """The files of ``store`` one at a time, as they are rendered: (relative path, bytes), each path once.

    ``render`` maps a function over the records in order (``--jobs``); by default one by one, here.
    Each record is rendered on its own (the store-wide ids and date are worked out first); what
    depends on the records before it (two claiming one id, the undated ones) is settled here, in order.
    ``context`` (a :class:`~memconv.dialects.protocol.Occasion`) gives the ``created`` of a record with
    no date of its own (else the newest date in the store) and hears the warnings (else ``store.warnings``).
    """
    context = context or NO_OCCASION
    ids: dict[str, str] = {}
    for record in store.records:
        ids.setdefault(record.link, memspec_id(record))
    ctx = _context(store, ids, context.date or store_date(store.records))
    rendered = zip(store.records, (render or map)(_Render(ctx), store.records))
    yield from _stream(store, ctx, rendered, context.teller(store), given=context.date is not None)


def write_each(store: Store, records: Iterator[Record], context: Occasion | None = None, render=None,
               facts: tuple[dict[str, str], str] | None = None) -> Iterator[tuple[str, bytes]]:
    """:func:`iter_write` for records given one at a time (:func:`iter_read`'s, or a conversion's with the
    ``facts`` :func:`each_facts` gathered of every record: :data:`WRITES_EACH_CONVERTED`): each is rendered
    and let go before the next is asked for; ``store`` holds the rest (its foreign files, its prefix and
    operators). ``render`` maps the records to their files as they come, as :func:`iter_write`'s does.

    With ``facts`` (the store-wide ids, the store's date) the files are :func:`iter_write`'s of the same
    records, which works them out at its call.

    The same files in the same order as :func:`iter_write` of the whole store. A record read from
    memspec is named by its id, so the store-wide ids are its own (a record named otherwise is
    refused). The store's newest date is known only at the end: a record given it (one with no date
    of its own, written under an id of its own because another claims its id) is rendered again then,
    and it and every file after it are held until then (a rare store; the bytes are the same).
    """
    context = context or NO_OCCASION
    if facts is not None:
        yield from _each_given(store, records, context, render, facts)
        return
    ctx = _context(store, {}, context.date)
    newest: list = [None]
    one = _Render(ctx)

    def rendered() -> Iterator[tuple[Record, tuple[str, bytes, list[str]]]]:
        for record in records:
            if not ID.match(record.link):
                raise StoreError(f"record {record.link!r} is not named by a memspec id; write_each takes "
                                 "records read from memspec", hint="write the whole store with iter_write")
            if context.date is None:
                newest[0] = newest_date(record, newest[0])
            yield record, one(record)

    yield from _stream(store, ctx, rendered(), context.teller(store), given=context.date is not None,
                       dated=None if context.date is not None else lambda: store_date((), newest[0]))


def _each_given(store: Store, records: Iterator[Record], context: Occasion, render,
                facts: tuple[dict[str, str], str]) -> Iterator[tuple[str, bytes]]:
    """:func:`write_each` of a conversion's records, told what :func:`iter_write` works out of them at its call."""
    ids, date = facts
    ctx = _context(store, ids, context.date or date)
    rendered = rendered_as_named(records, lambda record: record, render, _Render(ctx))
    yield from _stream(store, ctx, rendered, context.teller(store), given=context.date is not None)


def each_facts() -> tuple[Callable[[Record], None], Callable[[], tuple[dict[str, str], str]]]:
    """(add, facts): what :func:`iter_write` works out of every record at its call (the ids, the date of the
    undated), gathered by ``add(record)`` of each, in order, for :func:`write_each`'s ``facts``: the names and a
    date, not the records (protocol.OPTIONAL)."""
    ids: dict[str, str] = {}
    newest: list = [None]

    def add(record: Record) -> None:
        ids.setdefault(record.link, memspec_id(record))
        newest[0] = newest_date(record, newest[0])

    return add, lambda: (ids, store_date((), newest[0]))


def kept_root(store: Store) -> str:
    """The folder of OUT a ``store`` is written in (``.memspec/``, or ``""`` for a store read at that folder
    itself): its reader reads only that, so memconv keeps what it sets aside there too."""
    return store.meta.get("prefix", STORE_DIR + "/")


def _context(store: Store, ids: dict[str, str], date: str | None) -> WriteContext:
    return WriteContext(ids=ids, prefix=kept_root(store),
                        operators=tuple(store.meta.get("operators", ())), date=date, undated=[])


def _stream(store: Store, ctx: WriteContext, rendered, say, given: bool, dated=None) -> Iterator[tuple[str, bytes]]:
    """The files of the records ``rendered`` ((record, (path, bytes, undated)) in order), then the rest.

    ``dated``: the store's date is not known yet and this gives it once the records are all rendered;
    a file given the date is rendered again then, and it and the files after it are held till then.
    """
    files: set[str] = set()
    renamed: list[str] = []  # said once the records are written: after the reader's warnings, as in a whole run
    held: list[tuple[str, bytes, Record | None]] = []
    for record, (path, data, undated) in rendered:
        before = len(ctx.undated)
        ctx.undated.extend(undated)
        n = 1
        written = record
        while path in files:
            # Two records claim one id (a carry in IN may say anything): the first keeps it, the
            # other is written under an id of its own, and the report says so. Never one over the other.
            n += 1
            written = dataclasses.replace(record, link=derive(record.created, f"{record.link}#{n}"), source=None)
            path, data = write_record(written, ctx)
            if path not in files:
                renamed.append(f"{record.link}: two records claim this memspec id; the second is written as "
                               f"{written.link} ({path})")
        files.add(path)
        if dated is not None and (held or len(ctx.undated) > before):
            held.append((path, data, written if len(ctx.undated) > before else None))
            continue
        yield path, data
    if dated is not None:
        ctx.date = dated()
        again = dataclasses.replace(ctx, undated=None)
        for path, data, record in held:
            if record is not None:
                path, data = write_record(record, again)  # the same path: a date places no record
            yield path, data
    for warning in renamed:
        say(warning)
    prefix = ctx.prefix
    yield from passed_through(store, files, KEPT_SUFFIX, quarantine=quarantine_folder(NAME, store))
    for folder in KEPT_FOLDERS:
        # memspec's supersede and sweep write into archive/ and fail if it is missing; an
        # empty folder is no file, so an empty KEEP file holds it (memspec reads only *.md).
        if not any(p.startswith(prefix + folder) for p in files) or folder + KEEP in store.meta.get("kept", ()):
            files.add(prefix + folder + KEEP)
            yield prefix + folder + KEEP, b""
    if ctx.undated:
        whence = ("the date given" if given else "the newest date in the store" if ctx.date != UNDATED else
                  "a placeholder, since the store holds no date at all")
        say(f"{len(ctx.undated)} record(s) have no date of their own (created, happened, date, set_on, "
            f"added, updated): memspec requires one, so created is {ctx.date}, {whence}: "
            + ", ".join(ctx.ids.get(link, link) for link in ctx.undated))


class _Render:
    """One record's (path, bytes, whether it was given the store's date): picklable, for ``--jobs``."""

    def __init__(self, ctx: WriteContext):
        # One context for every record, its own list of the undated: a copy per record cost more
        # than the rest of the call (dataclasses.replace runs __init__).
        self.ctx = dataclasses.replace(ctx, undated=[])

    def __call__(self, record: Record) -> tuple[str, bytes, list[str]]:
        undated = self.ctx.undated
        try:
            path, data = write_record(record, self.ctx)
            return path, data, undated[:]
        finally:
            undated.clear()


__all__ = ["NAME", "detect", "read", "iter_read", "read_file", "write", "iter_write", "write_each", "is_keep_file",
           "placeholder", "RecordLayout"]


# --- what this dialect declares for the mapping and the edge modules (docs/plugins.md) ---

#: Its concepts, rows of docs/mapping.md: (name, the model kind it reads as or None, meaning[, store-level topic]).
CONCEPTS = (
    ("fact claim", "fact", "inform"),
    ("decision claim", "decision", "prevent relitigation"),
    ("procedure claim", "procedure", "change behaviour"),
    ("observation", "observation", "remember what happened"),
    ("lifecycle (superseded, retired)", None, "keep out of the live set", "lifecycle"),
    ("anchors, probes, validity, check_by, scope, ext, edges", None, "witness and time", "witness"),
)
#: How it holds the store-level concepts of any dialect, in words (its column of docs/mapping.md).
HOLDS = {
    "working set": "a fact claim \"Working set\" rendering every list; the exact JSON in a note",
    "kept whole": "a fact claim (`user`: fact, `feedback`: procedure); its frontmatter carried",
    "index": "each inline bullet a fact claim, its own words one more; the index itself in a note",
    "lifecycle": "native: `state`, `archive/`",
    "witness": "native",
    "relations": "relations → edges where the verb is one of memspec's six; the rest carried",
}
#: The edge types its records say: its six.
EDGE_TYPES = frozenset(EDGE_KEYS)
#: Its records show a title, a body and their tags, whatever their kind.
DEFAULT_TEXT_FIELDS = frozenset({"title", "body", "tags", "source_text"})  # every claim says its ``source``
#: memspec reads only ``.memspec/``: memconv's notes folder goes inside it.
NOTES_ROOT = ".memspec/"
#: memspec's ``migrate --apply`` walks every ``.md`` file under ``.memspec/``, hidden folders too, and moved a record
#: memconv quarantined (a bad id, an unknown state) from ``.memconv/quarantine/`` into the live store: a ``.md`` file
#: memconv keeps as IN had it is written ``<name>.md.kept`` (``fs.kept_name``), and read under its own name again.
KEPT_SUFFIX = ".kept"


# --- what this dialect declares for the converter core (docs/plugins.md) ---

from ...migrations.memspec import LADDER, SOURCE_KINDS, VERIFIED_WITH  # noqa: E402
from ...migrations.memspec.fields import ID as _ID  # noqa: E402
from ...model import Record  # noqa: E402
from ..protocol import CarrySlot  # noqa: E402
from . import jsyaml  # noqa: E402

VERSIONS = ("memspec v0.1/v0.2, v0.3/v0.4 and current (0.7.2) .memspec/ folders", "memspec current (0.7.2)")
LADDERS = (LADDER,)
#: The record's ``ext`` mapping, key ``memconv`` (memspec keeps ``ext`` through its own rewrites).
CARRY_SLOT = CarrySlot("ext", words="`ext`")
#: ``scope`` is newer than memspec 0.7.2, which does not know it: from another dialect it rides with
#: the unknown keys (under ``ext.memconv.fields``, which memspec keeps), and the reader gives it back.
RIDES_AS_UNKNOWN = ("scope",)
#: A record's unknown keys ride under ``ext.memconv.fields``, which its tools (``status``, ``search``) neither show
#: nor search: their text is written into the body too (``readable.show``).
UNKNOWN_KEYS_HIDDEN = True
#: What ``memspec verify`` and ``memspec sweep`` add to a record, which other dialects have no word for.
WITNESS_FIELDS = ("last_verified", "verified_with", "stale", "ext")
#: ``memspec verify`` sets the next review too.
WITNESS_EDITS = ("check_by",)
#: memspec holds its tools' fields itself, and its anchors (`memspec anchor`): a record home here carries none of
#: them, and anchors a record brings home elsewhere go into its body (readable.fold_in_anchors).
NATIVE_FIELDS = frozenset(WITNESS_FIELDS + WITNESS_EDITS + ("anchors",))
#: A memspec link is an id (``ms_`` + ULID), not a name.
LINK_ID = _ID
#: A record's title is its body's ``# `` line: one line (memspec's loader reads the first line as the title).
ONE_LINE_FIELDS = frozenset({"title"})
#: Its writer asks a record's layout only to render it anew: a merge reads the store without them
#: (docs/merge.md, "Memory").
LAYOUT_ONLY_TO_RENDER = True
#: The store's folder, and no operators, unless its config says otherwise.
STORE_FACTS = {"prefix": STORE_DIR + "/", "operators": ()}
#: ``prefix`` names the folder the store is in.
FOLDER_FACTS = ("prefix",)
#: Its reader quarantines a record with any other (a newer memspec's, or a mistake): a carry may not bring one.
FIELD_VALUES = {"source_kind": SOURCE_KINDS, "verified_with": VERIFIED_WITH}


def takes_link(link: str) -> bool:
    """A memspec record's link is its id, which its reader requires (``ms_`` + ULID)."""
    return _ID.fullmatch(link) is not None


#: A carry line as memspec's writer puts it: the ``memconv`` key of ``ext`` (or ``carry:`` under it, beside
#: ``fields``), indented by its depth, holding one plain scalar.
_CARRY_LINE = re.compile(rb"( *)(?:memconv|carry): ")


def splice(rendered: tuple[str, bytes, list[str]], marker: str, carry: str | None
           ) -> tuple[str, bytes, list[str]] | None:
    """What :func:`iter_write`'s render gives for a record wearing the carry ``carry`` (a string, in its ``ext``),
    from what it gave for the same record wearing the string ``marker`` there instead; None when the file does
    not show where (the writer then renders the record again).

    Every other byte of the file is the same both ways: the carry is one scalar at the end of ``ext``, written
    at its depth by the same emitter (docs/performance.md, "the splice"). The marker must stand once in the
    file, alone on a carry line, written as the emitter writes it at that depth. A record that wears no carry
    (``carry`` None) is rendered again.
    """
    if carry is None:
        return None
    path, data, undated = rendered
    written = jsyaml.scalar(marker, 2)
    needle = b": " + written.encode("utf-8") + b"\n"
    at = data.find(needle)
    if at < 0 or data.find(needle, at + 1) >= 0:
        return None
    start = data.rfind(b"\n", 0, at) + 1
    line = _CARRY_LINE.fullmatch(data, start, at + 2)
    if line is None:
        return None
    level = len(line.group(1)) // jsyaml.INDENT + 1  # a key's value is one level deeper than the key
    if jsyaml.scalar(marker, level) != written:
        return None
    value = jsyaml.scalar(carry, level)
    if value[-1:].isspace():
        return None  # a block scalar's last line: the frontmatter's dump is trimmed (jsyaml.dump), this is not
    return path, replaced(data, at + 2, at + len(needle) - 1, value.encode("utf-8")), undated


#: What :func:`iter_write` reads of a record whose rendering its ``render`` gives (the splice's): the link and
#: ``created`` for the store-wide ids, and every date for the date of the undated. Any other field is read only
#: to render a record, which the spliced are not (not even when two claim one id: the later is rendered
#: again then, so a conversion keeps whole a record that was the later one in the read-back).
SPLICED_READS = ("link", "created") + tuple(a for a in ALL_DATES if a != "created") + ("evolution",)
#: Its write_each takes a conversion's records, told the ids and the date :func:`each_facts` gathers of them
#: (protocol.OPTIONAL).
WRITES_EACH_CONVERTED = True


def native_link(record: Record, kind: str) -> str:
    """The id memspec's writer derives for a record from another dialect (created + identity): stable."""
    return memspec_id(record)


__all__ += ["WRITES_EACH_CONVERTED", "each_facts"]
__all__ += ["splice", "SPLICED_READS", "KIND_HOMES", "LIFECYCLE_STATES", "VERSIONS", "LADDERS", "CARRY_SLOT", "RIDES_AS_UNKNOWN", "WITNESS_FIELDS",
            "UNKNOWN_KEYS_HIDDEN", "WITNESS_EDITS", "NATIVE_FIELDS", "LINK_ID", "STORE_FACTS", "FOLDER_FACTS", "native_link",
            "ONE_LINE_FIELDS", "FIELD_VALUES", "takes_link", "writes_edge", "LAYOUT_ONLY_TO_RENDER", "kept_root"]
