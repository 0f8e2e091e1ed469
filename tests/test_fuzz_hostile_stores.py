"""Fuzzing (issue 9, item 9): hostile bytes, frontmatter, session.json, carries, notes and names, every dialect.

The properties: reading a generated store and converting it to every dialect
raises nothing but memconv's own errors; a quarantined file is named, with a
reason; and the CLI run in a sandbox folder writes nothing outside OUT and
leaves IN unchanged.

A bounded run is part of the normal suite. The long run is behind the
``fuzz`` marker (docs/testing.md): ``pytest -m fuzz``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memconv import dialects, pipeline
from memconv.cli import main
from memconv.errors import MemconvError
from memconv.model import KINDS
from memconv.report import Report

from .hostile import HEAD

DIALECTS = dialects.available()

#: Where each dialect keeps a record file; ``{}`` is the generated name.
FOLDER = {"memoir": "memory/{}.md", "claude": "{}.md", "memspec": ".memspec/memory/facts/{}.md",
          "memfmt": "memory/entities/{}.md"}
#: Where memconv's notes live in each dialect.
NOTES = {"memoir": "memconv/{}.md", "claude": "memconv/{}.md", "memspec": ".memspec/memconv/{}.md",
         "memfmt": "memconv/{}.md"}
#: Record fields a carry may name (and a few it may not).
CARRY_FIELDS = ["kind", "link", "title", "description", "body", "created", "tags", "edges", "lifecycle", "origin",
                "fired_count", "steps", "anchors", "stale", "extra.x", "extra.type", "nonsense"]

# --- strategies ------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)

names = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=40),
    st.sampled_from(["MEMORY", "MEMORY-2", "memory", "Fact_A", "fact_a", "caf\u00e9", "cafe\u0301", "a\\b",
                     "日本語", "x" * 200, " lead", "trail ", "-dash", ".hidden", "ms_01KNRWNA20VCD395V3FZBW4Z1W"]),
).filter(lambda n: n not in (".", "..") and len(n.encode()) <= 200)


def carries() -> st.SearchStrategy[str]:
    """A ``memconv`` carry: arbitrary JSON, or a carry document with arbitrary parts."""
    shaped = st.fixed_dictionaries(
        {"v": st.one_of(st.just(1), st.integers(-2, 3), st.text(max_size=2)),
         "from": st.one_of(st.sampled_from(DIALECTS), st.text(max_size=6))},
        optional={"fields": st.dictionaries(st.sampled_from(CARRY_FIELDS), json_values, max_size=4),
                  "native": st.dictionaries(st.sampled_from(CARRY_FIELDS), json_values, max_size=2),
                  "extra_order": json_values,
                  "kind": st.one_of(st.sampled_from(KINDS), st.text(max_size=6)),
                  "format": st.fixed_dictionaries(
                      {"path": st.sampled_from(["../../pwned.md", "/tmp/pwned.md", "ok.md", "a/../../b.md", ""])},
                      optional={"raw": json_values, "base": json_values, "ops": json_values, "near": json_values})})
    return st.one_of(shaped.map(json.dumps), json_values.map(json.dumps), st.text(max_size=30))


def frontmatter(dialect: str) -> st.SearchStrategy[str]:
    """A frontmatter block: the dialect's own head with hostile additions, YAML of any data, or YAML syntax soup."""
    extra = st.one_of(
        st.dictionaries(st.text(min_size=1, max_size=10), json_values, max_size=3).map(
            lambda d: yaml.safe_dump(d, allow_unicode=True) if d else ""),
        carries().map(lambda c: "memconv: " + json.dumps(c) + "\n"),
        st.sampled_from(["1: x\n", "schema_version: 3\n", "x: !!binary aGk=\n", "x: !!python/name:os.system\n",
                         "a: &a [1,2]\nb: [*a,*a,*a]\n", "x: " + "[" * 120 + "]" * 120 + "\n", "n: " + "9" * 5000 + "\n",
                         "created: [1, 2]\n", "type: bogus\n", "description: again\n", "x: !mine y\n"]),
        st.text(st.sampled_from("ab:-[]{}&*!|>'\"%@`#, \n\t"), max_size=40),
    )
    return st.tuples(st.booleans(), extra).map(lambda t: "---\n" + (HEAD[dialect] if t[0] else "") + t[1] + "---\n")


def record_bytes(dialect: str) -> st.SearchStrategy[bytes]:
    body = st.one_of(st.text(max_size=60), st.sampled_from(["`" * 300 + "[[x]]", "[[" * 200, "## " + "# " * 200 + "x",
                                                             "- a" + " → [[x" * 50, "](" * 200]))
    text = st.tuples(frontmatter(dialect), body).map(lambda t: t[0] + t[1])
    encoded = st.tuples(text, st.sampled_from(["plain", "bom", "crlf", "mixed"])).map(_encode)
    return st.one_of(encoded, encoded, st.binary(max_size=80))


def _encode(pair: tuple[str, str]) -> bytes:
    text, how = pair
    if how == "bom":
        text = "\ufeff" + text
    elif how == "crlf":
        text = text.replace("\n", "\r\n")
    elif how == "mixed":
        text = text.replace("\n", "\r\n", 2)
    return text.encode("utf-8", "surrogatepass")


def note_documents() -> st.SearchStrategy[str]:
    """What a note holds: a record, a working set or a store, each with arbitrary parts; or any carry."""
    record = st.dictionaries(st.sampled_from(CARRY_FIELDS), json_values, max_size=5)
    return st.one_of(
        carries(),
        st.fixed_dictionaries({"v": st.just(1), "from": st.sampled_from(DIALECTS + ["bogus"])},
                              optional={"format": json_values}).flatmap(
            lambda head: st.one_of(record.map(lambda r: {**head, "record": r}),
                                   json_values.map(lambda w: {**head, "working_set": w}),
                                   json_values.map(lambda x: {**head, "store": x}))).map(json.dumps))


def note_bytes() -> st.SearchStrategy[bytes]:
    return st.tuples(note_documents(), st.text(max_size=40)).map(
        lambda t: ("---\nmemconv: " + json.dumps(t[0]) + "\n---\n" + t[1]).encode("utf-8", "surrogatepass"))


session_bytes = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"version": st.one_of(st.integers(-1, 3), st.text(max_size=2))},
                          optional={"current": json_values, "history": json_values}).map(lambda d: json.dumps(d).encode()),
    st.binary(max_size=40),
    st.just(b'{"version":1,"x":' + b"[" * 3000 + b"]" * 3000 + b"}"),
)


@st.composite
def stores(draw, dialect: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for name in draw(st.lists(names, min_size=1, max_size=4)):
        files[FOLDER[dialect].format(name)] = draw(record_bytes(dialect))
    if draw(st.booleans()):
        files[NOTES[dialect].format(draw(names))] = draw(note_bytes())
    if dialect == "memoir" and draw(st.booleans()):
        files["session.json"] = draw(session_bytes)
    if dialect == "memfmt" and draw(st.booleans()):
        files["memory/episodes/" + draw(names) + ".md"] = draw(record_bytes(dialect))
    return files


def _write(root: Path, files: dict[str, bytes]) -> bool:
    """Write the files; False when this file system refuses a name (then the example is not used)."""
    try:
        for path, data in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
    except (OSError, UnicodeEncodeError, ValueError):
        return False
    return True


def _tree(root: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            p = Path(dirpath) / name
            out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


# --- properties ------------------------------------------------------------------------------------


def _converts_everywhere(dialect: str, files: dict[str, bytes]) -> None:
    root = Path(tempfile.mkdtemp(prefix="memconv-fuzz-"))
    try:
        assume(_write(root, files))
        try:
            store = dialects.get(dialect).read(root)
        except MemconvError:
            return  # a whole-store problem, said as memconv's own error
        for q in store.quarantined:
            assert q.path in files and q.reason, "a quarantined file is named, with a reason"
        for target in DIALECTS:
            report = Report(command="convert", input=str(root))
            try:
                plan = pipeline.plan(store, target, report)
            except MemconvError:
                continue
            for q in report.quarantined:
                assert q["reason"] and q["kept_at"] in plan.files
            assert (report.exit_code == 3) == bool(report.quarantined)
            for path in plan.files:
                assert not path.startswith("/") and ".." not in path.split("/") and "\\" not in path, path
    finally:
        shutil.rmtree(root, ignore_errors=True)


BOUNDED = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_hostile_store_converts_or_fails_with_memconvs_own_error(dialect):
    BOUNDED(given(files=stores(dialect))(lambda files: _converts_everywhere(dialect, files)))()


#: What the fuzzing found once (CI, 2026-12-02): a session.json whose lists are not lists crashed the
#: working set's rendering with a TypeError (exit 70).
SESSIONS_NOT_LISTS = [b'{"version": 0, "current": null, "history": true}',
                      b'{"version": 1, "current": {"goals": true, "next_actions": 3}, "history": {"a": 1}}']


@pytest.mark.parametrize("session", SESSIONS_NOT_LISTS, ids=["history-true", "current-lists-not-lists"])
def test_a_session_whose_lists_are_not_lists_converts_everywhere(session, tmp_path):
    # Verified with WorkingSet.current and .history giving back what session.json holds, as they did:
    # TypeError: 'bool' object is not iterable, in native.working_set_items.
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "session.json").write_bytes(session)
    (tmp_path / "in" / "memory" / "fact_x.md").write_text("---\ntype: fact\nname: X\ndescription: d\n---\n\nB.\n")
    runner = CliRunner()
    for target in ("claude", "memspec", "memfmt"):
        there = runner.invoke(main, ["convert", "--to", target, str(tmp_path / "in"), str(tmp_path / target)])
        assert there.exit_code in (0, 3), there.output
    back = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "memfmt"), str(tmp_path / "back")])
    assert back.exit_code in (0, 3), back.output
    came_back = (tmp_path / "back" / "session.json").read_bytes()
    if json.loads(session)["version"] == 1:
        assert came_back == session, "the exact session.json comes home"
    else:  # version 0 comes home migrated (memoir's ladder: version 1, its missing lists filled)
        assert json.loads(came_back)["history"] == json.loads(session)["history"], "its odd history kept"


#: What the fuzzing found once (CI, 2026-12-03): a body with a carriage return and no line feed after it
#: crashed the conversion into memfmt (an IndexError in markdown.blocks: markdown-it counted a line more).
LONE_CARRIAGE_RETURNS = [{"memory/0.md": b"---\n---\n0\r0"}, {"memory/0.md": b"\r\x01"},
                         {"memory/0.md": b"---\n---\n- a\r\r\n\n```\nx\ry\n```\n"}]


@pytest.mark.parametrize("dialect", ["memoir", "claude"])
@pytest.mark.parametrize("files", LONE_CARRIAGE_RETURNS, ids=["in-prose", "alone", "in-a-list-and-code"])
def test_a_body_with_a_lone_carriage_return_converts_everywhere(dialect, files):
    # Verified by parsing the body as it stands in markdown._block_tokens: IndexError, list index out of range.
    # The fuzzing's own property, given just this store (a store it cannot write is Unsatisfiable, not a pass).
    settings(max_examples=1, deadline=None)(given(files=st.just(files))(
        lambda files: _converts_everywhere(dialect, files)))()


@pytest.mark.fuzz
@pytest.mark.parametrize("dialect", DIALECTS)
def test_fuzz_long_a_hostile_store_converts_or_fails_with_memconvs_own_error(dialect):
    LONG(given(files=stores(dialect))(lambda files: _converts_everywhere(dialect, files)))()


def _cli_in_a_sandbox(dialect: str, files: dict[str, bytes], target: str) -> None:
    sandbox = Path(tempfile.mkdtemp(prefix="memconv-sandbox-"))
    try:
        store = sandbox / "in"
        store.mkdir()
        assume(_write(store, files))
        before = _tree(sandbox)
        out = sandbox / "out"
        result = CliRunner().invoke(main, ["convert", "--from", dialect, "--to", target, "--json",
                                           str(store), str(out)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code in (0, 2, 3, 4, 5), result.output
        after = _tree(sandbox)
        assert {p: b for p, b in after.items() if p.startswith("in/")} == before, "IN unchanged"
        outside = [p for p in after if not p.startswith(("in/", "out/"))]
        assert not outside, f"written outside OUT: {outside}"
        assert not (Path("/tmp/pwned.md")).exists()
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_cli_writes_nothing_outside_out_and_leaves_in_unchanged(dialect):
    settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))(
        given(files=stores(dialect), target=st.sampled_from(DIALECTS))(
            lambda files, target: _cli_in_a_sandbox(dialect, files, target)))()


@pytest.mark.fuzz
@pytest.mark.parametrize("dialect", DIALECTS)
def test_fuzz_long_the_cli_writes_nothing_outside_out(dialect):
    settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))(
        given(files=stores(dialect), target=st.sampled_from(DIALECTS))(
            lambda files, target: _cli_in_a_sandbox(dialect, files, target)))()
