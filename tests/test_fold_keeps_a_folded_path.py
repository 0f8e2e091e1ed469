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


def test_a_kept_name_that_folds_to_one_given_is_given_out_once():
    # Watched fail with Names asking only its one table whether a name was given out as written: the third record
    # claiming a/fact.md was written over the second (a kept name that clashed is not the table's).
    names = Names()
    assert names.place("a/Fact.md", own=True) == "a/Fact.md"
    assert names.place("a/fact.md", own=True) == "a/fact.md"  # its own file: kept, the clash reported
    assert names.clashes == ["a/fact.md"]
    assert names.place("a/fact.md", own=True) == "a/fact-2.md"
    assert names.renamed == [("a/fact.md", "a/fact-2.md", "same")]


class _TwoSets:
    """Names as it was until one table held what two sets did (a set of the folded names, one of the names as
    given): the model the one table must answer as."""

    def __init__(self, reserved):
        self.taken, self.given, self.reserved, self.renamed, self.clashes = set(), set(), reserved, [], []

    def place(self, path, own=False):
        wanted = path
        why = "index" if self.reserved(path) else "same" if path in self.given else "fold"
        if own and why == "fold":
            if fold(path) in self.taken:
                self.clashes.append(path)
            self.taken.add(fold(path))
            self.given.add(path)
            return path
        stem, dot, ext = wanted.rpartition(".")
        if not dot or "/" in ext:
            stem, ext = wanted, ""
        n = 2
        while fold(path) in self.taken or self.reserved(path):
            path = f"{stem}{'-' if n % 2 == 0 else '_'}{n // 2 + 1}{'.' + ext if ext else ''}"
            n += 1
        self.taken.add(fold(path))
        self.given.add(path)
        if path != wanted:
            self.renamed.append((wanted, path, why))
        return path


@given(st.lists(st.tuples(st.sampled_from(["a.md", "A.md", "a-2.md", "A-2.md", "a_2.md", "MEMORY.md", "memory.md",
                                           "e\u0301.md", "\u00e9.md", "\u00c9.md"]), st.booleans()), max_size=12))
def test_names_give_out_what_two_sets_gave_out(claims):
    reserved = lambda path: path == "MEMORY.md"  # noqa: E731 — a dialect's own index name
    names, model = Names(reserved), _TwoSets(reserved)
    for path, own in claims:
        assert names.place(path, own) == model.place(path, own), (path, own)
    assert (names.renamed, names.clashes) == (model.renamed, model.clashes)
    # Every name given out, as given, once: what a writer's set of the files it wrote held (passed_through asks it).
    assert sorted(names) == sorted(model.given) and len(names) == len(model.given)
