"""The lines of the ``**Relations:**`` block an entity shows in another dialect, reordered there, come home in the
order the person gave them.

A memfmt entity converted to Claude, memoir (or memspec, for the verbs it has no key for) shows its relations under
``**Relations:**``, a dashed line each (``readable.show``). Read home (``readable.relations_back``), the block's edges
kept the relations' old order, and only an added line went last: a reorder was reported as an edit of the edges
(``edited in claude: edges``) and then lost. Now the edges the block says fill, in its order, the places the edges it
showed had among the entity's relations; an edge the target held in a key of its own (memspec's ``depends_on``) keeps
its place, and an edge more than the block showed goes last.
"""

from __future__ import annotations

import json
from pathlib import Path

import memfmt
import pytest

from memconv.cli import main

ALI = ("---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n- leads the night shift\n\n"
       "## Relations\n\n- works at → [[Ops]] — since 2024\n- mentors ← [[Bo]]\n- knows → [[Cy]]\n")
#: Where each target holds Ali.
THERE = {"claude": "reference_ali.md", "memoir": "memory/fact_ali.md"}


def _other(name: str) -> str:
    return f"---\nmemfmt_type: entity\nentity_type: person\n---\n\n# {name}\n\n## Facts\n\n- someone\n"


def _convert(runner, source: Path, into: Path, way: str) -> list[str]:
    result = runner.invoke(main, [way, "--json", "--fail-on-loss", str(source), str(into)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["warnings"]


def _round(runner, tmp_path: Path, target: str, ali: str, there: str, edit) -> tuple[str, list[str], list[tuple]]:
    """Ali (``ali``) converted to ``target``, its file there (``there``: a path, or a function of the target's
    folder) edited by ``edit``, converted home: Ali's file, the report's warnings, its relations as memfmt reads
    them."""
    home = tmp_path / "in"
    (home / "memory" / "entities").mkdir(parents=True)
    (home / "memory" / "entities" / "Ali.md").write_text(ali, encoding="utf-8")
    for name in ("Ops", "Bo", "Cy"):
        (home / "memory" / "entities" / f"{name}.md").write_text(_other(name), encoding="utf-8")
    _convert(runner, home, tmp_path / target, f"memfmt-to-{target}")
    file = there(tmp_path / target) if callable(there) else tmp_path / target / there
    text = file.read_text(encoding="utf-8")
    file.write_text(edit(text), encoding="utf-8")
    warnings = _convert(runner, tmp_path / target, tmp_path / "back", f"{target}-to-memfmt")
    back = (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(encoding="utf-8")
    ali_home = next(e for e in memfmt.load(str(tmp_path / "back" / "memory")).entities if e.name == "Ali")
    return back, warnings, [(r.type, r.target, r.direction) for r in ali_home.relations]


def _lines(text: str) -> list[str]:
    """The block's relation lines, as the target shows them."""
    block = text.split("**Relations:**\n\n", 1)[1]
    return [line for line in block.split("\n\n", 1)[0].split("\n") if line.startswith("- ")]


def _reordered(order: list[int], added: dict[int, str] | None = None):
    """An edit that puts the block's lines in ``order`` (their indexes), ``added`` lines inserted at their index."""
    def edit(text: str) -> str:
        lines = _lines(text)
        new = [lines[n] for n in order]
        for at, line in sorted((added or {}).items()):
            new.insert(at, line)
        assert "\n".join(lines) in text
        return text.replace("\n".join(lines), "\n".join(new))
    return edit


@pytest.mark.parametrize("target", ["claude", "memoir"])
def test_a_reordered_block_comes_home_in_its_new_order(runner, tmp_path, target):
    back, warnings, relations = _round(runner, tmp_path, target, ALI, THERE[target], _reordered([2, 0, 1]))
    assert back == ALI.replace("- works at → [[Ops]] — since 2024\n- mentors ← [[Bo]]\n- knows → [[Cy]]\n",
                               "- knows → [[Cy]]\n- works at → [[Ops]] — since 2024\n- mentors ← [[Bo]]\n")
    assert relations == [("knows", "Cy", "outgoing"), ("works at", "Ops", "outgoing"), ("mentors", "Bo", "incoming")]
    assert any(f"edited in {target}: edges" in w for w in warnings), warnings


def test_a_line_added_amid_the_block_stays_where_it_was_added(runner, tmp_path):
    edit = _reordered([1, 0, 2], {1: "- works with → [[reference_cy]] — on call"})
    back, _, relations = _round(runner, tmp_path, "claude", ALI, THERE["claude"], edit)
    assert relations == [("mentors", "Bo", "incoming"), ("works with", "Cy", "outgoing"),
                         ("works at", "Ops", "outgoing"), ("knows", "Cy", "outgoing")]
    assert back.endswith("## Relations\n\n- mentors ← [[Bo]]\n- works with → [[Cy]] — on call\n"
                         "- works at → [[Ops]] — since 2024\n- knows → [[Cy]]\n")


def test_a_reorder_with_a_line_taken_out_keeps_the_new_order(runner, tmp_path):
    back, _, relations = _round(runner, tmp_path, "claude", ALI, THERE["claude"], _reordered([2, 0]))
    assert relations == [("knows", "Cy", "outgoing"), ("works at", "Ops", "outgoing")]


def test_an_edge_memspec_holds_in_a_key_keeps_its_place(runner, tmp_path):
    # depends_on is a key of the claim in memspec, not a line of the block: reordering the block leaves it be.
    ali = ALI.replace("- mentors ← [[Bo]]\n", "- depends_on → [[Bo]]\n- mentors ← [[Bo]]\n")

    def ali_there(store: Path) -> Path:
        return next(p for p in (store / ".memspec" / "memory").rglob("*.md") if "\n# Ali\n" in p.read_text("utf-8"))

    back, warnings, relations = _round(runner, tmp_path, "memspec", ali, ali_there, _reordered([2, 0, 1]))
    assert relations == [("knows", "Cy", "outgoing"), ("depends_on", "Bo", "outgoing"),
                         ("works at", "Ops", "outgoing"), ("mentors", "Bo", "incoming")]
    assert any("edited in memspec: edges" in w for w in warnings), warnings


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_an_unedited_block_comes_home_as_it_was(runner, tmp_path, target):
    ali = ALI.replace("- mentors ← [[Bo]]\n", "- depends_on → [[Bo]]\n- mentors ← [[Bo]]\n")

    def there(store: Path) -> Path:
        return next(p for p in store.rglob("*.md") if "\n# Ali\n" in p.read_text("utf-8")
                    or "name: Ali\n" in p.read_text("utf-8"))

    back, warnings, _ = _round(runner, tmp_path, target, ali, there, lambda text: text)
    assert back == ali
    assert not any("edges" in w for w in warnings), warnings
