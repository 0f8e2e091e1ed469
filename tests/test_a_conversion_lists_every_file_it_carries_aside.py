"""A conversion into another dialect lists every file of IN it carries aside, with its reason, as ``migrate`` does.

Files of IN that are not the source dialect's memories (someone's own note, an image, memoir's ``notes.txt``)
travel under ``OUT/.memconv/files/<dialect>/<path>``, where the target's tools do not show them. ``migrate``
listed them ("2 other file(s) kept", each reason a warning, docs/memfmt.md); ``convert`` said nothing at all:
``counts.foreign`` 0, no entry in ``files``, no warning even with ``-v``. And a memfmt file whose frontmatter says
``memfmt_type`` but whose bytes are not UTF-8 (memfmt itself cannot read it) was carried as someone's own with
exit 0, where such a file of any other dialect is quarantined (exit 3; docs/limits.md). Decided 2026-12-07
(forty-third session; docs/conversion.md, docs/memfmt.md).
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import tree, write_files
from .test_report_schema import validate

_ENTITY = b"---\nmemfmt_type: entity\n---\n# A\nx\n"
_MEMFMT = {"memory/entities/A.md": _ENTITY,
           "memory/note.md": b"# my own note\n",
           "memory/latin1.md": b"caf\xe9 notes of my own\n",
           "memory/pic.png": b"\x89PNG\r\n",
           "memory/entities/bin.md": b"---\nmemfmt_type: entity\n---\n\xff\n"}


def _foreign(doc: dict) -> dict[str, dict]:
    return {f["source"]: f for f in doc["files"] if f["status"] == "foreign"}


def test_memfmt_to_claude_lists_the_files_it_carries_aside(runner, tmp_path):
    write_files(tmp_path / "in", _MEMFMT)
    result = runner.invoke(main, ["memfmt-to-claude", "--json", str(tmp_path / "in"), str(tmp_path / "out")])
    doc = validate(result.stdout)
    foreign = _foreign(doc)
    assert sorted(foreign) == ["memory/latin1.md", "memory/note.md", "memory/pic.png"], doc["files"]
    assert doc["counts"]["foreign"] == 3
    assert foreign["memory/note.md"]["target"] == ".memconv/files/memfmt/memory/note.md"
    assert any("someone's own note" in w for w in foreign["memory/note.md"]["warnings"])
    assert any("not valid UTF-8" in w for w in foreign["memory/latin1.md"]["warnings"])
    assert foreign["memory/pic.png"]["warnings"] == []  # not worth a warning (docs/memfmt.md)
    assert any(n["path"] == "memory/note.md" and "someone's own note" in n["message"] for n in doc["notices"])
    # A file memfmt's type key marks as its own, which no reader can read: quarantined, as in every dialect.
    assert [q["path"] for q in doc["quarantined"]] == ["memory/entities/bin.md"]
    assert "not valid UTF-8" in doc["quarantined"][0]["reason"]
    assert result.exit_code == 3, result.output
    out = tree(tmp_path / "out")
    assert out[".memconv/files/memfmt/memory/note.md.kept"] == b"# my own note\n"
    assert any(p.startswith(".memconv/quarantine/memory/entities/bin.md") for p in out), sorted(out)


def test_the_summary_says_how_many_and_why(runner, tmp_path):
    write_files(tmp_path / "in", _MEMFMT)
    result = runner.invoke(main, ["memfmt-to-claude", "-v", str(tmp_path / "in"), str(tmp_path / "out")])
    assert "3 other file(s) kept" in result.output, result.output
    assert "memory/note.md: markdown without memfmt_type: someone's own note" in result.output


def test_memoir_to_claude_lists_notes_txt(runner, tmp_path):
    write_files(tmp_path / "in", {
        "memory/fact_a.md": b"---\nname: a\ndescription: about a\ntype: fact\n---\n\nA.\n",
        "notes.txt": b"my own notes\n"})
    result = runner.invoke(main, ["memoir-to-claude", "--json", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    doc = validate(result.stdout)
    foreign = _foreign(doc)
    assert list(foreign) == ["notes.txt"], doc["files"]
    assert foreign["notes.txt"]["target"] == ".memconv/files/memoir/notes.txt"
    assert doc["counts"]["foreign"] == 1
    # ... and home again, at their own path, listed too.
    back = runner.invoke(main, ["claude-to-memoir", "--json", str(tmp_path / "out"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    home = _foreign(validate(back.stdout))
    assert [f["target"] for f in home.values()] == ["notes.txt"], home
    assert tree(tmp_path / "back")["notes.txt"] == b"my own notes\n"


def test_migrate_quarantines_an_unreadable_memfmt_file_too(runner, tmp_path):
    write_files(tmp_path / "in", _MEMFMT)
    result = runner.invoke(main, ["migrate", "--json", str(tmp_path / "in"), str(tmp_path / "out")])
    doc = json.loads(result.stdout)
    assert [q["path"] for q in doc["quarantined"]] == ["memory/entities/bin.md"]
    assert doc["counts"]["foreign"] == 3
    assert result.exit_code == 3, result.output
