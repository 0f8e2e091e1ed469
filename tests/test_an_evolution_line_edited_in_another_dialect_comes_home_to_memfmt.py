"""A memfmt procedure's evolution, edited in memoir, Claude or memspec, comes home as its evolution.

None of the three has a field for a procedure's evolution: each shows it as a list under ``**Evolution:**`` in the
body, a line each (``- v2 → v3: wait for the pool before probing``), without the runs memfmt writes in the line's
brackets (``(9✓/1✗)``). Found by a hunt (2026-12-07, forty-sixth session): a line edited there came home to memfmt
as it was, and the report said the edit was dropped ("memfmt's files have no place for them"), though memfmt has the
field. As for the steps, the edited list is the evolution; a line whose versions (``v2 → v3``) are as they were keeps
its runs (they are what the retiring version achieved: the versions say which line it is); a line whose versions
were edited, and an added line, have none.
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN
from .convert_helpers import assert_home_byte_for_byte, convert_files, read_files

_PATH = "memory/procedures/deploy to Railway.md"
_SOURCE = (GOLDEN / "memfmt" / "full" / "input" / _PATH).read_bytes()
_LINE = "- v2 → v3: wait for the pool before probing".encode()


def _there(via: str, edited: str) -> dict[str, bytes]:
    files, _ = convert_files(read_files({_PATH: _SOURCE}, "memfmt"), via)
    hits = [p for p, data in files.items() if _LINE in data.partition(b"\n---\n")[2]]
    assert len(hits) == 1, "the evolution is shown once, in the record's text"
    files[hits[0]] = files[hits[0]].replace(_LINE, edited.encode())
    return files


def _evolution(files: dict[str, bytes]) -> list[tuple]:
    import memfmt

    [procedure] = memfmt.parse({_PATH.removeprefix("memory/"): files[_PATH].decode()}).procedures
    return [(r.version_before, r.version_after, r.reason, r.date, r.success_count, r.fail_count)
            for r in procedure.evolution]


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_an_evolution_line_edited_elsewhere_is_the_evolution_at_home_with_its_runs(via):
    # Watched fail before the fix (readable._evolution_back): the evolution came home unchanged, the edit said
    # dropped ("edited in <via>: body — memfmt's files have no place for them").
    back, report = convert_files(read_files(_there(via, "- v2 → v3: WAIT FOR POOL\n- v3 → v4: pin the pool"), via),
                                 "memfmt")
    assert _evolution(back) == [(1, 2, "added the health check", "2026-06-02", 4, 2),
                                (2, 3, "WAIT FOR POOL", None, 9, 1),
                                (3, 4, "pin the pool", None, None, None)], \
        "the edited list is the evolution; a line whose versions are as they were keeps its runs"
    assert not [f for f in report.files if f.dropped], "nothing is said dropped: the edit came home"
    before, after = _SOURCE.decode().split("## Evolution")[0], back[_PATH].decode().split("## Evolution")[0]
    assert after == before, "the rest of the procedure is as it was"


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_a_line_whose_versions_were_edited_is_a_new_line_without_runs(via):
    back, _ = convert_files(read_files(_there(via, "- v2 → v4: wait for the pool before probing"), via), "memfmt")
    assert _evolution(back)[1:] == [(2, 4, "wait for the pool before probing", None, None, None)], \
        "the runs belong to the versions they were counted for; not to a line that now says other versions"


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_an_unedited_evolution_comes_home_byte_for_byte(via):
    assert_home_byte_for_byte(_PATH, _SOURCE, "memfmt", via)
