"""A carry is untrusted input (issue 9, item 1): checked whole before use, ignored with a warning when wrong."""

from __future__ import annotations

import json
import shutil

import pytest

from memconv import dialects, pipeline
from memconv.converters.carry import Carry
from memconv.report import Report

from .hostile import convert_everywhere, store_with

CRAFTED = {
    "a kind memconv does not know": ({"fields": {"kind": "bogus"}}, "kind 'bogus'"),
    "a list where a date goes": ({"fields": {"created": [1, 2]}}, "created is a list"),
    "a number where text goes": ({"fields": {"title": 7}}, "title is a number"),
    "text where a count goes": ({"fields": {"fired_count": "7"}}, "fired_count is text"),
    "a boolean where a count goes": ({"fields": {"fired_count": True}}, "fired_count is a boolean"),
    "an absolute format path": ({"format": {"path": "/tmp/memconv-pwned.md", "raw": "x"}}, "format.path"),
    "a format path leaving OUT": ({"format": {"path": "../../memconv-pwned.md", "raw": "x"}}, "format.path"),
    "a link leaving OUT": ({"fields": {"link": "../../memconv-pwned"}}, "link '../../memconv-pwned'"),
    "an unknown dialect": ({"from": "bogus"}, "'bogus' as its dialect"),
    "a dialect that is a list": ({"from": ["claude"]}, "['claude'] as its dialect"),  # was a TypeError, exit 4
    "a dialect that is a mapping": ({"from": {}}, "{} as its dialect"),
    "version 0": ({"v": 0}, "version 0"),
    "a newer version": ({"v": 99}, "version 99"),
    "fields that are a list": ({"fields": [1]}, "fields is a list"),
    "an unknown field": ({"fields": {"password": "x"}}, "'password'"),
    "an edge with no target": ({"fields": {"edges": [{"type": "refines"}]}}, "no 'target'"),
    "an edge going sideways": ({"fields": {"edges": [{"type": "refines", "target": "x", "direction": "up"}]}},
                               "direction 'up'"),
    "an unknown edge field": ({"fields": {"edges": [{"type": "r", "target": "x", "evil": 1}]}}, "'evil'"),
    "a lifecycle state memconv does not know": ({"fields": {"lifecycle": {"state": "zombie"}}}, "'zombie'"),
    "an unknown key carried bare": ({"fields": {"extra.foo": 5}}, "extra.foo"),
    "format edits out of order": ({"format": {"path": "a.md", "base": "x", "ops": [[5, 1, "x"]]}}, "format.ops"),
    "format edits that are not edits": ({"format": {"path": "a.md", "base": "x", "ops": [["a"]]}}, "format.ops"),
    "format lines near fewer than its edits": ({"format": {"path": "a.md", "base": "x", "ops": [[0, 1, "y"]],
                                                           "near": []}}, "format.near"),
    "format lines near that are numbers": ({"format": {"path": "a.md", "base": "x", "ops": [[0, 1, "y"]],
                                                        "near": [1]}}, "format.near"),
    "format lines near that are a mapping": ({"format": {"path": "a.md", "base": "x", "ops": [[0, 1, "y"]],
                                                         "near": {"0": 1}}}, "format.near"),
    "format lines near that are not digests": ({"format": {"path": "a.md", "base": "x", "ops": [[0, 1, "y"]],
                                                           "near": ["-:name: x\n:-"]}}, "format.near"),
    "a carried kind in the payload": ({"kind": "bogus"}, "kind 'bogus'"),
    "a carried kind that is a list": ({"kind": ["fact"]}, "kind is a list"),  # was a TypeError, exit 4
    # Text no file holds, said as JSON escapes: a NUL made a file every reader refuses (exit 4, the record lost on
    # read-back), a lone surrogate could not be written as UTF-8 (a traceback).
    "a NUL in carried text": ({"fields": {"title": "a\u0000b"}}, "a NUL or a lone surrogate"),
    "a lone surrogate in carried text": ({"fields": {"why": "\ud800"}}, "a NUL or a lone surrogate"),
    "a lone surrogate in an unknown key": ({"fields": {"extra.k": [{"\ud800": 1}]}}, "a NUL or a lone surrogate"),
    # An inline bullet's mark: a list or a mapping where text or a number goes was a TypeError, exit 4.
    "an inline mark whose path is a list": ({"inline": {"path": [1], "section": None, "n": 0}}, "inline mark"),
    "an inline mark whose section is a mapping": ({"inline": {"path": "MEMORY.md", "section": {}, "n": 0}},
                                                  "inline mark"),
    "an inline mark whose number is a list": ({"inline": {"path": "MEMORY.md", "section": None, "n": [0]}},
                                              "inline mark"),
    "an inline mark that is a list": ({"inline": [1]}, "inline mark"),
    "native digests that are not text": ({"fields": {"title": "t"}, "native": {"title": 1}}, "native digests"),
    # Values memspec's reader refuses: written into memspec, the record was lost on read-back, exit 4.
    "a source_kind memspec does not take": ({"fields": {"source_kind": "bogus"}},
                                            "source_kind 'bogus' is not one memspec takes"),
    "a verified_with memspec does not take": ({"fields": {"verified_with": "hearsay"}},
                                              "verified_with 'hearsay' is not one memspec takes"),
    # Links the owner's reader does not read a record by: claude wrote them as files of a folder, or as its index.
    "a link in a folder": ({"fields": {"link": "sub/x"}}, "link 'sub/x' is not a name claude reads"),
    "a link that is the index": ({"fields": {"link": "MEMORY"}}, "link 'MEMORY' is not a name claude reads"),
    "a memspec link that is no id": ({"from": "memspec", "fields": {"link": "ms_nope"}},
                                     "link 'ms_nope' is not a name memspec reads"),
}


def _carry(changes: dict) -> str:
    doc = {"v": 1, "from": "claude", **changes}
    return json.dumps(doc)


def _memoir_entry(carry_text: str) -> str:
    return ("---\ntype: fact\nname: Crafted\ndescription: d\nmemconv: " + json.dumps(carry_text)
            + "\n---\nThe body stays.\n")


@pytest.mark.parametrize("case", list(CRAFTED))
def test_a_crafted_carry_is_ignored_with_the_file_and_the_reason_named(case):
    changes, reason = CRAFTED[case]
    root = store_with("memoir", {"memory/fact_crafted.md": _memoir_entry(_carry(changes))})
    for target, report in convert_everywhere(root, "memoir").items():
        if target == "memoir":
            continue
        said = [w for w in report.warnings if w.startswith("memory/fact_crafted.md: ")]
        assert said and reason in said[0] and "ignored" in said[0], (target, report.warnings)
        assert any(f.source == "memory/fact_crafted.md" for f in report.files), "the record still converts"


@pytest.mark.parametrize("text", ["{nope", "[]", '"text"', "null", '{"v": "1"}', "{" * 5000 + "}" * 5000])
def test_a_carry_that_is_not_a_carry_document_is_ignored(text):
    root = store_with("memoir", {"memory/fact_crafted.md": _memoir_entry(text)})
    for target, report in convert_everywhere(root, "memoir").items():
        if target != "memoir":
            assert any(w.startswith("memory/fact_crafted.md: ") and "ignored" in w for w in report.warnings)


def test_a_crafted_carry_writes_no_bogus_value_and_no_path_outside(tmp_path):
    from memconv import dialects, pipeline
    from memconv.report import Report

    root = store_with("memoir", {"memory/fact_crafted.md": _memoir_entry(_carry(
        {"fields": {"kind": "bogus", "created": [1, 2]}, "format": {"path": "/tmp/memconv-pwned.md", "raw": "x"}}))})
    store = dialects.get("memoir").read(root)
    for target in ("claude", "memspec", "memfmt"):
        files = pipeline.plan(store, target, Report(command="convert", input="x")).files
        text = b"".join(files.values())
        assert b"bogus" not in text and b"created: [1" not in text
        assert all(not p.startswith("/") and ".." not in p.split("/") for p in files)


def test_a_good_carry_still_applies():
    carry = Carry.loads(_carry({"fields": {"title": "Kept", "created": "2026-01-01", "fired_count": 3,
                                           "lifecycle": {"state": "hidden", "at": "2026-02-02"},
                                           "edges": [{"type": "refines", "target": "x"}],
                                           "link": "feedback_x", "extra.foo": [5]},
                                "native": {"title": "abc"},
                                "format": {"path": "feedback_x.md", "base": "x", "ops": [[0, 1, "y"], [2, 2, "z"]]}}))
    assert carry.fields["title"] == "Kept"


def test_a_date_field_keeps_what_its_dialect_keeps():
    """Dates are checked as text: memspec ``check_by: never`` and memfmt ``happened: -`` come home."""
    Carry.loads(_carry({"fields": {"check_by": "never", "happened": "-"}}))


@pytest.mark.parametrize("doc", [
    {"v": 1, "from": "memoir", "record": {"kind": "bogus", "link": "../../pwned"}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "x", "created": [1, 2]}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact"}},
    {"v": 1, "from": "memoir", "record": [1]},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "x", "edges": [{"t": 1}]}},
    {"v": 1, "from": "bogus", "record": {"kind": "fact", "link": "x"}},
    {"v": 1, "from": ["memoir"], "record": {"kind": "fact", "link": "x"}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "x", "title": "\ud800"}},
    # A store note whose dialect or store facts are not what memconv writes there: each was an exit 4.
    {"v": 1, "store": {"from": [1], "meta": {"layout": "flat"}}},
    {"v": 1, "store": {"from": "memspec", "meta": {"prefix": [1]}}},
    {"v": 1, "store": {"from": "memspec", "meta": {"operators": 7}}},
    {"v": 1, "working_set": [1]},
    # A working set its own dialect's reader refuses (memoir's session.json: a version it does not know, or text):
    # it was written so, and the output's session.json quarantined by the next read.
    {"v": 1, "from": "memoir", "working_set": {"version": 99}},
    {"v": 1, "from": "memoir", "working_set": {"version": "1"}},
    {"v": 1, "store": [1]},
    {"v": 1, "store": {"indexes": [{"path": "../x"}]}},
    {"v": 1, "store": {"raw": {"/etc/x": "y"}}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "x"}, "format": {"path": "/tmp/pwned.md", "raw": ""}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "MEMORY"}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "sub/x"}},
    {"v": 1, "from": "memoir", "record": {"kind": "fact", "link": "x", "source_kind": "bogus"}},
])
def test_a_crafted_note_is_kept_as_a_file_with_the_reason_said(doc):
    note = "---\nmemconv: " + json.dumps(json.dumps(doc)) + "\n---\nbody\n"
    root = store_with("claude", {"memconv/crafted.md": note})
    for target, report in convert_everywhere(root, "claude").items():
        if target != "claude":
            assert any(w.startswith("memconv/crafted.md: ") and "kept as a file" in w for w in report.warnings), \
                report.warnings


@pytest.mark.parametrize("link", ["../../memconv-pwned", "/tmp/memconv-pwned", "C:memconv-pwned"])
def test_a_memfmt_carry_naming_any_link_writes_nothing_outside_the_store(link):
    # A memfmt carry's link is a name only (memfmt names files after a slug of the name, and its
    # own episode links may look like a drive: ``X:-episode``): it is not refused, and no writer
    # makes a path of it.
    carry = json.dumps({"v": 1, "from": "memfmt", "fields": {"link": link}, "kind": "episode"})
    root = store_with("memoir", {"memory/fact_crafted.md": _memoir_entry(carry)})
    store = dialects.get("memoir").read(root)
    shutil.rmtree(root)
    for target in dialects.available():
        report = Report(command="convert", input="<memory>")
        plan = pipeline.plan(store, target, report)
        assert [p for p in plan.files if "pwned" in p or ".." in p or p.startswith("/")] == [], target
        assert not any("fact_crafted" in w and "ignored" in w for w in report.warnings), "the carry is used"


# --- the carries of a real converted store, their values changed (every key a carry can hold) ---------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from memconv.converters.carry import FIELDS  # noqa: E402
from memconv.converters.slots import get_carry, set_carry  # noqa: E402
from memconv.errors import MemconvError  # noqa: E402

from .conftest import GOLDEN  # noqa: E402
from .hostile import BASE  # noqa: E402

#: The files of each golden store converted into each other dialect: IN whose records carry real carries, in each
#: of the four dialects (claude's golden store in memoir carries nothing: memoir holds all of it).
_VIA = [(source, via) for source in BASE for via in BASE if via != source and (source, via) != ("claude", "memoir")]
_CONVERTED: dict[tuple[str, str], dict[str, bytes]] = {}
#: Words a carried value may be: names dialects reserve or refuse, kinds, states, text no file holds.
_WORDS = st.sampled_from(["", "x", "MEMORY", "memory", "a/b", "../x", ".h", "x\ny", "---", "-", "bogus", "fact",
                          "entity", "episode", "opaque", "lesson", "done", "hidden", "superseded", "retired",
                          "operator", "probe", "2026-01-01", "never", "ms_01KN6VW92007FGJ3K7XW52AH0T",
                          "memfmt_type", "id", "type", "name", "\x00", "\ud800"]) | st.text(max_size=6)
_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-1, 2 ** 40) | _WORDS,
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_WORDS, inner, max_size=3),
                       max_leaves=6)
#: Shapes memconv writes there, with words drawn into them: a lifecycle, edges, an inline mark, a format patch.
_SHAPED = (st.builds(lambda s, at: {"state": s, "at": at}, _WORDS, _WORDS)
           | st.lists(st.builds(lambda t, to, d: {"type": t, "target": to, "direction": d},
                                _WORDS, _WORDS, st.sampled_from(["in", "out"])), max_size=2)
           | st.builds(lambda p, s, n: {"path": p, "section": s, "n": n, "digest": "x"}, _WORDS, _WORDS, st.integers(0, 3))
           | st.builds(lambda p, r: {"path": p, "raw": r}, _WORDS, _WORDS)
           | st.lists(_WORDS, max_size=3))
_KEYS = st.sampled_from(list(FIELDS) + [f"extra.{k}" for k in ("x", "memfmt_type", "id", "type", "name", "---")]
                        + ["kind", "format", "inline", "derived", "working_set_rendering", "extra_order", "from"])


def _converted(source: str, via: str) -> dict[str, bytes]:
    if (source, via) not in _CONVERTED:
        store = dialects.get(source).read(GOLDEN / BASE[source] / "input")
        _CONVERTED[source, via] = dict(pipeline.plan(store, via, Report(command="convert", input="x")).files)
    return _CONVERTED[source, via]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(st.sampled_from(_VIA), st.data())
def test_a_changed_carried_value_never_stops_the_store(tmp_path_factory, pair, data):
    # Found this way (each an exit 4, "bug", or a traceback, before its check): a carried source_kind memspec does
    # not take, a link memoir does not read, "from" or the kind a list, an inline mark's parts lists, a NUL or a
    # lone surrogate in carried text, an unknown key memfmt's own files hold.
    source, via = pair
    root = tmp_path_factory.mktemp("in")
    for path, raw in _converted(source, via).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(raw)
    store = dialects.get(via).read(root)
    carried = [r for r in store.records if isinstance(get_carry(r), str)]
    record = data.draw(st.sampled_from(carried))
    doc = json.loads(get_carry(record))
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(_KEYS)
        value = data.draw(_SHAPED | _VALUES)
        if key.startswith("extra."):
            value = data.draw(st.sampled_from([[value], value]))
        place = doc if key in ("kind", "format", "inline", "derived", "working_set_rendering", "extra_order", "from") \
            else doc.setdefault("fields", {})
        place[key] = value
        if data.draw(st.booleans()):
            doc.get("native", {}).pop(key, None)  # applied whatever the target shows
    set_carry(record, via, json.dumps(doc))
    for target in dialects.available():
        report = Report(command="convert", input=str(root))
        try:
            files = dict(pipeline.plan(store, target, report).files)
        except MemconvError as exc:
            raise AssertionError(f"{via} → {target}: {exc} ({exc.hint})") from None
        assert [p for p in files if p.startswith("/") or ".." in p.split("/")] == [], target
