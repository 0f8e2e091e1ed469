"""An edit in the target comes home, and nothing show wrote for the record comes with it.

A lesson (a Claude ``feedback`` memory, a memoir lesson) is a procedure in memspec: its how_to_apply is
shown in the body as a ``**Steps:**`` block. Its body edited there (one word of a sentence), it came home
with that block in its body; a Claude memory lost its own ``**How to apply:**`` paragraph to it, and gained a
``how_to_apply:`` key: unshow worked out what show wrote from the lesson, not the procedure memspec got, and
took no block of two paragraphs out.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

FEEDBACK = ("---\nname: Run tests first\ndescription: Always run the test suite before committing\ntype: feedback\n"
            "---\n\nRun the full test suite before every commit.\n\n**Why:** a broken main cost us a day.\n\n"
            "**How to apply:** before `git commit`, run `make test` and wait for green.\n")
LESSON = ("---\ntype: lesson\nname: Run tests first\ndescription: Always run the test suite before committing\n"
          "trigger: before committing\nhow_to_apply: run make test and wait for green\ntags: [ops]\n---\n\n"
          "Run the full test suite before every commit.\n")


def _convert(source: Path, target: str, out: Path) -> Path:
    result = CliRunner().invoke(main, ["convert", "--to", target, str(source), str(out)])
    assert result.exit_code == 0, result.output
    return out


def _there_and_back(tmp_path: Path, home: str, path: str, text: str, target: str, edit) -> str:
    (tmp_path / "in" / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "in" / path).write_text(text)
    out = _convert(tmp_path / "in", target, tmp_path / "out")
    [file] = [p for p in out.rglob("*.md") if "Run tests first" in p.read_text() or "Drain" in p.read_text()]
    edited = edit(file.read_text())
    assert edited != file.read_text()
    file.write_text(edited)
    return (_convert(out, home, tmp_path / "back") / path).read_text()


def _one_word(text: str) -> str:
    return text.replace("Run the full test suite", "Run the whole test suite")


def test_a_feedback_memory_edited_in_memspec_keeps_its_how_to_apply(tmp_path):
    # Watched fail before the fix: a how_to_apply: key, and **Steps:** 1. … in place of **How to apply:** ….
    back = _there_and_back(tmp_path, "claude", "feedback_tests.md", FEEDBACK, "memspec", _one_word)
    assert back == _one_word(FEEDBACK)


def test_a_memoir_lesson_edited_in_memspec_comes_home_without_its_steps(tmp_path):
    # Watched fail before the fix: the body ended in **Steps:** 1. run make test and wait for green.
    back = _there_and_back(tmp_path, "memoir", "memory/lesson_tests.md", LESSON, "memspec", _one_word)
    assert back == _one_word(LESSON)




def test_unedited_lessons_come_home_exact(tmp_path):
    for target, home, path, text in (("memspec", "claude", "feedback_tests.md", FEEDBACK),
                                     ("memspec", "memoir", "memory/lesson_tests.md", LESSON)):
        where = tmp_path / f"{target}-{home}"
        (where / "in" / path).parent.mkdir(parents=True)
        (where / "in" / path).write_text(text)
        out = _convert(where / "in", target, where / "out")
        assert (_convert(out, home, where / "back") / path).read_text() == text
