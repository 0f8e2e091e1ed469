"""What makes two copies "the same record", and how copies are ordered.

One place for the three comparisons every merge rule uses:

* identity: a session item's normalised text (memoir spec §5.1), or its
  ``text_hash`` when it is a purged tombstone;
* recency: a date field read as an instant, a missing or unparseable date
  being the epoch (§5.2);
* the canonical tie-break: when dates tie, the copy whose canonical JSON is
  greater wins, so that the result never depends on which store was named
  first (merge is commutative, byte for byte).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from typing import Any

#: The literal text of a purged decision tombstone (spec §5.3.1).
PURGED_TEXT = "[purged]"

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def normalise(text: str) -> str:
    """The identity of a session item's text: trimmed and lower-cased.

    The spec says "case-folded"; memoir-cli computes ``trim().toLowerCase()``
    and hashes that into ``text_hash``. We lower-case as the tool does, so a
    purged tombstone written by memoir-cli matches here (``str.casefold``
    would map ``ß`` to ``ss`` and miss it). See docs/merge.md.
    """
    return text.strip().lower()


def text_hash(text: str) -> str:
    """sha256 hex of the normalised text: memoir's ``text_hash``."""
    return hashlib.sha256(utf8(normalise(text))).hexdigest()


def utf8(text: str) -> bytes:
    """UTF-8 as JavaScript encodes a string: a lone surrogate (JSON allows ``\\ud800``) becomes U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def canonical(value: Any) -> str:
    """A JSON spelling of ``value`` that does not depend on key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def spelled(value: Any) -> str:
    """A JSON spelling of ``value`` in its own key order: the last tie-break between equal copies."""
    return json.dumps(value, ensure_ascii=False)




def item_key(item: Any) -> str:
    """The identity of a session-list item.

    A purged tombstone (hidden, with ``text_hash``) is keyed by its hash, any
    other item by the hash of its normalised text, so both forms of one
    decision meet; the hash is not an identity for a live item (spec §5.1,
    §5.3.1). An item with no text (malformed, but present) is keyed by its
    whole content: it is never dropped, and only an identical copy merges
    with it.
    """
    if isinstance(item, dict):
        digest = item.get("text_hash")
        if is_hidden(item) and isinstance(digest, str) and digest:
            return "sha256:" + digest.lower()
        text = item.get("text")
        if isinstance(text, str):
            return "sha256:" + text_hash(text)
    return "raw:" + canonical(item)


def parses(value: Any) -> bool:
    """Whether ``value`` is a date :func:`instant` can read."""
    return _moment(value) is not None


def instant(value: Any) -> int:
    """Microseconds since the epoch of an ISO 8601 date or date-time; 0 when missing or unreadable.

    A time with no offset is read as UTC (JavaScript would read it as local
    time, which differs between machines; a merge must not).
    """
    moment = _moment(value)
    return 0 if moment is None else moment


def _moment(value: Any) -> int | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text[-1:] in ("z", "Z"):
        text = text[:-1] + "+00:00"
    try:
        moment = _dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.timezone.utc)
    try:
        return (moment - _EPOCH) // _dt.timedelta(microseconds=1)
    except OverflowError:
        return None


def is_purged(item: Any) -> bool:
    """A purged decision tombstone: hidden (:func:`is_hidden`), and its identity kept only as ``text_hash``, which
    is not empty (memoir-cli's merge takes a tombstone as purged by a truthy ``text_hash``; :func:`item_key` keys
    by it only then too)."""
    digest = item.get("text_hash") if is_hidden(item) else None
    return isinstance(digest, str) and digest != ""


def is_hidden(item: Any) -> bool:
    """Whether a session item is hidden, as memoir-cli reads it: an object whose ``hidden`` is truthy in
    JavaScript's sense (``!d?.hidden`` in its pinned block, ``i.hidden`` in its merge's tombstones).
    ``"true"``, ``"false"``, ``"0"``, ``1``, ``[]``, ``{}`` hide it; ``false``, ``0``, ``""``, ``null`` and no
    ``hidden`` do not. The one rule for the converters' renderings and the merge (docs/conversion.md,
    docs/merge.md); the value itself is never rewritten."""
    if not isinstance(item, dict):
        return False
    flag = item.get("hidden")
    if flag is None or isinstance(flag, bool):
        return flag is True
    if isinstance(flag, (int, float)):
        return flag == flag and flag != 0  # NaN and ±0 are falsy
    return flag != "" if isinstance(flag, str) else True  # an object or an array, empty too, is truthy
