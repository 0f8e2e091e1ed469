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
    """``files`` with ``needle`` replaced in the text of the one file that shows it (not in its frontmatter,
    where the carry may hold the same words)."""
    def text(data: bytes) -> tuple[bytes, bytes]:
        head, _, rest = data.partition(b"\n---\n")
        return head + b"\n---\n", rest

    hits = [p for p, d in files.items() if needle in text(d)[1] and ".memconv/" not in p and "MEMORY" not in p]
    assert len(hits) == 1, f"{needle!r} is written natively, once"
    files = dict(files)
    head, rest = text(files[hits[0]])
    files[hits[0]] = head + rest.replace(needle, new)
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


_STEPS = "1. Check git status is clean.\n2. Run npm version patch.\n3. Run npm publish.\n"


def _procedure_from_memspec(edit: tuple[bytes, bytes]) -> str:
    claim = Record(kind="procedure", link="ms_01KN9E9020GFWGMEAJVSM4XVEK", title="Release a package",
                   body=_STEPS, created="2026-04-03T10:30:00.000Z")
    files, _ = convert_files(_store("memspec", [claim]), "memfmt")
    back, _ = convert_files(read_files(_edit(files, *edit), "memfmt"), "memspec")
    (record,) = read_files(back, "memspec").records
    return record.body


def test_a_step_edited_in_memfmt_replaces_its_line_of_the_memspec_body():
    # Watched fail: the body kept '2. Run npm version patch.' and gained '**Steps:**\n\n1. Run npm version minor.'
    body = _procedure_from_memspec((b"2. Run npm version patch.", b"2. Run npm version minor."))
    assert body == _STEPS.replace("patch", "minor")


def test_a_step_added_or_taken_out_in_memfmt_changes_the_memspec_list():
    added = _procedure_from_memspec((b"2. Run npm version patch.\n3. Run npm publish.",
                                     b"2. Run npm version patch.\n3. Run npm test.\n4. Run npm publish."))
    assert added == "1. Check git status is clean.\n2. Run npm version patch.\n3. Run npm test.\n4. Run npm publish.\n"
    removed = _procedure_from_memspec((b"2. Run npm version patch.\n3. Run npm publish.", b"2. Run npm publish."))
    assert removed == "1. Check git status is clean.\n2. Run npm publish.\n"


def test_a_step_edited_in_memfmt_lands_in_the_claude_how_to_apply_line():
    # Watched fail: the body kept '**How to apply:** run make test-integration…' and the file gained a
    # 'how_to_apply:' key with the edit.
    from .conftest import GOLDEN

    store = dialects.get("claude").read(GOLDEN / "claude" / "canonical" / "input")
    files, _ = convert_files(store, "memfmt")
    files = _edit(files, b"1. run `make test-integration`", b"1. run `make test-all`")
    back, _ = convert_files(read_files(files, "memfmt"), "claude")
    text = back["feedback_integration-tests.md"].decode()
    assert "how_to_apply" not in text, "no key beside the body"
    assert text.count("make test") == 1 and "**How to apply:** run `make test-all` before" in text
    assert all(back[p] == b for p, b in convert_files(store, "claude")[0].items()
               if p != "feedback_integration-tests.md" and p in back), "the rest comes home as it was"


_LESSON = Record(kind="lesson", link="lesson_release", title="Release carefully", description="Releasing needs care",
                 trigger="About to publish a package", how_to_apply="Follow the release checklist.",
                 created="2026-04-11", body="The checklist:\n\n" + _STEPS)


def test_a_lessons_numbered_list_is_shown_as_steps_in_memfmt_and_comes_home_exactly():
    # Watched fail: memfmt showed '1. Check git status is clean.' … among the preconditions.
    import memfmt

    store = _store("memoir", [_LESSON])
    files, _ = convert_files(store, "memfmt")
    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    procedure = memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0]
    assert [s.action for s in procedure.steps] == ["Follow the release checklist.", "Check git status is clean.",
                                                   "Run npm version patch.", "Run npm publish."]
    assert procedure.preconditions == ["Releasing needs care", "The checklist:"]
    back, _ = convert_files(read_files(files, "memfmt"), "memoir")
    assert back == dialects.get("memoir").write(store), "the way back is exact"


def test_a_step_of_a_lessons_list_edited_in_memfmt_comes_home_on_its_line():
    files, _ = convert_files(_store("memoir", [_LESSON]), "memfmt")
    files = _edit(files, b"3. Run npm version patch.", b"3. Run npm version minor.")
    back, _ = convert_files(read_files(files, "memfmt"), "memoir")
    (record,) = read_files(back, "memoir").records
    assert record.body == "The checklist:\n\n" + _STEPS.replace("patch", "minor")
    assert record.how_to_apply == "Follow the release checklist.", "the lesson's own step is as it was"
