"""Instants as memspec writes them: ISO 8601 in, JavaScript ``toISOString()`` out."""

from __future__ import annotations

import functools
from datetime import datetime, timezone


def instant_ms(text: str | None) -> int | None:
    """Milliseconds since the epoch of an ISO 8601 date or date-time, or None if it is not one."""
    if not isinstance(text, str):  # (a value from IN may be anything, a list included: not a cache key)
        return None
    return _instant_ms(text)


@functools.lru_cache(maxsize=4096)  # pure, and a store repeats its dates: asked once per record per render
def _instant_ms(text: str) -> int | None:
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp() * 1000)


@functools.lru_cache(maxsize=4096)
def iso(ms: int) -> str | None:
    """JavaScript's ``Date.prototype.toISOString()``: ``2026-04-04T10:30:00.000Z``; None past year 9999.

    The year has four digits, zero-padded (``0001-04-01…``: ``strftime("%Y")`` gives ``1`` on Linux,
    which memspec's schema refuses). Past 9999, JavaScript writes ``+010000-…``, which memspec's schema
    refuses too: the caller writes no such instant (``created: 9999-12-31`` plus a review period
    crashed memconv before, ``year 10000 is out of range``).
    """
    try:
        moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:"
            f"{moment.second:02d}.{ms % 1000:03d}Z")
