"""Principle 1, asked of every golden store and target: each word of a memory's text is shown in the target.

A conversion exists so that the memory can be used in the target's tool: the carry may hold an exact copy for the
way back, but it is never the only home of content. This asks the target's own reader: every word (four letters or
more) of a converted record's text fields must be in what that reader reads of the converted store, memconv's carries
and notes left out. It found a memspec claim's scope and source, a memoir entry's project and a memfmt file's text
outside its format in the carries only (2026-12-05).

Left out on purpose, each a decision (docs/conversion.md): a record kept as a note (its state has no home in the
target), dates, ids, digests and counts, the type word of an entry kept whole (the target's own word replaces it),
the link inside ``[[…]]`` (renamed to the target's link) and a bold label's words (``**How to apply:**``, which the
target may say as a field of its own).
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from pathlib import Path

import pytest

from memconv import dialects
from memconv.converters.slots import strip_carry
from memconv.model import Record

from . import golden
from .convert_helpers import convert_files

FOUR = ("memoir", "claude", "memspec", "memfmt")
CASES = [(d, n, t) for d, n, t in golden.CONVERSIONS if d in FOUR and t in FOUR]

#: Record fields that hold no one's words: names, dates, numbers, flags, digests, structure.
NOT_WORDS = frozenset({
    "kind", "link", "id", "source", "created", "updated", "valid_from", "valid_to", "check_by", "expires",
    "last_verified", "date", "set_on", "added", "last_fired", "last_failed", "last_succeeded", "happened",
    "fired_count", "importance", "version", "successes", "failures", "machine_id", "lifecycle", "edges", "anchors",
    "probes", "opaque", "stale", "pinned", "origin", "source_kind", "verified_with"})
_WORD = re.compile(r"[^\W\d_]{4,}")
_LINK = re.compile(r"\[\[[^\]]*\]\]")
_LABEL = re.compile(r"\*\*[^*\n]{1,60}(?::\*\*|\*\*:)")


def _words(value, out: set[str]) -> None:
    if isinstance(value, str):
        out.update(w.casefold() for w in _WORD.findall(_LABEL.sub(" ", _LINK.sub(" ", value))))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _words(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "memconv":
                _words(item, out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _words(getattr(value, f.name), out)


def _said(record: Record) -> set[str]:
    """The words of ``record``'s text fields."""
    out: set[str] = set()
    for f in dataclasses.fields(Record):
        if f.name not in NOT_WORDS and not (record.opaque and f.name == "extra"):
            _words(getattr(record, f.name), out)
    if record.opaque:  # kept whole: its frontmatter, less its type word, which the target's own replaces
        _words({k: v for k, v in record.extra.items() if k not in ("type", "metadata")}, out)
    return out


def _shown(root: Path, dialect: str) -> set[str]:
    """Every word the target's reader reads of the converted store, memconv's carries and notes left out."""
    store = dialects.get(dialect).read(root)
    out: set[str] = set()
    for record in store.records:
        strip_carry(record)
        for f in dataclasses.fields(Record):
            if f.name != "source":
                _words(getattr(record, f.name), out)
        out.update(w.casefold() for w in _WORD.findall(record.link or ""))
    for index in store.indexes:
        _words(index, out)
    if store.working_set is not None:
        _words(store.working_set.document, out)
    return out


@pytest.mark.parametrize("dialect, name, target", CASES)
def test_every_word_of_a_converted_memory_is_shown(dialect, name, target):
    store = golden.read(dialect, name)
    records = list(store.records)
    files, report = convert_files(store, target)
    noted = {f.source for f in report.files if f.target_kind == "note"}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, data in files.items():
            if "/.memconv/" not in f"/{path}":
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_bytes(data)
        shown = _shown(root, target)
    hidden = {}
    for record in records:
        where = record.source.path if record.source is not None else record.link
        if where in noted:
            continue
        missing = sorted(_said(record) - shown)
        if missing:
            hidden[where] = missing
    assert not hidden, f"words of {dialect}/{name} that {target} does not show: {hidden}"
