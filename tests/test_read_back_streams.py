"""The read-back is a stream: each record's rendering is read back when its carry is made, and
dropped after it, so the whole rendering and the whole store read back are never held at once
(issue 12, item 1: bounded memory; docs/performance.md)."""

from __future__ import annotations

import pytest

from memconv import pipeline
from memconv.converters import read_back
from memconv.report import Report

from .bench_support import bench_module
from .convert_helpers import DIALECTS


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    make = bench_module("generators").make
    base = tmp_path_factory.mktemp("stores")
    return {d: make(d, base / d, 60) for d in DIALECTS}


#: Every cross pair (a migration reads nothing back).
PAIRS = [(s, t) for s in DIALECTS for t in DIALECTS if s != t]


@pytest.mark.parametrize("source,target", PAIRS)
def test_records_are_read_back_one_at_a_time(stores, source, target, monkeypatch):
    held: list[int] = []
    took: list[int] = []
    real = read_back.ReadBack.take

    def take(self, i):
        record = real(self, i)
        held.append(len(self._found))  # read ahead of the record asked for, and still held
        took.append(i)
        return record

    monkeypatch.setattr(read_back.ReadBack, "take", take)
    store = pipeline.read(stores[source], source)
    plan = pipeline.plan(store, target, Report(command="convert", input="in"), jobs=1)
    assert took == sorted(took) and len(took) >= 50, "every record is asked for, in order"
    # Verified by reading the whole rendering first (take draining the stream): 50+ records held.
    assert max(held) <= 1, f"at most the next record is held ahead, not the store ({max(held)})"
    assert plan.count() > 0


@pytest.mark.parametrize("source,target", PAIRS)
def test_a_record_read_back_digests_no_fingerprint(stores, source, target, monkeypatch):
    # Read back only to be compared, it is never written as read (model.compared_only): a fingerprint
    # of it is work for nothing. Verified by reading without compared_only: fails for every pair.
    kept: list = []  # the fingerprint of each record as it is read back (mapped home, it loses its source)
    real = read_back.ReadBack.take

    def take(self, i):
        record = real(self, i)
        if record is not None and record.source is not None:
            kept.append(record.source.fingerprint)
        return record

    monkeypatch.setattr(read_back.ReadBack, "take", take)
    pipeline.plan(pipeline.read(stores[source], source), target, Report(command="convert", input="x"))
    assert kept and set(kept) == {None}
    store = pipeline.read(stores[source], source)
    assert all(r.source.fingerprint for r in store.records if not r.opaque), "a store read to be written keeps them"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_the_targets_reader_refuses_when_every_record_came_back_is_memconvs_bug(stores, monkeypatch, jobs):
    # Watched fail with the read-back never counting every record back (the refused file then passed in silence).
    from memconv import dialects
    from memconv.errors import StoreError

    module = dialects.get("memoir")
    for name in ("write_each", "iter_write"):
        real = getattr(module, name)

        def odd(*args, _real=real, **kwargs):
            yield from _real(*args, **kwargs)
            yield "memory/odd\\name.md", b"---\ntype: fact\n---\n\nx\n"  # a name every reader refuses

        monkeypatch.setattr(module, name, odd)
    monkeypatch.setattr(dialects, "_declarations", (None, {}))  # the declarations, looked up again
    store = pipeline.read(stores["claude"], "claude")
    with pytest.raises(StoreError, match="made a file its own reader refuses"):
        pipeline.plan(store, "memoir", Report(command="convert", input="in"), jobs=jobs, release=True,
                      lazy=True).drain()
