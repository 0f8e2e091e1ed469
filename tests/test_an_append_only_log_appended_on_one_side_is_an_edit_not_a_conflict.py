"""memoir-cli's ``events.jsonl``, a log it only appends to, is merged as one: lines added on one side are an edit of
that side, and lines added on both are kept, each once, in order (docs/merge.md, "Other files").

A memoir store converted to Claude carries the log (``.memconv/files/memoir/events.jsonl``). Imported home again
(``claude-to-memoir … --into EXISTING``) once memoir-cli had appended a line to EXISTING's copy, the two copies
differed, so the import kept EXISTING's and put IN's older copy beside it as ``events.conflict-<hash>.jsonl``: exit
6, a conflict for a file nobody edited, again at every import where memoir-cli had run in between. Two copies of a
store that memoir-cli appended to on two machines, merged (``memconv merge``), were a conflict too: one side's
events only in a conflict copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from memconv.cli import main
from memconv.merge.memoir import _appended

from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

ENTRY = "---\ntype: fact\nname: Role\ndescription: backend engineer\ncreated: 2026-04-02\n---\n\nGo.\n"


def _store(home: Path) -> Path:
    """memoir-cli's store under ``home`` (``~/.config/memoir``: its session.json and events.jsonl), one entry in
    ``memory/``, a goal set with memoir-cli (one line in its log)."""
    store = home / ".config" / "memoir"
    (store / "memory").mkdir(parents=True)
    (store / "memory" / "fact_role.md").write_text(ENTRY)
    _memoir(home, "goal", "Ship the importer")
    return store


def _memoir(home: Path, *args: str) -> None:
    lines = _lines(home / ".config" / "memoir")
    done = run_node([str(MEMOIR_CLI), *args], cwd=home, home=home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(_lines(home / ".config" / "memoir")) == len(lines) + 1, "memoir-cli appended one event"


def _lines(store: Path) -> list[str]:
    log = store / "events.jsonl"
    return log.read_text().splitlines() if log.exists() else []


def _run(runner, *args: str):
    result = runner.invoke(main, [*args, "--json"])
    report = json.loads(result.stdout)
    return result.exit_code, report, {r["where"]: r for r in report["records"] if r["kind"] == "file"}


@needs_memoir
def test_a_log_memoir_cli_appended_to_since_it_went_through_claude_comes_home_with_no_conflict(runner, tmp_path):
    home = tmp_path / "home"
    store = _store(home)
    claude = tmp_path / "claude"
    assert runner.invoke(main, ["memoir-to-claude", "-q", str(store), str(claude)]).exit_code == 0
    assert (claude / ".memconv" / "files" / "memoir" / "events.jsonl").is_file(), "the log is carried"
    for round_ in (1, 2):  # memoir-cli runs in EXISTING between imports of the same IN
        _memoir(home, "note", f"Decision {round_}", "--why", "zero deps")
        kept = (store / "events.jsonl").read_bytes()
        code, report, files = _run(runner, "claude-to-memoir", str(claude), "--into", str(store))
        assert code == 0, report["records"]  # exit 6 before: a conflict
        line = files["events.jsonl"]
        # The first import finds EXISTING's log holding every line of IN's; the second, the import record knowing
        # the log as the first left it, that only EXISTING's copy changed since (a kept file's digests: into).
        why = "EXISTING already holds it" if round_ == 1 else "changed in EXISTING since the last import of IN"
        assert line["status"] == "unchanged" and why in line["why"], line
        assert (store / "events.jsonl").read_bytes() == kept, "EXISTING's log, every line memoir-cli wrote"
        assert not list(store.glob("events.conflict-*")), "no conflict copy"
        assert not [n for n in report["notices"] if n["kind"] == "in-copy-not-taken"], "IN's copy holds nothing new"


@needs_memoir
def test_two_copies_appended_to_on_two_machines_merge_to_every_line_once_in_order(runner, tmp_path):
    a_home, b_home = tmp_path / "a", tmp_path / "b"
    a = _store(a_home)
    shutil.copytree(a_home, b_home)  # the same store on a second machine
    b = b_home / ".config" / "memoir"
    _memoir(a_home, "note", "Use SQLite", "--why", "zero deps")
    _memoir(b_home, "goal", "Write the docs")
    _memoir(a_home, "goal", "Ship it")
    first = _lines(a)[0]
    assert _lines(b)[0] == first
    code, report, files = _run(runner, "merge", str(a), str(b), str(tmp_path / "out"))
    assert code == 0, report["records"]
    line = files["events.jsonl"]
    assert line["status"] == "updated" and line["won"] == "both", line
    merged = _lines(tmp_path / "out")
    assert merged == [first, *sorted(set(_lines(a)[1:]) | set(_lines(b)[1:]))], "each line once, by its time"
    assert [json.loads(x)["ts"] for x in merged] == sorted(json.loads(x)["ts"] for x in merged)
    assert not list((tmp_path / "out").glob("events.conflict-*"))
    _, _, files = _run(runner, "merge", str(b), str(a), str(tmp_path / "out2"))
    assert (tmp_path / "out2" / "events.jsonl").read_bytes() == (tmp_path / "out" / "events.jsonl").read_bytes(), \
        "whichever store is named first"
    # merged again with one side: the merged log holds all of it
    code, _, files = _run(runner, "merge", str(tmp_path / "out"), str(b), str(tmp_path / "out3"))
    assert code == 0 and files["events.jsonl"]["won"] == "A", files["events.jsonl"]
    assert _lines(tmp_path / "out3") == merged


def test_a_log_keeps_every_line_either_copy_has_and_a_line_cut_short_is_a_conflict():
    log = b'{"ts":"1"}\n{"ts":"2"}\n'
    one_side, both_sides = _appended(log, log + b"x")[2], _appended(b"a\n", b"b\n")[2]
    assert _appended(log, log + b'{"ts":"3"}\n') == ("B", log + b'{"ts":"3"}\n', one_side)
    assert _appended(log, b'{"ts":"2"}\n') == ("A", log, one_side), "a line taken out on one side comes back"
    assert _appended(log, b'{"ts":"1"}\n{"ts":"9"}\n{"ts":"3"}\n') == (
        "both", b'{"ts":"1"}\n{"ts":"2"}\n{"ts":"9"}\n{"ts":"3"}\n', both_sides), "each side's lines in its order"
    assert _appended(b'{"ts":"1"}\n', b'{"ts":"0"}\n') == ("both", b'{"ts":"0"}\n{"ts":"1"}\n', both_sides)
    assert _appended(log + b'{"ts":"3"', log + b'{"ts":"4"}\n') is None, "a last line cut short on one side"


def test_the_log_carried_in_a_claude_folder_merges_as_a_log(runner, tmp_path):
    event = '{"ts":"2026-11-30T19:40:0%d.000Z","type":"goal_set","machine_id":"534213bc"}\n'
    claude = {}
    for side, lines in (("a", 1), ("b", 2)):
        store = tmp_path / f"memoir-{side}"
        (store / "memory").mkdir(parents=True)
        (store / "memory" / "fact_role.md").write_text(ENTRY)
        (store / "events.jsonl").write_text("".join(event % n for n in range(lines)))
        claude[side] = tmp_path / f"claude-{side}"
        assert runner.invoke(main, ["memoir-to-claude", "-q", str(store), str(claude[side])]).exit_code == 0
    code, report, files = _run(runner, "merge", str(claude["a"]), str(claude["b"]), str(tmp_path / "out"))
    assert code == 0, report["records"]
    line = files[".memconv/files/memoir/events.jsonl"]
    assert line["status"] == "updated" and line["won"] == "B", line
    assert (tmp_path / "out" / ".memconv" / "files" / "memoir" / "events.jsonl").read_text() == event % 0 + event % 1
