"""An edit in the target of text memconv moved there lands back in the field or list it came from, once.

A decision's why is shown in memfmt (an episode) and memspec as a labelled line, ``**Why:** …``;
a procedure's steps in memfmt are made of a memspec body's numbered list or a Claude memory's
``**How to apply:**`` section. Edited there, the edit came home beside the old text (found by a
helper): a ``**Why:**`` paragraph beside the unchanged why, a ``**Steps:**`` block beside the old
list, a ``how_to_apply`` key beside the old section.
"""

from __future__ import annotations

import pytest

from memconv import dialects
from memconv.model import Record, Store

from .convert_helpers import convert_files, read_files


def _edit(files: dict[str, bytes], needle: bytes, new: bytes) -> dict[str, bytes]:
    hits = [p for p, d in files.items() if needle in d and ".memconv/" not in p and "MEMORY" not in p]
    assert len(hits) == 1, f"{needle!r} is written natively, once"
    files = dict(files)
    files[hits[0]] = files[hits[0]].replace(needle, new)
    return files


def _store(dialect: str, records: list[Record]) -> Store:
    return read_files(dialects.get(dialect).write(Store(dialect="code", records=records)), dialect)


@pytest.mark.parametrize("via", ["memfmt", "memspec"])
def test_a_why_edited_in_the_target_comes_home_in_its_field(via):
    # Watched fail: why stayed 'Zero-dependency install matters.' and the body gained
    # '**Why:** Fewer moving parts.' (in memfmt when a '**Tags:**' line follows the why).
    decision = Record(kind="decision", link="decision_db", title="Local store is SQLite", description="Single-file DB",
                      date="2026-05-02", why="Zero-dependency install matters.", tags=["storage", "cache"],
                      body="Applies to the local cache only.\n")
    files, _ = convert_files(_store("memoir", [decision]), via)
    files = _edit(files, b"**Why:** Zero-dependency install matters.", b"**Why:** Fewer moving parts.")
    back, report = convert_files(read_files(files, via), "memoir")
    (record,) = read_files(back, "memoir").records
    assert record.why == "Fewer moving parts.", "the edit wins, in the field"
    assert record.body == "Applies to the local cache only.\n", "and is not a paragraph of the body"
    assert record.tags == ["storage", "cache"]
