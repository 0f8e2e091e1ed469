"""docs/mapping.md is the table the converter runs, not a description of it."""

from __future__ import annotations

from memconv.converters import mapping, mapping_doc

from .conftest import ROOT


def test_docs_mapping_is_generated_from_the_code():
    # Verified by editing one cell of TARGET_KIND: this test fails until the doc is regenerated.
    written = (ROOT / "docs" / "mapping.md").read_text(encoding="utf-8")
    assert written == mapping_doc.table(), "regenerate with `python -m memconv.converters.mapping`"


def test_every_kind_has_a_home_in_every_dialect():
    kinds = set().union(*(row.keys() for row in mapping.TARGET_KIND.values()))
    for dialect, row in mapping.TARGET_KIND.items():
        assert set(row) == kinds, f"{dialect} says where every kind goes"
        assert "active" in mapping.LIFECYCLE[dialect], f"{dialect} can hold live records"


def _rows(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| ")]


def test_a_plugin_dialect_gets_its_column_and_its_rows_from_its_declarations(tmp_path, monkeypatch):
    from . import plugin_kit

    before = _rows(mapping_doc.table())
    plugin_kit.activate(monkeypatch, plugin_kit.install(tmp_path / "site"))
    after = _rows(mapping_doc.table())
    assert after[0] == before[0] + ["jsonl"]
    # Every built-in row keeps its cells and gains the plugin's: what the plugin's declarations say.
    assert [row[:-1] for row in after[1:len(before)]] == before[1:]
    assert all(row[-1] for row in after[1:]), "every concept has a home in the plugin"
    # The toy declares no concepts: its rows are its native kinds, by their model names.
    own = [row for row in after if row[0] == "jsonl"]
    assert [row[1] for row in own] == list(plugin_kit_kinds())
    assert all(row[3 + 4] == "native" for row in own)  # its own column, after the four built-ins'
    assert mapping_doc.dialect_names()[-1] == "jsonl" and "jsonl" in mapping.TARGET_KIND


def plugin_kit_kinds():
    from memconv import dialects

    homes = dialects.get("jsonl").KIND_HOMES
    return (kind for kind, held_as in homes.items() if held_as == kind)


def test_what_a_dialect_declares_is_what_the_table_says(monkeypatch):
    # One declaration changed: the table changes with it, and nothing else.
    from memconv.dialects import memspec

    monkeypatch.setattr(memspec, "HOLDS", {**memspec.HOLDS, "witness": "native, in its own words"})
    rows = {(row[0], row[1]): row for row in _rows(mapping_doc.table())}
    assert rows[("memspec", "anchors, probes, validity, check_by, scope, ext, edges")][5] == "native, in its own words"
