"""An edit made in the target never loses another part of the record on the way back.

The target shows every field it has no word for inside the record's readable
text (a memspec body, a memfmt entity's facts); an edit to that text wins, and
nothing the record said elsewhere is lost, nor said twice.
"""

from __future__ import annotations

import pytest

from memconv import dialects
from memconv.model import Record, Store

from .conftest import GOLDEN
from .convert_helpers import convert_files, read_files


def _edit(files: dict[str, bytes], needle: bytes, new: bytes) -> dict[str, bytes]:
    hits = [p for p, d in files.items() if needle in d and ".memconv/" not in p and "MEMORY" not in p]
    assert len(hits) == 1, f"{needle!r} is written natively, once"
    files = dict(files)
    files[hits[0]] = files[hits[0]].replace(needle, new)
    return files


def _store(dialect: str, records: list[Record]) -> Store:
    return read_files(dialects.get(dialect).write(Store(dialect="code", records=records)), dialect)


def test_an_edit_in_memfmt_keeps_the_first_paragraph_of_a_memspec_record():
    body = "Staging runs at staging.example.com.\n\nTokens are minted by a script.\n\nRate limit is 60 req/min.\n"
    store = _store("memspec", [Record(kind="fact", link="x", title="Staging", body=body,
                                      created="2026-04-04T10:30:00.000Z")])
    files, _ = convert_files(store, "memfmt")
    files = _edit(files, b"Rate limit is 60 req/min.", b"Rate limit is 90 req/min.")
    back, _ = convert_files(read_files(files, "memfmt"), "memspec")
    (record,) = read_files(back, "memspec").records
    # Verified by always passing describe=True to from_entity: the first paragraph went to a description
    # memspec cannot say, and the carried (absent) description replaced it.
    assert record.body.startswith("Staging runs at staging.example.com."), "the first paragraph is kept"
    assert "90 req/min" in record.body and "60 req/min" not in record.body, "the edit wins"


def test_an_edit_in_memspec_keeps_the_first_fact_of_a_memfmt_entity():
    store = _store("memfmt", [Record(kind="entity", link="Staging", title="Staging",
                                     facts=["runs at staging.example.com", "tokens from a script", "60 req/min"])])
    files, _ = convert_files(store, "memspec")
    files = _edit(files, b"60 req/min", b"90 req/min")
    back, _ = convert_files(read_files(files, "memspec"), "memfmt")
    (record,) = [r for r in read_files(back, "memfmt").records if r.kind == "entity"]
    assert record.facts == ["runs at staging.example.com", "tokens from a script", "90 req/min"], \
        "every fact comes back, the edited one edited"


@pytest.mark.parametrize("via", ["memspec", "memfmt"])
def test_an_edited_decision_keeps_its_why_once(via):
    store = dialects.get("memoir").read(GOLDEN / "memoir" / "canonical" / "input")
    files, _ = convert_files(store, via)
    files = _edit(files, b"Applies to the local derived cache only", b"Applies to the local cache only")
    back, _ = convert_files(read_files(files, via), "memoir")
    text = back["memory/decision_local-db-choice.md"].decode()
    assert "Applies to the local cache only" in text, "the edit wins"
    assert "why: Zero-dependency install" in text, "the decision's why comes back in its own field"
    # Verified by skipping readable.unshow(): the body then repeats the why and rejected paragraphs.
    assert "**Why:**" not in text and "**Rejected:**" not in text, "and is not repeated in the body"


@pytest.mark.parametrize("via", ["memoir", "memspec", "memfmt"])
def test_claude_metadata_survives_an_edit_in_the_target(via):
    store = dialects.get("claude").read(GOLDEN / "claude" / "broken-links" / "input")
    files, _ = convert_files(store, via)
    files = _edit(files, b"read-only since March", b"read-write since March")
    back, _ = convert_files(read_files(files, via), "claude")
    text = back["reference_wiki.md"].decode()
    assert "read-write since March" in text, "the edit wins"
    assert "node_type: memory" in text, "Claude's metadata keys survive the re-rendering"


@pytest.mark.parametrize("via", ["memoir", "memspec", "memfmt"])
def test_inline_bullets_come_home_as_bullets_and_an_edited_one_as_an_entry(via):
    src = GOLDEN / "claude" / "inline-only" / "input"
    files, _ = convert_files(dialects.get("claude").read(src), via)
    back, report = convert_files(read_files(files, via), "claude")
    assert back == {"MEMORY.md": (src / "MEMORY.md").read_bytes()}, "unedited, the facts go and the index is whole"
    files = _edit(files, b"Tabs, not spaces, in Go files", b"Tabs, not spaces, in Go and Rust files")
    back, report = convert_files(read_files(files, via), "claude")
    (entry,) = [p for p in back if p != "MEMORY.md"]
    # The index comes back as it was, and links the entry the edit became (docs/claude.md).
    index = back["MEMORY.md"].decode()
    [link] = [line for line in index.splitlines() if line.endswith(f"]({entry})") or f"]({entry}) " in line]
    assert index.replace(f"\n## Reference\n{link}\n", "\n") == (src / "MEMORY.md").read_text()
    # Verified by always dropping the rendering in restore(): the edit vanished with it.
    assert entry.startswith("reference_tabs-not-spaces-in-go") and b"Go and Rust files" in back[entry], \
        "the edited bullet is an entry of its own, under a file name Claude Code would use"
    assert any("inline bullet of MEMORY.md was edited" in w for w in report.warnings)


@pytest.mark.parametrize(("via", "text"), [("memspec", b"\n\nTabs, not spaces, in Go files\n"),
                                           ("memfmt", b"\n- Tabs, not spaces, in Go files\n")])
def test_an_inline_bullet_whose_text_is_taken_out_stays_a_bullet(via, text):
    # Its rendering's text all taken out (the file left, its name over nothing), it came home as an entry of a name
    # alone beside the bullet as it was (watched fail before). As when its file is deleted, the bullet stays, and the
    # report says to take it out of the index if it should go.
    src = GOLDEN / "claude" / "inline-only" / "input"
    files, _ = convert_files(dialects.get("claude").read(src), via)
    files = _edit(files, text, b"\n")
    back, report = convert_files(read_files(files, via), "claude")
    assert back == {"MEMORY.md": (src / "MEMORY.md").read_bytes()}
    assert any("the text of an inline bullet of MEMORY.md was taken out" in w and "take it out there" in w
               for w in report.warnings), report.warnings
