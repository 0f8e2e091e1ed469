"""memoir entry files ↔ records (spec v0.1.2 §3).

Reading maps each frontmatter key to the model field that means the same
thing for the entry's type; a key that belongs to another type, or whose
value has the wrong shape, is kept as an unknown field instead, so that
nothing is lost and nothing is misread. Writing is the inverse, in the key
order of the spec's examples, and keeps the source formatting of every key
whose value did not change.
"""

from __future__ import annotations

from typing import Any

from ... import frontmatter as fmx
from ...errors import ReadError
from ...migrations import VersionProblem
from ...migrations.memoir import ENTRY, entry_version
from ...model import Edge, Lifecycle, Origin, Record, Source, fingerprint
from ...text import decode, encode

NAME = "memoir"

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
#: Fields that carry lifecycle rather than text.
_TOMBSTONE_KEYS = {"decision": ("hidden", "hidden_at", "superseded_by"), "goal": ("done_at",), "next_action": ("done_at",)}


class EntryLayout:
    """How an entry file was written: frontmatter lines and text encoding."""

    __slots__ = ("frontmatter", "text")

    def __init__(self, frontmatter, text):
        self.frontmatter = frontmatter
        self.text = text


def read_entry(raw: bytes, path: str, link: str) -> Record:
    """One entry file → one record. Raises :class:`ReadError` for what must be quarantined."""
    text, text_layout = decode(raw, path)
    fm, body = fmx.split(text, path)
    values = fm.values if fm is not None else {}
    try:
        version = entry_version(values)
        ENTRY.check(version)
    except VersionProblem as exc:
        raise ReadError(path, exc.reason, hint="upgrade memconv, or fix schema_version by hand") from None
    record = _record(values, fm is not None, body, link, path)
    record.source = Source(dialect=NAME, path=path, version=version, raw=raw,
                           layout=EntryLayout(fm, text_layout))
    record.source.fingerprint = fingerprint(record)
    return record


def _record(values: dict[str, Any], has_frontmatter: bool, body: str, link: str, path: str) -> Record:
    kind = values.get("type")
    if not has_frontmatter or kind not in TYPES:
        # Unknown type, legacy dialect, or a bare file: opaque, kept whole.
        title = values.get("name") if isinstance(values.get("name"), str) else _first_heading(body)
        description = values.get("description") if isinstance(values.get("description"), str) else None
        return Record(kind="opaque", link=link, title=title, description=description, body=body,
                      opaque=True, extra=dict(values))
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


def _read_lifecycle(record: Record, values: dict[str, Any], known: set[str]) -> None:
    if record.kind == "decision":
        if values.get("hidden") is True:
            at = values.get("hidden_at")
            record.lifecycle = Lifecycle("hidden", at if isinstance(at, str) else None)
            known.add("hidden")
            if isinstance(at, str):
                known.add("hidden_at")
        target = values.get("superseded_by")
        if isinstance(target, str):
            record.edges.append(Edge("superseded_by", target))
            known.add("superseded_by")
            if record.lifecycle.state == "active":
                record.lifecycle = Lifecycle("superseded")
    elif record.kind in ("goal", "next_action"):
        done = values.get("done_at")
        if isinstance(done, str):
            record.lifecycle = Lifecycle("done", done)
            known.add("done_at")


def _first_heading(body: str) -> str | None:
    for line in body.split("\n"):
        if line.startswith("# "):
            return line[2:].strip()
    return None


def frontmatter_pairs(record: Record) -> dict[str, Any]:
    """The frontmatter a record is written with, in canonical key order."""
    if record.opaque:
        return {k: v for k, v in record.extra.items() if k != "schema_version" or _known_version(v)}
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
        if key == "schema_version" and not _known_version(value):
            continue  # another dialect's key of that name is not a memoir version: the carry keeps it
        pairs.setdefault(key, value)
    return pairs


def _known_version(value: Any) -> bool:
    """Whether ``value`` is an entry version this memconv reads (so it may be written as one)."""
    return type(value) is int and value in ENTRY.versions


def write_entry(record: Record) -> bytes:
    """One record → the bytes of its entry file.

    An unedited record read from memoir comes back as the bytes it was read
    from. An edited one keeps the formatting of every unchanged key. A record
    with no memoir source is written in canonical form.
    """
    source = record.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    if layout is not None and source.raw is not None and source.fingerprint == fingerprint(record):
        return source.raw
    fm = layout.frontmatter if layout is not None else None
    if fm is None and record.opaque and not record.extra:
        text = record.body  # a bare file stays bare
    else:
        gap = fm.gap if fm is not None else ("\n" if record.body else "")
        text = fmx.patch(fm, frontmatter_pairs(record), fmx.render_block) + gap + record.body
    return encode(text, layout.text if layout is not None else None)
