"""A memfmt procedure's steps, edited in another dialect, come home into its steps, each step keeping its counts.

memfmt writes a step's track record (``(12✓/0✗)``) and what it needs and gives (``[→ deploy]``) at the end of its
line; memoir and memspec show the steps as a ``**Steps:**`` block of the body, Claude Code as its ``**How to
apply:**`` list, each line its action and detail alone. Found by a hunt (2026-12-07): an edit of that block in
memspec or memoir was dropped (said, but lost: the procedure came home unchanged), and in Claude an edit of one line
took the counts and needs/gives off every step. A step whose line is as it was keeps them; a line edited in place is
that step edited, as in memfmt's own file, where the counts stay on the line a person edits; an added step has none.
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN
from .convert_helpers import assert_home_byte_for_byte, convert_files, read_files

_PATH = "memory/procedures/deploy to Railway.md"
_SOURCE = (GOLDEN / "memfmt" / "full" / "input" / _PATH).read_bytes()
_LINES = "3. verify /health — expect 200 within 60s\n4. announce in #ops".encode()
_EDITED = "3. verify /health — expect 200 within 90s\n4. tag the release\n5. announce in #ops".encode()
_MOVED = "3. announce in #ops\n4. verify /health — expect 200 within 60s".encode()


def _there(via: str, edited: bytes = _EDITED) -> dict[str, bytes]:
    files, _ = convert_files(read_files({_PATH: _SOURCE}, "memfmt"), via)
    hits = [p for p, data in files.items() if _LINES in data.partition(b"\n---\n")[2]]
    assert len(hits) == 1, "the steps are shown once, in the record's text"
    files[hits[0]] = files[hits[0]].replace(_LINES, edited)
    return files


def _procedure(files: dict[str, bytes]):
    import memfmt

    return memfmt.parse({_PATH.removeprefix("memory/"): files[_PATH].decode()}).procedures[0]


@pytest.mark.parametrize("via", ["memspec", "memoir", "claude"])
def test_a_step_edited_and_a_step_added_come_home_each_step_keeping_its_counts(via):
    # Watched fail: memspec and memoir brought the procedure home unchanged ("edited in memspec: body … the edit is
    # dropped"); Claude brought the edited lines home without a count or a needs/gives on any step.
    back, report = convert_files(read_files(_there(via), via), "memfmt")
    steps = [(s.action, s.detail, s.success_count, s.fail_count, s.needs, s.gives) for s in _procedure(back).steps]
    assert steps == [("push to main", "the webhook does the rest", 12, 0, [], ["deploy"]),
                     ("watch the boot log", None, None, None, ["deploy"], ["boot log"]),
                     ("verify /health", "expect 200 within 90s", 9, 3, ["deploy"], []),
                     ("tag the release", None, None, None, [], []),
                     ("announce in #ops", None, None, None, [], [])]
    assert not [f for f in report.files if f.dropped], "nothing is said dropped: the edit came home"
    rest = back[_PATH].decode().split("## Steps")
    assert rest[0] == _SOURCE.decode().split("## Steps")[0], "the rest of the procedure is as it was"


@pytest.mark.parametrize("via", ["memspec", "memoir", "claude"])
def test_a_step_moved_keeps_its_counts_where_it_goes(via):
    back, _ = convert_files(read_files(_there(via, _MOVED), via), "memfmt")
    steps = [(s.action, s.success_count, s.fail_count, s.needs) for s in _procedure(back).steps]
    assert steps[2:] == [("announce in #ops", None, None, []), ("verify /health", 9, 3, ["deploy"])]


@pytest.mark.parametrize("via", ["memspec", "memoir", "claude"])
def test_an_unedited_procedure_comes_home_byte_for_byte(via):
    assert_home_byte_for_byte(_PATH, _SOURCE, "memfmt", via)
