"""The carry slot: where a target's extension mechanism holds memconv's ``memconv`` key.

Each dialect declares its slot (``CARRY_SLOT``, a :class:`memconv.dialects.protocol.CarrySlot`):
the carry is put there for a target, and looked for in every registered dialect's slot, since a
record read from a store carries what its own dialect's slot holds.
"""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..dialects.protocol import CarrySlot
from ..model import Record
from .carry import Carry


def _slots() -> tuple[CarrySlot, ...]:
    """Every registered dialect's slot, once each, in the registry's order."""
    global _known
    table = dialects.declarations("CARRY_SLOT")
    if _known[0] is not table:
        _known = (table, tuple(dict.fromkeys(table.values())))
    return _known[1]


_known: tuple[object, tuple[CarrySlot, ...]] = (None, ())


def get_carry(record: Record) -> Any:
    """The carry ``record`` wears (a JSON string, or a probe marker), in whichever dialect's slot; or None."""
    for slot in _slots():
        value = slot.get(record)
        if value is not None:
            return value
    return None


def strip_carry(record: Record) -> None:
    """Take memconv's key out of ``record``, from every slot it may be in."""
    for slot in _slots():
        slot.strip(record)


def set_carry(record: Record, target: str, carry: Carry | str) -> None:
    """Put ``carry`` under the one ``memconv`` key of the target's extension mechanism (its declared slot)."""
    dialects.declaration(target, "CARRY_SLOT").put(record, carry if isinstance(carry, str) else carry.dumps())
