"""``migrate`` fills a version-0 ``session.json``'s ``machines`` or ``history`` that is ``null``, as memoir-cli does.

Before (forty-fourth session, found by a hunt): only a missing key was filled; ``"machines": null`` stayed, with exit 0
and nothing said, and ``memoir validate`` rejected the file ("missing required field: machines"). memoir-cli's own
migration (``src/session/migrations.js``) spreads ``null`` into ``{}``. A ``null`` holds nothing, so nothing is lost;
a value of another wrong shape may hold someone's data and is kept as written.
"""
import json

import pytest

from memconv.cli import main
from memconv.migrations.memoir import session_v0_to_v1

from .reference_tools import memoir_validate, needs_memoir

V0 = {"created_at": "2026-03-01T10:00:00.000Z", "updated_at": "2026-03-01T10:00:00.000Z", "machines": None,
      "current": {"goals": []}, "history": None}


@pytest.mark.parametrize("name, empty", [("machines", {}), ("history", [])])
def test_a_null_container_is_filled_where_it_is(name, empty):
    out = session_v0_to_v1.step(V0)
    assert out[name] == empty
    assert list(out) == ["version", *V0], "filled where it is, not moved"
    assert V0[name] is None, "a step never changes its input"


def test_a_container_of_another_shape_is_kept_as_written():
    out = session_v0_to_v1.step({**V0, "machines": ["laptop"], "history": {"a": 1}})
    assert out["machines"] == ["laptop"] and out["history"] == {"a": 1}


@needs_memoir
def test_memoir_validate_accepts_what_migrate_writes(runner, tmp_path):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps(V0), encoding="utf-8")
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    verdict = memoir_validate(tmp_path / "out")
    assert verdict.ok, verdict.output


# Forty-sixth session (found by a hunt): the same for current's four lists. ``"goals": null`` in ``current`` was kept,
# with a warning that it "may hold data", and ``memoir validate`` rejected the migrated file ("current.goals must be
# an array"); memoir-cli itself throws on it when it next adds a goal (``state.current.goals.unshift``).
@pytest.mark.parametrize("name", session_v0_to_v1.REQUIRED_CURRENT)
def test_a_null_list_in_current_is_filled_where_it_is(name):
    current = {"goals": [], "next_actions": [{"text": "ship", "added": "2026-03-01"}], name: None}
    out = session_v0_to_v1.step({**V0, "current": current})
    assert out["current"][name] == [], f"a null current.{name} holds nothing and becomes the list v1 requires"
    assert list(out["current"])[:len(current)] == list(current), "filled where it is, not moved"
    assert current[name] is None, "a step never changes its input"


@needs_memoir
def test_memoir_validate_accepts_a_migrated_null_goals(runner, tmp_path):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps({**V0, "current": {"goals": None}}), encoding="utf-8")
    result = runner.invoke(main, ["migrate", str(store), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "current.goals" not in result.output, "nothing to warn about: the null is filled"
    verdict = memoir_validate(tmp_path / "out")
    assert verdict.ok, verdict.output
