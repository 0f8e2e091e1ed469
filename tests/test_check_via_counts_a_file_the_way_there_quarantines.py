"""``check --via B`` lists and counts a file the way there quarantines, as the conversion into B does.

A memoir working set whose JSON holds a lone surrogate as a ``\\u`` escape reads fine in memoir, but no claude file
can hold it: ``convert --to claude`` quarantines ``session.json`` (exit 3, "1 quarantined", the reason). ``check
--via claude`` showed ``session.json`` deleted beside "0 quarantined", no error line and no reason: only the source
store's quarantines were listed (docs/cli.md, forty-third session). Decided 2026-12-07 (forty-fifth session).
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import write_files
from .test_report_schema import validate

_STORE = {"session.json": b'{\n  "version": 1,\n  "current": {"goals": [{"text": "Ship \\ud800 v1"}]}\n}\n'}


def test_check_via_lists_what_the_way_there_quarantines(runner, tmp_path):
    write_files(tmp_path / "s", _STORE)
    result = runner.invoke(main, ["check", "--json", "--via", "claude", str(tmp_path / "s")])
    assert result.exit_code == 1, result.output
    doc = validate(result.stdout)
    assert [d["path"] for d in doc["differences"]] == ["session.json"]
    assert [q["path"] for q in doc["quarantined"]] == ["session.json"], doc["quarantined"]
    assert "lone surrogate" in doc["quarantined"][0]["reason"]
    assert doc["counts"]["quarantined"] == 1, doc["counts"]
    assert [f["source"] for f in doc["files"] if f["status"] == "quarantined"] == ["session.json"], doc["files"]
    assert any(e.startswith("session.json:3: holds a lone surrogate") for e in doc["errors"]), doc["errors"]


def test_check_within_its_own_dialect_quarantines_nothing(runner, tmp_path):
    write_files(tmp_path / "s", _STORE)
    result = runner.invoke(main, ["check", "--json", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert validate(result.stdout)["quarantined"] == []
