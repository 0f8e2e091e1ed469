"""Every registered dialect keeps the one contract (``memconv.dialects.protocol``), and the check can fail.

The contract is :class:`~memconv.dialects.protocol.Dialect` (what every dialect
has) plus :data:`~memconv.dialects.protocol.OPTIONAL` (what a dialect may
declare, each with its default). The four built-ins and the toy plugin of
``tests/plugins/`` are held to it here; a module that breaks it is refused by
the registry with a warning saying what it lacks.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import types

import pytest

from memconv import dialects, model
from memconv.dialects import protocol
from memconv.errors import StoreError
from memconv.model import Record, Store

from . import plugin_kit

BUILTINS = ["memoir", "claude", "memspec", "memfmt"]


@pytest.fixture
def jsonl(tmp_path, monkeypatch):
    plugin_kit.activate(monkeypatch, plugin_kit.install(tmp_path / "site"))


def test_every_registered_dialect_keeps_the_contract(jsonl):
    assert list(dialects.MODULES) == [*BUILTINS, "jsonl"]
    for name in dialects.MODULES:
        module = dialects.get(name)
        assert isinstance(module, protocol.Dialect), name
        assert protocol.problems(module, name) == [], name
        for member, kind in protocol.REQUIRED.items():
            assert protocol._fits(getattr(module, member), kind), (name, member)
        for member, spec in protocol.OPTIONAL.items():
            value = protocol.declared(module, member)
            assert value is None or protocol._fits(value, spec.kind), (name, member)


def _module(**members) -> types.ModuleType:
    """A dialect module that keeps the contract, with ``members`` changed (None: taken out)."""
    module = types.ModuleType("fake_dialect")
    base = dict(NAME="fake", KIND_HOMES={"fact": "fact"}, LIFECYCLE_STATES=frozenset({"active"}),
                detect=lambda root, seen=None: None, read=lambda root: Store(dialect="fake"),
                read_file=lambda path, raw, meta: None, write=lambda store: {})
    for key, value in {**base, **members}.items():
        if value is not None:
            setattr(module, key, value)
    return module


def test_a_module_that_keeps_the_contract_has_no_problems():
    assert protocol.problems(_module(), "fake") == []


@pytest.mark.parametrize("members, said", [
    ({"read_file": None}, "it has no read_file"),
    ({"NAME": 3}, "its NAME is not a str"),
    ({"write": "files"}, "its write is not a callable"),
    ({"KIND_HOMES": {"fact": "thing"}}, "KIND_HOMES name kinds the model does not have (fact→thing"),
    ({"LIFECYCLE_STATES": frozenset({"retired"})}, "must hold 'active'"),
    ({"CARRY_SLOT": "ext"}, "its CARRY_SLOT is not a CarrySlot"),
    ({"CARRY_ORIGIN": "yes"}, "its CARRY_ORIGIN is not a bool"),
    ({"WITNESS_FIELDS": "stale"}, "its WITNESS_FIELDS is not a names"),
    ({"LINK_NAMING": protocol.LinkNaming(numbered="{}")}, "two {}"),
    ({"NAME": "other"}, "registered as 'fake'"),
])
def test_the_check_names_what_a_module_gets_wrong(members, said):
    found = protocol.problems(_module(**members), "fake")
    assert any(said in p for p in found), found


def test_declared_gives_the_default_of_what_a_dialect_leaves_out():
    bare = _module()
    assert protocol.declared(bare, "CARRY_SLOT") == protocol.CarrySlot()
    assert str(protocol.declared(bare, "CARRY_SLOT")) == "the record's `extra`"
    assert protocol.declared(bare, "CARRY_ORIGIN") is False
    assert protocol.declared(bare, "WITNESS_FIELDS") == ()
    record = Record(kind="fact", link="x")
    record.lifecycle.state = "retired"
    assert protocol.declared(bare, "marks_edited_state")(record) is False  # a state it does not declare
    said = _module(LIFECYCLE_STATES=frozenset({"active", "retired"}))
    assert protocol.declared(said, "marks_edited_state")(record) is True
    assert protocol.declared(_module(CARRY_ORIGIN=True), "CARRY_ORIGIN") is True
    with pytest.raises(KeyError):
        protocol.declared(bare, "CARRY_ORIGINS")  # a typo is a bug, not a default


def test_a_plugin_that_breaks_the_contract_is_refused_with_what_it_lacks(tmp_path, monkeypatch):
    source = "NAME = 'broken'\nKIND_HOMES = {'fact': 'fact'}\nLIFECYCLE_STATES = frozenset({'active'})\n"
    site = plugin_kit.install_source(tmp_path / "site", "memconv_broken_dialect", source,
                                     {"broken": "memconv_broken_dialect"})
    listed, said = plugin_kit.warnings_with(monkeypatch, site, "_warned", dialects.available)
    assert listed == BUILTINS
    assert any("broken" in m and "it has no read_file" in m for m in said), said
    with pytest.raises(StoreError, match="does not keep memconv's dialect contract: it has no detect"):
        dialects.get("broken")


SLOTS = [protocol.CarrySlot(), protocol.CarrySlot("extra", mapping=True), protocol.CarrySlot("ext")]


@pytest.mark.parametrize("slot", SLOTS)
def test_a_carry_slot_gives_back_what_it_was_given_and_strips_clean(slot):
    record = Record(kind="fact", link="x", extra={"own": 1})
    assert slot.get(record) is None
    slot.put(record, '{"from":"a"}')
    assert slot.get(record) == '{"from":"a"}'
    assert all(s.get(record) is None for s in SLOTS if s.field != slot.field), "the other field holds nothing"
    slot.strip(record)
    assert slot.get(record) is None and record.extra == {"own": 1} and not record.ext


@pytest.mark.parametrize("slot", SLOTS)
def test_a_carry_slot_reads_the_carry_beside_a_dialect_s_own_marks(slot):
    """A reader may give the key back as a mapping (memspec, when unknown fields sit beside the carry)."""
    record = Record(kind="fact", link="x")
    protocol.CarrySlot(slot.field, mapping=True).put(record, "c")
    getattr(record, slot.field)[protocol.CARRY_KEY]["fields"] = {"scope": "team"}
    assert slot.get(record) == "c"


@pytest.mark.parametrize("name", BUILTINS + ["jsonl"])
def test_each_dialect_s_files_hold_its_carry_slot(jsonl, name):
    """The slot a dialect declares is where its writer puts the carry and its reader finds it again."""
    module = dialects.get(name)
    kind = next(k for k in module.KIND_HOMES.values() if k in model.KINDS)
    record = Record(kind=kind, link="slot-check", title="Slot check", body="What the slot holds.\n",
                    created="2026-01-02T03:04:05Z")
    slot = protocol.declared(module, "CARRY_SLOT")
    slot.put(record, '{"from":"elsewhere"}')
    files = module.write(Store(dialect=name, records=[record]))
    many = protocol.declared(module, "read_records")
    back = []
    for path, raw in files.items():
        back += many(path, raw, {}) if many is not None else [module.read_file(path, raw, {})]
    carried = [slot.get(r) for r in back if r is not None]
    assert '{"from":"elsewhere"}' in carried, (name, files)


# --- the converter core names no dialect ---------------------------------------------------------------

import ast  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import memconv  # noqa: E402

#: The converter core: what it does with a dialect it learns from the dialect's declarations.
CORE = ("__init__.py", "conversion.py", "forward.py", "restore.py", "read_back.py", "naming.py", "store_facts.py",
        "slots.py")
_CONVERTERS = Path(memconv.__file__).parent / "converters"


def _naming_a_dialect(source: str, names: list[str]) -> list[str]:
    """Where ``source`` names a dialect: a string constant (docstrings aside, the one check of
    ``tests/test_converters_name_no_dialect.py``), or an import of a dialect's package."""
    from .test_converters_name_no_dialect import naming_dialects

    found = [f"line {m.split(':')[1]}: {m.split(': ', 1)[1]}" for m in naming_dialects(source, names)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and any(
                re.search(rf"(?:^|\.)(?:dialects|migrations)\.{re.escape(n)}\b", node.module) for n in names):
            found.append(f"line {node.lineno}: imports {node.module}")
    return found


@pytest.mark.parametrize("module", CORE)
def test_the_converter_core_names_no_dialect(jsonl, module):
    source = (_CONVERTERS / module).read_text(encoding="utf-8")
    assert _naming_a_dialect(source, list(dialects.MODULES)) == [], module


def test_the_core_check_finds_a_dialect_named():
    names = ["memoir", "claude", "memspec", "memfmt"]
    assert _naming_a_dialect('"""About memoir."""\nx = 1\n', names) == []
    assert _naming_a_dialect('if target == "memspec":\n    pass\n', names) == ["line 1: 'memspec'"]
    assert _naming_a_dialect('x = f"{a} to claude"\n', names) == ["line 1: ' to claude'"]
    assert _naming_a_dialect('from ..migrations.memspec.fields import ID\n', names) == \
        ["line 1: imports migrations.memspec.fields"]
    assert _naming_a_dialect('x = "memconv-probe:"\n', names) == []


def test_memconv_dialects_shows_what_each_dialect_declares(jsonl):
    from click.testing import CliRunner

    from memconv.cli import main

    listed = json.loads(CliRunner().invoke(main, ["dialects", "--json"]).output)["dialects"]
    by_name = {d["name"]: d for d in listed}
    assert list(by_name) == [*BUILTINS, "jsonl"]
    for name, shown in by_name.items():
        module = dialects.get(name)
        assert (shown["reads"], shown["writes"]) == protocol.declared(module, "VERSIONS")
        assert [ladder["subject"] for ladder in shown["ladders"]] == \
            [ladder.subject for ladder in protocol.declared(module, "LADDERS")]
    assert [ladder["subject"] for ladder in by_name["memoir"]["ladders"]] == ["memoir session.json", "memoir entry"]
    assert by_name["jsonl"]["ladders"] == [] and by_name["jsonl"]["reads"] == ""


def test_the_core_names_a_plugin_s_records_as_the_plugin_declares(jsonl, monkeypatch):
    """Declarations, not names: a plugin that declares typed links, its own type word and its own numbering
    gets exactly those, and a record riding as unknown keys, from the converter core."""
    from memconv.converters import run

    module = dialects.get("jsonl")
    monkeypatch.delattr(module, "native_link")
    monkeypatch.setattr(module, "LINK_NAMING", protocol.LinkNaming("typed", numbered="{}~{}"), raising=False)
    monkeypatch.setattr(module, "FILE_TYPE_WORDS", {"fact": "note"}, raising=False)
    monkeypatch.setattr(module, "RIDES_AS_UNKNOWN", ("scope",), raising=False)
    monkeypatch.setattr(module, "NATIVE_FIELDS", frozenset(), raising=False)
    dialects.clear_registry()
    store = Store(dialect="memspec", records=[
        Record(kind="fact", link="ms_01JQ8Z6Y0000000000000000AA", title="Sky colour", body="Blue.\n", scope="team"),
        Record(kind="fact", link="ms_01JQ8Z6Y0000000000000000AB", title="Sky colour", body="Grey.\n"),
        Record(kind="decision", link="ms_01JQ8Z6Y0000000000000000AC", title="Use tabs", body="Tabs.\n")])
    out = run(store, "jsonl").store
    assert [r.link for r in out.records] == ["note_sky-colour", "note_sky-colour~2", "decision_use-tabs"]
    assert out.records[0].scope is None and out.records[0].extra["scope"] == "team"


def test_the_mapping_s_tables_take_their_defaults_from_the_contract(jsonl, monkeypatch):
    """``mapping.py`` writes no default of its own: a member a dialect leaves out (the toy declares
    no ``NOTES_ROOT``, ``DEFAULT_TEXT_FIELDS``, ``EDGE_TYPES``…) is what ``OPTIONAL`` gives, so a
    default changed there changes the converter's tables (seen failing while mapping's tables held
    defaults of their own)."""
    from memconv.converters import mapping

    plugin = dialects.get("jsonl")
    changed = {"NOTES_ROOT": "elsewhere/", "DEFAULT_TEXT_FIELDS": frozenset({"title", "body"}),
               "EDGE_TYPES": frozenset({"supports"}), "INDEX_IS_CONTENT": True, "WORKING_SET_AS": ("goal", "ws")}
    for member, value in changed.items():
        assert not hasattr(plugin, member), member
        monkeypatch.setitem(protocol.OPTIONAL, member,
                            dataclasses.replace(protocol.OPTIONAL[member], default=lambda module, v=value: v))
    dialects.clear_registry()  # the tables are made once per registry
    assert mapping.NOTES_ROOT["jsonl"] == "elsewhere/"
    assert mapping.DEFAULT_TEXT_FIELDS["jsonl"] == {"title", "body"}
    assert mapping.EDGE_TYPES["jsonl"] == {"supports"}
    assert "jsonl" in mapping.INDEX_IS_CONTENT
    assert mapping.WORKING_SET_AS["jsonl"] == ("goal", "ws")
    assert mapping.NOTES_ROOT["memoir"] == dialects.get("memoir").__dict__.get("NOTES_ROOT", "elsewhere/")
    monkeypatch.undo()
    dialects.clear_registry()


def test_a_table_of_the_mapping_is_a_member_of_the_contract():
    from memconv.converters import mapping

    tables = [t for name, t in vars(mapping).items() if name.isupper() and isinstance(t, collections.abc.Mapping)]
    assert len(tables) >= 10
    for table in tables:
        member = getattr(table, "member", None)
        assert member in protocol.OPTIONAL or member in protocol.REQUIRED, member
    with pytest.raises(KeyError):
        mapping.TARGET_KIND.__class__("NOTE_ROOT", str)  # a typo is refused, not given a default


