"""The one intermediate model every dialect reads into and writes out of.

Readers turn files into a :class:`Store`; writers turn a :class:`Store` back
into files. Nothing here knows about any file format: the model names what a
memory *means* (a decision, a tombstone, a link name, an anchor), and keeps,
beside that meaning, just enough of where it came from (:class:`Source`) for a
writer of the same dialect to give the user their bytes back untouched.

See ``docs/model.md`` for the contract in prose.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
from contextvars import ContextVar
from dataclasses import MISSING, dataclass, field, fields
from itertools import compress
from operator import attrgetter, is_not
from typing import Any, Callable, Iterable, Iterator

from .text import LONG_TEXT, MANY_ITEMS, repr_digest, short_digest

#: The kinds a record can be, by the question "what should a tool do with it
#: when it loads?". memoir's six types are the core vocabulary; the other
#: dialects add the kinds they have that memoir does not.
KINDS = (
    # memoir (spec v0.1.2 §3.3)
    "fact",
    "preference",
    "decision",
    "lesson",
    "goal",
    "next_action",
    # memspec
    "procedure",
    "observation",
    # memfmt
    "entity",
    "episode",
    "profile",
)

#: Lifecycle states. ``active`` is live; every other state must never be
#: presented as live by a target's tools.
LIFECYCLE_STATES = ("active", "superseded", "retired", "hidden", "done")


@dataclass(slots=True)
class Origin:
    """Where a memory came from (memoir ``origin``, claude ``originSessionId``)."""

    tool: str | None = None
    session_id: str | None = None
    machine_id: str | None = None
    #: Sub-keys nobody specified, in source order; writers keep them.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Lifecycle:
    """Whether a record is live, and if not, since when and why."""

    state: str = "active"
    #: When the record left the live set (memoir ``hidden_at``/``done_at``).
    at: str | None = None
    reason: str | None = None


@dataclass(slots=True)
class Edge:
    """A typed link from this record to another, by the target's link name."""

    #: ``supersedes``, ``superseded_by``, ``conflicts_with``, ``refines``,
    #: ``supports``, ``depends_on`` (memspec), or a relation verb (memfmt).
    type: str
    target: str
    note: str | None = None
    #: ``out`` for this record → target; ``in`` for a memfmt ``←`` relation.
    direction: str = "out"


@dataclass(slots=True)
class Anchor:
    """A pin of a claim to a file's content (memspec ``anchors``)."""

    file: str
    sha: str | None = None
    repo: str | None = None
    #: Sub-keys nobody specified, in source order.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Probe:
    """A stored command whose output witnesses a claim (memspec ``probes``).

    Kept, never run: running a probe executes a shell command, and memspec
    itself never does that on a read path.
    """

    command: str | None = None
    #: sha256 of the command's stdout when the probe was recorded.
    sha256: str | None = None
    #: Sub-keys nobody specified, in source order.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Step:
    """One step of a procedure, with its own record (memfmt ``## Steps``)."""

    action: str
    detail: str | None = None
    needs: list[str] | None = None
    gives: list[str] | None = None
    #: Unset means nobody measured — not that the step failed.
    successes: int | None = None
    failures: int | None = None


@dataclass(slots=True)
class Revision:
    """One line of a procedure's ``## Evolution``."""

    from_version: int
    to_version: int
    reason: str
    date: str | None = None
    #: What the *retiring* version had achieved; unset means unmeasured.
    successes: int | None = None
    failures: int | None = None


@dataclass(slots=True)
class Knowledge:
    """A piece of an entity's ``## Knowledge``: ``**[kind] title** — content``."""

    kind: str
    title: str
    content: str = ""
    artifact: str | None = None


class LayoutOnDisk:
    """What a :class:`Source` holds for its layout once it is let go (:meth:`Source.keep_layout_on_disk`): the
    function that reads the layout again from the source's bytes (``read_again(source)``). One serves a whole
    store (and one every Claude index), so a record holds nothing of its own for it."""

    __slots__ = ("read_again",)

    def __init__(self, read_again: Callable[["Source"], Any]):
        self.read_again = read_again

    def __repr__(self) -> str:
        return "LayoutOnDisk()"


class Source:
    """Where a record or file was read from, and how it was written there.

    A writer of the same dialect uses this to reproduce the user's bytes: when
    the record is unchanged since it was read (its fingerprint still matches),
    ``raw`` is written back as it stands; when it was edited, only what changed
    is rendered anew and the rest keeps its source formatting.

    A class with slots, not a dataclass: every record read holds one to the end of a
    conversion, and an instance's ``__dict__`` cost 200 bytes of it (docs/performance.md).
    """

    #: ``__weakref__``: a test watches the sources a conversion lets go.
    __slots__ = ("dialect", "path", "version", "fingerprint", "_layout", "_raw", "_load", "__weakref__")

    #: The dialect, e.g. ``claude``.
    dialect: str
    #: POSIX path relative to the store root, e.g. ``memory/fact_x.md``.
    path: str
    #: The dialect's version for this file, after detection (before migration).
    version: int | str | None
    #: Fingerprint of the record as the reader built it (see ``fingerprint``).
    fingerprint: str | None

    def __init__(self, dialect: str, path: str, version: int | str | None = None, raw: bytes | None = None,
                 fingerprint: str | None = None, layout: Any = None):
        self.dialect, self.path, self.version = dialect, path, version
        self.fingerprint, self._layout = fingerprint, layout
        #: The file's bytes as read; once the store is read they may live on disk only (:meth:`keep_on_disk`).
        self._raw, self._load = raw, None

    def replaced(self, **changes: Any) -> "Source":
        """A new source like this one but for ``changes`` (fields by name). Its bytes are shared as they are,
        held or to be read again: ``dataclasses.replace``, when this was a dataclass, read them from disk."""
        new = copy.copy(self)
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    @property
    def layout(self) -> Any:
        """Dialect-private notes on formatting (key order, quoting, newlines), read again from the file's bytes if
        they were let go (:meth:`keep_layout_on_disk`)."""
        layout = self._layout
        if layout.__class__ is LayoutOnDisk:
            layout = self._layout = layout.read_again(self)
        return layout

    @layout.setter
    def layout(self, value: Any) -> None:
        self._layout = value

    @property
    def has_layout(self) -> bool:
        """Whether ``layout`` gives one (held, or to be read again), without reading the file."""
        return self._layout is not None

    def keep_layout_on_disk(self, on_disk: "LayoutOnDisk") -> None:
        """Forget the layout; ``on_disk`` reads it again from the file's bytes when ``layout`` is asked for.

        For a run that asks a layout only of a record it renders anew (``memconv merge``): a third of a record as
        read, held to the end of the run (docs/merge.md, "Memory").
        """
        if self._layout is not None:
            self._layout = on_disk

    def _key(self) -> tuple:
        return (self.dialect, self.path, self.version, self.raw, self.fingerprint, self.layout)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # equal by value, and changed in place: not a dict key

    def __repr__(self) -> str:
        return (f"Source(dialect={self.dialect!r}, path={self.path!r}, version={self.version!r}, "
                f"raw={self._raw!r}, fingerprint={self.fingerprint!r}, layout={self._layout!r})")  # (not read again)

    @property
    def raw(self) -> bytes | None:
        """The file's bytes as read (from memory, or from disk again once kept on disk)."""
        if self._raw is None and self._load is not None:
            return self._load()
        return self._raw

    @raw.setter
    def raw(self, value: bytes | None) -> None:
        self._raw, self._load = value, None

    def keep_on_disk(self, load: Callable[[], bytes]) -> None:
        """Forget the bytes; ``load()`` gives them back (the same bytes, or an error) when ``raw`` is asked for.

        The input store is then held once, as records, not a second time as
        bytes (docs/performance.md). ``load`` must be picklable for ``--jobs``.
        """
        if self._raw is not None:
            self._raw, self._load = None, load

    @property
    def has_raw(self) -> bool:
        """Whether ``raw`` gives bytes (held, or to be read again), without reading the file."""
        return self._raw is not None or self._load is not None

    @property
    def size(self) -> int | None:
        """The file's size in bytes as read, without reading it again; None when its loader cannot tell."""
        if self._raw is not None:
            return len(self._raw)
        return getattr(self._load, "size", None)

    def raw_pieces(self) -> Iterator[bytes]:
        """``raw``, a piece at a time: read again from disk a megabyte at a time where it is kept there (its loader
        gives ``pieces()``, as :class:`memconv.fs.OnDisk` does), so that a large file is never held whole."""
        if self._raw is None and self._load is not None and hasattr(self._load, "pieces"):
            yield from self._load.pieces()
        elif (raw := self.raw) is not None:
            yield raw

    @property
    def raw_in_memory(self) -> bytes | None:
        """The bytes if they are held in memory, without reading the file again."""
        return self._raw

    def holds(self, data: bytes) -> bool:
        """Whether ``data`` are the file's bytes as read.

        Once the bytes live on disk only, a loader that keeps their size and digest
        (``fs.OnDisk.holds``) answers without reading the file again: a format patch asks
        this of every record read, and reading the store a second time cost more than
        digesting what is compared (docs/performance.md).
        """
        if self._raw is not None:
            return self._raw == data
        holds = getattr(self._load, "holds", None)
        if holds is not None:
            return holds(data)
        return self._load is not None and self._load() == data


@dataclass(slots=True)
class Record:
    """One memory: an entry, a claim, an observation, an entity, an episode…

    Fields that a dialect has no word for stay ``None``; ``None`` always means
    "not written down", never "false" or "empty". Lists likewise: ``None`` is
    absent, ``[]`` is written as empty.
    """

    kind: str
    #: Link name (memoir/claude filename stem, memfmt name) or id (memspec).
    link: str
    title: str | None = None
    description: str | None = None
    body: str = ""
    created: str | None = None
    updated: str | None = None
    tags: list[str] | None = None
    aliases: list[str] | None = None
    #: memoir ``project``; memspec ``scope`` is kept in ``scope``: absent and
    #: ``universal`` are different facts there.
    project: str | None = None
    scope: str | None = None
    origin: Origin | None = None
    #: Memory text source (memoir fact ``source``, memspec ``source``).
    source_text: str | None = None
    lifecycle: Lifecycle = field(default_factory=Lifecycle)
    edges: list[Edge] = field(default_factory=list)

    # Time: validity window and review dates.
    valid_from: str | None = None
    valid_to: str | None = None
    check_by: str | None = None
    expires: str | None = None
    last_verified: str | None = None
    anchors: list[Anchor] | None = None

    # Kind-specific meaning. Each belongs to one kind; see docs/model.md.
    why: str | None = None  #: decision
    rejected: str | None = None  #: decision
    date: str | None = None  #: decision: when it was decided
    trigger: str | None = None  #: lesson
    how_to_apply: str | None = None  #: lesson
    fired_count: int | None = None  #: lesson
    last_fired: str | None = None  #: lesson
    set_on: str | None = None  #: goal
    added: str | None = None  #: next_action
    machine_id: str | None = None  #: next_action
    outcome: str | None = None  #: episode
    steps: list[Step] | None = None  #: procedure
    evolution: list[Revision] | None = None  #: procedure
    facts: list[str] | None = None  #: entity
    knowledge: list[Knowledge] | None = None  #: entity

    # Witness and trust (memspec). None means the file did not say.
    #: memspec ``source_kind``: ``operator`` | ``agent`` | ``import`` (trust tier).
    source_kind: str | None = None
    #: memspec ``verified_with``: how the claim was last witnessed
    #: (``anchor``, ``probe``, ``operator``, ``evidence``, ``assertion``).
    verified_with: str | None = None
    #: memspec ``stale``: review overdue (a flag, never a deletion). ``False`` is
    #: kept apart from absent because a file can say ``stale: false``.
    stale: bool | None = None
    #: memspec ``pinned``: always surfaced in boot context.
    pinned: bool | None = None
    #: memspec probes (stored commands + sha256 of their output).
    probes: list[Probe] | None = None
    #: memspec ``ext``: the dialect's own extension map, whole and in source
    #: order (``edge_sources``, ``edge_removals``, ``legacy_confidence``,
    #: ``store_layer``…). A dedicated field rather than ``extra`` because ``ext``
    #: is a known key with a fixed place in memspec's key order, and because
    #: converters carry other dialects' unknown keys *into* it.
    ext: dict[str, Any] | None = None

    #: A record whose type the reader did not understand, kept whole: the
    #: writer reproduces it and converters carry it untouched.
    opaque: bool = False
    #: Fields nobody specified, in source order. Writers keep them.
    extra: dict[str, Any] = field(default_factory=dict)
    source: Source | None = None

    # Appended for memfmt (docs/memfmt.md): what an entity, an episode or a
    # procedure says that no field above can hold. Generic words, so another
    # dialect with the same idea can use them.
    #: A stable identifier beside the link name (memfmt ``id``); link stays the name.
    id: str | None = None
    #: entity: what sort of thing it is (memfmt ``entity_type``: person, tool…).
    category: str | None = None
    #: episode: when it happened, which is not when it was written down (``created``).
    happened: str | None = None
    valence: str | None = None  #: episode: how it went (positive, negative…)
    importance: int | None = None  #: episode
    participants: list[str] | None = None  #: episode
    preconditions: list[str] | None = None  #: procedure
    #: procedure: the workflow's own revision number, not the file format's (``Source.version``).
    version: int | None = None
    #: procedure: runs of this version that worked / failed; unset means never written down.
    successes: int | None = None
    failures: int | None = None
    last_failure: str | None = None  #: procedure: why it last went wrong, one line
    last_failed: str | None = None  #: procedure: when (ISO date)
    last_succeeded: str | None = None  #: procedure: when it last worked (ISO date)

    #: The lines of its file that hold words its dialect's reader does not read (text outside the format: a memfmt
    #: paragraph in ``## Facts`` with no ``- ``, a section of another name), as written, trimmed. Its own dialect
    #: keeps them in the file's bytes; any other shows them (``readable.show``), and a record going home from such a
    #: file cannot take them (the way back counts them dropped). None: every line of it is read.
    unread: list[str] | None = None


@dataclass
class WorkingSet:
    """memoir's session state: the live working set plus bounded history.

    ``document`` is the whole parsed ``session.json`` (at the current schema
    version, after migration), in source key order, unknown keys at every
    level included. It is already structured data, so the model keeps it as
    such; the accessors below name its parts.
    """

    document: dict[str, Any]
    source: Source | None = None

    @property
    def version(self) -> Any:
        return self.document.get("version")

    def current(self, name: str) -> list[dict[str, Any]] | None:
        """A list under ``current`` (``goals``, ``parked_actions``…), or None (also when IN holds
        something else there: a ``session.json`` is input, and may say anything)."""
        current = self.document.get("current")
        if not isinstance(current, dict):
            return None
        found = current.get(name)
        return found if isinstance(found, list) else None

    @property
    def history(self) -> list[dict[str, Any]] | None:
        """The ``history`` list, or None (also when IN holds something else there, ``"history": true``)."""
        found = self.document.get("history")
        return found if isinstance(found, list) else None


@dataclass(slots=True)
class IndexLink:
    """A ``- [Title](file.md) — hook`` line of an index."""

    title: str
    target: str
    hook: str | None = None
    #: False when the linked file is not in the store (reported, kept).
    resolved: bool = True


@dataclass(slots=True)
class IndexSection:
    heading: str | None
    links: list[IndexLink] = field(default_factory=list)
    #: Bullets with no file behind them: old stores keep memory this way, so
    #: they are content and must reach the output.
    inline: list[str] = field(default_factory=list)


@dataclass
class IndexFile:
    """An index the dialect's tool loads (claude/memfmt ``MEMORY.md``)."""

    path: str
    title: str | None = None
    sections: list[IndexSection] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    #: What it says in its own words, as its dialect reads it: every line that is not a link, a bullet
    #: or what its dialect's writer generates (a paragraph, a numbered list, a fenced block; a Claude
    #: index's title and headings, written by hand), as written, a blank line between two blocks; ""
    #: when there is none. Content: the target's user must see it.
    words: str = ""
    source: Source | None = None


@dataclass
class ForeignFile:
    """A file in the store that the dialect does not own: carried byte for byte."""

    path: str
    raw: bytes
    why: str = "not a file of this dialect"

    def reasons(self) -> list[str]:
        """Its report line's warnings: why it is carried, unless only that its dialect does not own it."""
        return [] if self.why == ForeignFile.why else [self.why]

    @classmethod
    def later(cls, path: str, render: Callable[[], bytes], why: str, *,
              in_pieces: Callable[[], Iterable[bytes]] | None = None) -> "ForeignFile":
        """A file whose bytes are made by ``render()`` each time they are asked for, not held.

        memconv's notes are rendered when they are written, so that a conversion does not
        hold every note's bytes beside the records they come from (docs/performance.md).
        ``render`` must give the same bytes every time (it reads only what it was given).
        ``in_pieces()``: the same bytes a piece at a time, for a file that may be megabytes (a store note):
        written as they are made (:attr:`to_write`).
        """
        file = cls(path, b"", why)
        file._render = render
        file._pieces = in_pieces
        return file

    @property
    def to_write(self) -> bytes | Pieces:
        """What a writer gives for this file: :class:`Pieces` for one made a piece at a time, where files are
        written in pieces (inside :func:`written_in_pieces`); else its bytes."""
        if self._pieces is not None and self._render is not None and _IN_PIECES.get():
            return Pieces(self._pieces)
        return self.raw


def _foreign_raw(self: ForeignFile) -> bytes:
    return self._render() if self._render is not None else self._raw


def _set_foreign_raw(self: ForeignFile, value: bytes) -> None:
    self._raw, self._render, self._pieces = value, None, None


# ``raw`` stays a dataclass field (``ForeignFile(path, raw)``) read through a property.
ForeignFile._raw = b""
ForeignFile._render = None
ForeignFile._pieces = None
ForeignFile.raw = property(_foreign_raw, _set_foreign_raw, doc="The file's bytes (rendered now for a note made later).")


class Pieces:
    """A file's bytes made a piece at a time each time they are iterated (``make()`` gives the pieces, the same every
    time), so that whoever writes them never holds them whole: a store note of a 100,000-entry Claude store is 23 MB,
    and the manifest of 100,000 files 11 MB (docs/performance.md). Once iterated to the end, :attr:`size` and
    :attr:`sha256` say what was written. ``bytes(pieces)`` joins them."""

    __slots__ = ("_make", "size", "sha256")

    def __init__(self, make: Callable[[], Iterable[bytes]]):
        self._make = make
        #: The number of bytes, and their SHA-256 (hex), once the pieces were iterated to the end; None before.
        self.size: int | None = None
        self.sha256: str | None = None

    def __iter__(self) -> Iterator[bytes]:
        digest, size = hashlib.sha256(), 0
        for piece in self._make():
            digest.update(piece)
            size += len(piece)
            yield piece
        self.size, self.sha256 = size, digest.hexdigest()

    def __bytes__(self) -> bytes:
        """The pieces joined in one growing buffer: an ``io.BytesIO``, whose ``getvalue()`` hands over its own bytes
        (a list of the pieces and their join held a note about three times over at once; a ``bytearray`` would be
        copied whole into the ``bytes`` returned)."""
        out = io.BytesIO()
        for piece in self._make():
            out.write(piece)
        return out.getvalue()


def in_chunks(parts: Iterable[bytes], size: int = 1 << 16) -> Iterator[bytes]:
    """``parts`` (a file's small parts: a line, a JSON token) gathered into pieces of about ``size`` bytes, for
    :class:`Pieces`: each piece is hashed and written once, not each part."""
    chunk = io.BytesIO()
    for part in parts:
        chunk.write(part)
        if chunk.tell() >= size:
            yield chunk.getvalue()
            chunk = io.BytesIO()
    if chunk.tell():
        yield chunk.getvalue()


#: Whether a file made a piece at a time is given to its writer as :class:`Pieces` (inside :func:`written_in_pieces`).
_IN_PIECES: ContextVar[bool] = ContextVar("memconv_in_pieces", default=False)


@contextlib.contextmanager
def written_in_pieces():
    """Inside the block, a writer gives a file made a piece at a time (:meth:`ForeignFile.later`'s ``in_pieces``) as
    :class:`Pieces`: for a caller that writes each file to disk as it comes and knows them (``fs.write_tree``).
    Elsewhere (a dict of files, a diff, a test) every file is bytes."""
    token = _IN_PIECES.set(True)
    try:
        yield
    finally:
        _IN_PIECES.reset(token)


@dataclass
class Quarantined:
    """A file kept out of the conversion, with its original bytes and why."""

    path: str
    raw: bytes
    reason: str
    #: 1-based line of the problem, when there is one.
    line: int | None = None

    @classmethod
    def because(cls, error: Any, path: str, raw: bytes) -> "Quarantined":
        """The quarantine entry for the file at ``path`` a reader refused with ``error`` (a ``ReadError``)."""
        hint = f" ({error.hint})" if error.hint else ""
        return cls(path, raw, error.problem + hint, error.line)


@dataclass
class Store:
    """Everything a reader found in a store, and nothing it made up."""

    dialect: str
    records: list[Record] = field(default_factory=list)
    working_set: WorkingSet | None = None
    indexes: list[IndexFile] = field(default_factory=list)
    foreign: list[ForeignFile] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)
    #: Entries of the folder that were not read at all (a FIFO, a link out of the store, an
    #: unreadable or oversized file…): path and reason, no bytes. Filled by ``pipeline.read``.
    refused: list[tuple[str, str]] = field(default_factory=list)
    #: What the migration ladder did, one human sentence per step applied.
    migrations: list[str] = field(default_factory=list)
    #: Things a person should look at that did not stop the read.
    warnings: list[str] = field(default_factory=list)
    #: Store-level facts a dialect keeps (memfmt generated date, memspec
    #: config), by name.
    meta: dict[str, Any] = field(default_factory=dict)
    #: Files of ``foreign`` a writer set aside because a name it wrote took theirs: path → where they went
    #: (``dialects.passed_through``); the report's line for each names it (``pipeline.plan``).
    aside: dict[str, str] = field(default_factory=dict)


def _containers() -> tuple[str, ...]:
    import dataclasses as dc

    return tuple(f.name for f in dc.fields(Record) if f.name != "source"
                 and not any(t in str(f.type) for t in ("str | None", "int | None", "bool | None"))
                 and f.type not in ("str", "bool"))


def clone(record: Record, *, keep_source: bool = False) -> Record:
    """A copy of ``record`` that shares nothing mutable with it (its source is dropped unless kept).

    Cheaper than ``copy.deepcopy``: only fields that hold lists, dicts or
    dataclasses are copied deeply, and the source (with its raw bytes and
    layout) is never copied.
    """
    new = copy.copy(record)
    for name in _CONTAINERS:
        value = getattr(record, name)
        if value is None:
            continue
        if isinstance(value, list) and all(isinstance(v, (str, int, float, bool)) for v in value):
            value = list(value)
        elif isinstance(value, dict) and all(isinstance(v, (str, int, float, bool, type(None)))
                                             for v in value.values()):
            value = dict(value)
        elif isinstance(value, Lifecycle):
            value = copy.copy(value)
        else:
            value = copy.deepcopy(value)
        setattr(new, name, value)
    if not keep_source:
        new.source = None
    return new


def meaning(record: Record) -> str:
    """Everything ``record`` says, as text: its ``repr`` less ``source`` (where it came from, not what it says)."""
    saved = record.source
    record.source = None
    try:
        return repr(record)
    finally:
        record.source = saved


def unedited(record: Record, dialect: str | None = None) -> bool:
    """Whether ``record`` still says what its file said when read (as ``dialect``, if given), so that
    file's bytes can be written again as they are. Reads nothing: the bytes come from ``record.source.raw``.
    """
    source = record.source
    return source is not None and (dialect is None or source.dialect == dialect) and source.has_raw \
        and source.fingerprint == fingerprint(record)


def fingerprint(record: Record) -> str:
    """A short digest that changes whenever any meaningful field of ``record`` does.

    Kept on every record's ``Source`` for the whole run, so it is a 32-character
    digest of what :func:`meaning` says (the ``repr`` of every field but ``source``,
    :data:`_SAYS`), not the text itself (which held a second copy of every record in
    memory: 65 MB at 10,000 entries, docs/performance.md).
    """
    if len(record.body or "") > LONG_TEXT or len(record.facts or ()) > MANY_ITEMS:  # (a merge may set None)
        return repr_digest(_SAYS(record), 32)  # a long body: its repr digested a piece at a time, the same digits
    return short_digest(repr(_SAYS(record)), 32)


#: Whether the records read now may be written as they were read (False inside :func:`compared_only`).
_WRITTEN_AS_READ: ContextVar[bool] = ContextVar("memconv_written_as_read", default=True)


def fingerprint_as_read(record: Record) -> str | None:
    """What a reader keeps in ``record.source.fingerprint`` as it reads: :func:`fingerprint`, or None
    for a record read inside :func:`compared_only` (None is never :func:`unedited`)."""
    return fingerprint(record) if _WRITTEN_AS_READ.get() else None


@contextlib.contextmanager
def compared_only():
    """Records read inside the block are only compared, never written as read (the converter's read-back):
    their readers digest no fingerprint, a tenth of a second of CPU at 10,000 records (docs/performance.md)."""
    token = _WRITTEN_AS_READ.set(False)
    try:
        yield
    finally:
        _WRITTEN_AS_READ.reset(token)


#: Record fields that hold containers or dataclasses, which :func:`clone` copies deeply.
_CONTAINERS = _containers()

#: Every field of a record but ``source``, as one tuple: what :func:`fingerprint` digests. The repr of
#: that tuple says what :func:`meaning` says, without the field names and the dataclass repr's
#: recursion guard (a fingerprint is made for every record read, and again for each read back).
#: ``unread`` is left out too: it is what the record's file holds where its reader does not read it, which the file's
#: bytes keep and no writer writes, so it does not make the record another than its file says.
_SAYS = attrgetter(*(f.name for f in fields(Record) if f.name not in ("source", "unread")))


#: Values ``copy.deepcopy`` returns as they are (``copy._deepcopy_atomic``'s types that a record holds).
_ATOMIC = frozenset({str, int, float, bool, type(None), bytes})


def _fast_copies(cls: type) -> None:
    """Give a slotted dataclass ``__copy__`` and ``__deepcopy__`` that set its slots one by one.

    ``copy.copy`` of a slotted dataclass goes through ``__reduce_ex__`` and
    ``copy._reconstruct`` (a dict of the slots, then ``setattr`` per slot): about
    a tenth of a conversion's time went there (docs/performance.md). These give
    the same copy: a new object of the same class whose slots hold the same
    values (``__copy__``), or their deep copies through ``memo``
    (``__deepcopy__``; strings, numbers and ``None`` are kept, as ``deepcopy``
    keeps them). An object with a slot left unset (never made by ``__init__``)
    takes the general path. ``tests/test_model_fast_copy.py`` holds both to it.
    """
    names = cls.__slots__
    shallow = "".join(f"        new.{n} = self.{n}\n" for n in names)
    deep = "".join(f"        v = self.{n}\n        new.{n} = v if v.__class__ in atomic else deepcopy(v, memo)\n"
                   for n in names)
    code = (
        "def __copy__(self):\n"
        "    new = new_(cls)\n"
        "    try:\n" + shallow +
        "    except AttributeError:\n"
        "        return reconstruct(self, None)\n"
        "    return new\n"
        "def __deepcopy__(self, memo):\n"
        "    new = new_(cls)\n"
        "    memo[id(self)] = new\n"
        "    try:\n" + deep +
        "    except AttributeError:\n"
        "        return reconstruct(self, memo)\n"
        "    return new\n"
    )

    def reconstruct(obj: Any, memo: dict | None) -> Any:
        # The general path (what ``copy`` does without these methods), for a slot left unset.
        new = new_(cls)
        if memo is not None:
            memo[id(obj)] = new
        for n in names:
            try:
                value = getattr(obj, n)
            except AttributeError:
                continue
            setattr(new, n, value if memo is None else copy.deepcopy(value, memo))
        return new

    new_ = object.__new__
    space = {"new_": new_, "cls": cls, "atomic": _ATOMIC, "deepcopy": copy.deepcopy, "reconstruct": reconstruct}
    exec(code, space)  # noqa: S102 - the code is built from the class's own slot names above
    cls.__copy__ = space["__copy__"]
    cls.__deepcopy__ = space["__deepcopy__"]


for _cls in (Origin, Lifecycle, Edge, Anchor, Probe, Step, Revision, Knowledge, Record, IndexLink, IndexSection):
    _fast_copies(_cls)
del _cls


class Packed:
    """A record held compactly while nothing reads it: the values of the fields that are not at their defaults, in
    a tuple, and the function that sets them again (one for each set of fields: every record of that shape shares
    it). A record object holds a slot for each of its 58 fields; a memory read from a file sets about ten
    (docs/performance.md). :meth:`record` gives back an equal record: a new object whose fields are the same
    objects, the fields at their defaults made anew (an empty list, dict or lifecycle of its own).

    Each field can be read without making the record again (``packed.link``, ``packed.source``: :func:`_reader`), for
    those who only look, such as a conversion's first pass over a store held packed from its read
    (docs/performance.md, "(thirty-ninth)"). A field at its default made by a factory is given a new one (an empty
    list): a change to it changes nothing. Nothing can be set: make the record (:meth:`record`) to change it."""

    __slots__ = ("make", "values")

    def __init__(self, record: Record):
        values = _ALL_FIELDS(record)
        kept = list(map(is_not, values, _DEFAULTS))
        for i in _MADE_DEFAULTS:  # an empty list or dict, or an active lifecycle, is made anew
            value, default = values[i], _DEFAULTS[i]
            kept[i] = value.__class__ is not default.__class__ or value != default
        shape = tuple(compress(_FIELD_NUMBERS, kept))
        self.make = _MAKERS.get(shape) or _maker(shape)
        self.values = tuple(compress(values, kept))

    def record(self) -> Record:
        return self.make(self.values)


def unpacked(item: Record | Packed) -> Record:
    """``item`` as a record: a record as it is, a packed one made again (a new object each time)."""
    return item.record() if item.__class__ is Packed else item


_FIELD_NAMES = tuple(f.name for f in fields(Record))
_FIELD_NUMBERS = range(len(_FIELD_NAMES))
_ALL_FIELDS = attrgetter(*_FIELD_NAMES)
#: Each field's default (a new empty list or dict, or an active lifecycle, where it has a factory; MISSING: none).
_DEFAULTS = tuple(f.default_factory() if f.default_factory is not MISSING else f.default for f in fields(Record))
_MADE_DEFAULTS = tuple(i for i, f in enumerate(fields(Record)) if f.default_factory is not MISSING)
#: The fields a packed record holds (their numbers) → the function that makes a record of their values.
_MAKERS: dict[tuple[int, ...], Callable[[tuple], Record]] = {}
#: Each of those functions → where in a packed record's values each field it sets is (:func:`_reader`).
_WHERE: dict[Callable[[tuple], Record], dict[str, int]] = {}
#: In a function made of code (:func:`_maker`, :func:`clearer`): the expression that gives each field its default,
#: by its number, and the names those expressions use.
_FACTORIES = {i: fields(Record)[i].default_factory for i in _MADE_DEFAULTS}
_DEFAULT_CODE = tuple(f"factory_{i}()" if i in _FACTORIES else f"default_{i}" for i in _FIELD_NUMBERS)
_DEFAULT_NAMES = {**{f"factory_{i}": factory for i, factory in _FACTORIES.items()},
                  **{f"default_{i}": _DEFAULTS[i] for i in _FIELD_NUMBERS if i not in _FACTORIES}}


def _reader(number: int) -> property:
    """The property that reads field ``number`` of a packed record: a property, not ``__getattr__``, which is asked
    only once the usual lookup has failed, an exception made and dropped each time."""
    name, factory, default = _FIELD_NAMES[number], _FACTORIES.get(number), _DEFAULTS[number]

    def read(packed: Packed) -> Any:
        at = _WHERE[packed.make].get(name)
        if at is not None:
            return packed.values[at]
        return factory() if factory is not None else default

    return property(read, doc=f"The record's ``{name}``.")


for _number in _FIELD_NUMBERS:
    assert _FIELD_NAMES[_number] not in Packed.__slots__
    setattr(Packed, _FIELD_NAMES[_number], _reader(_number))
del _number


def _maker(shape: tuple[int, ...]) -> Callable[[tuple], Record]:
    """The function that makes a record from the values of the fields ``shape`` numbers, the others at their
    defaults: its slots set one by one, as :func:`_fast_copies` does (``Record(**values)`` took six times as long)."""
    where = {i: k for k, i in enumerate(shape)}
    lines = [f"    new.{name} = " + (f"v[{where[i]}]" if i in where else _DEFAULT_CODE[i]) + "\n"
             for i, name in enumerate(_FIELD_NAMES)]
    space = {"new_": object.__new__, "cls": Record, **_DEFAULT_NAMES}
    exec("def make(v):\n    new = new_(cls)\n" + "".join(lines) + "    return new\n", space)  # noqa: S102
    make = _MAKERS.setdefault(shape, space["make"])
    _WHERE.setdefault(make, {_FIELD_NAMES[i]: k for k, i in enumerate(shape)})
    return make


def clearer(kept: frozenset[str]) -> Callable[[Record], None]:
    """The function that sets every field of a record but those named in ``kept`` back to its default, in place (a
    new empty list or dict, or an active lifecycle, where the field has a factory). Built once for each set of
    names, its fields set one by one, as :func:`_maker` builds a maker: a loop over the 58 fields with ``setattr``
    took three times as long, for every record a conversion lets go (docs/performance.md)."""
    found = _CLEARERS.get(kept)
    if found is not None:
        return found
    lines = [f"    record.{name} = {_DEFAULT_CODE[i]}\n" for i, name in enumerate(_FIELD_NAMES) if name not in kept]
    space = dict(_DEFAULT_NAMES)  # exec adds the function to it
    exec("def clear(record):\n" + ("".join(lines) or "    pass\n"), space)  # noqa: S102 - the class's own names
    return _CLEARERS.setdefault(kept, space["clear"])


_CLEARERS: dict[frozenset[str], Callable[[Record], None]] = {}
