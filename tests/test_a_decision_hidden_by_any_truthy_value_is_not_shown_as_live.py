"""A working-set item whose ``hidden`` is any truthy value, in JavaScript's sense, is not shown as live.

memoir-cli leaves a decision out of its pinned block when ``hidden`` is truthy (``!d?.hidden``,
``src/session/render.js``), and its merge keeps such a copy as a tombstone: ``"true"``, ``"false"``, ``"0"``,
``1``, ``[]``, ``{}`` all hide it; ``false``, ``0``, ``""`` and ``null`` do not. ``memoir validate`` passes the
file (it checks ``hidden_at`` only when ``hidden`` is ``true``). memconv took only ``true`` as hidden, so a
decision memoir-cli had taken back (``"hidden": "true"``, as a script or a person writes it) was shown as live in
every target's rendering of the working set (forty-first session, docs/conversion.md). The value itself comes
home byte for byte: the exact JSON is in the note.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memconv import dialects
from memconv.converters.native import working_set_items
from memconv.model import WorkingSet

from .conftest import GOLDEN, tree
from .convert_helpers import convert_dir, convert_files
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

#: (the JSON of ``hidden``, whether memoir-cli hides the decision): JavaScript's truthiness.
VALUES = [
    ("true", True), ('"true"', True), ('"false"', True), ('"0"', True), ('" "', True), ("1", True),
    ("-1", True), ("0.5", True), ("[]", True), ("{}", True), ('{"at": "2026-01-01"}', True),
    ("false", False), ("0", False), ("0.0", False), ("-0", False), ('""', False), ("null", False),
]
TARGETS = ["claude", "memspec", "memfmt"]


def _decision(text: str, hidden: str | None) -> str:
    extra = "" if hidden is None else f', "hidden": {hidden}, "hidden_at": "2026-05-04T11:00:00.000Z"'
    return f'{{"text": "{text}", "date": "2026-05-03T11:00:00.000Z"{extra}}}'


def _shown_decisions(document: dict) -> list[str]:
    return [line for heading, lines in working_set_items(WorkingSet(document=document))
            if heading == "Recent decisions" for line in lines]


@pytest.mark.parametrize("hidden, hides", VALUES)
def test_a_decision_is_hidden_by_a_truthy_value(hidden, hides):
    # Watched fail with `is True` (forty-first session's rule): "true", "false", "0", 1, [], {} were shown.
    document = json.loads(f'{{"current": {{"decisions": [{_decision("Use the wombat cache", hidden)}]}}}}')
    assert bool(_shown_decisions(document)) is not hides


@pytest.mark.parametrize("hidden, hides", VALUES)
def test_an_item_of_an_unknown_list_is_hidden_by_the_same_rule(hidden, hides):
    # One rule: an object of a list the spec does not name is not shown when hidden, as a hidden decision is not.
    document = json.loads(f'{{"notes": [{{"text": "A numbat aside", "hidden": {hidden}}}]}}')
    shown = " ".join(line for _, lines in working_set_items(WorkingSet(document=document)) for line in lines)
    assert ("numbat" in shown) is not hides


_RENDER = r"""
const [module] = process.argv.slice(1);
const { renderSession } = await import(module);
let input = '';
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map((state) => renderSession(state))));
"""


@needs_memoir
def test_memconv_hides_what_memoir_clis_pinned_block_hides(tmp_path):
    # The judge: memoir-cli's own rendering of the pinned block, one session per value (it shows five decisions).
    assert MEMOIR_CLI is not None
    render = MEMOIR_CLI.parent.parent / "src" / "session" / "render.js"
    sessions = [f'{{"current": {{"decisions": [{_decision(f"Decision wombat{i}", hidden)}]}}}}'
                for i, (hidden, _) in enumerate(VALUES)]
    done = run_node(["--input-type=module", "-e", _RENDER, str(render)], cwd=tmp_path,
                    stdin="[" + ",".join(sessions) + "]")
    assert done.returncode == 0, done.stderr
    blocks = json.loads(done.stdout)
    for (hidden, hides), session, block in zip(VALUES, sessions, blocks):
        theirs = "Decision wombat" in block
        ours = bool(_shown_decisions(json.loads(session)))
        assert theirs is ours is not hides, (hidden, block)


def _store(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", src)
    path = src / "session.json"
    text = path.read_text()
    document = json.loads(text)
    decisions = [json.loads(_decision("Retracted: use the quokka queue", '"true"')),
                 json.loads(_decision("Keep the dingo endpoint", '""'))]
    document["current"]["decisions"] += decisions
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return src


@pytest.mark.parametrize("target", TARGETS)
def test_no_target_shows_it_and_the_way_home_is_exact(tmp_path, target):
    src = _store(tmp_path)
    files, _ = convert_files(dialects.get("memoir").read(src), target)
    shown = b"".join(b for p, b in files.items() if ".memconv/" not in p)
    assert b"quokka" not in shown, "a decision memoir-cli hides is not shown as live"
    assert b"Keep the dingo endpoint" in shown, "an empty hidden does not hide, in memoir-cli either"
    there = convert_dir(src, target, tmp_path / "there")
    back = convert_dir(there, "memoir", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv/")} == tree(src)
    assert b'"hidden": "true"' in (back / "session.json").read_bytes()
