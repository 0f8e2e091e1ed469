"""Every key of ``session.json`` the memoir spec does not name is shown in the target, and comes home exact.

memoir-cli keeps unknown keys at every level of ``session.json``, and people and agents write them: a goal's
``owner`` and ``due``, a ``team`` or ``notes`` beside ``current``. The working set's rendering showed the lists
under ``current`` (docs/conversion.md) but not these, which travelled only in the note holding the exact JSON,
which no tool of the target shows or searches (principle 1). Now an item's unknown keys follow its line
(``— owner: Kenji; due: 2026-07-01``), and a key beside ``current`` (or a value under it that is not a list) is
shown under its key, as an unknown list under ``current`` is: one rule (``native.as_line``) for every JSON value.
An edit of those lines in the target is reported and counted dropped: the way home restores the note.
"""

from __future__ import annotations

import json
import shutil
import string
from pathlib import Path

import memfmt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memconv import dialects
from memconv.converters.native import working_set_items
from memconv.model import WorkingSet

from .conftest import GOLDEN, tree
from .convert_helpers import convert_dir, convert_files, read_files
from .native_words import share
from .reference_tools import memoir_validate, memspec_load, needs_memoir, needs_memspec

CANONICAL = GOLDEN / "memoir" / "canonical" / "input"
TARGETS = ["claude", "memspec", "memfmt"]


def _store(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    shutil.copytree(CANONICAL, src)
    document = json.loads((src / "session.json").read_text())
    document["current"]["goals"][0].update({"owner": "Kenji", "due": "2026-07-01",
                                            "links": {"ticket": "IMP-7 wombat", "done": False}})
    document["history"][0]["mood"] = "quokka calm"
    document["team"] = "search platypus"
    document["notes"] = ["Ask Lena about narwhal tiers", {"text": "A hidden aside", "hidden": True}]
    document["current"]["focus"] = "the axolotl importer"
    (src / "session.json").write_text(json.dumps(document, indent=2, ensure_ascii=False))
    return src


def _shown(files: dict[str, bytes]) -> bytes:
    return b"".join(b for p, b in files.items() if ".memconv/" not in p)


@pytest.mark.parametrize("target", TARGETS)
def test_every_unknown_key_is_shown_and_the_way_back_is_exact(tmp_path, target):
    # Watched fail with only the unknown current lists rendered (3f3c3df): 'kenji', 'platypus', 'narwhal'… missing.
    src = _store(tmp_path)
    store = dialects.get("memoir").read(src)
    files, _ = convert_files(store, target)
    found, wanted, missing = share(store, target, files)
    assert not missing, sorted(missing)
    shown = _shown(files)
    assert b"Ship v1 of the importer (set_on 2026-06-01T09:00:00.000Z) \xe2\x80\x94 owner: Kenji; due: 2026-07-01; " \
           b"links: (ticket: IMP-7 wombat; done: false)" in shown
    assert b"Wired the importer flag \xe2\x80\x94 files touched: src/import/flag.js \xe2\x80\x94 mood: quokka calm" in shown
    assert b"search platypus" in shown and b"Ask Lena about narwhal tiers" in shown and b"axolotl" in shown
    assert b"A hidden aside" not in shown, "a hidden item is not shown, as a hidden decision is not"
    there = convert_dir(src, target, tmp_path / "there")
    back = convert_dir(there, "memoir", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv/")} == tree(src)


def test_the_rendering_reads_in_the_files_order_and_says_each_type():
    # One line per value, whatever its JSON type; a key's object in parentheses, so its keys are not its parent's.
    document = {"current": {"goals": [{"text": "G", "set_on": "2026-01-01", "n": 3, "ok": True, "none": None,
                                       "deep": {"a": {"b": [1, [2, 3]]}}}]},
                "zeta": "last", "alpha": {"nested": {"x": 1.5}}, "empty": [], "nothing": None}
    items = working_set_items(WorkingSet(document=document))
    assert items == [("Goals", ["G (set_on 2026-01-01) — n: 3; ok: true; deep: (a: (b: 1, (2, 3)))"]),
                     ("Zeta", ["last"]), ("Alpha", ["nested: (x: 1.5)"])]
    assert working_set_items(WorkingSet(document=document)) == items, "the same input, the same lines"


def test_the_measure_counts_unknown_keys():
    # The measure (tests/native_words.py) counts them now, so the words test would catch their loss.
    from memconv.model import Store

    from .native_words import source_words

    store = Store(dialect="memoir", working_set=WorkingSet(document={
        "current": {"goals": [{"text": "Ship", "owner": "Kenji"}], "focus": "axolotl"},
        "history": [{"date": "2026-01-01", "summary": "x", "mood": "quokka"}], "team": ["platypus"]}))
    assert {"kenji", "axolotl", "quokka", "platypus"} <= source_words(store, "memspec")


def test_memfmt_reads_the_lines_as_facts(tmp_path):
    there = convert_dir(_store(tmp_path), "memfmt", tmp_path / "there")
    facts = {e.name: e for e in memfmt.load(there / "memory").entities}["Working set"].facts
    assert "Team: search platypus" in facts and "Notes: Ask Lena about narwhal tiers" in facts
    assert "Focus: the axolotl importer" in facts


@needs_memspec
def test_memspec_loads_and_finds_them(tmp_path):
    there = convert_dir(_store(tmp_path), "memspec", tmp_path / "there")
    assert not memspec_load(there).problems
    assert any(i["title"] == "Working set" for i in memspec_load(there).items)


@needs_memoir
def test_memoir_validate_accepts_the_claude_output(tmp_path):
    there = convert_dir(_store(tmp_path), "claude", tmp_path / "there")
    verdict = memoir_validate(there)
    assert verdict.ok, verdict.output


@pytest.mark.parametrize("target", TARGETS)
def test_an_edit_of_a_shown_line_is_reported_and_counted_dropped(tmp_path, target):
    # Watched fail without the report entry: the edit was only a warning, the counts said 0 dropped.
    src = _store(tmp_path)
    files, _ = convert_files(dialects.get("memoir").read(src), target)
    (path,) = [p for p, b in files.items() if ".memconv/" not in p and b"search platypus" in b]
    files[path] = files[path].replace(b"search platypus", b"search wombat")
    back, report = convert_files(read_files(files, target), "memoir")
    assert back["session.json"] == (src / "session.json").read_bytes(), "the note wins"
    assert any("working set's rendering was edited" in w for w in report.warnings)
    (entry,) = [r for r in report.files if r.target_kind == "working_set"]
    assert entry.target == "session.json" and entry.dropped == ["edits"]


def test_an_edited_rendering_fails_fail_on_loss(runner, tmp_path):
    # The count is what --fail-on-loss reads: exit 5, nothing written. Watched exit 0 without the report entry.
    from memconv.cli import main

    there = convert_dir(_store(tmp_path), "claude", tmp_path / "there")
    (shown,) = [p for p in there.glob("*.md") if b"search platypus" in p.read_bytes()]
    shown.write_bytes(shown.read_bytes().replace(b"search platypus", b"search wombat"))
    failed = runner.invoke(main, ["convert", "--to", "memoir", "--fail-on-loss", str(there), str(tmp_path / "back")])
    assert failed.exit_code == 5, failed.output
    assert not (tmp_path / "back").exists()


# --- any JSON value, anywhere a key may be unknown ----------------------------------------------------------

#: Texts a line of markdown or frontmatter could be broken by, beside any text.
_HOSTILE = st.sampled_from(["---", "# Heading", "## Goals", "- item", "a\n---\nname: x", "```", "x\r\ny", "\u2028",
                            "\x85", "**bold**", "[[link]]", "name: y", "  ", "", "\t", "\x1b[31m", "…"])
_TEXT = _HOSTILE | st.text(max_size=12)
_SCALAR = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _TEXT
_JSON = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8)
_KEY = st.text(alphabet=string.ascii_letters + "_ #-:\n", min_size=1, max_size=8) | _HOSTILE


def _session(item_key, top_key, current_key, values) -> bytes:
    goal = {"text": "Ship the importer", "set_on": "2026-06-01", item_key: values[0]}
    document = {"version": 1, "created_at": "2026-04-18T08:22:36.703Z", "machines": {},
                "current": {"goals": [goal], "next_actions": [], "open_questions": [], "decisions": [],
                            current_key: values[1]},
                "history": [{"date": "2026-06-01", "summary": "Began", item_key: values[2]}], top_key: values[3]}
    return json.dumps(document, indent=2, ensure_ascii=True).encode()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                  HealthCheck.function_scoped_fixture])
@given(item_key=_KEY, top_key=_KEY, current_key=_KEY, values=st.lists(_JSON, min_size=4, max_size=4),
       target=st.sampled_from(TARGETS))
def test_any_value_renders_safely_and_comes_home_exact(tmp_path_factory, item_key, top_key, current_key, values,
                                                        target):
    assume(item_key not in {"text", "set_on", "date", "summary", "hidden"})
    assume(top_key not in {"version", "created_at", "updated_at", "machines", "current", "history"})
    assume(current_key not in {"goals", "next_actions", "open_questions", "decisions", "parked_actions",
                               "completed_actions", "completed_goals"})
    raw = _session(item_key, top_key, current_key, values)
    # A NUL in session.json (a \u0000 escape) is text no file holds: the file is quarantined (docs/limits.md).
    assume(b"\\u0000" not in raw)
    src = tmp_path_factory.mktemp("in")
    (src / "memory").mkdir()
    (src / "session.json").write_bytes(raw)
    document = json.loads(raw)
    items = working_set_items(WorkingSet(document=document))
    files, _ = convert_files(dialects.get("memoir").read(src), target)
    (path,) = [p for p, b in files.items() if b"working_set_rendering" in b]
    data = files[path]
    assert b"\x00" not in data and b"\x1b" not in data, "no control character reaches a line of the target"
    lines = [line for _, said in items for line in said]
    if target == "memfmt":
        out = tmp_path_factory.mktemp("memfmt")
        for p, b in files.items():
            (out / p).parent.mkdir(parents=True, exist_ok=True)
            (out / p).write_bytes(b)
        (entity,) = [e for e in memfmt.load(out / "memory").entities if e.name == "Working set"]
        assert entity.facts == [f"{heading}: {line}" for heading, said in items for line in said]
    else:
        body = data.decode("utf-8").split("\n---\n", 1)[1]
        marks = [ln for ln in body.splitlines() if ln.startswith(("#", "---")) and ln != "# Working set"]
        assert marks == [f"## {h}" for h, _ in items], \
            "every heading is one the rendering made: no line of a value is read as a heading or a fence"
        assert [ln[2:] for ln in body.splitlines() if ln.startswith("- ")] == lines
    back, report = convert_files(read_files(files, target), "memoir")
    assert not any("edited" in w for w in report.warnings), "the target's reader reads the rendering as written"
    assert back["session.json"] == raw


def test_a_history_rows_files_are_shown():
    # Watched fail before (2026-12-05): the files a session touched were in the note alone.
    document = {"history": [{"date": "2026-08-06", "summary": "Wired the flag", "files_touched": ["src/a.js", "b.md"]},
                            {"date": "2026-08-01", "summary": "Triage", "files_touched": []}]}
    assert working_set_items(WorkingSet(document=document)) == [
        ("History", ["2026-08-06: Wired the flag — files touched: src/a.js, b.md", "2026-08-01: Triage"])]


def test_no_two_headings_are_one():
    # A key beside ``current`` named like one of its lists, an unknown ``current.history``: before (2026-12-05) each
    # was a second ``## Goals`` or ``## History``, two lists under one heading.
    document = {"current": {"goals": [{"text": "G"}], "history": ["h"], "blockers": ["b1"]},
                "goals": ["top"], "Blockers": "B2", "history": [{"date": "d", "summary": "s"}]}
    items = working_set_items(WorkingSet(document=document))
    headings = [heading for heading, _ in items]
    assert len(headings) == len(set(headings)), headings
    assert items == [("Goals", ["G"]),
                     ("History (session.json key current.history)", ["h"]),
                     ("Blockers", ["b1"]),
                     ("Goals (session.json key goals)", ["top"]),
                     ("Blockers (session.json key Blockers)", ["B2"]),
                     ("History", ["d: s"])]
