"""`memconv merge A B OUT`: the preview, the options and the exit statuses."""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import tree, write_files
from .merge_helpers import doc, entry


def stores(tmp_path, a_files, b_files):
    a, b = tmp_path / "a", tmp_path / "b"
    for root, files in ((a, a_files), (b, b_files)):
        write_files(root, {p: v.encode() if isinstance(v, str) else v for p, v in files.items()})
    return a, b


def session(**current) -> str:
    return json.dumps(doc(**current), indent=2)


def test_a_clean_merge_writes_out_and_leaves_both_inputs_alone(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry(name="X"), "session.json": session()},
                  {"memory/y.md": entry(name="Y"), "session.json": session()})
    before = tree(a), tree(b)
    result = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert sorted(tree(tmp_path / "out")) == ["memory/x.md", "memory/y.md", "session.json"]
    assert (tree(a), tree(b)) == before
    assert "added      memory/x.md: from A" in result.output


def test_a_conflict_exits_6_and_keeps_both_copies(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry(body="A\n")}, {"memory/x.md": entry(body="B\n")})
    result = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 6, result.output
    assert len(tree(tmp_path / "out")) == 2 and "conflict" in result.output


def test_json_lists_every_record_with_its_status(runner, tmp_path):
    a, b = stores(tmp_path, {"session.json": session(goals=[{"text": "g", "set_on": "2026-01-01"}]),
                             "memory/x.md": entry()},
                  {"session.json": session(goals=[{"text": "g", "set_on": "2026-02-01"}]), "memory/x.md": entry()})
    result = runner.invoke(main, ["merge", "--json", str(a), str(b), str(tmp_path / "out")])
    report = json.loads(result.stdout)
    statuses = {(r["kind"], r["status"], r["won"]) for r in report["records"]}
    assert statuses == {("entry", "unchanged", None), ("session", "updated", "B")}
    assert report["exit_code"] == 0 and report["written"] is True


def test_dry_run_writes_nothing(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry()}, {"memory/y.md": entry(name="Y")})
    result = runner.invoke(main, ["merge", "--dry-run", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 0 and not (tmp_path / "out").exists()
    assert "memory/y.md" in result.output and "dry run" in result.output


def test_diff_shows_out_against_a(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry()}, {"memory/y.md": entry(name="Why")})
    result = runner.invoke(main, ["merge", "--diff", "--dry-run", str(a), str(b), str(tmp_path / "out")])
    assert "+++ b/memory/y.md" in result.output and "+name: Why" in result.output
    assert "memory/x.md\n+++" not in result.output, "files A already has unchanged are not in the diff"


def test_two_dialects_exit_2(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry()},
                  {"MEMORY.md": "- [X](x.md) — hook\n", "x.md": "---\nname: X\ndescription: d\ntype: user\n---\nb\n"})
    result = runner.invoke(main, ["merge", "--from", "memoir", str(a), str(a), str(tmp_path / "o1")])
    assert result.exit_code == 0
    result = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 2 and "one dialect" in result.output and not (tmp_path / "out").exists()


def test_a_dialect_with_no_merge_rules_exits_2(runner, tmp_path, monkeypatch):
    import memconv.merge

    monkeypatch.setattr(memconv.merge, "SUPPORTED", ("claude",))  # every dialect has rules now: pretend one has not
    a, b = stores(tmp_path, {"memory/x.md": entry()}, {"memory/y.md": entry()})
    # (memoir stores, merged as what they are: --from names another dialect's stores no more, exit 2 for that)
    result = runner.invoke(main, ["merge", "--from", "memoir", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 2 and "no merge rules" in result.output and not (tmp_path / "out").exists()


def test_out_inside_an_input_is_refused(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry()}, {"memory/y.md": entry()})
    result = runner.invoke(main, ["merge", str(a), str(b), str(b / "out")])
    assert result.exit_code == 2 and "overlap" in result.output and not (b / "out").exists()


def test_a_quarantined_file_exits_3(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry(), "session.json": "{broken"}, {"memory/x.md": entry()})
    result = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 3, result.output
    assert tree(tmp_path / "out")[".memconv/quarantine/session.json"] == b"{broken"


def test_a_non_empty_out_needs_force_and_force_replaces_only_what_memconv_wrote(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry()}, {"memory/y.md": entry()})
    out = tmp_path / "out"
    assert runner.invoke(main, ["merge", str(a), str(b), str(out)]).exit_code == 0
    assert runner.invoke(main, ["merge", str(a), str(b), str(out)]).exit_code == 4, "OUT is not empty"
    assert runner.invoke(main, ["merge", "--force", str(a), str(b), str(out)]).exit_code == 0, \
        "--force replaces an OUT memconv wrote"
    write_files(out, {"old.txt": b"a file of the user's"})
    assert runner.invoke(main, ["merge", "--force", str(a), str(b), str(out)]).exit_code == 4, \
        "--force never deletes a file memconv did not write"
    assert (out / "old.txt").read_bytes() == b"a file of the user's"


def test_merging_the_result_with_a_side_again_is_a_no_op(runner, tmp_path):
    a, b = stores(tmp_path, {"memory/x.md": entry(body="A\n"), "session.json": session(
        decisions=[{"text": "d", "date": "2026-01-01T00:00:00Z", "why": "a"}])},
        {"memory/x.md": entry(body="B\n"), "session.json": session(
            decisions=[{"text": "d", "date": "2026-01-01T00:00:00Z", "why": "b"}])})
    out, again = tmp_path / "out", tmp_path / "again"
    assert runner.invoke(main, ["merge", str(a), str(b), str(out)]).exit_code == 6
    for side in (a, b):
        result = runner.invoke(main, ["merge", "--force", str(out), str(side), str(again)])
        assert result.exit_code == 0, result.output
        assert tree(again) == tree(out)


def test_hostile_session_documents_merge_without_a_traceback(runner, tmp_path):
    a, b = stores(tmp_path,
                  {"session.json": '{"version":1,"created_at":"x","machines":[],"current":{"goals":[{"text":"\\ud800 '
                                   'lone","set_on":"0001-01-01"},{"text":5},7,null],"next_actions":{"a":1}},'
                                   '"history":"nope"}'},
                  {"session.json": '{"version":1,"created_at":"2026-01-01","current":[],'
                                   '"history":[{"date":"2026-01-01T00:00:00+14:00","summary":"\\udc80"}],'
                                   '"machines":{"u":{"last_seen":5}}}'})
    result = runner.invoke(main, ["merge", "--from", "memoir", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 6, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), "no traceback"
    out = json.loads(tree(tmp_path / "out")["session.json"])
    assert out["created_at"] == "2026-01-01" and out["current"]["goals"][0]["text"] == "\ud800 lone"
