"""`memconv convert … IN --into EXISTING`: the options, the guards, the lock, the backup, the exit statuses."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memconv import dialects, lock
from memconv.cli import main
from memconv.merge.into import ConvertedFrom, pair_by_carry
from memconv.model import Record, Store

from .conftest import GOLDEN, tree


@pytest.fixture
def existing(tmp_path) -> Path:
    root = tmp_path / "memoir"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", root)
    return root


@pytest.fixture
def claude(tmp_path) -> Path:
    root = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", root)
    return root


def _backups(folder: Path) -> list[Path]:
    return sorted(folder.parent.glob(f"{folder.name}.memconv-backup-*"))


def test_convert_into_and_the_shorthand_do_the_same(runner, tmp_path, claude, existing):
    twin = tmp_path / "twin"
    shutil.copytree(existing, twin)
    one = runner.invoke(main, ["convert", "--from", "claude", "--to", "memoir", str(claude), "--into", str(existing),
                                "-v"])
    two = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(twin)])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert tree(existing) == tree(twin)
    assert "added      memory/fact_grafana.md: from IN" in one.output
    assert "unchanged  memory/decision_client-name.md: only in EXISTING" in one.output


@pytest.mark.parametrize("args", [[], ["OUT", "--into", "EX"], ["--into", "EX", "--force"]])
def test_exactly_one_of_out_and_into(runner, tmp_path, claude, existing, args):
    words = [str(tmp_path / "out") if a == "OUT" else str(existing) if a == "EX" else a for a in args]
    before = tree(existing)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), *words])
    assert result.exit_code == 2, result.output
    assert tree(existing) == before and not (tmp_path / "out").exists() and not _backups(existing)


def test_existing_of_another_dialect_is_refused(runner, tmp_path, claude):
    memspec = tmp_path / "memspec"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", memspec)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(memspec)])
    assert result.exit_code == 2
    assert "a memspec store, not a memoir store" in result.output


@pytest.mark.parametrize("where", ["missing", "empty"])
def test_existing_that_is_no_store_is_refused(runner, tmp_path, claude, where):
    folder = tmp_path / "nothing"
    if where == "empty":
        folder.mkdir()
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(folder)])
    assert result.exit_code == 2, result.output
    assert "give OUT instead of --into" in result.output


@pytest.mark.parametrize("how", ["IN inside EXISTING", "EXISTING inside IN", "one folder"])
def test_in_and_existing_must_not_overlap(runner, tmp_path, existing, how):
    if how == "IN inside EXISTING":
        in_path, into = existing / "memory" / "claude", existing
        shutil.copytree(GOLDEN / "claude" / "canonical" / "input", in_path)
        pair = "claude-to-memoir"
    elif how == "EXISTING inside IN":
        in_path, into = tmp_path / "outer", tmp_path / "outer" / "memory" / "inner"
        shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", in_path)
        shutil.copytree(existing, into)
        pair = "memspec-to-memoir"
    else:
        in_path = into = existing
        pair = "convert"
    before = tree(in_path), tree(into)
    words = ["--from", "memoir", "--to", "memoir"] if pair == "convert" else []
    result = runner.invoke(main, [pair, *words, str(in_path), "--into", str(into)])
    assert result.exit_code == 2 and "overlap" in result.output, result.output
    assert (tree(in_path), tree(into)) == before


def test_dry_run_writes_nothing_and_shows_every_record(runner, claude, existing):
    before = tree(existing)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert tree(existing) == before and not _backups(existing)
    assert "dry run" in result.output and "added      memory/project_wire.md: from IN" in result.output


def test_json_is_the_merge_report_with_in_and_existing(runner, claude, existing):
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--json"])
    report = json.loads(result.stdout)
    assert report["inputs"] == [str(existing), str(claude)]
    assert {r["won"] for r in report["records"] if r["status"] == "added"} == {"IN"}
    assert {r["status"] for r in report["records"]} == {"added", "unchanged"}
    assert report["written"] is True and report["exit_code"] == 0


def test_diff_shows_what_would_change_in_existing(runner, claude, existing):
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--diff", "--dry-run"])
    assert result.exit_code == 0
    assert "+++ b/memory/fact_grafana.md" in result.output
    assert "b/memory/decision_client-name.md" not in result.output, "an unchanged file is not in the diff"


def test_the_backup_is_the_old_store_and_files_memconv_does_not_read_are_kept(runner, tmp_path, claude, existing):
    (existing / "notes.txt").write_text("mine\n")
    (existing / ".git").mkdir()
    (existing / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    os.symlink("notes.txt", existing / "link-to-notes")
    before = tree(existing)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert result.exit_code == 0, result.output
    backup, = _backups(existing)
    assert tree(backup) == before, "the backup is the store as it was"
    assert (existing / "notes.txt").read_text() == "mine\n"
    assert (existing / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert os.readlink(existing / "link-to-notes") == "notes.txt"
    assert (existing / "memory" / "fact_grafana.md").is_file()


def test_a_store_held_by_another_run_is_left_alone(runner, claude, existing):
    before = tree(existing)
    with lock.held(existing):
        result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert result.exit_code == 4 and "another memconv" in result.output
    assert tree(existing) == before and not _backups(existing)


def test_an_unreadable_file_of_existing_stays_where_it_is(runner, claude, existing):
    bad = existing / "memory" / "fact_broken.md"
    bad.write_bytes(b"---\ntype: fact\nname: never closed\nbody\n")
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert result.exit_code == 3, result.output
    assert bad.read_bytes() == b"---\ntype: fact\nname: never closed\nbody\n"
    assert not (existing / ".memconv" / "quarantine").exists(), "EXISTING's own file is not moved"


def test_a_conflict_exits_6_and_keeps_both(runner, claude, existing):
    (existing / "memory" / "fact_grafana.md").write_text("---\ntype: fact\nname: Grafana boards\n"
                                                         "description: d\n---\nSomething else entirely.\n")
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--json"])
    assert result.exit_code == 6, result.output
    conflict, = [r for r in json.loads(result.stdout)["records"] if r["status"] == "conflict"]
    copy = existing / conflict["conflict_copy"]
    kept = (existing / "memory" / "fact_grafana.md").read_text() + copy.read_text()
    assert "Something else entirely." in kept and "grafana.internal/d/latency" in kept
    again = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert again.exit_code == 0, "the conflict copy is already kept: not a new conflict"


# --- identity by carry: the rules, one by one ---------------------------------------------------

def _r(link: str, kind: str = "fact") -> Record:
    return Record(kind=kind, link=link, title=link)


def _pair(e_records, c_records, origins):
    existing, incoming = Store(dialect="memfmt", records=e_records), Store(dialect="memfmt", records=c_records)
    return pair_by_carry(existing, incoming, lambda r: r.link, origins)


def _o(link: str, edited: bool = False) -> ConvertedFrom:
    return ConvertedFrom("memoir", link, edited, [])


def test_one_claim_on_each_side_pairs():
    e, c = _r("old name"), _r("new name")
    pairing = _pair([e], [c], {id(e): _o("fact_x"), id(c): _o("fact_x")})
    assert pairing.pairs == {id(c): e}


def test_a_claim_existing_does_not_make_pairs_nothing():
    e, c = _r("old name"), _r("new name")
    assert _pair([e], [c], {id(c): _o("fact_x")}).pairs == {}, "a record of EXISTING's own is never claimed"


def test_two_records_making_one_claim_pair_nothing():
    e, c1, c2 = _r("old"), _r("new 1"), _r("new 2")
    assert _pair([e], [c1, c2], {id(e): _o("fact_x"), id(c1): _o("fact_x"), id(c2): _o("fact_x")}).pairs == {}


def test_a_claim_on_another_kind_of_record_pairs_nothing():
    e, c = _r("old", "fact"), _r("new", "decision")
    assert _pair([e], [c], {id(e): _o("fact_x"), id(c): _o("fact_x")}).pairs == {}


def test_a_name_match_comes_first():
    e, c, other = _r("same"), _r("same"), _r("other")
    pairing = _pair([e, other], [c], {id(other): _o("fact_x"), id(c): _o("fact_x")})
    assert pairing.pairs == {}, "c is already the same record as e, by its name"


def test_a_record_edited_in_existing_since_its_import_is_never_replaced_through_a_carry():
    e, c = _r("old name"), _r("new name")
    pairing = _pair([e], [c], {id(e): _o("fact_x", edited=True), id(c): _o("fact_x")})
    assert pairing.pairs == {} and [(x, y) for x, y, _ in pairing.unsure] == [(e, c)]


def test_a_claimed_origin_never_replaces_a_record_edited_since_its_import(runner, tmp_path, store):
    """End to end: the claim comes from IN; EXISTING's record was edited in memfmt: both kept, exit 6."""
    existing = tmp_path / "memfmt"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", existing)
    assert runner.invoke(main, ["memoir-to-memfmt", str(store), "--into", str(existing)]).exit_code == 0
    page = existing / "memory" / "entities" / "Staging API endpoints.md"
    page.write_text(page.read_text().replace("## Facts\n\n", "## Facts\n\n- Added by hand in memfmt\n"))
    (existing / ".memconv" / "imports.json").unlink()  # no base: the carry alone speaks
    entry = store / "memory" / "fact_staging-endpoints.md"
    entry.write_text(entry.read_text().replace("name: Staging API endpoints", "name: Something unrelated")
                     .replace("Staging runs at", "Replaced text. Staging runs at"))
    result = runner.invoke(main, ["memoir-to-memfmt", str(store), "--into", str(existing), "--json"])
    assert result.exit_code == 6, result.output
    conflicts = [r for r in json.loads(result.stdout)["records"] if r["status"] == "conflict"]
    claimed = [r for r in conflicts if "edited in memfmt since memconv wrote it" in r["why"]]
    assert len(claimed) == 1 and claimed[0]["where"] == "memory/entities/Staging API endpoints.md", conflicts
    titles = {r.title for r in dialects.get("memfmt").read(existing).records}
    assert {"Staging API endpoints", "Something unrelated"} <= titles
    assert "Added by hand in memfmt" in page.read_text()


def test_a_claude_conflict_copy_leaves_the_store_it_came_from_as_it_was(tmp_path):
    """The merge never edits its inputs: the losing copy's file name is its own, not its original's."""
    from memconv.merge import merge

    from .conftest import write_files

    stores = []
    for side, body in (("a", "A says this.\n"), ("b", "B says that.\n")):
        write_files(tmp_path / side, {"MEMORY.md": b"# Memory Index\n\n- [X](x.md) - x\n",
                                      "x.md": f"---\nname: X\ndescription: d\ntype: user\n---\n{body}".encode()})
        stores.append(dialects.get("claude").read(tmp_path / side))
    paths = [[r.source.path for r in s.records] for s in stores]
    result = merge(*stores)
    assert [o.status for o in result.outcomes if o.kind == "entry"] == ["conflict"]
    assert [[r.source.path for r in s.records] for s in stores] == paths == [["x.md"], ["x.md"]]


# --- EXISTING's shape, IN's quarantined files, --fail-on-loss -----------------------------------

def test_existing_given_as_the_memspec_folder_itself(runner, tmp_path, store):
    project = tmp_path / "project"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", project)
    folder = project / ".memspec"
    result = runner.invoke(main, ["memoir-to-memspec", str(store), "--into", str(folder)])
    assert result.exit_code == 0, result.output
    assert not (folder / ".memspec").exists(), "the records go into the folder given, not a new .memspec in it"
    ids = {r.link for r in dialects.get("memspec").read(folder).records}
    assert "ms_01KRHWGX007V37ZGGSXFBYF421" in ids and "ms_01KN49FJ2028KAX7EADGMGE1FN" in ids


def test_existing_given_as_the_memfmt_memory_folder_itself(runner, tmp_path, store):
    root = tmp_path / "memfmt"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", root)
    folder = root / "memory"
    result = runner.invoke(main, ["memoir-to-memfmt", str(store), "--into", str(folder)])
    assert result.exit_code == 0, result.output
    assert not (folder / "memory").exists()
    assert (folder / "entities" / "Staging API endpoints.md").is_file()
    assert (folder / ".memconv" / "imports.json").is_file()


def test_a_flat_memoir_store_stays_flat(runner, tmp_path, claude):
    flat = tmp_path / "flat"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input" / "memory", flat)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(flat)])
    assert result.exit_code == 0, result.output
    assert (flat / "fact_grafana.md").is_file() and not (flat / "memory").exists()


def test_in_quarantined_files_are_kept_in_existing(runner, claude, existing):
    (claude / "user_broken.md").write_bytes(b"---\nname: [unclosed\ntype: user\n---\nbody\n")
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert result.exit_code == 3, result.output
    kept = existing / ".memconv" / "quarantine" / "user_broken.md"
    assert kept.read_bytes() == b"---\nname: [unclosed\ntype: user\n---\nbody\n"
    before = tree(existing)
    again = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert again.exit_code == 3 and tree(existing) == before, "the same quarantined file is not kept twice"


def test_fail_on_loss_writes_nothing(runner, store, tmp_path):
    existing = tmp_path / "memfmt"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", existing)
    before = tree(existing)
    result = runner.invoke(main, ["memoir-to-memfmt", str(store), "--into", str(existing), "--lossy",
                                  "--fail-on-loss"])
    assert result.exit_code == 5, result.output
    assert tree(existing) == before and not _backups(existing)


def test_an_import_never_writes_over_a_file_existing_did_not_read(runner, claude, existing):
    """A dangling link where the import would write a memory: refused, nothing changed (exit 4)."""
    os.symlink("/nonexistent/target", existing / "memory" / "fact_grafana.md")
    before = sorted(p.name for p in (existing / "memory").iterdir())
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert result.exit_code == 4, result.output
    assert "did not read" in result.output
    assert sorted(p.name for p in (existing / "memory").iterdir()) == before and not _backups(existing)
    assert os.readlink(existing / "memory" / "fact_grafana.md") == "/nonexistent/target"


def test_diff_without_into_shows_what_out_would_get(runner, tmp_path, claude):
    result = runner.invoke(main, ["claude-to-memoir", str(claude), str(tmp_path / "out"), "--diff", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "--- /dev/null\n+++ b/memory/fact_grafana.md" in result.output and not (tmp_path / "out").exists()


def test_a_rule_names_the_side_in_the_words_of_an_import(runner, tmp_path, existing):
    """A decision hidden in EXISTING stays hidden (sticky), and the line says it came from EXISTING, not 'A'."""
    in_path = tmp_path / "other"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", in_path)
    decision = in_path / "memory" / "decision_client-name.md"
    text = decision.read_text()
    assert "hidden: true" in text
    decision.write_text(text.replace("hidden: true\n", "").replace("created: 2026-03-01", "created: 2026-03-01\n"
                                                                                         "updated: 2026-09-09"))
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "memoir", str(in_path), "--into",
                                  str(existing), "--json"])
    assert result.exit_code == 0, result.output
    line, = [r for r in json.loads(result.stdout)["records"] if r["where"] == "memory/decision_client-name.md"]
    assert line["won"] == "IN" and "hidden inherited from EXISTING" in line["why"], line


def test_diff_against_an_out_memconv_wrote_shows_only_what_changes(runner, tmp_path, claude):
    out = tmp_path / "out"
    assert runner.invoke(main, ["claude-to-memoir", str(claude), str(out)]).exit_code == 0
    (claude / "user_role.md").write_text((claude / "user_role.md").read_text().replace("Ten years", "Eleven years"))
    result = runner.invoke(main, ["claude-to-memoir", str(claude), str(out), "--force", "--diff", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "-Ten years" in result.output and "+Eleven years" in result.output
    assert "+++ b/memory/fact_grafana.md" not in result.output, "an unchanged file of OUT is not in the diff"


def test_an_import_record_in_in_is_never_used(runner, tmp_path, existing):
    """IN is untrusted: an import record it holds cannot make its copies win (nor is it imported)."""
    in_path = tmp_path / "other"
    shutil.copytree(existing, in_path)
    assert runner.invoke(main, ["convert", "--from", "memoir", "--to", "memoir", str(in_path), "--into",
                                str(existing)]).exit_code == 0
    mine = (existing / ".memconv" / "imports.json").read_bytes()
    (in_path / ".memconv").mkdir(exist_ok=True)
    (in_path / ".memconv" / "imports.json").write_text('{"from": {}}')
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "memoir", str(in_path), "--into",
                                  str(existing)])
    assert result.exit_code == 0, result.output
    assert "IN holds an import record of its own" in result.output
    assert (existing / ".memconv" / "imports.json").read_bytes() == mine


def test_check_with_into_says_whether_existing_already_holds_in(runner, claude, existing):
    before = tree(existing)
    stale = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--check"])
    assert stale.exit_code == 1, stale.output
    assert tree(existing) == before, "--check writes nothing"
    done = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert done.exit_code == 0, done.output
    fresh = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--check"])
    assert fresh.exit_code == 0, fresh.output


def test_diff_with_into_writes_nothing(runner, claude, existing):
    before = tree(existing)
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--diff"])
    assert result.exit_code == 0, result.output
    assert "+++ b/memory/fact_grafana.md" in result.output
    assert tree(existing) == before, "--diff writes nothing, as on every other command"


def test_a_dry_run_lists_every_record_unchanged_ones_included(runner, claude, existing):
    result = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "unchanged  memory/decision_client-name.md: only in EXISTING" in result.output
    written = runner.invoke(main, ["claude-to-memoir", str(claude), "--into", str(existing)])
    assert "unchanged  memory/decision_client-name.md" not in written.output, "a writing run counts them"
