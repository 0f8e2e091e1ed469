"""An edit in the target comes home, and nothing show wrote for the record comes with it.

A lesson (a Claude ``feedback`` memory, a memoir lesson) is a procedure in memspec: its how_to_apply is
shown in the body as a ``**Steps:**`` block. Its body edited there (one word of a sentence), it came home
with that block in its body; a Claude memory lost its own ``**How to apply:**`` paragraph to it, and gained a
``how_to_apply:`` key: unshow worked out what show wrote from the lesson, not the procedure memspec got, and
took no block of two paragraphs out. A lesson's tags are a ``**Tags:**`` precondition in memfmt: edited there,
they came home as a ``**Preconditions:**`` block in the body, the tags unchanged.
"""

from __future__ import annotations

from pathlib import Path

from .convert_helpers import convert_dir

FEEDBACK = ("---\nname: Run tests first\ndescription: Always run the test suite before committing\ntype: feedback\n"
            "---\n\nRun the full test suite before every commit.\n\n**Why:** a broken main cost us a day.\n\n"
            "**How to apply:** before `git commit`, run `make test` and wait for green.\n")
LESSON = ("---\ntype: lesson\nname: Run tests first\ndescription: Always run the test suite before committing\n"
          "trigger: before committing\nhow_to_apply: run make test and wait for green\ntags: [ops]\n---\n\n"
          "Run the full test suite before every commit.\n")


def _there_and_back(tmp_path: Path, home: str, path: str, text: str, target: str, edit) -> str:
    (tmp_path / "in" / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "in" / path).write_text(text)
    out = convert_dir(tmp_path / "in", target, tmp_path / "out")
    [file] = [p for p in out.rglob("*.md") if "Run tests first" in p.read_text() or "Drain" in p.read_text()]
    edited = edit(file.read_text())
    assert edited != file.read_text()
    file.write_text(edited)
    return (convert_dir(out, home, tmp_path / "back") / path).read_text()


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


def test_a_tags_line_edited_in_a_memfmt_procedure_sets_the_tags(tmp_path):
    # Watched fail before the fix: tags stayed [ops], the body gained **Preconditions:** - **Tags:** ops, infra.
    back = _there_and_back(tmp_path, "memoir", "memory/lesson_tests.md", LESSON, "memfmt",
                           lambda text: text.replace("- **Tags:** ops\n", "- **Tags:** ops, infra\n"))
    assert back == LESSON.replace("tags: [ops]\n", "tags:\n  - ops\n  - infra\n")


def test_a_tags_line_and_a_precondition_edited_in_memfmt(tmp_path):
    back = _there_and_back(tmp_path, "memoir", "memory/lesson_tests.md", LESSON, "memfmt",
                           lambda text: text.replace("- **Tags:** ops\n", "- **Tags:** infra\n- CI is green\n"))
    head, _, body = back.partition("\n---\n")
    assert head.endswith("tags:\n  - infra") and "Tags" not in body
    assert body.strip() == "Run the full test suite before every commit.\n\n**Preconditions:**\n\n- CI is green"


def test_unedited_lessons_come_home_exact(tmp_path):
    for target, home, path, text in (("memspec", "claude", "feedback_tests.md", FEEDBACK),
                                     ("memspec", "memoir", "memory/lesson_tests.md", LESSON),
                                     ("memfmt", "memoir", "memory/lesson_tests.md", LESSON)):
        where = tmp_path / f"{target}-{home}"
        (where / "in" / path).parent.mkdir(parents=True)
        (where / "in" / path).write_text(text)
        out = convert_dir(where / "in", target, where / "out")
        assert (convert_dir(out, home, where / "back") / path).read_text() == text


def test_a_tags_line_edited_in_memfmt_beside_a_link_to_an_episode(tmp_path):
    # Watched fail before the fix: the preconditions name the decision by its memfmt name, not its link, so
    # what memfmt showed before the edit was not known; the tags line came home as a **Preconditions:** block.
    decision = ("---\ntype: decision\nname: Use blue green deploys\ndescription: Blue green\ndate: 2026-01-02\n---\n\n"
                "Chosen for rollbacks.\n")
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "decision_blue-green.md").write_text(decision)
    lesson = LESSON.replace("every commit.\n", "every commit, see [[decision_blue-green]].\n")
    back = _there_and_back(tmp_path, "memoir", "memory/lesson_tests.md", lesson, "memfmt",
                           lambda text: text.replace("- **Tags:** ops\n", "- **Tags:** ops, infra\n"))
    assert back == lesson.replace("tags: [ops]\n", "tags:\n  - ops\n  - infra\n")
