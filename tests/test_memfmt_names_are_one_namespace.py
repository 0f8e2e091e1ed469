"""memfmt links every memory by its name, whatever its kind: two records of one title, an entity and
a procedure or an episode, get two names, so a link to one of them comes back to that one."""

from __future__ import annotations

import pytest

from memconv.converters import convert
from memconv.model import Edge, Record, Store, meaning

from .convert_helpers import convert_files, read_files


@pytest.mark.parametrize("kind", ["procedure", "episode", "fact"])
def test_a_link_to_one_of_two_records_of_one_title_comes_back_to_it(kind):
    # Found by hypothesis (test_conversion_property): the goal's link to itself came back naming the
    # procedure, then the episode, of the same title. Verified failing with TITLE_IS_LINK = {"entity"}.
    records = [Record(kind="goal", link="goal_r0", title="0 0 0", body="",
                      edges=[Edge(type="supports", target="goal_r0", direction="out")]),
               Record(kind=kind, link="other_r1", title="0 0 0", body="",
                      edges=[Edge(type="supports", target="goal_r0", direction="out")])]
    store = Store(dialect="memoir", records=records)
    files, _ = convert_files(store, "memfmt")
    back = convert(read_files(files, "memfmt"), "memoir")
    assert {r.link: meaning(r) for r in back.records} == {r.link: meaning(r) for r in records}
