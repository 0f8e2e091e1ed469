"""An item of ``current``'s lists that ``memoir validate`` rejects is kept as written and said.

Before (forty-sixth session, found by a hunt): a version-0 ``session.json`` with ``"goals": ["ship it"]`` (an item
that is a string, not an object with a ``text``) was migrated with exit 0 and nothing said, and memoir-cli's
validator rejected the output ("current.goals[0] must be an object"). The forty-fourth session made the reader say
so for a container of the wrong shape; an item is the same case one level down. Its value may hold someone's words,
so it is kept as written (no ``text`` is invented) and the warning names the file, the item and what to do.
"""
import json

import pytest

from memconv.cli import main

from .reference_tools import memoir_validate, needs_memoir

DATES = {"created_at": "2026-03-01T10:00:00.000Z", "updated_at": "2026-03-01T10:00:00.000Z"}
WRONG = [
    ("current.goals[0]", {"goals": ["ship it"]}),
    ("current.open_questions[1]", {"open_questions": [{"text": "why?"}, {"text": "  "}]}),
    ("current.next_actions[0]", {"next_actions": [{"note": "no text", "added": "2026-03-01"}]}),
    ("current.decisions[0]", {"decisions": [7]}),
]


def _store(tmp_path, current):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps({**DATES, "current": current}), encoding="utf-8")
    return store


@pytest.mark.parametrize("key, current", WRONG, ids=[k for k, _ in WRONG])
def test_migrate_names_the_item_and_keeps_it(runner, tmp_path, key, current):
    store = _store(tmp_path, current)
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if f"session.json: '{key}'" in line]
    assert said and "memoir validate" in said[0] and "kept as written" in said[0], result.output
    written = json.loads((tmp_path / "out" / "session.json").read_text(encoding="utf-8"))
    name = key.split(".")[1].split("[")[0]
    assert written["current"][name] == current[name], "the item is kept as written"


def test_items_with_text_are_not_warned_about(runner, tmp_path):
    store = _store(tmp_path, {"goals": [{"text": "ship it"}], "decisions": [{"text": "pg", "date": "2026-03-01"}]})
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0 and "session.json: 'current." not in result.output, result.output


@needs_memoir
@pytest.mark.parametrize("key, current", WRONG, ids=[k for k, _ in WRONG])
def test_what_is_said_is_what_memoir_validate_rejects(runner, tmp_path, key, current):
    store = _store(tmp_path, current)
    runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    verdict = memoir_validate(tmp_path / "out")
    assert not verdict.ok and any(key in error for _, error in verdict.errors), verdict.output
