"""Bad memfmt input: refused with a reason naming the file, never guessed at, never written outside OUT."""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest
from click.testing import CliRunner

from memconv.cli import main
from memconv.dialects import memfmt as dialect
from memconv.fs import write_tree
from memconv.model import Record, Store
from memconv.report import EXIT_QUARANTINED

from .memfmt_oracle import validate

GOOD = "---\nmemfmt_type: entity\n---\n\n# Ali\n"


def _store(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "in"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("line, problem", [
    ("version: two", "procedure version is 'two', not a whole number"),
    ("success_count: many", "procedure success_count is 'many', not a whole number"),
    ("fail_count: 1.5", "procedure fail_count is '1.5', not a whole number"),
])
def test_a_procedure_number_that_is_not_a_number_is_quarantined_naming_the_file(tmp_path, line, problem):
    text = f"---\nmemfmt_type: procedure\n{line}\n---\n\n# deploy (v1 · untested)\n"
    root = _store(tmp_path, {"memory/procedures/deploy.md": text, "memory/entities/Ali.md": GOOD})
    store = dialect.read(root)
    assert [r.link for r in store.records] == ["Ali"], "the rest of the store still reads"
    (q,) = store.quarantined
    assert q.path == "memory/procedures/deploy.md" and q.line == 3
    assert q.reason.startswith(problem), "the reason says which field and what is wrong with it"
    assert q.raw == text.encode(), "the original bytes are kept"
    # memfmt itself silently reads it as a number: that is the guess we refuse.
    assert memfmt.load(root).procedures[0].version == 1 or "version" not in line


def test_version_two_through_the_cli_exits_quarantined_and_keeps_the_file(tmp_path):
    text = "---\nmemfmt_type: procedure\nversion: two\n---\n\n# deploy (v1 · untested)\n"
    root = _store(tmp_path, {"memory/procedures/deploy.md": text, "memory/entities/Ali.md": GOOD,
                             "memory/MEMORY.md": "---\nmemfmt_type: index\ngenerated: 2026-01-01\n---\n"})
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["migrate", str(root), str(out)])
    assert result.exit_code == EXIT_QUARANTINED
    assert "quarantined memory/procedures/deploy.md:3: procedure version is 'two'" in result.output
    # (named .md.kept, which memfmt's own load and validate never read: docs/memfmt.md)
    assert (out / ".memconv/quarantine/memory/procedures/deploy.md.kept").read_text(encoding="utf-8") == text
    assert not (out / "memory/procedures/deploy.md").exists(), "a file memconv could not read is not converted"
    assert (out / "memory/entities/Ali.md").read_text() == GOOD


@pytest.mark.parametrize("kind, line, problem", [
    ("episode", "importance: high", "episode importance is 'high', not a whole number"),
    ("episode", "participants: Ali", "episode participants is 'Ali', not a list"),
    ("episode", "happened:\n  - 2026-01-01", "episode happened is a list (2026-01-01), not one value"),
    ("entity", "id:\n  - a\n  - b", "entity id is a list (a, b), not one value"),
])
def test_values_memfmt_would_drop_are_quarantined(tmp_path, kind, line, problem):
    root = _store(tmp_path, {f"memory/x/{kind}.md": f"---\nmemfmt_type: {kind}\n{line}\n---\n\n# x\n",
                             "memory/entities/Ali.md": GOOD})
    (q,) = dialect.read(root).quarantined
    assert q.reason.startswith(problem)


def _escape_store() -> Store:
    return Store(dialect="test", meta={"date": "2026-01-01"}, records=[
        Record(kind="entity", link="../escape", title="../escape", facts=["climbs"]),
        Record(kind="entity", link="..", title=".."),
        Record(kind="entity", link="/etc/passwd", title="/etc/passwd"),
        Record(kind="episode", link="e", title="../../up", happened="../../2026"),
        Record(kind="procedure", link="p", title="..\\..\\win"),
    ])


def test_a_hostile_name_never_writes_outside_out(tmp_path):
    # Verified by letting _wanted_stem use record.happened unreplaced: fails with OutputError
    # "refusing to write 'memory/episodes/../../2026--..-up.md'" (the writer's own safe_relpath).
    files = dialect.write(_escape_store())
    assert set(files) == {"memory/entities/-escape.md", "memory/entities/unnamed.md",
                          "memory/entities/-etc-passwd.md", "memory/episodes/..-..-2026--..-up.md",
                          "memory/procedures/-..-win.md", "memory/MEMORY.md"}
    out = tmp_path / "out"
    write_tree(files, out)
    written = {p.resolve() for p in tmp_path.rglob("*") if p.is_file()}
    assert all(out.resolve() in p.parents for p in written), "every file lands inside OUT"


def test_a_hostile_name_read_from_memfmt_and_edited_stays_inside_out(tmp_path):
    root = _store(tmp_path, {"memory/entities/x.md": "---\nmemfmt_type: entity\n---\n\n# ../escape\n"})
    store = dialect.read(root)
    store.records[0].facts = ["edited"]
    files = dialect.write(store)
    assert "memory/entities/-escape.md" in files and "memory/entities/x.md" not in files


def test_two_entities_that_slug_alike_both_survive(tmp_path):
    store = Store(dialect="test", meta={"date": "2026-01-01"}, records=[
        Record(kind="entity", link="a/b", title="a/b", facts=["slash"]),
        Record(kind="entity", link="a:b", title="a:b", facts=["colon"]),
        Record(kind="entity", link="a:b", title="a:b", facts=["the same name twice"]),
        Record(kind="entity", link="c", title="c", edges=[]),
    ])
    files = dialect.write(store)
    assert {"memory/entities/a-b.md", "memory/entities/a-b (2).md", "memory/entities/a-b (3).md"} <= set(files)
    out = tmp_path / "out"
    write_tree(files, out)
    back = dialect.read(out)
    assert sorted(f for r in back.records if r.kind == "entity" for f in r.facts or []) == \
        ["colon", "slash", "the same name twice"], "no entity overwrites another"
    # memfmt itself loses one of two entities with the same name: it maps names to stems.
    same = memfmt.Memory(entities=[memfmt.Entity("a:b", facts=["one"]), memfmt.Entity("a:b", facts=["two"])])
    assert len([p for p in memfmt.serialise(same, generated="2026-01-01") if "/entities/" in p]) == 1


def test_memfmt_validate_cannot_accept_numbered_collisions_even_from_memfmt(tmp_path):
    """A limit of memfmt, shown so nobody chases it: it reads `a-b (2).md` before `a-b.md` and swaps them."""
    memory = memfmt.Memory(entities=[memfmt.Entity("a/b", facts=["x"]), memfmt.Entity("a:b", facts=["y"])])
    memfmt.write_dir(memfmt.serialise(memory, generated="2026-01-01"), tmp_path / "theirs")
    status, said = validate(tmp_path / "theirs")
    assert status == 1 and "a-b (2).md — changes when rewritten" in said


def test_memfmt_validate_fails_its_own_profile_on_a_later_day(tmp_path):
    """Why the golden tests run memfmt validate on the day the profile was generated."""
    memfmt.write_dir(memfmt.serialise(memfmt.Memory(profile="terse"), generated="2026-01-01"), tmp_path / "p")
    assert validate(tmp_path / "p")[0] == 1
    assert validate(tmp_path / "p", today="2026-01-01")[0] == 0


def test_a_typed_file_of_an_unknown_kind_is_carried_and_said(tmp_path):
    root = _store(tmp_path, {"memory/entities/Ali.md": GOOD,
                             "memory/widgets/w.md": "---\nmemfmt_type: widget\n---\n\n# w\n"})
    store = dialect.read(root)
    (foreign,) = [f for f in store.foreign if f.path == "memory/widgets/w.md"]
    assert "memfmt_type 'widget' is not a kind memfmt reads" in foreign.why
    assert dialect.write(store)["memory/widgets/w.md"] == foreign.raw


def test_a_store_whose_only_file_is_refused_is_still_a_store(tmp_path):
    root = _store(tmp_path, {"memory/procedures/p.md": "---\nmemfmt_type: procedure\nversion: two\n---\n\n# p\n"})
    store = dialect.read(root)
    assert not store.records and [q.path for q in store.quarantined] == ["memory/procedures/p.md"]
