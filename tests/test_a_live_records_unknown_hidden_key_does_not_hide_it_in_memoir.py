"""A live record's own unknown key that memoir reads as a state (``hidden: true``) is not written as that key.

Before (forty-fifth session, found by a hunt): a memspec decision with a hand-written ``hidden: true`` (a key
memspec has no use for, kept in ``extra``) was written into memoir with that key as it stood. memoir reads
``hidden: true`` on a decision as a tombstone (``memoir forget``): the live decision was presented as forgotten,
and ``memoir validate`` rejected the file ("hidden: true without hidden_at"); with a ``hidden_at`` beside it, the
file passed and the decision was simply not shown. The report said nothing. The key now rides in the carry
(it comes home exactly), and the memoir file says what memspec says: a live decision.
"""
import pytest

from memconv import api
from memconv.cli import main

from .memspec_decision import memspec_decision_store
from .reference_tools import memoir_validate, needs_memoir

KEYS = {
    "hidden": "hidden: true\n",
    "hidden with a date": "hidden: true\nhidden_at: '2026-05-01T00:00:00Z'\n",
}


@pytest.mark.parametrize("keys", KEYS.values(), ids=KEYS.keys())
def test_the_decision_is_live_in_memoir_and_comes_home_whole(runner, tmp_path, keys):
    store = memspec_decision_store(tmp_path, keys)
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--from", "memspec", "--to", "memoir", str(store), str(out)])
    assert result.exit_code == 0, result.output
    [decision] = api.read_store(out, "memoir").records
    assert decision.kind == "decision" and decision.lifecycle.state == "active", decision.lifecycle
    check = runner.invoke(main, ["check", "--via", "memoir", str(store)])
    assert check.exit_code == 0, check.output


@needs_memoir
def test_memoir_validate_accepts_it(runner, tmp_path):
    store = memspec_decision_store(tmp_path, KEYS["hidden"])
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--from", "memspec", "--to", "memoir", str(store), str(out)])
    assert result.exit_code == 0, result.output
    verdict = memoir_validate(out)
    assert verdict.ok, verdict.output
