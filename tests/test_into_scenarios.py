"""Importing a store into an existing one twice, with an edit in between: no duplicate, the edit applied.

`memconv X-to-Y IN --into EXISTING` (issue 11, docs/merge.md "Importing into an existing store"):

* memoir → memspec, judged by memspec 0.7.2's own loader (no warning, no schema violation, no
  claim twice);
* memoir → memfmt and claude → memoir, judged by our own readers (and memoir validate when built).
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from memconv import dialects
from memconv.cli import main
from memconv.merge.into import converted_from

from .conftest import GOLDEN, tree
from .memfmt_oracle import validate as memfmt_validate
from .reference_tools import memoir_validate, memspec, memspec_load, needs_memoir, needs_memspec

EDITED = "memory/fact_staging-endpoints.md"
OLD, NEW = "Rate limit is 60 req/min", "Rate limit is 120 req/min"


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _edit_memoir(root: Path) -> None:
    """A person edits one memoir entry: new text, and memoir's `updated` moves on."""
    path = root / EDITED
    text = path.read_text()
    assert OLD in text
    path.write_text(text.replace(OLD, NEW).replace("created: 2026-05-14", "created: 2026-05-14\nupdated: 2026-09-01"))


def _into(runner, pair: str, in_path: Path, existing: Path, *more: str):
    result = runner.invoke(main, [pair, str(in_path), "--into", str(existing), "--json", *more])
    report = json.loads(result.stdout) if result.stdout.strip().startswith("{") else None
    return result, report


def _backups(existing: Path) -> list[Path]:
    return sorted(existing.parent.glob(f"{existing.name}.memconv-backup-*"))


def _memoir_links(root: Path) -> set[str]:
    """The memoir entries of IN, by link."""
    return {r.link for r in dialects.get("memoir").read(root).records}


def _origins(store, dialect: str) -> Counter:
    return Counter((o.dialect, o.link) for r in store.records if (o := converted_from(r, dialect)) is not None)


def _text(store) -> str:
    return "\n".join(f"{r.title}\n{r.body}\n" + "\n".join(r.facts or ()) for r in store.records)


def _import_twice(runner, tmp_path: Path, pair: str, existing: Path, in_path: Path):
    first, report = _into(runner, pair, in_path, existing)
    assert first.exit_code == 0, first.output
    assert report["written"] is True and len(_backups(existing)) == 1
    after_first = tree(existing)
    _edit_memoir(in_path) if pair.startswith("memoir") else None
    second, report = _into(runner, pair, in_path, existing)
    assert second.exit_code == 0, second.output
    assert len(_backups(existing)) == 2, "every import that changes EXISTING backs it up first"
    assert tree(existing) != after_first
    return report


def _no_change_the_third_time(runner, pair: str, in_path: Path, existing: Path) -> None:
    before = tree(existing)
    third, report = _into(runner, pair, in_path, existing)
    assert third.exit_code == 0, third.output
    assert tree(existing) == before and report["written"] is False
    assert {r["status"] for r in report["records"]} == {"unchanged"}
    assert len(_backups(existing)) == 2, "nothing to change: no backup made"


def _memspec_existing(runner, tmp_path: Path) -> Path:
    """A memspec store memspec loads cleanly: its own claude memory converted, plus a claim of its own."""
    existing = tmp_path / "project"
    done = runner.invoke(main, ["claude-to-memspec", str(GOLDEN / "claude" / "canonical" / "input"), str(existing)])
    assert done.exit_code == 0, done.output
    (existing / ".memconv" / "manifest.json").unlink()  # a store the user kept using, not an OUT any more
    own = existing / ".memspec" / "memory" / "decisions" / "ms_01KN49FJ2028KAX7EADGMGE1FN.md"
    own.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOLDEN / "memspec" / "canonical" / "input" / ".memspec" / "memory" / "decisions" / own.name, own)
    return existing


@needs_memspec
def test_memoir_into_memspec_twice_with_an_edit_gives_no_duplicate_claim(runner, tmp_path, store):
    existing = _memspec_existing(runner, tmp_path)
    assert memspec_load(existing).problems == [], "the store memspec loaded cleanly before the imports"
    own_before = {r.link for r in dialects.get("memspec").read(existing).records}
    report = _import_twice(runner, tmp_path, "memoir-to-memspec", existing, store)
    updated = [r for r in report["records"] if r["status"] == "updated"]
    assert len(updated) == 1 and updated[0]["won"] == "IN", report["records"]
    assert "changed in IN since its last import" in updated[0]["why"]
    assert not [r for r in report["records"] if r["status"] in ("added", "conflict")]

    result = dialects.get("memspec").read(existing)
    origins = _origins(result, "memspec")
    memoir = {link for (d, link) in origins if d == "memoir"}
    notes = {p.stem for p in (existing / ".memspec" / ".memconv" / "notes").glob("*.md")}
    assert memoir | notes >= _memoir_links(store), "every memoir entry is in the store, live or as a note"
    assert all(n == 1 for (d, _), n in origins.items() if d == "memoir"), f"an entry imported twice: {origins}"
    assert own_before <= {r.link for r in result.records}, "nothing EXISTING had is lost"
    assert NEW in _text(result) and OLD not in _text(result), "the edit is applied, the old text is gone"

    load = memspec_load(existing)
    assert load.problems == [], load.problems
    assert len(load.items) == len(result.records), "memspec loads every record"
    titles = Counter(i["title"] for i in load.items)
    assert max(titles.values()) == 1, f"a claim twice: {titles}"
    status = memspec(existing, "status")
    said = status.stdout + status.stderr
    assert status.returncode == 0 and "violation" not in said and "Skipped" not in said, said
    _no_change_the_third_time(runner, "memoir-to-memspec", store, existing)


def test_memoir_into_memfmt_twice_with_an_edit_gives_each_entry_once(runner, tmp_path, store):
    existing = _copy(GOLDEN / "memfmt" / "full" / "input", tmp_path / "memfmt")
    own_before = {r.title for r in dialects.get("memfmt").read(existing).records}
    report = _import_twice(runner, tmp_path, "memoir-to-memfmt", existing, store)
    assert [r["won"] for r in report["records"] if r["status"] == "updated"] == ["IN"]
    assert not [r for r in report["records"] if r["status"] in ("added", "conflict")]
    result = dialects.get("memfmt").read(existing)
    origins = _origins(result, "memfmt")
    assert all(n == 1 for n in origins.values()), f"an entry imported twice: {origins}"
    notes = {p.stem for p in (existing / ".memconv" / "notes").glob("*.md")}
    assert {link for _, link in origins} | notes >= _memoir_links(store)
    assert own_before <= {r.title for r in result.records}
    assert NEW in _text(result) and OLD not in _text(result)
    # memfmt validate stamps the profile it rewrites with today: run it as on the profile's own day.
    day = re.search(r"^generated: (\S+)$", (existing / "memory" / "profile.md").read_text(), re.M)[1]
    code, said = memfmt_validate(existing, today=day)
    assert code == 0, said
    _no_change_the_third_time(runner, "memoir-to-memfmt", store, existing)


def test_a_renamed_entry_is_recognised_by_its_carry(runner, tmp_path, store):
    """memfmt names a record by its title: a title edited in IN renames it, and its carry says it is the same."""
    existing = _copy(GOLDEN / "memfmt" / "full" / "input", tmp_path / "memfmt")
    assert _into(runner, "memoir-to-memfmt", store, existing)[0].exit_code == 0
    path = store / EDITED
    path.write_text(path.read_text().replace("name: Staging API endpoints", "name: Staging endpoints (renamed)"))
    result, report = _into(runner, "memoir-to-memfmt", store, existing)
    assert result.exit_code == 0, result.output
    renamed = [r for r in report["records"] if "memconv carry" in (r["why"] or "")]
    assert len(renamed) == 1 and renamed[0]["status"] == "updated" and renamed[0]["won"] == "IN"
    titles = {r.title for r in dialects.get("memfmt").read(existing).records}
    assert "Staging endpoints (renamed)" in titles and "Staging API endpoints" not in titles


def test_claude_into_memoir_twice_with_an_edit_gives_each_memory_once(runner, tmp_path):
    in_path = _copy(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    existing = _copy(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "memoir")
    first, _ = _into(runner, "claude-to-memoir", in_path, existing)
    assert first.exit_code == 0, first.output
    wire = in_path / "project_wire.md"
    wire.write_text(wire.read_text().replace("10% rollout", "50% rollout"))  # Claude Code keeps no dates
    second, report = _into(runner, "claude-to-memoir", in_path, existing)
    assert second.exit_code == 0, second.output
    assert [(r["where"], r["won"]) for r in report["records"] if r["status"] == "updated"] == \
        [("memory/project_wire.md", "IN")]
    result = dialects.get("memoir").read(existing)
    titles = Counter(r.title or r.link for r in result.records)
    assert max(titles.values()) == 1, titles
    assert "50% rollout" in _text(result) and "10% rollout" not in _text(result)
    assert len(result.records) == 10 + 4, "the memoir store's ten entries and the four Claude memories"
    _no_change_the_third_time(runner, "claude-to-memoir", in_path, existing)


@needs_memoir
def test_claude_into_memoir_passes_memoir_validate(runner, tmp_path):
    in_path = _copy(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    existing = _copy(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "memoir")
    assert _into(runner, "claude-to-memoir", in_path, existing)[0].exit_code == 0
    verdict = memoir_validate(existing)
    assert verdict.ok and verdict.checked == 15, verdict.output


@pytest.mark.parametrize("edit_in", ["IN", "EXISTING"])
def test_an_edit_on_one_side_wins_whatever_the_dates(runner, tmp_path, edit_in):
    """The import record (.memconv/imports.json) tells which side changed since the last import of IN."""
    in_path = _copy(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    existing = _copy(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "memoir")
    assert _into(runner, "claude-to-memoir", in_path, existing)[0].exit_code == 0
    assert (existing / ".memconv" / "imports.json").is_file()
    target = in_path / "project_wire.md" if edit_in == "IN" else existing / "memory" / "project_wire.md"
    target.write_text(target.read_text().replace("10% rollout", "75% rollout"))
    result, report = _into(runner, "claude-to-memoir", in_path, existing)
    assert result.exit_code == 0, result.output
    assert "75% rollout" in (existing / "memory" / "project_wire.md").read_text()
    if edit_in == "EXISTING":
        assert report["written"] is False, "IN did not change: EXISTING's own edit stands, nothing to write"


def test_without_the_import_record_two_undated_copies_are_a_conflict_kept_both(runner, tmp_path):
    """No base, no dates: nothing says which side changed, so both are kept (exit 6), never one overwritten."""
    in_path = _copy(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    existing = _copy(GOLDEN / "memoir" / "canonical" / "input", tmp_path / "memoir")
    assert _into(runner, "claude-to-memoir", in_path, existing)[0].exit_code == 0
    (existing / ".memconv" / "imports.json").unlink()
    wire = in_path / "project_wire.md"
    wire.write_text(wire.read_text().replace("10% rollout", "50% rollout"))
    result, report = _into(runner, "claude-to-memoir", in_path, existing)
    assert result.exit_code == 6, result.output
    conflicts = [r for r in report["records"] if r["status"] == "conflict"]
    assert len(conflicts) == 1 and conflicts[0]["conflict_copy"]
    both = _text(dialects.get("memoir").read(existing))
    assert "50% rollout" in both and "10% rollout" in both


def test_without_the_import_record_the_dates_in_the_carries_order_the_copies(runner, tmp_path, store):
    """memspec has no field for memoir's `updated`; the carry has it, and it says IN's copy is newer."""
    existing = _copy(GOLDEN / "memspec" / "canonical" / "input", tmp_path / "memspec")
    assert _into(runner, "memoir-to-memspec", store, existing)[0].exit_code == 0
    (existing / ".memspec" / ".memconv" / "imports.json").unlink()
    _edit_memoir(store)
    result, report = _into(runner, "memoir-to-memspec", store, existing)
    assert result.exit_code == 0, result.output
    updated, = [r for r in report["records"] if r["status"] == "updated" and r["won"] == "IN"]
    assert "newer updated in its carry from memoir (2026-09-01)" in updated["why"]
    assert NEW in _text(dialects.get("memspec").read(existing))


def test_a_later_edit_in_in_never_replaces_the_copy_the_first_import_kept_from_existing(runner, tmp_path):
    """The import record holds what the import left in EXISTING; IN's copy as last imported is the base.

    EXISTING (memspec) already has the Claude memories, dated, The Wire with open questions and aliases IN's copy
    never had; the first import keeps EXISTING's copies (newer: IN's have memspec's placeholder date). An edit
    made in IN afterwards is a change on both sides since that base: the rules decide (here EXISTING's newer
    date), and EXISTING's own text stays. It used to win whole, the open questions only in the backup
    (tests/test_an_edit_in_in_keeps_what_only_existing_had.py).
    """
    existing = tmp_path / "project"
    done = runner.invoke(main, ["claude-to-memspec", str(GOLDEN / "claude" / "mixed-project" / "input"),
                                str(existing)])
    assert done.exit_code == 0, done.output
    in_path = _copy(GOLDEN / "claude" / "canonical" / "input", tmp_path / "claude")
    first, report = _into(runner, "claude-to-memspec", in_path, existing)
    assert first.exit_code == 0, first.output
    wire = in_path / "project_wire.md"
    wire.write_text(wire.read_text().replace("10% rollout", "60% rollout"))
    second, report = _into(runner, "claude-to-memspec", in_path, existing)
    assert second.exit_code == 0, second.output
    assert not [r for r in report["records"] if r["won"] == "IN"], report["records"]
    assert not [r for r in report["records"] if "not in EXISTING" in (r["why"] or "")], report["records"]
    kept = _text(dialects.get("memspec").read(existing))
    assert "Do we autoplay with sound?" in kept and "tiktok" in kept, "EXISTING's own text stays"
    _no_change_the_third_time(runner, "claude-to-memspec", in_path, existing)
