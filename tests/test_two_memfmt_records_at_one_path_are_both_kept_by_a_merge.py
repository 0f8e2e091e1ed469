"""Two memfmt records that are not one record, read from one path in each store, are both written by a merge.

memfmt's identity is a record's `id`, else its kind and name: where one store's `entities/Ali.md` has an `id` and the
other's has none, neither matches the other (docs/merge.md, "Not done yet"), so both are kept. Each kept its own
file's path, the same one: the merge wrote one over the other, reported both `added memory/entities/Ali.md`, exit
0, and the facts only the lost copy held ("prefers Go") were in neither OUT nor the report. Now the second is named
anew by memfmt's writer, `Ali (2).md`, and its line names that file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from memconv import dialects
from memconv.merge import merge

from .conftest import GOLDEN, write_files

MEMFMT = GOLDEN / "memfmt" / "full" / "input"


def _stores(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(MEMFMT, a)
    shutil.copytree(MEMFMT, b)
    ali = a / "memory" / "entities" / "Ali.md"
    ali.write_text(ali.read_text().replace("id: e1\n", "").replace("prefers Rust", "prefers Go"))
    read = dialects.get("memfmt").read
    return read(a), read(b)


def test_both_records_are_written_and_each_line_names_its_file(tmp_path):
    a, b = _stores(tmp_path)
    result = merge(a, b)
    assert result.files == merge(b, a).files, "merge(A, B) and merge(B, A) are the same bytes"
    text = b"".join(data for path, data in result.files.items() if path.startswith("memory/entities/"))
    assert b"prefers Go" in text and b"prefers Rust" in text, "no copy of Ali is lost"
    added = [o for o in result.outcomes if o.status == "added"]
    assert len(added) == 2 and len({o.where for o in added}) == 2, "two records, two files"
    for line in added:
        assert line.where in result.files, f"{line.where} is a file the merge wrote"
    write_files(tmp_path / "out", result.files)
    records = dialects.get("memfmt").read(tmp_path / "out").records
    assert sum(r.kind == "entity" and r.title == "Ali" for r in records) == 2
