"""What a record brings home that its own dialect's files cannot hold, and nothing carries or shows, is counted
dropped: ``--fail-on-loss`` fails.

A memoir lesson converted to a memfmt procedure, run in memfmt (a step's ``(3✓/1✗)``, a new version and an
evolution line), came home to memoir without any of it while the report said "0 dropped": memoir's writer has no
key for them, and the way home wrote nothing else. Every record home again is read back by its own reader in the
conversion already; what that read does not give back is now listed dropped in its report entry
(``forward._count_unwritten``).
"""

from __future__ import annotations

import json

import pytest

from memconv import jobs
from memconv.cli import main

from .conftest import GOLDEN


@pytest.mark.parametrize("n_jobs", ["1", "2"])
def test_step_counts_and_an_evolution_run_in_memfmt_are_counted_dropped_in_memoir(runner, tmp_path, n_jobs,
                                                                                  monkeypatch):
    # Broken once: without forward._count_unwritten, 0 dropped and --fail-on-loss exited 0. With two jobs (a record per
    # task, so that even this store is read back in a worker) a record home again is read here, where its report is
    # made: broken once by letting the worker make its carry, which left it uncounted.
    monkeypatch.setattr(jobs, "CHUNK", 1)
    inp = GOLDEN / "memoir" / "canonical" / "input"
    assert runner.invoke(main, ["memoir-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    procedure = tmp_path / "mf" / "memory" / "procedures" / "Rehearse destructive migrations on a copy first.md"
    text = procedure.read_text(encoding="utf-8")
    assert "only then touch the real one.\n" in text
    procedure.write_text(text.replace("only then touch the real one.\n", "only then touch the real one. (3✓/1✗)\n")
                         + "\n## Evolution\n\n- v1 → v2 (2026-08-01): added row counts\n", encoding="utf-8")
    args = ["memfmt-to-memoir", "--json", "--jobs", n_jobs, str(tmp_path / "mf")]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [entry] = [f for f in report["files"] if f["dropped"]]
    assert entry["target"].endswith("lesson_migrations-staging-first.md")
    assert {"successes", "failures", "evolution"} <= set(entry["dropped"])
    assert report["counts"]["dropped"] == len(entry["dropped"])
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5


def test_a_round_trip_with_no_edit_drops_nothing(runner, tmp_path):
    # The count is of what the way home loses, not of how a record is written: unedited, every golden store comes
    # back through memfmt and memspec with nothing counted dropped.
    for home, store in (("memoir", "canonical"), ("claude", "mixed-project"), ("memfmt", "full"),
                        ("memspec", "current-every-field")):
        for away in ("memfmt", "memspec", "memoir"):
            if away == home:
                continue
            there, back = tmp_path / f"{home}-{away}", tmp_path / f"{home}-{away}-back"
            assert runner.invoke(main, [f"{home}-to-{away}", str(GOLDEN / home / store / "input"),
                                        str(there)]).exit_code == 0
            result = runner.invoke(main, [f"{away}-to-{home}", "--json", "--fail-on-loss", str(there), str(back)])
            assert result.exit_code == 0, (home, away, result.output)


def test_keys_added_in_memoir_that_memfmt_cannot_hold_are_counted_dropped(runner, tmp_path):
    # memoir's fired_count, last_fired and project added to a lesson converted from a memfmt procedure: memfmt has
    # no key for them. Counted by the same comparison (it was 0 dropped).
    inp = GOLDEN / "memfmt" / "full" / "input"
    assert runner.invoke(main, ["memfmt-to-memoir", str(inp), str(tmp_path / "mo")]).exit_code == 0
    lesson = tmp_path / "mo" / "memory" / "lesson_deploy-to-railway.md"
    text = lesson.read_text(encoding="utf-8")
    assert "\nowner: Ali\n" in text
    lesson.write_text(text.replace("\nowner: Ali\n", "\nowner: Ali\nfired_count: 5\nproject: infra\n", 1),
                      encoding="utf-8")
    args = ["memoir-to-memfmt", "--json", str(tmp_path / "mo")]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [f["dropped"] for f in report["files"] if f["dropped"]] == [["fired_count", "project"]]
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5


def test_a_step_count_added_in_memfmt_to_a_memspec_procedure_is_counted_dropped(runner, tmp_path):
    # The steps come home as the body's numbered lines, which say a step's text, not its (4✓/1✗): the edited steps
    # were written there and their counts lost with 0 dropped. Broken once: without readable.uncounted, 0 dropped.
    inp = GOLDEN / "memspec" / "current-every-field" / "input"
    assert runner.invoke(main, ["memspec-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    [procedure] = (tmp_path / "mf" / "memory" / "procedures").glob("*.md")
    text = procedure.read_text(encoding="utf-8")
    assert "\n3. `npm publish`.\n" in text
    procedure.write_text(text.replace("\n3. `npm publish`.\n", "\n3. `npm publish`. (4✓/1✗)\n"), encoding="utf-8")
    args = ["memfmt-to-memspec", "--json", str(tmp_path / "mf")]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [f["dropped"] for f in report["files"] if f["dropped"]] == [["steps"]]
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5


def _said_twice(report: dict) -> list[tuple[str, str]]:
    """(field, warning) for each field a warning of ``report`` says the edit of won while a warning says it dropped:
    the report contradicting itself."""
    said = report["warnings"] + [w for f in report["files"] for w in f["warnings"]]
    won = {n.strip() for w in said if "the edit wins" in w
           for n in w.split("edited in ", 1)[1].split(": ", 1)[1].split(" — the edit wins")[0].split(", ")}
    return [(n, w) for w in said if "dropped" in w and "the edit wins" not in w for n in won if n in w]


def test_a_tag_added_in_memspec_to_a_bare_claude_memory_is_said_dropped_once(runner, tmp_path):
    # The report said both "edited in memspec: tags — the edit wins" and "tags: brought home from another dialect
    # ... dropped" (the count, 1 dropped, was right). Now one warning says the edit was made in memspec and that
    # claude's bare file has no place for it: dropped; the file comes home as it was.
    memory = "# Deploy window\n\nWe deploy on Tuesdays.\n"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "deploy.md").write_text(memory, encoding="utf-8")
    (tmp_path / "in" / "MEMORY.md").write_text("- [Deploy window](deploy.md) — when\n", encoding="utf-8")
    assert runner.invoke(main, ["claude-to-memspec", str(tmp_path / "in"), str(tmp_path / "ms")]).exit_code == 0
    [claim] = [p for p in (tmp_path / "ms" / ".memspec" / "memory").rglob("ms_*.md")
               if "We deploy on Tuesdays." in p.read_text(encoding="utf-8")]
    text = claim.read_text(encoding="utf-8")
    assert "\ntags: []\n" in text
    claim.write_text(text.replace("\ntags: []\n", "\ntags:\n  - deploy\n", 1), encoding="utf-8")
    args = ["memspec-to-claude", "--json", "-v", str(tmp_path / "ms")]
    result = runner.invoke(main, [*args, str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [f["dropped"] for f in report["files"] if f["dropped"]] == [["tags"]]
    assert report["counts"]["dropped"] == 1
    said = [w for w in report["warnings"] + [w for f in report["files"] for w in f["warnings"]] if "tags" in w]
    assert len(said) == 1, said
    assert "edited in memspec" in said[0] and "dropped" in said[0] and "the edit wins" not in said[0]
    assert not _said_twice(report)
    assert (tmp_path / "back" / "deploy.md").read_text(encoding="utf-8") == memory
    assert runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / "back2")]).exit_code == 5


def test_no_edited_field_is_said_both_won_and_dropped(runner, tmp_path):
    # The same double wording for any field edited in the target that home cannot hold: a memfmt procedure's
    # step counts and evolution, home as a memoir lesson; memoir's own keys added to a lesson from memfmt.
    inp = GOLDEN / "memoir" / "canonical" / "input"
    assert runner.invoke(main, ["memoir-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    procedure = tmp_path / "mf" / "memory" / "procedures" / "Rehearse destructive migrations on a copy first.md"
    text = procedure.read_text(encoding="utf-8")
    procedure.write_text(text.replace("only then touch the real one.\n", "only then touch the real one. (3✓/1✗)\n")
                         + "\n## Evolution\n\n- v1 → v2 (2026-08-01): added row counts\n", encoding="utf-8")
    result = runner.invoke(main, ["memfmt-to-memoir", "--json", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert not _said_twice(json.loads(result.stdout))
    assert runner.invoke(main, ["memfmt-to-memoir", str(GOLDEN / "memfmt" / "full" / "input"),
                                str(tmp_path / "mo")]).exit_code == 0
    lesson = tmp_path / "mo" / "memory" / "lesson_deploy-to-railway.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("\nowner: Ali\n", "\nowner: Ali\nfired_count: 5\n", 1),
                      encoding="utf-8")
    result = runner.invoke(main, ["memoir-to-memfmt", "--json", str(tmp_path / "mo"), str(tmp_path / "back2")])
    assert result.exit_code == 0, result.output
    assert not _said_twice(json.loads(result.stdout))
