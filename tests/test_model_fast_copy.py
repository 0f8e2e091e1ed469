"""The model's generated ``__copy__``/``__deepcopy__`` give what the general copy protocol gives.

``memconv.model`` gives its slotted dataclasses copy methods that set each slot
in turn (docs/performance.md, "The pass after"). The general path is the
object's own ``__reduce_ex__(4)``: a new object plus the state of its slots,
which is what ``copy`` rebuilds from when a class has no copy methods.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import model
from memconv.model import Anchor, Edge, Knowledge, Lifecycle, Origin, Probe, Record, Revision, Step

_TEXT = st.text(max_size=8)
_OPT = st.none() | _TEXT
_SCALARS = st.none() | st.booleans() | st.integers() | _TEXT | st.floats(allow_nan=False)
_DICTS = st.dictionaries(_TEXT, _SCALARS | st.lists(_SCALARS, max_size=2), max_size=3)

_EDGES = st.builds(Edge, type=_TEXT, target=_TEXT, note=_OPT, direction=st.sampled_from(["out", "in"]))
_RECORDS = st.builds(
    Record,
    kind=st.sampled_from(model.KINDS), link=_TEXT, title=_OPT, body=_TEXT,
    tags=st.none() | st.lists(_TEXT, max_size=3),
    origin=st.none() | st.builds(Origin, tool=_OPT, extra=_DICTS),
    lifecycle=st.builds(Lifecycle, state=st.sampled_from(model.LIFECYCLE_STATES), at=_OPT),
    edges=st.lists(_EDGES, max_size=3),
    anchors=st.none() | st.lists(st.builds(Anchor, file=_TEXT, sha=_OPT, extra=_DICTS), max_size=2),
    probes=st.none() | st.lists(st.builds(Probe, command=_OPT, extra=_DICTS), max_size=2),
    steps=st.none() | st.lists(st.builds(Step, action=_TEXT, needs=st.none() | st.lists(_TEXT, max_size=2)),
                                max_size=2),
    evolution=st.none() | st.lists(st.builds(Revision, from_version=st.integers(), to_version=st.integers(),
                                             reason=_TEXT), max_size=2),
    knowledge=st.none() | st.lists(st.builds(Knowledge, kind=_TEXT, title=_TEXT), max_size=2),
    fired_count=st.none() | st.integers(), stale=st.none() | st.booleans(),
    ext=st.none() | _DICTS, extra=_DICTS,
    source=st.none() | st.builds(model.Source, dialect=_TEXT, path=_TEXT),
)


def _general(obj, memo=None):
    """What ``copy`` builds from ``__reduce_ex__(4)`` (deeply when ``memo`` is given)."""
    func, args, state = obj.__reduce_ex__(4)[:3]
    new = func(*args)
    if memo is not None:
        memo[id(obj)] = new
    slots = state[1] if isinstance(state, tuple) else state
    for name, value in (slots or {}).items():
        setattr(new, name, value if memo is None else copy.deepcopy(value, memo))
    return new


def _slots(obj):
    return [(name, getattr(obj, name)) for name in type(obj).__slots__]


@settings(max_examples=200, deadline=None)
@given(_RECORDS)
def test_copy_is_the_general_shallow_copy(record):
    fast, slow = copy.copy(record), _general(record)
    assert type(fast) is type(slow) is Record and fast is not record
    assert fast == slow
    # shallow: every slot holds the very same object as the original's
    assert all(a is b for (_, a), (_, b) in zip(_slots(fast), _slots(record)))


@settings(max_examples=200, deadline=None)
@given(_RECORDS)
def test_deepcopy_is_the_general_deep_copy(record):
    fast, slow = copy.deepcopy(record), _general(record, {})
    assert fast == slow == record
    # deep: no mutable value is shared with the original
    for (name, a), (_, b) in zip(_slots(fast), _slots(record)):
        if isinstance(b, (list, dict)) or hasattr(b, "__slots__") or hasattr(b, "__dict__"):
            assert a is not b, name


@given(_EDGES)
def test_nested_dataclasses_copy_the_same_way(edge):
    assert copy.copy(edge) == _general(edge) and copy.copy(edge) is not edge
    shared = [edge, edge]
    twice = copy.deepcopy(shared)
    assert twice[0] is twice[1] and twice[0] == edge  # the memo is honoured


def test_an_unset_slot_takes_the_general_path():
    edge = Edge.__new__(Edge)
    edge.type = "refines"  # target, note and direction never set
    for made in (copy.copy(edge), copy.deepcopy(edge)):
        assert made.type == "refines" and not hasattr(made, "target")
