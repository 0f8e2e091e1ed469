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

from .convert_helpers import assert_list_landed, convert_files, read_files


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


def test_a_lessons_numbered_list_outside_its_how_to_apply_is_shown_among_the_preconditions():
    # 0c07fc1 showed such a list as steps after the lesson's own: a list of the cases a lesson holds in
    # ('Only when: 1. the replica lag is under a second…') became steps to run, counted by memfmt's tools. A
    # lesson's body is its evidence (the memoir spec, 3.3.4); its behaviour is how_to_apply, or the **How to
    # apply:** section it comes from (the tests below). Watched fail: the steps were the lesson's and the list.
    import memfmt

    store = _store("memoir", [_LESSON])
    files, _ = convert_files(store, "memfmt")
    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    procedure = memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0]
    assert [s.action for s in procedure.steps] == ["Follow the release checklist."]
    assert procedure.preconditions == ["Releasing needs care", "The checklist:", "1. Check git status is clean.",
                                       "2. Run npm version patch.", "3. Run npm publish."]
    back, _ = convert_files(read_files(files, "memfmt"), "memoir")
    assert back == dialects.get("memoir").write(store), "the way back is exact"


def test_an_item_of_a_lessons_list_edited_among_the_preconditions_comes_home_on_its_line():
    files, _ = convert_files(_store("memoir", [_LESSON]), "memfmt")
    files = _edit(files, b"- 2. Run npm version patch.", b"- 2. Run npm version minor.")
    back, _ = convert_files(read_files(files, "memfmt"), "memoir")
    (record,) = read_files(back, "memoir").records
    assert record.body == "The checklist:\n\n" + _STEPS.replace("patch", "minor")
    assert record.how_to_apply == "Follow the release checklist.", "the lesson's own step is as it was"


_BULLETED = ("---\nname: Review the schema\ndescription: Before a migration ships\ntype: feedback\n---\n\n"
             "Look at the diff first.\n\n- the new columns\n- the dropped indexes\n\n"
             "**How to apply:** run the schema check.\n")


def _bulleted() -> Store:
    index = "- [Review the schema](feedback_schema.md) — Before a migration ships\n"
    return read_files({"feedback_schema.md": _BULLETED.encode(), "MEMORY.md": index.encode()}, "claude")


def test_a_bulleted_list_is_preconditions_each_without_its_bullet():
    # Watched fail: memfmt read '- the new columns' as a precondition, shown as a bullet in a bullet
    # ('- - the new columns').
    import memfmt

    files, _ = convert_files(_bulleted(), "memfmt")
    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    procedure = memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0]
    assert procedure.preconditions == ["Look at the diff first.", "the new columns", "the dropped indexes"]
    back, _ = convert_files(read_files(files, "memfmt"), "claude")
    assert back["feedback_schema.md"] == _BULLETED.encode(), "the way back is exact"


def test_a_bulleted_precondition_edited_in_memfmt_comes_home_on_its_line_with_its_bullet():
    files, _ = convert_files(_bulleted(), "memfmt")
    files = _edit(files, b"- the dropped indexes", b"- the dropped and renamed indexes")
    back, _ = convert_files(read_files(files, "memfmt"), "claude")
    assert back["feedback_schema.md"] == _BULLETED.replace("the dropped indexes",
                                                           "the dropped and renamed indexes").encode()


@pytest.mark.parametrize(("cut", "left"), [
    (b"- the dropped indexes\n", "Look at the diff first.\n\n- the new columns\n\n"),
    # Watched fail: with every precondition taken out, the edit was said dropped ("claude's files have no place for
    # them") and the body came home as it was.
    (b"**Preconditions**\n\n- Look at the diff first.\n- the new columns\n- the dropped indexes\n\n", ""),
], ids=["one", "every"])
def test_preconditions_taken_out_in_memfmt_leave_the_claude_body(cut, left):
    files, _ = convert_files(_bulleted(), "memfmt")
    files = _edit(files, cut, b"")
    back, report = convert_files(read_files(files, "memfmt"), "claude")
    head = _BULLETED[:_BULLETED.index("Look at")]
    assert back["feedback_schema.md"] == (head + left + "**How to apply:** run the schema check.\n").encode()
    assert not any(f.dropped for f in report.files)


# A **How to apply:** section of more than one line (the label alone, then its text; or its text going on to
# the next line) and one written as a numbered list. Watched fail: the edited step came home as a
# how_to_apply key beside the unchanged section (memfmt showed the label-alone section twice, as the step and
# as preconditions), and a numbered list was one step, '1. Check git status is clean. 2. Run …'.

def _claude(body: str) -> Store:
    raw = f"---\nname: Release carefully\ndescription: About to publish a package\ntype: feedback\n---\n{body}"
    index = "- [Release carefully](feedback_release.md) — About to publish a package\n"
    return read_files({"feedback_release.md": raw.encode(), "MEMORY.md": index.encode()}, "claude")


def _memoir(body: str, how: str) -> Store:
    raw = (f"---\ntype: lesson\nname: Release carefully\ndescription: Releasing needs care\ntrigger: About to publish"
           f" a package\nhow_to_apply: {how}\ncreated: 2026-04-11\n---\n{body}")
    return read_files({"memory/lesson_release.md": raw.encode()}, "memoir")


def _procedure(files: dict[str, bytes]):
    import memfmt

    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    return memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0]


def _home(store: Store, dialect: str, edit: tuple[bytes, bytes] | None = None) -> str:
    files, _ = convert_files(store, "memfmt")
    back, _ = convert_files(read_files(_edit(files, *edit) if edit else files, "memfmt"), dialect)
    (path,) = [p for p in back if p.endswith("_release.md")]
    return back[path].decode()


_TWO_LINES = "Rollbacks broke prod once.\n\n**How to apply:**\nRestore the last tag\nand redeploy it.\n"
_GOING_ON = "Rollbacks broke prod once.\n\n**How to apply:** Restore the last tag\nand redeploy it.\n"


@pytest.mark.parametrize("body", [_TWO_LINES, _GOING_ON], ids=["label-alone", "text-going-on"])
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_a_how_to_apply_section_of_two_lines_edited_in_memfmt_is_replaced(dialect, body):
    store = _claude(body) if dialect == "claude" else _memoir(body, "Restore the last tag and redeploy it.")
    files, _ = convert_files(store, "memfmt")
    procedure = _procedure(files)
    assert [s.action for s in procedure.steps] == ["Restore the last tag and redeploy it."]
    assert not any("How to apply" in p or "redeploy" in p for p in procedure.preconditions), "shown once, as the step"
    text = _home(store, dialect, (b"1. Restore the last tag and redeploy it.", b"1. Restore the last tag twice."))
    head, _, home = text.rpartition("---\n")
    assert home.lstrip("\n") == body.replace("Restore the last tag\nand redeploy it.", "Restore the last tag twice.")
    if dialect == "claude":
        assert "how_to_apply" not in head, "no key beside the section"
    else:
        assert "how_to_apply: Restore the last tag twice.\n" in head


def test_claude_how_to_apply_sections_of_every_shape_edited_in_memfmt_land_in_their_section():
    # A section inside a **Why:** paragraph, one labelled '**How to apply**:', one of two lines with a fenced
    # example of the label above it: each came home as a key beside the old section.
    from .conftest import GOLDEN

    source = GOLDEN / "claude" / "mixed-project" / "input"
    store = dialects.get("claude").read(source)
    files, _ = convert_files(store, "memfmt")
    steps = {"Run the real test suite": b"before saying a DB change is done.",
             "Ask before force-pushing": b"when the answer is yes.",
             "No mocks for the DB layer": b"rather than mocking."}
    for name, end in steps.items():
        path = f"memory/procedures/{name}.md"
        head, _, text = files[path].partition(b"\n## Steps\n")
        assert text.count(end) == 1 and end not in head.partition(b"\n---\n")[2], f"{name}: shown once, as the step"
        files[path] = head + b"\n## Steps\n" + text.replace(end, end[:-1] + b" EDITED.")
    back, _ = convert_files(read_files(files, "memfmt"), "claude")
    for path, end in (("feedback_testing.md", b"done"), ("feedback-force-push.md", b"yes"),
                      ("feedback_no_mocks.md", b"mocking")):
        before, after = (source / path).read_bytes(), back[path]
        assert b"how_to_apply" not in after
        assert after.count(b" EDITED.") == 1, path
        assert after.replace(b"\n", b" ").replace(b" EDITED.", b".") == before.replace(b"\n", b" "), \
            f"{path}: the section edited, the rest as it was"
        assert after.split(b"**How to apply")[0] == before.split(b"**How to apply")[0]


_LIST = "Releases broke twice.\n\n**How to apply:**\n1. Check git status is clean.\n2. Run npm version patch.\n" \
        "3. Run npm publish.\n"
_ITEMS = ["Check git status is clean.", "Run npm version patch.", "Run npm publish."]


@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_a_numbered_how_to_apply_section_is_a_memfmt_step_per_item_and_comes_home_exactly(dialect):
    store = _claude(_LIST) if dialect == "claude" else _memoir(_LIST, "Follow the release checklist.")
    files, _ = convert_files(store, "memfmt")
    procedure = _procedure(files)
    own = [] if dialect == "claude" else ["Follow the release checklist."]
    assert [s.action for s in procedure.steps] == own + _ITEMS
    assert procedure.preconditions == ([] if dialect == "claude" else ["Releasing needs care"]) \
        + ["Releases broke twice."], "the label and the list are not preconditions"
    back, _ = convert_files(read_files(files, "memfmt"), dialect)
    assert back == convert_files(store, dialect)[0], "the way back is exact"


def _steps_edited(files: dict[str, bytes], change) -> dict[str, bytes]:
    """``files`` with the memfmt procedure's steps made ``change(steps)``, numbered again, as a person edits them."""
    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    head, _, steps = files[path].decode().partition("\n## Steps\n\n")
    lines = steps.rstrip("\n").split("\n")
    assert all(line[0].isdigit() for line in lines)
    texts = change([line.split(". ", 1)[1] for line in lines])
    files = dict(files)
    files[path] = (head + "\n## Steps\n\n" + "".join(f"{n}. {t}\n" for n, t in enumerate(texts, 1))).encode()
    return files


_CHANGES = {"changed": lambda s: [t.replace("patch", "minor") for t in s],
            "added": lambda s: [x for t in s for x in ([t, "Run npm test."] if "patch" in t else [t])],
            "removed": lambda s: [t for t in s if "patch" not in t]}


@pytest.mark.parametrize("change", list(_CHANGES))
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_an_item_of_a_numbered_how_to_apply_edited_in_memfmt_lands_on_its_line(dialect, change):
    store = _claude(_LIST) if dialect == "claude" else _memoir(_LIST, "Follow the release checklist.")
    files, _ = convert_files(store, "memfmt")
    back, _ = convert_files(read_files(_steps_edited(files, _CHANGES[change]), "memfmt"), dialect)
    text = back[[p for p in back if p.endswith("_release.md")][0]].decode()
    assert_list_landed(text, "Releases broke twice.", _CHANGES[change](_ITEMS), dialect, "Follow the release checklist.")
