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
def iso(ms: int) -> str:
    """JavaScript's ``Date.prototype.toISOString()``: ``2026-04-04T10:30:00.000Z``."""
    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
