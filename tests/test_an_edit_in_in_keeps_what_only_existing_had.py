"""An edit made in IN after an import never replaces what only EXISTING's copy of the record held.

``--into`` keeps, per IN, the digest of each record as IN brought it (``in``) and as the import left it in
EXISTING (``out``, in ``.memconv/imports.json``). Where the import left something other than IN's copy (EXISTING's
copy won, or the two were combined), EXISTING's copy held text IN never had. Before the fix the next import, IN's
copy edited and EXISTING's as the import left it, took IN's copy whole as "changed in IN since its last import, not
in EXISTING", exit 0: EXISTING's own facts, paragraphs and dates were only in the backup. The base of a three-way
choice is IN's copy as last imported; EXISTING's copy that is not it has changed too, so the dialect's rules decide
(a merge, or a conflict with both kept), as for any record changed on both sides.
"""

from __future__ import annotations

import memfmt

from memconv.cli import main

HEAD = "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n"
LOOSE = "Ali asks to be copied on every deploy, a paragraph only EXISTING has."
ENTITY = "memory/entities/Ali.md"


def _entity(root, facts, loose=None):
    (root / "memory" / "entities").mkdir(parents=True, exist_ok=True)
    text = HEAD + "".join(f"- {f}\n" for f in facts) + (f"\n{loose}\n" if loose else "")
    (root / ENTITY).write_text(text, encoding="utf-8")


def _add_fact(root, fact):
    with (root / ENTITY).open("a", encoding="utf-8") as f:
        f.write(f"- {fact}\n")


def _facts(store) -> list[str]:
    return [f for e in memfmt.load(str(store / "memory")).entities for f in e.facts]


def _import(runner, pair, src, existing):
    done = runner.invoke(main, [*pair, "-v", str(src), "--into", str(existing)])
    return done.exit_code, done.stderr


def _memfmt(runner, src, existing):
    return _import(runner, ["convert", "--from", "memfmt", "--to", "memfmt"], src, existing)


def test_a_fact_and_a_paragraph_existing_had_before_the_first_import_stay(runner, tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    _entity(existing, ["likes tea", "runs marathons"], LOOSE)
    _entity(src, ["likes tea"])
    assert _memfmt(runner, src, existing)[0] == 0  # EXISTING's copy already holds IN's: it stays
    _add_fact(src, "lives in Lisbon")
    code, said = _memfmt(runner, src, existing)
    # Watched fail before the fix: exit 0, "IN won; changed in IN since its last import, not in EXISTING",
    # and the file held IN's two facts only.
    assert code == 0, said
    facts = _facts(existing)
    assert {"likes tea", "runs marathons", "lives in Lisbon"} <= set(facts), facts
    assert LOOSE in (existing / ENTITY).read_text(encoding="utf-8")
    assert "not in EXISTING" not in said


def test_a_fact_added_in_existing_after_an_import_stays(runner, tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    _entity(existing, ["likes tea"])
    _entity(src, ["likes tea"])
    assert _memfmt(runner, src, existing)[0] == 0
    _add_fact(existing, "runs marathons")
    _add_fact(src, "lives in Lisbon")
    assert _memfmt(runner, src, existing)[0] == 0  # changed on both sides: the facts are combined
    assert {"runs marathons", "lives in Lisbon"} <= set(_facts(existing))
    _add_fact(src, "speaks Portuguese")
    code, said = _memfmt(runner, src, existing)
    assert code == 0, said
    # Watched fail before the fix: "runs marathons", EXISTING's own, was gone.
    assert {"likes tea", "runs marathons", "lives in Lisbon", "speaks Portuguese"} <= set(_facts(existing))
    code, said = _memfmt(runner, src, existing)
    assert code == 0 and "records: 0 added, 0 updated" in said, said  # nothing new: nothing changes


def test_a_claude_memory_keeps_its_own_paragraph_when_in_edits_its_copy(runner, tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    (src / "memory").mkdir(parents=True)
    existing.mkdir()
    entry = src / "memory" / "preference_commit-style.md"
    entry.write_text("---\ntype: preference\nname: Commit style\ndescription: imperative mood\nscope: global\n"
                     "created: 2026-04-02\n---\n\nUse imperative mood.\n", encoding="utf-8")
    (existing / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Commit style](user_commit-style.md)"
                                        " — imperative mood\n", encoding="utf-8")
    own = existing / "user_commit-style.md"
    own.write_text("---\nname: Commit style\ndescription: imperative mood\ntype: user\nupdated: 2026-06-01\n---\n\n"
                   "Use imperative mood.\n\nSign off every commit, said only here.\n", encoding="utf-8")
    assert _import(runner, ["memoir-to-claude"], src, existing)[0] == 0  # EXISTING's is newer: it stays
    entry.write_text(entry.read_text().replace("imperative mood.", "imperative mood, under 50 characters."))
    code, said = _import(runner, ["memoir-to-claude"], src, existing)
    assert code in (0, 6), said
    # Watched fail before the fix: exit 0, IN's copy in place of EXISTING's, its paragraph only in the backup.
    assert "Sign off every commit, said only here." in own.read_text(encoding="utf-8")
    assert "not in EXISTING" not in said
