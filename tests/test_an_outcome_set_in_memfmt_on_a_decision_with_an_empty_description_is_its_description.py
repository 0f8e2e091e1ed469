"""An outcome set with memfmt's library on a decision whose description is empty (``description: ""``) is its
description at home.

A memoir decision becomes a memfmt episode whose outcome is its description. Its ``description: ""`` rode in the
carry, and the way home took a carried empty text for "no such field", the text of a place the target shows
together with the body (a memfmt entity's facts): the outcome came home as the body's first paragraph, and the
``description`` key was taken out, so memoir-cli listed the decision with no description still. An episode shows
the description apart from its context, as memoir shows it apart from the body (``restore._described_apart``).
"""

from __future__ import annotations

import memfmt

from memconv.cli import main

from .conftest import tree, write_files

DECISION = (b'---\ntype: decision\nname: Use SQLite\ndescription: ""\ndate: 2026-05-04\nwhy: zero setup\n---\n\n'
            b"Applies to the local cache.\n")


def test_the_outcome_is_the_description_not_a_paragraph(runner, tmp_path):
    # Broken before: the file held no description key and began its body with "SQLite, Postgres rejected".
    write_files(tmp_path / "in", {"memory/decision_db.md": DECISION})
    assert runner.invoke(main, ["memoir-to-memfmt", str(tmp_path / "in"), str(tmp_path / "mf")]).exit_code == 0
    root = tmp_path / "mf" / "memory"
    memory = memfmt.load(root)
    [episode] = memory.episodes
    assert episode.outcome is None
    episode.outcome = "SQLite, Postgres rejected"
    memfmt.write_dir(memfmt.serialise(memory, root=""), root)
    result = runner.invoke(main, ["memfmt-to-memoir", "--fail-on-loss", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "back")["memory/decision_db.md"] == DECISION.replace(
        b'description: ""', b"description: SQLite, Postgres rejected")
