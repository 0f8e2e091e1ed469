"""A carried value of the right shape but wrong within is refused saying what is wrong, and where.

``codec.check_json`` checks a carry before any of it is used. For a field that may be absent (``list[str] | None``)
a list holding a number was refused as "a list, not a list or null": true of no part of it. It now names the item.
"""

from __future__ import annotations

import pytest

from memconv.converters.codec import check_json, field_type


@pytest.mark.parametrize("value, said", [
    (["a", 3], "the carried unread[1] is a number, not text"),
    (42, "the carried unread is a number, not a list or null"),
    ("x", "the carried unread is text, not a list or null"),
])
def test_the_message_names_what_is_wrong(value, said):
    with pytest.raises(ValueError) as caught:
        check_json(value, field_type("unread"), "the carried unread")
    assert str(caught.value) == said


def test_a_right_value_passes():
    check_json(["## Notes", "a line"], field_type("unread"), "the carried unread")
    check_json(None, field_type("unread"), "the carried unread")
