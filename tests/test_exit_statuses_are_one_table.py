"""Exit statuses are one table (report.EXIT_STATUSES): in --help, in docs/cli.md, and kept by every command."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memconv import dialects, fs, report
from memconv.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def test_docs_cli_holds_the_table_from_the_code():
    # Verified by editing one row of docs/cli.md: the table no longer matches.
    text = DOCS.read_text(encoding="utf-8")
    inside = text.split(report.TABLE_BEGIN, 1)[1].split(report.TABLE_END, 1)[0]
    assert inside.strip() == report.exit_table(), "run `python -m memconv.report` to rewrite docs/cli.md's table"


def test_help_shows_every_status(runner):
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    help_text = " ".join(result.stdout.split())
    for status in report.EXIT_STATUSES:
        assert f"{status.code} {status.name} " in help_text


def test_the_table_has_the_statuses_a_script_relies_on():
    codes = {s.name: s.code for s in report.EXIT_STATUSES}
    assert codes["interrupted"] == 130 and codes["terminated"] == 143 and codes["usage"] == 2
    assert codes["bug"] == os.EX_SOFTWARE == 70, "a crash has its own status, sysexits' EX_SOFTWARE"
    assert 1 not in {codes["bug"], codes["broken-pipe"], codes["error"]}, "a crash is never 1"
    assert len(codes) == len(set(codes.values())), "one meaning per status"


def _commands():
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
@pytest.mark.parametrize("words", [["--no-such-option"], ["a", "b", "c", "d", "e"]], ids=["option", "arguments"])
def test_click_usage_errors_are_2_for_every_command(runner, command, words, tmp_path):
    # Verified by letting click's standalone mode decide: `--json` then prints nothing.
    result = runner.invoke(main, [command, *words, "--json"])
    assert result.exit_code == 2, (command, result.stderr)
    doc = json.loads(result.stdout)
    assert doc["exit_status"] == "usage" and doc["command"] == command and doc["error"]["kind"] == "usage"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", _commands())
def test_every_command_takes_json_quiet_and_verbose(runner, command):
    params = {opt for p in main.commands[command].params for opt in p.opts}
    assert {"--json", "-q", "--quiet", "-v", "--verbose"} <= params
    writes = command in ("convert", "migrate", "upgrade", "merge") or "-to-" in command
    if writes:
        assert {"--dry-run", "--diff", "--check", "--force"} <= params, command


def test_dialects_lists_versions_and_ladder_steps(runner):
    result = runner.invoke(main, ["dialects", "--json"])
    assert result.exit_code == 0
    by_name = {d["name"]: d for d in json.loads(result.stdout)["dialects"]}
    assert list(by_name) == ["memoir", "claude", "memspec", "memfmt"]
    memspec = by_name["memspec"]["ladders"][0]
    assert memspec["versions"] == ["v0.2", "v0.4", "current"]
    assert [(s["from"], s["to"]) for s in memspec["steps"]] == [("v0.2", "v0.4"), ("v0.4", "current")]
    assert by_name["memoir"]["ladders"][0]["steps"][0]["from"] == "0"
    assert by_name["memfmt"]["ladders"][0]["steps"][0]["does"].startswith("mengram_type")
    assert by_name["claude"]["ladders"] == []
    human = runner.invoke(main, ["dialects"]).stdout
    assert "v0.2 → v0.4" in human and "reads:" in human and "writes:" in human


def test_pre_commit_offers_memconv_check_and_ci_docs_show_it():
    import yaml

    root = DOCS.parent.parent
    hooks = {h["id"]: h for h in yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert hooks["memconv-check"]["entry"] == "memconv check"
    for hook in hooks.values():
        words = hook["entry"].split()
        assert words[0] == "memconv" and words[1] in main.commands, hook["id"]
        options = {opt for p in main.commands[words[1]].params for opt in p.opts}
        assert {w for w in words[2:] if w.startswith("-")} <= options, hook["id"]
    ci = (root / "docs" / "ci.md").read_text(encoding="utf-8")
    assert all(hook_id in ci for hook_id in hooks)
    assert "memconv check --via" in ci and "--check" in ci


def test_docs_report_names_every_kind_of_warning():
    text = " ".join((DOCS.parent / "report.md").read_text(encoding="utf-8").split())
    for kind in report.NOTICE_KINDS:
        assert f"`{kind.name}`" in text, f"docs/report.md names the kind {kind.name}"


def test_the_table_stays_a_table():
    # A `|` in a cell would split it into columns in Markdown.
    for row in report.exit_table().splitlines():
        assert row.count("|") == 4, row


def _raised_from(stop: BaseException) -> RuntimeError:
    try:
        try:
            raise stop
        except BaseException as exc:
            raise RuntimeError("Error calling __set_name__ on '_Field' instance 'name' in 'Lazy'") from exc
    except RuntimeError as wrapped:
        return wrapped


@pytest.mark.parametrize("stop, code, status", [(KeyboardInterrupt(), 130, "interrupted"),
                                                 (fs.Terminated(), 143, "terminated"),
                                                 (None, 70, "bug")])
def test_a_signal_that_comes_out_as_another_error_is_still_the_signal(runner, monkeypatch, stop, code, status):
    """A Ctrl-C landing in a module imported as the command runs comes out wrapped (a dataclass's __set_name__
    makes it a RuntimeError): the run was stopped, not broken, so it exits 130 (SIGTERM: 143), not 70. A
    RuntimeError raised from nothing of the kind is still a bug (70). Watched fail without ``cli._stopped_by``:
    70 for both signals. (The likeliest cause of one exit 70 in 24 Ctrl-Cs sent as ``detect`` started, 2026-12-06.)"""
    wrapped = _raised_from(stop) if stop is not None else RuntimeError("a bug")

    def survey(path):
        raise wrapped

    monkeypatch.setattr(dialects, "survey", survey)
    result = runner.invoke(main, ["detect", str(Path(__file__).parent), "--json"])
    assert result.exit_code == code, result.stdout
    assert json.loads(result.stdout)["exit_status"] == status
    assert "Traceback" not in result.stderr
