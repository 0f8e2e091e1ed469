"""The daily-use surface: progress on a terminal only, --check and --diff, -q and -v, grouped warnings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from memconv import preview, progress
from memconv.cli import main
from memconv.report import WRITTEN, FileReport, Report

from .bench_support import bench_module
from .conftest import GOLDEN, tree, write_files


@pytest.fixture
def memoir_in(tmp_path):
    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", root)
    return root


@pytest.fixture
def big_memoir(tmp_path):
    """A generated memoir store of 300 entries (the benchmark's generator)."""
    generators = bench_module("generators")
    root = tmp_path / "big"
    generators.make_memoir(root, 300)
    return root


# --- progress -------------------------------------------------------------------------------------------

def _run_on_a_terminal(args: list[str], env: dict[str, str]) -> bytes:
    """Run memconv with stdout and stderr on a new pseudo-terminal; everything it drew."""
    master, slave = os.openpty()
    try:
        done = subprocess.Popen([sys.executable, "-m", "memconv", *args], stdin=subprocess.DEVNULL, stdout=slave,
                                stderr=slave, env=env, close_fds=True)
    finally:
        os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert done.wait(timeout=120) == 0, out.decode(errors="replace")
    return out


BAR = b"file/s]"  # tqdm's rate, in every bar it draws


def test_a_run_on_a_terminal_shows_a_progress_bar_and_the_same_run_piped_shows_none(memoir_in, tmp_path):
    # Verified by making progress.wanted return False: the terminal run draws no bar and the first assert fails.
    env = {**os.environ, "MEMCONV_PROGRESS_DELAY": "0"}
    drawn = _run_on_a_terminal(["memoir-to-memfmt", str(memoir_in), str(tmp_path / "tty")], env)
    assert BAR in drawn and b"writing" in drawn and b"\r" in drawn, drawn[:400]
    assert b"done in" in drawn, "the closing line follows the bar, which is cleared"
    piped = subprocess.run([sys.executable, "-m", "memconv", "memoir-to-memfmt", str(memoir_in),
                            str(tmp_path / "pipe")], capture_output=True, env=env, check=True)
    assert BAR not in piped.stderr and b"\r" not in piped.stderr and BAR not in piped.stdout
    assert tree(tmp_path / "tty") == tree(tmp_path / "pipe"), "the bar changes nothing in OUT"


def test_the_conversion_shows_its_records_counted_with_an_eta(big_memoir, tmp_path):
    # The longest phase was a line with only the time it had run. Verified by dropping the progress.expect
    # of the records made from converters/forward.py (a conversion run as its write asks): no "record/s" is drawn.
    env = {**os.environ, "MEMCONV_PROGRESS_DELAY": "0"}
    drawn = _run_on_a_terminal(["memoir-to-memfmt", str(big_memoir), str(tmp_path / "tty")], env)
    converting = [line for line in drawn.replace(b"\r", b"\n").split(b"\n") if line.startswith(b"converting")]
    assert any(b"record/s]" in line and b"/300 [" in line and b"<" in line for line in converting), converting[-3:]


@pytest.mark.parametrize("flag", ["--json", "-q"])
def test_json_and_quiet_turn_the_bar_off_even_on_a_terminal(memoir_in, tmp_path, flag):
    env = {**os.environ, "MEMCONV_PROGRESS_DELAY": "0"}
    drawn = _run_on_a_terminal(["memoir-to-memfmt", flag, str(memoir_in), str(tmp_path / "out")], env)
    assert BAR not in drawn


def test_the_bar_waits_for_its_delay(memoir_in, tmp_path):
    env = {**os.environ, "MEMCONV_PROGRESS_DELAY": "3600"}
    drawn = _run_on_a_terminal(["memoir-to-memfmt", str(memoir_in), str(tmp_path / "out")], env)
    assert BAR not in drawn, "a run shorter than the delay shows no bar"


def test_progress_is_a_no_op_unless_turned_on(capsys):
    with progress.task("reading", total=3):
        progress.expect(3)
        progress.advance()
    assert capsys.readouterr() == ("", "")


# --- --check --------------------------------------------------------------------------------------------

def test_check_exits_1_on_a_stale_out_and_0_on_a_fresh_one(runner, memoir_in, tmp_path):
    # Verified by dropping the exit status in cli.preview_files: every stale case exits 0.
    out = tmp_path / "out"
    args = ["memoir-to-memfmt", str(memoir_in), str(out)]
    missing = runner.invoke(main, [*args, "--check"])
    assert missing.exit_code == 1 and not out.exists(), "a missing OUT is stale, and --check writes nothing"
    assert runner.invoke(main, args).exit_code == 0
    before = tree(out)
    fresh = runner.invoke(main, [*args, "--check"])
    assert fresh.exit_code == 0, fresh.stderr
    assert tree(out) == before
    victim = sorted(p for p in out.rglob("*.md"))[0]
    victim.write_bytes(victim.read_bytes() + b"edited\n")
    stale = runner.invoke(main, [*args, "--check", "--json"])
    assert stale.exit_code == 1
    [difference] = json.loads(stale.stdout)["differences"]
    assert difference["change"] == "modified" and difference["path"] == victim.relative_to(out).as_posix()
    assert victim.read_bytes().endswith(b"edited\n"), "--check wrote nothing"


def test_check_sees_a_file_too_many_and_a_file_missing(runner, memoir_in, tmp_path):
    out = tmp_path / "out"
    args = ["memoir-to-claude", str(memoir_in), str(out)]
    runner.invoke(main, args)
    (out / "stray.md").write_text("not memconv's\n")
    assert runner.invoke(main, [*args, "--check"]).exit_code == 1
    (out / "stray.md").unlink()
    assert runner.invoke(main, [*args, "--check"]).exit_code == 0
    sorted(out.rglob("*.md"))[0].unlink()
    assert runner.invoke(main, [*args, "--check"]).exit_code == 1


def test_check_works_for_migrate_upgrade_and_merge(runner, tmp_path):
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    up = ["upgrade", str(tmp_path / "claude"), str(tmp_path / "up")]
    assert runner.invoke(main, [*up, "--check"]).exit_code == 1
    runner.invoke(main, up)
    assert runner.invoke(main, [*up, "--check"]).exit_code == 0
    migrate = ["migrate", str(GOLDEN / "memoir" / "legacy-session" / "input"), str(tmp_path / "mig")]
    assert runner.invoke(main, [*migrate, "--check"]).exit_code == 1
    runner.invoke(main, migrate)
    assert runner.invoke(main, [*migrate, "--check"]).exit_code == 0


def test_upgrade_in_place_check_compares_with_in_and_touches_nothing(runner, tmp_path):
    root = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", root)
    before = tree(root)
    result = runner.invoke(main, ["upgrade", "--in-place", "--check", str(root)])
    assert result.exit_code == 1 and tree(root) == before
    assert "OUT is stale" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claude"], "no backup, no lock file, no scratch"
    assert runner.invoke(main, ["upgrade", "--in-place", str(root)]).exit_code == 0
    fresh = runner.invoke(main, ["upgrade", "--in-place", "--check", str(root)])
    assert fresh.exit_code == 0 and "OUT is up to date" in fresh.stderr


# --- --diff ---------------------------------------------------------------------------------------------

def test_diff_shows_deletions_additions_and_edits_against_out_and_writes_nothing(runner, memoir_in, tmp_path):
    out = tmp_path / "out"
    args = ["memoir-to-memfmt", str(memoir_in), str(out)]
    runner.invoke(main, args)
    (out / "stray.md").write_text("not memconv's\n")
    victim = sorted(out.rglob("*.md"))[0]
    rel = victim.relative_to(out).as_posix()
    victim.write_bytes(b"edited\n")
    before = tree(out)
    result = runner.invoke(main, [*args, "--diff"])
    assert result.exit_code == 0, "--diff alone previews; only --check judges"
    assert tree(out) == before, "--diff writes nothing"
    assert "--- a/stray.md\n+++ /dev/null\n" in result.stdout
    assert f"--- a/{rel}\n+++ b/{rel}\n" in result.stdout and "-edited\n" in result.stdout


def test_migrate_diff_is_against_in(runner, tmp_path):
    result = runner.invoke(main, ["migrate", "--diff", str(GOLDEN / "memoir" / "legacy-session" / "input"),
                                  str(tmp_path / "out")])
    assert result.exit_code == 0 and not (tmp_path / "out").exists()
    assert "--- a/session.json\n+++ b/session.json\n" in result.stdout and '+  "version": 1' in result.stdout


def test_renames_are_shown_as_renames():
    before = {"memory/a.md": b"same\n", "memory/old/b.md": b"one\ntwo\n", "gone.md": b"x\n"}
    after = {"memory/z.md": b"same\n", "memory/new/b.md": b"one\nthree\n", "added.md": b"y\n"}
    changes = {c["path"]: c for c in preview.changes(before, after)}
    assert changes["memory/z.md"]["change"] == "renamed" and changes["memory/z.md"]["from"] == "memory/a.md"
    assert "rename from memory/a.md\nrename to memory/z.md\n" in changes["memory/z.md"]["diff"]
    moved = changes["memory/new/b.md"]
    assert moved["change"] == "renamed" and "-two\n+three\n" in moved["diff"]
    assert "--- a/memory/old/b.md\n+++ b/memory/new/b.md\n" in moved["diff"]
    assert changes["gone.md"]["change"] == "deleted" and changes["added.md"]["change"] == "added"
    assert preview.changes(after, after) == []


# --- -q, -v, the closing line, grouped warnings ---------------------------------------------------------

def test_quiet_prints_only_errors_and_verbose_every_line(runner, big_memoir, tmp_path):
    quiet = runner.invoke(main, ["memoir-to-memfmt", "-q", str(big_memoir), str(tmp_path / "q")])
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == ""
    failed = runner.invoke(main, ["memoir-to-memfmt", "-q", str(big_memoir), str(tmp_path / "q")])
    assert failed.exit_code == 4 and "not empty" in failed.stderr, "errors still print under -q"
    written = len(tree(tmp_path / "q"))
    loud = runner.invoke(main, ["memoir-to-memfmt", "-v", "--dry-run", str(big_memoir), str(tmp_path / "v")])
    assert loud.stderr.count("would write ") == written
    calm = runner.invoke(main, ["memoir-to-memfmt", "--dry-run", str(big_memoir), str(tmp_path / "v")])
    assert calm.stderr.count("would write ") == 10 and f"and {written - 10} more" in calm.stderr


def test_the_closing_line_has_the_counts_and_the_time(runner, memoir_in, tmp_path):
    result = runner.invoke(main, ["memoir-to-memspec", str(memoir_in), str(tmp_path / "out")])
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("memconv memoir-to-memspec: done in ") and " s: " in last
    for word in ("converted", "carried", "dropped", "quarantined"):
        assert word in last
    report = json.loads(runner.invoke(main, ["memoir-to-memspec", "--json", "--dry-run", str(memoir_in),
                                             str(tmp_path / "o2")]).stdout)
    assert f"{report['counts']['carried']} field(s) carried" in last
    again = json.loads(runner.invoke(main, ["memoir-to-memspec", "--json", "--dry-run", str(memoir_in),
                                            str(tmp_path / "o2")]).stdout)
    assert report == again, "the time is in the summary, never in the JSON report (same input, same report)"


def _many_warnings(n: int) -> Report:
    report = Report(command="convert", input="IN")
    report.warnings += [f"memory/e{i}.md: memfmt would rewrite this file differently (it holds text); kept"
                        for i in range(n)]
    report.warnings += [f"MEMORY.md:{i}: links to x{i}.md, which is not in the folder (kept as written)"
                        for i in range(n)]
    report.files += [FileReport(source=f"old{i}.md", warnings=["kept as written: this old-style file has no type"])
                     for i in range(n)]
    report.warnings.append("one of its own kind")
    return report


def test_warnings_are_grouped_by_kind_with_a_count_and_the_first_names():
    # Verified by printing every notice in summary(): 3000 lines, and the line count assert fails.
    report = _many_warnings(1000)
    lines = report.summary().splitlines()
    assert len(lines) < 10
    grouped = [line for line in lines if "(1000×)" in line]
    assert len(grouped) == 3
    assert any("memory/e0.md, memory/e1.md, memory/e2.md and 997 more" in line for line in grouped)
    assert any("a link points at a file that is not in the store" in line for line in grouped), \
        "messages that differ by a name are said once, in plain words"
    assert "  warning: one of its own kind" in lines
    assert len(report.summary(verbose=True).splitlines()) > 3000


def test_a_file_warned_of_twice_in_one_group_is_named_once():
    # A memory with a body link and a superseded_by to nothing: two warnings of one kind, "old.md, old.md" in the
    # summary. Watched fail with the names listed as they came.
    report = Report(command="upgrade", input="IN")
    report.files.append(FileReport(source="old.md", warnings=[
        "links to [[gone]], which names no entry in the store (left as written)",
        "superseded_by links to nowhere, which names no entry in the store (left as written)"]))
    report.files.append(FileReport(source="new.md", warnings=[
        "links to [[lost]], which names no entry in the store (left as written)"]))
    [line] = [line for line in report.summary().splitlines() if "(3×)" in line]
    assert line.endswith(": old.md, new.md"), line


def test_a_warning_naming_a_thousand_records_is_cut_in_the_summary_and_whole_elsewhere():
    # memspec's writer names every undated record in one warning: 1,500 ids, 48 KB on one line at
    # 2,000 entries. Verified without _clipped: the line held every id.
    ids = [f"ms_{i:026d}" for i in range(1500)]
    whole = "1500 record(s) have no date of their own: memspec requires one, so created is 2026-11-27: " + ", ".join(ids)
    report = Report(command="convert", input="in")
    report.warnings.append(whole)
    [line] = [line for line in report.summary().splitlines() if "no date of their own" in line]
    assert len(line) < 600 and ids[0] in line and ids[-1] not in line
    shown = line.count("ms_")
    assert line.endswith(f"… and {1500 - shown} more (-v or --json has the whole warning)")
    assert whole in report.summary(verbose=True)
    assert report.to_dict()["warnings"] == [whole]


def test_every_warning_is_in_the_json_with_a_stable_kind():
    doc = _many_warnings(50).to_dict()
    kinds = [n["kind"] for n in doc["notices"]]
    assert len(kinds) == 151 and doc["counts"]["warnings"] == 151
    assert {"target-would-rewrite", "link-to-nothing", "kept-as-written", "other"} == set(kinds)
    assert {n["path"] for n in doc["notices"] if n["kind"] == "link-to-nothing"} == {f"MEMORY.md:{i}" for i in range(50)}


def test_a_closed_stdout_exits_141_not_1(runner, memoir_in, monkeypatch):
    # `memconv … | head -c 1`: the reader goes away; memconv stops quietly with the shell's SIGPIPE status,
    # never 1 (which means "differences"). Verified by removing _Memconv.invoke: click's own status, 1.
    def closed(self):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(Report, "to_json", closed)
    result = runner.invoke(main, ["check", "--json", str(memoir_in)])
    assert result.exit_code == 141 and "Traceback" not in result.stderr


def test_check_calls_an_out_with_a_fifo_stale(runner, memoir_in, tmp_path):
    # Verified by leaving refusals out of preview._listed: the FIFO goes unseen and --check exits 0.
    out = tmp_path / "out"
    args = ["memoir-to-claude", str(memoir_in), str(out)]
    runner.invoke(main, args)
    os.mkfifo(out / "pipe.md")
    result = runner.invoke(main, [*args, "--check", "--json"])
    assert result.exit_code == 1
    [odd] = json.loads(result.stdout)["differences"]
    assert odd["path"] == "pipe.md" and odd["change"] == "deleted" and odd["diff"] == "" and "FIFO" in odd["why"]


def test_merge_counts_unchanged_records_and_lists_them_with_verbose(runner, tmp_path):
    from .merge_helpers import entry

    same = entry(name="Same").encode()
    write_files(tmp_path / "a", {"memory/same.md": same, "memory/x.md": entry(name="X").encode()})
    write_files(tmp_path / "b", {"memory/same.md": same, "memory/y.md": entry(name="Y").encode()})
    args = ["merge", str(tmp_path / "a"), str(tmp_path / "b")]
    calm = runner.invoke(main, [*args, str(tmp_path / "out")])
    assert calm.exit_code == 0 and "unchanged  1 record(s) (-v lists them)" in calm.stdout
    assert "unchanged  memory/same.md" not in calm.stdout and "added      memory/y.md" in calm.stdout
    assert "2 added, 0 updated, 1 unchanged, 0 conflict" in calm.stderr.splitlines()[-1]
    loud = runner.invoke(main, [*args, str(tmp_path / "out-v"), "-v"])
    assert "unchanged  memory/same.md" in loud.stdout
    preview = runner.invoke(main, [*args, str(tmp_path / "out-dry"), "--dry-run"])
    assert "unchanged  memory/same.md" in preview.stdout, "a preview lists every record"
    quiet = runner.invoke(main, [*args, str(tmp_path / "out-q"), "-q"])
    assert quiet.stderr == "" and quiet.stdout == ""


@pytest.mark.parametrize("name, message", [("memory/x.md", "kept"), ("MEMORY.md:12", "links to y.md"),
                                           ("a/b c.md", "x: y"), (None, "no file: here"),
                                           (None, "MEMORY.md would be 509 lines, … first 200: split")])
def test_a_warning_names_its_file_before_the_first_colon(name, message):
    from memconv.report import split_name

    text = f"{name}: {message}" if name else message
    assert split_name(text) == (name, message)


def test_grouping_a_hostile_warning_takes_linear_time():
    # Warnings quote names from IN: a 100 KB name of slashes and dots, with no ": ", is grouped at once.
    import time

    report = Report(command="convert", input="IN")
    report.warnings += ["a/" * 50_000 + "x.md" + ".md" * 1000, "links to " * 11_000, "carry " * 17_000,
                        "no mark of " * 10_000, "memory/x.md: " + "links to " * 11_000]
    started = time.process_time()
    report.summary()
    report.to_dict()
    assert time.process_time() - started < 1.0, "well under a second"


def test_the_closing_line_says_how_many_were_kept_as_they_were(runner, tmp_path):
    # Before (forty-fourth session): an upgrade that changed nothing closed with "7 converted" and nothing else.
    folder = tmp_path / "memory"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", folder)
    first = runner.invoke(main, ["upgrade", "--in-place", str(folder)])
    assert first.exit_code == 0, first.output
    again = runner.invoke(main, ["upgrade", "--in-place", "--json", str(folder)])
    counts = json.loads(again.stdout)["counts"]
    assert counts["kept"] > 0 and counts["converted"] == 0, counts
    last = runner.invoke(main, ["upgrade", "--in-place", str(folder)]).stderr.strip().splitlines()[-1]
    written = sum(counts[status] for status in WRITTEN)
    assert f"{written} converted ({counts['kept']} kept as they were)" in last, last
    converted = runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "canonical" / "input"),
                                     str(tmp_path / "o")])
    assert "kept as they were" not in converted.stderr.strip().splitlines()[-1], "said only when some were"
