"""`memconv upgrade` on each golden claude folder gives exactly the expected memoir store and report.

Regenerate with ``python -m tests.regen`` and review the diff.
"""

from __future__ import annotations

import pytest

from .claude_support import GOLDEN, STORES, tree
from .regen import report_json, upgraded


@pytest.mark.parametrize("store", STORES)
def test_upgrade_matches_expected_memoir_store_byte_for_byte(store):
    files, _ = upgraded(GOLDEN / store / "input")
    assert files == tree(GOLDEN / store / "expected-memoir"), "run `python -m tests.regen` and review the diff"


@pytest.mark.parametrize("store", STORES)
def test_upgrade_report_matches_expected(store):
    _, report = upgraded(GOLDEN / store / "input")
    expected = (GOLDEN / store / "expected-upgrade-report.json").read_text(encoding="utf-8")
    assert report_json(report) == expected
