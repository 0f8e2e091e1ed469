"""detect names the dialect every golden store is written in, surest first."""

from __future__ import annotations

import pytest

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import golden_inputs


@pytest.mark.parametrize("dialect, name", golden_inputs())
def test_the_surest_guess_is_the_stores_own_dialect(dialect, name):
    found = dialects.detect_all(GOLDEN / dialect / name / "input")
    assert found and found[0].dialect == dialect, [(d.dialect, d.confidence) for d in found]


def test_claude_codes_current_shape_is_not_called_legacy():
    # Verified by reverting detect to count any claude type word as legacy: this fails with 'legacy'.
    (found,) = [d for d in dialects.detect_all(GOLDEN / "claude" / "canonical" / "input") if d.dialect == "claude"]
    assert found.version == "current"
