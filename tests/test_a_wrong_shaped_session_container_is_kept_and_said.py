"""A ``session.json`` container of the wrong shape is kept as written; the report says ``memoir validate`` rejects it.

Before (forty-fourth session, found by a hunt): ``migrate`` of a version-0 file holding ``"current": [1]``,
``"history": {}``, ``"goals": "g"`` or ``"machines": ["x"]`` kept the value (it may hold someone's data:
docs/memoir.md) with exit 0 and nothing said, and memoir-cli's validator then rejected the file. A version-1 file read
by a conversion was as silent. Now the reader warns, naming session.json and the key; what is written is unchanged.
"""
import json

import pytest

from memconv.cli import main

from .reference_tools import memoir_validate, needs_memoir

DATES = {"created_at": "2026-03-01T10:00:00.000Z", "updated_at": "2026-03-01T10:00:00.000Z"}
GOOD = {"machines": {}, "current": {"goals": [], "next_actions": [], "open_questions": [], "decisions": []},
        "history": []}
WRONG = [
    ("current", {"current": [1]}),
    ("history", {"history": {}}),
    ("current.goals", {"current": {**GOOD["current"], "goals": "g"}}),
    ("machines", {"machines": ["x"]}),
]


def _store(tmp_path, document):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps(document), encoding="utf-8")
    return store


@pytest.mark.parametrize("key, change", WRONG, ids=[k for k, _ in WRONG])
def test_migrate_says_the_key_and_keeps_the_value(runner, tmp_path, key, change):
    store = _store(tmp_path, {**DATES, **GOOD, **change})  # no version: version 0
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if f"session.json: '{key}'" in line]
    assert said and "memoir validate" in said[0] and "kept as written" in said[0], result.output
    assert "JSON dict" not in said[0], "JSON's own words: an object"
    written = json.loads((tmp_path / "out" / "session.json").read_text(encoding="utf-8"))
    top = key.split(".")[0]
    assert written[top] == {**GOOD, **change}[top] or top == "current", "kept as written"
    if key == "current.goals":
        assert written["current"]["goals"] == "g"


@pytest.mark.parametrize("key, change", WRONG, ids=[k for k, _ in WRONG])
def test_a_conversion_of_a_version_1_file_says_it_too(runner, tmp_path, key, change):
    store = _store(tmp_path, {"version": 1, **DATES, **GOOD, **change})
    result = runner.invoke(main, ["memoir-to-memfmt", str(store), str(tmp_path / "out")])
    assert f"session.json: '{key}'" in result.output, result.output


def test_a_right_shaped_file_says_nothing_of_shapes(runner, tmp_path):
    store = _store(tmp_path, {**DATES, "current": {}})
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "memoir validate" not in result.output, result.output


@needs_memoir
def test_the_warning_is_true(runner, tmp_path):
    store = _store(tmp_path, {**DATES, **GOOD, "machines": ["x"]})
    runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert not memoir_validate(tmp_path / "out").ok
