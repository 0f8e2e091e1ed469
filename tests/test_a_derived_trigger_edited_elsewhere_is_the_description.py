"""A Claude feedback memory's trigger is its description (memoir spec Appendix A: ``trigger ← description``; the
file has no ``trigger:`` key). memfmt shows it as ``**When** — …``; memspec shows the description as the first
paragraph and, the same text, no ``**When:**`` line under it (it said it twice before). Edited there, the edit
comes home in the description. Before, it came home as a ``trigger:`` key the file never had, beside the old
description (found by a helper); and in memspec an edited first paragraph came home as a paragraph of the body,
the old description kept. A memory with a trigger key of its own keeps it.
"""

from __future__ import annotations

import pytest

from memconv.converters.carry import Carry

from .claude_support import frontmatter
from .convert_helpers import convert_files, read_files

_INDEX = b"# Memory Index\n\n## Feedback\n- [Run tests first](feedback_tests.md) \xe2\x80\x94 Before saying done\n"


def _memory(trigger: bytes = b"") -> bytes:
    return (b"---\nname: Run tests first\ndescription: Before saying done\ntype: feedback\n" + trigger
            + b"---\n\nAlways run the tests.\n\n**Why:** a broken build last week.\n\n"
            b"**How to apply:** run pytest before reporting.\n")


def _when(files: dict[str, bytes], old: bytes, new: bytes) -> dict[str, bytes]:
    """``files`` with the one line that shows the trigger ``old`` (a ``**When`` line, or in memspec the
    description's paragraph, which is the trigger's text) saying ``new`` (not the carry, which says it too)."""
    files = dict(files)
    hits = []
    for path, data in files.items():
        lines = data.split(b"\n")
        at = [n for n, line in enumerate(lines) if (line.startswith(b"**When") and old in line) or line == old]
        if at and ".memconv/" not in path:
            hits.extend(path for _ in at)
            for n in at:
                lines[n] = lines[n].replace(old, new)
            files[path] = b"\n".join(lines)
    assert len(hits) == 1, "the trigger is shown on one line"
    return files


def _round_trip(via: str, memory: bytes, old: bytes, new: bytes) -> tuple[bytes, dict[str, bytes], dict]:
    claude = read_files({"MEMORY.md": _INDEX, "feedback_tests.md": memory}, "claude")
    files, _ = convert_files(claude, via, release=True)  # as the CLI does: the layout is let go on the way
    back, _ = convert_files(read_files(_when(files, old, new), via), "claude")
    return back["feedback_tests.md"], back, files


@pytest.mark.parametrize("via", ["memfmt", "memspec"])
def test_an_edited_when_line_comes_home_as_the_description(via):
    # Watched fail: 'description: Before saying done' and a new 'trigger: Before reporting any task as finished'.
    data, back, _ = _round_trip(via, _memory(), b"Before saying done", b"Before reporting any task as finished")
    values = frontmatter(data)
    assert values["description"] == "Before reporting any task as finished", "the edit is the description's"
    assert "trigger" not in values, "no key the file never had"
    assert b"Before reporting any task as finished" in back["MEMORY.md"], "and the index line says it"


def test_the_marker_rides_only_where_the_trigger_was_derived():
    derived = convert_files(read_files({"feedback_tests.md": _memory()}, "claude"), "memfmt")[0]
    own = convert_files(read_files({"feedback_tests.md": _memory(b"trigger: Before merging\n")}, "claude"),
                        "memfmt")[0]
    [carried] = [frontmatter(d)["memconv"] for p, d in derived.items() if p.endswith(".md") and b"memconv:" in d]
    [kept] = [frontmatter(d)["memconv"] for p, d in own.items() if p.endswith(".md") and b"memconv:" in d]
    assert Carry.loads(carried).payload.get("derived") == ["trigger"]
    assert "derived" not in Carry.loads(kept).payload


@pytest.mark.parametrize("via", ["memfmt", "memspec"])
def test_a_trigger_key_of_its_own_keeps_the_edit(via):
    data, _, _ = _round_trip(via, _memory(b"trigger: Before merging\n"), b"Before merging", b"Before any merge")
    values = frontmatter(data)
    assert values["trigger"] == "Before any merge"
    assert values["description"] == "Before saying done"


@pytest.mark.parametrize("via", ["memfmt", "memspec"])
def test_an_unedited_round_trip_is_byte_identical(via):
    claude = {"MEMORY.md": _INDEX, "feedback_tests.md": _memory()}
    files, _ = convert_files(read_files(claude, "claude"), via)
    back, _ = convert_files(read_files(files, via), "claude")
    assert {p: d for p, d in back.items() if not p.startswith(".memconv/")} == claude


def test_a_carry_with_other_derived_fields_is_refused():
    with pytest.raises(ValueError, match="derived"):
        Carry.loads({"v": 1, "from": "claude", "derived": ["body"]})
