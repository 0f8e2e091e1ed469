"""The claude dialect: a Claude Code memory folder (``~/.claude/projects/<slug>/memory/``).

The store root is the memory folder itself: ``MEMORY.md`` (the index Claude
Code loads) beside one markdown file per memory, in any of the legacy shapes
of memoir spec Appendix A or Claude Code's current one. Files in subfolders,
and anything that is not markdown, are carried byte for byte.

A folder read and written back is byte-identical, ``MEMORY.md`` included. A
store from elsewhere is written in Claude Code's current format with a
generated ``MEMORY.md`` linking every entry (see ``docs/claude.md``).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from collections.abc import Mapping
from typing import Callable, Iterator

from ...errors import ReadError
from ...fs import is_folder, kept_own, list_files, read_bytes, store_folder
from ...model import ForeignFile, IndexLink, IndexSection, Quarantined, Record, Store
from .. import (Detection, evidence, Names, WrittenNames, fold, index_line_shares, passed_through,
                 rendered_as_named, unportable)
from ..protocol import NO_OCCASION, Occasion
from . import body, entries, index
from .entries import CLAUDE_TYPES, READ_AS, read_entry, write_entry
from .index import PATH as INDEX_PATH
from .index import is_index_path, read_index, read_index_layout_on_disk, relinked_index, write_index

NAME = "claude"
#: Model kind → the model kind this dialect's writer gives it a native home as; a kind left out is
#: carried whole (memconv.converters.mapping builds its tables and docs/mapping.md from this).
#: Claude Code's own types: user (preference), feedback (lesson), reference (fact),
#: project (ongoing work: decisions, goals, actions, what happened).
KIND_HOMES = {
    "fact": "fact", "preference": "preference", "decision": "decision", "lesson": "lesson",
    "goal": "goal", "next_action": "next_action", "procedure": "lesson", "observation": "fact",
    "entity": "fact", "episode": "fact", "profile": "preference",
}
#: The lifecycle states this dialect says natively; a record in another is kept out of the live set.
LIFECYCLE_STATES = frozenset({"active"})


def is_entry_path(path: str) -> bool:
    """A memory file: markdown at the top of the folder that is not an index."""
    return path.endswith(".md") and "/" not in path and not is_index_path(path)


#: Where a Claude Code project folder (``~/.claude/projects/<slug>/``) keeps its memory.
MEMORY_DIR = "memory/"


def _look(seen: evidence.Folder, prefix: str) -> tuple[evidence.Entries, bool]:
    """The Claude marks of the memory files directly in ``prefix``, and whether its MEMORY.md is Claude's index."""
    names = [p for p in seen.files if p.startswith(prefix) and is_entry_path(p[len(prefix):])]
    index_path = prefix + INDEX_PATH
    has_index = index_path in seen.files and evidence.is_claude_index(seen, index_path)
    return evidence.entries(seen, names), has_index


def _judge(found: evidence.Entries, has_index: bool) -> Detection | None:
    """A Claude Code memory folder needs its index or one entry with Claude Code frontmatter; any ``.md`` is not enough."""
    if not has_index and not found.claude:
        return None
    typed = found.typed
    # MEMORY.md says "a memory folder" but not whose: memoir-cli keeps canonical memoir entries
    # beside it too, so when entries are typed, their types decide.
    confidence = ((0.3 if has_index else 0.0) + 0.6 * found.claude / typed) if typed else 0.6
    parts = [evidence.plural(found.claude, "with Claude Code frontmatter", "with Claude Code frontmatter")]
    if found.memoir:
        parts.append(evidence.plural(found.memoir, "canonical memoir entry", "canonical memoir entries"))
    if found.bare:
        parts.append(f"{found.bare} bare")
    if found.total:
        text = f"{evidence.plural(found.total, 'memory file')} ({', '.join(parts)})"
        text += ", MEMORY.md index" if has_index else ", no MEMORY.md"
    else:
        text = "MEMORY.md index and no memory file (memory kept inline in the index)"
    legacy = found.claude_legacy_shape + found.bare
    hint = None
    if found.upgradable:
        hint = (f"{evidence.plural(found.upgradable, 'entry', 'entries')} of Claude Code's user/feedback/reference "
                "types; `memconv upgrade` rewrites them as canonical memoir")
    return Detection(NAME, "legacy" if legacy else "current", min(confidence, 1.0), text, hint)


def detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None:
    if not root.is_dir():
        return None
    seen = seen or evidence.Folder(root)
    found, has_index = _look(seen, "")
    here = _judge(found, has_index)
    if here is not None:
        return here
    # A Claude Code project folder: session transcripts (<uuid>.jsonl) beside memory/.
    transcripts = sum(1 for p in seen.files if "/" not in p and p.endswith(".jsonl"))
    if not transcripts or not is_folder(root, MEMORY_DIR):
        return None
    inside = _judge(*_look(seen, MEMORY_DIR))
    if inside is None:
        return None
    inside.evidence = (f"a Claude Code project folder ({evidence.plural(transcripts, 'session transcript')}); "
                       f"its memory folder {MEMORY_DIR} holds {inside.evidence}")
    inside.hint = f"point memconv at the memory folder itself: {root / MEMORY_DIR.rstrip('/')}"
    inside.root, inside.where = root / MEMORY_DIR.rstrip("/"), MEMORY_DIR
    return inside


def read(root: Path) -> Store:
    """Read a Claude Code memory folder. Unreadable files are quarantined, never guessed at."""
    store, records = iter_read(root)
    store.records.extend(records)
    return store


def iter_read(root: Path) -> tuple[Store, Iterator[Record]]:
    """:func:`read`, one memory at a time: the store without its records, and its records as they are read.

    IN is listed now; each file is read when the iterator reaches it. The store is whole (its
    ``MEMORY.md`` pages, foreign and quarantined files, warnings) once the records have been read to
    the end. Each memory is a file of its own, read alone, so a run that lets each record go once it
    is written holds one at a time, and the index (``migrate``, ``check``; docs/performance.md).
    """
    store_folder(root, hint="give the path of a Claude Code memory folder")
    store = Store(dialect=NAME)
    return store, _entries(root, list_files(root), store)


def _entries(root: Path, files: list[str], store: Store) -> Iterator[Record]:
    present = set(files)  # an index's links are checked against the folder
    #: The links of the indexes read so far, by the file each names, until that file is read (index_line_shares).
    listed: dict[str, IndexLink] = {}
    for path in files:
        raw = read_bytes(root, path)
        if (why := unportable(path)) is not None:
            store.quarantined.append(Quarantined(path=path, raw=raw, reason=why))
            continue
        try:
            if is_entry_path(path):
                record = read_file(path, raw, store.meta)
                if listed and (link := listed.pop(path, None)) is not None:
                    index_line_shares(link, record)
                yield record
            elif "/" not in path and is_index_path(path):
                idx, broken = read_index_layout_on_disk(raw, path, present)  # the layout: a line a link
                store.indexes.append(idx)
                _warn_broken(store, idx, broken)
                for section in idx.sections:
                    for link in section.links:
                        listed.setdefault(link.target, link)
            else:  # (a .md file memconv kept, named so that recall skips it, under its own name again)
                store.foreign.append(ForeignFile(kept_own(path, present, KEPT_SUFFIX), raw))
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))


def read_file(path: str, raw: bytes, meta: dict) -> Record | None:
    """One file as :func:`read` reads it, with no folder: its entry, or None when ``path`` is not an entry.

    Raises ``ReadError`` where :func:`read` quarantines.
    """
    return read_entry(raw, path, path[:-3]) if is_entry_path(path) else None


def _passed_through(store: Store, files: WrittenNames) -> Iterator[tuple[str, bytes]]:
    """The files no reader read (:func:`passed_through`), a ``.md`` one memconv keeps named ``.md.kept``."""
    return passed_through(store, files, KEPT_SUFFIX)


def _warn_broken(store: Store, idx, broken: list[tuple[int, str]]) -> None:
    for line, target in broken:
        store.warnings.append(f"{idx.path}:{line}: links to {target}, which is not in the folder (kept as written)")


def written_type(record: Record) -> str | None:
    """The Claude Code ``type`` word ``record`` is (or would be) written with."""
    source = record.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    if not record.opaque:
        return entries.type_word(record, layout)  # what frontmatter_pairs writes, without the rest of it
    pairs = entries.frontmatter_pairs(record, layout)
    word = pairs.get("type")
    meta = pairs.get("metadata")
    if not isinstance(word, str) and isinstance(meta, dict):
        word = meta.get("type")
    return word if isinstance(word, str) else None


#: An index's name as a case-insensitive file system sees it: ``memory.md``, ``memory-2.md``.
_INDEX_NAME = re.compile(r"memory(?:-[0-9]+)?\.md")


#: An index page's name past the first (``index.PAGE_FILE``), in any case, as macOS and Windows see it: ``memory-2.md``.
_PAGE_NAME = re.compile(index.PAGE_FILE.pattern, re.IGNORECASE)


def page_named(path: str) -> str | None:
    """The index page (``MEMORY-2.md``…) whose name ``path`` is on macOS and Windows (in any case), else None:
    a split index writes that page under that name, so no memory may keep it (``merge``)."""
    m = _PAGE_NAME.fullmatch(fold(path))
    return index.page_path(int(m.group("n"))) if m is not None else None


def _names() -> Names:
    # MEMORY.md and its pages are the index's names: a record never takes one.
    return Names(reserved=lambda path: is_index_path(path) or _INDEX_NAME.fullmatch(fold(path)) is not None)


def _place(names: Names, record: Record, context: Occasion = NO_OCCASION) -> str:
    """The path :func:`write` gives ``record``: its own file's, or ``<link>.md`` (numbered when taken, but for a
    record home again: :attr:`Occasion.home`)."""
    source = record.source
    own = source is not None and source.dialect == NAME
    return names.place(source.path if own else f"{record.link}.md", own=own or id(record) in context.home)


def generated_index(store: Store) -> dict[str, bytes]:
    """The ``MEMORY.md`` pages :func:`write` generates for ``store``, without rendering its entries.

    For a store whose records are written anew (none keeps its own index): the
    converter compares them with an index read, to learn whether it is only a
    rendering of the records.
    """
    if not store.records:
        return {}
    names = _names()
    pages, _ = index.generate((_place(names, record), record, written_type(record)) for record in store.records)
    return dict(pages)


#: Every page :func:`generated_index` makes is one Claude Code loads whole (one link a line, each far
#: shorter than a page): a ``MEMORY.md`` larger than this was written otherwise, known without making them.
GENERATED_PAGE_BYTES = index.LOADED_BYTES


def write(store: Store, context: Occasion | None = None) -> dict[str, bytes]:
    """The files of ``store`` as a Claude Code memory folder: relative path → bytes (``context``: :func:`iter_write`)."""
    return dict(iter_write(store, context=context))


def iter_write(store: Store, render=None, context: Occasion | None = None) -> Iterator[tuple[str, bytes]]:
    """The files of ``store`` one at a time, as they are rendered: (relative path, bytes), each path once.

    ``render`` maps the records to their bytes in order (``--jobs``); by default one by one, here.
    Names are made (and what they say told to ``context``, an
    :class:`~memconv.dialects.protocol.Occasion`; else put in ``store.warnings``) at the call; the
    records are rendered as the stream is read, and the index pages after the last of them, from what
    the index says of each (:data:`SPLICED_READS`): a conversion that lets its records go as they are
    written does not hold the pages beside the store it reads (docs/performance.md). A Claude Code
    memory holds no date of its writing, so the occasion's date is not used; an occasion for the
    records only gets no generated index.
    """
    context = context or NO_OCCASION
    say = context.teller(store)
    placed: list[tuple[str, Record | None]] = []
    names = _names()
    # Held for the index pages: none for the records only, into a folder with no index of its own (a format patch's
    # look at the records' own files, which may be made one at a time for it: docs/performance.md, "(thirty-ninth)").
    held = not context.records_only or bool(_own_indexes(store))
    for record in store.records:
        placed.append((_place(names, record, context), record if held else None))
    for warning in names.warnings():
        say(warning)

    def pages() -> Mapping[str, bytes]:  # made after the last record's file (_stream)
        return _pages(store, context, say, bool(placed), [(path, record) for path, record in placed
                                                          if id(record) in context.arrived],
                      lambda: (index.entry_line(path, record, written_type(record))
                               for path, record in sorted(placed, key=lambda p: p[0])))

    return _stream(store, [path for path, _ in placed], pages, render)


def write_each(store: Store, records: Iterator[Record], context: Occasion | None = None, render=None
               ) -> Iterator[tuple[str, bytes]]:
    """:func:`iter_write` for records given one at a time (:func:`iter_read`'s, or a conversion's:
    :data:`WRITES_EACH_CONVERTED`): each is named, rendered and let go before the next is asked for;
    ``store`` holds the rest (its index pages, foreign files). ``render`` maps the records to their
    bytes as they come, as :func:`iter_write`'s does.

    The same files in the same order as :func:`iter_write` of the whole store: a name depends only on the
    names given before it, and the index pages come after the records. What the index needs of a record is
    kept as it goes: nothing for a folder with its own ``MEMORY.md`` (read before the memories named in lower
    case), else its generated line. The renames are said once the last record is written.
    """
    context = context or NO_OCCASION
    names = _names()  # the files written, by name: no set of them beside (8 MB at 100,000 records)
    arrived: list[tuple[str, Record]] = []
    lines: list[index.EntryLine] = []

    def named(record: Record) -> str:
        path = _place(names, record, context)
        if id(record) in context.arrived:
            arrived.append((path, record))
        if not _own_indexes(store) and not context.records_only:  # (own: which may yet be read after it,
            # ``A.md`` comes before ``MEMORY.md``; records only: no index is generated)
            lines.append(index.entry_line(path, record, written_type(record)))
        return path

    yield from rendered_as_named(records, named, render, write_entry)
    say = context.teller(store)
    for warning in names.warnings():
        say(warning)
    written = _pages(store, context, say, len(names) > 0, arrived, lambda: _taken_sorted(lines))
    for path, data in written.items():
        names.add(path)
        yield path, data
    yield from _passed_through(store, names)


def _pages(store: Store, context: Occasion, say, any_record: bool, arrived: list[tuple[str, Record]],
           lines) -> Mapping[str, bytes]:
    """The index pages written after the records: the folder's own, with a link to each memory that ``arrived``
    from another dialect; else, for records from elsewhere, pages generated from each one's ``lines()``, each
    rendered as it is written (:class:`.index.Pages`)."""
    own = _own_indexes(store)
    written: dict[str, bytes] = {}  # the index pages: a page written twice keeps the last, as a dict did
    if own:
        linked, added = _linking_the_new(own, arrived)
        for idx, before in zip(linked, own):
            data = written[idx.path] = write_index(idx)
            if idx is before:
                if idx.path == INDEX_PATH and (over := index.past_limits(data)):
                    # Written as the person wrote it (a hand-kept index is not reflowed), but not silently.
                    say(f"{idx.path}: {over}, written as this folder's index had it: what is past the limit is not "
                        "read by Claude Code; move some of it into a topic file")
                continue
            # Read as Claude Code's index again: a link written inside a code block that never closes is
            # text, and would be added again on every trip.
            read = {link.target for section in read_index(data, idx.path, set()).sections for link in section.links}
            if not all(path in read for path, _ in added):
                written[idx.path] = write_index(before)
                for path, _ in added:
                    say(f"{path}: not linked from {idx.path}, which ends inside a code block, where a link is not "
                        "read; link it there by hand, or Claude Code will not find it")
                continue
            for path, label in added:
                say(f"{path}: linked from {idx.path} under '## {label}': a memory new to this folder, which Claude "
                    "Code finds only through its index")
            if over := index.past_limits(data):
                say(f"{idx.path}: {over} with the memories linked there, so what is past the limit is not read: "
                    "move some links into a topic file")
    elif (any_record or store.indexes) and not context.records_only:
        # Inline memory from an index of another dialect is content: it stays, in sections of its own.
        extra = [IndexSection(heading=section.heading, inline=list(section.inline))
                 for other in store.indexes for section in other.sections if section.inline]
        pages, warnings = index.generate_from(lines(), extra)
        for warning in warnings:
            say(warning)
        return pages
    return written


def _taken_sorted(lines: list) -> Iterator:
    """``lines``, sorted in place and given one at a time, the list emptied once they are all taken: the index pages
    are made of them after the last memory, and a sorted copy and the lines held to the end of the write were 7 MB
    at 100,000 memories (docs/performance.md, "(thirty-fifth)")."""
    lines.sort()
    yield from lines
    lines.clear()


def _own_indexes(store: Store) -> list:
    """The index pages of ``store`` read from this dialect: written back as they were."""
    return [i for i in store.indexes if i.source is not None and i.source.dialect == NAME]


def _linking_the_new(own: list, arrived: list[tuple[str, Record]]) -> tuple[list, list[tuple[str, str]]]:
    """The hand-written index pages, with a link to every memory that ``arrived`` from another dialect
    (:attr:`Occasion.arrived`: one added in memoir, say) and that none of them links.

    Claude Code finds a memory through ``MEMORY.md``: such a memory, written beside an index restored
    as it was, was never read. A memory home again is left as its index has it (unlinked on purpose,
    maybe). Each goes under its type's ``## `` section (the first one of that name), else a new one at the end.
    Returns the pages and (path, section heading) of each memory linked.
    """
    linked = {link.target.removeprefix("./") for idx in own for section in idx.sections for link in section.links}
    new = [(path, record) for path, record in arrived if path not in linked]
    if not new:
        return own, []
    main = next((i for i in own if i.path == INDEX_PATH), own[0])
    added = []
    sections = [dataclasses.replace(section, links=list(section.links)) for section in main.sections]
    labels = dict(index.GROUPS)
    for path, record in new:
        label = labels.get(written_type(record)) or labels[None]
        section = next((s for s in sections if s.heading == label), None)
        if section is None:
            section = IndexSection(heading=label)
            sections.append(section)
        section.links.append(index.generated_link(path, record))
        added.append((path, label))
    return [dataclasses.replace(main, sections=sections) if i is main else i for i in own], added


def _stream(store: Store, paths: list[str], pages: Callable[[], Mapping[str, bytes]], render
            ) -> Iterator[tuple[str, bytes]]:
    files: set[str] = set()
    for path, data in zip(paths, (render or map)(write_entry, store.records)):
        files.add(path)
        yield path, data
    for path, data in pages().items():
        files.add(path)
        yield path, data
    yield from _passed_through(store, files)


__all__ = ["NAME", "detect", "read", "iter_read", "read_file", "write", "iter_write", "write_each", "generated_index", "body", "entries", "index",
           "READ_AS", "written_type", "page_named"]


# --- what this dialect declares for the mapping and the edge modules (docs/plugins.md) ---

from .. import entry_frontmatter  # noqa: E402 - the shared entry text fields, declared here
from ... import frontmatter as fmx  # noqa: E402 - the splice of the carry's line

#: Its concepts, rows of docs/mapping.md: (name, the model kind it reads as or None, meaning[, store-level topic]).
CONCEPTS = (
    ("user", "preference", "constrain style"),
    ("feedback", "lesson", "change behaviour"),
    ("reference", "fact", "inform"),
    ("project (dossier) / bare file", "opaque", "orient", "kept whole"),
    ("MEMORY.md index", None, "orient", "index"),
)
#: How it holds the store-level concepts of any dialect, in words (its column of docs/mapping.md).
HOLDS = {
    "working set": "a `project` memory \"Working set\" rendering every list; the exact JSON in a note",
    "kept whole": "native",
    "index": "native",
    "lifecycle": "kept out of the live set (a note under `.memconv/notes/`)",
    "witness": "carried; anchors, probes, a supersede reason, a scope and extensions (`ext`) also shown in the "
               "body",
    "relations": "carried",
}
#: The edge types its files say: ``superseded_by``, as memoir's.
EDGE_TYPES = frozenset({"superseded_by"})
#: Its ``MEMORY.md`` is written by hand: what it says beyond its links is content.
INDEX_IS_CONTENT = True
#: Kinds Claude Code has no type for, held only through memconv's marker: ``--lossy`` writes them
#: as plain ``project`` memories, so that no memconv key is left in the files.
LOSSY_AS_DOSSIER = frozenset({"decision", "goal", "next_action", "episode", "observation", "procedure",
                              "entity", "profile"})
#: The type word a kind's file name starts with (``feedback_testing``), and every other kind's.
FILE_TYPE_WORDS = dict(entries.WRITE_AS)
FILE_TYPE_WORD_ELSE = "project"
#: The four types Claude Code knows: a record kept whole with another is a ``project`` memory here.
KEPT_WHOLE_TYPES = frozenset(CLAUDE_TYPES)
#: What a record kept whole with one of its type words is, in a dialect that keeps no record whole
#: (memoir spec Appendix A's "read as"; a ``project`` dossier is a fact there).
KEPT_WHOLE_READ_AS = {**READ_AS, "project": "fact"}
#: The text fields its memory files show, per type, and for every other type.
TEXT_FIELDS = entry_frontmatter.TEXT_FIELDS_BY_TYPE
DEFAULT_TEXT_FIELDS = entry_frontmatter.ENTRY_TEXT_FIELDS
#: The keys of its own every memory's frontmatter has: a record's unknown key of such a name is shown in the body.
OWNED_KEYS = entry_frontmatter.OWNED_KEYS
#: What Claude Code shows of every memory (``*``: its name and description), and what a feedback memory says:
#: when it applies (its trigger) and how to apply it (memoir-cli's ``validate`` warns of one without it).
REQUIRED_TEXT = {"*": ("title", "description"), "lesson": ("trigger", "how_to_apply")}
#: Claude Code reads a feedback memory's rule from its body's ``**How to apply:**`` section (memoir spec,
#: Appendix A), and memoir-cli's ``validate`` warns of a feedback memory without one: a lesson whose body has
#: no such section is given one, and no ``how_to_apply`` key (docs/claude.md).
SECTION_FIELDS = {"lesson": ("how_to_apply",)}
#: The working set is a ``project`` memory, kept whole.
WORKING_SET_AS = ("opaque", "project_working-set")


# --- what this dialect declares for the converter core (docs/plugins.md) ---

from ..protocol import CarrySlot, LinkNaming  # noqa: E402

#: No ladder: Claude Code's legacy shapes are read by the reader (memoir spec, Appendix A).
LADDERS = ()
VERSIONS = ("Claude Code memory folders (MEMORY.md and entries), current and legacy shapes "
            "(type at the top or under metadata, bare files: memoir spec Appendix A)",
            "the current Claude Code memory folder; `memconv upgrade` turns legacy folders into memoir")
#: The frontmatter key ``memconv``, a mapping: the carry sits under ``carry``, beside the writer's
#: own kind marker for a model kind Claude Code has no type for.
CARRY_SLOT = CarrySlot("extra", mapping=True, words="unknown frontmatter keys")
#: ``feedback_no-mocks``: its file type word (FILE_TYPE_WORDS above), ``_``, a slug.
LINK_NAMING = LinkNaming("typed")
#: A file it cannot read as a memory (a bare Markdown file) is kept whole, and stays bare.
OPAQUE_FILES = True
#: Its writer asks a record's layout only to render it anew: a merge reads the store without them
#: (docs/merge.md, "Memory").
LAYOUT_ONLY_TO_RENDER = True
#: memoir-cli's ``recall`` reads every ``.md`` file under a Claude Code project's memory folder, hidden folders
#: too: a note (a hidden decision, a superseded one) named ``.md`` there was handed to the agent as live memory.
#: ``.markdown`` is still Markdown to an editor, and no tool of Claude's reads it (docs/claude.md).
NOTE_SUFFIX = ".markdown"
#: For the same reason, a ``.md`` file memconv keeps as IN had it (a file passed through from another dialect's
#: store, under ``.memconv/files/``; a quarantined original, under ``.memconv/quarantine/``) is written
#: ``<name>.md.kept``, and read under its own name again: no tool of Claude's reads it (docs/claude.md).
KEPT_SUFFIX = ".kept"


def takes_link(link: str) -> bool:
    """Whether its reader reads ``<link>.md``, where its writer puts a record of that link, as a memory file."""
    return is_entry_path(f"{link}.md")


def splice(rendered: bytes, marker: str, carry: str | None) -> bytes | None:
    """What :func:`iter_write`'s render gives for a record wearing the carry ``carry`` (a string, under ``carry``
    of its ``memconv`` key; None: none), from what it gave for the record wearing ``marker`` there; None when
    the file does not show where."""
    return fmx.splice(rendered, marker, carry, b"  carry: ", b"memconv:\n")


#: What :func:`iter_write` reads of a record whose rendering its ``render`` gives (the splice's): its link, for
#: its file's name, and what the generated index says of it (its name, its description or trigger, its kind's
#: type word). Every other field is read only to render it; an opaque record, whose frontmatter is its whole
#: ``extra``, is never let go (docs/performance.md).
SPLICED_READS = ("link", "title", "description", "trigger", "opaque")
#: memoir-cli reads a Claude memory folder too, and reads ``tags: []`` as the text ``[]`` (memoir's NO_EMPTY_LISTS): a
#: record from another dialect gets an empty list of these as none, the empty list carried, as in memoir.
NO_EMPTY_LISTS = frozenset({"tags", "aliases"})
#: Its write_each names a record from the names before it alone, and keeps of it its index line (and, for a
#: record arrived where the folder has an index of its own, the record: Occasion.arrived) (protocol.OPTIONAL).
WRITES_EACH_CONVERTED = True

__all__ += ["KIND_HOMES", "LIFECYCLE_STATES", "VERSIONS", "LADDERS", "CARRY_SLOT", "LINK_NAMING", "OPAQUE_FILES",
            "NOTE_SUFFIX", "KEPT_SUFFIX", "SECTION_FIELDS", "takes_link", "NO_EMPTY_LISTS",
            "read_index", "relinked_index", "splice", "SPLICED_READS", "WRITES_EACH_CONVERTED", "LAYOUT_ONLY_TO_RENDER"]
