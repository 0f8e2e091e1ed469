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


def _written_each(dialect: str, store: Store, records: list[Record]) -> list[tuple[str, bytes]]:
    """What ``dialect``'s writer writes of ``records`` given one at a time, as a conversion gives them."""
    from memconv.dialects.protocol import write_each_with

    gather, facts = dialects.declaration(dialect, "each_facts"), None
    if gather is not None:
        gathered, facts_of = gather()
        for record in records:
            gathered(record)
        facts = facts_of()
    return list(write_each_with(dialects.get(dialect), store, iter(records), None, None, facts))


@pytest.mark.parametrize("dialect", [d for d in DIALECTS if dialects.declaration(d, "WRITES_EACH_CONVERTED")])
def test_a_foreign_file_named_as_a_record_written_one_at_a_time_folds_is_set_aside(dialect):
    # A writer given records one at a time keeps no set of the files it wrote: passed_through asks its names (memoir,
    # claude: dialects.Names; memfmt: its plan, a flag each). Watched fail with Names giving back no name: the
    # foreign file was written under a name that is the record's file on macOS and Windows.
    records = [Record(kind=KIND[dialect], link=f"rec{n}", title=f"Rec {n}", body=f"text {n}\n", created="2026-01-02")
               for n in range(3)]
    alone = _written_each(dialect, Store(dialect=dialect), [Record(**{f: getattr(r, f) for f in ("kind", "link",
                          "title", "body", "created")}) for r in records])
    path = next(p for p, data in alone if b"Rec 1" in data or b"text 1" in data)
    other = path[:-4] + path[-4:].upper() if path[-4:] != path[-4:].upper() else path.upper()
    assert dialects.fold(other) == dialects.fold(path) and other != path
    store = Store(dialect=dialect, foreign=[ForeignFile(other, b"foreign bytes\n", "not a file of this dialect")])
    files = dict(_written_each(dialect, store, records))
    assert other not in files, "never written under a name the record's file has, folded"
    assert files[path] == dict(alone)[path], "the record's file is written"
    aside = [p for p, data in files.items() if data == b"foreign bytes\n"]
    assert len(aside) == 1 and aside[0].startswith(dialects.quarantine_folder(dialect, store) + "/"), aside
    assert any("a file carried from IN has the name of a file written here" in w for w in store.warnings)
