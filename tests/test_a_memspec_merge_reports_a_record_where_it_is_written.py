"""A memspec record a merge moves (made superseded or retired by one copy) is reported at the path it is written to.

memspec files a record by its state: an active claim under ``memory/``, a superseded or retired one under
``archive/``. A merge keeps a state monotone, so the copy that wins (active, under ``memory/``) can be written
to ``archive/``; the report named the winner's old path, a file OUT does not hold.
"""

from __future__ import annotations

from memconv.model import Edge

from .test_merge_memspec_memfmt_rules import FACT, OTHER, _memspec, retired_here_edited_there


def test_a_record_retired_by_one_copy_is_reported_at_its_archive_path(tmp_path):
    result, out = _memspec(tmp_path, *retired_here_edited_there(FACT))
    line = next(o for o in result.outcomes if o.identity == FACT)
    assert line.status == "updated" and line.won == "B"
    assert out[FACT].source.path.startswith(".memspec/archive/"), "a retired record is filed under archive/"
    assert line.where == out[FACT].source.path, "the report names the file the merge wrote, not the winner's old one"
    assert line.where in result.files, "every path the report names is a file of OUT"


def test_a_record_a_chain_supersedes_is_reported_at_its_archive_path(tmp_path):
    """A record both copies hold alike, which a record only A has supersedes: the chain files it under archive/."""
    def successor(r):
        if r.link == OTHER:
            r.edges = [e for e in r.edges if e.type != "supersedes"] + [Edge("supersedes", FACT)]
        return r

    result, out = _memspec(tmp_path, successor, lambda r: r)
    assert out[FACT].lifecycle.state == "superseded" and out[FACT].source.path.startswith(".memspec/archive/")
    for line in result.outcomes:
        if line.kind == "record":
            assert line.where in result.files, f"{line.where} ({line.status}) is a file the merge wrote"
