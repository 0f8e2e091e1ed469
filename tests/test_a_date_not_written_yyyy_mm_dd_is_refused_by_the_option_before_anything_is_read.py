"""``--date`` takes a day written YYYY-MM-DD, and says so as the option's usage error, before IN is read.

Python's ``date.fromisoformat`` also takes ``20260101`` and the week date ``2026-W01-1``. The option's check let them
through, and the writers' occasion (``protocol.Occasion``) refused them only once IN was read whole, in words meant
for the API: "the occasion's date '20260101' is not a day (give it as YYYY-MM-DD, or None to take it from the
records)". One rule now says what a day is (``protocol.is_day``), and the option asks it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memconv.cli import main

GOLDEN = Path(__file__).parent.parent / "golden"


@pytest.mark.parametrize("day", ["20260101", "2026-W01-1", "2026W011"])
@pytest.mark.parametrize("command", [["memoir-to-memfmt"], ["memoir-to-memspec"], ["migrate"]])
def test_a_day_not_written_yyyy_mm_dd_is_the_options_usage_error(runner, tmp_path, command, day, monkeypatch):
    store = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", store)
    read = []
    from memconv import pipeline
    real = pipeline.read
    monkeypatch.setattr(pipeline, "read", lambda *a, **k: read.append(a) or real(*a, **k))
    result = runner.invoke(main, [*command, "--date", day, str(store), str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--date': give a date as YYYY-MM-DD" in result.stderr
    assert "occasion" not in result.stderr and "None" not in result.stderr
    assert not read, "IN was read before the option was refused"
    assert not (tmp_path / "out").exists()


def test_a_day_written_yyyy_mm_dd_is_taken(runner, tmp_path):
    result = runner.invoke(main, ["memoir-to-memfmt", "--date", "2026-01-01",
                                  str(GOLDEN / "memoir" / "canonical" / "input"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
