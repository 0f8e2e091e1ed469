"""A line of the ``**Relations:**`` block a memspec claim shows in Claude or memoir, taken out (or the block's lines
reordered) there, is the claim's edges at home: the edge the line said goes, and no line of the block stays in the
memspec body as text.

A memspec claim's edges (``depends_on``, ``supports``, …) have keys in memspec and none in Claude or memoir, which
show them as ``- depends_on → [[reference_node]]`` lines under ``**Relations:**`` (``readable.show``). Home, the
block was taken out only as it was written (``readable.take_relations_out``): one line of two deleted there, the
edited block stayed in the memspec body as text (its lines naming ``[[ms_…]]``), every edge came back from its key,
and the report said only ``edited in claude: body``; its lines all deleted, the bare label was left in the body. A
memfmt entity's edited block was already read home line by line (``readable.relations_back``); now the claim's is
too, by the same rule. A line that says no relation memspec has a key for stays text of the body, and the report
says so (docs/conversion.md, 2026-12-07, forty-third session).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from memconv.cli import main

from .memspec_schema_rules import problems

DECISION = "ms_01KN49FJ2028KAX7EADGMGE1FN"
NODE = "ms_01KNRWNA20VCD395V3FZBW4Z1W"
CRLF = "ms_01KN6VW92007FGJ3K7XW52AH0T"
#: Where each target holds the decision, and how it names the two facts.
THERE = {"claude": ("project_team-a-ships-on-tuesdays.md", "reference_node-fact", "reference_autocrlf-fact"),
         "memoir": ("memory/decision_team-a-ships-on-tuesdays.md", "fact_node-fact", "fact_autocrlf-fact")}


def _claim(id_: str, type_: str, title: str, extra: str = "") -> str:
    return (f"---\nid: {id_}\nkind: claim\ntype: {type_}\nstate: active\ncreated: '2026-08-03T10:30:00.000Z'\n"
            f"source: claude-code\nsource_kind: agent\ntags: []\ncheck_by: '2027-01-30T10:30:00.000Z'\n"
            f"verified_with: assertion\n{extra}---\n# {title}\n\nSome text about {title}.\n")


def _store(root: Path) -> Path:
    memory = root / ".memspec" / "memory"
    (memory / "decisions").mkdir(parents=True)
    (memory / "facts").mkdir()
    (root / ".memspec" / "archive").mkdir()
    (memory / "decisions" / f"{DECISION}.md").write_text(
        _claim(DECISION, "decision", "Team A ships on Tuesdays", f"depends_on:\n  - {NODE}\n  - {CRLF}\n"),
        encoding="utf-8")
    (memory / "facts" / f"{NODE}.md").write_text(_claim(NODE, "fact", "Node fact"), encoding="utf-8")
    (memory / "facts" / f"{CRLF}.md").write_text(_claim(CRLF, "fact", "Autocrlf fact"), encoding="utf-8")
    return root


def _round(runner, tmp_path: Path, target: str, edit) -> tuple[dict, str, str, list[str]]:
    """The store converted to ``target``, the decision's file there edited by ``edit``, converted home: the
    decision's frontmatter and body at home, its text, the report's warnings."""
    source = _store(tmp_path / "in")
    there = tmp_path / target
    out = runner.invoke(main, [f"memspec-to-{target}", str(source), str(there)])
    assert out.exit_code == 0, out.output
    file = there / THERE[target][0]
    text = file.read_text(encoding="utf-8")
    edited = edit(text, *THERE[target][1:])
    assert edited != text
    file.write_text(edited, encoding="utf-8")
    back = runner.invoke(main, [f"{target}-to-memspec", "--json", "--fail-on-loss", str(there), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    path = tmp_path / "back" / ".memspec" / "memory" / "decisions" / f"{DECISION}.md"
    home = path.read_text(encoding="utf-8")
    assert problems(f"memory/decisions/{DECISION}.md", home) == []
    _, frontmatter, body = home.split("---\n", 2)
    return yaml.safe_load(frontmatter), body, home, json.loads(back.stdout)["warnings"]


def _without(line: str):
    def edit(text: str, node: str, crlf: str) -> str:
        return text.replace(line.format(node=node, crlf=crlf) + "\n", "")
    return edit


@pytest.mark.parametrize("target", sorted(THERE))
def test_a_relation_line_deleted_there_takes_its_edge_out_at_home(runner, tmp_path, target):
    fields, body, _, warnings = _round(runner, tmp_path, target, _without("- depends_on → [[{crlf}]]"))
    assert fields["depends_on"] == [NODE]
    assert "Relations" not in body and "depends_on" not in body and "[[" not in body
    assert any("edges" in w for w in warnings), warnings


@pytest.mark.parametrize("target", sorted(THERE))
def test_every_relation_line_deleted_there_leaves_no_label_and_no_edge(runner, tmp_path, target):
    def edit(text: str, node: str, crlf: str) -> str:
        return _without("- depends_on → [[{crlf}]]")(_without("- depends_on → [[{node}]]")(text, node, crlf),
                                                         node, crlf)
    fields, body, _, warnings = _round(runner, tmp_path, target, edit)
    assert "depends_on" not in fields
    assert "Relations" not in body
    assert any("edges" in w for w in warnings), warnings


@pytest.mark.parametrize("target", sorted(THERE))
@pytest.mark.parametrize("between", ["", "- supports → [[{crlf}]]\n"], ids=["alone", "beside-a-line-of-another-key"])
def test_relation_lines_of_one_key_reordered_there_are_that_keys_new_order(runner, tmp_path, target, between):
    # Beside a line of another key added between them, the order across keys is memspec's, within one the person's.
    def edit(text: str, node: str, crlf: str) -> str:
        one, two = f"- depends_on → [[{node}]]", f"- depends_on → [[{crlf}]]"
        return text.replace(f"{one}\n{two}", f"{two}\n{between.format(crlf=crlf)}{one}")
    fields, body, _, warnings = _round(runner, tmp_path, target, edit)
    assert fields["depends_on"] == [CRLF, NODE] and fields.get("supports", [CRLF]) == [CRLF]
    assert "Relations" not in body and "[[" not in body
    assert not any("edit is dropped" in w for w in warnings), warnings


@pytest.mark.parametrize("target", sorted(THERE))
def test_a_body_edited_beside_an_unedited_block_keeps_every_edge(runner, tmp_path, target):
    def edit(text: str, node: str, crlf: str) -> str:
        return text.replace("Some text about Team A ships on Tuesdays.", "Some text, edited.")
    fields, body, _, _ = _round(runner, tmp_path, target, edit)
    assert fields["depends_on"] == [NODE, CRLF]
    assert "Some text, edited." in body and "Relations" not in body


@pytest.mark.parametrize("target", sorted(THERE))
def test_a_line_saying_no_relation_stays_text_of_the_body_and_is_reported(runner, tmp_path, target):
    def edit(text: str, node: str, crlf: str) -> str:
        one = f"- depends_on → [[{node}]]"
        return text.replace(f"{one}\n", f"{one}\n- see the release wiki\n")
    fields, body, _, warnings = _round(runner, tmp_path, target, edit)
    assert fields["depends_on"] == [NODE, CRLF]
    assert body.endswith("\n\nsee the release wiki\n") and "Relations" not in body
    assert any("says no relation memspec has a key for ('see the release wiki')" in w for w in warnings), warnings


@pytest.mark.parametrize("target", sorted(THERE))
@pytest.mark.parametrize("where", ["after", "before"])
def test_a_line_of_a_type_the_claim_had_no_edge_of_added_there_is_its_key_and_nothing_dropped(runner, tmp_path,
                                                                                              target, where):
    """memspec holds no order across its keys: ``supports`` added after ``depends_on`` reads back before it, which
    is no edge lost. Before, the report counted ``edges`` dropped ("the edit is dropped") and ``--fail-on-loss``
    exited 5 though the key was written (the line added before the others came home)."""
    def edit(text: str, node: str, crlf: str) -> str:
        one, two, added = f"- depends_on → [[{node}]]", f"- depends_on → [[{crlf}]]", f"- supports → [[{node}]]"
        return text.replace(f"{one}\n{two}", f"{one}\n{two}\n{added}" if where == "after" else f"{added}\n{one}\n{two}")
    fields, body, _, warnings = _round(runner, tmp_path, target, edit)
    assert fields["depends_on"] == [NODE, CRLF] and fields["supports"] == [NODE]
    assert "Relations" not in body and "[[" not in body
    assert any("edges" in w for w in warnings) and not any("edit is dropped" in w for w in warnings), warnings
