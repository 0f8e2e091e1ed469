"""Read back: what the target's reader makes of what its writer wrote, one file at a time, in memory."""

from __future__ import annotations

from typing import Any, Callable, Iterator, NamedTuple, Sequence

from .. import dialects
from .. import jobs as parallel
from ..dialects.protocol import Occasion, iter_write_with, write_each_with
from ..errors import ReadError, StoreError
from ..model import ForeignFile, Quarantined, Record, Store, compared_only
from .mapping import TARGET_KIND
from .slots import get_carry, set_carry, strip_carry


#: The marker a record wears while it is written and read back: which one it was.
_PROBE = "memconv-probe:"


def _marker(i: int) -> str:
    """The marker ``natives[i]`` wears while it is written and read back."""
    return f"{_PROBE}{i}"


class Prepared(NamedTuple):
    """What a worker made of a record read back (:meth:`ReadBack.take`): the path its reader gave it, and the
    caller's ``prepare``'s result."""

    path: str | None
    made: Any


class ReadBack:
    """What the target's reader makes of what its writer wrote, record by record, as it is asked for.

    Each native record wears a marker in the target's extension mechanism for
    the trip, so it is found again whatever path or link the writer gave it.
    ``also`` are the other records the final store holds (written beside them,
    not read back), so that the writer's store-wide facts are the same both times.

    The writer's files are a stream, read one at a time as :meth:`take` asks for
    the next record, and each file is read as the target's reader reads it, in
    memory: no folder, no second store, none of the reader's store-wide checks
    (their warnings are the final write's business). Neither the whole rendering
    nor the whole store read back is ever held (docs/performance.md): a writer
    gives its files in the order of its records, so a record asked for in that
    order is the next file, and the caller drops each one when it is done with it.
    """

    def __init__(self, target: str, natives: Sequence[tuple[Any, Record]], store: Store, also: list[Record] = (),
                 date: str | None = None, beside: Store | None = None, splices: bool = True,
                 home: set[int] | frozenset[int] = frozenset(),
                 prepare: Callable[[int, Record], Any] | None = None, jobs: int = 1):
        self.target = target
        self.natives = natives
        self.module = dialects.get(target)
        # A dialect whose file holds many records (a plugin's JSON Lines) reads one with ``read_records``.
        self._read_records = dialects.declaration(target, "read_records")
        # The files ``beside`` (the final store) holds beside its records, by path and without their bytes: a writer
        # names its records around them (memfmt numbers a memory named like a file of someone's own), so that the
        # read-back renders what the final write will, and the report names the file each record is written to.
        # The writer passes them through; they are not read back. Its facts (``meta``: a memspec store's operators and
        # prefix, memfmt's root) are the final write's too: the writer places and fills a record by them.
        beside = beside if beside is not None else Store(dialect=target)
        # ``natives`` made whole as they are asked for (a conversion's :class:`Natives`): the writer takes them one at a
        # time (its write_each: WRITES_EACH_CONVERTED), and holds none; else it is given the list.
        self._each = isinstance(natives, Natives)
        self._also = list(also)
        self.written = Store(dialect=f"{store.dialect}→{target}",
                             records=[] if self._each else [n for _, n in natives] + self._also,
                             foreign=[ForeignFile(f.path, b"", f.why) for f in beside.foreign],
                             quarantined=list(beside.quarantined), meta=dict(beside.meta))
        self._beside = {f.path for f in self.written.foreign}
        self._found: dict[int, Record] = {}  # records read ahead of the one asked for
        #: Which records came back, a flag each (a set of their numbers took 7 MB at 100,000): a file the reader
        #: refuses is memconv's own bug once every record came back.
        self._came_back = bytearray(len(natives))
        self._refused: tuple[str, str] | None = None
        self._files = None
        self._done = False  # every file of the stream read
        # The day the final write stamps where the format needs one: the read-back must see the same.
        # Only the records' files are read back: a writer may leave out its index (records_only).
        # The names of the records home again are the final write's too (Occasion.home).
        self._occasion = Occasion(date=date, records_only=True, home=frozenset(home))
        self._marked: set[int] = set()  # records wearing their marker, not yet taken
        # A target that can splice (its declared ``splice``) keeps what its writer rendered for each record
        # read back, so that the final write need not render it again: the carry goes where the marker was.
        # Its writer renders each record through ``render`` (the splice's contract), so a record is marked
        # only as it is rendered: a batch of them wears a marker at a time, not the whole store.
        # (``splices`` False: its writer works out at its call what a record wearing a marker changes, memfmt's
        # PLANS_HOME_BY_CARRY, so every record is marked before the call, and the final write renders them again.)
        self._splice = dialects.declaration(target, "splice") if splices else None
        self._spliceable: set[int] = set()
        self._probes: dict[int, Any] = {}  # what the writer rendered for records not yet taken
        self._taken: tuple[int, Any] | None = None  # ... and for the record taken last
        if self._splice is None:
            for i in range(len(natives)):
                self._mark(i)
        # ``prepare(i, record read back)``: what the caller makes of ``natives[i]``'s record read back, when a worker
        # can make it (None: it cannot, and the record is read here, for :meth:`take`). With ``jobs`` over one, the
        # files are read, and ``prepare`` run, in ``jobs - 1`` workers forked now, as the writer renders the next
        # files here, in the ``jobs``-th process (jobs.Spread). Only where every record is rendered here as it is
        # asked for (a target that splices) and each file holds one record.
        self._prepared: dict[int, Prepared] = {}
        self._spread = None
        if prepare is not None and jobs > 1 and self._splice is not None and self._read_records is None \
                and parallel.worth_spreading(len(natives)):
            self._prepare = prepare
            # A file no worker read is read here, and its record's carry made by the caller, as with one job.
            self._spread = parallel.Spread(self._in_worker, self._stream(), jobs - 1, here=_as_it_is)
            if self._spread.pool is None:
                self._spread = None

    def _mark(self, i: int) -> None:
        native = self.natives[i][1]
        if self._splice is not None and get_carry(native) is None:
            self._spliceable.add(i)  # its carry will be put where the marker is now (slot.put)
        set_carry(native, self.target, _marker(i))
        self._marked.add(i)

    def _stream(self) -> Iterator[tuple[str, bytes]]:
        kept = self._kept if self._splice is not None else None
        if self._each:
            return write_each_with(self.module, self.written, self._records(), kept, self._occasion,
                                   self.natives.facts)
        return iter_write_with(self.module, self.written, kept, self._occasion)

    def _records(self) -> Iterator[Record]:
        """The records written, one at a time: each native record made as the writer asks for it."""
        native = self.natives.native
        for i in range(len(self.natives)):
            yield native(i)
        yield from self._also

    def _kept(self, render: Callable[[Record], Any], records: Sequence[Record]) -> Iterator[Any]:
        """The writer's ``render`` over ``records``, one by one, each native record marked as it is rendered and
        what the writer gives for it kept."""
        if not self._each and records is not self.written.records:  # not the records given: nothing to keep
            yield from map(render, records)
            return
        natives = len(self.natives)
        for k, record in enumerate(records):
            if k < natives:
                self._mark(k)
            rendered = render(record)
            if k in self._spliceable:
                self._probes[k] = rendered
            yield rendered

    def spliced(self, i: int, carry: str | None) -> Any:
        """What the writer renders for ``natives[i]`` wearing ``carry`` (a string; None: no carry) now, from what it
        rendered for the read-back (the target's ``splice``); None when it cannot say (the final write renders it)."""
        if self._taken is None or self._taken[0] != i:
            return None
        probe, self._taken = self._taken[1], None
        return self._splice(probe, _marker(i), carry)

    def take(self, i: int) -> Record | Prepared | None:
        """The record read back for ``natives[i]`` (or what a worker's ``prepare`` made of it), or None when none
        came back; its marker is taken off."""
        if self._files is None and not self._done:
            self._files = iter(self._spread) if self._spread is not None else self._stream()
        while i not in self._found and i not in self._prepared and self._files is not None:
            self._next()
        self._unmark(i)
        probe = self._probes.pop(i, None)
        self._taken = (i, probe) if probe is not None else None
        prepared = self._prepared.pop(i, None)
        return prepared if prepared is not None else self._found.pop(i, None)

    def _next(self) -> None:
        try:
            item = next(self._files)
        except StopIteration:
            self._files, self._done = None, True
            return
        if self._spread is not None and item[0] is None:  # made in a worker
            _, n, prepared = item
            self._prepared[n] = prepared
            self._came_back[n] = 1
        else:  # a file to read here
            self._read(*item)

    def _in_worker(self, item: tuple[str, bytes]) -> tuple[str | None, Any, Any]:
        """A file of the stream, in a worker: (None, i, what ``prepare`` made of ``natives[i]``'s record read back)
        where it can, else the file itself, for :meth:`_read` here."""
        path, raw = item
        if (not raw and path in self._beside) or dialects.unportable(path) is not None:
            return item
        try:
            with compared_only():
                record = self.module.read_file(path, raw, self.written.meta)
        except ReadError:
            return item
        marker = get_carry(record) if record is not None else None
        if not (isinstance(marker, str) and marker.startswith(_PROBE)):
            return item
        n = int(marker[len(_PROBE):])
        if not 0 <= n < len(self.natives):
            return item
        if not self._each:  # (a worker is given no native record made as it is asked for: it wears no marker there)
            strip_carry(self.natives[n][1])  # as :meth:`take` does, in this worker's copy
        at = record.source.path if record.source is not None else None  # asked first: ``prepare`` may take it
        made = self._prepare(n, record)
        if made is None:
            return item
        return None, n, Prepared(at, made)

    def _read(self, path: str, raw: bytes) -> None:
        if not raw and path in self._beside:
            return  # a file beside the records, passed through without its bytes
        many = self._read_records
        why = dialects.unportable(path)
        try:
            with compared_only():  # read to be compared, never written as read: no fingerprint
                records = [] if why is not None else many(path, raw, self.written.meta) if many is not None \
                    else [self.module.read_file(path, raw, self.written.meta)]
        except ReadError as exc:
            why = Quarantined.because(exc, path, raw).reason
            records = []
        if why is not None:
            self._refused = self._refused or (path, why)
            return
        for record in records:
            marker = get_carry(record) if record is not None else None
            if isinstance(marker, str) and marker.startswith(_PROBE):
                n = int(marker[len(_PROBE):])
                if 0 <= n < len(self.natives):
                    self._found[n] = record
                    self._came_back[n] = 1

    def refused(self) -> str | None:
        """Why records did not come back (a file the target's reader refused), once every file is read."""
        while self._files is not None:
            self._next()
        if self._refused is None:
            return None
        path, reason = self._refused
        return f"its {self.target} rendering ({path}) is refused by the {self.target} reader: {reason}"

    def _unmark(self, i: int) -> None:
        if i in self._marked:
            self._marked.discard(i)
            self._spliceable.discard(i)
            strip_carry(self.natives[i][1])

    def close(self) -> None:
        """Every marker taken off; a file the reader refused when every record came back is memconv's own bug.

        (A conversion that fails before this leaves markers on its native records: they are its own copies.)
        """
        for i in list(self._marked):
            self._unmark(i)
        self._probes.clear()
        self._taken = None
        self.refused()
        if self._spread is not None:
            self._spread.close()
        if self._refused is not None and self._came_back.count(1) == len(self.natives):
            path, reason = self._refused
            raise StoreError(f"the {self.target} writer made a file its own reader refuses: {path}: {reason}",
                             hint="this is a bug in memconv; please report it")


class Natives:
    """A conversion's native records, each made whole (from what the conversion holds of it, packed) as it is first
    asked for, and let go once it is written: the records of a conversion into a dialect whose writer takes them one
    at a time (WRITES_EACH_CONVERTED), so that no more than a batch of them is ever held whole (docs/performance.md,
    "native records let go as written").

    ``natives[i]`` is (source ``i``, its native record), the native made by ``make(i)`` on the first ask (once);
    ``natives[i] = (None, n)`` lets the source go; :meth:`drop` lets the native go, after which ``natives[i]`` must
    not be asked again. A worker of ``--jobs`` (forked before any is made) asks for none.
    """

    __slots__ = ("_sources", "_made", "_make", "facts")

    def __init__(self, sources: list[Any], make: Callable[[int], Record]):
        self._sources = sources
        self._made: dict[int, Record] = {}
        self._make = make
        #: What the target's writer is told of every record before the first (its ``each_facts``), or None: set by
        #: the conversion once every record (the working set's too) is gathered, after the natives are held.
        self.facts: Any = None

    def __len__(self) -> int:
        return len(self._sources)

    def __getitem__(self, i: int) -> tuple[Any, Record]:
        return self._sources[i], self.native(i)

    def native(self, i: int) -> Record:
        """``natives[i][1]``."""
        native = self._made.get(i)
        if native is None:
            native = self._made[i] = self._make(i)
        return native

    def __setitem__(self, i: int, pair: tuple[Any, Record]) -> None:
        self._sources[i] = pair[0]

    def drop(self, i: int) -> None:
        self._made.pop(i, None)


def _as_it_is(item: Any) -> Any:
    return item


def reread(files: list[tuple[str, str, bytes]]) -> dict[tuple[str, str], Record]:
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


def one_line_per_key(record: Record) -> bool:
    """Whether no frontmatter key of ``record``'s file is written twice (YAML lets the last win)."""
    fm = getattr(getattr(record.source, "layout", None), "frontmatter", None)
    keys = [c.key for c in getattr(fm, "chunks", None) or () if c.key is not None]
    return len(keys) == len(set(keys))


def quarantine_unwritable(out: Store, original: Record, target: str, why: str | None) -> bool:
    """Set ``original``'s source file aside when the target cannot hold it; False when there is no file."""
    from ..model import Quarantined

    src = original.source
    if why is None or src is None or not src.has_raw:
        return False
    out.quarantined.append(Quarantined(path=src.path, raw=src.raw, reason=why))
    return True
