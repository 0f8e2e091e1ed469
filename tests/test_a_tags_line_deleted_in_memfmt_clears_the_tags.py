"""A ``**Tags:**`` line taken out in memfmt takes the tags out at home, unless memfmt never showed them.

memfmt has no tags: a record's tags are a ``**Tags:** a, b`` line among an entity's facts or a
procedure's preconditions (docs/conversion.md, "Native first"). Edited there, the line set the tags; taken
out, the tags came home as they were, though the user removed them in the one place their tool shows
them. A memfmt file written before tags were shown there has no such line: an edit of it leaves the tags be.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest

from memconv.converters import readable

from .convert_helpers import convert_dir

FACT = "---\ntype: fact\nname: Plain\ndescription: plain one\ntags: [alpha, beta]\n---\n\nBody one.\n"
LESSON = ("---\ntype: lesson\nname: Run tests first\ndescription: Always run the test suite before committing\n"
          "trigger: before committing\nhow_to_apply: run make test and wait for green\ntags: [ops]\n---\n\n"
          "Run the full test suite before every commit.\n")
CLAUDE = ("---\nname: Deploy window\ndescription: When we may deploy\ntype: reference\ntags:\n  - ops\n  - deploy\n"
          "---\n\nTuesdays only.\n")


def _home(tmp_path: Path, home: str, path: str, text: str, edit) -> str:
    (tmp_path / "in" / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "in" / path).write_text(text)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    [file] = [p for p in (out / "memory").rglob("*.md") if p.name != "MEMORY.md"]
    edited = edit(file.read_text())
    assert edited != file.read_text(), "the edit must change the memfmt file"
    file.write_text(edited)
    memfmt.load(out / "memory")  # memfmt's own reader takes the edited store
    return (convert_dir(out, home, tmp_path / "back") / path).read_text()


def _no_tags_line(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if "**Tags:**" not in line)


@pytest.mark.parametrize(("home", "path", "text", "without"), [
    ("memoir", "memory/fact_x.md", FACT, FACT.replace("tags: [alpha, beta]\n", "")),
    ("memoir", "memory/lesson_tests.md", LESSON, LESSON.replace("tags: [ops]\n", "")),
    ("claude", "reference_deploy.md", CLAUDE, CLAUDE.replace("tags:\n  - ops\n  - deploy\n", "")),
], ids=["memoir-fact-as-entity", "memoir-lesson-as-procedure", "claude-reference-as-entity"])
def test_the_tags_line_taken_out_in_memfmt_takes_the_tags_out(tmp_path, home, path, text, without):
    # Watched fail before the fix: each came home with its tags, as written.
    back = _home(tmp_path, home, path, text, _no_tags_line)
    assert back == without, "the tags the user took out in memfmt are not given back at home"


def test_the_tags_line_edited_in_memfmt_still_sets_them(tmp_path):
    back = _home(tmp_path, "memoir", "memory/fact_x.md", FACT,
                 lambda t: t.replace("**Tags:** alpha, beta", "**Tags:** gamma"))
    assert back == FACT.replace("tags: [alpha, beta]", "tags:\n  - gamma")


DECISION = ("---\ntype: decision\nname: Local store is SQLite\ndescription: SQLite for the local cache\n"
            "date: 2026-05-02\nwhy: Zero-dependency install matters more.\nproject: acme-api\n"
            "tags: [infra, db]\n---\n\nApplies to the local cache only.\n")


@pytest.mark.parametrize(("path", "text", "line", "edited"), [
    ("memory/fact_x.md", FACT, "- Body one.\n", "- Body one, edited.\n"),
    # An episode shows the line among its body's paragraphs (its project line makes the body a carried one): told
    # from one never written by the carry's digest of the body memfmt showed (restore._showed_tags). Watched fail
    # with that check taken out; the entity's case passes without it.
    ("memory/decision_x.md", DECISION, "Applies to the local cache only.\n", "Applies to the local cache, edited.\n"),
], ids=["fact-as-entity", "decision-as-episode"])
def test_tags_memfmt_never_showed_stay_when_the_record_is_edited(tmp_path, monkeypatch, path, text, line, edited):
    # A memfmt file written before tags were shown there: show wrote no **Tags:** line.
    blocks = readable._blocks
    monkeypatch.setattr(readable, "_blocks", lambda record, shown, *more: blocks(record, shown | {"tags"}, *more))
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / path).write_text(text)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    monkeypatch.undo()
    [file] = [p for p in (out / "memory").rglob("*.md") if p.name != "MEMORY.md"]
    assert "Tags" not in file.read_text() and line in file.read_text()
    file.write_text(file.read_text().replace(line, edited))
    back = (convert_dir(out, "memoir", tmp_path / "back") / path).read_text()
    assert back == text.replace(line.strip("-\n "), edited.strip("-\n ")), \
        "tags memfmt never showed are not taken out"
