"""``check --via B`` lists the files it could not read as quarantined, and says why it keeps a file, as ``check`` does.

A memfmt store holding an entity whose bytes are not UTF-8 (quarantined since 2026-12-07, docs/memfmt.md) and a
note of one's own, checked through claude, printed an ``error:`` line for the entity beside a closing line of
"0 quarantined", with ``quarantined`` and ``counts.quarantined`` empty, and counted the note among "1 other file(s)
kept" without its reason, even with ``-v``: the round trip's first leg said both, and only its warnings were kept.
``check`` without ``--via`` says both. Decided 2026-12-07 (forty-third session; docs/cli.md).
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import write_files
from .test_report_schema import validate

_STORE = {"memory/entities/A.md": b"---\nmemfmt_type: entity\n---\n# A\nx\n",
          "memory/note.md": b"# my own note\n",
          "memory/entities/bin.md": b"---\nmemfmt_type: entity\n---\n\xff\n"}


def _check(runner, root, *via: str) -> dict:
    result = runner.invoke(main, ["check", "--json", *via, str(root)])
    assert result.exit_code == 1, result.output
    return validate(result.stdout)


def test_check_via_counts_the_quarantined_file_as_check_does(runner, tmp_path):
    write_files(tmp_path / "s", _STORE)
    within, via = _check(runner, tmp_path / "s"), _check(runner, tmp_path / "s", "--via", "claude")
    for doc in (within, via):
        assert [q["path"] for q in doc["quarantined"]] == ["memory/entities/bin.md"], doc["quarantined"]
        assert doc["counts"]["quarantined"] == 1, doc["counts"]
        assert [f["source"] for f in doc["files"] if f["status"] == "quarantined"] == ["memory/entities/bin.md"]
        assert "memory/entities/bin.md:4: is not valid UTF-8 (byte 0xff at offset 28)" in doc["errors"]
    assert via["quarantined"] == within["quarantined"]  # kept where a write-back in its own dialect keeps it


def test_check_via_says_why_it_keeps_someones_own_note(runner, tmp_path):
    write_files(tmp_path / "s", _STORE)
    doc = _check(runner, tmp_path / "s", "--via", "claude")
    note = [f for f in doc["files"] if f["status"] == "foreign"]
    assert [f["source"] for f in note] == ["memory/note.md"], doc["files"]
    assert any("someone's own note" in w for w in note[0]["warnings"]), note
    result = runner.invoke(main, ["check", "-v", "--via", "claude", str(tmp_path / "s")])
    assert "memory/note.md: markdown without memfmt_type: someone's own note" in result.output, result.output
    assert "1 quarantined" in result.output and "0 quarantined" not in result.output, result.output
