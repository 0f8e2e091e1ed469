"""Mengram's ``mengram_type`` files are read, and written with ``memfmt_type`` through the ladder, reported."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main
from memconv.dialects import memfmt as dialect
from memconv.dialects.memfmt import syntax
from memconv.migrations.memfmt import FILE, MENGRAM, mengram_to_memfmt
from memconv.fs import list_files

LEGACY = Path(__file__).resolve().parent.parent / "golden" / "memfmt" / "legacy" / "input"


def test_the_two_copies_of_the_step_agree():
    """step (on the mapping) and step_text (on the file) are the same rename; kept twice on purpose."""
    texts = [(LEGACY / p).read_text(encoding="utf-8") for p in list_files(LEGACY)]
    texts.append("---\nmemfmt_type:\nmengram_type: entity\nid: 1\n---\n\n# x\n")
    texts.append("---\nid: 1\nmengram_type:   procedure\nx: mengram_type: y\n---\n# mengram_type: z\n")
    for text in texts:
        before = syntax.split(text)[0].values
        after, body = syntax.split(mengram_to_memfmt.step_text(text))
        assert after.values == mengram_to_memfmt.step(before), text
        assert body == syntax.split(text)[1], "the body is never touched"


def test_the_step_is_pure():
    fields = {"mengram_type": "entity", "id": "e1"}
    assert FILE.climb(fields, MENGRAM) == ({"memfmt_type": "entity", "id": "e1"}, [mengram_to_memfmt.DESCRIPTION])
    assert fields == {"mengram_type": "entity", "id": "e1"}


def test_legacy_files_read_as_generation_zero_and_the_migration_is_reported():
    store = dialect.read(LEGACY)
    assert {r.source.version for r in store.records} == {MENGRAM}
    (line,) = store.migrations
    assert line.startswith("7 memfmt file(s): mengram_type → memfmt_type")


def test_migrate_changes_only_the_type_key_even_in_a_file_memfmt_would_respace(tmp_path):
    # Verified by making _migrated_raw return source.raw for every version: the output keeps
    # 'mengram_type:' and this test fails on the first assert.
    root = tmp_path / "in" / "memory"
    root.mkdir(parents=True)
    text = "---\r\nmengram_type: entity\r\nentity_type: company\r\n---\r\n\r\n# Mengram\r\n\r\n\r\n## Facts\r\n\r\n-   a\r\n"
    (root / "Mengram.md").write_bytes(text.encode())
    result = CliRunner().invoke(main, ["migrate", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out/memory/Mengram.md").read_bytes() == text.replace("mengram_type", "memfmt_type").encode()
    assert "migrated: 1 memfmt file(s): mengram_type → memfmt_type" in result.output


def test_an_edited_legacy_record_is_written_as_memfmt_writes_it():
    store = dialect.read(LEGACY)
    kenji = next(r for r in store.records if r.link == "Kenji")
    kenji.facts.append("moved to Osaka")
    written = dialect.write(store)["memory/entities/Kenji.md"].decode()
    assert written.startswith("---\nmemfmt_type: entity\n") and "- moved to Osaka\n" in written


def test_check_reports_a_legacy_store_as_changing():
    result = CliRunner().invoke(main, ["check", "--from", "memfmt", str(LEGACY)])
    assert result.exit_code == 1 and "+memfmt_type: entity" in result.output
