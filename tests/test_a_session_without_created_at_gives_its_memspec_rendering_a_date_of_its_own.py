"""A session.json with no ``created_at`` gives its memspec rendering a date the session holds, not a placeholder.

memspec requires ``created`` on every claim; the working set's rendering took it from ``created_at`` alone. A
session without one (memoir's reader does not invent it: an unversioned session often has none) got
``created: '2000-01-01'`` and ``check_by: '2000-03-31…'``, memconv's placeholder for a store that "holds no date
at all", said so in a warning, while every goal and action in it had a date. memspec showed the working set as
written in 2000 (``status``'s "Recent") and past its check-by date. The rendering now takes the newest date the
session holds (its ``updated_at``, an item's date, a history row's), the rule memspec's writer applies to a record
with no date of its own (the newest date in the store).

Verified by taking the fallback out of ``native.working_set_record``: ``created: '2000-01-01'``.
"""

from __future__ import annotations

import json

from memconv.cli import main

SESSION = {
    "version": 1,
    "machines": {},
    "current": {
        "goals": [{"text": "Ship the importer", "set_on": "2026-03-01T10:00:00.000Z"}],
        "next_actions": [{"text": "Split the slow suite", "added": "2026-03-10T18:00:00.000Z"}],
        "open_questions": [], "decisions": [],
    },
    "history": [{"date": "2026-03-05T09:00:00.000Z", "summary": "Profiling"}],
}


def _claim(out):
    [claim] = [p.read_text(encoding="utf-8") for p in (out / ".memspec" / "memory").rglob("ms_*.md")]
    return claim


def test_the_rendering_is_dated_by_the_newest_date_of_the_session(runner, tmp_path):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps(SESSION, indent=2), encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(main, ["memoir-to-memspec", "--json", str(store), str(out)])
    assert result.exit_code == 0, result.stderr
    claim = _claim(out)
    assert "\ncreated: '2026-03-10T18:00:00.000Z'\n" in claim, claim
    warnings = json.loads(result.stdout)["warnings"]
    assert not any("no date at all" in w for w in warnings), warnings
    back = runner.invoke(main, ["memspec-to-memoir", "--fail-on-loss", str(out), str(tmp_path / "home")])
    assert back.exit_code == 0, back.output
    assert (tmp_path / "home" / "session.json").read_bytes() == (store / "session.json").read_bytes()


def test_a_session_with_created_at_keeps_it(runner, tmp_path):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    session = {"version": 1, "created_at": "2026-01-02T03:04:05.000Z", **SESSION}
    (store / "session.json").write_text(json.dumps(session, indent=2), encoding="utf-8")
    out = tmp_path / "out"
    assert runner.invoke(main, ["memoir-to-memspec", str(store), str(out)]).exit_code == 0
    assert "\ncreated: '2026-01-02T03:04:05.000Z'\n" in _claim(out)
