"""Every golden store converted into every other dialect is exactly the committed expected tree.

A change to the mapping or to a writer shows up here as a diff of golden/,
reviewed like code: regenerate with ``MEMCONV_REGEN=1 python -m pytest tests/test_golden_conversions.py``.
"""

from __future__ import annotations

import pytest

from memconv import dialects

from .conftest import GOLDEN, assert_tree
from .convert_helpers import DIALECTS, convert_files, golden_inputs

CASES = [(d, n, t) for d, n in golden_inputs() for t in DIALECTS if t != d]


@pytest.mark.parametrize("dialect, name, target", CASES)
def test_conversion_matches_the_golden_tree(dialect, name, target):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    files, _ = convert_files(store, target)
    assert_tree(GOLDEN / dialect / name / f"convert-to-{target}", files)


@pytest.mark.parametrize("dialect, name, target", CASES)
def test_converting_twice_gives_the_same_files(dialect, name, target):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    again = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    assert convert_files(store, target)[0] == convert_files(again, target)[0], "conversion is deterministic"
