"""A record held packed (:class:`memconv.model.Packed`) gives back an equal record, sharing nothing it should not.

A conversion handed its records packs each source record as soon as its native record is made, and unpacks it
for its read-back (docs/performance.md, "(thirteenth)"): what it unpacks must be the record it packed.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings

from memconv import pipeline
from memconv.model import Lifecycle, Packed, Record

from .conftest import GOLDEN
from .convert_helpers import golden_inputs
from .test_model_fast_copy import _RECORDS


@settings(max_examples=300, deadline=None)
@given(_RECORDS)
def test_a_packed_record_comes_back_equal_its_values_the_same_objects(record):
    back = Packed(record).record()
    assert back == record and back is not record
    for field in dataclasses.fields(Record):
        mine, theirs = getattr(record, field.name), getattr(back, field.name)
        if field.default_factory is dataclasses.MISSING or mine != field.default_factory():
            assert theirs is mine, field.name  # packed as it was, not copied
        else:
            assert theirs is not mine, field.name  # an empty list or dict, or an active lifecycle: its own


def test_two_records_unpacked_from_one_shape_share_no_default():
    a, b = Packed(Record(kind="fact", link="a")).record(), Packed(Record(kind="fact", link="b")).record()
    a.edges.append("x")
    a.extra["k"] = 1
    a.lifecycle.state = "retired"
    assert b.edges == [] and b.extra == {} and b.lifecycle == Lifecycle()


def test_every_golden_record_comes_back_equal():
    # Each dialect's reader sets its own fields (a memspec claim's probes, a memfmt procedure's steps).
    count = 0
    for source, name in golden_inputs():
        for record in pipeline.read(GOLDEN / source / name / "input", source).records:
            assert Packed(record).record() == record, (source, name, record.link)
            count += 1
    assert count > 50


@settings(max_examples=200, deadline=None)
@given(_RECORDS)
def test_a_record_cleared_but_some_fields_is_a_new_record_with_those_fields(record):
    """What a conversion lets go of a spliced record (converters/forward.py, ``_let_go``): every field but those
    kept, back to its default. Verified by leaving ``body`` out of the cleared fields: this test fails."""
    from memconv.model import clearer

    kept = ("kind", "link", "title", "created")
    expected = Record(**{name: getattr(record, name) for name in kept})
    title = record.title
    clearer(frozenset(kept))(record)
    assert record == expected and record.title is title


def test_records_cleared_share_no_default():
    from memconv.model import clearer

    clear = clearer(frozenset(("kind", "link")))
    a, b = Record(kind="fact", link="a", edges=["x"]), Record(kind="fact", link="b", extra={"k": 1})
    clear(a)
    clear(b)
    a.edges.append("y")
    a.extra["k"] = 2
    a.lifecycle.state = "retired"
    assert b.edges == [] and b.extra == {} and b.lifecycle == Lifecycle()
    assert clearer(frozenset(("link", "kind"))) is clear, "one function for each set of names"
