"""memspec and memfmt merge rules, one behaviour each, and the target's own tool on the result."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from memconv import dialects
from memconv.merge import merge
from memconv.merge.memspec import KEPT_SUCCESSORS
from memconv.model import Edge, Lifecycle, Store, clone

from .conftest import GOLDEN, tree, write_files

MEMSPEC = GOLDEN / "memspec" / "current-every-field" / "input"
MEMFMT = GOLDEN / "memfmt" / "full" / "input"


def _side(dialect: str, base: Path, root: Path, edit) -> Store:
    store = dialects.get(dialect).read(base)
    store.records = [r for r in (edit(clone(r, keep_source=True)) for r in store.records) if r is not None]
    write_files(root, dialects.get(dialect).write(store))
    return dialects.get(dialect).read(root)


def _memspec(tmp_path, edit_a, edit_b):
    a = _side("memspec", MEMSPEC, tmp_path / "a", edit_a)
    b = _side("memspec", MEMSPEC, tmp_path / "b", edit_b)
    result = merge(a, b)
    assert result.files == merge(b, a).files
    write_files(tmp_path / "out", result.files)
    return result, {r.link: r for r in dialects.get("memspec").read(tmp_path / "out").records}


FACT = "ms_01KN49FJ20XS6Y1EYPJ9ZTW94H"
OTHER = "ms_01KNPA8K20A89R76HW86EQNMC0"


def test_memspec_ext_is_merged_key_by_key_and_the_newer_value_wins(tmp_path):
    def edit(keys, when):
        def apply(r):
            if r.link == FACT:
                r.ext = {**(r.ext or {}), **keys}
                r.last_verified = when
            return r
        return apply

    result, out = _memspec(tmp_path, edit({"only_a": 1, "shared": "old"}, "2026-05-01T00:00:00.000Z"),
                           edit({"only_b": 2, "shared": "new"}, "2026-06-01T00:00:00.000Z"))
    ext = out[FACT].ext
    assert ext["only_a"] == 1 and ext["only_b"] == 2 and ext["shared"] == "new"
    line = next(o for o in result.outcomes if o.identity == FACT)
    assert line.status == "updated" and line.won == "B" and 'ext.shared: kept "new", not "old"' in line.why


def retired_here_edited_there(link: str):
    """The edits of a merge's two sides: ``link`` retired in A, and edited later in B."""
    def retire(r):
        if r.link == link:
            r.lifecycle = Lifecycle("retired", None, None)
        return r

    def newer(r):
        if r.link == link:
            r.last_verified = "2027-01-01T00:00:00.000Z"
            r.body = "edited later\n"
        return r

    return retire, newer


def test_memspec_state_is_monotone_whatever_the_dates(tmp_path):
    result, out = _memspec(tmp_path, *retired_here_edited_there(OTHER))
    assert out[OTHER].lifecycle.state == "retired" and out[OTHER].body == "edited later\n"
    line = next(o for o in result.outcomes if o.identity == OTHER)
    assert line.won == "B" and "retired kept from the other copy" in line.why


def test_memspec_supersession_cycle_is_cut_and_chains_agree(tmp_path):
    def supersede(old, new):
        def apply(r):
            if r.link == old:
                r.lifecycle = Lifecycle("superseded", None, "replaced")
                r.edges = [e for e in r.edges if e.type not in ("superseded_by", "supersedes")] \
                    + [Edge("superseded_by", new)]
            return r
        return apply

    result, out = _memspec(tmp_path, supersede(FACT, OTHER), supersede(OTHER, FACT))
    assert out[FACT].lifecycle.state == out[OTHER].lifecycle.state == "superseded"  # monotone
    successors = {k: next((e.target for e in r.edges if e.type == "superseded_by"), None) for k, r in out.items()}
    # No cycle: following superseded_by ends.
    for start in successors:
        seen, at = set(), start
        while at is not None and at in successors:
            assert at not in seen, f"cycle through {at}"
            seen.add(at)
            at = successors[at]
    cut = [r for r in out.values() if KEPT_SUCCESSORS in (r.ext or {})]
    assert len(cut) == 1  # the cut link is kept, not dropped
    for ident, target in successors.items():
        if target in out:
            assert any(e.type == "supersedes" and e.target == ident for e in out[target].edges)


def _text(body):
    def apply(r):
        if r.link == FACT:
            r.body = body
        return r
    return apply


def test_memspec_conflict_copy_is_a_valid_record_with_a_new_id(tmp_path):
    result, out = _memspec(tmp_path, _text("words of A\n"), _text("words of B\n"))
    line = next(o for o in result.outcomes if o.identity == FACT)
    assert line.status == "conflict"
    assert line.conflict_copy in result.files  # reported by its path
    copy = out[line.conflict_copy.rsplit("/", 1)[-1][:-3]]
    assert re.match(r"^ms_[0-9A-Z]{26}$", copy.link) and copy.link != FACT
    assert {out[FACT].body, copy.body} == {"words of A\n", "words of B\n"}
    assert any(e.type == "conflicts_with" and e.target == FACT for e in copy.edges)
    assert copy.ext["conflict_copy_of"]["id"] == FACT


@pytest.mark.skipif(not os.environ.get("MEMSPEC_DIST") or not shutil.which("node"),
                    reason="memspec CLI not available (source /tmp/reftools.env)")
def test_memspec_cli_loads_the_merged_store_with_no_new_warning(tmp_path):
    (tmp_path / "home").mkdir()  # HOME for the tool, removed with the test
    result, out = _memspec(tmp_path, _text("words of A\n"), _text("words of B\n"))

    def skipped(folder: Path) -> set[str]:
        done = subprocess.run(["node", os.path.join(os.environ["MEMSPEC_DIST"], "cli.js"), "status"], cwd=folder,
                              capture_output=True, text=True, env=dict(os.environ, HOME=str(tmp_path / "home")),
                              timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return {Path(line.strip()).name for line in done.stdout.split("Skipped", 1)[-1].splitlines()[1:]
                if line.strip().endswith(".md")} if "Skipped" in done.stdout else set()

    copy = next(o.conflict_copy for o in result.outcomes if o.status == "conflict")
    assert skipped(tmp_path / "out") <= skipped(tmp_path / "a") | skipped(tmp_path / "b")
    assert copy.rsplit("/", 1)[-1] not in skipped(tmp_path / "out")


# --- memfmt ------------------------------------------------------------------------------


def _memfmt(tmp_path, edit_a, edit_b):
    a = _side("memfmt", MEMFMT, tmp_path / "a", edit_a)
    b = _side("memfmt", MEMFMT, tmp_path / "b", edit_b)
    result = merge(a, b)
    assert result.files == merge(b, a).files
    write_files(tmp_path / "out", result.files)
    return result, a, b, dialects.get("memfmt").read(tmp_path / "out")


def test_memfmt_facts_union_in_order_and_counters_take_the_larger(tmp_path):
    def edit(fact, successes):
        def apply(r):
            if r.title == "Ali":
                r.facts = [*r.facts, fact]
            if r.kind == "procedure" and r.title == "rotate keys":
                r.successes = successes
            return r
        return apply

    result, a, b, out = _memfmt(tmp_path, edit("runs marathons", 5), edit("likes tea", 2))
    ali = next(r for r in out.records if r.title == "Ali")
    base = next(r for r in a.records if r.title == "Ali").facts[:-1]
    assert ali.facts[:len(base)] == base and set(ali.facts[len(base):]) == {"runs marathons", "likes tea"}
    rotate = next(r for r in out.records if r.title == "rotate keys")
    assert rotate.successes == 5  # the larger tally, not 7: both copies counted the runs before they diverged
    again = merge(a, a)
    assert again.files == {p: d for p, d in tree(tmp_path / "a").items()}


def test_memfmt_conflict_copy_passes_memfmt_validate(tmp_path):
    from .memfmt_oracle import validate

    def text(words):
        def apply(r):
            if r.kind == "episode" and r.title == "an undated conversation":
                r.body = words
            return r
        return apply

    result, a, b, out = _memfmt(tmp_path, text("Over lunch, in A.\n"), text("Over lunch, in B.\n"))
    line = next(o for o in result.outcomes if o.status == "conflict")
    assert line.conflict_copy in result.files and "conflict copy" in line.conflict_copy
    bodies = {r.body.strip() for r in out.records if r.kind == "episode" and "undated" in (r.title or "")}
    assert {"Over lunch, in A.", "Over lunch, in B."} <= bodies
    status, printed = validate(tmp_path / "out" / "memory", today=out.meta.get("generated"))
    assert status == 0, printed


def test_memspec_stores_given_two_ways_are_refused_with_exit_2(runner, tmp_path):
    from memconv.cli import main

    base = GOLDEN / "memspec" / "canonical" / "input"
    result = runner.invoke(main, ["merge", "--from", "memspec", str(base), str(base / ".memspec"),
                                  str(tmp_path / "out")])
    assert result.exit_code == 2 and "give both stores the same way" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("dialect", ["memspec", "memfmt", "claude"])
def test_cli_reports_every_record_as_json_and_exits_6_on_a_conflict(runner, tmp_path, dialect):
    import json

    from memconv.cli import main

    base = {"memspec": MEMSPEC, "memfmt": MEMFMT, "claude": GOLDEN / "claude" / "canonical" / "input"}[dialect]
    a = _side(dialect, base, tmp_path / "a", lambda r: r)
    target = next(r.link for r in a.records if r.kind == "episode" or dialect != "memfmt")

    def edit(r):
        if r.link == target:
            r.body = "changed on B only, same dates\n"
        return r

    _side(dialect, base, tmp_path / "b", edit)
    dry = runner.invoke(main, ["merge", "--dry-run", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out")])
    assert dry.exit_code == 6 and not (tmp_path / "out").exists(), dry.output
    result = runner.invoke(main, ["merge", "--json", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out")])
    assert result.exit_code == 6
    report = json.loads(result.stdout)
    assert report["source_dialect"] == dialect
    statuses = {r["status"] for r in report["records"]}
    assert "conflict" in statuses and "unchanged" in statuses
    conflict = next(r for r in report["records"] if r["status"] == "conflict")
    assert conflict["conflict_copy"] in tree(tmp_path / "out") and conflict["won"] in ("A", "B")
