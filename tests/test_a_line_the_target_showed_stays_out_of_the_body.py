"""A line the target showed beside the body, left as it was there, does not come home as text of the body.

A memspec procedure in Claude is a feedback memory, whose ``**How to apply:**`` line says the procedure's steps again
(Claude Code reads the line). memspec holds the steps in the body's list only. When another line of the memory was
edited in Claude, the How to apply line came home as a paragraph of the memspec body: the steps twice, the second
time as they were before the edit. Emptied there, its bare label came home (docs/conversion.md).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .conftest import GOLDEN
from .convert_helpers import convert_dir

STORE = GOLDEN / "memspec" / "current-every-field" / "input"
STEPS = "1. `git status` must be clean.\n2. `npm version patch`.\n3. `npm publish`.\n"


def _procedure_home(tmp_path: Path, edit) -> str:
    out = convert_dir(STORE, "claude", tmp_path / "claude")
    [memory] = out.glob("feedback_release-*.md")
    text = memory.read_text()
    assert STEPS in text and "\n**How to apply:** `git status` must be clean." in text
    edited = edit(text)
    assert edited != text, "the edit must change the Claude memory"
    memory.write_text(edited)
    back = convert_dir(out, "memspec", tmp_path / "back")
    [procedure] = (back / ".memspec" / "memory" / "operator" / "procedures").glob("*.md")
    return procedure.read_text()


def _how_to_apply(text: str, to: str) -> str:
    return re.sub(r"^\*\*How to apply:\*\*.*\n", to, text, count=1, flags=re.M)


ORIGINAL = next((STORE / ".memspec" / "memory" / "operator" / "procedures").glob("*.md")).read_text()


@pytest.mark.parametrize(("edit", "expected"), [
    # Watched fail before the fix: the How to apply line came home after the edited list.
    (lambda t: t.replace("\n3. `npm publish`.\n", "\n3. `npm publish --tag next`.\n"),
     ORIGINAL.replace("3. `npm publish`.", "3. `npm publish --tag next`.")),
    # Watched fail before the fix: a bare **How to apply:** label came home.
    (lambda t: _how_to_apply(t, "**How to apply:**\n"), ORIGINAL),
    (lambda t: _how_to_apply(t, ""), ORIGINAL),
    # The user's words land in the body, where memspec's user reads them.
    (lambda t: _how_to_apply(t, "**How to apply:** run it twice\n"),
     ORIGINAL + "\n**How to apply:** run it twice\n"),
    # A list under the label, after a blank line, is the user's text: kept with its label.
    (lambda t: _how_to_apply(t, "**How to apply:**\n\n- check twice\n"),
     ORIGINAL + "\n**How to apply:**\n\n- check twice\n"),
], ids=["list-edited", "emptied", "deleted", "edited", "list-below-the-label"])
def test_the_how_to_apply_line_of_a_memspec_procedure_comes_home_only_as_edited(tmp_path, edit, expected):
    assert _procedure_home(tmp_path, edit) == expected


def test_the_procedure_untouched_in_claude_comes_home_byte_for_byte(tmp_path):
    out = convert_dir(STORE, "claude", tmp_path / "claude")
    shutil.copytree(out, tmp_path / "same")
    back = convert_dir(tmp_path / "same", "memspec", tmp_path / "back")
    [procedure] = (back / ".memspec" / "memory" / "operator" / "procedures").glob("*.md")
    assert procedure.read_text() == ORIGINAL


def test_a_description_written_in_claude_keeps_the_rest_of_the_procedure(tmp_path):
    # memspec has no description: written in Claude, it lands in the body, once. Watched fail before the fix: the
    # claim's source (human:ana) was emptied, since the body it was added to was taken for one edited in Claude with
    # its **Source:** line deleted; and the text came twice, as the description and as the trigger Claude reads from it.
    def described(text):
        return re.sub(r"^description: .*$", 'description: "Release steps, clean tree first"', text, count=1,
                      flags=re.M)

    back = _procedure_home(tmp_path, described)
    assert back == ORIGINAL.replace("\n1. `git status`", "\nRelease steps, clean tree first\n\n1. `git status`")


def test_a_list_shown_as_facts_stays_in_the_body_when_another_fact_is_edited(tmp_path):
    # memfmt shows a memoir fact's body as facts, a list's items each one; mapped home, the body shown then holds them
    # as paragraphs, which are not the body's own paragraphs. Only labelled lines are taken out: with any paragraph
    # shown then taken out, the two items were lost (watched, before the rule was narrowed to labelled lines).
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_deploy.md").write_text(
        "---\ntype: fact\nname: Deploy rules\ndescription: How we deploy\n---\n\nWe deploy with care.\n\n"
        "- tag first\n- then build\n\nAsk ops when unsure.\n")
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "memfmt")
    [entity] = (out / "memory" / "entities").glob("*.md")
    entity.write_text(entity.read_text().replace("- Ask ops when unsure.\n", "- Ask ops when unsure, always.\n"))
    back = (convert_dir(out, "memoir", tmp_path / "back") / "memory" / "fact_deploy.md").read_text()
    assert "tag first" in back and "then build" in back and "Ask ops when unsure, always." in back
