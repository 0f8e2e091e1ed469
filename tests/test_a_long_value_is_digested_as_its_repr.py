"""A long text, or a long list, is digested as its ``repr`` is, a piece at a time (:func:`memconv.text.repr_digest`).

Carries keep the digest of a field's ``repr`` and every record read keeps a fingerprint of its fields' ``repr``;
the pieces must give the digits the whole ``repr`` gives, or a carry written before would read as edited.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import text as text_module
from memconv.text import repr_digest, short_digest

#: Quotes, backslashes, line breaks, a lone surrogate, wide and unprintable characters: what ``repr`` escapes.
_CHARS = st.sampled_from(["'", '"', "\\", "\n", "\t", "\x00", "\x7f", "\ud800", "é", "語", "\U0001f600", "a", " "])


@settings(max_examples=500)
@given(st.text(_CHARS, max_size=60), st.integers(min_value=1, max_value=7))
def test_a_text_in_slices_is_its_repr(text, size):
    # Verified by leaving out the escape of ' in a slice that holds no ": "'\"" cut after the ' differs.
    assert "".join(text_module._str_repr_pieces(text, size)) == repr(text)


@given(st.lists(st.one_of(st.text(_CHARS, max_size=8), st.none(), st.integers()), max_size=6),
       st.booleans())
def test_a_list_or_tuple_in_pieces_is_its_repr(items, as_tuple):
    value = tuple(items) if as_tuple else items
    assert "".join(text_module._repr_pieces(value)) == repr(value)


@settings(max_examples=20, deadline=None)
@given(st.text(_CHARS, min_size=1, max_size=20))
def test_a_long_value_has_the_digest_of_its_whole_repr(piece):
    long = piece * (text_module.LONG_TEXT // len(piece) + 1)
    assert len(long) > text_module.LONG_TEXT
    for value in (long, ["a", long], ("x", [long, None]), [piece] * (text_module.MANY_ITEMS + 1)):
        assert repr_digest(value, 32) == short_digest(repr(value), 32)


def test_a_record_with_a_long_body_or_many_facts_keeps_the_fingerprint_of_its_whole_repr():
    from memconv import model

    for record in (model.Record(kind="fact", link="x", body="b" * (text_module.LONG_TEXT + 1)),
                   model.Record(kind="entity", link="y", facts=["f"] * (text_module.MANY_ITEMS + 1)),
                   model.Record(kind="fact", link="z", body="short")):
        assert model.fingerprint(record) == short_digest(repr(model._SAYS(record)), 32)
        assert repr_digest(model._SAYS(record), 32) == short_digest(repr(model._SAYS(record)), 32)
