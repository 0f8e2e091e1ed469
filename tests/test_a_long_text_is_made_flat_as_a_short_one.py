"""A text made flat (one line, each run of whitespace one space) is the same whatever its length.

Past 64 KiB, :func:`memconv.text.flat` cuts the text into words a slice at a time (a 50 MB body cut into words
at once was 600 MB of strings): the words the end of a slice cuts must come out whole, or a digest or a fact of
a long body would differ from a short one's.
"""

import sys

from hypothesis import given
from hypothesis import strategies as st

from memconv import text as text_module
from memconv.text import flat

#: Every character ``str.split`` splits on, and a few it does not (a zero-width space, a word joiner), among
#: letters: the texts are mostly whitespace of every kind, and short words.
_SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
_CHARS = st.sampled_from(_SPACES[:8] + _SPACES[-8:] + ["\u200b", "\u2060", "a", "é", "語", "`", "-"])


@given(st.text(_CHARS, max_size=120), st.integers(min_value=1, max_value=9))
def test_a_text_cut_in_slices_is_flat_as_split_makes_it(text, size):
    assert text_module._flat_in_slices(text, size) == " ".join(text.split())


@given(st.text(_CHARS, max_size=40), st.text(st.sampled_from("ab "), min_size=1, max_size=3))
def test_a_text_over_the_slice_is_flat_as_split_makes_it(piece, join):
    long = (piece + join) * (text_module._SLICE // (len(piece) + len(join)) + 2)
    assert len(long) > text_module._SLICE
    assert flat(long) == " ".join(long.split())


def test_a_word_longer_than_a_slice_comes_out_whole():
    word = "x" * (3 * text_module._SLICE + 5)
    assert flat(f"\n {word}  {word}\t") == f"{word} {word}"


@given(st.text(_CHARS, max_size=30), st.text(_CHARS, max_size=30), st.integers(min_value=0, max_value=4),
       st.booleans())
def test_two_long_texts_are_the_same_stripped_as_strip_says(a, b, pad, same):
    # Verified by comparing from where each text's words start to its length (end_of_text left out): it fails.
    long = "x y " * (text_module._SLICE // 4 + 1)
    first = a + long + a
    second = (a if same else b) + long + (" " * pad + a if same else b)
    assert text_module.same_stripped(first, second) == (first.strip() == second.strip())


@given(st.lists(st.sampled_from(["", " ", "a", "a ", "\n", "x\n ", " \t", "b\n\n"]), max_size=5))
def test_memfmt_s_text_ends_as_joined_and_trimmed(lines):
    from memconv.dialects.memfmt import files

    assert files._finish(list(lines)) == "\n".join(lines).rstrip() + "\n"


@given(st.one_of(st.none(), st.text(_CHARS, max_size=60)))
def test_memfmt_s_one_line_is_its_pattern_s(text):
    # memfmt's bullets were made by a pattern (whitespace runs to a space, the ends stripped): text.flat is the
    # same rule, four times as fast. Verified by making one_line strip only spaces: it fails.
    import re

    from memconv.dialects.memfmt import syntax

    assert syntax.one_line(text) == re.sub(r"\s+", " ", (text or "").strip())
