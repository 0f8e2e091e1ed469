"""A knowledge note's words, a relation's detail or an evolution line's reason edited in one copy of a memfmt store
survives a merge with the other copy.

memfmt records carry no date the library moves, so two copies edited with memfmt's library tie. The merge unions an
entity's knowledge by kind and title, its relations by verb, target and direction, and a procedure's evolution by
its two versions: of two items with one key the winner's was kept and the other's words were gone, exit 0, "same
content: kept the canonical choice" (found by a hunt on 2026-12-07, forty-fifth session). Which copy won depended on
which file's bytes sorted last, so an edit was lost or kept by the letters it began with. Now two such items that
say different things are both kept, as two different facts are.
"""

from __future__ import annotations

import json

import memfmt
from memfmt import Entity, Knowledge, Memory, Procedure, Relation, Revision, Step

from memconv.cli import main

from .conftest import tree

NOTE = "systemctl restart billing; never kill -9"  # sorts before the original: the unedited copy won
DETAIL = "main store (was: primary store)"
REASON = "added the build step after the May outage"


def _stores(tmp_path):
    base = Memory(
        entities=[Entity("Billing API", "service", facts=["Runs on port 8080"],
                         relations=[Relation("depends on", "Postgres", detail="primary store")],
                         knowledge=[Knowledge("note", "Restart", "use systemctl restart billing")]),
                  Entity("Postgres", "database", facts=["Version 15"])],
        procedures=[Procedure("Deploy billing", version=2, success_count=3, fail_count=1,
                              steps=[Step("build", "run make build"), Step("ship", "run make deploy", 3, 1)],
                              evolution=[Revision(1, 2, "added the build step", "2026-10-01", 2, 1)])])
    memfmt.write_dir(memfmt.serialise(base, generated="2026-12-01"), str(tmp_path / "base"))
    a, b = memfmt.load(str(tmp_path / "base")), memfmt.load(str(tmp_path / "base"))
    a.entities[0].knowledge[0].content = NOTE
    a.entities[0].relations[0].detail = DETAIL
    a.procedures[0].evolution[0].reason = REASON
    b.entities[1].facts.append("Hosted on db-1")
    for name, memory in (("a", a), ("b", b)):
        memfmt.write_dir(memfmt.serialise(memory, generated="2026-12-01"), str(tmp_path / name))
    return tmp_path / "a", tmp_path / "b"


def test_an_edit_on_one_side_is_in_the_merged_store_whichever_copy_wins(runner, tmp_path):
    a, b = _stores(tmp_path)
    out = tmp_path / "out"
    done = runner.invoke(main, ["merge", "--json", str(a), str(b), str(out)])
    assert done.exit_code == 0, done.stderr
    merged = memfmt.load(str(out / "memory"))
    api = next(e for e in merged.entities if e.name == "Billing API")
    # Watched fail before the fix: the edited note, detail and reason were in no file of OUT.
    assert NOTE in [k.content for k in api.knowledge]
    assert DETAIL in [r.detail for r in api.relations]
    assert REASON in [r.reason for r in merged.procedures[0].evolution]
    assert "Hosted on db-1" in next(e for e in merged.entities if e.name == "Postgres").facts
    # The report says the other copy's items were taken in, not "kept the canonical choice".
    why = {r["where"]: r["why"] for r in json.loads(done.stdout)["records"]}
    assert "from the other copy" in why["memory/entities/Billing API.md"], why
    # memfmt's own writer gives OUT's files back byte for byte.
    files = memfmt.serialise(merged, generated="2026-12-01")
    assert {p: t.encode() for p, t in files.items()
            if not p.endswith("MEMORY.md")}.items() <= tree(out).items()


def test_the_merge_is_the_same_either_way_round_and_a_fixed_point(runner, tmp_path):
    a, b = _stores(tmp_path)
    for args, name in (([a, b], "ab"), ([b, a], "ba")):
        done = runner.invoke(main, ["merge", *map(str, args), str(tmp_path / name)])
        assert done.exit_code == 0, done.stderr
    assert tree(tmp_path / "ab") == tree(tmp_path / "ba")
    for side in (a, b, tmp_path / "ab"):
        again = runner.invoke(main, ["merge", str(tmp_path / "ab"), str(side), str(tmp_path / f"again-{side.name}")])
        assert again.exit_code == 0, again.stderr
        assert tree(tmp_path / f"again-{side.name}") == tree(tmp_path / "ab")
