"""The carry slot: where a target's extension mechanism holds memconv's ``memconv`` key."""

from __future__ import annotations

from typing import Any

from ..model import Record
from .carry import KEY, Carry


def get_carry(record: Record) -> Any:
    value = record.extra.get(KEY)
    if value is None:
        ext = getattr(record, "ext", None)
        value = ext.get(KEY) if isinstance(ext, dict) else None
    if isinstance(value, dict):
        # claude keeps its own marker (``kind``) in the same namespace: the carry sits beside it.
        value = value.get("carry")
    return value


def strip_carry(record: Record) -> None:
    record.extra.pop(KEY, None)
    ext = getattr(record, "ext", None)
    if isinstance(ext, dict) and KEY in ext:
        rest = {k: v for k, v in ext.items() if k != KEY}
        record.ext = rest or None


def set_carry(record: Record, target: str, carry: Carry | str) -> None:
    """Put ``carry`` under the one ``memconv`` key of the target's extension mechanism."""
    text = carry if isinstance(carry, str) else carry.dumps()
    if target == "memspec":
        record.ext = {**(record.ext or {}), KEY: text}
    elif target == "claude":
        # A mapping, so that the claude writer can add its kind marker beside it.
        record.extra[KEY] = {"carry": text}
    else:
        record.extra[KEY] = text
