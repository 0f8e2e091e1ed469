"""A decision's body reaches a memfmt episode's context whole, as the memfmt library reads it.

memfmt reads an episode's context up to the first ``## `` line (the rest goes to a section it has
no field for) and skips lines starting ``# `` or ``**Outcome**``. A decision whose body held
``## Context`` reached memfmt with no context at all: every paragraph after it, the **Why:** one
included, was lost to memfmt's tools. Such a paragraph is now written escaped (``\\## Context``).
"""

from __future__ import annotations

import memfmt
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree

ENTRY = ("---\ntype: decision\nname: Use Postgres\ndescription: We use Postgres\ndate: 2026-05-01\n"
         "why: It is boring and reliable.\n---\n\n## Context\n\nWe needed a database.\n\n# Aside\n\n"
         "**Outcome** — shipped in May.\n\nLast words.\n")


def test_every_paragraph_is_in_the_context_memfmt_reads_and_comes_home(tmp_path):
    # Verified without _as_context in transforms.to_episode: memfmt read no context at all (None).
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "decision_pg.md").write_text(ENTRY)
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--to", "memfmt", str(tmp_path / "in"), str(tmp_path / "out")]).exit_code == 0
    [episode] = memfmt.load(tmp_path / "out" / "memory").episodes
    for words in ("Context", "We needed a database.", "Aside", "shipped in May.", "Last words.",
                  "It is boring and reliable."):
        assert words in (episode.context or ""), words
    back = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "out"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "back")["memory/decision_pg.md"] == ENTRY.encode()


LISTED = ("---\ntype: decision\nname: Local store is SQLite\ndescription: SQLite for the local cache\n"
          "date: 2026-05-02\nwhy: Zero-dependency install matters more.\n---\n\nWe compared:\n\n"
          "- SQLite: one file\n- Postgres: a daemon\n\n```sh\n# the one setting\n## not a section\n"
          "sqlite3 db 'PRAGMA journal_mode=WAL;'\n```\n\n# An aside,\nover two lines.\n")


def test_a_list_a_fence_and_line_breaks_reach_the_context_as_written(tmp_path):
    """Each paragraph was collapsed to one line: the list read ``- SQLite: one file - Postgres: a daemon``
    and the fence one line of code. memfmt keeps a context's lines, so they go as written; a code line memfmt
    would take for a title or a section goes one space in, and a text line is escaped."""
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "decision_db.md").write_text(LISTED)
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--to", "memfmt", str(tmp_path / "in"), str(tmp_path / "out")]).exit_code == 0
    [episode] = memfmt.load(tmp_path / "out" / "memory").episodes
    assert episode.context == ("We compared:\n\n- SQLite: one file\n- Postgres: a daemon\n\n```sh\n # the one setting\n"
                               " ## not a section\nsqlite3 db 'PRAGMA journal_mode=WAL;'\n```\n\n\\# An aside,\n"
                               "over two lines.\n\n**Why:** Zero-dependency install matters more.")
    back = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "out"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert tree(tmp_path / "back")["memory/decision_db.md"] == LISTED.encode()
