"""A toy memconv dialect: ``memory.jsonl``, one JSON object per record, one record per line.

It uses only what a dialect may use (``docs/plugins.md``): the model, the
detection types, and the errors. Each line holds the fields of
:class:`memconv.model.Record` that differ from their defaults, in the model's
field order; whatever else a record holds (keys this toy does not know, and
memconv's carry) rides under ``"extra"``. A line that is not a JSON object is
quarantined with its line number; the other lines still convert.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Iterator

from memconv.dialects import Detection, evidence
from memconv import model
from memconv.errors import ReadError, StoreError
from memconv.fs import list_files, read_bytes
from memconv.model import (Anchor, Edge, ForeignFile, Knowledge, Lifecycle, Origin, Probe, Quarantined, Record, Revision,
                           Source, Step, Store, fingerprint)

NAME = "jsonl"
FILE = "memory.jsonl"
#: The fields this toy cannot hold: ``source`` is where a record was read from, never content.
_SKIPPED = ("source",)
#: Fields holding a model dataclass (or a list of them), and which.
_ONE = {"origin": Origin, "lifecycle": Lifecycle}
_MANY = {"edges": Edge, "anchors": Anchor, "probes": Probe, "steps": Step, "evolution": Revision,
         "knowledge": Knowledge}
_FIELDS = [f for f in dataclasses.fields(Record) if f.name not in _SKIPPED]


def detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None:
    """A ``memory.jsonl`` at the top of ``root`` whose first line is a JSON object with a ``kind``."""
    path = root / FILE
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        first = handle.readline(1 << 16)
    try:
        doc = json.loads(first)
    except ValueError:
        return None
    if not isinstance(doc, dict) or "kind" not in doc:
        return None
    return Detection(dialect=NAME, version=1, confidence=0.9, evidence=f"{FILE} of JSON records")


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if getattr(value, f.name) != _default(f)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _line(record: Record) -> bytes:
    doc = {f.name: _plain(getattr(record, f.name)) for f in _FIELDS if getattr(record, f.name) != _default(f)}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def read_file(path: str, raw: bytes, meta: dict) -> Record | None:
    """One line of ``memory.jsonl`` → its record (``ReadError`` when it is not one)."""
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise ReadError(path, f"is not JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("kind"), str) or not isinstance(doc.get("link"), str):
        raise ReadError(path, "is not a record: a JSON object with a string kind and link")
    known = {f.name for f in _FIELDS}
    values: dict[str, Any] = {}
    extra = dict(doc.get("extra") or {})
    for key, value in doc.items():
        if key == "extra":
            continue
        if key not in known:
            extra[key] = value  # someone's own key: kept, under extra
        elif key in _ONE:
            values[key] = _build(path, _ONE[key], value)
        elif key in _MANY:
            values[key] = [_build(path, _MANY[key], v) for v in value]
        else:
            values[key] = value
    try:
        record = Record(**values, extra=extra)
    except TypeError as exc:
        raise ReadError(path, f"is not a record: {exc}") from None
    # No ``raw``: this writer is canonical (a line is what the record says, nothing of the hand), so
    # there is no hand formatting for memconv to keep, and no format patch is made for it.
    # The source is the file the record was read from, as for any dialect (``path`` names its line too,
    # for errors): memconv tells the files a reader took in from it (an import keeps every other file).
    record.source = Source(dialect=NAME, path=FILE, version=1)
    record.source.fingerprint = fingerprint(record)
    return record


def _build(path: str, cls: type, value: Any) -> Any:
    try:
        return cls(**value)
    except TypeError as exc:
        raise ReadError(path, f"has a bad {cls.__name__.lower()}: {exc}") from None


def _lines(raw: bytes) -> Iterator[tuple[int, bytes]]:
    for number, line in enumerate(raw.splitlines(keepends=True), 1):
        if line.strip():
            yield number, line


def read_records(path: str, raw: bytes, meta: dict) -> list[Record]:
    """A whole ``memory.jsonl`` → its records, in memory (the converter reads back what it wrote)."""
    return [read_file(f"{path}#{number}", line, meta) for number, line in _lines(raw)]


def read(root: Path) -> Store:
    """``memory.jsonl`` → records; every other file of the folder is someone's own, carried byte for byte."""
    if not (root / FILE).is_file():
        raise StoreError(f"{root} is not a jsonl store: it has no {FILE}", hint=f"give a folder holding {FILE}")
    store = Store(dialect=NAME)
    for path in list_files(root):
        raw = read_bytes(root, path)
        if path != FILE:
            store.foreign.append(ForeignFile(path, raw))
            continue
        for number, line in _lines(raw):
            try:
                store.records.append(read_file(f"{FILE}#{number}", line, store.meta))
            except ReadError as exc:
                store.quarantined.append(Quarantined(path=f"{FILE}.line-{number}", raw=line,
                                                     reason=f"line {number} {exc.problem}", line=number))
    return store


def iter_write(store: Store, render=None) -> Iterator[tuple[str, bytes]]:
    """``memory.jsonl``, then the files of someone's own (memconv's notes among them), as they were."""
    records = sorted(store.records, key=lambda r: r.link)  # one order, whatever order a store was read in
    yield FILE, b"".join((render or map)(_line, records))
    for foreign in store.foreign:
        if foreign.path != FILE:
            yield foreign.path, foreign.raw


def write(store: Store) -> dict[str, bytes]:
    return dict(iter_write(store))


# --- what it declares beyond the contract's required members (docs/plugins.md, "The contract") ------------

#: Every model kind has a native home here: a line holds any record as it is.
KIND_HOMES = {kind: kind for kind in model.KINDS}
#: The fields of the model a line holds as they are: all of them.
NATIVE_FIELDS = frozenset(f.name for f in _FIELDS)
#: Every record crossing between this dialect and another, either way, says where it came from, even when
#: nothing else needs carrying: a line holds every field, so nothing else tells a record's home.
CARRY_ORIGIN = True
#: Every lifecycle state can be said (a line holds ``lifecycle`` as it is).
LIFECYCLE_STATES = frozenset(model.LIFECYCLE_STATES)


def native_link(record: Record, kind: str) -> str:
    """The link a record from another dialect gets here: its own (a line holds any link as it is)."""
    return record.link


def merge(a: Store, b: Store, hints=None):
    """Two jsonl stores merged (``memconv merge``, ``convert --into``): one record per link; the newer
    copy (``updated``, else ``created``) wins; two copies of one date that say different things are a
    conflict, the other kept as ``<link>.conflict-<digest>`` beside it. memconv's record merge
    (``memconv.merge.records``) makes it commutative and idempotent; ``finish`` adds the files no record
    owns. Imported here, not at the top: ``memconv.merge`` imports the dialects."""
    import hashlib

    from memconv.merge import Rules, Tree, finish, merge_records

    def conflict_copy(record: Record, raw: bytes) -> Record:
        copy = model.clone(record)
        copy.link = f"{record.link}.conflict-{hashlib.sha256(raw).hexdigest()[:8]}"
        return copy

    rules = Rules(dialect=NAME, identity=lambda r: r.link, raw=_line,
                  dates=lambda r: [("updated", r.updated), ("created", r.created)],
                  substance=lambda r: _line(r).decode(), combine=lambda winner, loser, tied: (winner, []),
                  conflict_copy=conflict_copy)
    if hints is not None:
        rules = hints.apply(rules)
    merged = merge_records(a.records, b.records, rules)
    tree = Tree()
    tree.files.update(write(Store(dialect=NAME, records=merged.records)))
    return finish(NAME, a, b, tree, list(merged.outcomes), [])
