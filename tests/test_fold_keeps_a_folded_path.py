"""``dialects.fold``: the name a case-insensitive, normalising file system sees for a path.

Every writer keeps the folded name of each file it places (``Names``); a path already folded is given back as it
is, not as a second string per record (docs/performance.md, "(thirteenth)").
"""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memconv.dialects import Names, fold


@given(st.text(max_size=30))
def test_fold_is_the_normalised_casefold(path):
    assert fold(path) == unicodedata.normalize("NFC", path).casefold()


def test_a_path_already_folded_is_given_back_itself():
    path = "".join(["entries/fact_", "redis-cache.md"])  # made at run time, as a writer makes it
    assert fold(path) is path
    assert fold("Entries/Redis.md") == "entries/redis.md"


def test_two_names_one_file_system_name_are_still_told_apart():
    names = Names()
    assert names.place("notes/redis.md") == "notes/redis.md"
    assert names.place("notes/Redis.md") != "notes/Redis.md"  # the same file on macOS: numbered
