"""The memoir dialect (spec v0.1.2): ``memory/*.md`` entries and ``session.json``.

A store is a folder holding ``memory/`` and, usually, ``session.json``. The
reference tool also keeps entries straight in the host assistant's memory
folder, so a folder of entry files with no ``memory/`` inside is read as a
*flat* store, and written back the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ...errors import ReadError
from ...fs import is_file, is_folder, list_files, read_bytes, store_folder
from ...model import ForeignFile, Quarantined, Record, Store
from .. import Detection, evidence, Names, WrittenNames, passed_through, rendered_as_named, unportable
from ..protocol import NO_OCCASION, Occasion
from . import entries, session
from .entries import TYPES, read_entry, refused_values, write_entry
from .session import read_session, write_session

NAME = "memoir"
#: Model kind → the model kind this dialect's writer gives it a native home as; a kind left out is
#: carried whole (memconv.converters.mapping builds its tables and docs/mapping.md from this).
KIND_HOMES = {
    "fact": "fact", "preference": "preference", "decision": "decision", "lesson": "lesson",
    "goal": "goal", "next_action": "next_action", "procedure": "lesson", "observation": "fact",
    "entity": "fact", "episode": "fact", "profile": "preference",
}
#: The lifecycle states this dialect says natively; a record in another is kept out of the live set.
LIFECYCLE_STATES = frozenset({"active", "hidden", "done", "superseded"})
#: The version of the memoir spec a current store follows.
TARGET_SPEC = "memoir spec v0.1.2"
ENTRY_DIR = "memory"


def _layout(root: Path) -> str:
    """``nested`` (``memory/`` inside) or ``flat`` (entries in the folder itself)."""
    return "nested" if is_folder(root, ENTRY_DIR) or is_file(root, session.PATH) else "flat"


def _entry_dir(layout: str) -> str:
    return f"{ENTRY_DIR}/" if layout == "nested" else ""


def _is_entry_path(path: str, layout: str) -> bool:
    prefix = _entry_dir(layout)
    if not path.startswith(prefix) or not path.endswith(".md"):
        return False
    return _is_entry_name(path[len(prefix):])


def _is_entry_name(name: str) -> bool:
    """An entry's file name: in no folder below the entries', and not the index's (``MEMORY.md``)."""
    return "/" not in name and name != "MEMORY.md"


#: Keys of memoir's session state (spec §4) that another tool's ``session.json`` would not have together.
_SESSION_KEYS = frozenset({"current", "machines", "history", "created_at", "updated_at"})


def _session_mark(root: Path) -> tuple[bool, object]:
    """(whether ``session.json`` is a memoir session, its version) — a file of that name alone is not one."""
    from ...limits import load_json

    try:  # read as every reader reads: safely, and bounded in depth and digits
        doc = load_json(read_bytes(root, session.PATH).decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError, ReadError, OSError):
        return True, "unreadable"  # memoir's own name for its state; kept and reported, not guessed at
    # ``version`` alone is too common a key to be memoir's; these are the session's own.
    if not isinstance(doc, dict) or not (_SESSION_KEYS & set(doc) or set(doc) == {"version"}):
        return False, None
    return True, doc.get("version", 0)


def detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None:
    if not root.is_dir():
        return None
    seen = seen or evidence.Folder(root)
    layout = _layout(root)
    prefix = _entry_dir(layout)
    found = evidence.entries(seen, [p for p in seen.files if _is_entry_path(p, layout)])
    has_session, version = _session_mark(root) if is_file(root, session.PATH) else (False, None)
    index = prefix + "MEMORY.md"
    has_index = index in seen.files and evidence.is_claude_index(seen, index)
    share = 0.45 * found.memoir / found.typed if found.typed else 0.0
    if has_session:
        confidence = (0.5 if version != "unreadable" else 0.3) + share
    elif found.memoir:
        # No session.json: the entries' own types are the evidence (MEMORY.md beside them
        # is the index memoir-cli keeps in Claude Code's memory folder).
        confidence = share + (0.3 if has_index and layout == "flat" else 0.0)
    elif layout == "nested" and (found.claude or has_index) \
            and not any("/" not in p and p.endswith(".jsonl") for p in seen.files):
        # memory/ of Claude Code entries or their index, no session.json: a memoir store of legacy
        # entries (Appendix A), as `memconv upgrade IN OUT` writes one; beside session transcripts it
        # is a Claude Code project folder instead (the claude dialect says so).
        confidence = 0.3
    else:
        return None
    opaque = found.claude - found.upgradable + found.bare
    where = prefix or "./"
    text = f"{where} with {evidence.plural(found.total, 'entry file')} ({found.memoir} canonical"
    if opaque:
        text += f", {opaque} opaque, kept as written as Appendix A allows"
    if found.upgradable:
        text += f", {found.upgradable} in a legacy Claude Code type"
    text += ")" + (", MEMORY.md index" if has_index else "")
    text += f", session.json version {version!r}" if has_session else ", no session.json"
    state, hints = "current", []
    if has_session and version != 1:
        if version == 0 and not isinstance(version, bool):
            state = "legacy"
            hints.append("session.json has no version (before 1); `memconv migrate` brings it to version 1")
        else:  # newer than memconv knows, or not a number: the reader refuses it and says why
            state = "unknown"
    if found.upgradable:
        state = "legacy"
        hints.append(f"{evidence.plural(found.upgradable, 'entry', 'entries')} of Claude Code's user/feedback/"
                     "reference types; `memconv upgrade` rewrites them as canonical memoir")
    if state == "current":
        text += f"; {TARGET_SPEC}"
    return Detection(NAME, state, min(confidence, 1.0), text, "; ".join(hints) or None, where=where)


def read(root: Path) -> Store:
    """Read a memoir store. Files that cannot be read are quarantined, never guessed at."""
    store, records = iter_read(root)
    store.records.extend(records)
    return store


def iter_read(root: Path) -> tuple[Store, Iterator[Record]]:
    """:func:`read`, one entry at a time: the store without its records, and its records as they are read.

    IN is listed now; each file is read when the iterator reaches it. The store is whole (working
    set, foreign and quarantined files, warnings, ladder steps) once the records have been read to
    the end. memoir's entries are files of their own, read alone, so a run that lets each record go
    once it is written holds one at a time (``memconv migrate``, ``check``; docs/performance.md).
    """
    store_folder(root, hint="give the path of a memoir store")
    layout = _layout(root)
    store = Store(dialect=NAME, meta={"layout": layout})
    return store, _entries(root, list_files(root), store)


def _entries(root: Path, paths: list[str], store: Store) -> Iterator[Record]:
    for path in paths:
        raw = read_bytes(root, path)
        if (why := unportable(path)) is not None:
            store.quarantined.append(Quarantined(path=path, raw=raw, reason=why))
            continue
        try:
            if _is_entry_path(path, store.meta["layout"]):
                record = read_file(path, raw, store.meta)
                if (fm := record.source.layout.frontmatter) is not None and fm.refused is not None:
                    store.warnings.append(f"{fm.refused}; read line by line as memoir-cli reads it, and kept "
                                          "as written (YAML readers and memoir-cli may read it differently)")
                if record.opaque:
                    store.warnings.append(f"{path}: not a canonical memoir entry; kept whole as an opaque entry")
                yield record
            elif path == session.PATH:
                working_set, steps = read_session(raw, path)
                store.working_set = working_set
                store.migrations.extend(steps)
                _warn_session(store, working_set.document)
            else:
                store.foreign.append(ForeignFile(path, raw))
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))


def read_file(path: str, raw: bytes, meta: dict) -> Record | None:
    """One file as :func:`read` reads it, with no folder: its entry, or None when ``path`` is not an entry.

    ``meta`` is the store's facts (its ``layout``; without one, the path says it). Raises
    ``ReadError`` where :func:`read` quarantines.
    """
    layout = meta.get("layout") or ("nested" if path.startswith(_entry_dir("nested")) else "flat")
    if _is_entry_path(path, layout):
        return read_entry(raw, path, path.rsplit("/", 1)[-1][:-3])
    return None


def _warn_session(store: Store, document: dict) -> None:
    for key in ("created_at", "updated_at"):
        if key not in document:
            store.warnings.append(f"session.json: no {key!r}; left absent rather than invented")
    for key, kind in session_v0_to_v1.REQUIRED.items():  # the ladder filled what was missing or null
        parent, _, name = key.rpartition(".")
        holder = document.get(parent) if parent else document
        if isinstance(holder, dict) and name in holder and not isinstance(holder[name], kind):
            store.warnings.append(
                f"session.json: {key!r} is a JSON {json_type(holder[name])}, not {_JSON_KIND[kind]}; kept as written"
                " (it may hold data), but `memoir validate` rejects the file: fix it by hand")
    current = document.get("current")
    for name in session_v0_to_v1.REQUIRED_CURRENT if isinstance(current, dict) else ():
        items = current.get(name)
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if not _has_text(item):
                what = "an object with no text" if isinstance(item, dict) else f"a JSON {json_type(item)}"
                store.warnings.append(
                    f"session.json: 'current.{name}[{i}]' is {what}, not an object with a non-blank 'text'; kept as"
                    " written (it may hold data), but `memoir validate` rejects the file: fix it by hand")


def _has_text(item: object) -> bool:
    """Whether a session list item is what memoir-cli's validator requires: an object whose ``text`` is a string
    that is not blank once trimmed (JavaScript's ``trim()`` also strips U+FEFF)."""
    text = item.get("text") if isinstance(item, dict) else None
    return isinstance(text, str) and bool(text.replace("\ufeff", "").strip())


_JSON_KIND = {dict: "an object", list: "an array"}


def write(store: Store, context: Occasion | None = None) -> dict[str, bytes]:
    """The files of ``store`` as a memoir store: relative path → bytes (``context``: :func:`iter_write`)."""
    return dict(iter_write(store, context=context))


def iter_write(store: Store, render=None, context: Occasion | None = None) -> Iterator[tuple[str, bytes]]:
    """The files of ``store`` one at a time, as they are rendered: (relative path, bytes), each path once.

    ``render`` maps the records to their bytes in order (``--jobs``); by default one by one, here.
    Names are chosen (and renames said to ``context``, an :class:`~memconv.dialects.protocol.Occasion`;
    else in ``store.warnings``) at the call; files are rendered as they are read. memoir stamps no
    date a store does not hold, so the occasion's date is not used.
    """
    names = Names(reserved=lambda path: path == session.PATH)
    context = context or NO_OCCASION
    paths = [_place(names, record, store, context) for record in store.records]
    say = context.teller(store)
    for warning in names.warnings():
        say(warning)
    return _stream(store, paths, render)


def write_each(store: Store, records: Iterator[Record], context: Occasion | None = None, render=None
               ) -> Iterator[tuple[str, bytes]]:
    """:func:`iter_write` for records given one at a time (:func:`iter_read`'s, or a conversion's:
    :data:`WRITES_EACH_CONVERTED`): each is named, rendered and let go before the next is asked for;
    ``store`` holds the rest (its working set, foreign files). ``render`` maps the records to their bytes
    as they come, as :func:`iter_write`'s does.

    The same files in the same order as :func:`iter_write` of the whole store: a name depends only on
    the names given before it. The renames are said once the last record is written.
    """
    names = Names(reserved=lambda path: path == session.PATH)
    context = context or NO_OCCASION
    yield from rendered_as_named(records, lambda record: _place(names, record, store, context), render, write_entry)
    say = context.teller(store)
    for warning in names.warnings():
        say(warning)
    yield from _rest(store, names)  # the names given are the files written: no set of them beside (8 MB at 100,000)


def _place(names: Names, record: Record, store: Store, context: Occasion = NO_OCCASION) -> str:
    """The file ``record`` is written to: its own, read from this dialect, else its link's under the entries
    (numbered when taken, but for a record home again: :attr:`Occasion.home`)."""
    source = record.source
    own = source is not None and source.dialect == NAME
    return names.place(source.path if own else f"{_entry_dir(store.meta.get('layout', 'nested'))}{record.link}.md",
                       own=own or id(record) in context.home)


def _stream(store: Store, paths: list[str], render) -> Iterator[tuple[str, bytes]]:
    seen: set[str] = set()
    for path, data in zip(paths, (render or map)(write_entry, store.records)):
        seen.add(path)
        yield path, data
    yield from _rest(store, seen)


def _rest(store: Store, seen: WrittenNames) -> Iterator[tuple[str, bytes]]:
    """The files after the entries: ``session.json``, then the files no dialect reads."""
    if store.working_set is not None:
        seen.add(session.PATH)
        yield session.PATH, write_session(store.working_set)
    yield from passed_through(store, seen)


__all__ = ["NAME", "detect", "read", "iter_read", "read_file", "write", "iter_write", "write_each", "entries", "session"]


# --- what this dialect declares for the mapping and the edge modules (docs/plugins.md) ---

from .. import entry_frontmatter  # noqa: E402 - the shared entry text fields, declared here
from ... import frontmatter as fmx  # noqa: E402 - the splice of the carry's line

#: Its concepts, rows of docs/mapping.md: (name, the model kind it reads as or None, meaning[, store-level topic]).
CONCEPTS = (
    ("fact", "fact", "inform"),
    ("preference", "preference", "constrain style"),
    ("decision", "decision", "prevent relitigation"),
    ("lesson", "lesson", "change behaviour"),
    ("goal", "goal", "orient"),
    ("next_action", "next_action", "resume work"),
    ("session working set", None, "resume work", "working set"),
)
#: How it holds the store-level concepts of any dialect, in words (its column of docs/mapping.md).
HOLDS = {
    "working set": "native: `session.json`",
    "kept whole": "opaque entry, kept whole (a bare file stays bare, its carry in a note)",
    "index": "each inline bullet a fact entry, its own words one more; the index itself in a note, restored on "
             "the way back",
    "lifecycle": "superseded → `superseded_by`; retired → kept out of `memory/` (a note under `.memconv/notes/`)",
    "witness": "carried; anchors, probes, a supersede reason, a scope and extensions (`ext`) also shown in the "
               "body",
    "relations": "carried (relations also as wikilinks in the body)",
}
#: The edge types its files say: a decision's ``superseded_by``.
EDGE_TYPES = frozenset({"superseded_by"})
#: Its file names start with the entry's type: ``lesson_testing``.
FILE_TYPE_WORDS = {kind: kind for kind in TYPES}
#: The text fields its entry files show, per type, and for every other type.
TEXT_FIELDS = entry_frontmatter.TEXT_FIELDS_BY_TYPE
DEFAULT_TEXT_FIELDS = entry_frontmatter.ENTRY_TEXT_FIELDS
#: The keys of its own every memory's frontmatter has: a record's unknown key of such a name is shown in the body.
OWNED_KEYS = entry_frontmatter.OWNED_KEYS
#: What ``memoir validate`` expects of every entry (``*``) and of a lesson, in the order it is filled.
REQUIRED_TEXT = {"*": ("title", "description"), "lesson": ("trigger", "how_to_apply")}
#: Its frontmatter's text, on one line (spec §2: a YAML subset read without a YAML engine, no block
#: scalars; §3.2: the description is one line): memoir-cli shows an escaped ``\n`` as it stands.
ONE_LINE_FIELDS = frozenset({"title", "description", "created", "updated", "project", "tags", "aliases",
                             "source_text", "scope", "date", "why", "rejected", "trigger", "how_to_apply",
                             "set_on", "added", "last_fired", "machine_id", "extra"})
#: Its frontmatter has no empty list (spec §3.1: ``- item`` lists): memoir-cli reads ``tags: []`` as the text ``[]``,
#: and its own list edit (its MCP ``save`` with tags or aliases) made that a tag.
NO_EMPTY_LISTS = frozenset({"tags", "aliases"})
#: What its working set (``session.json``) is, in the record that shows it elsewhere.
WORKING_SET_DESCRIPTION = "What the memoir session was doing: goals, next actions, open questions, recent decisions"
#: Its working set's file format: ``session.json`` bytes ↔ a :class:`~memconv.model.WorkingSet`.
read_working_set = read_session
write_working_set = write_session


# --- what this dialect declares for the converter core (docs/plugins.md) ---

from ...migrations.memoir import ENTRY, SESSION, json_type, session_v0_to_v1  # noqa: E402
from ..protocol import CarrySlot, LinkNaming  # noqa: E402

VERSIONS = ("memoir spec v0.1.2 stores (nested memory/ or flat); session.json without version (0) or 1; "
            "entries of schema_version 1", "memoir spec v0.1.2, session.json version 1")
#: session.json's ladder, and the entries' (version 1 only, so far).
LADDERS = (SESSION, ENTRY)
#: The carry is the frontmatter key ``memconv`` (an unknown key, which memoir's tools keep).
CARRY_SLOT = CarrySlot("extra", words="unknown frontmatter keys")
#: ``fact_staging-api``: the kind (its file type word), ``_``, the slug of the record's name (memoir spec §3).
LINK_NAMING = LinkNaming("typed")
#: A legacy entry (no memoir frontmatter) is kept whole as a file of ``memory/``.
OPAQUE_FILES = True
#: Its writer asks a record's layout only to render it anew: a merge reads the store without them
#: (docs/merge.md, "Memory").
LAYOUT_ONLY_TO_RENDER = True
#: Where entries live when the store says nothing: ``memory/<kind>/`` folders.
STORE_FACTS = {"layout": "nested"}


def takes_link(link: str) -> bool:
    """Whether its reader reads ``<link>.md``, where its writer puts a record of that link, as an entry."""
    return _is_entry_name(f"{link}.md")


def kind_says_state(record: Record, kind: str | None) -> bool:
    """Whether a memoir entry of ``kind`` can say ``record``'s state: memoir marks it per type.

    A decision is ``hidden`` (``memoir forget``), or ``superseded`` with its
    ``superseded_by``; a goal or next action is ``done`` with its date.
    """
    state = record.lifecycle.state
    if state == "active":
        return True
    if state == "hidden":
        return kind == "decision"
    if state == "superseded":
        return kind == "decision" and any(e.type == "superseded_by" for e in record.edges)
    return state == "done" and kind in ("goal", "next_action") and record.lifecycle.at is not None


def marks_edited_state(record: Record) -> bool:
    """Whether memoir, the record's home, can mark a state it was given elsewhere; a decision taken
    back there is forgotten here (``hidden``)."""
    state, kind = record.lifecycle.state, record.kind
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


def splice(rendered: bytes, marker: str, carry: str | None) -> bytes | None:
    """What :func:`iter_write`'s render gives for a record wearing the carry ``carry`` (a string, its ``memconv``
    key; None: no such key), from what it gave for the record wearing ``marker`` there; None when the file does
    not show where."""
    return fmx.splice(rendered, marker, carry, b"memconv: ")


#: What :func:`iter_write` reads of a record whose rendering its ``render`` gives (the splice's): its link, for
#: its file's name (a record from another dialect has no memoir source). Every other field is read only to
#: render it.
SPLICED_READS = ("link",)
#: Its write_each names a record from the names before it alone, and keeps none (protocol.OPTIONAL).
WRITES_EACH_CONVERTED = True
#: memoir-cli's event log (its src/events/log.js), which it only appends to: a copy with lines the other lacks
#: is an edit of that side, not a conflict (merge.memoir: _appended).
APPEND_ONLY = ("events.jsonl",)


__all__ += ["KIND_HOMES", "LIFECYCLE_STATES", "VERSIONS", "LADDERS", "CARRY_SLOT", "LINK_NAMING", "takes_link",
            "OPAQUE_FILES", "STORE_FACTS", "kind_says_state", "marks_edited_state", "ONE_LINE_FIELDS",
            "NO_EMPTY_LISTS", "splice", "SPLICED_READS", "WRITES_EACH_CONVERTED", "LAYOUT_ONLY_TO_RENDER",
            "APPEND_ONLY", "refused_values"]
