"""A line memconv wrote for a list where the target has no key for it (``**Also known as:** staging urls``, a memspec
claim's hidden unknown key ``**aliases:** Ali B., ali``), edited in the target, is the list's new items on the way
home; emptied or deleted, it takes the list out, as a one-line field's line does
(tests/test_an_emptied_labelled_line_empties_its_field.py).

Before (2026-12-05, twenty-fourth session): an edit of such a line came home as a paragraph of the body beside the
old list, and an emptied one as the bare label: the report said the body was edited, and the list was as it was.
"""

from __future__ import annotations

import re

from memconv.cli import main

from .conftest import GOLDEN

ALSO = "\n**Also known as:** staging urls\n"


def _staging_in_memspec(runner, tmp_path):
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "canonical" / "input"), str(there)]
                         ).exit_code == 0
    (shown,) = [p for p in there.rglob("*.md") if ALSO in p.read_text(encoding="utf-8")]
    return there, shown


def _staging_home(runner, there, tmp_path):
    back = runner.invoke(main, ["memspec-to-memoir", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / "memory" / "fact_staging-endpoints.md").read_text(encoding="utf-8")


def test_an_edited_also_known_as_line_is_the_aliases(runner, tmp_path):
    there, shown = _staging_in_memspec(runner, tmp_path)
    shown.write_text(shown.read_text(encoding="utf-8").replace(
        ALSO, "\n**Also known as:** staging urls, stage endpoints\n"), encoding="utf-8")
    said, fact = _staging_home(runner, there, tmp_path)
    assert re.search(r"edited in memspec: [^\n]*\baliases\b", said), said
    assert "aliases:\n  - staging urls\n  - stage endpoints\n" in fact
    assert "Also known as" not in fact


def test_an_emptied_also_known_as_line_takes_the_aliases_out(runner, tmp_path):
    there, shown = _staging_in_memspec(runner, tmp_path)
    shown.write_text(shown.read_text(encoding="utf-8").replace(ALSO, "\n**Also known as:**\n"), encoding="utf-8")
    said, fact = _staging_home(runner, there, tmp_path)
    assert re.search(r"edited in memspec: [^\n]*\baliases\b", said), said
    assert "aliases" not in fact and "Also known as" not in fact and "staging urls" not in fact


def test_an_emptied_line_of_a_listed_unknown_key_takes_the_key_out(runner, tmp_path):
    there = tmp_path / "memspec"
    assert runner.invoke(main, ["memfmt-to-memspec", str(GOLDEN / "memfmt" / "full" / "input"), str(there)]
                         ).exit_code == 0
    (shown,) = [p for p in there.rglob("*.md") if "\n**aliases:** Ali B., ali\n" in p.read_text(encoding="utf-8")]
    shown.write_text(shown.read_text(encoding="utf-8").replace("\n**aliases:** Ali B., ali\n", "\n**aliases:**\n"),
                     encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-memfmt", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "extra.aliases" in back.stderr
    ali = (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(encoding="utf-8")
    assert "Ali B." not in ali and "aliases" not in ali
    assert "\n- based in Tokyo\n" in ali


def _claude_priority_home(tmp_path, line: str) -> tuple[str, str]:
    """A Claude memory with a number in an unknown key, its line in memspec made ``line``, and home again."""
    from click.testing import CliRunner

    runner = CliRunner()
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "reference_x.md").write_text(
        "---\nname: X\ndescription: the x project\ntype: reference\npriority: 3\n---\n\nShip x.\n", encoding="utf-8")
    assert runner.invoke(main, ["claude-to-memspec", str(tmp_path / "in"), str(tmp_path / "ms")]).exit_code == 0
    (claim,) = (tmp_path / "ms" / ".memspec").rglob("ms_*.md")
    text = claim.read_text(encoding="utf-8")
    assert "\n**priority:** 3\n" in text
    claim.write_text(text.replace("\n**priority:** 3\n", f"\n{line}\n"), encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-claude", str(tmp_path / "ms"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / "reference_x.md").read_text(encoding="utf-8")


def test_an_edited_number_line_stays_text(tmp_path):
    # The line's words cannot say whether 4 is a number or a text: the edit is kept as the body's text, and the key as
    # it was, rather than made a text the key never held.
    said, memory = _claude_priority_home(tmp_path, "**priority:** 4")
    assert "\npriority: 3\n" in memory and memory.endswith("Ship x.\n\n**priority:** 4\n")


def test_an_emptied_number_line_takes_the_key_out(tmp_path):
    said, memory = _claude_priority_home(tmp_path, "**priority:**")
    assert "priority" not in memory and "extra.priority" in said
