"""A memspec record of its own with unknown top-level keys and a comment, converted to memfmt, where a key is added
to it or taken out, comes home as its file with that one line more or less: its comment, its quoting, its blank lines
and its other keys where they were, and nothing said dropped.

Before (2026-12-07): the change of its format patch that writes those keys back (where memspec's writer puts them,
under ``ext.memconv.fields``) was not found by its lines, which the edit had changed, so the file came home canonical:
its comment (``# reviewed with the team on 2026-04-02``) lost with nothing said, its keys moved under ``ext``, a
``source_kind`` it never had written, and the report said its body and ``source_kind`` were dropped.

Before (2026-12-08): the same where the key went last, after the ``memconv:`` line, as memfmt's own library writes
an ``extra`` key added to a loaded record: the change's lines were found, but the key the edit added at the end of
what it replaces was left after it, under the flow-style ``ext:`` line; memspec's reader refused that file, and the
record came home canonical as above.
"""

from __future__ import annotations

import shutil

import memfmt

from memconv.cli import main

from .conftest import GOLDEN

SOURCE = GOLDEN / "memspec" / "current-every-field" / "input"
CLAIM = ".memspec/memory/decisions/ms_01KN6VW9204RGZAZ9BSYT25SEB.md"
EPISODE = "memory/episodes/Use Postgres for the event store.md"


def home_after(runner, tmp_path, old: str, new: str) -> tuple[str, str]:
    """The golden store to memfmt, ``old`` replaced by ``new`` in the decision's episode, and home again:
    (what was said, the decision's file)."""
    there = tmp_path / "memfmt"
    assert runner.invoke(main, ["memspec-to-memfmt", str(SOURCE), str(there)]).exit_code == 0
    episode = there / EPISODE
    text = episode.read_text(encoding="utf-8")
    assert old in text
    episode.write_text(text.replace(old, new, 1), encoding="utf-8")
    back = runner.invoke(main, ["memfmt-to-memspec", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / CLAIM).read_text(encoding="utf-8")


def test_a_key_added_in_memfmt_is_one_line_more(runner, tmp_path):
    _, claim = home_after(runner, tmp_path, "\nowner: ana\n", "\nowner: ana\nreviewer: kim\n")
    original = (SOURCE / CLAIM).read_text(encoding="utf-8")
    # After the keys the file held (its writer adds a key of its own after them), top-level, as its own are.
    ext = "ext: {rejected: [mongodb, dynamo]}\n"
    assert claim == original.replace(ext, ext + "reviewer: kim\n"), claim


def test_a_key_taken_out_in_memfmt_is_one_line_less(runner, tmp_path):
    said, claim = home_after(runner, tmp_path, "\npriority: 2\n", "\n")
    original = (SOURCE / CLAIM).read_text(encoding="utf-8")
    assert claim == original.replace("priority: 2\n", ""), claim
    assert "edited in memfmt: extra.priority" in said


def test_a_key_added_last_by_memfmts_own_library_is_one_line_more(runner, tmp_path):
    there = tmp_path / "memfmt"
    assert runner.invoke(main, ["memspec-to-memfmt", str(SOURCE), str(there)]).exit_code == 0
    memory = memfmt.load(there / "memory")
    [episode] = [e for e in memory.episodes if e.summary == "Use Postgres for the event store"]
    episode.extra["hunt_key"] = "x"
    shutil.rmtree(there / "memory")
    memfmt.write_dir(memfmt.serialise(memory), there)
    text = (there / EPISODE).read_text(encoding="utf-8")
    assert text.index("\nmemconv: ") < text.index("\nhunt_key: x\n") < text.index("\n---\n")  # last
    back = runner.invoke(main, ["memfmt-to-memspec", str(there), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    original = (SOURCE / CLAIM).read_text(encoding="utf-8")
    ext = "ext: {rejected: [mongodb, dynamo]}\n"
    assert (tmp_path / "back" / CLAIM).read_text(encoding="utf-8") == original.replace(ext, ext + "hunt_key: x\n")
