"""A conversion into a dialect that splices (memspec, memoir, claude, memfmt) writes each record from its read-back
rendering, the carry spliced in where the read-back's marker was (or the marker taken out, for a record that
wears no carry), and the bytes are the ones rendering the record again gives (docs/performance.md, "the
splice")."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv import dialects, pipeline
from memconv.converters.slots import set_carry, strip_carry
from memconv.dialects import claude, memfmt, memoir, memspec
from memconv.dialects.memspec import jsyaml
from memconv.dialects.memspec.records import write_record
from memconv.errors import StoreError
from memconv.model import Store
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN
from .convert_helpers import golden_inputs

#: The dialects that declare ``splice``, and each one's golden stores of the other dialects.
SPLICING = ["memspec", "memoir", "claude", "memfmt"]
INTO = [(target, d, n) for target in SPLICING for d, n in golden_inputs() if d != target]
GENERATED = [(target, d) for target in SPLICING for d in ("claude", "memoir", "memspec", "memfmt") if d != target]


def test_the_dialects_that_splice():
    assert sorted(d for d in dialects.available() if dialects.declaration(d, "splice") is not None) == sorted(SPLICING)


@pytest.fixture
def counted(monkeypatch):
    """Each time the final write asked for a spliced rendering, by target: (whether the record wore a carry,
    whether the splice gave one)."""
    taken: dict[str, list[tuple[bool, bool]]] = {}

    for target in SPLICING:
        declared = dialects.declaration(target, "splice")

        def splice(rendered, marker, carry, declared=declared, said=taken.setdefault(target, [])):
            out = declared(rendered, marker, carry)
            said.append((carry is not None, out is not None))
            return out

        monkeypatch.setitem(dialects.declarations("splice"), target, splice)
    return taken


def _convert(root: Path, source: str, target: str = "memspec") -> dict[str, bytes]:
    store = pipeline.read(root, source)
    plan = pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=1, release=True)
    return dict(plan.iter_files())


def _unspliced(root: Path, source: str, monkeypatch, target: str = "memspec") -> dict[str, bytes]:
    with monkeypatch.context() as m:
        m.setitem(dialects.declarations("splice"), target, None)
        return _convert(root, source, target)


@pytest.mark.parametrize("target, source, name", INTO)
def test_golden_stores_are_the_same_bytes_spliced(target, source, name, monkeypatch):
    root = GOLDEN / source / name / "input"
    spliced = _convert(root, source, target)
    assert spliced == _unspliced(root, source, monkeypatch, target)


@pytest.mark.parametrize("target, source", GENERATED)
def test_a_generated_store_is_spliced_record_by_record(target, source, counted, monkeypatch, tmp_path):
    root = tmp_path / source
    bench_module("generators").make(source, root, 60)
    spliced = _convert(root, source, target)
    said = counted[target]
    assert len(said) >= 50 and any(carried for carried, _ in said)
    # memspec renders again a record that wears no carry; the entry dialects take its marker's line out; memfmt
    # renders a profile again (its date and whether it is written are worked out from its body and dates).
    assert sum(not done for carried, done in said if carried or target != "memspec") \
        <= (target == "memfmt"), "every record is spliced"
    assert spliced == _unspliced(root, source, monkeypatch, target)


def test_a_store_written_under_its_own_folder_is_rendered_anew(monkeypatch):
    """The read-back writes under memspec's default folder; a store that came from memspec keeps its own
    (store facts in the final store only): what the read-back rendered is not what the final write writes."""
    root = GOLDEN / "claude" / "canonical" / "input"

    def convert() -> dict[str, bytes]:
        store = pipeline.read(root, "claude")
        store.meta.update({"memconv.meta_from": "memspec", "prefix": "store/.memspec/"})
        plan = pipeline.plan(store, "memspec", Report(command="convert", input=str(root)), jobs=1)
        return dict(plan.iter_files())

    spliced = convert()
    assert any(path.startswith("store/.memspec/memory/") for path in spliced)
    with monkeypatch.context() as m:
        m.setitem(dialects.declarations("splice"), "memspec", None)
        assert spliced == convert()


def _natives(target: str = "memspec") -> list:
    """Records as a conversion into ``target`` writes them (built by memconv: no layout of ``target``)."""
    found = []
    for source, name in golden_inputs():
        if source == target:
            continue
        store = pipeline.read(GOLDEN / source / name / "input", source)
        out, _ = pipeline.convert(store, target)
        found += [r for r in out.records if getattr(r.source, "dialect", None) != target]
    return found


NATIVES = _natives()
CONTEXT = memspec._context(Store(dialect="memspec"), {}, None)

#: Carries of every shape the emitter writes differently: short and long, quoted, many lines, wide characters.
_carry = st.one_of(
    st.text(max_size=300),
    st.text(st.characters(codec="utf-8"), max_size=120),
    st.lists(st.sampled_from(["{\"v\":1}", "word", " ", "\n", "'", "\"", ": ", "# ", "\t", "é", "𝄞", "-"]),
             max_size=200).map("".join),
)


def _rendered(record, carry: str):
    record = copy.copy(record)
    strip_carry(record)
    set_carry(record, "memspec", carry)
    path, data = write_record(record, CONTEXT)
    return path, data, []


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(NATIVES))), _carry)
def test_the_splice_gives_what_rendering_with_the_carry_gives(i, carry):
    record = NATIVES[i]
    marker = "memconv-probe:7"
    spliced = memspec.splice(_rendered(record, marker), marker, carry)
    assume(spliced is not None)  # it may decline (a carry ending in a blank line), never be wrong
    assert spliced == _rendered(record, carry)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(NATIVES))), st.text(max_size=40).map(lambda t: json.dumps({"v": 1, "x": t})))
def test_a_json_carry_is_always_spliced(i, carry):
    marker = "memconv-probe:12"
    assert memspec.splice(_rendered(NATIVES[i], marker), marker, carry) == _rendered(NATIVES[i], carry)


def test_a_record_with_fields_beside_the_carry_is_spliced_one_level_deeper():
    nested = [r for r in NATIVES if r.extra]
    assert nested, "a golden store gives a record whose fields ride under ext.memconv.fields"
    marker = "memconv-probe:3"
    probe = _rendered(nested[0], marker)
    assert b"\n    carry: " in probe[1]
    assert memspec.splice(probe, marker, "x" * 200) == _rendered(nested[0], "x" * 200)


def test_memspec_renders_again_a_record_that_wears_no_carry():
    marker = "memconv-probe:4"
    assert memspec.splice(_rendered(NATIVES[0], marker), marker, None) is None


def test_a_marker_that_is_also_in_the_body_is_not_spliced():
    record = copy.copy(NATIVES[0])
    marker = "memconv-probe:9"
    record.body = record.body + f"\nkey: {jsyaml.scalar(marker, 2)}\n"  # the line the carry is on, in the body
    assert memspec.splice(_rendered(record, marker), marker, "carry") is None


# --- the entry dialects (memoir, claude): the carry is one scalar on one frontmatter line

ENTRY = {"memoir": (memoir, memoir.entries.write_entry), "claude": (claude, claude.entries.write_entry)}
ENTRY_NATIVES = {target: _natives(target) for target in ENTRY}


def _entry_rendered(target: str, record, carry: str | None) -> bytes:
    record = copy.deepcopy(record)
    strip_carry(record)
    if carry is not None:
        set_carry(record, target, carry)
    return ENTRY[target][1](record)


def _spliced(target: str, i: int, carry: str | None, marker: str = "memconv-probe:7") -> bytes | None:
    record = ENTRY_NATIVES[target][i]
    return ENTRY[target][0].splice(_entry_rendered(target, record, marker), marker, carry)


def test_the_golden_stores_give_records_of_every_shape_into_the_entry_dialects():
    claude_natives = [_entry_rendered("claude", r, "m") for r in ENTRY_NATIVES["claude"]]
    assert any(b"memconv:\n  kind: " in r for r in claude_natives), "the writer's kind marker above the carry"
    assert any(b"memconv:\n  carry: m\n---" in r for r in claude_natives), "the carry alone under memconv"
    assert all(len(ENTRY_NATIVES[t]) >= 40 for t in ENTRY)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(ENTRY)), st.data(), st.one_of(st.none(), _carry))
def test_an_entry_splice_gives_what_rendering_with_the_carry_gives(target, data, carry):
    i = data.draw(st.sampled_from(range(len(ENTRY_NATIVES[target]))))
    spliced = _spliced(target, i, carry)
    assume(spliced is not None)  # it may decline (a bare file, the marker in the body too), never be wrong
    assert spliced == _entry_rendered(target, ENTRY_NATIVES[target][i], carry)


@pytest.mark.parametrize("target", sorted(ENTRY))
def test_an_entry_splice_places_every_json_carry_and_takes_every_marker_out(target):
    natives = ENTRY_NATIVES[target]
    for i, record in enumerate(natives):
        for carry in (json.dumps({"v": 1, "x": f"record {i}: \"quoted\"\n"}), None):
            spliced = _spliced(target, i, carry)
            expected = _entry_rendered(target, record, carry)
            if spliced is None:  # declined only where no frontmatter is left (a bare file stays bare)
                assert carry is None and not expected.startswith(b"---\n"), record.link
            else:
                assert spliced == expected, record.link


@pytest.mark.parametrize("target", sorted(ENTRY))
def test_an_entry_marker_also_in_the_body_or_out_of_the_frontmatter_is_not_spliced(target):
    marker = "memconv-probe:9"
    line = b"memconv: " if target == "memoir" else b"memconv:\n  carry: "
    rendered = next(r for r in (_entry_rendered(target, n, marker) for n in ENTRY_NATIVES[target])
                    if line + marker.encode() + b"\n" in r)
    assert ENTRY[target][0].splice(rendered, marker, "carry") is not None
    twice = rendered + line + marker.encode() + b"\n"
    assert ENTRY[target][0].splice(twice, marker, "carry") is None
    moved = rendered.replace(line + marker.encode() + b"\n", b"").replace(b"\n---\n", b"\n---\n" + line
                                                                           + marker.encode() + b"\n", 1)
    assert ENTRY[target][0].splice(moved, marker, "carry") is None


# --- handed the records (the command line), a conversion keeps of a spliced record only what the final write reads


def _planned(root: Path, source: str, *, release: bool, target: str = "memspec") -> pipeline.Plan:
    store = pipeline.read(root, source)
    return pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=1, release=release)


@pytest.fixture
def let_go(monkeypatch):
    """The records a conversion let go once spliced."""
    import importlib

    forward = importlib.import_module("memconv.converters.forward")

    gone = []
    real = forward._let_go

    def counting(record, reads):
        real(record, reads)
        gone.append(record)

    monkeypatch.setattr(forward, "_let_go", counting)
    return gone


@pytest.mark.parametrize("target, source", GENERATED)
def test_records_let_go_once_spliced_give_the_same_bytes(target, source, let_go, tmp_path):
    root = bench_module("generators").make(source, tmp_path / source, 60)
    released = dict(_planned(root, source, release=True, target=target).iter_files())
    # Into memspec every record is let go; into memoir a Claude project memory (a quarter) is kept whole (opaque).
    assert len(let_go) >= (60 if target == "memspec" else 40)
    assert all(r.body == "" and r.ext is None and not r.extra for r in let_go)
    assert not any(r.opaque for r in let_go), "an opaque record's frontmatter is its extra: kept"
    kept = len(let_go)
    assert released == dict(_planned(root, source, release=False, target=target).iter_files())
    assert len(let_go) == kept, "a conversion that keeps its records lets none go"


def test_records_let_go_keep_the_dates_the_undated_are_given(let_go, tmp_path):
    """An undated record is given the newest date of the store, worked out by the final write from every
    record: the records let go keep their dates for it."""
    root = bench_module("generators").make("memoir", tmp_path / "memoir", 24)
    undated = sorted((root / "memory").glob("lesson_*.md"))[0]
    undated.write_text("".join(line for line in undated.read_text().splitlines(keepends=True)
                               if not line.startswith(("created:", "updated:", "date:", "last_fired:"))))
    released = _planned(root, "memoir", release=True)
    files = dict(released.iter_files())
    assert let_go
    kept = _planned(root, "memoir", release=False)
    assert files == dict(kept.iter_files())
    said = [w for w in released.report.warnings if "have no date of their own" in w]
    assert said and "created is 2026-" in said[0]
    assert said == [w for w in kept.report.warnings if "have no date of their own" in w]


def test_records_let_go_before_one_is_set_aside_are_written_from_their_renderings(let_go, monkeypatch, tmp_path):
    """A record whose file memspec's reader refuses is set aside, and the records after it are rendered anew;
    those let go before it can only be written from their renderings, which are kept."""
    from memconv.errors import ReadError

    module = dialects.get("memspec")
    read_file = module.read_file

    def refusing(path, raw, meta):  # the read-back of the twelfth record (its title, in its file) is refused
        if b"number 11\n" in raw:
            raise ReadError(path, "refused for this test")
        return read_file(path, raw, meta)

    monkeypatch.setattr(module, "read_file", refusing)
    root = bench_module("generators").make("claude", tmp_path / "claude", 30)
    released = _planned(root, "claude", release=True)
    files = dict(released.iter_files())
    assert 0 < len(let_go) < 29, "records were let go before the refused one, and none after"
    assert [p for p in files if "quarantine" in p] == [
        ".memspec/.memconv/quarantine/reference_latency-rollout-11.md.kept"]
    records = {p: d for p, d in files.items() if p.startswith(".memspec/memory/")}
    assert len(records) == 29 and all(b"A generated " in d for d in records.values())


def test_the_files_of_a_conversion_that_let_its_records_go_are_read_once(tmp_path):
    root = bench_module("generators").make("claude", tmp_path / "claude", 20)
    plan = _planned(root, "claude", release=True)
    plan.drain()
    with pytest.raises(StoreError, match="read once"):
        plan.drain()
    kept = _planned(root, "claude", release=False)  # holding its records, a conversion's files can be read again
    assert dict(kept.iter_files()) == dict(kept.iter_files())


def test_a_record_the_read_back_wrote_under_another_id_is_kept_whole(let_go, monkeypatch, tmp_path):
    """Two records claiming one memspec id: the later is written under an id of its own, rendered again then;
    a record the read-back so renamed is not let go (its rendering is not what the final write takes)."""
    from memconv.dialects.memspec import records

    real = records.derive
    clash = real(None, "one id for all")
    monkeypatch.setattr(records, "derive", lambda created, identity: clash)  # every record claims one id
    root = bench_module("generators").make("claude", tmp_path / "claude", 12)
    released = _planned(root, "claude", release=True)
    files = dict(released.iter_files())
    renamed = {w.partition(":")[0] for w in released.report.warnings if "two records claim this memspec id" in w}
    assert len(renamed) >= 10
    # The first of each folder keeps the id and is let go; every later one is written anew, whole.
    assert {r.link for r in let_go}.isdisjoint(renamed) and len(let_go) + len(renamed) == 12
    assert files == dict(_planned(root, "claude", release=False).iter_files())


# --- memfmt: the carry is its frontmatter's ``memconv`` line; a profile, and a store with a record home, render again

MEMFMT_NATIVES = _natives("memfmt")


def _memfmt_rendered(record, carry: str | None) -> bytes | None:
    record = copy.deepcopy(record)
    strip_carry(record)
    if carry is not None:
        set_carry(record, "memfmt", carry)
    if record.kind == "profile" and not record.body:
        return None
    return memfmt._encode(memfmt.files.render(record, {}, "2026-01-01"), record.source)


def test_the_golden_stores_give_memfmt_records_of_every_kind():
    assert {r.kind for r in MEMFMT_NATIVES} >= {"entity", "episode", "procedure"}
    assert len(MEMFMT_NATIVES) >= 40


@settings(max_examples=300, deadline=None)
@given(st.data(), st.one_of(st.none(), _carry))
def test_a_memfmt_splice_gives_what_rendering_with_the_carry_gives(data, carry):
    record = MEMFMT_NATIVES[data.draw(st.sampled_from(range(len(MEMFMT_NATIVES))))]
    marker = "memconv-probe:7"
    spliced = memfmt.splice(_memfmt_rendered(record, marker), marker, carry)
    assume(spliced is not None)  # it may decline (a profile, the marker in the body too), never be wrong
    assert spliced == _memfmt_rendered(record, carry)


def test_a_memfmt_splice_places_every_json_carry_and_declines_only_a_profile():
    profile = copy.deepcopy(next(r for r in MEMFMT_NATIVES if r.kind == "episode"))
    profile.kind, profile.link, profile.title = "profile", "profile", "Profile"
    for i, record in enumerate([*MEMFMT_NATIVES, profile]):
        for carry in (json.dumps({"v": 1, "x": f"record {i}: \"quoted\"\n"}), None):
            spliced = memfmt.splice(_memfmt_rendered(record, "memconv-probe:1"), "memconv-probe:1", carry)
            if record.kind == "profile":
                assert spliced is None, "whether a profile is written, and its date, are its writer's to work out"
            else:
                assert spliced == _memfmt_rendered(record, carry), record.link


def test_a_memfmt_marker_also_in_the_body_or_out_of_the_frontmatter_is_not_spliced():
    marker = "memconv-probe:9"
    record = next(r for r in MEMFMT_NATIVES if r.kind == "entity")
    rendered = _memfmt_rendered(record, marker)
    line = b"\nmemconv: " + memfmt.syntax.scalar(marker).encode() + b"\n"
    assert line in rendered and memfmt.splice(rendered, marker, "carry") is not None
    assert memfmt.splice(rendered + line[1:], marker, "carry") is None  # twice: which one is the carry's?
    moved = rendered.replace(line, b"\n").replace(b"\n---\n", b"\n---\n" + line[1:], 1)
    assert memfmt.splice(moved, marker, "carry") is None  # in the body


def test_a_conversion_with_a_record_home_in_memfmt_splices_nothing(counted, monkeypatch, tmp_path):
    """memfmt works out at its write's call where a record home again goes, and whether its file is written as
    read, from whether it is unchanged; the read-back's marker and the carry change that, so such a conversion
    renders every record again (PLANS_HOME_BY_CARRY). Verified by making ``splices`` always true in
    converters/forward.py: the conversion fails (a home profile planned unchanged, rendered marked: KeyError)."""
    away = tmp_path / "memoir"
    store = pipeline.read(GOLDEN / "memfmt" / "legacy" / "input", "memfmt")
    files = dict(pipeline.plan(store, "memoir", Report(command="convert", input="in"), jobs=1).iter_files())
    for path, data in files.items():
        (away / path).parent.mkdir(parents=True, exist_ok=True)
        (away / path).write_bytes(data)
    home = _convert(away, "memoir", "memfmt")
    assert counted["memfmt"] == [], "nothing spliced"
    assert home == _unspliced(away, "memoir", monkeypatch, "memfmt")
    assert home == _convert(GOLDEN / "memfmt" / "legacy" / "input", "memfmt", "memfmt"), "home again as it was"
