"""A writer passes the store's foreign files through after its own, each path once, and never over a
file it wrote (``dialects.passed_through``): a foreign file of IN never replaces a record's file,
nor is it written twice."""

from __future__ import annotations

import pytest

from memconv import dialects
from memconv.model import ForeignFile, Record, Store

from .convert_helpers import DIALECTS

KIND = {"memoir": "fact", "claude": "preference", "memspec": "fact", "memfmt": "entity"}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_foreign_file_never_goes_over_a_written_one(dialect):
    # Verified by dropping passed_through's check: the foreign bytes come out a second time under the path.
    module = dialects.get(dialect)
    record = Record(kind=KIND[dialect], link="a", title="A", body="the record's own text\n",
                    created="2026-01-02")
    own = module.write(Store(dialect=dialect, records=[record]))
    empty = module.write(Store(dialect=dialect))
    [path] = [p for p in own if p not in empty and not p.endswith("MEMORY.md")]  # the record's own file
    store = Store(dialect=dialect, records=[record],
                  foreign=[ForeignFile(path, b"foreign bytes\n", "not a file of this dialect"),
                           ForeignFile("notes/keep.txt", b"kept\n", "not a file of this dialect")])
    files = list(module.iter_write(store))
    paths = [p for p, _ in files]
    assert len(paths) == len(set(paths)), "each path once"
    # The record's file is written, at its path or (memfmt, which never overwrites a file it did not
    # write) under a name of its own beside it; never replaced by the foreign bytes.
    assert own[path] in dict(files).values(), "the record's file is written"
    assert dict(files)["notes/keep.txt"] == b"kept\n", "the other foreign file passes through"
