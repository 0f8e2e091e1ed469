"""A working-set item whose identity a tombstone of its list holds is not shown as live.

memoir's absolute tombstones are sticky by identity (spec §5.3.1): a purged tombstone (``[purged]``, ``hidden``,
``text_hash``) matches every decision whose normalised text hashes to its ``text_hash``, and a hidden copy hides
every copy of its text. Readers must treat them so and never display a hidden decision as live (§8). A stale live
copy beside its tombstone is what a merge of two replicas by hand (or by git) leaves; ``memoir validate`` passes it,
and memoir-cli's merge (``mergeSessions``, on its next push or restore) keeps only the tombstone. The rendering
showed the live copy in Claude, memspec and memfmt: the very text ``memoir forget --purge`` took out of the file (a
client's name, a credential) was written into every target, and searched there. The session still comes home byte
for byte from its note.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memconv.cli import main
from memconv.converters.native import working_set_items
from memconv.merge.identity import text_hash
from memconv.model import WorkingSet

from .conftest import GOLDEN, tree
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

TARGETS = ["claude", "memspec", "memfmt"]
DATE = "2026-05-03T11:00:00.000Z"


def _session() -> dict:
    return {
        "version": 1,
        "created_at": "2026-04-18T08:22:36.703Z",
        "updated_at": "2026-08-06T21:10:03.001Z",
        "machines": {},
        "current": {
            "goals": [{"text": "Court the wombat market", "set_on": DATE},
                      {"text": "court the wombat market ", "set_on": DATE, "hidden": True, "hidden_at": DATE}],
            "next_actions": [],
            "open_questions": [],
            "decisions": [
                {"text": "Client is Quokka Corp", "why": "contract signed", "date": "2026-05-04T11:00:00.000Z"},
                {"text": "Use the numbat queue", "date": DATE},
                {"text": "Keep the dingo endpoint", "date": DATE},
                {"text": "[purged]", "hidden": True, "hidden_at": DATE, "text_hash": text_hash("client is quokka corp"),
                 "date": "2026-05-01T11:00:00.000Z"},
                {"text": "USE THE NUMBAT QUEUE", "hidden": True, "hidden_at": DATE, "date": "2026-05-01T11:00:00.000Z"},
            ],
        },
        "history": [],
    }


def _shown(document: dict, heading: str) -> list[str]:
    return [line for head, lines in working_set_items(WorkingSet(document=document)) if head == heading
            for line in lines]


def test_a_live_copy_of_a_tombstoned_identity_is_not_shown():
    # Watched fail before the fix: "Client is Quokka Corp", "Use the numbat queue" and the goal were shown as live.
    decisions = " ".join(_shown(_session(), "Recent decisions"))
    assert "Quokka" not in decisions, "the text a purged tombstone redacted is not shown"
    assert "numbat" not in decisions, "a hidden copy hides every copy of its text"
    assert "Keep the dingo endpoint" in decisions, "a decision no tombstone matches is live"
    assert _shown(_session(), "Goals") == [], "hidden is sticky in every list, as memoir-cli's merge keeps it"


def test_a_hash_on_a_live_decision_hides_nothing():
    # "The hash is not an identity for a live decision" (§5.3.1; memoir validate refuses it without hidden).
    document = _session()
    document["current"]["decisions"].append({"text": "Hash on a live one", "date": DATE,
                                             "text_hash": text_hash("Keep the dingo endpoint")})
    decisions = " ".join(_shown(document, "Recent decisions"))
    assert "Hash on a live one" in decisions and "Keep the dingo endpoint" in decisions


_MERGE = r"""
const [module] = process.argv.slice(1);
const { mergeSessions } = await import(module);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const merged = mergeSessions(JSON.parse(input), { current: {}, machines: {}, history: [] });
console.log(JSON.stringify(merged.current.decisions.filter((d) => !d?.hidden).map((d) => d.text)));
"""


@needs_memoir
def test_memconv_shows_what_memoir_clis_merge_keeps_live(tmp_path):
    # The judge: memoir-cli's own merge of the session (with an empty replica) keeps only the untombstoned ones.
    assert MEMOIR_CLI is not None
    state = MEMOIR_CLI.parent.parent / "src" / "session" / "state.js"
    done = run_node(["--input-type=module", "-e", _MERGE, str(state)], cwd=tmp_path, stdin=json.dumps(_session()))
    assert done.returncode == 0, done.stderr
    theirs = sorted(json.loads(done.stdout))
    ours = sorted(line.split(" (date ")[0] for line in _shown(_session(), "Recent decisions"))
    assert ours == theirs == ["Keep the dingo endpoint"]


def _store(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", src)
    (src / "session.json").write_text(json.dumps(_session(), indent=2) + "\n", encoding="utf-8")
    return src


@needs_memoir
def test_memoir_validate_passes_such_a_session(tmp_path):
    assert MEMOIR_CLI is not None
    done = run_node([str(MEMOIR_CLI), "validate", str(_store(tmp_path))], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_no_target_shows_it_and_the_way_home_is_exact(runner, tmp_path, target):
    src = _store(tmp_path)
    out = tmp_path / target
    assert runner.invoke(main, [f"memoir-to-{target}", str(src), str(out)]).exit_code == 0
    shown = b"".join(data for path, data in tree(out).items() if ".memconv" not in path.split("/"))
    assert b"Quokka" not in shown and b"numbat" not in shown and b"wombat market" not in shown
    assert b"Keep the dingo endpoint" in shown
    back = runner.invoke(main, [f"{target}-to-memoir", "--fail-on-loss", str(out), str(tmp_path / "home")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "home")["session.json"] == tree(src)["session.json"]
