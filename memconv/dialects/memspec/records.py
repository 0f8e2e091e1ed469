"""memspec record files ↔ records: every frontmatter field mapped, nothing dropped.

Reading climbs the memspec ladder first (``memconv.migrations.memspec``), so
the model always holds a current-generation record. Each known key goes to the
model field that means the same thing; a known key whose value has an
unexpected shape (``tags: auth``, ``created: 2026``) stays in ``extra`` where it
was, so nothing is misread and nothing is lost. Unknown keys stay in ``extra``
in source order — memspec's own reader drops them on every rewrite.

Writing is the inverse, in memspec's writer key order and js-yaml's quoting
(``jsyaml``). An unedited record comes back as the bytes it was read from; an
edited one keeps the lines of every key whose value did not change; a
migrated one is rendered whole, as memspec's migrator renders it, with its
body untouched; a record built in code is rendered as a valid current
memspec record (``check_by``, ``source``, ``tags`` always present).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ... import frontmatter as fmx
from ...errors import ReadError, StoreError
from ...migrations import VersionProblem
from ...migrations.memspec import TYPES, Draft, climb, fields
from ...migrations.memspec.dates import instant_ms, iso
from ...migrations.memspec.fields import (ID, ORDER, PREDATES_REASON, default_check_by, implied_path, infer_source_kind,
                                          infer_verified_with, place)
from ...model import Anchor, Edge, Lifecycle, Probe, Record, Source, fingerprint_as_read, unedited
from ...text import TextLayout, after_line_breaks, encode, end_of_text, start_of_text
from . import jsyaml
from .ulid import derive

NAME = "memspec"

#: The six typed edges, in memspec's writer order. ``superseded_by`` is one id, the rest are lists.
EDGE_KEYS = ("supersedes", "superseded_by", "conflicts_with", "refines", "supports", "depends_on")
_LIST_EDGES = tuple(k for k in EDGE_KEYS if k != "superseded_by")


def writes_edge(type_: str, direction: str) -> bool:
    """Whether memspec's writer has a key for an edge: one of its edge keys, going out. Its reader makes no other,
    so a carry of a memspec record holding another is refused (carry_checks.check_edges)."""
    return type_ in EDGE_KEYS and direction == "out"


#: Text fields: frontmatter key → model attribute.
_TEXT = {"created": "created", "source": "source_text", "source_kind": "source_kind", "check_by": "check_by",
         "last_verified": "last_verified", "verified_with": "verified_with", "expires": "expires",
         "valid_from": "valid_from", "valid_to": "valid_to", "scope": "scope"}
_FLAGS = {"stale": "stale", "pinned": "pinned"}

#: A title line: ``# Auth uses JWT``.
TITLE = re.compile(r"^#[ \t]+(\S.*)$")
#: A memspec validity bound as zod's ``z.iso.datetime()`` accepts it: ``2026-04-04T10:30:00.000Z``.
ISO_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$")


@dataclass
class RecordLayout:
    """How a record file was written, so that it can be written back the same way."""

    frontmatter: fmx.Frontmatter
    text: TextLayout
    #: The body text before ``Record.body``: the ``# Title`` line and the blank
    #: lines after it; None when the title is not the first line (then it stays
    #: inside the body).
    head: str | None
    #: The title as read, to tell whether it was edited.
    title: str | None
    #: ``kind`` was absent (memspec reads it as ``claim``): keep it absent.
    kind_absent: bool
    #: Edge keys written as ``[]``: kept, although they hold no edge.
    empty_edges: tuple[str, ...]
    #: Where the writer puts the file, relative to the store root (after relocation).
    path: str
    #: The file sat in the folder its state, kind and tier imply; an edit that
    #: changes those moves it, as memspec would.
    placed: bool
    #: The ladder changed it: render it whole in current form.
    migrated: bool
    #: The ``.memspec`` folder's path inside the store root (``.memspec/`` or ``""``).
    prefix: str
    #: Keys read from ``ext.memconv.fields`` (fields memspec has no key for): an edited
    #: record puts them back there, never at the top level where memspec's rewrites drop them.
    lifted: tuple[str, ...] = ()


#: Why a record file writing a top-level key twice is quarantined: js-yaml, under gray-matter, refuses a duplicated
#: mapping key, and memspec's loader skips the file ("Skipped 1 non-memspec file(s)"). Read, its last line won, and a
#: record no memspec command shows was converted (docs/limits.md, forty-sixth session).
TWICE_REFUSED = "memspec's loader (js-yaml) refuses a key written twice and skips the file"


def read_record(raw: bytes, path: str, prefix: str, operators: tuple[str, ...] = ()) -> tuple[Record, list[str]]:
    """One record file → a record and what the ladder did to it. Raises :class:`ReadError` to quarantine."""
    # (each part's line ends: an LF frontmatter, a CRLF body)
    fm, rest, text_layout = fmx.split_file(raw, path, once=TWICE_REFUSED)
    if fm is None:
        raise ReadError(path, "has no frontmatter, so it is not a memspec record",
                        hint="memspec skips it too; move it out of the store or add its frontmatter")
    rel = path[len(prefix):]
    try:
        draft, start, done = climb(Draft(values=dict(fm.values), path=rel, operators=operators))
    except VersionProblem as exc:
        raise ReadError(path, exc.reason, line=_line_of(fm, exc.reason)) from None
    values = draft.values
    record = _record(values)
    lifted = _lift(record)
    head, body, title = _split_body(rest)
    record.title = title
    record.body = body
    empty = tuple(k for k in _LIST_EDGES if values.get(k) == [])
    migrated = start != "current"
    target = prefix + draft.path
    layout = RecordLayout(frontmatter=fm, text=text_layout, head=head, title=title,
                          kind_absent="kind" not in values, empty_edges=empty, path=target,
                          placed=draft.path == implied_path(values, draft.path, operators),
                          migrated=migrated, prefix=prefix, lifted=lifted)
    record.source = Source(dialect=NAME, path=path, version=start, raw=raw, layout=layout)
    record.source.fingerprint = None if migrated else fingerprint_as_read(record)
    notes = []
    if migrated:
        notes.append(f"{path}: migrated {start} → current ({len(done)} step(s) of the memspec ladder)")
        notes.extend(f"{path}: {change}" for change in draft.changes)
    return record, notes


def _line_of(fm: fmx.Frontmatter, reason: str) -> int | None:
    """The line of the key a reason names (``state 'x' is…`` → the ``state:`` line)."""
    key = reason.split(" ", 1)[0].strip("'")
    if fm.chunks is None:
        return None
    line = 2
    for chunk in fm.chunks:
        if chunk.key == key:
            return line
        line += len(chunk.lines)
    return 2


def _record(values: dict[str, Any]) -> Record:
    kind = values.get("kind", "claim")
    record = Record(kind="observation" if kind == "observation" else values["type"], link=values["id"])
    known = {"id", "kind", "state"}
    if kind != "observation":
        known.add("type")
    record.lifecycle = Lifecycle(values["state"])
    for key, attr in _TEXT.items():
        if isinstance(values.get(key), str):
            setattr(record, attr, values[key])
            known.add(key)
    for key, attr in _FLAGS.items():
        if isinstance(values.get(key), bool):
            setattr(record, attr, values[key])
            known.add(key)
    tags = values.get("tags")
    if isinstance(tags, list) and all(isinstance(t, str) for t in tags):
        record.tags = list(tags)
        known.add("tags")
    if isinstance(values.get("supersede_reason"), str):
        record.lifecycle.reason = values["supersede_reason"]
        known.add("supersede_reason")
    anchors = _anchors(values.get("anchors"))
    if anchors is not None:
        record.anchors = anchors
        known.add("anchors")
    probes = _probes(values.get("probes"))
    if probes is not None:
        record.probes = probes
        known.add("probes")
    if isinstance(values.get("ext"), dict) and all(isinstance(k, str) for k in values["ext"]):
        record.ext = dict(values["ext"])
        known.add("ext")
    for key in values:
        value = values[key]
        if key == "superseded_by" and isinstance(value, str):
            record.edges.append(Edge(key, value))
            known.add(key)
        elif key in _LIST_EDGES and isinstance(value, list) and all(isinstance(v, str) for v in value):
            record.edges.extend(Edge(key, target) for target in value)
            known.add(key)
    record.extra = {k: v for k, v in values.items() if k not in known}
    return record


#: The one key of memspec's ``ext`` that memconv writes; see docs/memspec.md ("ext.memconv").
MEMCONV = "memconv"
#: Under ``ext.memconv``: the fields of a record from another dialect that memspec has no key for.
FIELDS = "fields"


def _lift(record: Record) -> tuple[str, ...]:
    """Move ``ext.memconv.fields`` back to the record's own fields; the keys moved.

    memconv writes a converted record's fields memspec has no key for (``scope``,
    other dialects' extra keys) under ``ext.memconv.fields``, because memspec's
    rewrites (``verify``, ``supersede``, ``sweep``) keep ``ext`` and drop every
    other unknown key. Read back, they are the record's fields again.
    """
    ext = record.ext
    box = ext.get(MEMCONV) if isinstance(ext, dict) else None
    fields = box.get(FIELDS) if isinstance(box, dict) else None
    if not (isinstance(fields, dict) and fields and all(isinstance(k, str) for k in fields)):
        return ()
    rest = {k: v for k, v in box.items() if k != FIELDS}
    record.ext = {k: v for k, v in ext.items() if k != MEMCONV}
    if rest:
        record.ext[MEMCONV] = rest
    record.ext = record.ext or None
    for key, value in fields.items():
        if key == "scope" and isinstance(value, str) and record.scope is None:
            record.scope = value
        elif key not in record.extra:
            record.extra[key] = value
    return tuple(fields)


def _nest(pairs: dict[str, Any], fields: dict[str, Any]) -> None:
    """Put ``fields`` under ``ext.memconv.fields``, the place memspec's rewrites keep."""
    if not fields:
        return
    ext = dict(pairs.pop("ext", None) or {})
    box = ext.get(MEMCONV)
    if box is None:
        box = {}
    elif not isinstance(box, dict):
        box = {"carry": box}  # a carry on its own is a string; beside fields it is ``carry:``
    ext[MEMCONV] = {**box, FIELDS: fields}
    pairs["ext"] = ext


def _anchors(value: Any) -> list[Anchor] | None:
    if not isinstance(value, list):
        return None
    anchors = []
    for item in value:
        if not (isinstance(item, dict) and isinstance(item.get("file"), str)
                and all(isinstance(k, str) for k in item)
                and all(isinstance(item[k], str) for k in ("sha", "repo") if k in item)):
            return None
        anchors.append(Anchor(file=item["file"], sha=item.get("sha"), repo=item.get("repo"),
                              extra={k: v for k, v in item.items() if k not in ("file", "sha", "repo")}))
        if list(item) != list(_anchor_dict(anchors[-1])):
            return None  # sub-keys in an order the model cannot say: keep the value whole in extra
    return anchors


def _probes(value: Any) -> list[Probe] | None:
    if not isinstance(value, list):
        return None
    probes = []
    for item in value:
        if not (isinstance(item, dict) and all(isinstance(k, str) for k in item)
                and all(isinstance(item[k], str) for k in ("command", "sha256") if k in item)):
            return None
        probe = Probe(command=item.get("command"), sha256=item.get("sha256"),
                      extra={k: v for k, v in item.items() if k not in ("command", "sha256")})
        if list(item) != list(_probe_dict(probe)):
            return None
        probes.append(probe)
    return probes


def _anchor_dict(anchor: Anchor) -> dict[str, Any]:
    out: dict[str, Any] = {"file": anchor.file}
    if anchor.sha is not None:
        out["sha"] = anchor.sha
    if anchor.repo is not None:
        out["repo"] = anchor.repo
    out.update(anchor.extra)
    return out


def _probe_dict(probe: Probe) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if probe.command is not None:
        out["command"] = probe.command
    if probe.sha256 is not None:
        out["sha256"] = probe.sha256
    out.update(probe.extra)
    return out


def _split_body(rest: str) -> tuple[str | None, str, str | None]:
    """(head, body, title): the leading ``# Title`` line and blank lines, the prose, the title. Cut at places found
    in ``rest``: cut into its lines, or its first line off and the rest stripped, a 50 MB body was a list of its
    lines and two more copies (docs/performance.md, "(seventeenth)")."""
    end = rest.find("\n")
    match = TITLE.match(rest if end < 0 else rest[:end])
    if match:
        body_at = after_line_breaks(rest, end + 1) if end >= 0 else len(rest)
        return rest[:body_at], rest[body_at:], match.group(1).strip()
    match = _TITLE_LINE.search(rest)
    return None, rest, match.group(1).strip() if match else None


#: A title line anywhere in a body (:data:`TITLE`, line by line).
_TITLE_LINE = re.compile(TITLE.pattern, re.MULTILINE)


# --- writing ----------------------------------------------------------------------


@dataclass
class WriteContext:
    """Store-wide facts a record's rendering needs: ids of every record, where the store lives."""

    #: link name → memspec id, for every record of the store.
    ids: dict[str, str]
    prefix: str = ".memspec/"
    operators: tuple[str, ...] = ()
    #: ``created`` of a record from another dialect that has no date of its own (:func:`store_date`).
    date: str | None = None
    #: Links of the records that were given ``date``: the report names them.
    undated: list[str] | None = None


#: A record's own dates, in the order ``created`` is taken from: when it was written, when
#: what it tells happened or was decided, set or added, when it was last changed.
OWN_DATES = ("created", "happened", "date", "set_on", "added", "updated")
#: Every date a record can hold, for the newest date of a store.
ALL_DATES = OWN_DATES + ("last_verified", "last_succeeded", "last_failed", "last_fired")
#: ``created`` when the whole store holds no date at all: plainly not a real date, and old
#: enough that memspec flags the record for review. Never 1970 (memspec's epoch default reads
#: as a real, ancient date and expires observations in 1970) and never the clock.
UNDATED = "2000-01-01"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _dated(value: Any) -> bool:
    return isinstance(value, str) and bool(_DAY.match(value)) and instant_ms(value) is not None


def own_date(record: Record) -> str | None:
    """The first of the record's own dates (``created``, ``happened``, ``date``…) that is one."""
    for attr in OWN_DATES:
        value = getattr(record, attr)
        if _dated(value):
            return value
    return None


def store_date(records: list[Record], newest: tuple[int, str] | None = None) -> str:
    """``created`` for a record with no date of its own: the newest date in the store, as a day.

    Taken from the records only, so that memconv's read-back of a conversion
    (which writes the same records without the store around them) gives the same
    date; :data:`UNDATED` when the store holds no date at all. ``newest``: what
    :func:`newest_date` found in the records before these (a store given one at a time).
    """
    for record in records:
        newest = newest_date(record, newest)
    return newest[1] if newest is not None else UNDATED


def newest_date(record: Record, newest: tuple[int, str] | None = None) -> tuple[int, str] | None:
    """The newest of ``newest`` and the dates ``record`` holds: (instant, day), for :func:`store_date`."""
    values = [getattr(record, attr) for attr in ALL_DATES]
    values += [rev.date for rev in record.evolution or ()]
    for value in values:
        if _dated(value):
            moment = (instant_ms(value), value[:10])
            if newest is None or moment > newest:
                newest = moment
    return newest


def memspec_id(record: Record) -> str:
    """The record's id: its link if that is already one, else a ULID derived from it."""
    if ID.match(record.link):
        return record.link
    return derive(record.created, record.link)


def write_record(record: Record, ctx: WriteContext) -> tuple[str, bytes]:
    """One record → (path in the store, file bytes)."""
    source = record.source
    ours = source is not None and source.dialect == NAME
    if ours and source.has_layout and unedited(record):
        # Its bytes as read: not migrated, since a migrated record keeps no fingerprint (read_record), so is never
        # unedited. Its layout is not asked for, which a merge leaves on disk (docs/merge.md, "Memory").
        return source.path, source.raw
    layout = source.layout if ours else None
    if not isinstance(layout, RecordLayout):
        layout = None
    pairs = frontmatter_pairs(record, ctx, layout)
    if layout is None:
        text = "---\n" + jsyaml.dump(pairs) + "\n---\n" + _canonical_body(record)
        rel = implied_path(pairs, None, ctx.operators)
        return ctx.prefix + rel, text.encode("utf-8")
    fm = layout.frontmatter
    if layout.migrated:
        head = "---\n" + jsyaml.dump(pairs) + "\n---\n"
    else:
        head = fmx.patch(_with_slots(fm, pairs), pairs, jsyaml.dump_key)
    text = head + fm.gap + _body(record, layout)
    path = layout.path
    if layout.placed and not layout.migrated:
        path = layout.prefix + implied_path(pairs, path[len(layout.prefix):], ctx.operators)
    return path, encode(text, layout.text, len(head))  # (the frontmatter's line ends, the body's)


def _with_slots(fm: fmx.Frontmatter, pairs: dict[str, Any]) -> fmx.Frontmatter:
    """``fm`` with an empty chunk for each key the edit adds, at its place in memspec's key order.

    ``frontmatter.patch`` renders a chunk whose key has no source value, so a key
    added by an edit (``stale: true``) lands where memspec would write it rather
    than after ``ext`` and the unknown keys.
    """
    if fm.chunks is None:
        return fm
    present = {c.key for c in fm.chunks if c.key is not None}
    new = [k for k in pairs if k not in present and k in ORDER]
    if not new:
        return fm
    chunks = list(fm.chunks)
    for key in new:
        chunks.insert(fields.slot((chunk.key for chunk in chunks), key), fmx.Chunk(key, []))
    return fmx.Frontmatter(values=fm.values, chunks=chunks, open_line=fm.open_line, close_line=fm.close_line,
                           close_newline=fm.close_newline, gap=fm.gap)


def _body(record: Record, layout: RecordLayout) -> str:
    if layout.head is not None:
        head = layout.head
        if record.title != layout.title:
            rest = head[head.index("\n"):] if "\n" in head else ""
            head = f"# {record.title}" + rest if record.title is not None else rest.lstrip("\n")
        return head + record.body
    if record.title != layout.title and record.title is not None:
        lines = record.body.split("\n")
        for i, line in enumerate(lines):
            if TITLE.match(line):
                lines[i] = f"# {record.title}"
                return "\n".join(lines)
        return f"# {record.title}\n\n" + record.body
    return record.body


def _canonical_body(record: Record) -> str:
    """memspec's ``serializeMemoryFile`` body: ``# Title``, a blank line, the trimmed prose. The prose is found in
    the body by where it starts and ends, and copied once: trimmed, cut at its first line and trimmed again, then
    joined, a 50 MB body was five copies (docs/performance.md, "(seventeenth)")."""
    title = record.title or record.description or record.link
    body = record.body
    start = start_of_text(body)
    stop = end_of_text(body, start)
    first_end = body.find("\n", start, stop)
    match = TITLE.match(body[start:stop if first_end < 0 else first_end])
    if match and match.group(1).strip() == title:
        # memspec drops a leading heading that repeats the title
        start = stop if first_end < 0 else min(start_of_text(body, first_end), stop)
    if start >= stop:
        return f"# {title}".rstrip() + "\n"
    return "".join((f"# {title}\n\n", body[start:stop], "\n"))


def frontmatter_pairs(record: Record, ctx: WriteContext, layout: RecordLayout | None) -> dict[str, Any]:
    """The frontmatter a record is written with, in memspec's writer order."""
    built = layout is None  # a record with no memspec source: fill what memspec requires
    extra = record.extra
    kind = record.kind
    if kind != "observation" and kind not in TYPES:
        raise StoreError(f"record {record.link!r} is a {kind!r}, which memspec has no kind for",
                         hint="convert the store to memspec with `memconv convert`, which maps kinds")
    pairs: dict[str, Any] = {"id": ctx.ids.get(record.link) or memspec_id(record)}
    if not (layout is not None and layout.kind_absent and kind != "observation"):
        pairs["kind"] = "observation" if kind == "observation" else "claim"
    if kind != "observation":
        pairs["type"] = kind
    state = record.lifecycle.state
    if state not in ("active", "superseded", "retired"):
        raise StoreError(f"record {record.link!r} is {state!r}, which memspec has no state for",
                         hint="convert the store to memspec with `memconv convert`, which maps lifecycles")
    pairs["state"] = state
    source = record.source_text
    if built and (source is None or not source.strip()):  # memspec's schema refuses an empty source
        source = "memconv-import"
    text = {key: getattr(record, attr) for key, attr in _TEXT.items()}
    text["source"] = source
    if built:
        _fill_built(record, text, ctx)
    for key in ("created", "source", "source_kind"):
        if text[key] is not None:
            pairs[key] = text[key]
    if record.tags is not None:
        pairs["tags"] = list(record.tags)
    elif built:
        pairs["tags"] = []
    if text["check_by"] is not None:
        pairs["check_by"] = text["check_by"]
    if record.stale is not None:
        pairs["stale"] = record.stale
    for key in ("last_verified", "verified_with"):
        if text[key] is not None:
            pairs[key] = text[key]
    if record.pinned is not None:
        pairs["pinned"] = record.pinned
    if record.anchors is not None:
        pairs["anchors"] = [_anchor_dict(a) for a in record.anchors]
    edges = _edges(record, ctx)
    empty = layout.empty_edges if layout is not None else ()
    for key in EDGE_KEYS:
        if key in edges:
            pairs[key] = edges[key]
        elif key in empty:
            pairs[key] = []
        if key == "superseded_by" and record.lifecycle.reason is not None:
            pairs["supersede_reason"] = record.lifecycle.reason
    for key in ("expires", "valid_from", "valid_to", "scope"):
        if text[key] is not None:
            pairs[key] = text[key]
    if record.probes is not None:
        pairs["probes"] = [_probe_dict(p) for p in record.probes]
    if record.ext is not None:
        pairs["ext"] = dict(record.ext)
    if built:
        # Fields memspec has no key for ride in ext, which its rewrites keep (docs/memspec.md).
        _nest(pairs, dict(extra))
        return _current_form(pairs)
    lifted = {k: extra[k] for k in layout.lifted if k in extra}
    if "scope" in layout.lifted and "scope" not in lifted and "scope" in pairs:
        lifted["scope"] = pairs.pop("scope")
    for key, value in extra.items():
        if key not in lifted:
            pairs.setdefault(key, value)
    _nest(pairs, {k: lifted[k] for k in layout.lifted if k in lifted})
    return pairs


def _current_form(pairs: dict[str, Any]) -> dict[str, Any]:
    """A record built in code gets what memspec's ``migrate`` backfills, so that memspec finds nothing to migrate:
    a claim a ``verified_with`` as it infers it (an observation none, as memspec's ``observe`` writes it), and a
    superseded record with no reason its ``(predates reason tracking)`` (docs/memspec.md, forty-seventh session)."""
    if "verified_with" not in pairs and pairs.get("kind") != "observation":
        pairs = place(pairs, "verified_with", infer_verified_with(pairs))
    if (pairs["state"] == "superseded" or "superseded_by" in pairs) and not pairs.get("supersede_reason"):
        pairs = place(pairs, "supersede_reason", PREDATES_REASON)
    return pairs


def _edges(record: Record, ctx: WriteContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for edge in record.edges:
        if not writes_edge(edge.type, edge.direction):
            raise StoreError(f"record {record.link!r} has a {edge.type!r} link, which memspec has no edge for",
                             hint="convert the store to memspec with `memconv convert`, which maps links")
        target = ctx.ids.get(edge.target, edge.target)
        if edge.type == "superseded_by":
            if edge.type in out:
                raise StoreError(f"record {record.link!r} is superseded by two records; memspec holds one",
                                 hint="keep one superseded_by link, or supersede in two steps")
            out[edge.type] = target
        else:
            out.setdefault(edge.type, []).append(target)
    return out


def _fill_built(record: Record, text: dict[str, Any], ctx: WriteContext) -> None:
    """What memspec requires of a record it did not write: tier, dates, review date, ISO validity bounds."""
    if text["source_kind"] is None and isinstance(text["source"], str):
        text["source_kind"] = infer_source_kind(text["source"], ctx.operators)
    if not _dated(text["created"]):  # memspec's schema refuses a record whose created is not ISO 8601
        text["created"] = own_date(record)
        if text["created"] is None:
            text["created"] = ctx.date or UNDATED
            if ctx.undated is not None:
                ctx.undated.append(record.link)
    if record.kind == "observation" and text["expires"] is None:
        ms = instant_ms(text["created"])
        if ms is not None and text["check_by"] is None:
            text["expires"] = iso(ms + 7 * 86_400_000)
    if text["check_by"] is None:
        values = {"kind": "observation" if record.kind == "observation" else "claim", "type": record.kind,
                  "created": text["created"], "expires": text["expires"]}
        text["check_by"] = default_check_by(values) or "never"
    for key in ("valid_from", "valid_to"):
        if text[key] is not None and not ISO_Z.match(text[key]):
            ms = instant_ms(text[key])
            written = iso(ms) if ms is not None else None
            if written is not None:
                text[key] = written
