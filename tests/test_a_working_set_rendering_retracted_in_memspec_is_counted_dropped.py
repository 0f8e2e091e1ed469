"""The working set's rendering retracted in memspec is counted dropped on the way home, as one deleted there is.

memoir's ``session.json`` goes to memspec as one fact claim, "Working set"; the way home restores the session from
its note. ``memspec supersede <id> --reason "…"`` (no ``--body``) retracts that claim: it moves it to
``.memspec/archive/`` with ``state: superseded`` and the user's ``supersede_reason``. The way home cannot apply it
(the session is restored as it was) and said so in a warning, but counted nothing: the reason, words the user
wrote, were in no file at home, with 0 dropped and exit 0 under ``--fail-on-loss``, while deleting the claim
outright was counted dropped (test_a_working_set_rendering_deleted_in_the_target_is_counted_dropped.py).

The claim is retracted here by hand, as memspec 0.7.2's ``supersede`` writes it (its CLI checked on this store:
it changes ``state``, adds ``supersede_reason`` after ``check_by`` and moves the file to the archive).
Verified by taking ``lifecycle`` out of the count in ``restore.restore``: exit 0, and the report lists no
``lifecycle`` dropped.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN, tree

SOURCE = GOLDEN / "memoir" / "canonical" / "input"


def _retract(there, reason: str) -> None:
    memory = there / ".memspec" / "memory"
    [claim] = [c for c in memory.rglob("ms_*.md") if "\n# Working set\n" in c.read_text(encoding="utf-8")]
    text = claim.read_text(encoding="utf-8").replace("state: active\n", "state: superseded\n", 1)
    head, check_by, rest = text.partition("\ncheck_by: ")
    line, _, rest = rest.partition("\n")
    (there / ".memspec" / "archive" / claim.name).write_text(
        f"{head}{check_by}{line}\nsupersede_reason: {reason}\n{rest}", encoding="utf-8")
    claim.unlink()


def test_the_working_set_retracted_in_memspec_is_counted_dropped(runner, tmp_path):
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(SOURCE), str(there)]).exit_code == 0
    _retract(there, "done for the quarter")
    args = ["memspec-to-memoir", "--json", str(there)]
    result = runner.invoke(main, [*args, str(tmp_path / "home")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "home")["session.json"] == tree(SOURCE)["session.json"]  # restored as it was
    report = json.loads(result.stdout)
    said = [(f["target"], f["dropped"]) for f in report["files"] if f["target_kind"] == "working_set"]
    assert said == [("session.json", ["lifecycle"])], "a retraction the way home cannot apply is counted dropped"
    assert report["counts"]["dropped"] == 1, report["counts"]
    assert any("superseded in memspec" in w and "counted dropped" in w for w in report["warnings"]), \
        report["warnings"]
    failed = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "home2")])
    assert failed.exit_code == 5, failed.output


def test_the_working_set_left_active_in_memspec_counts_nothing(runner, tmp_path):
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(SOURCE), str(there)]).exit_code == 0
    result = runner.invoke(main, ["memspec-to-memoir", "--json", "--fail-on-loss", str(there), str(tmp_path / "h")])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["counts"]["dropped"] == 0
