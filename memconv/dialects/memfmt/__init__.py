"""The memfmt dialect: an agent's memory as ``memory/`` Markdown files (memfmt 0.5).

A store is a ``memory/`` folder, or the folder holding one; either shape is
written back as it was found. A Markdown file is memfmt's only when its
frontmatter says so (``memfmt_type``, or the older ``mengram_type``); every
other file is someone's own — a vault note, an image — and is carried through
byte for byte, never converted.

What memfmt's own serialiser would write is what this writer writes, paths
and ``(2)`` numbering included; a file read and not changed is written back as
the bytes it was read from. ``docs/memfmt.md`` has the decisions.
"""

from __future__ import annotations

import array
import functools
import itertools
import re
from typing import Any, Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import ReadError, StoreError
from ...fs import MEMCONV_DIR, is_folder, kept_own, kept_present, list_files, read_bytes, safe_relpath, store_folder
from ...migrations.memfmt import CURRENT, FILE, file_version, mengram_to_memfmt
from ...model import (ForeignFile, IndexFile, IndexLink, IndexSection, Quarantined, Record, Source, Store,
                      fingerprint_as_read, unedited, unpacked)
from ...text import BOM, TextLayout, encode, same_stripped, short_digest, with_head
from .. import Detection, evidence, fold, index_line_shares, kept_clash, passed_through, unportable
from ..protocol import NO_OCCASION, Occasion
from . import files, syntax
from .files import check_fields, read_entity, read_episode, read_procedure, read_profile, render, render_index

NAME = "memfmt"
#: Model kind → the model kind this dialect's writer gives it a native home as; a kind left out is
#: carried whole (memconv.converters.mapping builds its tables and docs/mapping.md from this).
KIND_HOMES = {
    "fact": "entity", "preference": "entity", "decision": "episode", "lesson": "procedure",
    "goal": "entity", "next_action": "entity", "procedure": "procedure", "observation": "episode",
    "entity": "entity", "episode": "episode", "profile": "profile",
}
#: The lifecycle states this dialect says natively; a record in another is kept out of the live set.
LIFECYCLE_STATES = frozenset({"active"})
#: The folder a memfmt store lives in, inside the folder a user points at.
ROOT = "memory"
INDEX = "MEMORY.md"
#: Folder of each kind of memory file.
FOLDERS = {"entity": "entities", "episode": "episodes", "procedure": "procedures"}
MEMORY_KINDS = ("entity", "episode", "procedure", "profile")

#: memconv's own folder in the store (notes, quarantined originals, files carried from other dialects): never read.
OWN_FOLDER = f"{MEMCONV_DIR}/"
#: memfmt's ``load`` and ``validate`` read every ``.md`` file under the folder they are given, hidden folders too:
#: a ``.md`` file memconv keeps as IN had it (``.memconv/quarantine/``, ``.memconv/files/``), inside a bare memory
#: folder or the folder holding ``memory/``, was loaded as memory. It is written ``<name>.md.kept``
#: (``fs.kept_name``), and read under its own name again (docs/memfmt.md).
KEPT_SUFFIX = ".kept"

UNTYPED = "markdown without memfmt_type: someone's own note, carried untouched and never converted"

#: What memfmt's writer would put in a filename that must not go there: ``2026/07/30`` → ``2026-07-30``.
_UNSAFE_IN_HAPPENED = re.compile(r"[\\/\x00-\x1f]")
#: An ISO date at the start of a value: ``2026-07-30`` in ``2026-07-30T10:00``.
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@dataclass
class FileLayout:
    """How a memfmt file was written: its newlines and byte-order mark."""

    text: TextLayout


# --- where a store is ------------------------------------------------------------------

def _decode(raw: bytes, path: str) -> tuple[str, TextLayout]:
    """UTF-8 bytes → text with ``\n`` newlines (CRLF and lone CR, as memfmt reads them), and how to undo it.

    Unlike :func:`memconv.text.decode`, a NUL byte is allowed: it is valid
    UTF-8, memfmt reads it, and so must we to agree with it.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(path, f"is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                        line=raw[:exc.start].count(b"\n") + 1) from None
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    newline = "\r\n" if "\r\n" in text else "\n"
    return text.replace("\r\n", "\n").replace("\r", "\n"), TextLayout(bom=bom, newline=newline)


def _parts(layout: TextLayout, raw: bytes, text: str, body: str) -> TextLayout:
    """``layout`` (of ``raw``, as :func:`_decode` gave it as ``text``, whose frontmatter ``body`` follows) with the
    frontmatter's line end told apart from the body's where they differ (:func:`memconv.text.with_head`), so that
    :func:`_encode` writes each back: an LF frontmatter over a CRLF body. A file with a lone CR, which memfmt reads
    as a line end and :func:`with_head` does not count, keeps one line end."""
    if layout.newline == "\n" or raw.count(b"\r") != raw.count(b"\r\n"):
        return layout
    return with_head(layout, raw, text.count("\n", 0, len(text) - len(body)))


def _prefix(root: Path) -> str:
    """``memory/`` when ``root`` holds the store, ``""`` when ``root`` is the store."""
    return f"{ROOT}/" if is_folder(root, ROOT) else ""


def _store_prefix(store: Store) -> str:
    if "root" in store.meta:
        root = store.meta["root"]
        return f"{root}/" if root else ""
    return f"{ROOT}/"


def _type_of(head: str) -> str | None:
    """The type key a file's first bytes carry in their frontmatter, if any (for ``detect``)."""
    if not head.startswith("---\n") and not head.startswith("---\r\n"):
        return None
    for line in head.splitlines()[1:]:
        if line.startswith("---"):
            return None
        for key in (syntax.TYPE_KEY, syntax.LEGACY_TYPE_KEY):
            if line.startswith(key + ":") and line[len(key) + 1:].strip():
                return key
    return None


def detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None:
    if not root.is_dir():
        return None
    seen = seen or evidence.Folder(root)
    prefix = _prefix(root)
    typed = legacy = untyped = 0
    # Only files where the reader looks (memory/ when there is one) count: a memfmt file elsewhere
    # in the folder would be carried as someone's own, not read.
    for path in seen.files:
        if not path.endswith(".md") or not path.startswith(prefix) or path.startswith(OWN_FOLDER) \
                or (typed + untyped) >= 400:
            continue
        key = _type_of(seen.raw_head(path).decode("utf-8", "replace"))
        typed += key is not None
        legacy += key == syntax.LEGACY_TYPE_KEY
        untyped += key is None
    if not typed:
        return None
    evidence_text = f"{prefix or './'} with {typed} memfmt file(s)"
    if untyped:
        evidence_text += f" and {untyped} note(s) of someone's own"
    hint = None
    if legacy:
        hint = f"{legacy} file(s) use Mengram's mengram_type; `memconv migrate` rewrites them with memfmt_type"
    return Detection(NAME, CURRENT if legacy < typed else file_version(syntax.LEGACY_TYPE_KEY),
                     0.95, evidence_text, hint, root=root, where=prefix or "./")


# --- reading ---------------------------------------------------------------------------

def read(root: Path) -> Store:
    """Read a memfmt store. Files that cannot be read are quarantined, never guessed at."""
    return read_each(root, None)


def read_each(root: Path, each: Callable[[Record], None] | None,
              hold: Callable[[Record], Any] | None = None) -> Store:
    """:func:`read`, with ``each`` done to every record as it is read, before the next: a conversion into another
    dialect lets go of its layout then (docs/performance.md, "(thirty-fourth)"). ``hold``: what the store's records
    hold of each record once ``each`` is done to it and its placing is known (a conversion holds most packed, and
    their bytes on disk: "(forty-third)"). Whether memfmt would rewrite a file is asked of its bytes once every stem
    is known: a record held packed is made again for it, and packed again if it learnt its unread lines."""
    store, prefix = _opened(root, Store)
    migrated: list[str] = []
    placings = []
    newest = None  # kept as it is found, as generated_date does
    for _, record in _listed(root, store, prefix, migrated):
        if each is not None:
            each(record)
        placings.append(_placing(record, prefix, just_read=True))
        newest = _newest(record, newest)
        store.records.append(record if hold is None else hold(record))
    given = _given_date(store, None)
    generated = given if given is not None else newest
    plan = _read_whole(root, store, placings, migrated, generated)
    for n, item in enumerate(store.records):
        record = unpacked(item)
        _warn_unfaithful(store, record, plan.paths[n], plan.stems, generated)
        if record is not item and record.unread:
            store.records[n] = hold(record)
    return store


@dataclass
class _ReadTwice(Store):
    """A memfmt store as :func:`iter_read` gives it: what its writer needs of each record, kept from the first read."""

    placings: list["_Placing"] = field(default_factory=list)
    #: The newest date its records hold (:func:`generated_date` without one given).
    newest: str | None = None


def iter_read(root: Path) -> tuple[Store, Iterator[Record]]:
    """:func:`read`, one record at a time, in two reads of the store: the store without its records, and its
    records as they are read again.

    A record's file cannot be written before every other has been read: an entity's file stem is the one every
    link to it is written with, a name taken is numbered ``(2)``, and the index and the ``generated:`` date are
    the whole store's. The first read keeps that of each record (:class:`_Placing`), and lets the record go;
    the warnings of the whole store (names, the index) are said then. The second reads each record again as
    the iterator reaches it, with what :func:`read` says of it, and a record whose file changed between the two
    is refused (``StoreError``). With :func:`write_each`, ``migrate`` and ``check`` hold one record at a time
    (docs/performance.md).
    """
    store, prefix = _opened(root, _ReadTwice)
    migrated: list[str] = []
    paths = []
    newest = None
    for path, record in _listed(root, store, prefix, migrated):
        store.placings.append(_placing(record, prefix, just_read=True))
        paths.append(path)
        newest = _newest(record, newest)
    store.newest = newest
    given = _given_date(store, None)
    generated = given if given is not None else newest
    plan = _read_whole(root, store, store.placings, migrated, generated)
    return store, _read_again(root, store, paths, plan, generated)


def _read_again(root: Path, store: "_ReadTwice", paths: list[str], plan: "_Plan",
                generated: str | None) -> Iterator[Record]:
    for n, path in enumerate(paths):
        raw = read_bytes(root, path)
        try:
            record = read_file(path, raw, store.meta)
        except ReadError:
            record = None
        if record is None or record.source.fingerprint != store.placings[n].read_as:
            raise StoreError(f"{path}: the file changed while the store was read",
                             hint="run again once nothing else is writing to the store")
        _warn_unfaithful(store, record, plan.paths[n], plan.stems, generated)
        yield record


def _opened(root: Path, kind: type) -> tuple[Store, str]:
    store_folder(root, hint="give the path of a memfmt store or its memory/ folder")
    prefix = _prefix(root)
    return kind(dialect=NAME, meta={"root": prefix.rstrip("/")}), prefix


def _listed(root: Path, store: Store, prefix: str, migrated: list[str]) -> Iterator[tuple[str, Record]]:
    """Every file of the store read in turn: its memory records given, the rest kept in ``store``."""
    index: IndexFile | None = None
    #: The index's ``[[stem]]`` links by the file each names, until that file is read: each then holds its
    #: entity's own title, the same text (its H1), one copy (index_line_shares).
    listed: dict[str, IndexLink] = {}
    paths = list_files(root)
    present = kept_present(paths, KEPT_SUFFIX)
    for path in paths:
        raw = read_bytes(root, path)
        # A '\' in a name is read (memfmt itself writes one from an episode's `happened`); the
        # writer gives such a file a name without it (_keeps_path), as it names every episode.
        if not path.endswith(".md") or path.startswith(OWN_FOLDER):
            # (memconv's own folder, its notes and the copies it keeps, is carried as it is, as every other reader
            # carries it: a quarantined original was quarantined again, and each note warned of as someone's own);
            # a .md file memconv kept (.memconv/files/, .memconv/quarantine/) under its own name again (KEPT_SUFFIX)
            store.foreign.append(ForeignFile(kept_own(path, present, KEPT_SUFFIX), raw))
            continue
        try:
            text, layout = _decode(raw, path)
        except ReadError as exc:
            if _type_of(raw[:evidence.HEAD_BYTES].decode("utf-8", "replace")) is not None:
                # memfmt's own file (its type key says so, as detect reads it) that no reader can read: a
                # memory of the store, quarantined as such a file of any dialect is (docs/limits.md).
                store.quarantined.append(Quarantined.because(exc, path, raw))
            else:  # someone's own, in another encoding
                store.foreign.append(ForeignFile(path, raw, f"{exc.problem}; carried untouched"))
            continue
        # memfmt keeps a byte-order mark, so a file behind a BOM has no
        # frontmatter to memfmt: it is not memfmt's file.
        if layout.bom:
            text = "\ufeff" + text
        fm, body = syntax.split(text)
        if fm is not None:
            layout = _parts(layout, raw, text, body)
        kind, key = syntax.file_type(fm.values) if fm is not None else (None, None)
        if kind is None:
            why = UNTYPED
            if layout.bom and _type_of(text[1:]):
                why = "starts with a byte-order mark, so memfmt does not see its memfmt_type; carried untouched"
            store.foreign.append(ForeignFile(path, raw, why))
            continue
        try:
            version = file_version(key)
            values, steps = FILE.climb(fm.values, version)
            if kind in MEMORY_KINDS:
                record = _memory_file(kind, fm, values, body, path, raw, version, layout)
                if listed and (link := listed.pop(path, None)) is not None:
                    index_line_shares(link, record)
            elif kind == "index" and path == prefix + INDEX and index is None:
                check_fields("index", fm, path)
                index = _read_index(values, body, path, raw, version, layout)
                store.indexes.append(index)
                listed = {prefix + link.target: link for section in index.sections for link in section.links}
                if isinstance(values.get("generated"), str) and values["generated"]:
                    store.meta["generated"] = values["generated"]
                record = None
            else:
                why = (f"a second memfmt index (the store's is {prefix}{INDEX}); carried untouched"
                       if kind == "index" else
                       f"{key} {kind!r} is not a kind memfmt reads "
                       "(entity, episode, procedure, profile, index); carried untouched")
                store.foreign.append(ForeignFile(path, raw, why))
                continue
            if steps:
                migrated.append(path)
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))
            continue
        if record is not None:
            yield path, record


def _read_whole(root: Path, store: Store, placings: list["_Placing"], migrated: list[str],
                generated: str | None) -> "_Plan":
    """What :func:`read` does once every file is read: the files that are not memfmt's and cannot keep their
    name quarantined, the ladder's line, where each record goes, and the index's fingerprint."""
    # A file that is not memfmt's is kept byte for byte under its name, which cannot hold a '\\'.
    for foreign in [f for f in store.foreign if unportable(f.path)]:
        store.foreign.remove(foreign)
        store.quarantined.append(Quarantined(path=foreign.path, raw=foreign.raw, reason=unportable(foreign.path)))
    index = _index(store)
    if index is None:
        store.meta["index"] = False  # a store fact: its writer writes none, home again too (_index_path)
    if not placings and index is None and not store.quarantined:
        raise StoreError(f"{root}: no memfmt files here (no Markdown file has memfmt_type in its frontmatter)",
                         hint="point at a memfmt store or its memory/ folder")
    if migrated:
        shown = ", ".join(migrated[:5]) + (f" and {len(migrated) - 5} more" if len(migrated) > 5 else "")
        store.migrations.append(f"{len(migrated)} memfmt file(s): {mengram_to_memfmt.DESCRIPTION}: {shown}")
    plan = _plan_of(store, placings, _store_prefix(store))
    if index is not None:
        # An index is regenerated, not authored: its fingerprint is the digest of the text
        # it would be regenerated as. While that stays the same, its bytes are kept.
        index.source.fingerprint = short_digest(_index_text(placings, plan, index, generated), 32)
        _resolve_index(index, plan)
    return plan


def _memory_file(kind: str, fm, values: dict, body: str, path: str, raw: bytes, version: int,
                 layout: TextLayout) -> Record:
    """The record of a memory file (entity, episode, procedure, profile), with its source."""
    check_fields(kind, fm, path)
    record = _read_record(kind, values, body, path)
    record.source = Source(dialect=NAME, path=path, version=version, raw=raw, layout=FileLayout(layout))
    record.source.fingerprint = fingerprint_as_read(record)
    return record


def read_file(path: str, raw: bytes, meta: dict) -> Record | None:
    """One file as :func:`read` reads it, with no folder: its memory record, or None when it holds none
    (an index, someone's own note, a file behind a byte-order mark).

    Raises ``ReadError`` where :func:`read` quarantines.
    """
    if not path.endswith(".md"):
        return None
    try:
        text, layout = _decode(raw, path)
    except ReadError:
        return None  # carried as someone's own file, not read
    if layout.bom:
        return None  # memfmt sees no frontmatter behind a byte-order mark
    fm, body = syntax.split(text)
    kind, key = syntax.file_type(fm.values) if fm is not None else (None, None)
    if kind not in MEMORY_KINDS:
        return None
    layout = _parts(layout, raw, text, body)
    version = file_version(key)
    values, _ = FILE.climb(fm.values, version)
    return _memory_file(kind, fm, values, body, path, raw, version, layout)


def _read_record(kind: str, values: dict, body: str, path: str) -> Record:
    stem = path.rsplit("/", 1)[-1][:-3]
    if kind == "entity":
        return read_entity(values, body)
    if kind == "episode":
        return read_episode(values, body, stem)
    if kind == "procedure":
        return read_procedure(values, body, stem)
    return read_profile(values, body)


def read_index(raw: bytes, path: str, present: set[str] | None = None) -> IndexFile:
    """A memfmt index read again from its bytes (an index a store note carried home), as :func:`read` reads it.

    Its fingerprint is unknown here (it is the regenerated text's, which the note carries): until it
    is given, the writer regenerates the index. Raises ``ReadError`` when the bytes are no memfmt index.
    """
    text, layout = _decode(raw, path)
    fm, body = syntax.split(text) if not layout.bom else (None, text)
    kind, key = syntax.file_type(fm.values) if fm is not None else (None, None)
    if kind != "index":
        raise ReadError(path, "is not a memfmt index (no memfmt_type: index in its frontmatter)")
    layout = _parts(layout, raw, text, body)
    version = file_version(key)
    values, _ = FILE.climb(fm.values, version)
    check_fields("index", fm, path)
    return _read_index(values, body, path, raw, version, layout)


def generated_index(store: Store) -> dict[str, bytes]:
    """The ``MEMORY.md`` the writer regenerates for ``store`` as read, as its file would hold it had no one
    written in it: the converter carries an index whose bytes are not these (docs/conversion.md)."""
    index = _index(store)
    if index is None or not index.source.has_raw:
        return {}
    migrated = _migrated_raw(index.source)
    if short_digest(_decode(migrated, index.path)[0], 32) == index.source.fingerprint:
        # The text the reader regenerated for these records (its fingerprint's): the writer keeps these bytes.
        return {index.path: index.source.raw}
    placings = _placings(store)
    text = _index_text(placings, _plan_of(store, placings, _store_prefix(store), say=lambda _: None), index,
                       generated_date(store))
    return {index.path: _encode(text, index.source)}


def _read_index(values: dict, body: str, path: str, raw: bytes, version: int, layout: TextLayout) -> IndexFile:
    index = IndexFile(path=path, title=files.title(body) or None, extra=files.extra(values, "index"))
    for heading, lines in files.sections(body).items():
        if not heading:
            continue
        section = IndexSection(heading)
        for line in lines:
            if line.startswith("- [[") and line.rstrip().endswith("]]"):
                stem = line.rstrip()[4:-2]
                section.links.append(IndexLink(title=stem, target=f"{FOLDERS['entity']}/{stem}.md"))
            elif line.startswith("- "):
                section.inline.append(line[2:])
        index.sections.append(section)
    index.words = _words(body)
    index.source = Source(dialect=NAME, path=path, version=version, raw=raw, layout=FileLayout(layout))
    return index


def _words(body: str) -> str:
    """What someone wrote into the index beside what memfmt generates: every line that is not its
    ``# `` title, a ``## `` heading or a ``- `` bullet (a count, a ``[[link]]``), blocks a blank line apart."""
    blocks: list[list[str]] = [[]]
    for line in body.split("\n"):
        if line.strip() and not line.startswith(("# ", "## ", "- ")):
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return "\n\n".join("\n".join(block) for block in blocks if block)


def _resolve_index(index: IndexFile, plan: "_Plan") -> None:
    stems = set(plan.stems.values())
    for section in index.sections:
        for link in section.links:
            link.resolved = link.title in stems


_WORD = re.compile(r"\w+")


#: The labels memfmt's writer puts on a line of their own over a section (``files.render``): left with nothing under
#: them (every fact deleted), they are the format's words, not text memfmt does not read.
_SECTION_LABELS = frozenset({"## Facts", "## Relations", "## Knowledge", "## Steps", "## Evolution", "## Entities",
                             "**Preconditions**", "**When**", "**Outcome**", "**Last failure**", "**Last success**"})


def _unread_lines(text: str, rendered: str) -> list[str]:
    """The lines of a file's ``text`` that hold a word its canonical rendering (what memfmt reads of it) does not:
    text outside the format (a paragraph in ``## Facts`` with no ``- ``, a section of another name), not spacing,
    nor a section's label over nothing."""
    said = set(_WORD.findall(rendered))
    return [line.strip() for line in text.splitlines()
            if not set(_WORD.findall(line)) <= said and line.strip() not in _SECTION_LABELS]


def _warn_unfaithful(store: Store, record: Record, wanted: str, stems: dict[str, str], generated: str | None) -> None:
    """Say whether memfmt itself would rewrite ``record``'s file differently (what ``memfmt validate`` reports),
    or name it otherwise (``wanted``)."""
    source = record.source
    text = _decode(source.raw, source.path)[0]
    if source.version != CURRENT:
        text = mengram_to_memfmt.step_text(text)
    date = record.updated if record.kind == "profile" else generated  # a profile carries its own
    if "\\" in source.path:
        store.warnings.append(f"{source.path}: its name holds a '\\', a folder separator on Windows; "
                              f"written as {wanted}")
    elif not same_stripped(rendered := render(record, stems, date), text):
        unread = _unread_lines(text, rendered)
        if unread:
            record.unread = unread  # so that another dialect shows it (its fingerprint leaves it out)
        store.warnings.append(f"{source.path}: memfmt would rewrite this file differently (it holds text or "
                              "spacing the format does not keep); kept as it is unless the record is edited")
    elif wanted != source.path:
        store.warnings.append(f"{source.path}: memfmt would name this file {wanted}; kept where it is")


# --- writing ---------------------------------------------------------------------------

class _Paths(Sequence[str]):
    """Where each record of a plan goes, in the order of the records: its own file's path where it keeps it, else made
    of its placing as it is asked for (``folder/wanted.md``), and held only where a name is numbered. A path held for
    every record took 11 MB at 100,000, from a write's start to its end (docs/performance.md)."""

    __slots__ = ("_placings", "_other")

    def __init__(self, placings: list[_Placing], other: dict[int, str]):
        self._placings, self._other = placings, other

    def __len__(self) -> int:
        return len(self._placings)

    def __getitem__(self, n: int) -> str:  # (no slices: asked by place)
        path = self._other.get(n)
        if path is None:
            placing = self._placings[n]
            path = placing.kept_at
            if path is None:
                path = f"{placing.folder}/{placing.wanted}.md" if placing.folder else f"{placing.wanted}.md"
        return path

    def __iter__(self) -> Iterator[str]:
        return map(self.__getitem__, range(len(self._placings)))


@dataclass
class _Plan:
    """Where each record goes (``paths``, in the order of the records), and entity name → file stem for links."""

    paths: _Paths
    stems: dict[str, str]
    #: Entity file stems, for the index.
    entity_stems: list[str]


@dataclass(frozen=True, slots=True)
class _Placing:
    """What writing a record, and the files beside it, asks of the record: where it goes, what links to it say,
    and what the index and a profile's date need. A store read twice (:func:`iter_read`) keeps this of each."""

    kind: str
    folder: str
    #: Its own file's path, when it keeps it (:func:`_keeps_path`); else None, and ``wanted`` is its stem.
    kept_at: str | None
    wanted: str | None
    #: An entity's name (its title, else its link): links to it are written with its file's stem.
    name: str | None
    unchanged: bool
    #: A profile's last update, and whether it is empty (none is written then).
    updated: str | None = None
    empty: bool = False
    #: Its fingerprint as read: the second read of a store read twice finds the same record, or stops.
    read_as: str | None = None


def _placing(record: Record, prefix: str, just_read: bool = False) -> _Placing:
    """What writing ``record`` asks of it. ``just_read``: the record is as its reader made it a moment ago, so it is
    unchanged when its reader kept a fingerprint, which need not be made again to be compared (a record's
    fingerprint digests all it says: 3% of a conversion from memfmt, docs/performance.md)."""
    if record.kind not in MEMORY_KINDS:
        raise StoreError(f"a {record.kind!r} record ({record.link}) has no memfmt file",
                         hint="convert the store to memfmt first; memfmt holds entities, episodes, "
                              "procedures and a profile")
    folder = _folder(prefix, record.kind)
    unchanged = record.source.fingerprint is not None and record.source.has_raw if just_read else _unchanged(record)
    kept = _keeps_path(record, folder, unchanged)
    profile = record.kind == "profile"
    return _Placing(record.kind, folder, record.source.path if kept else None, None if kept else _wanted_stem(record),
                    (record.title if record.title is not None else record.link) if record.kind == "entity" else None,
                    unchanged, record.updated if profile else None, profile and not record.body,
                    record.source.fingerprint if record.source is not None else None)


@functools.lru_cache(maxsize=64)
def _folder(prefix: str, kind: str) -> str:
    """The folder of a ``kind`` of memory in a store at ``prefix``: one string for all of them (a placing is kept
    of every record: 65 bytes an entry, made anew each time)."""
    return prefix + FOLDERS[kind] if kind in FOLDERS else prefix.rstrip("/")


def _placings(store: Store) -> list[_Placing]:
    prefix = _store_prefix(store)
    return [_placing(record, prefix) for record in store.records]


def _unchanged(record: Record) -> bool:
    return unedited(record, NAME)


def _stem_of(path: str) -> str:
    return path.rsplit("/", 1)[-1][:-3]


def _wanted_stem(record: Record) -> str:
    """The stem memfmt's serialiser gives ``record`` before ``(2)`` numbering."""
    if record.kind == "entity":
        return syntax.file_stem(record.title if record.title is not None else record.link)
    if record.kind == "procedure":
        return syntax.file_stem(record.title)
    if record.kind == "episode":
        base = syntax.file_stem(record.title or "episode")
        if not record.happened:
            return base
        # memfmt writes `happened` into the filename as it stands; only what
        # would leave the folder is replaced, so every ordinary date matches.
        return f"{_UNSAFE_IN_HAPPENED.sub('-', record.happened)}-{base}"
    return "profile"


def _keeps_path(record: Record, folder: str, unchanged: bool) -> bool:
    """Whether an owned record stays at its source path: unedited (``unchanged``), or edited with its name
    unchanged."""
    source = record.source
    if source is None or source.dialect != NAME or "\\" in source.path:
        return False  # a '\' is a folder on Windows: the file is named anew (docs/limits.md)
    if unchanged:
        return True
    if not source.path.startswith(folder + "/") or "/" in source.path[len(folder) + 1:]:
        return False
    stem, wanted = _stem_of(source.path), _wanted_stem(record)
    return stem == wanted or re.fullmatch(re.escape(wanted) + r" \(\d+\)", stem) is not None


def _plan_of(store: Store, placings: list[_Placing], prefix: str, say=None, home: Container[int] = ()) -> _Plan:
    """Where each record goes; ``home``: the numbers of the records home again (:func:`_home`)."""
    say = say or NO_OCCASION.teller(store)
    #: The records placed anew (that keep no file of their own), by number: only they are named against those taken.
    #: Four bytes each: in a conversion into memfmt, and the format patches of a memfmt store, every record is.
    pending = array.array("I", (n for n, placing in enumerate(placings) if placing.kept_at is None))
    #: Where a record goes when it is not its own file's path nor ``folder/wanted.md``: a name numbered.
    other: dict[int, str] = {}
    if pending:
        _number(store, placings, pending, other, say, home)
    paths = _Paths(placings, other)
    stems: dict[str, str] = {}
    entity_stems: list[str] = []
    for n, placing in enumerate(placings):
        if placing.kind == "entity":
            # Written where it wanted to be: its placing's own string (a stem held of every entity).
            path = other.get(n, placing.kept_at)
            stem = _stem_of(path) if path is not None else placing.wanted
            entity_stems.append(stem)
            stems.setdefault(placing.name, stem)
    return _Plan(paths, stems, entity_stems)


def _number(store: Store, placings: list[_Placing], pending: Sequence[int], other: dict[int, str], say,
            home: Container[int] = ()) -> None:
    """Name each record placed anew (``pending``) against the names taken, numbered ``(2)``… where its stem is taken
    but for case or Unicode normalisation, into ``other``; a record home again (its number in ``home``) keeps the
    name it wants unless that very name is taken, as a file of the dialect's own keeps its name (``Names.place``).
    Every name of the store is folded for it: a store read, whose records all keep their files' paths, folded them to
    no use, 10 MB at 100,000 entries at its read's high-water mark (docs/performance.md, "(thirty-fifth)")."""
    taken: dict[str, set[str]] = {}
    #: The files named as they are (a name numbered is said once, unless a file has the name it wanted): those beside
    #: the records and the records' own, by path; the records placed anew, by their folder's stems as wanted.
    exact: set[str] = {f.path for f in store.foreign} | {q.path for q in store.quarantined}
    for path in exact:
        folder, _, name = path.rpartition("/")
        if name.endswith(".md"):
            taken.setdefault(folder, set()).add(fold(name[:-3]))  # a note of someone's own is never overwritten
    wanted_in: dict[str, set[str]] = {}
    for placing in placings:
        if placing.kept_at is not None:
            parent, _, name = placing.kept_at.rpartition("/")
            taken.setdefault(parent, set()).add(fold(name[:-3]))
            exact.add(placing.kept_at)
    for n in pending:
        folder, wanted = placings[n].folder, placings[n].wanted
        if n in home:
            path = f"{folder}/{wanted}.md" if folder else f"{wanted}.md"
            if path not in exact:  # named as it was at home: the round trip gives its file its name again
                folded = taken.setdefault(folder, set())
                if fold(wanted) in folded:
                    say(kept_clash(path))
                folded.add(fold(wanted))
                exact.add(path)
                continue
        stem = syntax.numbered(wanted, taken.setdefault(folder, set()))
        named = wanted_in.setdefault(folder, set())
        if stem != wanted:
            other[n] = f"{folder}/{stem}.md" if folder else f"{stem}.md"
            first = f"{folder}/{wanted}.md" if folder else f"{wanted}.md"
            if wanted not in named and first not in exact:
                say(f"{first} is written as {other[n]}: another file has that name but for case "
                    "or Unicode normalisation, and the two would be one file on macOS and Windows")
        named.add(wanted)


def record_paths(store: Store) -> Sequence[str]:
    """Where :func:`write` puts each record of ``store``, in the order of its records (numbering included): by place,
    not by the record's identity, so that its records may be made again as they are asked for (a format patch's look
    at a store held packed, docs/performance.md, "(forty-third)")."""
    return _plan_of(store, _placings(store), _store_prefix(store)).paths


def _given_date(store: Store, date: str | None) -> str | None:
    """The ``generated:`` date given (``date``, else ``meta['date']``) or the store's, when it has one."""
    if date:
        return date
    for key in ("date", "generated"):
        if store.meta.get(key):
            return str(store.meta[key])
    return None


def _newest(record: Record, newest: str | None) -> str | None:
    """The newer of ``newest`` and the newest date ``record`` holds (``YYYY-MM-DD``)."""
    values = [record.created, record.updated, record.happened, record.last_failed, record.last_succeeded,
              record.date]
    values += [rev.date for rev in record.evolution or ()]
    for v in values:
        if isinstance(v, str) and (newest is None or v[:10] > newest) and _ISO_DATE.match(v):
            newest = v[:10]
    return newest


def generated_date(store: Store, date: str | None = None) -> str | None:
    """The ``generated:`` date of regenerated files: given (``date``, the writer's occasion's, else
    ``meta['date']``), the store's, or its newest date.

    Never today's date: a conversion run twice gives the same bytes. None when
    the store holds no date at all; the key is then left out.
    """
    given = _given_date(store, date)
    if given is not None:
        return given
    newest = None  # kept as it is found, not a list of every date of the store
    for record in store.records:
        newest = _newest(record, newest)
    return newest


def _index_text(placings: list[_Placing], plan: _Plan, index: IndexFile | None, generated: str | None) -> str:
    counts = {kind: sum(p.kind == kind for p in placings) for kind in FOLDERS}
    extra_keys = index.extra if index is not None else {}
    return render_index(counts, plan.entity_stems, generated, extra_keys)


def _encode(text: str, record_source: Source | None) -> bytes:
    layout = record_source.layout if record_source is not None and record_source.dialect == NAME else None
    text_layout = layout.text if isinstance(layout, FileLayout) else None
    head = 0
    if text_layout is not None and text_layout.head_newline is not None:
        match = syntax.FRONTMATTER.match(text)
        head = match.end() if match is not None else 0  # (the frontmatter's line ends, the body's: _parts)
    return encode(text, text_layout, head)


def _migrated_raw(source: Source) -> bytes:
    """An unedited file as it is, or with its legacy type key renamed (the ladder's one step), every line's own
    line end kept (an LF frontmatter over a CRLF body, a body whose lines mix them). A file behind a byte-order
    mark, or with a lone CR (a line end to memfmt), is written in the one line end :func:`_decode` gives it."""
    if source.version == CURRENT:
        return source.raw
    raw = source.raw
    if raw.count(b"\r") == raw.count(b"\r\n") and not raw.startswith(BOM.encode("utf-8")):
        return mengram_to_memfmt.step_text(raw.decode("utf-8")).encode("utf-8")
    text, layout = _decode(raw, source.path)
    return encode(mengram_to_memfmt.step_text(text), layout)


def write(store: Store, context: Occasion | None = None) -> dict[str, bytes]:
    """The files of ``store`` as a memfmt store: relative path → bytes (``context``: :func:`iter_write`).

    May say a warning (a record memfmt has no room for), so the report can say
    so; it writes nothing else.
    """
    return dict(iter_write(store, context=context))


def iter_write(store: Store, render=None, context: Occasion | None = None) -> Iterator[tuple[str, bytes]]:
    """The files of ``store`` one at a time, as they are rendered: (relative path, bytes), each path once.

    ``render`` maps a function over the records in order (``--jobs``); by default one by one, here.
    Paths, dates and the index are made (and what they say told to ``context``, an
    :class:`~memconv.dialects.protocol.Occasion`; else put in ``store.warnings``) at the call;
    the records are rendered as the stream is read. The occasion's date, when it has one, is the
    ``generated:`` of the index and of a profile written anew (else :func:`generated_date`'s).
    An occasion for the records only gets no index, and no record at the index's path either.
    """
    context = context or NO_OCCASION
    written = _Written(store, _placings(store), context, generated_date(store, context.date),
                       lambda: generated_date(store), home=_home(store, context))
    job = _Render(written.stems, written.generated, written.profile_dates)
    return _stream(store, written, (render or map)(job, store.records))


def write_each(store: Store, records: Iterator[Record], context: Occasion | None = None, render=None,
               facts: "_Facts | None" = None) -> Iterator[tuple[str, bytes]]:
    """:func:`iter_write` for records given one at a time: :func:`iter_read`'s (the store it gives), or a
    conversion's with the ``facts`` :func:`each_facts` gathered of every record (:data:`WRITES_EACH_CONVERTED`).
    Each is rendered and let go before the next is asked for; ``render`` maps the records to their files as they
    come, as :func:`iter_write`'s does.

    The same files in the same order as :func:`iter_write` of the whole store: where each record goes, the
    index and the dates come from what was kept of every record before the first (``store.placings`` of a store
    read twice, else ``facts``), and what they say is said at the call, as there. Without ``facts``, a store not
    read by :func:`iter_read` is refused.
    """
    context = context or NO_OCCASION
    if facts is not None:
        return _each_given(store, records, context, render, facts)
    return _each_read(store, records, context, render)


def _each_read(store: Store, records: Iterator[Record], context: Occasion, render) -> Iterator[tuple[str, bytes]]:
    if not isinstance(store, _ReadTwice):
        raise StoreError("write_each takes the store iter_read gives, which knows every record before the first "
                         "is written", hint="write the whole store with iter_write")
    yield from _each_written(store, store.placings, records, context, render, store.newest)


def _each_given(store: Store, records: Iterator[Record], context: Occasion, render,
                facts: _Facts) -> Iterator[tuple[str, bytes]]:
    """:func:`write_each` of a conversion's records, told what :func:`iter_write` works out of them at its call:
    worked out at the call too (a conversion adds its notes beside the records as the stream is read)."""
    if _store_prefix(store) != _EACH_PREFIX:
        raise StoreError(f"write_each was told where {len(facts.placings)} records go in {_EACH_PREFIX}, and the "
                         f"store is in {_store_prefix(store) or 'the folder itself'}",
                         hint="this is a bug in memconv; please report it")
    return _each_written(store, facts.placings, records, context, render, facts.newest, facts.plan)


def _each_written(store: Store, placings: list["_Placing"], records: Iterator[Record], context: Occasion, render,
                  newest: str | None, planned=None) -> Iterator[tuple[str, bytes]]:
    """The files of ``records``, placed as ``placings`` say; ``newest``: the newest date of them all, the date of the
    undated where the store gives none (what :func:`generated_date` works out of the records at its call);
    ``planned``: :meth:`_Facts.plan`, where the plan is made once for a conversion's two writes."""
    given = _given_date(store, None)
    undated = given if given is not None else newest
    written = _Written(store, placings, context, context.date or undated, lambda: undated, planned)
    job = _Render(written.stems, written.generated, written.profile_dates)
    return _stream(store, written, (render or map)(job, records))


def each_facts() -> tuple[Callable[[Record], None], Callable[[], _Facts]]:
    """(add, facts): what :func:`iter_write` works out of every record at its call, gathered by ``add(record)`` of
    each, in order, for :func:`write_each`'s ``facts``: where each goes and what links to it say
    (:class:`_Placing`, for a store in ``memory/``), and the newest date of them all; not the records
    (protocol.OPTIONAL)."""
    placings: list[_Placing] = []
    newest: list[str | None] = [None]

    def add(record: Record) -> None:
        placings.append(_placing(record, _EACH_PREFIX))
        newest[0] = _newest(record, newest[0])

    return add, lambda: _Facts(placings, newest[0])


class _Facts:
    """What :func:`each_facts` gathered of a conversion's records (``placings``, ``newest``), and the file plan made of
    them: made once for both of a conversion's writes, the read-back's and the final one, which plan the same records
    beside the same files. Each made its own, held together to the end: 17 MB at 100,000 records
    (docs/performance.md)."""

    __slots__ = ("placings", "newest", "_planned")

    def __init__(self, placings: list[_Placing], newest: str | None):
        self.placings, self.newest = placings, newest
        self._planned: tuple[tuple, _Plan, list[str]] | None = None

    def plan(self, store: Store, prefix: str, say) -> _Plan:
        """:func:`_plan_of` the placings in ``store`` (its files beside them, under ``prefix``), what it says said to
        ``say`` each time: made again only for other files beside them."""
        beside = (prefix, tuple(f.path for f in store.foreign), tuple(q.path for q in store.quarantined))
        if self._planned is None or self._planned[0] != beside:
            said: list[str] = []
            self._planned = (beside, _safe(_plan_of(store, self.placings, prefix, said.append)), said)
        for warning in self._planned[2]:
            say(warning)
        return self._planned[1]


#: Where the records :func:`each_facts` is given go: a conversion's store has no folder facts of its own
#: (a conversion whose final write renders what its read-back did; forward.py).
_EACH_PREFIX = f"{ROOT}/"


class _Written:
    """What a write of ``store`` works out before its first record (and says, to ``context``): where each record
    goes, the dates, and the index, kept to the end (a record at its path would be replaced by it)."""

    def __init__(self, store: Store, placings: list[_Placing], context: Occasion, generated: str | None, undated,
                 planned=None, home: Container[int] = ()):
        say = context.teller(store)
        prefix = _store_prefix(store)
        plan = planned(store, prefix, say) if planned is not None \
            else _safe(_plan_of(store, placings, prefix, say, home))
        self.stems, self.generated = plan.stems, generated
        self.paths = plan.paths
        #: A profile written anew: its ``generated:``, by the day of its own (its ``updated``), the one thing of the
        #: record it depends on (:func:`_profile_date`). Not by the record's identity, nor its place: the records may
        #: be made again as they are asked for (a store held packed), and rendered in other processes (``--jobs``).
        self.profile_dates: dict[str | None, str | None] = {}
        for n, placing in enumerate(placings):
            if placing.kind == "profile" and not placing.unchanged:
                path = self.paths[n]
                if placing.empty:
                    say(f"{path}: the profile is empty; memfmt keeps no empty profile, so none is written")
                else:
                    self.profile_dates[_iso_day(placing.updated)] = _profile_date(store, placing.updated, path,
                                                                                  context.date, say, undated)
        self.out: dict[str, bytes] = {}
        if context.records_only:
            # No index rendered, but its path still taken: a record there is left out, as in a whole write.
            index_path = _index_path(store, prefix, say)
            self.taken = {index_path} if index_path is not None else set()
        else:
            _write_index(store, placings, plan, prefix, self.out, generated, say)
            self.taken = set(self.out)


def _home(store: Store, context: Occasion) -> Container[int]:
    """The numbers of the records of ``store`` home again (:attr:`Occasion.home`): looked for only when some are (a
    conversion writing records one at a time has none: forward.py)."""
    if not context.home:
        return ()
    return {n for n, record in enumerate(store.records) if id(record) in context.home}


def _safe(plan: _Plan) -> _Plan:
    """``plan``, once every path it gives is one a write may write (:func:`fs.safe_relpath`; else OutputError): asked
    once of a plan, which a conversion's two writes share (:meth:`_Facts.plan`)."""
    for path in plan.paths:
        safe_relpath(path)
    return plan


def _stream(store: Store, written: _Written, rendered: Iterator[bytes | None]) -> Iterator[tuple[str, bytes]]:
    seen = _Files(written.paths)
    for n, (path, data) in enumerate(zip(written.paths, rendered)):
        if data is not None and path not in written.taken:
            seen.flags[n] = 1
            yield path, data
    for path, data in written.out.items():
        seen.add(path)
        yield path, data
    yield from passed_through(store, seen, KEPT_SUFFIX)


class _Files:
    """The files a write wrote, by name: the plan's paths, a flag each for whether it was written, then the files
    written after them (:meth:`add`); a set of them took 8 MB at 100,000 records, at the run's end (its peak)."""

    __slots__ = ("paths", "flags", "after")

    def __init__(self, paths: Sequence[str]):
        self.paths = paths
        self.flags = bytearray(len(paths))
        self.after: list[str] = []

    def __iter__(self) -> Iterator[str]:
        yield from itertools.compress(self.paths, self.flags)
        yield from self.after

    def add(self, path: str) -> None:
        self.after.append(path)


class _Render:
    """One record's bytes, as ``write`` renders it: picklable, so ``--jobs`` can run it in other processes."""

    def __init__(self, stems, generated, dates):
        self.stems, self.generated, self.dates = stems, generated, dates

    def __call__(self, record: Record) -> bytes | None:
        if _unchanged(record):
            return _migrated_raw(record.source)
        if record.kind == "profile":
            if not record.body:
                return None
            return _encode(render(record, self.stems, self.dates[_iso_day(record.updated)]), record.source)
        return _encode(render(record, self.stems, self.generated), record.source)


def _profile_date(store: Store, updated: str | None, path: str, given: str | None, say, undated) -> str | None:
    """``generated:`` of a profile written anew: from the store, never from the clock.

    The date is, in order: the one given (the occasion's, else ``--date``), the profile's own last
    update (its ``generated:`` when read), the store's ``generated:``, the newest
    date in the store (``undated()``).
    The same input gives the same bytes on any day. ``memfmt validate`` re-stamps
    a profile with *its* today, so it accepts the file only on that date (or
    with its clock pinned to it); the report says which date was used.
    """
    date = given or store.meta.get("date") or _iso_day(updated) or store.meta.get("generated") or undated()
    if date is None:
        say(f"{path}: no date in the store for its generated: field, so it is left out "
            "(memfmt would write today's date; give one with --date)")
        return None
    return str(date)


def _iso_day(value: object) -> str | None:
    return value[:10] if isinstance(value, str) and _ISO_DATE.match(value) else None


def _index(store: Store) -> IndexFile | None:
    return next((i for i in store.indexes if i.source is not None and i.source.dialect == NAME), None)


def _index_path(store: Store, prefix: str, say) -> str | None:
    """Where the index of ``store`` is written, or None when none is (what that says is told to ``say``)."""
    path = prefix + INDEX
    if _index(store) is None and (store.dialect == NAME or store.meta.get("index") is False):
        return None  # the store had no index (read so, or home again): writing one would change what was read
    if any(f.path == path for f in store.foreign):
        say(f"{path} is someone's own note; memfmt's index was not written over it")
        return None
    return path


def _write_index(store: Store, placings: list[_Placing], plan: _Plan, prefix: str, out: dict[str, bytes],
                 generated: str | None, say) -> None:
    path = _index_path(store, prefix, say)
    if path is None:
        return
    index = _index(store)
    text = _index_text(placings, plan, index, generated)
    if index is not None and index.source.has_raw and short_digest(text, 32) == index.source.fingerprint:
        out[index.source.path] = _migrated_raw(index.source)
    else:
        if generated is None:
            say(f"{path}: no date in the store for its generated: field, so it is left out "
                "(memfmt would write today's date; give one with --date)")
        out[path] = _encode(text, index.source if index is not None else None)


__all__ = ["NAME", "detect", "read", "iter_read", "read_file", "read_index", "write", "iter_write", "write_each",
           "generated_index", "record_paths",
           "generated_date", "files", "syntax"]


# --- what this dialect declares for the mapping and the edge modules (docs/plugins.md) ---

#: Its concepts, rows of docs/mapping.md: (name, the model kind it reads as or None, meaning[, store-level topic]).
CONCEPTS = (
    ("entity", "entity", "inform"),
    ("episode", "episode", "remember what happened"),
    ("procedure (steps, evolution)", "procedure", "change behaviour"),
    ("profile", "profile", "constrain style"),
    ("relations, knowledge", None, "inform", "relations"),
)
#: How it holds the store-level concepts of any dialect, in words (its column of docs/mapping.md).
HOLDS = {
    "working set": "an entity \"Working set\" whose facts are the items; the exact JSON in a note",
    "kept whole": "an entity (`feedback`: a procedure); its frontmatter carried",
    "index": "each inline bullet an entity, its own words one more; the index itself in a note (memfmt's own "
             "`MEMORY.md` is regenerated, and travels too when someone wrote in it)",
    "lifecycle": "kept out of the live set (a note under `.memconv/notes/`)",
    "witness": "edges of relation kinds → relations; anchors, probes, a supersede reason, a scope and extensions "
               "(`ext`) shown as facts or in the body; the rest carried",
    "relations": "native",
}
#: Any edge type: its relations have a free verb.
EDGE_TYPES = None
#: Only an entity has relations: a procedure or an episode says no edge (memfmt.model).
EDGE_KINDS = frozenset({"entity"})
#: The text fields its files show, per kind; a profile is its body.
TEXT_FIELDS = {
    "entity": frozenset({"title", "facts", "knowledge", "category"}),
    "episode": frozenset({"title", "body", "outcome", "happened", "participants", "valence", "importance"}),
    "procedure": frozenset({"title", "trigger", "preconditions", "steps", "evolution", "last_failure", "last_failed",
                            "last_succeeded"}),
    "profile": frozenset({"body"}),
}
DEFAULT_TEXT_FIELDS = frozenset()
#: The keys each kind's file owns (``files.owned``): a record's unknown key of such a name is shown in its text.
OWNED_KEYS = {kind: files.owned(kind) for kind in files.KNOWN_KEYS}
#: Its file names are slugs of a record's name; a link is a name, never a path.
LINKS_ARE_FILE_NAMES = False
#: The working set is an entity, its facts the items, linked by its name.
WORKING_SET_AS = ("entity", "Working set")


# --- what this dialect declares for the converter core (docs/plugins.md) ---

from ...migrations.memfmt import FILE as _FILE_LADDER  # noqa: E402
from ... import frontmatter as fmx  # noqa: E402 - the splice of the carry's line
from ..protocol import CARRY_KEY, CarrySlot, LinkNaming  # noqa: E402

#: mengram files, then memfmt's own.
LADDERS = (_FILE_LADDER,)
VERSIONS = ("memfmt 0.5 stores, and Mengram exports (mengram_type)", "memfmt 0.5")
#: The frontmatter key ``memconv``.
CARRY_SLOT = CarrySlot("extra", words="unknown frontmatter keys")
#: memfmt names memories by their name (the title), and numbers a second one of a name ``name (2)``.
LINK_NAMING = LinkNaming("title", numbered="{} ({})")
#: Every memfmt memory is linked by its name (an entity's and a procedure's link is its title, an
#: episode's the file stem made of it): the title is the link, so two of one name, of one kind or of
#: two, would be one.
TITLE_IS_LINK = frozenset({"entity", "episode", "procedure"})
#: A memory's name is its ``# `` line: one line (its frontmatter the writer keeps on one line itself).
ONE_LINE_FIELDS = frozenset({"title"})
#: A procedure's ``version`` and counts its file leaves out read as 1 and 0 in memfmt, and are written so.
UNSET_READS_AS = {"procedure": files.UNSET_PROCEDURE}
#: The folder the store is in, inside the folder a user points at.
#: ``index``: whether the store has its ``MEMORY.md`` (False: it had none, and its writer writes none).
STORE_FACTS = {"root": ROOT, "index": True}
#: ``root`` names that folder.
FOLDER_FACTS = ("root",)
#: :func:`iter_read` reads the store twice: a conversion into another dialect, which holds the store, reads it once.
READS_TWICE_TO_STREAM = True
#: Its :func:`write_each` takes a conversion's records too, told by :func:`each_facts` where each goes.
WRITES_EACH_CONVERTED = True


def splice(rendered: bytes | None, marker: str, carry: str | None) -> bytes | None:
    """What :func:`iter_write`'s render gives for a record wearing the carry ``carry`` (a string, its ``memconv``
    key; None: no such key), from what it gave for the record wearing ``marker`` there; None when the file does
    not show where (the writer then renders the record again).

    memfmt's frontmatter is a line per key, each scalar on its one line (:func:`syntax.scalar`), and the carry
    is written where the marker was, in the same key: the carry's line is the marker's; with none, that line
    goes (the type's line, first, stays): the line splice memoir and claude use (:func:`fmx.splice`), with
    memfmt's scalars. A profile is declined: whether it is written and its ``generated:`` date are worked out
    from its body and dates, which a record let go no longer holds (:data:`SPLICED_READS`)."""
    if isinstance(rendered, bytes) and rendered.startswith(_PROFILE):
        return None
    # (an empty carry is no key at all: the writer leaves an empty value out, syntax.render_frontmatter)
    return fmx.splice(rendered, marker, carry or None, _CARRY_KEY, scalar=syntax.scalar)


_PROFILE = f"---\n{syntax.TYPE_KEY}: profile\n".encode("utf-8")
_CARRY_KEY = CARRY_KEY.encode("utf-8") + b": "

#: What :func:`iter_write` reads of a record whose rendering its ``render`` gives (the splice's), at its call: its
#: link and name, and the dates its file's name and the store's ``generated:`` are made of (an episode's
#: ``happened``, the newest date of the store, a procedure's evolution). Every other field is read only to render
#: it. (A profile, whose body it reads too, is never spliced.)
SPLICED_READS = ("link", "title", "happened", "created", "updated", "last_failed", "last_succeeded", "date",
                 "evolution")
#: Where :func:`iter_write` puts a record home again, and whether it writes its file as read or a profile's date
#: anew, it works out at its call from whether the record is unchanged (:func:`_keeps_path`), which the carry of
#: what another dialect's tool added, or the read-back's marker, decides: a conversion with a record home again
#: splices nothing.
PLANS_HOME_BY_CARRY = True

__all__ += ["KIND_HOMES", "LIFECYCLE_STATES", "VERSIONS", "LADDERS", "CARRY_SLOT", "LINK_NAMING", "TITLE_IS_LINK",
            "STORE_FACTS", "FOLDER_FACTS", "ONE_LINE_FIELDS", "READS_TWICE_TO_STREAM", "WRITES_EACH_CONVERTED",
            "KEPT_SUFFIX", "each_facts", "splice", "SPLICED_READS",
            "PLANS_HOME_BY_CARRY"]
