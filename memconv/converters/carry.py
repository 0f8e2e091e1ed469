"""The carry: what a target cannot say natively, kept in its extension mechanism.

A conversion renders a record natively, reads the rendering back, maps it
home again, and compares: whatever did not come back is *carried*, encoded as
JSON under the one ``memconv`` key of the target's extension mechanism. On
the way back the carry is applied, and the record is whole again.

A carried field also remembers a digest of its native value at conversion
time. If a person edits that field natively in the target, the digest no
longer matches: the edit wins, the carried copy is dropped, and the report
says so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ..limits import load_json
from ..model import Record
from .codec import decode, encode, field_type

#: The one key memconv owns in every target's extension mechanism.
KEY = "memconv"
#: Version of the carry document. A newer one is refused, never guessed.
VERSION = 1

#: Record fields that are never compared or carried: provenance, and the bag
#: of unknown keys (compared key by key instead).
_NOT_FIELDS = frozenset({"source", "extra"})
FIELDS = tuple(f.name for f in dataclasses.fields(Record) if f.name not in _NOT_FIELDS)


def flat(record: Record) -> dict[str, Any]:
    """The record as comparable parts: every field, and each unknown key as ``extra.<key>``."""
    parts = {name: getattr(record, name) for name in FIELDS}
    for key, value in record.extra.items():
        if key != KEY:
            parts[f"extra.{key}"] = [value]
    return parts


#: Fields that say which record this is, not what it says: a renamed title in the target
#: does not make it another record, so its link always comes home.
_IDENTITY = frozenset({"link"})


def _differ(before: Any, after: Any) -> bool:
    """Whether two field values differ, ``1`` and ``True`` included (most are both None: cheap)."""
    if before is after:
        return False
    if type(before) is not type(after) or before != after:
        return True
    return (isinstance(before, (list, dict)) or dataclasses.is_dataclass(before)) and repr(before) != repr(after)


def _digest(value: Any) -> str:
    return hashlib.sha1(repr(value).encode("utf-8")).hexdigest()[:12]


@dataclass
class Carry:
    """What one record carries: its source dialect and kind, and the fields that did not come back."""

    origin: str
    fields: dict[str, Any] = field(default_factory=dict)
    #: Digest of each carried field's native value at conversion time.
    native: dict[str, str] = field(default_factory=dict)
    #: Unknown keys' source order, when the native rendering changed it.
    extra_order: list[str] | None = None
    #: Anything else the converter keeps whole (a working set, an index…).
    payload: dict[str, Any] = field(default_factory=dict)

    def dumps(self) -> str:
        doc: dict[str, Any] = {"v": VERSION, "from": self.origin}
        if self.fields:
            doc["fields"] = self.fields
            doc["native"] = self.native
        if self.extra_order is not None:
            doc["extra_order"] = self.extra_order
        doc.update(self.payload)
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, text: Any) -> "Carry":
        doc = load_json(text) if isinstance(text, str) else text
        if not isinstance(doc, dict) or type(doc.get("v")) is not int:
            raise ValueError("the memconv carry is not a carry document")
        if doc["v"] > VERSION:
            raise ValueError(f"the memconv carry is version {doc['v']}; this memconv knows up to {VERSION}")
        payload = {k: v for k, v in doc.items() if k not in ("v", "from", "fields", "native", "extra_order")}
        return cls(origin=str(doc.get("from")), fields=doc.get("fields", {}), native=doc.get("native", {}),
                   extra_order=doc.get("extra_order"), payload=payload)


def difference(original: Record, returned: Record, origin: str, native: Record | None = None) -> Carry:
    """The carry that turns ``returned`` (the native round trip) back into ``original``.

    ``native`` is the returned record before its links were renamed home: edit
    detection compares against what the target's files say, in the target's
    link names, so it does not depend on any other record.
    """
    a, b = flat(original), flat(returned)
    written = flat(native) if native is not None else b
    carry = Carry(origin=origin)
    for name in list(a) + [k for k in b if k not in a]:
        before, after = a.get(name), b.get(name)
        if not _differ(before, after):
            continue
        carry.fields[name] = encode(before) if not name.startswith("extra.") else (before or [])
        if name not in _IDENTITY:
            carry.native[name] = _digest(written.get(name))
    order = [k for k in original.extra if k != KEY]
    returned_order = [k for k in returned.extra if k != KEY and k in original.extra]
    if order != returned_order and order:
        carry.extra_order = order
    return carry


@dataclass
class Applied:
    """What applying a carry did."""

    carried: list[str] = field(default_factory=list)
    #: Fields edited natively in the target: the edit won, the carried copy was dropped.
    overridden: list[str] = field(default_factory=list)


def apply(record: Record, carry: Carry) -> Applied:
    """Put the carried fields back on ``record`` (in place), letting native edits win."""
    done = Applied()
    current = flat(record)
    for name, value in carry.fields.items():
        now = current.get(name)
        if name in carry.native and _digest(now) != carry.native[name]:
            done.overridden.append(name)
            continue
        if name.startswith("extra."):
            key = name[len("extra."):]
            if value:
                record.extra[key] = value[0]
            else:
                record.extra.pop(key, None)
        else:
            setattr(record, name, decode(value, field_type(name)))
        done.carried.append(name)
    record.extra.pop(KEY, None)
    if carry.extra_order is not None:
        order = [k for k in carry.extra_order if k in record.extra]
        record.extra = {k: record.extra[k] for k in order + [k for k in record.extra if k not in order]}
    return done
