"""Hand formatting comes home even when the record was edited in the target.

A hand-formatted file (keys out of order, a list not indented, a quoted date,
no blank line after the frontmatter) travels as a format patch against its
canonical rendering. Unedited, the patch gives the file back byte for byte (the
golden round trips check it). Edited in the target, each piece of the patch
that still holds is applied, checked by the origin's reader: the edit wins, and
the rest of the file keeps its hand formatting.
"""

from __future__ import annotations

import pytest

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import DIALECTS, convert_files, read_files

SRC = GOLDEN / "memoir" / "messy" / "input"
PATH = "memory/preference_tone.md"


def _round_trip(via: str, old: bytes, new: bytes) -> tuple[bytes, bytes]:
    """(the original file, the file back home) after ``old`` → ``new`` in the target's own text of it."""
    original = (SRC / PATH).read_bytes()
    files, _ = convert_files(dialects.get("memoir").read(SRC), via)
    hits = 0
    for path, data in files.items():
        if b"Say what is wrong first" in data and "memconv/" not in path and path.endswith(".md"):
            head, sep, tail = data.partition(b"\n---\n")  # frontmatter (and its carry), then the body
            where = tail if old in tail else head
            assert where.count(old) == 1, (via, path)
            data = head + sep + tail.replace(old, new) if where is tail else head.replace(old, new) + sep + tail
            files[path] = data
            hits += 1
    assert hits == 1, f"the record is one file of {via}"
    back, _ = convert_files(read_files(files, via), "memoir")
    return original, back[PATH]


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_a_body_edited_in_the_target_comes_home_with_the_frontmatter_as_written(via):
    original, back = _round_trip(via, b"then why.", b"then why, kindly.")
    assert back == original.replace(b"then why.", b"then why, kindly."), "the edit wins, every hand-made line stays"


@pytest.mark.parametrize("via", ["claude"])  # (memspec and memfmt show the description in the body)
def test_an_edited_value_comes_home_with_the_other_lines_as_written(via):
    original, back = _round_trip(via, b"no hedging", b"no hedging at all")
    assert back == original.replace(b"no hedging", b"no hedging at all")


def test_an_edit_of_a_value_written_by_hand_is_rendered_in_the_hand_made_layout():
    # The date was quoted by hand and moved to the end: the edited date is rendered as memoir
    # renders it, in its hand-made place, and every other line stays as written.
    # Verified by setting the rebuilt source only when the patch's base matches: the file comes
    # home canonical (keys in memoir's order, the list indented).
    original, back = _round_trip("claude", b"\ncreated: 2026-02-10\n", b"\ncreated: 2026-02-11\n")
    assert back == original.replace(b'created: "2026-02-10"\n', b"created: 2026-02-11\n")


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_a_crlf_file_keeps_its_line_ends_and_comment_when_its_body_is_edited(via):
    path = "memory/fact_deploy-window.md"
    original = (SRC / path).read_bytes()
    files, _ = convert_files(dialects.get("memoir").read(SRC), via)
    for name, data in files.items():
        if b"No deploys on Fridays." in data and "memconv/" not in name and name.endswith(".md"):
            head, sep, tail = data.partition(b"\n---\n")
            files[name] = head + sep + tail.replace(b"No deploys on Fridays.", b"No deploys on Fridays or Mondays.")
    back, _ = convert_files(read_files(files, via), "memoir")
    assert back[path] == original.replace(b"No deploys on Fridays.", b"No deploys on Fridays or Mondays.")


@pytest.mark.parametrize(("store", "lesson", "memory", "description", "shape"), [
    # ``originSessionId`` at the top, no blank line after the frontmatter.
    ("broken-links", "memory/lesson_api.md", "feedback_api.md", b"When adding or renaming a REST endpoint",
     b"type: feedback\n"),
    # ``type`` under ``metadata``, above the name: the patch's deletions are a line each, so that each is found with
    # the trigger's line among them (watched fail with them one change of three lines).
    ("mixed-project", "memory/lesson_force-push.md", "feedback-force-push.md",
     b"About to run git push --force on a branch others use", b""),
], ids=["originSessionId", "metadata-type"])
def test_a_legacy_claude_file_keeps_its_shape_when_an_edit_adds_a_key(store, lesson, memory, description, shape):
    # A description Claude also holds, edited in memoir: the carry has no old value of it, so the rendering the patch
    # was made against cannot be made again, and the trigger Claude read from the description is now a key of its own,
    # a line that puts every change of the patch a line off. The changes are found by the lines they replaced
    # (format_patch.rebuild_near). Watched fail before: the file came home canonical (``origin:`` and
    # ``session_id:`` for its ``originSessionId``, ``type`` out of ``metadata``, a blank line after the frontmatter).
    src = GOLDEN / "claude" / store / "input"
    files, _ = convert_files(dialects.get("claude").read(src), "memoir")
    old, new = b"\ndescription: " + description + b"\n", b"\ndescription: Kept for the review\n"
    assert files[lesson].count(old) == 1
    files[lesson] = files[lesson].replace(old, new)
    back, _ = convert_files(read_files(files, "memoir"), "claude")
    original = (src / memory).read_bytes()
    assert original.count(old + shape) == 1
    assert back[memory] == original.replace(old + shape, new + shape + b"trigger: " + description + b"\n")
