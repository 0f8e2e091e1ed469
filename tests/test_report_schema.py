"""Every command's ``--json`` report validates against the published schema, failures and usage errors included.

The schema ships in the package (``memconv/schema/report.schema.json``) and is
documented in docs/report.md. Each case below runs one command the way a
script would and validates what it printed on stdout.
"""

from __future__ import annotations

import json
import os
import shutil
from importlib import resources

import jsonschema
import pytest

from memconv import pipeline
from memconv.cli import main
from memconv.report import EXIT_STATUSES, SCHEMA_VERSION

from .conftest import GOLDEN, write_files
from .merge_helpers import entry

SCHEMA = json.loads(resources.files("memconv").joinpath("schema/report.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def validate(stdout: str) -> dict:
    doc = json.loads(stdout)
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    assert doc["schema"] == SCHEMA_VERSION
    return doc


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_lists_every_exit_status_of_the_table():
    assert SCHEMA["properties"]["exit_code"]["enum"] == [s.code for s in EXIT_STATUSES]
    assert SCHEMA["properties"]["exit_status"]["enum"] == [s.name for s in EXIT_STATUSES]


def test_the_schema_catches_a_report_of_another_shape():
    # The check itself can fail: a detect report in its old shape (a bare list) is refused.
    with pytest.raises(AssertionError):
        validate(json.dumps([{"dialect": "memoir"}]))
    with pytest.raises(AssertionError):
        validate(json.dumps({"schema": 1, "command": "x"}))


@pytest.fixture
def world(tmp_path):
    """IN stores of every kind a command needs, and a place for OUT."""
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "memoir")
    shutil.copytree(GOLDEN / "claude" / "mixed-project" / "input", tmp_path / "claude")
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", tmp_path / "memspec")
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "broken")
    (tmp_path / "broken" / "session.json").write_text("{not json", encoding="utf-8")
    write_files(tmp_path / "a", {"memory/x.md": entry(name="X").encode()})
    write_files(tmp_path / "b", {"memory/y.md": entry(name="Y").encode()})
    write_files(tmp_path / "readme", {"README.md": b"# nothing\n"})
    write_files(tmp_path / "c1", {"memory/x.md": entry(name="X", body="one\n").encode()})
    write_files(tmp_path / "c2", {"memory/x.md": entry(name="X", body="two\n").encode()})
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "fifo")
    os.mkfifo(tmp_path / "fifo" / "memory" / "pipe.md")
    (tmp_path / "empty").mkdir()
    return tmp_path


CASES = {
    # name: (arguments, with {t} for the temporary folder; expected exit status)
    "convert": (["convert", "--to", "memfmt", "{t}/memoir", "{t}/out"], 0),
    "convert-quarantined": (["convert", "--to", "claude", "{t}/broken", "{t}/out"], 3),
    "pair-dry-run": (["memspec-to-claude", "--dry-run", "{t}/memspec", "{t}/out"], 0),
    "pair-diff": (["memoir-to-memspec", "--diff", "{t}/memoir", "{t}/out"], 0),
    "pair-check-stale": (["memoir-to-memspec", "--check", "{t}/memoir", "{t}/out"], 1),
    "fail-on-loss": (["convert", "--to", "memfmt", "--lossy", "--fail-on-loss", "{t}/memspec", "{t}/out"], 5),
    "migrate": (["migrate", "{t}/memoir", "{t}/out"], 0),
    "migrate-diff": (["migrate", "--diff", "{t}/memoir", "{t}/out"], 0),
    "check": (["check", "{t}/memoir"], 0),
    "check-via": (["check", "--via", "memfmt", "{t}/memoir"], 0),
    "check-quarantined": (["check", "{t}/broken"], 1),
    "detect-one": (["detect", "{t}/memoir"], 0),
    "detect-nothing": (["detect", "{t}/readme"], 4),
    "upgrade": (["upgrade", "{t}/claude", "{t}/out"], 0),
    "upgrade-in-place-check": (["upgrade", "--in-place", "--check", "{t}/claude"], 1),
    "upgrade-in-place-dry-run": (["upgrade", "--in-place", "--dry-run", "{t}/claude"], 0),
    "merge": (["merge", "{t}/a", "{t}/b", "{t}/out"], 0),
    "merge-check": (["merge", "--check", "{t}/a", "{t}/b", "{t}/out"], 1),
    "merge-overlap": (["merge", "{t}/a", "{t}/b", "{t}/a/out"], 2),
    "merge-conflict": (["merge", "{t}/c1", "{t}/c2", "{t}/out"], 6),
    "merge-diff": (["merge", "--diff", "{t}/c1", "{t}/c2", "{t}/out"], 6),
    "refused-fifo": (["convert", "--to", "memfmt", "{t}/fifo", "{t}/out"], 3),
    "check-refused-fifo": (["check", "-v", "{t}/fifo"], 1),
    "detect-quiet": (["detect", "-q", "{t}/memoir"], 0),
    "dialects": (["dialects"], 0),
    "store-error": (["check", "{t}/empty"], 4),
    "overlap": (["convert", "--to", "claude", "{t}/memoir", "{t}/memoir/out"], 2),
    "wrong-dialect": (["convert", "--from", "memspec", "--to", "claude", "{t}/memoir", "{t}/out"], 2),
    "usage-missing-argument": (["convert", "--to", "claude"], 2),
    "usage-bad-choice": (["convert", "--to", "nope", "{t}/memoir", "{t}/out"], 2),
    "usage-unknown-option": (["detect", "--bogus", "{t}/memoir"], 2),
    "usage-merge": (["merge", "{t}/a"], 2),
    "usage-dialects": (["dialects", "extra"], 2),
    "usage-no-command": (["nosuchcommand"], 2),
    "upgrade-both": (["upgrade", "--in-place", "{t}/claude", "{t}/out"], 2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_command_prints_a_report_of_the_one_shape(runner, world, name):
    args, status = CASES[name]
    result = runner.invoke(main, [a.format(t=world) for a in args] + ["--json"])
    assert result.exit_code == status, result.stderr
    doc = validate(result.stdout)
    assert doc["exit_code"] == status
    if status == 2:
        assert doc["error"]["kind"] == "usage" and doc["exit_status"] == "usage"


def test_a_bug_and_an_interruption_print_the_one_shape_too(runner, world, monkeypatch):
    for exc, status in ((TypeError("oops"), 70), (KeyboardInterrupt(), 130)):
        def broken(*a, **kw):
            raise exc

        monkeypatch.setattr(pipeline, "plan", broken)
        result = runner.invoke(main, ["convert", "--to", "claude", "--json", str(world / "memoir"), str(world / "o")])
        assert result.exit_code == status
        assert validate(result.stdout)["error"]["kind"] in ("bug", "interrupted")


def test_a_signal_while_starting_prints_the_one_shape(monkeypatch, capsys):
    from memconv import _entry

    monkeypatch.setattr("sys.argv", ["memconv", "convert", "--json"])
    with pytest.raises(SystemExit) as stopped:
        _entry._stop(130, "interrupted (Ctrl-C)")
    assert stopped.value.code == 130
    assert validate(capsys.readouterr().out)["exit_status"] == "interrupted"


def test_detect_and_merge_add_their_own_keys(runner, world):
    detect = validate(runner.invoke(main, ["detect", "--json", str(world / "memoir")]).stdout)
    assert detect["finding"] == "one store" and detect["detections"][0]["dialect"] == "memoir"
    merged = validate(runner.invoke(main, ["merge", "--json", str(world / "a"), str(world / "b"),
                                           str(world / "out")]).stdout)
    assert {r["status"] for r in merged["records"]} == {"added"} and len(merged["inputs"]) == 2
