"""A Claude Code memory folder read and written back as claude is byte-identical, MEMORY.md included."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv.cli import main
from memconv.dialects import claude
from memconv.dialects.claude import entries

from . import golden
from .claude_support import GOLDEN, STORES, tree


@pytest.mark.parametrize("store", STORES)
def test_golden_folder_writes_back_byte_for_byte(store):
    root = GOLDEN / store / "input"
    written = claude.write(claude.read(root))
    before = tree(root)
    # Quarantined files are not written by the dialect (the pipeline keeps them aside).
    quarantined = {q.path for q in claude.read(root).quarantined}
    assert {p: b for p, b in before.items() if p not in quarantined} == written, \
        "claude → claude must give the user's bytes back untouched"


@pytest.mark.parametrize("store", STORES)
def test_upgraded_store_read_as_claude_writes_back_byte_for_byte(store):
    # Canonical memoir files inside a claude folder read fine, and come back as they were.
    root = golden.upgraded_folder(store) / "memory"
    store_ = claude.read(root)
    quarantined = {q.path for q in store_.quarantined}
    assert {p: b for p, b in tree(root).items() if p not in quarantined} == claude.write(store_)


def test_convert_claude_to_claude_cli_is_byte_identical(tmp_path):
    src = GOLDEN / "mixed-project" / "input"
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "claude", str(src), str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert tree(out) == tree(src)
    report = json.loads(result.stdout)
    assert {f["status"] for f in report["files"]} <= {"kept", "opaque", "foreign"}


# --- any legacy file, not only the goldens -----------------------------------------

_words = st.text(alphabet="abc xyz:#-—'\"é", min_size=1, max_size=20).filter(lambda s: s.strip() == s)


@st.composite
def legacy_file(draw) -> bytes:
    word = draw(st.sampled_from(["user", "feedback", "reference", "project", "lesson", "fact", "odd"]))
    where = draw(st.sampled_from(["top", "metadata"]))
    session = draw(st.sampled_from([None, "top", "metadata"]))
    lines = []
    meta = []
    if where == "top":
        lines.append(f"type: {word}")
    else:
        meta.append(f"  type: {word}")
        meta.insert(draw(st.integers(0, 1)), "  node_type: memory")
    if session == "top":
        lines.append("originSessionId: 4f1c2a9e-77d0")
    elif session == "metadata":
        meta.append("  originSessionId: 4f1c2a9e-77d0")
    if meta:
        lines.insert(draw(st.integers(0, len(lines))), "metadata:\n" + "\n".join(meta))
    lines.insert(0, f"name: {json.dumps(draw(_words), ensure_ascii=False)}")
    if draw(st.booleans()):
        lines.append(f"description: {json.dumps(draw(_words), ensure_ascii=False)}")
    if draw(st.booleans()):
        indent = draw(st.sampled_from(["  ", "    "]))
        lines.append("aliases:\n" + "\n".join(f"{indent}- {json.dumps(a, ensure_ascii=False)}"
                                             for a in draw(st.lists(_words, min_size=1, max_size=3))))
    body = draw(st.sampled_from(["Rule.\n", "Rule.\n\n**Why:** w\n**How to apply:** h\n",
                                 "```\n**How to apply:** fake\n```\n", ""]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = "---\n" + "\n".join(lines) + "\n---\n" + body
    return text.replace("\n", newline).encode("utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legacy_file())
def test_any_legacy_file_round_trips_and_keeps_its_meaning(raw):
    record = entries.read_entry(raw, "x.md", "x")
    assert entries.write_entry(record) == raw, "an unedited record is written as its own bytes"
    # An edit elsewhere in the record must not disturb what the reader made of the rest.
    record.body += "\nedited\n"
    again = entries.read_entry(entries.write_entry(record), "x.md", "x")
    for name in ("kind", "title", "description", "aliases", "origin", "extra", "opaque"):
        assert getattr(again, name) == getattr(record, name), f"{name} survives an edit in the file's own shape"


def test_an_edited_record_changes_only_the_line_of_the_edited_key():
    # Verified by rendering every edited file anew (ignoring its frontmatter layout): fails with
    # the nested metadata block, the quotes and the CRLF endings all rewritten.
    # (Removing the raw fast path alone does not fail any test: the patch path reproduces an
    # unedited file byte for byte too; the fast path only saves the work.)
    root = GOLDEN / "mixed-project" / "input"
    for name, old, new in (("feedback_no_mocks.md", "mocks hide broken SQL", "mocks hide bad SQL"),
                           ("user_editor.md", "Neovim, no IDE suggestions", "Helix, no IDE suggestions")):
        raw = (root / name).read_bytes()
        record = entries.read_entry(raw, name, name[:-3])
        record.description = record.description.replace(old, new)
        if record.kind == "lesson":
            record.trigger = record.description
        after = entries.write_entry(record).split(b"\n")
        before = raw.split(b"\n")
        assert len(after) == len(before), name
        differing = [b for a, b in zip(after, before) if a != b]
        assert len(differing) == 1 and differing[0].startswith(b"description:"), f"{name}: only the edited key"
        assert entries.read_entry(b"\n".join(after), name, name[:-3]).description == record.description
