"""A Claude feedback memory memconv writes says how to apply it in its body's ``**How to apply:**`` section.

Claude Code and the memoir spec (Appendix A) read a ``feedback`` memory's rule from that section, and
memoir-cli's ``validate`` (3.12) warns of a feedback memory without one. memconv wrote the rule of a memfmt
procedure, a memspec procedure or a memoir lesson whose body had no section in a ``how_to_apply:`` key (or
not at all), so ``validate`` warned on seven golden outputs. Now the section is written (a procedure's steps
as its numbered list), no key beside it, and the way home is exact (docs/claude.md, SECTION_FIELDS).
"""

from __future__ import annotations

import re

import pytest

from memconv.dialects.claude import body as bodies

from . import golden
from .conftest import round_trip, tree
from .reference_tools import memoir_validate, needs_memoir

INTO_CLAUDE = [(d, n) for d, n, t in golden.CONVERSIONS if t == "claude"]
_LABEL = re.compile(r"^\*\*How to apply:?\*\*", re.I | re.M)


def _feedback(files: dict[str, bytes]) -> dict[str, str]:
    return {p: b.decode() for p, b in files.items()
            if "/" not in p and re.search(r"^type: feedback$", b.decode().split("\n---\n", 1)[0], re.M)}


@pytest.mark.parametrize(("dialect", "name"), INTO_CLAUDE, ids=[f"{d}-{n}" for d, n in INTO_CLAUDE])
def test_every_feedback_memory_says_how_to_apply_in_its_body(dialect, name):
    # Broken once (SECTION_FIELDS taken out of the claude dialect): memfmt's and memspec's feedback memories
    # had no section, the procedures' rule was in a how_to_apply key.
    for path, text in _feedback(golden.converted(dialect, name, "claude")).items():
        head, body = text.split("\n---\n", 1)
        assert bodies.section(body, bodies.HOW_TO_APPLY), f"{path}: no **How to apply:** section\n{text}"
        assert not re.search(r"^how_to_apply:", head, re.M) or _LABEL.search(body), path


@needs_memoir
@pytest.mark.parametrize(("dialect", "name"), INTO_CLAUDE, ids=[f"{d}-{n}" for d, n in INTO_CLAUDE])
def test_memoir_validate_finds_every_feedback_memory_applicable(dialect, name):
    said = [(f, w) for f, w in memoir_validate(golden.converted_folder(dialect, name, "claude")).warnings
            if "without a **How to apply:**" in w]
    assert said == [], said


LESSON = (b"---\ntype: lesson\nname: Friday deploys\ndescription: No deploys on Friday afternoon\n"
          b"trigger: About to deploy on a Friday\nhow_to_apply: Wait for Monday unless it is a hotfix.\n---\n"
          b"Two weekend incidents in March.\n")


def test_a_memoir_lesson_without_a_section_is_given_one_and_comes_home_exact(runner, tmp_path):
    round_trip(runner, tmp_path, {"memory/lesson_friday-deploys.md": LESSON}, "memoir", "claude")
    away = tree(tmp_path / "away")["feedback_friday-deploys.md"].decode()
    assert "\n**How to apply:** Wait for Monday unless it is a hotfix.\n" in away
    assert "how_to_apply:" not in away.split("\n---\n", 1)[0], "the rule is said once, where Claude Code reads it"
    assert tree(tmp_path / "back")["memory/lesson_friday-deploys.md"] == LESSON


def test_the_section_edited_in_claude_is_the_lessons_how_to_apply_at_home(runner, tmp_path):
    # Broken once (unshow not told of the section): the edited line came home in the body, the old rule in the key.
    from memconv.cli import main

    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "lesson_friday-deploys.md").write_bytes(LESSON)
    assert runner.invoke(main, ["memoir-to-claude", str(tmp_path / "in"), str(tmp_path / "away")]).exit_code == 0
    file = tmp_path / "away" / "feedback_friday-deploys.md"
    file.write_text(file.read_text().replace("unless it is a hotfix.", "always."))
    result = runner.invoke(main, ["claude-to-memoir", str(tmp_path / "away"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back = (tmp_path / "back" / "memory" / "lesson_friday-deploys.md").read_bytes()
    assert back == LESSON.replace(b"unless it is a hotfix.", b"always."), back.decode()


@pytest.mark.parametrize("name", ["full", "legacy", "vault"])
def test_memfmt_to_claude_and_back_gives_the_same_bytes(runner, tmp_path, name):
    # The same bytes as memfmt writes the store itself (``migrate``: the legacy store's keys are renamed).
    round_trip(runner, tmp_path, tree(golden.GOLDEN / "memfmt" / name / "input"), "memfmt", "claude")
    back = {p: b for p, b in tree(tmp_path / "back").items() if not p.startswith(".memconv/")}
    assert back == golden.migrated("memfmt", name)
