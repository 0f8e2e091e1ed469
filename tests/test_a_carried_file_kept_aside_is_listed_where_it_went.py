"""A carried file set aside because the writer took its name is listed at the path it went to, not at that name.

``memfmt-to-claude`` of a store carrying ``.memconv/files/claude/reference_a.md`` (a file of a claude store, home
again) while its entity A is written as ``reference_a.md`` keeps the carried file at
``.memconv/quarantine/reference_a.md.kept`` and says so; its ``foreign`` line in ``files`` still named
``reference_a.md``, the path of the converted entity (two lines, one target, one of them untrue). Decided
2026-12-07 (forty-third session; docs/conversion.md).
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import tree, write_files
from .test_report_schema import validate


def test_the_foreign_line_names_where_the_file_went(runner, tmp_path):
    write_files(tmp_path / "in", {"memory/entities/A.md": b"---\nmemfmt_type: entity\n---\n\n# A\n\nabout A\n",
                                  ".memconv/files/claude/reference_a.md": b"HANDWRITTEN\n",
                                  ".memconv/files/claude/other.txt": b"kept fine\n"})
    result = runner.invoke(main, ["memfmt-to-claude", "--json", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    doc = validate(result.stdout)
    out = tree(tmp_path / "out")
    foreign = {f["source"]: f["target"] for f in doc["files"] if f["status"] == "foreign"}
    assert foreign == {"reference_a.md": ".memconv/quarantine/reference_a.md", "other.txt": "other.txt"}, foreign
    assert out[".memconv/quarantine/reference_a.md.kept"] == b"HANDWRITTEN\n"  # its target before claude's .kept
    converted = [f["target"] for f in doc["files"] if f["status"] == "converted"]
    assert set(converted).isdisjoint(foreign.values()), doc["files"]
