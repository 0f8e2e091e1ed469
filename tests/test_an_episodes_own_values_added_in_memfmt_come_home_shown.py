"""An episode's participants, valence and importance, an entity's type and a procedure's days, added with memfmt's
own library to a record from memoir, Claude or memspec, come home as the lines ``show`` writes for them.

memfmt shows them (``participants:``, ``valence:``, ``importance:``, ``entity_type:``, ``last_failed:``); memoir,
Claude and memspec have no key for them, and ``show`` writes each as a labelled line of the body
(``**Participants:** Zoë, Ali``), but a value added in memfmt was counted dropped at home ("brought home from another
dialect, and memoir's files have no place for them: dropped", ``--fail-on-loss`` exiting 5): the names a person
wrote into the episode were in no file. They are now in ``readable.ADDED_TEXT``, folded into the body as a last
failure added there is (docs/conversion.md).
"""

from __future__ import annotations

import json

import memfmt

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import changed_home


def test_values_added_with_memfmt_come_home_to_memoir_in_the_body(runner, tmp_path):
    # Broken before: the run exited 5, "importance, participants … dropped", and the names were in no file.
    inp = GOLDEN / "memoir" / "canonical" / "input"
    assert runner.invoke(main, ["memoir-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    root = tmp_path / "mf" / "memory"
    memory = memfmt.load(root)
    [episode] = memory.episodes
    episode.participants, episode.valence, episode.importance = ["Zoë", "Kenji"], "positive", 4
    [procedure] = memory.procedures
    procedure.last_failed = "2026-08-01"
    fact = next(e for e in memory.entities if e.name == "Staging API endpoints")
    fact.entity_type = "environment"
    memfmt.write_dir(memfmt.serialise(memory, root=""), root)
    result = runner.invoke(main, ["memfmt-to-memoir", "--json", "--fail-on-loss", str(tmp_path / "mf"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    changed = changed_home(tmp_path / "back", inp)
    assert changed["memory/decision_local-db-choice.md"].endswith(
        "\n\n**Valence:** positive\n\n**Importance:** 4\n\n**Participants:** Zoë, Kenji\n")
    assert changed["memory/lesson_migrations-staging-first.md"].endswith("\n\n**Last failed:** 2026-08-01\n")
    assert changed["memory/fact_staging-endpoints.md"].endswith("\n\n**Entity type:** environment\n")
    report = json.loads(result.stdout)
    assert not [f for f in report["files"] if f["dropped"]]


def test_participants_added_with_memfmt_come_home_to_a_memspec_decision(runner, tmp_path):
    inp = GOLDEN / "memspec" / "canonical" / "input"
    assert runner.invoke(main, ["memspec-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    root = tmp_path / "mf" / "memory"
    memory = memfmt.load(root)
    episode = next(e for e in memory.episodes if e.summary == "Team A ships on Tuesdays")
    episode.participants = ["Wilhelmina"]
    memfmt.write_dir(memfmt.serialise(memory, root=""), root)
    result = runner.invoke(main, ["memfmt-to-memspec", "--fail-on-loss", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    [text] = changed_home(tmp_path / "back", inp).values()
    assert text.endswith("\n\n**Participants:** Wilhelmina\n"), text
