"""A memfmt record the merge writes anew keeps the text its file held outside the format.

A paragraph after an entity's facts (no ``- ``) is text memfmt does not read; a plain conversion keeps the file's bytes,
so it keeps the paragraph. A merge, or an import (``--into``), that combined the entity's facts with the other copy's
wrote the record anew from what memfmt reads: the paragraph was gone, the report said it was "kept as it is unless
the record is edited" and counted nothing dropped (found by a hunt on 2026-12-07). A conflict copy, written anew
under its new name, lost its paragraph so too. The text now lands in the record's facts, labelled, where memfmt's
own tool shows and searches it.
"""

from __future__ import annotations

import json

import memfmt

from memconv.cli import main

from .conftest import tree

HEAD = "---\nmemfmt_type: entity\nentity_type: {kind}\n---\n\n# Ali\n\n## Facts\n\n"
LOOSE = "Ali asks to be copied on every deploy, written without its dash."
OTHER = "Ali reads the changelog on Fridays, also without a dash."


def _store(root, facts, loose=None, kind="person"):
    (root / "memory" / "entities").mkdir(parents=True)
    text = HEAD.format(kind=kind) + "".join(f"- {f}\n" for f in facts) + (f"\n{loose}\n" if loose else "")
    (root / "memory" / "entities" / "Ali.md").write_text(text, encoding="utf-8")
    return root


def _facts(store) -> list[str]:
    return [f for e in memfmt.load(str(store / "memory")).entities for f in e.facts]


def test_a_merge_that_combines_facts_keeps_the_paragraph_where_memfmt_reads_it(runner, tmp_path):
    a = _store(tmp_path / "a", ["likes tea", "runs marathons"], LOOSE)
    b = _store(tmp_path / "b", ["likes tea", "lives in Lisbon"])
    done = runner.invoke(main, ["merge", "--json", str(a), str(b), str(tmp_path / "out")])
    assert done.exit_code == 0, done.stderr
    # Watched fail before the fix: the facts combined, the paragraph in no file of OUT, "dropped": 0.
    facts = _facts(tmp_path / "out")
    assert {"likes tea", "runs marathons", "lives in Lisbon"} <= set(facts)
    assert any(LOOSE in f for f in facts), facts
    report = json.loads(done.stdout)
    assert report["counts"]["dropped"] == 0
    assert any("outside the format" in r["why"] for r in report["records"]), report["records"]
    # The same bytes whichever store is named first, and merging the result again with A changes nothing.
    again = runner.invoke(main, ["merge", str(b), str(a), str(tmp_path / "ba")])
    assert again.exit_code == 0, again.stderr
    assert tree(tmp_path / "ba") == tree(tmp_path / "out")
    twice = runner.invoke(main, ["merge", str(tmp_path / "out"), str(a), str(tmp_path / "twice")])
    assert twice.exit_code == 0, twice.stderr
    assert tree(tmp_path / "twice") == tree(tmp_path / "out")


def test_the_other_copys_paragraph_is_kept_too(runner, tmp_path):
    # B's facts hold all of A's: before, B's bytes were kept and A's paragraph went with A's file.
    a = _store(tmp_path / "a", ["likes tea"], LOOSE)
    b = _store(tmp_path / "b", ["likes tea", "lives in Lisbon"])
    done = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert done.exit_code == 0, done.stderr
    assert any(LOOSE in f for f in _facts(tmp_path / "out"))


def test_an_import_into_existing_keeps_the_paragraph(runner, tmp_path):
    existing = _store(tmp_path / "existing", ["likes tea", "runs marathons"], LOOSE)
    incoming = _store(tmp_path / "in", ["likes tea", "lives in Lisbon"])
    done = runner.invoke(main, ["convert", "--from", "memfmt", "--to", "memfmt", str(incoming),
                                "--into", str(existing)])
    assert done.exit_code == 0, done.stderr
    facts = _facts(existing)
    assert "lives in Lisbon" in facts
    assert any(LOOSE in f for f in facts), facts


def test_a_conflict_copy_keeps_its_paragraph(runner, tmp_path):
    a = _store(tmp_path / "a", ["likes tea"], LOOSE, kind="person")
    b = _store(tmp_path / "b", ["likes tea"], OTHER, kind="colleague")
    done = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert done.exit_code == 6, done.stderr  # a conflict: both copies kept
    facts = _facts(tmp_path / "out")
    written = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").rglob("*.md"))
    assert LOOSE in written and OTHER in written
    # The copy written anew has its paragraph in its facts; the one kept as its bytes, as written.
    assert any(LOOSE in f or OTHER in f for f in facts), facts
