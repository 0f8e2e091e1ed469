"""A fifth dialect from a separate distribution: registered by entry point, converted both ways, losslessly.

``tests/plugins/memconv_jsonl`` is a distribution of its own (one ``memory.jsonl``
file, one JSON object per record). :mod:`tests.plugin_kit` installs it as an
installer would, a package beside its ``dist-info`` folder, without pip or a
network; memconv finds it by its ``memconv.dialects`` entry point alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

from memconv import dialects
from memconv.errors import StoreError

from . import plugin_kit
from .conftest import GOLDEN, tree
from .convert_helpers import CANONICAL, golden_inputs, hop, model, read_files

BUILTINS = ["memoir", "claude", "memspec", "memfmt"]


@pytest.fixture
def jsonl(tmp_path, monkeypatch):
    site = plugin_kit.install(tmp_path / "site")
    plugin_kit.activate(monkeypatch, site)
    return site


def test_without_the_plugin_there_are_the_four_built_ins_in_their_order():
    assert list(dialects.MODULES) == BUILTINS
    with pytest.raises(StoreError, match="unknown dialect 'jsonl'"):
        dialects.get("jsonl")


def test_the_built_ins_are_declared_as_entry_points():
    from importlib import metadata

    declared = {ep.name: ep.value for ep in metadata.entry_points(group=dialects.GROUP)
                if ep.dist is not None and ep.dist.name == "memconv"}
    assert declared == dialects.BUILTINS


def test_an_installed_plugin_is_found_by_its_entry_point(jsonl):
    assert list(dialects.MODULES) == [*BUILTINS, "jsonl"]
    assert dialects.get("jsonl").NAME == "jsonl"
    assert "jsonl" in dialects.available()


def test_the_registry_is_looked_up_once(jsonl, monkeypatch):
    from importlib import metadata

    assert "jsonl" in dialects.MODULES
    monkeypatch.setattr(metadata, "entry_points", lambda **kw: pytest.fail("entry points read twice"))
    assert list(dialects.MODULES) == [*BUILTINS, "jsonl"]


def test_a_plugin_may_not_replace_a_built_in(tmp_path, monkeypatch):
    site = plugin_kit.install(tmp_path / "site", entry_points={"memoir": "memconv_jsonl", "zz": "memconv_jsonl:x",
                                                               "jsonl": "memconv_jsonl"})
    plugin_kit.activate(monkeypatch, site)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        names = list(dialects.MODULES)
    assert names == [*BUILTINS, "jsonl"]
    assert dialects.MODULES["memoir"] == "memconv.dialects.memoir"
    said = [str(w.message) for w in seen]
    assert any("'memoir' is a built-in dialect" in m and "memconv_jsonl" in m for m in said), said
    assert any("must name a module" in m for m in said), said


def test_detection_names_the_plugin(jsonl, tmp_path):
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "memory.jsonl").write_text('{"kind":"fact","link":"sky","body":"blue\\n"}\n')
    assert dialects.survey(tmp_path / "store").found[0].dialect == "jsonl"


def test_a_bad_line_is_quarantined_and_the_rest_read(jsonl, tmp_path):
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "memory.jsonl").write_text('{"kind":"fact","link":"sky"}\nnot json\n{"kind":1}\n')
    store = dialects.get("jsonl").read(tmp_path / "store")
    assert [r.link for r in store.records] == ["sky"]
    assert [q.line for q in store.quarantined] == [2, 3]


@pytest.mark.parametrize("dialect, name", CANONICAL)
def test_canonical_store_comes_back_byte_for_byte_through_jsonl(jsonl, dialect, name):
    src = GOLDEN / dialect / name / "input"
    there, _ = hop(dialects.get(dialect).read(src), "jsonl")
    _, files = hop(there, dialect)
    assert {p: b for p, b in files.items() if p in tree(src)} == tree(src), f"{dialect}→jsonl→{dialect}"


@pytest.mark.parametrize("dialect, name", golden_inputs())
def test_any_store_comes_back_with_the_same_meaning_through_jsonl(jsonl, dialect, name):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    there, _ = hop(store, "jsonl")
    back, _ = hop(there, dialect)
    assert model(back) == model(store), f"{dialect}→jsonl→{dialect} keeps every record and the working set"


def _own_jsonl(dialect: str, name: str) -> dict[str, bytes]:
    """A jsonl store of its own (no carry, no note), made from a golden store: every kind and field in one file."""
    _, files = hop(dialects.get(dialect).read(GOLDEN / dialect / name / "input"), "jsonl")
    lines = []
    for line in files["memory.jsonl"].splitlines():
        doc = json.loads(line)
        doc.get("extra", {}).pop("memconv", None)
        if not doc.get("extra", True):
            del doc["extra"]
        lines.append(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    return {"memory.jsonl": b"".join(lines)}


@pytest.mark.parametrize("dialect, name", golden_inputs())
@pytest.mark.parametrize("via", BUILTINS)
def test_jsonl_comes_back_byte_for_byte_through_every_dialect(jsonl, dialect, name, via):
    own = _own_jsonl(dialect, name)
    away, _ = hop(read_files(own, "jsonl"), via)
    _, again = hop(away, "jsonl")
    assert {p: b for p, b in again.items() if p in own} == own, f"jsonl→{via}→jsonl"


def _cli(site, cwd):
    """``run(*args)``: the memconv command line in a process that sees the plugins installed in ``site``."""
    env = plugin_kit.environ(site)
    return lambda *args: subprocess.run([sys.executable, "-m", "memconv", *args], capture_output=True, text=True,
                                        env=env, cwd=cwd)


def test_the_cli_lists_and_converts_with_the_plugin(jsonl, tmp_path):
    run = _cli(jsonl, tmp_path)
    listed = run("dialects", "--json")
    assert [d["name"] for d in json.loads(listed.stdout)["dialects"]] == [*BUILTINS, "jsonl"], listed.stderr
    src = GOLDEN / "memoir" / "canonical" / "input"
    done = run("memoir-to-jsonl", str(src), str(tmp_path / "j"))
    assert done.returncode == 0, done.stderr
    back = run("convert", "--to", "memoir", str(tmp_path / "j"), str(tmp_path / "m"))
    assert back.returncode == 0, back.stderr
    assert {p: b for p, b in tree(tmp_path / "m").items() if p in tree(src)} == tree(src)


def _jsonl_store(root, records: list[dict]):
    root.mkdir(parents=True)
    (root / "memory.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root


def test_merge_takes_the_rules_a_plugin_declares(jsonl, tmp_path):
    # Verified by taking merge out of the plugin: exit 2, "the jsonl dialect has no merge rules".
    run = _cli(jsonl, tmp_path)
    a = _jsonl_store(tmp_path / "a", [{"kind": "fact", "link": "sky", "body": "blue\n", "updated": "2026-01-01"},
                                      {"kind": "fact", "link": "sea", "body": "wet\n"}])
    b = _jsonl_store(tmp_path / "b", [{"kind": "fact", "link": "sky", "body": "grey\n", "updated": "2026-02-01"},
                                      {"kind": "fact", "link": "sun", "body": "hot\n"}])
    ab = run("merge", "--json", str(a), str(b), str(tmp_path / "ab"))
    assert ab.returncode == 0, ab.stderr
    ba = run("merge", str(b), str(a), str(tmp_path / "ba"))
    assert ba.returncode == 0, ba.stderr
    assert tree(tmp_path / "ab") == tree(tmp_path / "ba"), "commutative, byte for byte"
    lines = [json.loads(line) for line in (tmp_path / "ab" / "memory.jsonl").read_text().splitlines()]
    assert [(r["link"], r["body"]) for r in lines] == [("sea", "wet\n"), ("sky", "grey\n"), ("sun", "hot\n")]
    assert sorted(r["status"] for r in json.loads(ab.stdout)["records"]) == ["added", "added", "updated"]
    again = run("merge", str(tmp_path / "ab"), str(b), str(tmp_path / "again"))
    assert again.returncode == 0 and tree(tmp_path / "again") == tree(tmp_path / "ab"), "idempotent"
    tied = _jsonl_store(tmp_path / "c", [{"kind": "fact", "link": "sky", "body": "red\n", "updated": "2026-02-01"}])
    conflict = run("merge", str(b), str(tied), str(tmp_path / "bc"))
    assert conflict.returncode == 6, conflict.stderr
    assert [json.loads(line)["link"][:13] for line in (tmp_path / "bc" / "memory.jsonl").read_text().splitlines()] \
        == ["sky", "sky.conflict-", "sun"], "both copies of one date kept"


def test_a_plugin_without_merge_rules_is_refused(jsonl, monkeypatch):
    from memconv.merge import MergeRefused, merge
    from memconv.model import Store

    from memconv.merge import merges

    assert merges("jsonl")
    monkeypatch.delattr(dialects.get("jsonl"), "merge")
    assert not merges("jsonl"), "memconv dialects says so"
    with pytest.raises(MergeRefused, match="the jsonl dialect has no merge rules") as refused:
        merge(Store(dialect="jsonl"), Store(dialect="jsonl"))
    assert refused.value.exit_code == 2


def test_a_plugin_merge_that_gives_something_else_is_an_error_naming_it(jsonl, monkeypatch):
    # Verified by skipping _check: merge() handed the dict on to the writer (DID NOT RAISE).
    from memconv.merge import merge
    from memconv.model import Store

    monkeypatch.setattr(dialects.get("jsonl"), "merge", lambda a, b, hints=None: {"memory.jsonl": b""})
    with pytest.raises(StoreError, match="the jsonl dialect's merge gave a dict, not a MergeResult"):
        merge(Store(dialect="jsonl"), Store(dialect="jsonl"))


def test_an_import_into_a_plugin_store_uses_its_merge(jsonl, tmp_path):
    # Verified with the plugin's records' source path as memory.jsonl#<line> again: exit 4, "the import would
    # replace a file the jsonl reader did not read" (a record's source names the file it was read from).
    run = _cli(jsonl, tmp_path)
    existing = tmp_path / "existing"
    assert run("memoir-to-jsonl", str(GOLDEN / "memoir" / "canonical" / "input"), str(existing)).returncode == 0
    claude = GOLDEN / "claude" / "canonical" / "input"
    first = run("convert", "--from", "claude", "--to", "jsonl", str(claude), "--into", str(existing), "--json")
    assert first.returncode == 0, first.stderr
    assert {r["status"] for r in json.loads(first.stdout)["records"]} == {"added", "unchanged"}
    again = run("convert", "--from", "claude", "--to", "jsonl", str(claude), "--into", str(existing), "--json")
    assert again.returncode == 0, again.stderr
    assert {r["status"] for r in json.loads(again.stdout)["records"]} == {"unchanged"}, "imported once"


def test_reports_that_name_a_plugin_validate_against_the_published_schema(jsonl, tmp_path):
    # Verified with the schema's dialect names an enum of the four built-ins (as it was): 'jsonl' is not one of them.
    from .test_report_schema import validate

    run = _cli(jsonl, tmp_path)
    converted = validate(run("memoir-to-jsonl", "--json", str(GOLDEN / "memoir" / "canonical" / "input"),
                             str(tmp_path / "j")).stdout)
    assert converted["target_dialect"] == "jsonl"
    assert validate(run("detect", "--json", str(tmp_path / "j")).stdout)["detections"][0]["dialect"] == "jsonl"
    listed = {d["name"]: d["merges"] for d in validate(run("dialects", "--json").stdout)["dialects"]}
    assert listed == {**dict.fromkeys(BUILTINS, True), "jsonl": True}, "every one merges: the toy declares merge"
    merged = validate(run("merge", "--json", str(tmp_path / "j"), str(tmp_path / "j"), str(tmp_path / "m")).stdout)
    assert merged["source_dialect"] == "jsonl"
