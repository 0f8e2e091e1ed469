"""The carry: what a target cannot say natively, kept in its extension mechanism.

A conversion renders a record natively, reads the rendering back, maps it
home again, and compares: whatever did not come back is *carried*, encoded as
JSON under the one ``memconv`` key of the target's extension mechanism. On
the way back the carry is applied, and the record is whole again.

A carried field also remembers a digest of its native value at conversion
time. If a person edits that field natively in the target, the digest no
longer matches: the edit wins, the carried copy is dropped, and the report
says so. A carry read from IN is checked whole before use (:mod:`.carry_checks`).
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from typing import Any

from ..limits import load_json
from ..model import Record
from ..text import flat, is_long, remember, repr_digest, short_digest
from .codec import as_json, check_json, compact_json, dataclass_fields, field_type, from_json
from .carry_checks import check_edges, check_format, check_inline, check_link, check_meaning, check_text
from .native import INLINE
from .transforms import PARAGRAPH_BREAK, filled_description

#: The one key memconv owns in every target's extension mechanism.
KEY = "memconv"
#: Version of the carry document. A newer one is refused, never guessed.
VERSION = 1

#: Record fields that are never compared or carried: provenance, and the bag
#: of unknown keys (compared key by key instead).
_NOT_FIELDS = frozenset({"source", "extra"})
FIELDS = tuple(f.name for f in dataclasses.fields(Record) if f.name not in _NOT_FIELDS)
_FIELD_SET = frozenset(FIELDS) | _NOT_FIELDS
#: A record's values of ``FIELDS``, in that order, in one call.
_VALUES = operator.attrgetter(*FIELDS)


def parts(record: Record) -> dict[str, Any]:
    """The record as comparable parts: every field, and each unknown key as ``extra.<key>``."""
    out = {name: getattr(record, name) for name in FIELDS}  # Record has __slots__: no vars()
    for key, value in record.extra.items():
        if key != KEY:
            out[f"extra.{key}"] = [value]
    return out


#: Values that say nothing: a part holding one is not listed by :func:`said`.
_SAYS_NOTHING = (None, [], False)


def said(record: Record) -> list[str]:
    """The names of ``parts(record)`` that say something (not None, ``[]`` or ``False``), in its
    order: what a report lists as kept natively. Without building ``parts()``: most fields are None."""
    names = [name for name, value in zip(FIELDS, _VALUES(record))
             if value is not None and value not in _SAYS_NOTHING]
    names.extend(f"extra.{key}" for key in record.extra if key != KEY)  # [value] is never one of them
    return names


def _part(record: Record, name: str) -> Any:
    """``parts(record).get(name)``, without building them all."""
    if name.startswith("extra."):
        key = name[len("extra."):]
        return [record.extra[key]] if key != KEY and key in record.extra else None
    return getattr(record, name, None) if name in _FIELD_SET else None


#: Fields that say which record this is, not what it says: a renamed title in the target
#: does not make it another record, so its link always comes home.
_IDENTITY = frozenset({"link"})


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types and key orders all the way down (``1`` is not ``True``, ``0.0`` not ``-0.0``).

    What ``a == b and repr(a) == repr(b)`` says of the values a record holds, without
    building two ``repr`` strings of every list of edges or steps.
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is str or kind is int or kind is bool:
        return a == b
    if kind is list or kind is tuple:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if kind is dict:
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    names = dataclass_fields(kind)
    if names is not None:
        return all(_same(getattr(a, n), getattr(b, n)) for n in names)
    return a == b and repr(a) == repr(b)


#: Digests of short reprs (``None``, ``[]``, a date, a word), said again and again across a store:
#: a carry keeps one for every field it carries. Emptied when full.
_DIGESTS: dict[str, str] = {}


def field_digest(value: Any) -> str:
    """The digest a carry keeps of a field's native value, to see whether it was edited in the target."""
    if is_long(value):
        return repr_digest(value)  # a long text or list: its repr, digested a piece at a time
    text = repr(value)
    if len(text) > 64:
        return short_digest(text)
    found = _DIGESTS.get(text)
    return found if found is not None else remember(_DIGESTS, text, short_digest(text))


@dataclass
class Carry:
    """What one record carries: its source dialect and kind, and the fields that did not come back."""

    owner: str
    fields: dict[str, Any] = field(default_factory=dict)
    #: Digest of each carried field's native value at conversion time.
    native: dict[str, str] = field(default_factory=dict)
    #: Unknown keys' source order, when the native rendering changed it.
    extra_order: list[str] | None = None
    #: Anything else the converter keeps whole (a working set, an index…).
    payload: dict[str, Any] = field(default_factory=dict)

    def dumps(self) -> str:
        doc: dict[str, Any] = {"v": VERSION, "from": self.owner}
        if self.fields:
            doc["fields"] = self.fields
            doc["native"] = self.native
        if self.extra_order is not None:
            doc["extra_order"] = self.extra_order
        doc.update(self.payload)
        return compact_json(doc)

    @classmethod
    def loads(cls, text: Any) -> "Carry":
        """The carry in ``text`` (JSON, or already parsed), checked whole before any of it is used.

        A carry is input like any other file (IN is untrusted, memconv's own
        marks included). Raises ``ValueError`` saying what is wrong; the caller
        then converts the record from what the target shows.
        """
        try:
            doc = load_json(text) if isinstance(text, str) else text
        except ValueError as exc:
            raise ValueError(f"the memconv carry is not JSON memconv reads ({exc})") from None
        if not isinstance(doc, dict) or type(doc.get("v")) is not int:
            raise ValueError("the memconv carry is not a carry document")
        if doc["v"] > VERSION:
            raise ValueError(f"the memconv carry is version {doc['v']}; this memconv knows up to {VERSION}")
        if doc["v"] < 1:
            raise ValueError(f"the memconv carry has version {doc['v']}, which no memconv wrote")
        check_text(doc, "the memconv carry")
        payload = {k: v for k, v in doc.items() if k not in ("v", "from", "fields", "native", "extra_order")}
        carry = cls(owner=doc.get("from"), fields=doc.get("fields", {}), native=doc.get("native", {}),
                    extra_order=doc.get("extra_order"), payload=payload)
        carry.validate()
        return carry

    def validate(self) -> None:
        """Raise ``ValueError`` unless every part of the carry is what memconv writes there."""
        from ..dialects import MODULES

        if self.owner not in MODULES:
            raise ValueError(f"the memconv carry names {self.owner!r} as its dialect, which memconv does not know")
        check_json(self.fields, dict[str, Any], "the carry's fields")
        check_json(self.native, dict[str, str], "the carry's native digests")
        check_json(self.extra_order, list[str] | None, "the carry's extra_order")
        for name, value in self.fields.items():
            if name.startswith("extra."):
                if not isinstance(value, list) or len(value) > 1:
                    raise ValueError(f"the carried {name} is not a list of at most one value")
                continue
            if name not in FIELDS:
                raise ValueError(f"the carry holds a field {name!r} that memconv does not have")
            check_json(value, field_type(name), f"the carried {name}")
            check_meaning(name, value)
            if name == "link":
                check_link(self.owner, value)
            if name == "edges":
                check_edges(self.owner, value)
        if "kind" in self.payload:
            check_json(self.payload["kind"], str, "the carried kind")  # a list was a TypeError: exit 4
            check_meaning("kind", self.payload["kind"])
        if "format" in self.payload:
            check_format(self.payload["format"])
        if INLINE in self.payload:
            check_inline(self.payload[INLINE])
        if self.payload.get("derived", ["trigger"]) != ["trigger"]:
            raise ValueError("the carry's derived fields are not the ones memconv writes there")


def difference(original: Record, returned: Record, owner: str, native: Record | None = None) -> Carry:
    """The carry that turns ``returned`` (the native round trip) back into ``original``.

    ``native`` is the returned record before its links were renamed home: edit
    detection compares against what the target's files say, in the target's
    link names, so it does not depend on any other record.
    """
    carry = Carry(owner=owner)
    # Field by field, in parts()'s order (the fields, the original's unknown keys, then the returned
    # record's own), without building either record's parts() dict: most fields are None on both sides.
    for name, before, after in zip(FIELDS, _VALUES(original), _VALUES(returned)):
        if before is after or _same(before, after):
            continue
        carry.fields[name] = as_json(before)
        if name not in _IDENTITY:
            carry.native[name] = field_digest(_part(native, name) if native is not None else after)
    mine, theirs = original.extra, returned.extra
    for key in [k for k in mine if k != KEY] + [k for k in theirs if k != KEY and k not in mine]:
        name = f"extra.{key}"
        before = [mine[key]] if key in mine else None
        after = [theirs[key]] if key in theirs else None
        if before is after or _same(before, after):
            continue
        carry.fields[name] = before or []
        carry.native[name] = field_digest(_part(native, name) if native is not None else after)
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


#: One-line text fields the way back may derive from a target's readable home (the first of a memfmt
#: entity's facts read as the description): an edit of the home must not lose them.
_DERIVED_TEXT = ("description", "why", "rejected", "trigger", "how_to_apply", "outcome")


def _keep_every_word(record: Record, carry: Carry, current: dict[str, Any], done: Applied,
                     described_apart: bool = False, holds: frozenset[str] = frozenset()) -> None:
    """An edited record keeps every piece of its text, and the edit lands where the text came from.

    The target shows several fields in one place (a memfmt entity's facts hold the description and the
    body's paragraphs); read back, that place is cut into fields again: the first fact is the
    description. For a record that had no such field (the carry says "none"), that text is the body's
    first paragraph: edited, the edit replaces that paragraph; left alone while the body was edited, it
    stays in the body. (Before, the carried "none" was put back and the paragraph was lost, or the edit
    sat in a field the record's own dialect does not write.) Taken out there, the paragraph goes too.

    Where the target showed the field apart from the body (``described_apart``: memoir's description key, made of
    the body's first line), that paragraph is the body's own, and stays: an edit of the field is the field's, where
    home holds one (``holds``: a Claude memory's description), else a paragraph of its own, first (a memspec claim).
    Before, the edit replaced the body's line, which the user had not touched.
    """
    edited_body = "body" in done.overridden
    was = carry.fields.get("body")
    # The description the target was given of the body's first line, where it showed both (``described_apart``: a
    # memspec claim in memoir): that line edited, the old text is no word of the user's.
    made_of_body = flat(filled_description(was) or "") if described_apart and edited_body and isinstance(was, str) \
        else None
    paragraphs = [p.strip() for p in PARAGRAPH_BREAK.split((record.body or "").strip()) if p.strip()]
    first: list[str] = []
    changed = False
    for name in _DERIVED_TEXT:
        text = current.get(name)
        if carry.fields.get(name, "?") not in (None, ""):
            continue
        if not isinstance(text, str) or not text.strip():
            if name in done.overridden and not described_apart and not edited_body:
                # Taken out there, where it was the paragraph it showed (a memfmt entity's only fact): it goes.
                at = _shown_at(paragraphs, carry.native.get(name))
                if at is not None:
                    del paragraphs[at]
                    changed = True
            continue
        if name in done.overridden:
            if described_apart and name in holds:
                continue  # the field's edit, in the field; the body's line is the body's
            at = None if described_apart else _shown_at(paragraphs, carry.native.get(name))
            if at is not None and not edited_body:
                paragraphs[at] = text.strip()  # the paragraph it showed, edited
            elif flat(text) not in [flat(t) for t in first] \
                    and not (described_apart and flat(text) in flat(" ".join(paragraphs))):
                # (Once: a Claude feedback memory's trigger is its description, read so by its reader.)
                first.append(text.strip())
            setattr(record, name, None)
            changed = True
        elif name in done.carried and edited_body and flat(text) not in flat(" ".join(paragraphs)) \
                and flat(text) not in (flat(record.title or ""), flat(record.description or ""), made_of_body):
            # (Text that is the record's title or description says nothing they do not: a description a target made of
            # the title, a memfmt episode's with no outcome in Claude, is not added to the body, nor a memoir lesson's
            # how_to_apply made of a Claude memory's description, its body edited there. Nor does one made of
            # the body's first line, shown apart from it, once that line is edited: it came back beside its edit.
            # Where the target showed the two as one, a memfmt entity's first fact, it is that paragraph, and stays.)
            first.append(text.strip())
    if first or changed:
        record.body = "\n\n".join(first + paragraphs) + "\n" if first or paragraphs else ""
        if "body" not in done.overridden:
            done.overridden.append("body")


def _shown_at(paragraphs: list[str], digest: str | None) -> int | None:
    """Where among ``paragraphs`` the one is whose digest the carry kept of a field the target showed (it was that
    paragraph there); None where none is."""
    return next((i for i, p in enumerate(paragraphs) if field_digest(p) == digest), None)


def put(record: Record, name: str, value: Any) -> None:
    """The carried ``value`` of field ``name`` set on ``record`` (``extra.<key>``: a list of at most one value, the
    key taken out when empty)."""
    if name.startswith("extra."):
        if value:
            record.extra[name[len("extra."):]] = value[0]
        else:
            record.extra.pop(name[len("extra."):], None)
    else:
        setattr(record, name, from_json(value, field_type(name)))


def apply(record: Record, carry: Carry, described_apart: bool = False, holds: frozenset[str] = frozenset(),
          own: tuple[str, ...] = (), own_body: str | None = None) -> Applied:
    """Put the carried fields back on ``record`` (in place), letting native edits win. ``described_apart``: the
    target shows a description and a body apart; ``holds``: the text fields home's files hold
    (:func:`_keep_every_word`). ``own``: fields the target read of paragraphs that were the body's own text, which home
    had none of (``transforms.own_labels``), and ``own_body``: the body read with those paragraphs left in it, where
    they were. The body or one of those paragraphs edited there, the body is ``own_body``, an edit of the body's."""
    done = Applied()
    current = parts(record)
    for name, value in carry.fields.items():
        now = current.get(name)
        if name in carry.native and field_digest(now) != carry.native[name]:
            done.overridden.append(name)
            continue
        put(record, name, value)
        done.carried.append(name)
    if own_body is not None and {"body", *own} & set(done.overridden):
        record.body = own_body
        for name in own:
            setattr(record, name, None)
            current[name] = None  # no word of it is lost: the body says it
            if name in done.overridden:
                done.overridden.remove(name)
                done.carried.append(name)
        if "body" in done.carried:
            done.carried.remove("body")
        if "body" not in done.overridden:
            done.overridden.append("body")
    if done.overridden:
        _keep_every_word(record, carry, current, done, described_apart, holds)
    record.extra.pop(KEY, None)
    if carry.extra_order is not None:
        order = [k for k in carry.extra_order if k in record.extra]
        record.extra = {k: record.extra[k] for k in order + [k for k in record.extra if k not in order]}
    return done
