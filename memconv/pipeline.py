"""The one-way flow: files → reader (→ ladder) → model → converter → writer → files.

The CLI is a thin shell over these functions; tests call them directly.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import zlib
from pathlib import Path
from typing import Any, Callable, Iterator

from . import dialects, fs
from .errors import StoreError, WrongDialect
from .fs import list_files
from .model import IndexFile, LayoutOnDisk, Pieces, Record, Source, Store, fingerprint
from .report import EXIT_DIFFERENCES, EXIT_QUARANTINED, FileReport, Report


def resolve_dialect(root: Path, name: str | None) -> str:
    """``name`` if given, else the dialect ``detect`` is surest of.

    Refuses (exit 2) when the folder holds several stores, or when the store
    detect found is a folder inside IN (a Claude project's ``memory/``).
    """
    if name:
        dialects.get(name)
        return name
    fs.store_folder(root)
    survey = dialects.survey(root)
    if not survey.found:
        raise StoreError(f"{root}: not a memory store memconv recognises: {survey.describe()}",
                         hint="run `memconv detect` on it, or name the dialect with --from")
    if survey.finding == "several stores":
        raise WrongDialect(f"{root}: {survey.describe()}",
                           hint="name the one to read with --from " + " or --from ".join(d.dialect for d in survey.stores))
    best = survey.found[0]
    if best.elsewhere(root):
        raise WrongDialect(f"{root}: {best.evidence}", hint=best.hint)
    return best.dialect


def confirm_dialect(root: Path, name: str | None, suggest: Callable[[str, Path], str]) -> list[str]:
    """Refuse (exit 2) a ``--from name`` that IN is not, with detect's finding and the command to run instead.

    ``suggest(dialect, folder)`` is the same command line for another dialect
    or folder. IN is refused when it is empty; when the store is a folder
    inside it; when no evidence of ``name`` is found but a store of another
    dialect is, or a confident one outweighs a weak ``name`` on the same files;
    and when nothing is detected and reading it as ``name`` finds no record,
    only other files. ``--from`` given on purpose is otherwise trusted (a folder
    of bare legacy Claude entries has no mark, yet is a claude store), and the
    warnings returned say it was read on trust.
    """
    if not name or not root.is_dir():
        return []  # no --from to check, or no folder: the reader says "no such folder" (exit 4)
    dialects.get(name)
    survey = dialects.survey(root)
    if not survey.files:
        raise WrongDialect(f"{root}: the folder is empty: there is no {name} store to read",
                           hint="give the folder that holds the store")
    mine = next((d for d in survey.found if d.dialect == name), None)
    if mine is not None and mine.elsewhere(root):
        raise WrongDialect(f"{root}: {mine.evidence}", hint=f"run: {suggest(name, mine.root)}")
    others = [d for d in survey.stores or survey.found[:1] if d.dialect != name]
    outweighed = mine is not None and any(d.confidence >= dialects.CONFIDENT and d.where == mine.where
                                          for d in others) and mine.confidence < dialects.STRONG
    if others and (mine is None or outweighed):
        runs = " or ".join(suggest(d.dialect, d.root or root) for d in others)
        raise WrongDialect(f"{root}: not a {name} store: {survey.describe()}", hint=f"run: {runs}")
    if not survey.found:
        store = read(root, name)
        if not store.records and store.working_set is None and not store.indexes:
            raise WrongDialect(f"{root}: no {name} record here, only other files: {survey.describe()}",
                               hint="give the folder that holds the store; `memconv detect` says what a folder is")
        return [f"{root}: no mark of {name} found ({survey.describe()}); read as {name} because --from says so"]
    return []


def read(root: Path, dialect: str, *, held: bool = False, each: Callable[[Record], None] | None = None,
         each_index: Callable[[IndexFile], None] | None = None, hold: Callable[[Record], Any] | None = None) -> Store:
    """The store at ``root`` as ``dialect`` reads it, with what the listing refused to read (``store.refused``).

    ``held``: keep each file's bytes in memory, for a folder that will be gone before they are asked for
    (a scratch folder); otherwise they are read again from ``root`` when needed.
    ``each``: done to every record as it is read (a conversion into another dialect lets go of what only the
    source's own writer needs, :func:`memconv.converters.forward.unformatted`); ``each_index`` likewise to
    every index (:func:`~memconv.converters.forward.unformatted_index`). Where the dialect reads one record at a
    time (its ``iter_read``, in one read of the store), each is done before the next record is read, and its
    bytes are left on disk as soon as it is read: the whole store is never held as read (docs/performance.md).
    Where it reads the store once, whole, taking ``each`` (its ``read_each``: memfmt), each is done before the
    next record is read; with ``hold``, its bytes are left on disk as it is held (its read looks at them again once
    every record is read, read again), else once the store is read.
    ``hold`` (with ``each``): what ``store.records`` holds of each record, once ``each`` is done to it (a conversion
    into another dialect holds most packed: :func:`memconv.converters.forward.held`); a store read whole without
    ``read_each`` holds its records.
    """
    stepwise = dialects.declaration(dialect, "iter_read") \
        if each is not None and not dialects.declaration(dialect, "READS_TWICE_TO_STREAM") else None
    whole_each = dialects.declaration(dialect, "read_each") if each is not None and stepwise is None else None
    with fs.noting_refusals(root) as found:
        if stepwise is not None:
            store, records = stepwise(root)
            done = 0  # the indexes read so far: each is done as soon as the record after it is read
            for record in records:
                each(record)
                if not held:
                    fs.keep_record_on_disk(root, record)
                store.records.append(record if hold is None else hold(record))
                done = _indexes_done(root, store, done, each_index, held)
            _indexes_done(root, store, done, each_index, held)
        else:
            if whole_each is not None:  # read once, whole, each record done as it is read (memfmt)
                store = whole_each(root, each, hold if hold is None or held else _on_disk_then(root, hold))
            else:
                store = dialects.get(dialect).read(root)
                for record in store.records if each is not None else ():
                    each(record)
            for index in store.indexes if each_index is not None else ():
                each_index(index)
    store.refused.extend(fs.refused_under(root, found))
    if not held:
        fs.keep_on_disk(root, store)  # the input is held once, as records; a kept-as-written file is read again
    return store


def _on_disk_then(root: Path, hold: Callable[[Record], Any]) -> Callable[[Record], Any]:
    """``hold``, with the record's bytes left on disk first (read again, and checked, when asked for)."""
    def held(record: Record) -> Any:
        fs.keep_record_on_disk(root, record)
        return hold(record)
    return held


def read_to_merge(root: Path, dialect: str) -> Store:
    """The store at ``root`` read for ``memconv merge``: as :func:`read` reads it, but where ``dialect``'s writer asks a
    record's layout only to render it anew (LAYOUT_ONLY_TO_RENDER), each record's layout is let go as it is read and
    read again from its file's bytes, by the dialect's ``read_file``, if the merge renders that record anew (an
    inherited tombstone, a conflict copy). A merge holds both stores to its end, and a layout is a third of a record
    as read (docs/merge.md, "Memory")."""
    if not dialects.declaration(dialect, "LAYOUT_ONLY_TO_RENDER"):
        return read(root, dialect)
    read_file = dialects.get(dialect).read_file
    meta: dict = {}  # the store's facts, known once it is read: before any layout is asked for again

    def read_again(source: Source) -> Any:
        again = read_file(source.path, source.raw, meta)
        return again.source.layout if again is not None and again.source is not None else None

    on_disk = LayoutOnDisk(read_again)

    def each(record: Record) -> None:
        source = record.source
        if source is not None and source.dialect == dialect and source.has_raw:
            source.keep_layout_on_disk(on_disk)

    store = read(root, dialect, each=each)
    meta.update(store.meta)
    return store


def _indexes_done(root: Path, store: Store, done: int, each_index: Callable[[IndexFile], None] | None,
                  held: bool) -> int:
    """``each_index`` done to the indexes of ``store`` from the ``done``-th on, their bytes left on disk (unless
    ``held``); how many are done now."""
    while done < len(store.indexes):
        if each_index is not None:
            each_index(store.indexes[done])
        if not held:
            fs.keep_record_on_disk(root, store.indexes[done])
        done += 1
    return done


def convert(store: Store, target: str, *, lossy: bool = False, date: str | None = None, release: bool = False,
            lazy: bool = False):
    """The store as the ``target`` dialect should see it, and the per-record report (None within a dialect).

    ``release``: ``store``'s records are handed to the conversion (:func:`memconv.converters.run`), and with
    ``lazy`` the rest of the conversion may be left for the final write (``Conversion.pending``).
    """
    if target == store.dialect:
        return store, None
    from . import converters

    conversion = converters.run(store, target, lossy=lossy, date=date, release=release, lazy=lazy)
    return conversion.store, conversion


class Plan:
    """The files a run would write, and what it reports about them.

    The files are a stream: :meth:`iter_files` renders them one at a time, in
    a fixed order, so a run writes each into the staging folder as it comes
    and never holds the whole output (docs/performance.md). ``files`` is the
    same as a dict, for small uses and tests (it holds everything). What the
    writer itself says while writing (a renamed file, an undated record) joins
    ``report.warnings`` once the stream has been read to its end, or
    :meth:`drain`-ed for a run that writes nothing.
    """

    def __init__(self, files: dict[str, bytes] | Callable[[], Iterator[tuple[str, bytes]]] | None = None,
                 report: Report | None = None, *, done: Callable[[], None] | None = None,
                 about: Callable[[], int] | None = None):
        self.report = report
        self._source = files if callable(files) else None
        self._files: dict[str, bytes] | None = None if callable(files) else dict(files or {})
        self._done = done
        self._about = about

    def count(self) -> int:
        """How many files the plan gives, known without rendering them (for a progress bar's total).

        Exact when the files are in hand; for a stream, the records, the other files and the
        quarantined copies: a writer's own index or placeholder files may add a few. Counting
        by :meth:`paths` would render the whole store once more just for the bar.
        """
        if self._files is not None or self._about is None:
            return len(self.files)
        return self._about()

    def iter_files(self) -> Iterator[tuple[str, bytes]]:
        """(relative path, bytes) of every file, each path once; rendered as it is read when the plan streams."""
        if self._files is not None:
            yield from self._sized(self._files.items())
            return
        yield from self._sized(self._source())
        self._finish()

    def _sized(self, files) -> Iterator[tuple[str, bytes]]:
        """``files``, a warning said for each larger than memconv reads (``--max-file-size``): a long memory
        carried whole beside its text is twice its size in OUT, and reading OUT again (converting it back, a
        ``--diff`` showing a change of that file) then refuses it unless it is given a larger limit. (``--check``
        and ``--force`` compare it by its hash, whatever its size.)"""
        limit = fs.limits().max_file_size
        for path, data in files:
            yield path, data
            # Looked at once it is written, when the next file is asked for: of a file in pieces, only then known.
            size = data.size if data.__class__ is Pieces else len(data)
            if size is not None and size > limit and self.report is not None:
                said = (f"{path}: written at {size:,} bytes, larger than the size limit memconv reads "
                        f"({limit:,} bytes): to convert OUT again, or to --diff a change of this file, give --max-file-size "
                        f"{-(-size // (1 << 20))}M")
                if said not in self.report.warnings:
                    self.report.warnings.append(said)

    def paths(self) -> list[str]:
        """Every path, sorted (rendering the files, not keeping them)."""
        return sorted(path for path, _ in self.iter_files())

    def drain(self) -> None:
        """Read the stream to its end, keeping nothing: the report is then complete."""
        for _ in self.iter_files():
            pass

    @property
    def files(self) -> dict[str, bytes]:
        """Every file as a dict: the whole output in memory (for small stores, tests and diffs)."""
        if self._files is None:
            self._files = dict(self.iter_files())
            self._source = None
        return self._files

    def _finish(self) -> None:
        done, self._done = self._done, None
        if done is not None:
            done()


def plan(store: Store, target: str, report: Report, *, lossy: bool = False, date: str | None = None,
         jobs: int | None = None, release: bool = False, lazy: bool = False) -> Plan:
    """Convert in memory; fill ``report``; return the files to write as a stream. Writes nothing to disk.

    ``date`` is the day the target's writer stamps where its format needs one and the store holds
    none (memfmt's ``generated:``, memspec's ``created`` of an undated record); the read-back sees
    the same day. None: each writer takes it from the records, never from the clock.
    ``jobs`` > 1 renders records in that many processes (:mod:`memconv.jobs`; None: ``--jobs``,
    else every core); the bytes are the same as with 1.
    ``release``: for a caller done with ``store``'s records (the command line), a conversion to another
    dialect takes them and lets each go once converted: ``store.records`` is empty after. Within a
    dialect nothing is taken.
    ``lazy`` (with ``release``): a conversion into a dialect that splices reads each record back and carries it
    as the stream asks for its file, so that no file is held before it is written (docs/performance.md). The
    report is then whole only once the stream is read to its end (it raises :class:`~memconv.errors.Unstreamable`
    instead when a record turns out to be one its target cannot hold: run again without ``lazy``).
    """
    from . import jobs as parallel

    with parallel.using(jobs):  # the conversion's read-back spreads over them too (converters/read_back.py)
        out_store, conversion = convert(store, target, lossy=lossy, date=date, release=release, lazy=lazy)
    if date is not None:
        out_store.meta["date"] = date
    writer = dialects.get(target)
    report.source_dialect = store.dialect
    report.target_dialect = target
    report.migrations.extend(store.migrations)
    taken: dict[str, bytes | None] = dict.fromkeys(f.path for f in out_store.foreign)  # a copy never goes over these

    arrived = frozenset(conversion.arrived) if conversion is not None else frozenset()
    home = frozenset(conversion.home) if conversion is not None else frozenset()
    pending = conversion.pending if conversion is not None else None
    renderer = parallel.renderer(jobs)
    natives = conversion.natives if conversion is not None else None
    if natives is not None:  # the writer takes the records one at a time, each let go once written
        written = _written(writer, out_store, _popping(conversion.rendered), date, arrived, home,
                           each=_one_by_one(conversion, out_store), facts=natives.facts)
    else:
        render = _pulling(conversion) if pending is not None else \
            _taking(conversion.rendered if conversion is not None else {}, renderer)
        written = _written(writer, out_store, render, date, arrived, home)  # names now
    streams = [written]

    def files() -> Iterator[tuple[str, bytes]]:
        if not streams and conversion is not None and (conversion.let_go or pending is not None):
            raise StoreError("the files of a conversion that let its records go can be read once",
                             hint="this is a bug in memconv; please report it")
        stream = streams.pop() if streams else _written(writer, out_store, renderer, date, arrived, home)
        yield from stream
        if pending is not None:
            settle()
        yield from ((path, data) for path, data in taken.items() if data is not None)  # the quarantined copies

    def settle() -> None:  # the conversion's report and what it set aside: whole once its records are written
        report.files.extend(conversion.records)
        taken.update(dict.fromkeys(f.path for f in out_store.foreign))  # the notes too, now made
        _quarantine(out_store, taken, report, store.refused, target=target)  # the source's, and any set aside

    report.warnings.extend(store.warnings)
    if out_store is not store:
        report.warnings.extend(w for w in out_store.warnings if w not in store.warnings)
    if conversion is not None:
        report.warnings.extend(w for w in conversion.warnings if w not in report.warnings)
        _restate(report.warnings, conversion.restated)
    said = len(out_store.warnings)

    def done() -> None:  # what the writer said while writing (a renamed file, an undated record)
        if pending is not None:  # what the conversion said after the records it had said when planned
            report.warnings.extend(w for w in conversion.warnings if w not in report.warnings)
            _restate(report.warnings, conversion.restated)
        report.warnings.extend(w for w in out_store.warnings[said:] if w not in report.warnings)
        if out_store.aside:  # a carried file's line names where it went, not the name the writer took
            for f in report.files:
                if f.status == "foreign" and f.target in out_store.aside:
                    f.target = out_store.aside[f.target]

    def about() -> int:
        return len(out_store.records) + (len(natives) if natives is not None else 0) + len(out_store.foreign) \
            + (out_store.working_set is not None) \
            + sum(data is not None for data in taken.values())

    result = Plan(files, report, done=done, about=about)
    if pending is not None:
        return result
    if conversion is not None:
        report.files.extend(conversion.records)
        _quarantine(out_store, taken, report, store.refused, target=target)  # the source's, and any set aside
        return result
    report.files.extend(_record_within(record, target) for record in store.records)
    _rest_within(store, target, report)
    _quarantine(store, taken, report, target=target)
    return result


def streams(dialect: str) -> bool:
    """Whether ``dialect`` reads and writes one record at a time (it declares ``iter_read`` and
    ``write_each``): then a run within it (:func:`stream_within`) never holds the whole store."""
    return dialects.declaration(dialect, "iter_read") is not None \
        and dialects.declaration(dialect, "write_each") is not None


def stream_within(root: Path, dialect: str, report: Report, *, date: str | None = None) -> tuple[Store, Plan]:
    """:func:`read` and :func:`plan` within ``dialect`` (``migrate``, ``check``) as one stream, for a
    dialect that :func:`streams`: each record is read, written and let go before the next is read, so
    the run holds the names and the report, not the store (docs/performance.md). The same files, in
    the same order, and the same report as ``plan(read(root, dialect), dialect, report)``, which is
    whole once the stream has been read to its end. The stream can be read once. The store given
    with it holds no record; the rest of it is whole once the stream has been read.
    """
    module = dialects.get(dialect)
    with fs.noting_refusals(root) as found, fs.listings_kept():
        store, records = module.iter_read(root)  # IN is listed now, inside the confinement, and read later
        # for the progress bar: the folder the reader listed (a memspec store's .memspec/, not the project
        # around it, whose files are no part of the store and whose refusals are not the run's)
        count = len(list_files(root / (store.meta.get("prefix") or "")))
    store.refused.extend(fs.refused_under(root, found))
    if date is not None:
        store.meta["date"] = date
    report.source_dialect = report.target_dialect = dialect
    from .dialects.protocol import Occasion

    told = Occasion(date=date) if date is not None else None
    unread = [records]

    def reported(records: Iterator[Record]) -> Iterator[Record]:
        done = 0  # the indexes read so far: their bytes are left on disk, as a read's are (12 MB at 100,000 links)
        for record in records:
            report.files.append(_record_within(record, dialect))
            done = _indexes_done(root, store, done, None, False)
            yield record
        _indexes_done(root, store, done, None, False)

    def files() -> Iterator[tuple[str, bytes]]:
        if not unread:
            raise RuntimeError("a streamed plan can be read once")
        yield from module.write_each(store, reported(unread.pop()), told)
        report.migrations.extend(store.migrations)
        report.warnings.extend(store.warnings)
        taken: dict[str, bytes | None] = dict.fromkeys(f.path for f in store.foreign)
        _rest_within(store, dialect, report)
        _quarantine(store, taken, report, target=dialect)
        yield from ((path, data) for path, data in taken.items() if data is not None)

    return store, Plan(files, report, about=lambda: count)


def _record_within(record: Record, dialect: str) -> FileReport:
    """A record's line in the report of a run within its dialect: kept as read, converted (a ladder
    step or an edit changed it), or opaque (kept whole)."""
    src = record.source
    unchanged = src is not None and src.dialect == dialect and src.fingerprint == fingerprint(record)
    status = "opaque" if record.opaque else "kept" if unchanged else "converted"
    return FileReport(source=src.path if src else None, source_kind=record.kind, target_kind=record.kind,
                      target=src.path if src else None, status=status)


def _rest_within(store: Store, dialect: str, report: Report) -> None:
    """The report's lines, in a run within ``dialect``, for the working set and the files no dialect reads."""
    ws = store.working_set
    if ws is not None and ws.source is not None:
        status = "migrated" if ws.source.version != ws.version else "kept"
        report.files.append(FileReport(source=ws.source.path, source_kind="working_set",
                                       target=ws.source.path, status=status))
    for foreign in store.foreign:
        report.files.append(FileReport(source=foreign.path, target=foreign.path, status="foreign",
                                       warnings=foreign.reasons()))


def _taking(rendered: dict[int, object], render: Callable | None) -> Callable | None:
    """A writer's ``render`` map that takes each record's rendering from ``rendered`` (by ``id``, and lets it
    go), and renders only the others, with ``render`` (None: here, one by one).

    ``rendered`` holds what the target's ``splice`` made of the read-back's renderings: exactly what the
    writer's own render gives (docs/performance.md, "the splice"). Empty: ``render`` itself.
    """
    if not rendered:
        return render

    def taking(function: Callable, records) -> Iterator[object]:
        records = list(records)
        others = iter((render or map)(function, [r for r in records if id(r) not in rendered]))
        for record in records:
            done = rendered.pop(id(record), None)
            yield done if done is not None else next(others)

    return taking


def _pulling(conversion) -> Callable:
    """A writer's ``render`` map for a conversion left to run as its files are asked for (``pending``): record
    ``i`` of the final store is read back, carried and spliced just before its file is made, and the file is
    taken from what was spliced (or rendered, for a record with nothing spliced) and let go.

    The records are the final store's, in the conversion's order: ``pending`` gives each native record's index
    once it is done; it is run to its end before the last record's file, so the notes and the rest of the
    report are made before the writer writes the files beside the records.
    """
    steps, rendered = conversion.pending, conversion.rendered
    done = [-1]

    def pulling(function: Callable, records) -> Iterator[object]:
        records = list(records)
        last = len(records) - 1
        for k, record in enumerate(records):
            done[0] = _run_to(steps, done[0], k, last)
            taken = rendered.pop(id(record), None)
            yield taken if taken is not None else function(record)

    return pulling


#: How many records a conversion left to its final write reads back ahead of the file it is asked for.
_PULLED = 256


def _run_to(steps: Iterator[int], done: int, k: int, last: int) -> int:
    """How far a conversion left to its final write (its ``steps``, run to record ``done``) has run once record ``k``
    of ``last + 1`` is done: a batch at a time, so that each step's code runs over many records before the other's
    does (a record at a time cost 3% more CPU) and no more than a batch of files is held; the last batch runs the
    conversion to its end, so that the notes and the rest of the report are made before the files beside the
    records are written."""
    if done >= k:
        return done
    ahead = min(k + _PULLED - 1, last)
    if ahead == last:
        _drained(steps)
        return last
    while done < ahead:
        done = next(steps)
    return done


def _one_by_one(conversion, store: Store) -> Iterator[Record]:
    """The final store's records, for a writer that takes them one at a time (``conversion.natives``): each native
    record is read back, carried and spliced (a batch ahead: :func:`_run_to`) before it is given, and let go once
    the writer asks for the next; then ``store.records`` (the working set's), once the conversion is run to its
    end. No more than a batch of native records is held whole (docs/performance.md)."""
    steps, natives = conversion.pending, conversion.natives
    done, last = -1, len(natives) - 1
    for k in range(len(natives)):
        done = _run_to(steps, done, k, last)
        yield natives.native(k)
        natives.drop(k)  # written: the writer asks for the next record only once it has rendered this one
    _drained(steps)
    yield from list(store.records)


def _popping(rendered: dict[int, object]) -> Callable:
    """A writer's ``render`` map for records given one at a time: each record's file from ``rendered`` (by ``id``,
    and let go), else rendered here."""
    def popping(function: Callable, records) -> Iterator[object]:
        for record in records:
            taken = rendered.pop(id(record), None)
            yield taken if taken is not None else function(record)

    return popping


def _drained(steps: Iterator[int]) -> None:
    for _ in steps:
        pass


def _written(writer, store: Store, render, date: str | None = None,
             arrived: frozenset[int] = frozenset(), home: frozenset[int] = frozenset(),
             each: Iterator[Record] | None = None, facts=None) -> Iterator[tuple[str, bytes]]:
    """The writer's files as a stream (a dialect without ``iter_write`` gives its dict), told ``date``, which
    records arrive from another dialect and which come home. ``each``: the records, given one at a time to the
    writer's ``write_each`` (its WRITES_EACH_CONVERTED), in place of ``store.records``, told ``facts`` (what its
    ``each_facts`` gathered of them)."""
    from .dialects.protocol import Occasion, iter_write_with, write_each_with

    told = Occasion(date=date, arrived=arrived, home=home) if date is not None or arrived or home else None
    if each is not None:
        return write_each_with(writer, store, each, render, told, facts)
    return iter_write_with(writer, store, render, told)


def _quarantine(store: Store, files: dict[str, bytes | None], report: Report,
                refused: list[tuple[str, str]] | None = None, *, target: str) -> None:
    """Copy each quarantined original to ``.memconv/quarantine/<path>`` in the folder ``target``'s reader reads
    (:func:`dialects.quarantine_folder`), never over another file; list the refused.

    ``files`` holds the paths already taken (the value may be None: a path the writer will write). In a
    ``target`` whose tools read every Markdown file (its ``KEPT_SUFFIX``), a ``.md`` copy's name gains it.
    """
    suffix = dialects.declaration(target, "KEPT_SUFFIX")
    folder = dialects.quarantine_folder(target, store)
    for q in store.quarantined:
        kept = fs.quarantine_path(q.path, files, folder, suffix)
        if kept is not None:
            files[kept] = None  # taken, as its own name: the next copy of that name is numbered
            kept = fs.kept_name(kept, suffix)
            files[kept] = q.raw
        reason = q.reason if kept is not None else q.reason + "; its name is not safe to write, so no copy was kept"
        report.quarantined.append({"path": fs.display(q.path), "line": q.line, "reason": reason, "kept_at": kept})
        report.files.append(FileReport(source=fs.display(q.path), target=kept, status="quarantined"))
    refused = store.refused if refused is None else refused
    for path, reason in refused:
        report.refused.append({"path": path, "reason": reason})
        report.files.append(FileReport(source=path, status="refused"))
    if store.quarantined or refused:
        report.exit_code = EXIT_QUARANTINED


def _problems(store: Store) -> list[str]:
    """Every quarantined file, one line each, for ``check`` (refused ones are in ``Report.refused``)."""
    return [_problem(fs.display(q.path), q.line, q.reason) for q in store.quarantined]


def _problem(path: str, line: int | None, reason: str) -> str:
    """A quarantined file's error line: ``path:line: reason``."""
    return path + (f":{line}" if line else "") + f": {reason}"


def check(root: Path, dialect: str, report: Report) -> Report:
    """Read ``root``, write it back in memory, and diff against the disk (a record at a time, where the
    dialect :func:`streams`)."""
    if streams(dialect):
        store, result = stream_within(root, dialect, report)
    else:
        store = read(root, dialect)
        result = plan(store, dialect, report)
    on_disk = _store_files(root, store)
    report.differences.extend(_compare(root, on_disk, result.iter_files(), _same(root, dialect, report, store.meta)))
    report.errors.extend(_problems(store))
    if report.differences or store.quarantined or store.refused:
        report.exit_code = EXIT_DIFFERENCES
    return report


def check_via(root: Path, dialect: str, via: str, report: Report) -> Report:
    """Round-trip ``root`` through dialect ``via`` and back, in memory, and diff against the disk."""
    store = read(root, dialect)
    there = plan(store, via, Report(command="check", input=str(root)), release=True)  # only its problems are asked again
    on_disk = _store_files(root, store)  # listed before the scratch folder confines listings to itself
    with fs.scratch_folder("via") as tmp_root:
        fs.write_files(tmp_root, ((p, b) for p, b in there.iter_files() if not dialects.in_quarantine(p)))
        back_store = read(tmp_root, via)
        back = plan(back_store, dialect, report)  # inside: the store's sources read their bytes from tmp_root
        differences = _compare(root, on_disk, back.iter_files(), _same(root, dialect, report, store.meta))
    report.source_dialect, report.target_dialect = dialect, via
    report.warnings.extend(w for w in there.report.warnings if w not in report.warnings)
    # Why a file is kept was said on the way there (its reader's reason); home again from B it is only B's
    # carried file, so its line is given the first leg's words, as ``check`` within the dialect says them.
    why = {f.source: f.warnings for f in there.report.files if f.status == "foreign" and f.warnings}
    for f in report.files:
        if f.status == "foreign" and not f.warnings and f.source in why:
            f.warnings = why[f.source]
    report.differences.extend(differences)
    report.errors.extend(_problems(store))
    # Listed and counted where a write-back in its own dialect keeps it, as ``check`` does (the copy is skipped
    # by the comparison): an error line beside "0 quarantined" said two things.
    _quarantine(store, dict.fromkeys(f.path for f in store.foreign), report, target=dialect)
    # A file the way there sets aside (text B's files cannot hold) is listed with the first leg's reason and
    # copy: it was shown deleted beside "0 quarantined", as no conversion into B says it.
    listed = {q["path"] for q in report.quarantined}
    for q in there.report.quarantined:
        if q["path"] not in listed:
            report.quarantined.append(q)
            report.errors.append(_problem(q["path"], q["line"], q["reason"]))
    report.files.extend(f for f in there.report.files if f.status == "quarantined" and f.source not in listed)
    report.exit_code = EXIT_DIFFERENCES if report.differences or store.quarantined or store.refused else 0
    return report


def _same(root: Path, dialect: str, report: Report, meta: dict) -> Callable[[str, bytes | None, bytes | None], bool]:
    """Whether a file written back in ``dialect`` is no difference from the disk: the same bytes, or a
    placeholder its writer adds (an empty file that only keeps a folder its tools write into: memspec's
    ``archive/.gitkeep``), which holds no memory. When the folder is not there either (git keeps no empty
    folder), a note says it would be added, and why. One left out is no difference either: through ``--via`` a keep
    file beside records (which memspec's own commands put there) comes back only where its folder is empty. A
    record's file that would change in its carry alone is a difference, said so (:func:`_carry_alone`). ``meta``: the
    store's facts, to read a file by."""
    placeholder = dialects.declaration(dialect, "placeholder")

    def same(path: str, before: bytes | None, after: bytes | None) -> bool:
        if before == after:
            return True
        one = after if before is None else before if after is None else None
        why = placeholder(path, one) if one is not None and placeholder is not None else None
        if why and before is None and not (root / path).parent.is_dir():
            report.warnings.append(f"{path}: would be added, an empty placeholder, not a difference: {why}")
        if not why and before is not None and after is not None \
                and (alone := _carry_alone(dialect, path, before, after, meta)) is not None:
            report.warnings.append(f"{path}: {alone}")
        return bool(why)

    return same


def _carry_alone(dialect: str, path: str, before: bytes, after: bytes, meta: dict) -> str | None:
    """What a record's file would change in, when it is memconv's carry alone: both copies read by ``dialect``'s
    reader as one record but for the carry each wears (a claim retracted with ``memspec supersede``, checked
    through memoir: home as a note holding its state, back with a carry that holds it as the note's own). None
    when the file holds no record, or anything else differs."""
    from .converters import carry as carrying
    from .converters.slots import get_carry, strip_carry
    from .errors import MemconvError

    read_file = dialects.get(dialect).read_file
    try:
        old, new = read_file(path, before, meta), read_file(path, after, meta)
        if old is None or new is None or get_carry(old) is None or get_carry(new) in (None, get_carry(old)):
            return None
        was, will = carrying.Carry.loads(get_carry(old)), carrying.Carry.loads(get_carry(new))
    except (MemconvError, ValueError, TypeError):  # a file or carry memconv reads otherwise is said where it is read
        return None
    strip_carry(old)
    strip_carry(new)
    if carrying.parts(old) != carrying.parts(new) or was.owner != will.owner:
        return None
    gains = [n for n in will.fields if n not in was.fields]
    loses = [n for n in was.fields if n not in will.fields]
    changes = [n for n in will.fields if n in was.fields and will.fields[n] != was.fields[n]]
    what = " and ".join(f"{verb} {', '.join(names)}" for verb, names in
                     (("gain", gains), ("lose", loses), ("change", changes)) if names)
    said = f"would change in memconv's carry alone, nothing {dialect} reads: "
    if not what:
        return said + f"the carry's record of how {dialect} wrote the file"
    return said + (f"the carry of its {will.owner} copy would {what}, as that copy holds it after the round trip"
                   + ("; nothing is dropped" if not loses and not changes else ""))


def _compare(root: Path, on_disk: set[str], files: Iterator[tuple[str, bytes]],
             same: Callable[[str, bytes | None, bytes | None], bool]) -> list[dict]:
    """The differences between the planned ``files`` (a stream) and the disk, by path. A copy of a file this run
    quarantines is left out, unless the disk holds one there: an earlier run's, which this run keeps."""
    found: dict[str, dict] = {}
    written: set[str] = set()
    for path, after in files:
        if path not in on_disk and dialects.in_quarantine(path):
            continue
        written.add(path)
        before = fs.read_bytes(root, path) if path in on_disk else None
        if not same(path, before, after):
            found[path] = {"path": path, "diff": git_diff(path, before, after)}
    for path in on_disk - written:
        before = fs.read_bytes(root, path)
        if not same(path, before, None):
            found[path] = {"path": path, "diff": git_diff(path, before, None)}
    return [found[path] for path in sorted(found)]


def _store_files(root: Path, store: Store) -> set[str]:
    """The files on disk that belong to the store: under its prefix, less what it leaves out on purpose."""
    prefix = store.meta.get("prefix") or ""
    left_out = set(store.meta.get("left_out", ()))
    return {p for p in list_files(root) if p.startswith(prefix) and p not in left_out}


def file_diff(path: str, before: bytes | None, after: bytes | None, old: str | None = None) -> str:
    """The change of the file at ``path`` from ``before`` to ``after`` (None: not there) as a unified diff (an empty
    file added or deleted: git's ``index`` line alone, as git prints it), or as git's binary patch
    (:func:`binary_diff`) where either side is not UTF-8 text or holds a NUL (the rule of ``text.decode``):
    escaped (``\\xff``, four characters), ``git apply`` took the patch and wrote wrong bytes. ``old``: where the
    file was, for a rename."""
    def lines(data: bytes | None) -> list[str]:
        """The lines of ``data``, each ending at ``\\n`` only, as git and ``patch`` read a file: ``splitlines`` also
        broke one at a form feed, a lone ``\\r`` or U+2028, and the next line of the hunk was printed on the same
        line of the patch, which ``git apply`` then refused whole ("corrupt patch")."""
        if not data:
            return []
        parts = data.decode("utf-8").split("\n")
        last = parts.pop()  # what follows the last newline: nothing, when the file ends with one
        return [part + "\n" for part in parts] + ([last] if last else [])

    try:
        if (before and b"\0" in before) or (after and b"\0" in after):
            return binary_diff(before, after)
        a, b = lines(before), lines(after)
    except UnicodeDecodeError:
        return binary_diff(before, after)
    for side in (a, b):
        if side and not side[-1].endswith("\n"):
            side[-1] += "\n\\ No newline at end of file\n"
    diff = "".join(difflib.unified_diff(a, b, _named("a/", old or path) if before is not None else "/dev/null",
                                        _named("b/", path) if after is not None else "/dev/null"))
    if not diff and before != after:  # an empty file added or deleted: text that differs otherwise differs in a line
        # git's own form, its ``index`` line and no hunk: a made-up ``@@`` line stopped GNU ``patch`` at an empty
        # file to delete ("Assume -R? [n]"), and was no patch git prints.
        diff = f"index {_blob_id(before)[:7]}..{_blob_id(after)[:7]}\n"
    return diff


def binary_diff(before: bytes | None, after: bytes | None) -> str:
    """Git's binary patch from ``before`` to ``after`` (None: not there), as ``git diff --binary`` prints it: the
    full ``index`` line (git refuses a binary patch without one), then ``GIT binary patch`` and a ``literal`` hunk of
    the new bytes and one of the old (``git apply -R``). ``git apply`` writes the bytes exactly; GNU ``patch``
    cannot apply a binary patch."""
    mode = " 100644" if before is not None and after is not None else ""
    return (f"index {_blob_id(before)}..{_blob_id(after)}{mode}\nGIT binary patch\n"
            f"{_literal(after or b'')}\n{_literal(before or b'')}\n")


def _blob_id(data: bytes | None) -> str:
    """The id git gives ``data`` as a blob (forty zeros for no file)."""
    return "0" * 40 if data is None else hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _literal(data: bytes) -> str:
    """A ``literal`` hunk of a binary patch: ``data`` deflated (zlib's fastest level, git's own), in base85 lines of
    up to 52 bytes, each opening with its count (``A``-``Z`` 1-26, ``a``-``z`` 27-52). ``b85encode`` has git's
    alphabet, and pads a line's last group with zeros as git does."""
    packed = zlib.compress(data, 1)
    out = [f"literal {len(data)}\n"]
    for at in range(0, len(packed), 52):
        piece = packed[at:at + 52]
        count = chr(ord("A") + len(piece) - 1) if len(piece) <= 26 else chr(ord("a") + len(piece) - 27)
        out.append(f"{count}{base64.b85encode(piece, pad=True).decode('ascii')}\n")
    return "".join(out)


def _named(side: str, path: str) -> str:
    """A ``---``/``+++`` line's name, as git writes it: a tab after a name that holds a space, where GNU ``patch``
    ends the name (it read ``memory/entities/The`` of ``memory/entities/The deploy.md``, and made that file)."""
    return f"{side}{path}\t" if " " in path else f"{side}{path}"


def git_line(old: str, new: str) -> str:
    """The line git opens each file's diff with. Printed one after the other, a rename with the same bytes has no
    ``---``/``+++`` lines of its own, and git read the next file's ``--- a/…`` as more of the rename's header
    (``git apply``: "inconsistent old filename"; ``patch`` applied that file's hunk and left the moved file where it
    was); a file added or deleted needs its mode line too, or ``git apply`` makes a file ``dev/null`` (and skips an
    empty one)."""
    return f"diff --git a/{old} b/{new}\n"


def git_diff(path: str, before: bytes | None, after: bytes | None) -> str:
    """:func:`file_diff` as git prints a file's diff: its :func:`git_line`, and the mode line of a file added
    (``before`` None) or deleted (``after`` None). Every diff memconv prints takes this (``check``'s and
    ``preview.changes``), so printed whole it is a patch ``git apply`` and ``patch -p1`` apply."""
    mode = "new file mode 100644\n" if before is None else "deleted file mode 100644\n" if after is None else ""
    return git_line(path, path) + mode + file_diff(path, before, after)


def _restate(warnings: list[str], restated: dict[str, str]) -> None:
    """``warnings`` with each warning the conversion said again otherwise (``Conversion.restated``: an edit said to
    win, then found dropped) in its new words, said once. The store read and the store converted each hold a copy
    of the conversion's first words, so the old text may stand beside the new."""
    if not restated:
        return
    new = set(restated.values())
    said: set[str] = set()
    kept = []
    for warning in (restated.get(w, w) for w in warnings):
        if warning in new:
            if warning in said:
                continue  # the new words, said already
            said.add(warning)
        kept.append(warning)
    warnings[:] = kept
