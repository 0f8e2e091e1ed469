"""--lossy writes clean files and lists every dropped field; --fail-on-loss refuses to drop anything."""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN, tree

SRC = GOLDEN / "memoir" / "canonical" / "input"


def test_lossy_json_lists_every_dropped_field_and_writes_no_carry(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(main, ["memoir-to-claude", "--lossy", "--json", str(SRC), str(out)])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    dropped = {f["source"]: f["dropped"] for f in report["files"] if f["dropped"]}
    assert dropped, "a lossy conversion of this store drops something, and says what"
    assert all(f["carried"] == [] for f in report["files"]), "nothing is carried"
    assert not any(b"memconv:" in data for data in tree(out).values()), "no file holds a memconv carry"
    kept_out = [f for f in report["files"] if f["target_kind"] == "note"]
    assert kept_out and all(f["dropped"] for f in kept_out), "records kept out of the live set list what they lose"


def test_fail_on_loss_exits_5_and_writes_nothing(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--to", "claude", "--lossy", "--fail-on-loss", str(SRC), str(out)])
    assert result.exit_code == 5
    assert not out.exists(), "nothing is written when something would be lost"


def test_fail_on_loss_reports_what_the_write_would_have_said(runner, tmp_path):
    # The memspec writer says which records it dates with a placeholder while it writes: a run that
    # writes nothing said less than its dry run. Verified by taking plan.drain() out of cli._convert:
    # the undated-records warning is missing.
    src = GOLDEN / "claude" / "canonical" / "input"
    args = ["claude-to-memspec", "--lossy", "--json", str(src), str(tmp_path / "out")]
    failed = json.loads(runner.invoke(main, [*args, "--fail-on-loss"]).stdout)
    dry = json.loads(runner.invoke(main, [*args, "--dry-run"]).stdout)
    assert failed["exit_code"] == 5 and not (tmp_path / "out").exists()
    assert any("have no date of their own" in w for w in dry["warnings"])
    assert failed["warnings"] == dry["warnings"]


def test_without_lossy_nothing_is_dropped(runner, tmp_path):
    result = runner.invoke(main, ["memoir-to-claude", "--fail-on-loss", "--json", str(SRC), str(tmp_path / "o")])
    assert result.exit_code == 0, result.stderr
    assert all(f["dropped"] == [] for f in json.loads(result.stdout)["files"])


def test_dry_run_prints_the_plan_and_the_report_and_writes_nothing(runner, tmp_path):
    result = runner.invoke(main, ["memoir-to-claude", "--dry-run", str(SRC), str(tmp_path / "o")])
    assert result.exit_code == 0
    assert "would write" in result.stderr and "MEMORY.md" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_check_via_another_dialect_passes_on_a_canonical_store(runner):
    result = runner.invoke(main, ["check", "--via", "claude", str(SRC)])
    assert result.exit_code == 0, result.stdout + result.stderr


def test_date_stamps_the_regenerated_memfmt_index_and_is_checked(runner, tmp_path):
    out = tmp_path / "o"
    result = runner.invoke(main, ["memoir-to-memfmt", "--date", "2027-01-02", str(SRC), str(out)])
    assert result.exit_code == 0, result.stderr
    assert b"generated: 2027-01-02\n" in (out / "memory" / "MEMORY.md").read_bytes(), "--date is the date written"
    bad = runner.invoke(main, ["memoir-to-memfmt", "--date", "soon", str(SRC), str(tmp_path / "p")])
    assert bad.exit_code == 2 and "YYYY-MM-DD" in bad.stderr


def test_without_date_the_index_date_comes_from_the_store_not_today(runner, tmp_path):
    import datetime

    out = tmp_path / "o"
    assert runner.invoke(main, ["memoir-to-memfmt", str(SRC), str(out)]).exit_code == 0
    text = (out / "memory" / "MEMORY.md").read_text()
    assert f"generated: {datetime.date.today().isoformat()}" not in text, "never today's date behind the user's back"
    assert "generated: 2026-" in text


def test_a_claude_memory_home_again_as_a_plain_project_memory_keeps_its_name_and_drops_only_its_kind(
        runner, tmp_path):
    # A Claude memory whose type word Claude Code has no type for (``decision``, Appendix A) comes home through
    # memfmt; --lossy writes it as a plain ``project`` memory. Home again, it keeps its file's name even where
    # another file's differs only in case, as without --lossy, and its report lists only the kind as dropped.
    # Verified by registering the record home before it is made a plain memory (forward.py): written as
    # decision_use_pg-2.md; and by counting it as any record home again: five fields dropped, with a warning
    # that a deletion made elsewhere was dropped.
    src = tmp_path / "in"
    src.mkdir()
    (src / "decision_use_pg.md").write_text("---\nname: Use Postgres\ndescription: We chose Postgres\n"
                                            "type: decision\n---\nWe use Postgres for its JSONB.\n")
    (src / "Decision_Use_PG.md").write_text("---\nname: Role\ndescription: A data scientist\ntype: user\n---\n"
                                            "The user is a data scientist.\n")
    via = tmp_path / "via"
    assert runner.invoke(main, ["claude-to-memfmt", str(src), str(via)]).exit_code == 0
    names = {}
    for lossy in ([], ["--lossy"]):
        out = tmp_path / f"out{len(lossy)}"
        result = runner.invoke(main, ["memfmt-to-claude", *lossy, "--json", str(via), str(out)])
        assert result.exit_code == 0, result.stderr
        names[bool(lossy)] = sorted(p.name for p in out.iterdir() if p.suffix == ".md")
        files = {f["source"]: f for f in json.loads(result.stdout)["files"]}
    assert names[True] == names[False] == ["Decision_Use_PG.md", "MEMORY.md", "decision_use_pg.md"]
    written = (tmp_path / "out1" / "decision_use_pg.md").read_text()
    assert "type: project" in written and "memconv" not in written and "for its JSONB." in written
    plain = files["decision_use_pg.md"]
    assert (plain["target_kind"], plain["dropped"], plain["warnings"]) == ("opaque", ["kind"], [])
    assert "kind" not in plain["native"] and "body" in plain["native"]
