"""On the command line, a conversion into a dialect whose writer takes a conversion's records one at a time
(memoir, claude, memspec, memfmt: WRITES_EACH_CONVERTED) holds each record's source packed and no native record of it
until the read-back asks for one: it is made again of the source then, and let go once the final write has written it.
No more than a batch of native records is held at once, with one job or two, and the files and the report are the ones
a conversion done whole gives (docs/performance.md, "native records let go as written", "(thirty-third)")."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from memconv import dialects, fs, pipeline
from memconv import jobs as parallel
from memconv.converters import read_back
from memconv.errors import StoreError
from memconv.model import Edge, Packed, Record
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN
from .convert_helpers import golden_inputs

#: The dialects whose writer takes a conversion's records one at a time.
ONE_AT_A_TIME = tuple(name for name in ("memoir", "claude", "memspec", "memfmt")
                      if dialects.declaration(name, "WRITES_EACH_CONVERTED"))


def _plan(root: Path, source: str, target: str, *, lazy: bool, jobs: int = 1) -> pipeline.Plan:
    store = pipeline.read(root, source)
    return pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=jobs, release=True,
                         lazy=lazy)


def _whole(plan: pipeline.Plan) -> tuple[dict[str, bytes], dict]:
    files = dict(plan.iter_files())
    return files, plan.report.to_dict()


@pytest.fixture
def held(monkeypatch):
    """How many native records a conversion made (``made``), and the most it held at once (``most``)."""
    seen = {"made": 0, "most": 0}
    native = read_back.Natives.native

    def making(self, i):
        if i not in self._made:
            seen["made"] += 1
        made = native(self, i)
        seen["most"] = max(seen["most"], len(self._made))
        return made

    monkeypatch.setattr(read_back.Natives, "native", making)
    return seen


def test_every_dialect_takes_a_conversions_records_one_at_a_time():
    assert ONE_AT_A_TIME == ("memoir", "claude", "memspec", "memfmt")
    assert dialects.declaration("memspec", "each_facts") is not None  # its ids and date are the whole store's
    assert dialects.declaration("memfmt", "each_facts") is not None  # its file plan is the store's


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("source, target", [(s, t) for t in ONE_AT_A_TIME for s in ("memoir", "claude", "memspec",
                                                                                      "memfmt") if s != t])
def test_no_more_than_a_batch_of_native_records_is_held(source, target, jobs, held, monkeypatch, tmp_path):
    monkeypatch.setattr(pipeline, "_PULLED", 16)
    size = 300 if jobs == 1 else 700  # with a worker, the read-back's files are a few tasks ahead of its reading
    root = bench_module("generators").make(source, tmp_path / source, size)
    made = _whole(_plan(root, source, target, lazy=True, jobs=jobs))
    # Every record of the store is made once here (a memspec store's archived ones are notes, not records).
    assert held["made"] >= size * (0.85 if source == "memspec" else 1)
    # The final write asks for a batch ahead; the read-back's writer renders that far, and with workers, as many
    # tasks further as they may have under way (jobs.Spread).
    most = 16 + (1 if jobs == 1 else 4 * (jobs - 1) + 1) * parallel.CHUNK
    assert held["most"] <= most < size, f"{held['most']} native records held at once"
    assert made == _whole(_plan(root, source, target, lazy=False, jobs=jobs))


def _records_alive() -> tuple[int, int]:
    """How many records are alive, packed and whole (what earlier tests left alive included)."""
    gc.collect()
    alive = gc.get_objects()
    try:
        return sum(isinstance(o, Packed) for o in alive), sum(isinstance(o, Record) for o in alive)
    finally:
        del alive


@pytest.mark.parametrize("source, target", [(s, t) for t in ONE_AT_A_TIME for s in ("memoir", "claude", "memspec",
                                                                                      "memfmt") if s != t])
def test_a_planned_conversion_holds_each_record_once_as_its_source(source, target, tmp_path):
    """Planned, before its files are asked for, the conversion holds each record it converts once, packed: its source.
    The native record is made of it as the read-back asks for it (held packed beside it, the native record was 730-1,000
    bytes an entry). Broken once, holding the native records packed again, it counted two an entry."""
    size = 200
    root = bench_module("generators").make(source, tmp_path / source, size)
    before = _records_alive()
    plan = _plan(root, source, target, lazy=True)
    packed, whole = (now - then for now, then in zip(_records_alive(), before))
    assert size * 0.85 <= packed <= size + 2, f"{packed} records held packed for {size} entries"
    assert whole < size // 5, f"{whole} records held whole"
    assert _whole(plan) == _whole(_plan(root, source, target, lazy=False))


@pytest.mark.parametrize("source, target", [("claude", "memspec"), ("memoir", "claude"), ("memfmt", "memoir")])
def test_the_reports_hold_each_list_of_field_names_once(source, target, tmp_path):
    """Every record's report lists the fields kept natively and those carried, to the run's end; most records of a
    store say the same few lists, and each is held once (a list each took 120-220 bytes an entry). Broken once, each
    report holding a list of its own, it counted one an entry."""
    root = bench_module("generators").make(source, tmp_path / source, 60)
    plan = _plan(root, source, target, lazy=True)
    dict(plan.iter_files())  # read back and written
    reports = [f for f in plan.report.files if f.native]
    assert len(reports) >= 60
    for name in ("native", "carried"):
        lists = [getattr(f, name) for f in reports]
        assert len({id(names) for names in lists}) == len({tuple(names) for names in lists}) < 20, name


@pytest.mark.parametrize("target, source, name", [(t, d, n) for t in ONE_AT_A_TIME for d, n in golden_inputs()
                                                  if d != t])
def test_golden_stores_give_the_same_files_and_report(target, source, name):
    """Golden stores hold records home again (converted earlier), whose native records are made whole as before:
    either way, the same files and report."""
    root = GOLDEN / source / name / "input"
    assert _whole(_plan(root, source, target, lazy=True)) == _whole(_plan(root, source, target, lazy=False))


@pytest.mark.parametrize("home, via", [("memoir", "memspec"), ("claude", "memfmt"), ("memoir", "claude"),
                                       ("memspec", "memoir")])
def test_records_home_again_are_made_whole_as_before(home, via, held, tmp_path):
    """On the way home (``home`` → ``via`` → ``home``) every record is home again: named as at home, its writer
    reuses its file, so its native record is made with the rest before the write, as before."""
    root = bench_module("generators").make(home, tmp_path / home, 40)
    there = tmp_path / via
    there.mkdir()
    fs.write_files(there, _plan(root, home, via, lazy=False).iter_files())
    held["made"] = 0
    back = _whole(_plan(there, via, home, lazy=True))
    assert held["made"] == 0
    assert back == _whole(_plan(there, via, home, lazy=False))


@pytest.mark.parametrize("source", ["claude", "memoir"])
def test_memspec_is_told_the_ids_and_the_date_of_every_record_before_the_first(source, monkeypatch, tmp_path):
    """Into memspec the writer takes the records one at a time, told what its iter_write works out of all of them at
    its call (the ids, the date given to a record that has none: a Claude memory has no date): the same files."""
    told = []
    write_each = dialects.get("memspec").write_each

    def telling(store, records, context=None, render=None, facts=None):
        told.append(facts)
        return write_each(store, records, context, render, facts)

    monkeypatch.setattr(dialects.get("memspec"), "write_each", telling)
    root = bench_module("generators").make(source, tmp_path / source, 50)
    made = _whole(_plan(root, source, "memspec", lazy=True))
    assert len(told) == 2 and all(facts is not None and len(facts[0]) >= 50 for facts in told)  # read-back, write
    assert made == _whole(_plan(root, source, "memspec", lazy=False))


def test_memspec_told_its_facts_writes_what_iter_write_writes_of_a_record_not_named_by_an_id():
    """A conversion's record may be named otherwise than by an id (a second record claiming one is numbered): its
    writer names it by the id it derives, and an edge to it by the same id, from the facts of every record."""
    memspec = dialects.get("memspec")
    store = memspec.read(GOLDEN / "memspec" / "canonical" / "input")
    first, second = store.records[0], store.records[1]
    first.link, first.source = "a-second-claim", None
    second.edges = [*second.edges, Edge(type="depends_on", target="a-second-claim")]
    second.source = None
    add, facts = memspec.each_facts()
    for record in store.records:
        add(record)
    whole = dict(memspec.iter_write(store))
    assert dict(memspec.write_each(store, iter(store.records), facts=facts())) == whole
    assert facts()[0]["a-second-claim"].encode() in whole[next(p for p in whole if "a-second-claim" not in p
                                                                 and second.link in p)]


@pytest.mark.parametrize("target", ONE_AT_A_TIME)
def test_bare_entries_kept_whole_or_not_carry_the_same_with_a_worker(target, tmp_path):
    """A bare memoir entry (no frontmatter) is kept whole where the target keeps files whole, and becomes a record of
    its own in memspec: the carry a worker makes asks which, with no native record of its own to ask."""
    root = bench_module("generators").make("memoir", tmp_path / "memoir", 300)
    for n in range(12):
        (root / "memory" / f"bare-{n}.md").write_text(f"# Bare note {n}\n\nText of bare note {n}.\n", encoding="utf-8")
    made = _whole(_plan(root, "memoir", target, lazy=True, jobs=2))
    assert made == _whole(_plan(root, "memoir", target, lazy=False, jobs=2))
    assert sum(b"Bare note" in data for data in made[0].values()) >= 12


def test_memfmt_told_its_facts_writes_what_iter_write_writes_profile_and_index_included():
    """Into memfmt, where each record goes, what links to an entity say, the index and the dates are the whole
    store's: told them by each_facts, write_each writes what iter_write does, a profile written anew (dated by the
    store's newest date, as none is given) and the index included."""
    memfmt = dialects.get("memfmt")
    store = memfmt.read(GOLDEN / "memfmt" / "full" / "input")
    store.meta.clear()  # a conversion's store: no folder facts, no date of its own
    store.indexes.clear()
    for record in store.records:
        record.source = None  # each written anew, as a conversion's are
        if record.kind == "profile":
            record.updated = None
    assert any(record.kind == "profile" and record.body for record in store.records)
    add, facts = memfmt.each_facts()
    for record in store.records:
        add(record)
    whole = dict(memfmt.iter_write(store))
    assert dict(memfmt.write_each(store, iter(store.records), facts=facts())) == whole
    assert b"generated: " + facts().newest.encode() in whole["memory/profile.md"]


def test_memfmt_told_where_records_go_in_memory_refuses_a_store_elsewhere():
    """each_facts places the records in ``memory/`` (a conversion's store has no folder of its own): a store in
    another folder is refused, not written with the wrong paths."""
    memfmt = dialects.get("memfmt")
    store = memfmt.read(GOLDEN / "memfmt" / "full" / "input")
    add, facts = memfmt.each_facts()
    for record in store.records:
        add(record)
    store.meta["root"] = ""
    with pytest.raises(StoreError, match="bug in memconv"):
        memfmt.write_each(store, iter(store.records), facts=facts())
