"""A MEMORY.md line that says what its memory says there is no word of the index's own, though the memory's name home
is another (a memoir preference is Claude's `user_` memory, a memspec claim an id), home has no key for what the line
says (a memspec claim's description), or it is the working set's rendering."""

from __future__ import annotations

from .conftest import GOLDEN, tree
from .convert_helpers import index_edited_in_claude


def _away_and_back(runner, tmp_path, edit, home: str = "memoir") -> dict[str, bytes]:
    back = index_edited_in_claude(runner, GOLDEN / home / "canonical" / "input", home, tmp_path, edit)
    return {p: b for p, b in tree(back).items() if not p.startswith(".memconv")}


def _reordered(text: str) -> str:
    lines = text.split("\n")
    at = lines.index("## Project") + 1
    lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return "\n".join(lines)


def test_two_lines_of_the_index_swapped_in_claude_bring_no_record_home(runner, tmp_path):
    # Before, `user_commit-style.md` (home: `preference_commit-style`) and `project_working-set.md` (the working
    # set's rendering, no record home) were taken for links with no memory behind them, and memoir gained a
    # `fact_memory-words.md` saying them again.
    came = _away_and_back(runner, tmp_path, _reordered)
    assert came == tree(GOLDEN / "memoir" / "canonical" / "input")


def test_a_paragraph_added_to_the_index_comes_home_alone(runner, tmp_path):
    came = _away_and_back(runner, tmp_path, lambda text: text + "\nThe staging DB is reset every Monday.\n")
    words = came.pop("memory/fact_memory-words.md").decode()
    assert "The staging DB is reset every Monday." in words
    assert "Commit message style" not in words and "Working set" not in words
    assert came == tree(GOLDEN / "memoir" / "canonical" / "input")


def test_a_memspec_claims_line_says_its_claim_though_memspec_has_no_description(runner, tmp_path):
    # A memory written in Claude beside them, and a paragraph: only the paragraph is the index's own. Before, every
    # claim's line came home among them, its hook (the description Claude's file says) being no key of a claim.
    def edit(text: str) -> str:
        (tmp_path / "away" / "user_pnpm.md").write_text(
            "---\nname: Prefer pnpm\ndescription: Use pnpm, not npm\ntype: user\n---\n\nAlways pnpm.\n")
        return text + "- [Prefer pnpm](user_pnpm.md) — Use pnpm, not npm\n\nThe staging DB is reset every Monday.\n"

    came = _away_and_back(runner, tmp_path, edit, home="memspec")
    words = [b.decode() for b in came.values() if b"own words" in b]
    assert len(words) == 1 and "The staging DB is reset every Monday." in words[0]
    assert "Team A ships on Tuesdays" not in words[0] and "Nobody sets core.autocrlf" not in words[0], words[0]
