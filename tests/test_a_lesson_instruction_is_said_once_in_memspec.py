"""A Claude feedback memory's instruction is said once in memspec, and an edit of it comes home as one edit.

A lesson is a procedure in memspec, and its how_to_apply its one step. A Claude feedback memory says that
instruction in its body, on a ``**How to apply:**`` line, so memspec showed it twice: that line, and the
``**Steps:**`` item show wrote. The line edited in memspec came home beside a ``how_to_apply:`` key holding
the old text (Claude Code reads that key first); the item edited came home as a ``**Steps:**`` block in the
body. Now the item is not written when the body's section says it (as a numbered list under the label said
it already), and the section edited in memspec is the lesson's how_to_apply, as Claude Code reads it.
"""

from __future__ import annotations

from pathlib import Path

from .convert_helpers import convert_dir
from .reference_tools import memspec_load, needs_memspec

INSTRUCTION = "run `make test-integration` before saying a DB change is done."
FEEDBACK = ("---\nname: Run the real test suite\ndescription: When changing anything under src/db, run the "
            "integration tests\ntype: feedback\n---\n\nIntegration tests must hit a real database, not mocks.\n\n"
            "**Why:** the mocked tests passed while the prod migration failed.\n\n"
            f"**How to apply:** {INSTRUCTION}\n")
LISTED = ("---\nname: Release steps\ndescription: How to cut a release\ntype: feedback\n---\n\n"
          "Releases broke twice.\n\n**How to apply:**\n1. build the wheel\n2. push the tag\n")


def _to_memspec(tmp_path: Path, text: str) -> tuple[Path, Path]:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "feedback_x.md").write_text(text)
    out = convert_dir(tmp_path / "in", "memspec", tmp_path / "ms")
    [file] = (out / ".memspec").rglob("ms_*.md")
    return out, file


def _home(tmp_path: Path, text: str, edit) -> str:
    out, file = _to_memspec(tmp_path, text)
    head, body = file.read_text().split("\n---\n", 1)  # the carry is in the frontmatter: only the body is edited
    edited = head + "\n---\n" + edit(body)
    assert edited != file.read_text(), "the edit must change the memspec file"
    file.write_text(edited)
    return (convert_dir(out, "claude", tmp_path / "back") / "feedback_x.md").read_text()


def _body(text: str) -> str:
    return text.split("\n---\n", 1)[1]


@needs_memspec
def test_memspec_shows_the_instruction_once(tmp_path):
    # Watched fail before the fix: the body said it twice, on its **How to apply:** line and as **Steps:** 1.
    out, file = _to_memspec(tmp_path, FEEDBACK)
    assert memspec_load(out).problems == [], "memspec's own loader accepts the procedure"
    body = _body(file.read_text())
    assert body.count("make test-integration") == 1, f"the instruction is said once in memspec:\n{body}"
    assert "**Steps:**" not in body


def test_the_how_to_apply_line_edited_in_memspec_comes_home_without_a_stale_key(tmp_path):
    # Watched fail before the fix: how_to_apply: run `make test-integration` … was added to the frontmatter.
    back = _home(tmp_path, FEEDBACK, lambda t: t.replace("make test-integration", "make test-all"))
    assert back == FEEDBACK.replace("make test-integration", "make test-all"), \
        "the edit is one edit of the **How to apply:** line, and no how_to_apply key holds the old text"


def test_a_listed_step_edited_in_memspec_comes_home_without_a_stale_key(tmp_path):
    # Watched fail before the fix: how_to_apply: |- with the old list was added to the frontmatter.
    back = _home(tmp_path, LISTED, lambda t: t.replace("2. push the tag", "2. push the signed tag"))
    assert back == LISTED.replace("2. push the tag", "2. push the signed tag")


def test_the_how_to_apply_line_deleted_in_memspec_leaves_no_key(tmp_path):
    back = _home(tmp_path, FEEDBACK, lambda t: t.replace(f"\n**How to apply:** {INSTRUCTION}\n", ""))
    assert back == FEEDBACK.replace(f"\n\n**How to apply:** {INSTRUCTION}\n", "\n"), \
        "the instruction taken out in memspec is gone at home, not kept in a key Claude Code reads"


def test_another_paragraph_edited_in_memspec_keeps_the_instruction(tmp_path):
    back = _home(tmp_path, FEEDBACK, lambda t: t.replace("not mocks.", "never mocks."))
    assert back == FEEDBACK.replace("not mocks.", "never mocks.")


def test_unedited_it_comes_home_exact(tmp_path):
    for name, text in (("said", FEEDBACK), ("listed", LISTED)):
        (tmp_path / name).mkdir()
        out, _ = _to_memspec(tmp_path / name, text)
        assert (convert_dir(out, "claude", tmp_path / name / "back") / "feedback_x.md").read_text() == text


MEMOIR = ("---\ntype: lesson\nname: Run tests first\ndescription: Always run the tests\ntrigger: before committing\n"
          "how_to_apply: run make test\n---\n\nRun the suite.\n\n**How to apply:** run make test\n")


def _memoir_home(tmp_path: Path, edit) -> str:
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "lesson_t.md").write_text(MEMOIR)
    out = convert_dir(tmp_path / "in", "memspec", tmp_path / "ms")
    [file] = (out / ".memspec").rglob("ms_*.md")
    head, body = file.read_text().split("\n---\n", 1)
    assert body.count("run make test") == 1, "memspec says the memoir lesson's instruction once too"
    file.write_text(head + "\n---\n" + edit(body))
    return (convert_dir(out, "memoir", tmp_path / "back") / "memory" / "lesson_t.md").read_text()


def test_a_memoir_lesson_whose_body_says_its_how_to_apply_follows_the_edit(tmp_path):
    back = _memoir_home(tmp_path, lambda t: t.replace("run make test", "run make check"))
    assert back == MEMOIR.replace("run make test", "run make check")


def test_a_memoir_lesson_keeps_the_how_to_apply_it_requires_when_the_section_is_taken_out(tmp_path):
    back = _memoir_home(tmp_path, lambda t: t.replace("**How to apply:** run make test\n", ""))
    assert back == MEMOIR.replace("\n\n**How to apply:** run make test\n", "\n"), \
        "memoir requires a lesson's how_to_apply: the key keeps its text"
