"""Notes are memconv's, not the target's: they live in a dot-folder its tools skip, each under a name
of its own, and a note in IN is untrusted like any file.

(``tests/test_targets_accept_our_output.py`` and the oracle tests run the real tools on the outputs;
these tests say where notes go and what a crafted one cannot do, without them.)
"""

from __future__ import annotations

import json

import pytest

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import DIALECTS, convert_files, golden_inputs, read_files

CASES = [(d, n, t) for d, n in golden_inputs() for t in DIALECTS if t != d]


def _live(path: str) -> bool:
    """A file the target's tools read: no part of its path starts with a dot (memspec's own folder aside)."""
    parts = path.split("/")
    if parts[0] == ".memspec":
        parts = parts[1:]
    return not any(p.startswith(".") for p in parts)


@pytest.mark.parametrize("dialect, name, target", [c for c in CASES if c[2] in ("memoir", "claude")])
def test_every_markdown_file_a_memoir_or_claude_tool_reads_is_an_entry(dialect, name, target):
    """``memoir validate`` checks every ``*.md`` outside dot-folders: each must have a name and a type, or be
    a bare file; memconv's notes and files set aside are never among them."""
    files, _ = convert_files(dialects.get(dialect).read(GOLDEN / dialect / name / "input"), target)
    for path, data in files.items():
        if not (path.endswith(".md") and _live(path)) or path.rsplit("/", 1)[-1].startswith("MEMORY"):
            continue
        text = data.decode("utf-8-sig")
        if not text.startswith("---"):
            assert "memconv" not in text, f"{path}: a bare file stays bare"
            continue
        head = text.split("\n---", 1)[0]
        # Verified by moving notes back to memconv/: memconv/store.md has a name but no type.
        assert "\nname:" in head or "\n  name:" in head, f"{path}: an entry has a name"
        assert "\ntype:" in head or "\n  type:" in head, f"{path}: an entry has a type"


@pytest.mark.parametrize("target", [d for d in DIALECTS if d != "memoir"])
def test_a_hidden_decision_is_never_written_where_the_target_reads(target):
    store = dialects.get("memoir").read(GOLDEN / "memoir" / "canonical" / "input")
    files, _ = convert_files(store, target)
    where = [p for p, d in files.items() if b"Tombstoned: the client asked" in d]
    assert where and all(not _live(p) for p in where), f"only in memconv's dot-folder: {where}"


def test_a_bare_file_stays_bare_and_its_carry_waits_beside_it():
    src = GOLDEN / "claude" / "mixed-project" / "input"
    files, _ = convert_files(dialects.get("claude").read(src), "memoir")
    raw = (src / "deploy-notes.md").read_bytes()
    written = files["memory/deploy-notes.md"]
    assert not written.startswith(b"---") and written.split(b"\n")[:3] == raw.split(b"\n")[:3], \
        "the bare file is written as it was (its links renamed), with no frontmatter"
    # Verified by always calling set_carry(): the file gained a frontmatter holding only `memconv:`.
    sidecars = [p for p, d in files.items() if p.startswith(".memconv/notes/") and b"memory/deploy-notes.md" in d]
    assert sidecars, "its carry is in a note"
    back, _ = convert_files(read_files(files, "memoir"), "claude")
    assert back["deploy-notes.md"] == raw, "and it comes home with what the carry said"


def _hidden(link: str, text: str) -> bytes:
    return (f"---\ntype: decision\nname: {text}\ndescription: {text}\nhidden: true\n"
            f"hidden_at: 2026-03-03T10:00:00Z\n---\n\n{text}, tombstoned.\n").encode()


LINKS = ["decision_日本語", "decision_中文", "decision_Case", "decision_case", "decision_a-b", "decision_a_b"]


@pytest.mark.parametrize("target", [d for d in DIALECTS if d != "memoir"])
def test_notes_of_different_records_never_share_a_name(target):
    files = {f"memory/{link}.md": _hidden(link, f"Record {i}") for i, link in enumerate(LINKS)}
    store = read_files(files, "memoir")
    out, _ = convert_files(store, target)
    notes = [p for p, d in out.items() if b"tombstoned." in d]
    # Verified with the old slug names: the two non-Latin names, and the rest pairwise, landed on one file.
    assert len(notes) == len(LINKS), "one note per record"
    assert len({p.casefold() for p in notes}) == len(LINKS), "no two differ only in case"
    assert any("日本語" in p for p in notes), "a non-Latin name is kept"
    back, _ = convert_files(read_files(out, target), "memoir")
    assert {p: back[p] for p in files} == files, "every record comes home"


@pytest.mark.parametrize("path", ["../escaped.md", "/etc/escaped.md", "memory/../../escaped.md"])
def test_a_note_naming_a_path_outside_the_store_is_ignored_with_a_warning(path):
    record_note = {"v": 1, "from": "memoir", "format": {"path": path, "raw": "owned\n"},
                   "record": {"kind": "fact", "link": "fact_x", "title": "X"}}
    note = "---\nname: X\nmemconv: " + json.dumps(json.dumps(record_note)) + "\n---\n\nBody.\n"
    files = {".memconv/notes/x.md": note.encode(), "MEMORY.md": b"# Memory\n"}
    store = read_files(files, "claude")
    out, report = convert_files(store, "memoir")
    # Verified by dropping the guard in notes.read(): the patch's path reached the read-back folder.
    assert all(".." not in p and not p.startswith("/") for p in out), "nothing is written outside OUT"
    assert any(".memconv/notes/x.md" in w and "outside the store" in w for w in report.warnings), \
        "the warning names the note"


def test_a_carried_link_that_would_leave_the_store_is_derived_again():
    store = dialects.get("memoir").read(GOLDEN / "memoir" / "canonical" / "input")
    files, _ = convert_files(store, "memspec")
    (path,) = [p for p, d in files.items() if b"Staging API endpoints" in d and _live(p)]
    files[path] = files[path].replace(b'\\"link\\":\\"fact_staging-endpoints\\"', b'\\"link\\":\\"../../evil\\"') \
        .replace(b'"link":"fact_staging-endpoints"', b'"link":"../../evil"')
    assert b"../../evil" in files[path]
    back, report = convert_files(read_files(files, "memspec"), "memoir")
    assert all(".." not in p for p in back), "nothing is written outside OUT"
    assert any("outside the store" in w for w in report.warnings)


@pytest.mark.parametrize("payload", [
    {"from": "claude", "indexes": [{"path": "../../MEMORY.md", "title": "X", "sections": []}]},
    {"from": "memspec", "meta": {"prefix": "../../outside/"}},
])
def test_a_store_note_naming_a_folder_outside_the_store_is_ignored_with_a_warning(payload):
    note = {"v": 1, "from": payload["from"], "store": payload}
    text = "---\nname: memconv store\nmemconv: " + json.dumps(json.dumps(note)) + "\n---\n"
    store = read_files({".memconv/notes/store.md": text.encode(),
                        "memory/fact_x.md": b"---\ntype: fact\nname: X\ndescription: X\n---\n"}, "memoir")
    out, report = convert_files(store, payload["from"])
    # Verified by dropping the checks in _restore_store(): the index or the prefix left the store.
    assert all(".." not in p and not p.startswith("/") for p in out), "nothing is written outside OUT"
    assert any(".memconv/notes/store.md" in w and "outside the store" in w for w in report.warnings)
