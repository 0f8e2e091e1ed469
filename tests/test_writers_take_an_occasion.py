"""A writer is pure, ``(store, occasion) → files``: the occasion gives the day to stamp and hears the warnings.

``memconv.dialects.protocol.Occasion`` (docs/plugins.md, "Writing: the occasion"):
given a date, a writer stamps it where its format needs a date the records do
not hold (memspec's ``created`` of an undated record, memfmt's ``generated:``)
and changes nothing else; given a sink, it leaves ``store.warnings`` as it was
and tells the sink. Without one, it writes exactly what it always wrote.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import dialects, pipeline
from memconv.dialects import claude, memfmt, memoir, memspec, protocol
from memconv.dialects.memspec.records import read_record, store_date
from memconv.dialects.protocol import Occasion
from memconv.errors import UsageError
from memconv.model import Record, Store

from . import plugin_kit
from .conftest import GOLDEN
from .convert_helpers import golden_inputs

BUILTINS = [memoir, claude, memspec, memfmt]
DAY = "2031-02-03"


def _entries(dialect: str = "jsonl") -> Store:
    """Records from another dialect that make every entry writer say something: two names one file
    apart only by case, and two records with no date of their own."""
    return Store(dialect=dialect, records=[
        Record(kind="fact", link="same", title="One", body="one\n"),
        Record(kind="fact", link="Same", title="Two", body="two\n"),
        Record(kind="fact", link="dated", title="Dated", body="three\n", created="2026-01-02")])


def _memfmt_records(dialect: str = "jsonl") -> Store:
    """memfmt's kinds, with no date anywhere: the index and the profile have no ``generated:`` to say."""
    return Store(dialect=dialect, records=[
        Record(kind="entity", link="Alpha", title="Alpha", body="a\n"),
        Record(kind="entity", link="alpha", title="alpha", body="b\n"),
        Record(kind="profile", link="profile", title="Profile", body="p\n")])


def _saying(module) -> Store:
    return _memfmt_records() if module is memfmt else _entries()


# --- the date -------------------------------------------------------------------------------------


def _memspec_records(files: dict[str, bytes]) -> dict[str, Record]:
    return {record.title: record for path, data in files.items() if path.endswith(".md")
            for record in [read_record(data, path, ".memspec/")[0]]}


def test_memspec_stamps_the_occasion_s_date_on_a_record_with_none_and_nothing_else_changes():
    store = _entries()
    plain, dated = memspec.write(copy.deepcopy(store)), memspec.write(store, Occasion(date=DAY))
    assert sorted(plain) == sorted(dated), "the same files (ids do not depend on the date)"
    before, after = _memspec_records(plain), _memspec_records(dated)
    assert before["Dated"] == after["Dated"], "a record with a date of its own keeps it"
    titles = {path: title for path, data in plain.items() for title in _memspec_records({path: data})}
    assert sorted(p for p in plain if plain[p] != dated[p]) == sorted(p for p, t in titles.items() if t != "Dated")
    for title in ("One", "Two"):
        assert before[title].created == store_date(store.records) and after[title].created == DAY
        assert after[title].check_by.startswith("2031-05-04"), "the review window counts from the date given"
        keep = {"created": None, "check_by": None, "source": None}
        assert dataclasses.replace(before[title], **keep) == dataclasses.replace(after[title], **keep)
    [warning] = [w for w in store.warnings if "no date of their own" in w]
    assert f"created is {DAY}, the date given" in warning


def test_memfmt_stamps_the_occasion_s_date_as_generated_on_what_it_regenerates():
    store = _memfmt_records()
    plain, dated = memfmt.write(copy.deepcopy(store)), memfmt.write(store, Occasion(date=DAY))
    assert sorted(plain) == sorted(dated)
    changed = sorted(p for p in plain if plain[p] != dated[p])
    assert changed == ["memory/MEMORY.md", "memory/profile.md"]
    for path in changed:
        assert b"generated:" not in plain[path], "the store holds no date: none was stamped"
        assert dated[path].replace(f"generated: {DAY}\n".encode(), b"") == plain[path]
    assert not any("no date in the store" in w for w in store.warnings), "a date was given: nothing to say"


def test_memfmt_s_occasion_date_changes_only_the_generated_line_of_a_store_read_from_disk():
    store = memfmt.read(GOLDEN / "memfmt" / "full" / "input")
    plain, dated = memfmt.write(copy.deepcopy(store)), memfmt.write(store, Occasion(date=DAY))
    changed = [p for p in plain if plain[p] != dated[p]]
    assert changed == ["memory/MEMORY.md"], "an unedited profile keeps its own bytes, its date among them"
    old = [line for line in plain["memory/MEMORY.md"].splitlines() if line.startswith(b"generated:")]
    assert dated["memory/MEMORY.md"] == plain["memory/MEMORY.md"].replace(old[0], f"generated: {DAY}".encode())


@pytest.mark.parametrize("module", [memoir, claude], ids=lambda m: m.NAME)
def test_a_format_that_holds_no_date_of_its_writing_writes_the_same_bytes_with_one(module):
    store = _entries()
    assert module.write(copy.deepcopy(store)) == module.write(store, Occasion(date=DAY))


@settings(max_examples=25, deadline=None)
@given(day=st.dates(min_value=datetime.date(1990, 1, 1), max_value=datetime.date(2200, 12, 31)))
def test_the_same_store_and_occasion_give_the_same_bytes(day):
    occasion = Occasion(date=day.isoformat())
    for module in BUILTINS:
        store = _saying(module)
        first = module.write(store, occasion)
        assert module.write(copy.deepcopy(store), Occasion(date=day.isoformat())) == first
        if module in (memspec, memfmt):
            assert any(day.isoformat().encode() in data for data in first.values()), module.NAME


# --- the warnings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("module", BUILTINS, ids=lambda m: m.NAME)
def test_a_writer_given_a_sink_tells_it_and_leaves_the_store_s_warnings_as_they_were(module):
    told, heard = _saying(module), []
    told.warnings.append("said when it was read")
    files = module.write(told, Occasion(warn=heard.append))
    assert told.warnings == ["said when it was read"], "the store it wrote is as it was"
    kept = _saying(module)
    assert module.write(kept) == files, "the same bytes"
    assert heard and heard == kept.warnings, "the sink hears what the store would have been told, in order"


@pytest.mark.parametrize("module", BUILTINS, ids=lambda m: m.NAME)
def test_iter_write_tells_the_sink_too(module):
    store, heard = _saying(module), []
    files = dict(module.iter_write(store, None, context=Occasion(warn=heard.append)))
    assert store.warnings == [] and heard
    assert files == module.write(_saying(module))


def test_a_sink_hears_each_warning_once_per_write():
    heard: list[str] = []
    tell = Occasion(warn=heard.append).teller(Store(dialect="memoir"))
    for warning in ("a", "b", "a"):
        tell(warning)
    assert heard == ["a", "b"]


def test_without_a_sink_a_warning_already_on_the_store_is_not_said_twice():
    store = _entries()
    memoir.write(store)
    memoir.write(store, Occasion())
    assert len(store.warnings) == len(set(store.warnings)) == 1


# --- every golden store, every target -------------------------------------------------------------


def _targets() -> list[tuple[str, str, str]]:
    return [(d, n, t) for d, n in golden_inputs() if d in dialects.MODULES for t in dialects.MODULES]


@pytest.mark.parametrize("dialect,name,target", _targets())
def test_an_occasion_without_a_date_writes_what_no_occasion_writes(dialect, name, target):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out, _ = pipeline.convert(store, target)
    writer = dialects.get(target)
    before, heard = list(out.warnings), []
    told = writer.write(out, Occasion(warn=heard.append))
    assert out.warnings == before
    assert writer.write(out) == told
    assert [w for w in out.warnings if w not in before] == [w for w in heard if w not in before]
    assert writer.write(out, Occasion(date=DAY)) == writer.write(out, Occasion(date=DAY))


@pytest.mark.parametrize("dialect,name,target", _targets())
def test_an_occasion_for_the_records_only_gives_the_same_record_files(dialect, name, target):
    # The format patch and the read-back ask only for the records' files (records_only): a writer may
    # leave out its index, and gives every other file as a whole write does.
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out, _ = pipeline.convert(store, target)
    writer = dialects.get(target)
    whole, only = writer.write(out), writer.write(out, Occasion(records_only=True))
    assert {p: b for p, b in only.items() if not p.endswith("MEMORY.md")} == \
        {p: b for p, b in whole.items() if p in only and not p.endswith("MEMORY.md")}
    assert {p for p in whole if p not in only} <= {p for p in whole if p.endswith("MEMORY.md")}


def test_memfmt_keeps_its_index_path_taken_when_it_writes_no_index():
    from memconv.model import Source, fingerprint

    # A profile unedited since it was read at the index's path (crafted: memfmt reads that file as its
    # index): its writer keeps its path, and a whole write puts the index there. Verified by letting
    # records_only write a record at the index's path: fails.
    profile = Record(kind="profile", link="p", title="p", body="mine\n")
    profile.source = Source(dialect="memfmt", path="memory/MEMORY.md", raw=b"x")
    profile.source.fingerprint = fingerprint(profile)
    store = Store(dialect="claude", records=[profile, Record(kind="entity", link="E", title="E", body="e\n")])
    whole, only = memfmt.write(store), memfmt.write(store, Occasion(records_only=True))
    assert whole["memory/MEMORY.md"] != b"x" and "memory/MEMORY.md" not in only


# --- the occasion itself, and plugins -------------------------------------------------------------


@pytest.mark.parametrize("date", ["2026-13-01", "tomorrow", "2026-7-30", "2026-07-30T10:00:00Z", "20260730", ""])
def test_an_occasion_s_date_is_a_day_or_nothing(date):
    with pytest.raises(UsageError, match="YYYY-MM-DD"):
        Occasion(date=date)


def test_an_occasion_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Occasion().date = DAY  # type: ignore[misc]


def test_the_built_ins_take_an_occasion():
    for module in BUILTINS:
        assert protocol.takes_context(module.write) and protocol.takes_context(module.iter_write), module.NAME


@pytest.fixture
def jsonl(tmp_path, monkeypatch):
    site = plugin_kit.install(tmp_path / "site")
    plugin_kit.activate(monkeypatch, site)
    return dialects.get("jsonl")


def test_the_toy_plugin_writes_the_store_alone_and_memconv_writes_it_with_an_occasion(jsonl):
    assert not protocol.takes_context(jsonl.write) and protocol.problems(jsonl, "jsonl") == []
    store, heard = _entries(), []
    plain = jsonl.write(store)
    assert protocol.write_with(jsonl, store) == plain
    assert protocol.write_with(jsonl, store, Occasion(date=DAY, warn=heard.append)) == plain
    assert dict(protocol.iter_write_with(jsonl, store, None, Occasion(date=DAY, warn=heard.append))) == plain
    assert heard == [] and store.warnings == []


WARNS = '''
from memconv.model import Store

NAME = "warns"
KIND_HOMES = {"fact": "fact"}
LIFECYCLE_STATES = frozenset({"active"})


def detect(root, seen=None):
    return None


def read(root):
    return Store(dialect=NAME)


def read_file(path, raw, meta):
    return None


def write(store):
    store.warnings.append(f"{len(store.records)} record(s), one file")
    return {"all.txt": "\\n".join(r.link for r in store.records).encode()}
'''


def test_a_plugin_that_writes_the_store_alone_tells_the_occasion_through_memconv(tmp_path, monkeypatch):
    site = plugin_kit.install_source(tmp_path / "site", "memconv_warns", WARNS, {"warns": "memconv_warns"})
    plugin_kit.activate(monkeypatch, site)
    module = dialects.get("warns")
    assert protocol.problems(module, "warns") == []
    store, heard = _entries(), []
    files = protocol.write_with(module, store, Occasion(warn=heard.append))
    assert files == {"all.txt": b"same\nSame\ndated"}
    assert store.warnings == [] and heard == ["3 record(s), one file"]
    assert dict(protocol.iter_write_with(module, store, None, Occasion(warn=heard.append))) == files
    assert heard == ["3 record(s), one file"] * 2, "one write, one telling; a second write tells again"
    protocol.write_with(module, store, Occasion(date=DAY))
    assert store.warnings == ["3 record(s), one file"], "an occasion without a sink: the store's warnings"


def test_a_write_that_cannot_take_the_store_alone_is_refused():
    fake = type(dialects)("fake")
    for member, value in [("NAME", "fake"), ("KIND_HOMES", {"fact": "fact"}), ("LIFECYCLE_STATES", frozenset({"active"})),
                          ("detect", lambda root, seen=None: None), ("read", lambda root: None),
                          ("read_file", lambda path, raw, meta: None), ("write", lambda store, when: {})]:
        setattr(fake, member, value)
    assert protocol.problems(fake, "fake") == [
        "its write must take the store alone (write(store)); it may take an occasion too, as a parameter "
        "named context that has a default"]
    fake.write = lambda store, context=None: {}
    assert protocol.problems(fake, "fake") == []
