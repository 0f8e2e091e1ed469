"""A wrong ``--from`` (or a folder that is not one store) is refused, exit 2, with detect's finding and the command to run.

Never a silent all-foreign conversion: see docs/cli.md ("Refusals").
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from memconv import dialects, pipeline
from memconv.cli import main
from memconv.errors import WrongDialect

from .conftest import GOLDEN, write_files
from .convert_helpers import golden_inputs
from .detect_support import FIXTURES, memfmt_store, project_folder, two_stores

USAGE = 2


def _refused(result, out: Path | None = None) -> str:
    assert result.exit_code == USAGE, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), "a message, never a traceback"
    if out is not None:
        assert not out.exists(), "nothing is written when IN is refused"
    return result.stderr


def test_claude_to_memspec_on_a_memfmt_store_names_memfmt_and_the_command(runner, tmp_path):
    # Verified by making confirm_dialect return at once: this conversion exits 0, every file "foreign".
    src, out = memfmt_store(tmp_path / "store"), tmp_path / "out"
    message = _refused(runner.invoke(main, ["claude-to-memspec", str(src), str(out)]), out)
    assert "not a claude store: this is a memfmt store (memory/ with" in message
    assert f"run: memconv memfmt-to-memspec {shlex.quote(str(src))} {shlex.quote(str(out))}" in message


@pytest.mark.parametrize("command, expected", [
    (["convert", "--from", "memoir", "--to", "claude"], "memconv convert --from memspec --to claude {in} {out}"),
    (["memoir-to-memspec"], "memconv migrate --from memspec {in} {out}"),
    (["migrate", "--from", "claude"], "memconv migrate --from memspec {in} {out}"),
    (["check", "--from", "memfmt"], "memconv check --from memspec {in}"),
    (["check", "--from", "memfmt", "--via", "memoir"], "memconv check --from memspec --via memoir {in}"),
], ids=["convert", "same-dialect-pair", "migrate", "check", "check-via"])
def test_each_command_suggests_itself_for_the_right_dialect(runner, tmp_path, command, expected):
    src, out = FIXTURES / "memspec-project", tmp_path / "out"
    args = command + [str(src)] + ([] if command[0] == "check" else [str(out)])
    message = _refused(runner.invoke(main, args), out)
    assert "this is a memspec store" in message
    assert "run: " + expected.format(**{"in": shlex.quote(str(src)), "out": shlex.quote(str(out))}) in message


def test_the_claude_project_folder_is_refused_with_its_memory_folder(runner, tmp_path):
    root, out = project_folder(tmp_path / "-home-ana-src-acme"), tmp_path / "out"
    message = _refused(runner.invoke(main, ["claude-to-memspec", str(root), str(out)]), out)
    assert "Claude Code project folder" in message
    assert f"run: memconv claude-to-memspec {root / 'memory'} {out}" in message
    detected = _refused(runner.invoke(main, ["convert", "--to", "memfmt", str(root), str(out)]), out)
    assert str(root / "memory") in detected, "without --from too, the hint names memory/"
    assert runner.invoke(main, ["claude-to-memspec", str(root / "memory"), str(out)]).exit_code == 0


@pytest.mark.parametrize("dialect", list(dialects.MODULES))
def test_an_empty_folder_converts_nothing(runner, tmp_path, dialect):
    (tmp_path / "in").mkdir()
    other = "memfmt" if dialect != "memfmt" else "memoir"
    message = _refused(runner.invoke(main, ["convert", "--from", dialect, "--to", other, str(tmp_path / "in"),
                                            str(tmp_path / "out")]), tmp_path / "out")
    assert "the folder is empty" in message


def test_zero_records_among_other_files_is_refused(runner, tmp_path):
    # Verified by deleting the read-and-count branch: memoir-to-claude "converts" notes.txt and exits 0.
    write_files(tmp_path / "in", {"notes.txt": b"not memory\n", "data/table.csv": b"a,b\n"})
    message = _refused(runner.invoke(main, ["memoir-to-claude", str(tmp_path / "in"), str(tmp_path / "out")]),
                       tmp_path / "out")
    assert "no memoir record here" in message and "2 file(s)" in message


def test_an_explicit_from_on_markless_entries_is_trusted_and_says_so(runner, tmp_path):
    # A legacy Claude folder may hold only bare files: with --from claude they are read, and the report says why.
    write_files(tmp_path / "in", {"deploy.md": b"# Deploy\n\nmake release\n"})
    result = runner.invoke(main, ["claude-to-memoir", "--json", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0
    assert "read as claude because --from says so" in result.stderr


def test_several_stores_need_a_from_and_then_read_only_that_one(runner, tmp_path):
    root = two_stores(tmp_path / "project")
    message = _refused(runner.invoke(main, ["convert", "--to", "memoir", str(root), str(tmp_path / "a")]),
                       tmp_path / "a")
    assert "several stores here" in message and "--from memspec or --from memfmt" in message
    assert runner.invoke(main, ["convert", "--from", "memspec", "--to", "memoir", str(root),
                                str(tmp_path / "b")]).exit_code == 0
    assert runner.invoke(main, ["convert", "--from", "memfmt", "--to", "memoir", str(root),
                                str(tmp_path / "c")]).exit_code == 0
    wrong = _refused(runner.invoke(main, ["claude-to-memoir", str(root), str(tmp_path / "d")]), tmp_path / "d")
    assert "memconv memspec-to-memoir" in wrong and "memconv memfmt-to-memoir" in wrong


@pytest.mark.parametrize("dialect, name", golden_inputs())
def test_every_golden_store_is_accepted_as_its_own_dialect_and_refused_as_any_other(dialect, name):
    root = GOLDEN / dialect / name / "input"
    assert pipeline.confirm_dialect(root, dialect, lambda d, at: "") == [], "its own dialect, on its own marks"
    for other in dialects.MODULES:
        if other != dialect:
            with pytest.raises(WrongDialect) as refused:
                pipeline.confirm_dialect(root, other, lambda d, at: f"memconv {d}-to-x {at} OUT")
            assert f"memconv {dialect}-to-x {root} OUT" in refused.value.hint, f"--from {other} names {dialect}"


# --- upgrade reads Claude Code memory only -------------------------------------------------

def test_upgrade_refuses_a_memfmt_store_and_names_the_conversion(runner, tmp_path):
    # Verified by removing the _refuse_other_stores call: upgrade writes memfmt files as opaque memoir entries.
    src, out = memfmt_store(tmp_path / "store"), tmp_path / "out"
    message = _refused(runner.invoke(main, ["upgrade", str(src), str(out)]), out)
    assert "not a Claude Code memory folder: this is a memfmt store" in message
    assert f"memconv memfmt-to-memoir {src} OUT" in message


@pytest.mark.parametrize("make", ["memspec", "docs", "several", "project-folder"])
def test_upgrade_refuses_what_is_not_claude_memory(runner, tmp_path, make):
    src = tmp_path / "in"
    if make == "memspec":
        shutil.copytree(FIXTURES / "memspec-project", src)
    elif make == "docs":
        write_files(src, {"README.md": b"# Readme\n", "guide.md": b"# Guide\n"})
    elif make == "several":
        two_stores(src)
    else:
        project_folder(src)
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    message = _refused(runner.invoke(main, ["upgrade", "--in-place", str(src)]))
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before, "IN is untouched"
    assert not list(tmp_path.glob("in.memconv-backup-*")), "no backup of a folder that is not upgraded"
    if make == "project-folder":
        assert f"memconv upgrade {src / 'memory'} OUT" in message


def test_upgrade_still_takes_a_memoir_store_it_made(runner, tmp_path):
    out = tmp_path / "once"
    assert runner.invoke(main, ["upgrade", str(GOLDEN / "claude" / "mixed-project" / "input"), str(out)]).exit_code == 0
    assert runner.invoke(main, ["upgrade", str(out), str(tmp_path / "twice")]).exit_code == 0
