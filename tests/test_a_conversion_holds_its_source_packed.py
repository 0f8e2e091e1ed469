"""On the command line, a store read for a conversion into another dialect holds each record packed from its read
until it is converted (``forward.held``): a record object holds a slot for each of its 58 fields, and its empty
lists, dict and lifecycle, which a :class:`~memconv.model.Packed` does not (docs/performance.md, "(thirty-ninth)").
A record that wears a carry is held as read: the way back (``restore``) reads and changes it. The conversion knows
a packed record by its Packed, and makes it again as it looks at it; the files and the report are the ones a store
held as read gives."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from memconv import dialects, pipeline
from memconv.cli import _for_conversion
from memconv.converters import format_patch
from memconv.converters.slots import get_carry
from memconv.dialects.protocol import Occasion, iter_write_with
from memconv.model import Edge, Lifecycle, Packed, Record, Source, Store, unpacked

from .bench_support import bench_module
from .conftest import GOLDEN
from .convert_helpers import golden_inputs, planned, write_files

TARGETS = ("memoir", "claude", "memspec", "memfmt")
#: The dialects whose records a conversion holds packed: those read a record at a time (iter_read), and memfmt, read
#: whole (read_each, "(forty-third)").
PACKED = ("memoir", "claude", "memspec", "memfmt")


def _options(source: str, target: str, *, packed: bool) -> dict:
    options = _for_conversion(source, target)
    if not packed:
        del options["hold"]
    return options


def _read(root: Path, source: str, target: str, *, packed: bool):
    return pipeline.read(root, source, **_options(source, target, packed=packed))


def _converted(root: Path, source: str, target: str, *, packed: bool, lazy: bool, jobs: int = 1):
    return planned(root, source, target, _options(source, target, packed=packed), lazy=lazy, jobs=jobs)


@pytest.mark.parametrize("source, name", [(d, n) for d, n in golden_inputs() if d in PACKED])
def test_a_golden_store_read_for_a_conversion_holds_packed_what_wears_no_carry(source, name):
    # Watched fail with held() giving the record back as read: no record was packed.
    root = GOLDEN / source / name / "input"
    target = "memfmt" if source != "memfmt" else "memoir"
    store = _read(root, source, target, packed=True)
    as_read = _read(root, source, target, packed=False)
    assert len(store.records) == len(as_read.records)
    for held, record in zip(store.records, as_read.records):
        if get_carry(record) is None:
            assert held.__class__ is Packed, record.link
            assert unpacked(held).link == record.link
        else:
            assert held.__class__ is Record, record.link


@pytest.mark.parametrize("lazy", [True, False])
@pytest.mark.parametrize("source, name", [(d, n) for d, n in golden_inputs() if d in PACKED])
def test_golden_stores_held_packed_give_the_same_files_and_report(source, name, lazy):
    # lazy=False: the conversion run whole (--fail-on-loss, or again once a record turned out unstreamable), whose
    # records are held with their native records to the read-back, not made again of their sources.
    root = GOLDEN / source / name / "input"
    for target in TARGETS:
        if target != source:
            assert _converted(root, source, target, packed=True, lazy=lazy) == \
                _converted(root, source, target, packed=False, lazy=lazy), target


@pytest.mark.parametrize("source", PACKED)
def test_a_generated_store_held_packed_gives_the_same_files_and_report_over_two_jobs(tmp_path, source):
    # Two jobs: the format patches are made in a worker forked from the conversion, which knows each record by the
    # identity of what the conversion holds.
    root = tmp_path / source
    bench_module("generators").make(source, root, 150)
    for target in TARGETS:
        if target != source:
            assert _converted(root, source, target, packed=True, lazy=True, jobs=2) == \
                _converted(root, source, target, packed=False, lazy=True, jobs=1), target


@pytest.mark.parametrize("source", PACKED)
def test_a_store_held_packed_takes_less_memory_at_the_reads_end(tmp_path, source):
    # Measured at 10,000 entries (docs/performance.md, "(thirty-ninth)"): Claude 1,778 → 1,263 bytes an entry,
    # memoir 1,582 → 1,098, memspec 1,662 → 1,318. Watched fail with held() giving the record back as read.
    root = tmp_path / source
    bench_module("generators").make(source, root, 1000)
    target = "memfmt" if source != "memfmt" else "memoir"
    held = {}
    for packed in (True, False, True, False):  # the first of each warms what a read imports and remembers
        gc.collect()
        tracemalloc.start()
        try:
            store = _read(root, source, target, packed=packed)
            held[packed] = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        del store
    assert held[True] < 0.85 * held[False], held


def _record() -> Record:
    return Record(kind="fact", link="redis", title="Redis", body="Port 6379.\n", tags=["infra"],
                  edges=[Edge(type="refines", target="cache")], lifecycle=Lifecycle(state="hidden", at="2026-01-02"),
                  source=Source(dialect="memoir", path="redis.md", raw=b"x"))


def test_a_packed_record_is_read_field_by_field_without_being_made_again():
    record = _record()
    packed = Packed(record)
    for name in Record.__dataclass_fields__:
        assert getattr(packed, name) == getattr(record, name), name
    assert packed.source is record.source, "the same objects, not copies"
    bare = Packed(Record(kind="fact", link="x"))
    assert bare.edges == [] and bare.extra == {} and bare.lifecycle == Lifecycle()
    bare.edges.append(Edge(type="refines", target="y"))  # a default is a new one each time: nothing changes
    assert bare.edges == [] and bare.record().edges == []
    with pytest.raises(AttributeError):
        packed.title = "changed"
    with pytest.raises(AttributeError):
        packed.no_such_field  # noqa: B018
    assert unpacked(record) is record and unpacked(packed) is not record
    assert unpacked(packed).title == "Redis"


def test_a_packed_record_is_rendered_anew_without_its_source_and_left_as_it_was():
    # The format patch's look at a group's files (format_patch._canonical): each packed record made again, with no
    # source, as the writer asks for it; a record held as read has its source set aside for the look, and back after.
    record, packed = _record(), Packed(_record())
    group = [record, packed]
    with format_patch.sources_aside(group) as sources:
        assert [s.path for s in sources] == ["redis.md", "redis.md"]
        anew = format_patch.Anew(group)
        assert len(anew) == 2
        made = list(anew)
        assert made[0] is record and record.source is None
        assert made[1] is not packed and made[1].source is None and made[1].title == "Redis"
        assert anew[1] is not made[1], "made again each time it is asked for"
        assert packed.source is not None, "the packed record is left as it is"
    assert record.source is not None and record.source.path == "redis.md"


#: A memory written in the target by hand, after the conversion: it wears no carry, beside those that do, and links
#: one that does (``{link}``), whose link changes on its way home.
_NEW_BY_HAND = {
    "memoir": ("memory/fact_new-by-hand.md",
               b"---\ntype: fact\nname: New by hand\ndescription: Written here\ncreated: 2026-05-02\n---\n\nSee [[{link}]].\n"),
    "claude": ("reference_new_by_hand.md",
               b"---\nname: New by hand\ndescription: Written here\ntype: reference\n---\n\nSee [[{link}]].\n"),
    "memfmt": ("memory/entities/New by hand.md",
               b"---\nmemfmt_type: entity\nentity_type: concept\n---\n\n# New by hand\n\n## Facts\n\n- See [[{link}]]\n"),
    "memspec": (".memspec/memory/facts/ms_01KNRWNA20VCD395V3FZBW4Z9Z.md",
                b"---\nid: ms_01KNRWNA20VCD395V3FZBW4Z9Z\nkind: claim\ntype: fact\nstate: active\n"
                b"created: '2026-08-01T10:30:00.000Z'\n---\n# Written here by hand\n\nSee [[{link}]].\n"),
}


@pytest.mark.parametrize("lazy", [True, False])
@pytest.mark.parametrize("source, name", [(d, n) for d, n in golden_inputs() if d in PACKED])
def test_a_store_coming_home_held_packed_gives_the_same_files_and_report(tmp_path, source, name, lazy):
    # The golden stores wear no carry: here each is converted into another dialect read a record at a time, a memory
    # is added there by hand, and the store is converted home: the records that wear a carry are held as read and
    # restored, the one added is held packed, and both reads give the same files and report.
    root = GOLDEN / source / name / "input"
    carried = False
    for there in PACKED:
        if there == source:
            continue
        away = tmp_path / f"{there}-{lazy}"
        write_files(_converted(root, source, there, packed=True, lazy=True)[0], away)
        path, data = _NEW_BY_HAND[there]
        records = _read(away, there, source, packed=False).records
        linked = next((r.link for r in records if get_carry(r) is not None), records[0].link)
        (away / path).parent.mkdir(parents=True, exist_ok=True)
        (away / path).write_bytes(data.replace(b"{link}", linked.encode()))
        held = {r.source.path: r.__class__ for r in _read(away, there, source, packed=True).records}
        assert held[path] is Packed, "the memory added by hand wears no carry"
        carried |= Record in held.values()
        assert _converted(away, there, source, packed=True, lazy=lazy) == \
            _converted(away, there, source, packed=False, lazy=lazy), there
    assert carried, "a record that wears a carry came home too, held as read"


@pytest.mark.parametrize("source", PACKED)
def test_a_group_looked_at_for_its_format_patches_is_made_one_record_at_a_time(tmp_path, source):
    # The writer's look at a group's own files (records_only) is given each packed record made again as it asks,
    # and keeps none once rendered: made all at once, they were the store whole again in the format-patch worker.
    # Watched fail with Claude's iter_write keeping every record for index pages it does not write here.
    root = tmp_path / source
    bench_module("generators").make(source, root, 60)
    group = _read(root, source, "memfmt" if source != "memfmt" else "memoir", packed=True).records
    assert all(r.__class__ is Packed for r in group)

    def records_alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if o.__class__ is Record)

    before, most = records_alive(), 0
    with format_patch.sources_aside(group):
        files = iter_write_with(dialects.get(source), Store(dialect="probe", records=format_patch.Anew(group)), None,
                                Occasion(records_only=True))
        for _ in files:
            most = max(most, records_alive() - before)
    assert most < 10, f"{most} records made again held at once"


def _records_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if o.__class__ is Record)


@pytest.mark.parametrize("source", PACKED)
def test_the_format_patches_look_at_a_group_holds_no_more_than_a_few_records_made_again(tmp_path, monkeypatch, source):
    # The look itself (format_patch._canonical), as the conversion's worker makes it. Watched fail for memfmt with
    # its writer given every record made (Anew's ``whole``, for record_paths by identity): its store whole again in
    # the format patches' worker, the peak of the three pairs from memfmt (docs/performance.md, "(forty-third)").
    root = tmp_path / source
    bench_module("generators").make(source, root, 60)
    group = _read(root, source, "memfmt" if source != "memfmt" else "memoir", packed=True).records
    real, alive = format_patch.iter_write_with, []

    def counted(*args, **kwargs):
        for item in real(*args, **kwargs):
            alive.append(_records_alive())
            yield item

    monkeypatch.setattr(format_patch, "iter_write_with", counted)
    before = _records_alive()
    assert len(format_patch._canonical(source, group)) > len(group) // 2, "the generated files are as written anew"
    assert alive and max(alive) - before < 10, f"{max(alive) - before} records made again held at once"


def test_memfmts_writer_dates_a_profile_made_again_as_it_is_asked_for():
    # A profile written anew is told its date by its place among the records, not by the identity of a record made
    # when the write was called: the look at a store held packed makes each record again each time it asks.
    group = _read(GOLDEN / "memfmt" / "full" / "input", "memfmt", "memoir", packed=True).records
    assert any(r.kind == "profile" for r in group)
    module = dialects.get("memfmt")
    with format_patch.sources_aside(group):
        made = list(format_patch.Anew(group))
        looks = [list(iter_write_with(module, Store(dialect="probe", records=records), None,
                                      Occasion(records_only=True)))
                 for records in (format_patch.Anew(group), made)]
        assert looks[0] == looks[1]
        assert list(module.record_paths(Store(dialect="probe", records=format_patch.Anew(group)))) == \
            list(module.record_paths(Store(dialect="probe", records=made)))
