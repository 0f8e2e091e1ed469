"""memoir spec §3 entry frontmatter ↔ record, shared by the memoir and claude dialects.

A Claude Code memory file is, in the memoir spec's own words (Appendix A), a
legacy memoir entry: once the claude reader has turned its legacy keys into
canonical ones, the same frontmatter means the same record fields. That
mapping lives here, once, and both dialect packages import it, so that
neither imports the other and the two cannot disagree on what a key means.

Reading maps each frontmatter key to the model field that means the same
thing for the entry's type; a key that belongs to another type, or whose
value has the wrong shape, is kept as an unknown field instead, so that
nothing is lost and nothing is misread. Writing is the inverse, in the key
order of the spec's examples.

``schema_version`` is the entry's version key (spec §6): only a version the
memoir entry ladder knows is ever written under it, in either dialect.

:func:`canonical_problems` is the memoir validator's rule for a canonical
entry, asked by detection (is this Claude file upgradable?) and by
``memconv upgrade`` alike.

This module is not a dialect: it has no ``detect``, ``read`` or ``write``.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .. import frontmatter as fmx
from ..migrations.memoir import ENTRY
from ..model import Edge, Lifecycle, Origin, Record, unedited
from ..text import TextLayout, encode
from .protocol import CARRY_KEY

#: The six entry types of spec §3.3.
TYPES = ("fact", "preference", "decision", "lesson", "goal", "next_action")

#: Common fields (§3.2) that map to a string model field: key → attribute.
_COMMON_TEXT = {"description": "description", "created": "created", "updated": "updated", "project": "project"}
_COMMON_LISTS = ("tags", "aliases")

#: Per-type fields (§3.3) that map to a string model field, in written order.
_KIND_TEXT: dict[str, dict[str, str]] = {
    "fact": {"source": "source_text"},
    "preference": {"scope": "scope"},
    "decision": {"date": "date", "why": "why", "rejected": "rejected"},
    "lesson": {"trigger": "trigger", "how_to_apply": "how_to_apply"},
    "goal": {"set_on": "set_on"},
    "next_action": {"added": "added"},
}


#: The date fields the memoir schema wants as ISO 8601: ``2026-05-14`` or ``2026-05-14T09:30:00Z``.
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")


def first_heading(body: str) -> str | None:
    """The text of the body's first ``# `` line, the title of a file with no ``name``."""
    for line in body.split("\n"):
        if line.startswith("# "):
            return line[2:].strip()
    return None


def opaque_record(values: dict[str, Any], body: str, link: str, title: Callable[[str], str | None]) -> Record:
    """A file kept whole: unknown type, legacy dialect, or bare. ``title`` finds a title in the body."""
    name = values.get("name") if isinstance(values.get("name"), str) else title(body)
    description = values.get("description") if isinstance(values.get("description"), str) else None
    return Record(kind="opaque", link=link, title=name, description=description, body=body,
                  opaque=True, extra=dict(values))


def to_record(values: dict[str, Any], has_frontmatter: bool, body: str, link: str) -> Record:
    """Canonical entry frontmatter and body → a record; opaque unless ``type`` is one of :data:`TYPES`."""
    kind = values.get("type")
    if not has_frontmatter or kind not in TYPES:
        return opaque_record(values, body, link, first_heading)
    record = Record(kind=kind, link=link, body=body)
    known = {"type"}
    if isinstance(values.get("name"), str):
        record.title = values["name"]
        known.add("name")
    for key, attr in (_COMMON_TEXT | _KIND_TEXT[kind]).items():
        if key in values and isinstance(values[key], str):
            setattr(record, attr, values[key])
            known.add(key)
    for key in _COMMON_LISTS:
        value = values.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            setattr(record, key, list(value))
            known.add(key)
    origin = values.get("origin")
    if isinstance(origin, dict) and all(isinstance(k, str) for k in origin):
        known.add("origin")
        record.origin = Origin(extra={})
        for key, value in origin.items():
            if key in ("tool", "session_id", "machine_id") and isinstance(value, str):
                setattr(record.origin, key, value)
            else:
                record.origin.extra[key] = value
    if kind == "lesson":
        if type(values.get("fired_count")) is int:
            record.fired_count = values["fired_count"]
            known.add("fired_count")
        if isinstance(values.get("last_fired"), str):
            record.last_fired = values["last_fired"]
            known.add("last_fired")
    if kind == "next_action" and isinstance(values.get("machine_id"), str):
        record.machine_id = values["machine_id"]
        known.add("machine_id")
    _read_lifecycle(record, values, known)
    record.extra = {k: v for k, v in values.items() if k not in known}
    return record


def says_state(kind: str, key: str, value: Any) -> bool:
    """Whether ``key: value`` in the frontmatter of an entry of ``kind`` is read as the entry's state: a
    decision's ``hidden: true`` (a tombstone) and ``superseded_by``, a goal's or next action's ``done_at``."""
    if kind == "decision":
        return (key == "hidden" and value is True) or (key == "superseded_by" and isinstance(value, str))
    return key == "done_at" and kind in ("goal", "next_action") and isinstance(value, str)


#: The keys memoir-cli's ``validate`` wants an ISO 8601 date under, on an entry of any type (its ``DATE_FIELDS``).
DATE_KEYS = ("created", "updated", "date", "set_on", "added", "done_at", "hidden_at", "last_fired")


def refuses(kind: str, key: str, value: Any) -> bool:
    """Whether ``memoir validate`` refuses ``key: value`` in the frontmatter of an entry of ``kind``: a date key
    (:data:`DATE_KEYS`) whose value is no ISO 8601 date (``created: last week``), a lesson's ``fired_count`` that is
    no whole number from 0 (``fired_count: many``)."""
    if key in DATE_KEYS:
        return not (isinstance(value, str) and ISO_DATE.match(value))
    return key == "fired_count" and kind == "lesson" and not (type(value) is int and value >= 0)


def refused_pairs(record: Record, pairs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The frontmatter pairs of ``record`` (``pairs``, when made already: :func:`frontmatter_pairs`) that ``memoir
    validate`` would refuse."""
    kind = record.extra.get("type") if record.opaque else record.kind
    return {k: v for k, v in (frontmatter_pairs(record) if pairs is None else pairs).items() if refuses(kind, k, v)}


def _read_lifecycle(record: Record, values: dict[str, Any], known: set[str]) -> None:
    kind = record.kind
    if says_state(kind, "hidden", values.get("hidden")):
        at = values.get("hidden_at")
        record.lifecycle = Lifecycle("hidden", at if isinstance(at, str) else None)
        known.add("hidden")
        if isinstance(at, str):
            known.add("hidden_at")
    target = values.get("superseded_by")
    if says_state(kind, "superseded_by", target):
        record.edges.append(Edge("superseded_by", target))
        known.add("superseded_by")
        if record.lifecycle.state == "active":
            record.lifecycle = Lifecycle("superseded")
    done = values.get("done_at")
    if says_state(kind, "done_at", done):
        record.lifecycle = Lifecycle("done", done)
        known.add("done_at")


def frontmatter_pairs(record: Record) -> dict[str, Any]:
    """The frontmatter a record is written with, in canonical key order."""
    if record.opaque:
        return {k: v for k, v in record.extra.items() if k != "schema_version" or is_entry_version(v)}
    pairs: dict[str, Any] = {"type": record.kind}
    if record.title is not None:
        pairs["name"] = record.title
    if record.description is not None:
        pairs["description"] = record.description
    for key, attr in _KIND_TEXT.get(record.kind, {}).items():
        value = getattr(record, attr)
        if value is not None:
            pairs[key] = value
    kind = record.kind
    if kind == "decision":
        if record.lifecycle.state == "hidden":
            pairs["hidden"] = True
            if record.lifecycle.at is not None:
                pairs["hidden_at"] = record.lifecycle.at
        for edge in record.edges:
            if edge.type == "superseded_by":
                pairs["superseded_by"] = edge.target
                break
    elif kind == "lesson":
        if record.fired_count is not None:
            pairs["fired_count"] = record.fired_count
        if record.last_fired is not None:
            pairs["last_fired"] = record.last_fired
    elif kind in ("goal", "next_action"):
        if kind == "next_action" and record.machine_id is not None:
            pairs["machine_id"] = record.machine_id
        if record.lifecycle.state == "done" and record.lifecycle.at is not None:
            pairs["done_at"] = record.lifecycle.at
    for key in ("created", "updated", "project"):
        value = getattr(record, key)
        if value is not None:
            pairs[key] = value
    for key in _COMMON_LISTS:
        value = getattr(record, key)
        if value is not None:
            pairs[key] = list(value)
    if record.origin is not None:
        origin = {k: getattr(record.origin, k) for k in ("tool", "session_id", "machine_id")
                  if getattr(record.origin, k) is not None}
        origin.update(record.origin.extra)
        pairs["origin"] = origin
    for key, value in record.extra.items():
        if key == "schema_version" and not is_entry_version(value):
            continue  # another dialect's key of that name is not a memoir version: the carry keeps it
        if says_state(kind, key, value):
            continue  # a key of the record's own, not its state (which is written above): the carry keeps it
        pairs.setdefault(key, value)
    return pairs


def is_entry_version(value: Any) -> bool:
    """Whether ``value`` is an entry version this memconv reads (so it may be written as one)."""
    return type(value) is int and value in ENTRY.versions


def unchanged_bytes(record: Record, dialect: str) -> bytes | None:
    """The bytes ``record`` was read from, if it was read from ``dialect`` and has not changed since."""
    if unedited(record, dialect) and record.source.has_layout:  # (a layout on disk is not read again here)
        return record.source.raw
    return None


def render(record: Record, fm: fmx.Frontmatter | None, pairs: dict[str, Any], text: TextLayout | None) -> bytes:
    """An entry file: ``pairs`` patched into ``fm``'s formatting (or rendered anew), then the body.

    A bare file with nothing to say in frontmatter stays bare.
    """
    if fm is None and record.opaque and not record.extra:
        out = record.body
    else:
        gap = fm.gap if fm is not None else ("\n" if record.body else "")
        head = fmx.patch(fm, pairs, _render_block)
        return encode(head + gap + record.body, text, len(head))  # (the frontmatter's line ends, the body's)
    return encode(out, text)


def _render_block(key: str, value: Any) -> list[str]:
    """A key's lines: the carry's (memconv's own JSON) double-quoted, one form whatever it holds; any other
    text as memoir-cli reads it too (:func:`memconv.frontmatter.scalar`)."""
    return fmx.render_block(key, value, fmx.carry_scalar if key == CARRY_KEY else fmx.scalar)


def canonical_problems(record: Record) -> list[str]:
    """Why ``record`` cannot be a canonical memoir entry, in the reference validator's words."""
    problems = []
    kind = record.kind
    if record.opaque or kind not in TYPES:
        return ["not one of the six memoir types"]
    if kind == "lesson":
        if not record.trigger:
            problems.append("a lesson needs a trigger, and it has no description to take one from")
        if not record.how_to_apply:
            problems.append("a lesson needs how_to_apply, and its body has no **How to apply:** section")
    if kind == "next_action" and not record.added:
        problems.append("a next_action needs `added`")
    if kind == "decision" and record.lifecycle.state == "hidden" and not record.lifecycle.at:
        problems.append("a hidden decision needs `hidden_at`")
    if kind == "preference" and record.scope is not None and record.scope not in ("global", "project"):
        problems.append(f"preference scope {record.scope!r} is not global or project")
    for name in ("created", "updated", "date", "set_on", "added", "last_fired"):
        value = getattr(record, name)
        if value is not None and not ISO_DATE.match(value):
            problems.append(f"{name} {value!r} is not an ISO 8601 date")
    if record.lifecycle.at is not None and not ISO_DATE.match(record.lifecycle.at):
        problems.append(f"{record.lifecycle.at!r} (hidden_at/done_at) is not an ISO 8601 date")
    return problems


#: The text fields an entry's file shows (§3.2, §3.3): every type's name, description, body and
#: aliases, a decision's why and rejected, a lesson's trigger and how_to_apply. memoir and claude
#: declare these for the converter (``TEXT_FIELDS``, ``DEFAULT_TEXT_FIELDS``; docs/plugins.md).
ENTRY_TEXT_FIELDS = frozenset({"title", "description", "body", "aliases", "tags", "project"})
#: The keys every entry's frontmatter has of its own (its type, and the name and description every entry is given:
#: ``REQUIRED_TEXT``): a record's unknown key of such a name is not written (``frontmatter_pairs``), and is shown in
#: its body instead (``readable.show``; the dialects' ``OWNED_KEYS``).
OWNED_KEYS = {"*": ("type", "name", "description")}
TEXT_FIELDS_BY_TYPE = {"decision": ENTRY_TEXT_FIELDS | {"why", "rejected"},
                       "lesson": ENTRY_TEXT_FIELDS | {"trigger", "how_to_apply"},
                       "fact": ENTRY_TEXT_FIELDS | {"source_text"}}  # a fact's ``source``
