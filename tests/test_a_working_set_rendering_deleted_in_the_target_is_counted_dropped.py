"""The working set's rendering deleted in the target is said, and counted dropped, on the way home.

memoir's ``session.json`` goes to Claude, memspec and memfmt as one record, "Working set", and its exact JSON in a
note; the way home restores the session from the note. A user who deletes that record there (Claude: its file and
its index line; memspec: its claim; memfmt: its entity, through memfmt's own library) has taken every goal, next
action and decision out of it, which cannot come home: the session comes back whole. An edit of any of its lines
was counted dropped, so ``--fail-on-loss`` failed (exit 5), and a rendering emptied of its lines too; deleted whole,
nothing was said: 0 dropped, exit 0. The session still comes home as it was (memconv does not guess that a deleted
rendering means an empty session), and the report says so.
"""

from __future__ import annotations

import json
import shutil

import memfmt

from memconv.cli import main

from .conftest import GOLDEN, tree

SOURCE = GOLDEN / "memoir" / "canonical" / "input"


def _without_rendering(tgt: str, there) -> None:
    """``there`` (a conversion of SOURCE into ``tgt``) with the working set's record deleted as its user would."""
    if tgt == "claude":
        (there / "project_working-set.md").unlink()
        index = there / "MEMORY.md"
        lines = index.read_text(encoding="utf-8").split("\n")
        index.write_text("\n".join(line for line in lines if "(project_working-set.md)" not in line),
                         encoding="utf-8")
    elif tgt == "memspec":
        [claim] = [c for c in (there / ".memspec" / "memory").rglob("ms_*.md")
                   if "\n# Working set\n" in c.read_text(encoding="utf-8")]
        claim.unlink()
    else:
        memory = memfmt.load(there / "memory")
        memory.entities = [e for e in memory.entities if e.name != "Working set"]
        shutil.rmtree(there / "memory")
        memfmt.write_dir(memfmt.serialise(memory), there)


def _convert(runner, tmp_path, tgt: str, delete: bool):
    there = tmp_path / tgt
    assert runner.invoke(main, [f"memoir-to-{tgt}", str(SOURCE), str(there)]).exit_code == 0
    if delete:
        _without_rendering(tgt, there)
    args = [f"{tgt}-to-memoir", "--json", str(there)]
    result = runner.invoke(main, [*args, str(tmp_path / "home")])
    failed = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "home2")])
    return result, failed


def test_the_working_set_deleted_in_each_target_is_counted_dropped(runner, tmp_path):
    for tgt in ("claude", "memspec", "memfmt"):
        result, failed = _convert(runner, tmp_path / tgt, tgt, delete=True)
        assert result.exit_code == 0, result.output
        home = tmp_path / tgt / "home"
        assert tree(home)["session.json"] == tree(SOURCE)["session.json"]  # restored from its note, as it was
        report = json.loads(result.stdout)
        said = [f for f in report["files"] if f["target_kind"] == "working_set"]
        assert [(f["target"], f["dropped"]) for f in said] == [("session.json", ["edits"])], (tgt, said)
        assert report["counts"]["dropped"] == 1, (tgt, report["counts"])
        assert any("working set's rendering is not in" in w for w in report["warnings"]), (tgt, report["warnings"])
        assert failed.exit_code == 5, (tgt, failed.output)


def test_the_working_set_left_in_each_target_is_not_said(runner, tmp_path):
    for tgt in ("claude", "memspec", "memfmt"):
        result, failed = _convert(runner, tmp_path / tgt, tgt, delete=False)
        report = json.loads(result.stdout)
        assert report["counts"]["dropped"] == 0 and failed.exit_code == 0, (tgt, failed.output)
        assert not any("working set" in w for w in report["warnings"]), (tgt, report["warnings"])


def test_a_working_set_with_nothing_to_show_is_missed_by_nobody(runner, tmp_path):
    # No list holds an item: no rendering is written, so none is missing on the way home.
    inp = tmp_path / "in"
    shutil.copytree(SOURCE, inp)
    doc = json.loads((inp / "session.json").read_text(encoding="utf-8"))
    doc["current"] = {"goals": [], "next_actions": [], "open_questions": [], "decisions": []}
    doc["history"] = []
    del doc["sync"]
    (inp / "session.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    out = tmp_path / "claude"
    assert runner.invoke(main, ["memoir-to-claude", str(inp), str(out)]).exit_code == 0
    assert not (out / "project_working-set.md").exists()
    back = runner.invoke(main, ["claude-to-memoir", "--json", "--fail-on-loss", str(out), str(tmp_path / "home")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "home")["session.json"] == tree(inp)["session.json"]
