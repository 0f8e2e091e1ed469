"""Converting the same input twice gives the same files; new ids are ULIDs made from the record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memconv.dialects import memspec
from memconv.dialects.memspec.ulid import ID, derive
from memconv.fs import list_files
from memconv.model import Lifecycle, Record, Store

from . import golden

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "memspec"


def test_migrating_the_same_store_twice_gives_identical_output(tmp_path):
    root = GOLDEN / "v02-dated-observations" / "input"
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        subprocess.run([sys.executable, "-m", "memconv", "migrate", str(root), str(out)], check=False,
                       capture_output=True, cwd=Path(__file__).resolve().parent.parent)
        outs.append({p: (out / p).read_bytes() for p in list_files(out)})
    assert outs[0] and outs[0] == outs[1], "same input, same files, byte for byte"
    expected = golden.migrated("memspec", "v02-dated-observations")
    assert {p: b for p, b in outs[0].items() if not p.startswith(".memconv/manifest")} == expected, \
        "`memconv migrate IN OUT` on a v0.2 store writes the store of the golden snapshot"


def test_derived_ids_are_deterministic_ulids_that_sort_by_created():
    a = derive("2026-04-04T10:30:00.000Z", "fact_db-choice")
    assert ID.match(a)
    assert a == derive("2026-04-04T10:30:00.000Z", "fact_db-choice")
    assert a != derive("2026-04-04T10:30:00.000Z", "fact_other")
    assert derive("2026-04-03T00:00:00Z", "zzz") < a < derive("2026-04-05T00:00:00Z", "aaa"), \
        "the time part comes from created, so ids sort chronologically"
    # 2026-04-04T10:30:00.000Z = 1775298600000 ms; its 10 base32 characters lead the ULID.
    assert a[3:13] == "01KNC0NQ20"


def test_records_built_in_code_land_in_the_folder_their_state_kind_and_tier_imply():
    records = [Record(kind="fact", link="a", title="A", created="2026-04-04"),
               Record(kind="decision", link="b", title="B", created="2026-04-04", source_text="human:ana"),
               Record(kind="observation", link="c", title="C", created="2026-04-04"),
               Record(kind="procedure", link="d", title="D", created="2026-04-04", lifecycle=Lifecycle("retired"))]
    files = memspec.write(Store(dialect="memfmt", records=records))
    folders = sorted(p.rsplit("/", 1)[0] for p in files)
    assert folders == [".memspec/archive", ".memspec/memory/facts", ".memspec/memory/operator/decisions",
                       ".memspec/observations"]
    observation = next(d for p, d in files.items() if "/observations/" in p).decode()
    assert "expires: '2026-04-11T00:00:00.000Z'" in observation
    assert "check_by: '2026-04-11T00:00:00.000Z'" in observation, "an observation's check_by is its expiry"


def test_an_edit_that_retires_a_record_moves_it_to_archive():
    root = GOLDEN / "current-every-field" / "input"
    store = memspec.read(root)
    record = next(r for r in store.records if r.link == "ms_01KN9E9020GFWGMEAJVSM4XVEK")
    record.lifecycle = Lifecycle("retired")
    files = memspec.write(store)
    assert ".memspec/archive/ms_01KN9E9020GFWGMEAJVSM4XVEK.md" in files
    assert ".memspec/memory/operator/procedures/ms_01KN9E9020GFWGMEAJVSM4XVEK.md" not in files
    text = files[".memspec/archive/ms_01KN9E9020GFWGMEAJVSM4XVEK.md"].decode()
    assert "\nstate: retired\n" in text and text.count("\n") == \
        (root / ".memspec/memory/operator/procedures/ms_01KN9E9020GFWGMEAJVSM4XVEK.md").read_text().count("\n")


def test_both_store_shapes_are_detected_and_kept():
    project = memspec.detect(GOLDEN / "current-every-field" / "input")
    folder = memspec.detect(GOLDEN / "newer-scope-probes" / "input")
    assert project is not None and folder is not None
    assert memspec.read(GOLDEN / "current-every-field" / "input").meta["prefix"] == ".memspec/"
    assert memspec.read(GOLDEN / "newer-scope-probes" / "input").meta["prefix"] == ""
    assert memspec.detect(GOLDEN / "v02-dated-observations" / "input").hint, "a legacy store says migrate helps"


def test_scope_absent_and_universal_are_different_facts():
    store = memspec.read(GOLDEN / "newer-scope-probes" / "input")
    scopes = {r.title: r.scope for r in store.records}
    assert scopes["The toolchain pins Node 22"] == "universal"
    assert scopes["No scope on this one: not yet classified"] is None
    probe = next(r for r in store.records if r.title == "Nobody sets core.autocrlf").probes[0]
    assert probe.extra == {"recorded_at": "2026-08-05T10:30:00.000Z"}, "unknown probe sub-keys are kept"


def test_a_body_that_repeats_the_title_is_not_written_twice():
    record = Record(kind="fact", link="x", title="Same", body="# Same\n\nProse.\n", created="2026-04-04")
    files = memspec.write(Store(dialect="claude", records=[record]))
    text = next(iter(files.values())).decode()
    assert text.endswith("---\n# Same\n\nProse.\n")
