"""A carry in IN may claim anything; a crafted one never stops the rest of the store (issue 9, item 6).

Both cases ended the whole run with exit 4 ("this is a bug in memconv") before
their guards: seen by running each test against the code without them.
"""

from __future__ import annotations

import json
import shutil

import pytest

from memconv import dialects
from memconv.cli import main

from .conftest import GOLDEN


def _claude_store(root, claude_type: str, carry: dict) -> None:
    root.mkdir()
    for n in ("a", "b"):
        text = json.dumps(json.dumps(carry))
        (root / f"{claude_type}_{n}.md").write_text(
            f"---\nname: {n}\ndescription: d {n}\ntype: {claude_type}\nmemconv:\n  carry: {text}\n---\n\nbody {n}\n")
    (root / "MEMORY.md").write_text(f"# Memory Index\n\n- [a]({claude_type}_a.md)\n- [b]({claude_type}_b.md)\n")


def test_two_carries_claiming_one_memspec_id_both_arrive(runner, tmp_path):
    _claude_store(tmp_path / "in", "reference",
                  {"v": 1, "from": "memspec", "fields": {"link": "ms_01KN49FJ2028KAX7EADGMGE1FN"}})
    out = tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memspec", str(tmp_path / "in"), str(out)])
    assert result.exit_code == 0, result.stderr
    records = sorted((out / ".memspec" / "memory" / "facts").glob("ms_*.md"))
    assert len(records) == 2, "neither record is written over the other"
    assert {b"body a", b"body b"} <= {line for p in records for line in p.read_bytes().splitlines()}
    assert "two records claim this memspec id" in result.stderr


def test_two_carries_claiming_one_memoir_link_both_arrive(runner, tmp_path):
    # Both came home under memory/fact_same.md, their own name: the run ended with exit 4, "two outputs collide".
    _claude_store(tmp_path / "in", "reference", {"v": 1, "from": "memoir", "fields": {"link": "fact_same"}})
    out = tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memoir", str(tmp_path / "in"), str(out)])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (out / "memory").glob("*.md")) == ["fact_same-2.md", "fact_same.md"]
    assert "another record is written under that very name" in result.stderr


def test_a_carry_claiming_a_dialect_that_cannot_hold_the_record_is_ignored(runner, tmp_path):
    _claude_store(tmp_path / "in", "project", {"v": 1, "from": "memspec", "fields": {}})
    out = tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memspec", str(tmp_path / "in"), str(out)])
    assert result.exit_code == 0, result.stderr
    assert "its carry says it came from memspec" in result.stderr and "project_a.md" in result.stderr
    texts = b"".join(p.read_bytes() for p in (out / ".memspec").rglob("*.md"))
    assert b"body a" in texts and b"body b" in texts, "both records converted from what the target shows"


def test_the_depth_limit_is_an_option(runner, tmp_path):
    root = tmp_path / "in"
    (root / "memory").mkdir(parents=True)
    nested = "tags: " + "[" * 30 + "x" + "]" * 30 + "\n"
    (root / "memory" / "fact_deep.md").write_text(f"---\ntype: fact\nname: Deep\ndescription: d\n{nested}---\n\nb\n")
    (root / "memory" / "fact_flat.md").write_text("---\ntype: fact\nname: Flat\ndescription: d\n---\n\nb\n")
    result = runner.invoke(main, ["memoir-to-memfmt", "--max-depth", "10", "--json", str(root), str(tmp_path / "o")])
    assert result.exit_code == 3, result.stderr
    assert [q["path"] for q in json.loads(result.stdout)["quarantined"]] == ["memory/fact_deep.md"]
    # Every run starts from the default bounds: the option of one run does not leak into the next.
    again = runner.invoke(main, ["memoir-to-memfmt", str(root), str(tmp_path / "p")])
    assert again.exit_code == 0, "the default depth (100) reads it"


def _carried(path, change) -> None:
    """``path``'s carry (a memoir entry's ``memconv`` key, one line of JSON in a JSON string) changed by ``change``."""
    lines = path.read_text().split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("memconv: "))
    doc = json.loads(json.loads(lines[at][len("memconv: "):]))
    change(doc)
    lines[at] = "memconv: " + json.dumps(json.dumps(doc))
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("name, value", [("source_kind", "bogus"), ("verified_with", "hearsay")])
def test_a_carried_value_memspec_refuses_never_stops_the_way_home(runner, tmp_path, name, value):
    # memspec → memoir → memspec with a value memspec's reader refuses in the carry: the record came home from
    # it, was refused on read-back with no file of IN left to quarantine, and the run ended with exit 4 ("bug").
    assert runner.invoke(main, ["memspec-to-memoir", str(GOLDEN / "memspec/canonical/input"),
                                str(tmp_path / "memoir")]).exit_code == 0
    entry = tmp_path / "memoir" / "memory" / "fact_nobody-sets-core-autocrlf.md"
    _carried(entry, lambda doc: doc["fields"].__setitem__(name, value))
    out = tmp_path / "back"
    result = runner.invoke(main, ["memoir-to-memspec", str(tmp_path / "memoir"), str(out)])
    assert result.exit_code == 0, result.stderr
    assert f"memory/fact_nobody-sets-core-autocrlf.md: the carried {name} '{value}' is not one memspec takes" \
        in result.stderr
    back = dialects.get("memspec").read(out)
    assert back.quarantined == [] and len(back.records) == 4
    assert any("Line endings are the repository's business." in r.body for r in back.records), "converted as it stands"
    assert value.encode() not in b"".join(p.read_bytes() for p in out.rglob("*.md"))


@pytest.mark.parametrize("link", ["MEMORY", "sub/x"])
def test_a_carried_link_memoir_does_not_read_is_refused(runner, tmp_path, link):
    # claude → memoir with a crafted carry naming a memoir link: memoir wrote memory/MEMORY.md (its index's name)
    # or memory/sub/x.md (a folder its reader does not read), a record its own reader then did not see.
    root = tmp_path / "in"
    root.mkdir()
    carry = json.dumps(json.dumps({"v": 1, "from": "memoir", "fields": {"link": link}}))
    (root / "reference_a.md").write_text(
        f"---\nname: a\ndescription: d\ntype: reference\nmemconv:\n  carry: {carry}\n---\n\nbody a\n")
    (root / "MEMORY.md").write_text("# Memory Index\n\n- [a](reference_a.md)\n")
    out = tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memoir", str(root), str(out)])
    assert result.exit_code == 0, result.stderr
    assert f"reference_a.md: the carried link '{link}' is not a name memoir reads a record by" in result.stderr
    assert sorted(p.relative_to(out).as_posix() for p in (out / "memory").rglob("*")) == ["memory/fact_a.md"]
    assert [r.body for r in dialects.get("memoir").read(out).records] == ["body a\n"]


@pytest.mark.parametrize("line", ["memfmt_type: bogus", "id: [1]", "happened: [1]", '"---": x'])
def test_an_unknown_key_memfmt_owns_is_carried_not_written_over_its_own(runner, tmp_path, line):
    # memfmt's writer let an unknown key of a record from another dialect take the place of its own key: the file
    # became another kind, one memfmt refuses, or (``---``) one whose frontmatter ended early. The record was lost
    # on read-back: exit 4 ("bug"), with no file of IN quarantined.
    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir/canonical/input", root)
    entry = f"---\ntype: decision\nname: Dec\ndescription: d\ndate: 2026-01-01\n{line}\n---\n\nbody\n"
    (root / "memory" / "decision_x.md").write_text(entry)
    result = runner.invoke(main, ["memoir-to-memfmt", str(root), str(tmp_path / "memfmt")])
    assert result.exit_code == 0, result.stderr
    assert "Dec" in [r.title for r in dialects.get("memfmt").read(tmp_path / "memfmt").records]
    back = runner.invoke(main, ["memfmt-to-memoir", str(tmp_path / "memfmt"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.stderr
    assert (tmp_path / "back" / "memory" / "decision_x.md").read_text() == entry, "the key came home in its carry"


def test_a_carried_unknown_key_memfmt_owns_never_stops_the_store(runner, tmp_path):
    # The same key brought by a carry (memspec → memoir, the carry given extra.memfmt_type): exit 4 before.
    assert runner.invoke(main, ["memspec-to-memoir", str(GOLDEN / "memspec/canonical/input"),
                                str(tmp_path / "memoir")]).exit_code == 0
    entry = tmp_path / "memoir" / "memory" / "fact_nobody-sets-core-autocrlf.md"
    _carried(entry, lambda doc: doc["fields"].__setitem__("extra.memfmt_type", ["bogus"]))
    result = runner.invoke(main, ["memoir-to-memfmt", str(tmp_path / "memoir"), str(tmp_path / "memfmt")])
    assert result.exit_code == 0, result.stderr
    assert len(dialects.get("memfmt").read(tmp_path / "memfmt").records) == 4


def test_a_carried_format_naming_another_records_file_never_stops_the_store(runner, tmp_path):
    # A carry's format patch names the file another record comes home to (a hidden decision, home from its note):
    # both records were written to memory/decision_client-name.md and the run ended with exit 4 ("two outputs
    # collide"); then the other was numbered, with a warning that did not say which carry claimed its name. The
    # patch is refused now, and the warning names both (restore._claimed).
    golden = GOLDEN / "memoir/canonical/input"
    assert runner.invoke(main, ["memoir-to-claude", str(golden), str(tmp_path / "claude")]).exit_code == 0
    entry = tmp_path / "claude" / "reference_staging-endpoints.md"
    carry = {"v": 1, "from": "memoir", "fields": {},
             "format": {"path": "memory/decision_client-name.md",
                        "raw": (golden / "memory" / "fact_staging-endpoints.md").read_text()}}
    entry.write_text(entry.read_text().replace("---\n", "---\nmemconv:\n  carry: " + json.dumps(json.dumps(carry))
                                               + "\n", 1))
    out = tmp_path / "back"
    result = runner.invoke(main, ["claude-to-memoir", str(tmp_path / "claude"), str(out)])
    assert result.exit_code == 0, result.stderr
    assert "fact_staging-endpoints: its carried format patch names memory/decision_client-name.md, the file of " \
           "another record (decision_client-name); ignored" in result.stderr
    assert (out / "memory" / "decision_client-name.md").read_bytes() == \
        (golden / "memory" / "decision_client-name.md").read_bytes(), "the record whose file it is keeps it"
    assert not (out / "memory" / "decision_client-name-2.md").exists()
    assert b"staging.api.example.com" in (out / "memory" / "fact_staging-endpoints.md").read_bytes()


def _claims_another_file(path, claimed: str, raw: str) -> None:
    """``path``'s carry given a format patch naming ``claimed``, another record's file, with ``raw`` for it."""
    _carried(path, lambda doc: doc.__setitem__("format", {"path": claimed, "raw": raw}))


@pytest.mark.parametrize("home, golden, away, entry, claimed, other", [
    # memfmt home again: Ali's carry in memoir claims Kenji's file. Ali was written as Kenji.md and Kenji as
    # Kenji (2).md, with no warning (memfmt numbers a name taken as its own writer does).
    ("memfmt", "memfmt/full/input", "memoir", "memory/fact_ali.md", "memory/entities/Kenji.md",
     "memory/entities/Ali.md"),
    # memoir home again: a memfmt entity's carry claims a memoir decision's file.
    ("memoir", "memoir/canonical/input", "memfmt", "memory/entities/Staging API endpoints.md",
     "memory/decision_client-name.md", "memory/fact_staging-endpoints.md"),
])
def test_a_carried_format_claiming_another_records_file_is_refused_and_said(runner, tmp_path, home, golden, away,
                                                                             entry, claimed, other):
    # Broken once (restore._claimed finding nothing): memfmt wrote Kenji (2).md and said nothing; memoir numbered
    # decision_client-name-2.md with a warning naming neither the claimer nor its carry.
    golden = GOLDEN / golden
    there = tmp_path / away
    assert runner.invoke(main, [f"{home}-to-{away}", str(golden), str(there)]).exit_code == 0
    _claims_another_file(there / entry, claimed, (golden / other).read_text())
    result = runner.invoke(main, [f"{away}-to-{home}", "--json", str(there), str(tmp_path / "back")])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    said = [w for w in report["warnings"] if "its carried format patch names" in w]
    assert len(said) == 1 and claimed in said[0] and "the file of another record" in said[0], report["warnings"]
    assert [n["kind"] for n in report["notices"] if n["message"] == said[0]] == ["carry-ignored"]
    files = {p.relative_to(tmp_path / "back").as_posix(): p.read_bytes()
             for p in (tmp_path / "back").rglob("*") if p.is_file() and ".memconv" not in p.parts}
    assert files == {p.relative_to(golden).as_posix(): p.read_bytes() for p in golden.rglob("*") if p.is_file()}, \
        "the output is the store as it was: every record at its own name, none numbered"


def _memspec_through_memoir(runner, tmp_path):
    """The memspec golden store with every field, converted into memoir: its entries carry memspec's edges."""
    store = tmp_path / "memoir"
    result = runner.invoke(main, ["memspec-to-memoir", str(GOLDEN / "memspec" / "current-every-field" / "input"),
                                  str(store)])
    assert result.exit_code == 0, result.stderr
    return store


def _craft_edges(path, edit) -> None:
    """``edit`` applied to the edges of the memconv carry (or the noted record) on ``path``'s ``memconv:`` line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith("memconv: "))
    doc = json.loads(json.loads(lines[i][len("memconv: "):]))
    edges = (doc.get("record") or doc["fields"])["edges"]
    assert any(e["type"] == "conflicts_with" for e in edges) or "record" in doc
    edit(edges)
    lines[i] = "memconv: " + json.dumps(json.dumps(doc))
    path.write_text("\n".join(lines), encoding="utf-8")


def _retyped(edges) -> None:
    next(e for e in edges if e["type"] == "conflicts_with")["type"] = "conflicts_wth"


def _turned_in(edges) -> None:
    edges[-1]["direction"] = "in"


@pytest.mark.parametrize("edit", [_retyped, _turned_in], ids=["unknown-type", "incoming"])
def test_a_carried_edge_the_owner_has_no_word_for_is_refused(runner, tmp_path, edit):
    # Both stopped the run with exit 4 ("which memspec has no edge for") when memspec's writer met the edge: found by
    # fuzzing the carries of converted stores. Seen failing with carry_checks.check_edges left out.
    store = _memspec_through_memoir(runner, tmp_path)
    crafted = store / "memory" / "fact_auth-uses-short-lived-jwts-with-refresh-tokens.md"
    _craft_edges(crafted, edit)
    out = tmp_path / "out"
    result = runner.invoke(main, ["memoir-to-memspec", str(store), str(out)])
    assert result.exit_code == 0, result.stderr
    assert "which memspec has no word for; the carry is ignored" in result.stderr
    texts = b"".join(p.read_bytes() for p in (out / ".memspec").rglob("*.md"))
    assert b"Access tokens live 15 minutes" in texts, "the record converted from what the target shows"


def test_a_noted_record_with_an_edge_the_owner_has_no_word_for_is_refused(runner, tmp_path):
    store = _memspec_through_memoir(runner, tmp_path)
    note = store / ".memconv" / "notes" / "ms_01KNEK2E20K04CYB1EYW0J0B6X.md"
    _craft_edges(note, _turned_in)
    out = tmp_path / "out"
    result = runner.invoke(main, ["memoir-to-memspec", str(store), str(out)])
    assert result.exit_code == 0, result.stderr
    assert "which memspec has no word for" in result.stderr and note.name in result.stderr
