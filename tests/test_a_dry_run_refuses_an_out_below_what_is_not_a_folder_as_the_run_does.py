"""``--dry-run`` refuses an OUT the run would refuse: one below a file, a symbolic link to nothing or a link loop.

The run makes the folders above OUT as it stages it, and that failed ("afile: File exists", exit 4) where the
nearest one there was not a folder; ``--dry-run`` asked only about OUT itself (``fs.check_out``), found nothing
there, and said exit 0. Now ``check_out`` asks about the folders above OUT too, before the run makes anything, so
the preview and the run refuse with one message and one status, and nothing is written. ``--check`` and ``--diff``
compare and do not judge OUT's writability: an OUT below a file holds nothing, so ``--check`` says it is stale
(exit 1) and ``--diff`` shows every file added, as for any missing OUT (docs/cli.md, Writing rules).
"""
import json
import os

import pytest

from memconv import api
from memconv.cli import main
from memconv.errors import OutputError

from .conftest import GOLDEN
from .test_report_schema import validate

MEMOIR = str(GOLDEN / "memoir" / "canonical" / "input")
LEGACY = str(GOLDEN / "memoir" / "legacy-session" / "input")
CLAUDE = str(GOLDEN / "claude" / "canonical" / "input")

COMMANDS = {
    "convert": ["convert", "--to", "claude", MEMOIR, "{out}"],
    "pair": ["memoir-to-memspec", MEMOIR, "{out}"],
    "migrate": ["migrate", LEGACY, "{out}"],
    "upgrade": ["upgrade", CLAUDE, "{out}"],
    "merge": ["merge", CLAUDE, CLAUDE, "{out}"],
}
BELOW = ["afile/x", "dangling/x", "loop/x"]
DEEPER = ["afile/x/y", "dangling/x/y", "loop/x/y"]


def _world(tmp_path):
    (tmp_path / "afile").write_bytes(b"")
    os.symlink("nowhere", tmp_path / "dangling")
    os.symlink("loop", tmp_path / "loop")
    return sorted(p.name for p in tmp_path.iterdir())


def _invoke(runner, tmp_path, command, out, *flags):
    args = [a.format(out=tmp_path / out) for a in COMMANDS[command]]
    return runner.invoke(main, [*args, *flags])


def _error(result):
    return [line for line in result.stderr.splitlines() if ": error: " in line]


@pytest.mark.parametrize("out", BELOW + DEEPER)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_dry_run_refuses_what_the_run_refuses(runner, tmp_path, command, out):
    before = _world(tmp_path)
    run = _invoke(runner, tmp_path, command, out)
    preview = _invoke(runner, tmp_path, command, out, "--dry-run")
    assert run.exit_code == 4, run.output
    assert preview.exit_code == run.exit_code, preview.output
    assert _error(preview) == _error(run) != [], (preview.stderr, run.stderr)
    assert out.split("/")[0] in _error(run)[0], "the message names what is in the way"
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "nothing is written, no temporary folder left"
    as_json = [validate(_invoke(runner, tmp_path, command, out, *flags, "--json").stdout)
               for flags in ([], ["--dry-run"])]
    assert [d["exit_code"] for d in as_json] == [4, 4]
    assert as_json[0]["error"] == as_json[1]["error"]
    assert as_json[0]["error"]["kind"] != "bug"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("out", BELOW)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_check_and_diff_take_an_out_below_a_file_as_one_that_holds_nothing(runner, tmp_path, command, out):
    before = _world(tmp_path)
    for flag in ("--check", "--diff"):
        below = _invoke(runner, tmp_path, command, out, flag, "--json")
        missing = _invoke(runner, tmp_path, command, "new", flag, "--json")
        assert below.exit_code == missing.exit_code == (1 if flag == "--check" else 0), below.output
        doc, new = validate(below.stdout), validate(missing.stdout)
        assert doc["error"] is None and doc["differences"] == new["differences"], doc
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("out", BELOW)
@pytest.mark.parametrize("flag", [[], ["--dry-run"], ["--diff"], ["--check"]])
def test_into_below_a_file_is_refused_alike_by_every_mode(runner, tmp_path, out, flag):
    before = _world(tmp_path)
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "claude", MEMOIR, "--into",
                                  str(tmp_path / out), *flag, "--json"])
    real = runner.invoke(main, ["convert", "--from", "memoir", "--to", "claude", MEMOIR, "--into",
                                str(tmp_path / out), "--json"])
    assert result.exit_code == real.exit_code != 0, result.output
    assert json.loads(result.stdout)["error"] == json.loads(real.stdout)["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("out", BELOW)
def test_write_store_dry_run_refuses_what_its_write_refuses(tmp_path, out):
    before = _world(tmp_path)
    converted = api.convert(api.read_store(MEMOIR), "claude")
    with pytest.raises(OutputError) as preview:
        api.write_store(converted, tmp_path / out, dry_run=True)
    with pytest.raises(OutputError) as run:
        api.write_store(converted, tmp_path / out)
    assert str(preview.value) == str(run.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
