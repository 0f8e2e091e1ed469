"""--lossy lists a hidden item of a session key the spec does not name as dropped, as it does a hidden decision.

The working set's rendering shows a list memoir-cli keeps under ``current`` that the spec does not name
(``blockers``) and a key beside ``current`` (``team``), but not an object of them that is hidden
(``native.as_line``), as it does not show a hidden decision. ``--lossy`` writes no note, so that item is in no
file; a hidden decision was listed dropped (``current.decisions``), a hidden blocker was not, and a session whose
only loss it was passed ``--fail-on-loss`` with exit 0.

Verified by taking the unknown keys out of ``native.working_set_unshown``: the entry lists nothing, exit 0.
"""

from __future__ import annotations

import json

import pytest

from memconv.cli import main

SESSION = {
    "version": 1,
    "machines": {},
    "current": {"goals": [], "next_actions": [], "open_questions": [], "decisions": [],
                "blockers": [{"text": "Waiting on the vendor"}, {"text": "Old blocker", "hidden": True}]},
    "history": [],
    "team": [{"text": "Kenji leads"}, {"text": "Ana left", "hidden": True}],
}


def _store(tmp_path, session):
    store = tmp_path / "in"
    (store / "memory").mkdir(parents=True)
    (store / "session.json").write_text(json.dumps(session, indent=2), encoding="utf-8")
    return store


@pytest.mark.parametrize("target", ["claude", "memspec", "memfmt"])
def test_a_hidden_item_of_an_unknown_key_is_listed_dropped(runner, tmp_path, target):
    out = tmp_path / "out"
    args = ["convert", "--from", "memoir", "--to", target, "--lossy", "--json", str(_store(tmp_path, SESSION))]
    result = runner.invoke(main, [*args, str(out)])
    assert result.exit_code == 0, result.stderr
    entry = next(f for f in json.loads(result.stdout)["files"] if f["source"] == "session.json")
    assert entry["dropped"] == ["current.blockers", "team"], "what the rendering hides is what --lossy drops"
    written = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    assert b"Waiting on the vendor" in written and b"Old blocker" not in written and b"Ana left" not in written
    refused = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "out2")])
    assert refused.exit_code == 5, refused.stderr


def test_unknown_keys_with_nothing_hidden_drop_nothing(runner, tmp_path):
    session = json.loads(json.dumps(SESSION))
    del session["current"]["blockers"][1], session["team"][1]
    args = ["convert", "--from", "memoir", "--to", "claude", "--lossy", "--fail-on-loss", "--json"]
    result = runner.invoke(main, [*args, str(_store(tmp_path, session)), str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
