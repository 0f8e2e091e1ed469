"""docs/mapping.md is the table the converter runs, not a description of it."""

from __future__ import annotations

from memconv.converters import mapping

from .conftest import ROOT


def test_docs_mapping_is_generated_from_the_code():
    # Verified by editing one cell of TARGET_KIND: this test fails until the doc is regenerated.
    written = (ROOT / "docs" / "mapping.md").read_text(encoding="utf-8")
    assert written == mapping.table(), "regenerate with `python -m memconv.converters.mapping`"


def test_every_kind_has_a_home_in_every_dialect():
    kinds = set().union(*(row.keys() for row in mapping.TARGET_KIND.values()))
    for dialect, row in mapping.TARGET_KIND.items():
        assert set(row) == kinds, f"{dialect} says where every kind goes"
        assert "active" in mapping.LIFECYCLE[dialect], f"{dialect} can hold live records"
