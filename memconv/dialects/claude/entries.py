"""Claude Code memory files ↔ records, every legacy variant in, the current format out.

Claude Code has written its memory files several ways over time (memoir spec
Appendix A, FORMATS.md §2): ``type`` at the top level or nested as
``metadata.type`` beside ``metadata.node_type``; ``originSessionId`` at the top
level or under ``metadata``; the types ``user``, ``feedback``, ``reference``
and ``project``; bare markdown with only a ``# `` heading. Reading applies
Appendix A's "read as" table (:data:`READ_AS`) to turn any of these into the
model's words, then maps the now-canonical keys with the memoir spec §3
mapping the memoir dialect uses too (:mod:`memconv.dialects.entry_frontmatter`),
so the two dialects cannot disagree on what a field means.

Writing is the inverse. A record read from a claude file and not changed
comes back as its bytes; an edited one is patched in the shape it was read
in (nested ``metadata.type`` stays nested); a record from elsewhere is
written in Claude Code's current format: top-level ``name``,
``description``, ``type`` of ``user|feedback|project|reference``.
"""

from __future__ import annotations

from typing import Any

from ... import frontmatter as fmx
from ...model import KINDS, Record, Source, fingerprint_as_read
from .. import entry_frontmatter as efm
from . import body as bodies

NAME = "claude"

#: The types Claude Code itself writes today.
CLAUDE_TYPES = ("user", "feedback", "project", "reference")

#: memoir spec Appendix A, "Read as": legacy type → model kind. ``project`` has
#: no atomic mapping (a dossier of many would-be entries) and is read opaque.
READ_AS = {"user": "preference", "feedback": "lesson", "reference": "fact"}

#: Model kind → the Claude Code type it is written as (the inverse of READ_AS).
WRITE_AS = {kind: word for word, kind in READ_AS.items()}

#: Where a kind with no Claude Code type of its own is carried: ``type: project``
#: plus ``memconv: {kind: <kind>}``, so reading it back gives the same kind.
CARRY_KEY = "memconv"


class ClaudeFileLayout:
    """How a claude memory file was written, so an edited record keeps its shape."""

    __slots__ = ("frontmatter", "text", "type_at", "type_word", "session_at", "derived", "changes")

    def __init__(self, frontmatter, text, type_at=None, type_word=None, session_at=None, derived=(), changes=()):
        self.frontmatter = frontmatter
        self.text = text
        #: ``top``, ``metadata`` or None: where the type was written.
        self.type_at = type_at
        #: The type word as written (``feedback``), before Appendix A.
        self.type_word = type_word
        #: ``top``, ``metadata`` or None: where ``originSessionId`` was.
        self.session_at = session_at
        #: Lesson fields taken from elsewhere (``trigger`` ← description,
        #: ``how_to_apply`` ← body section) rather than from their own keys.
        self.derived = frozenset(derived)
        #: What Appendix A changed to read the file (``type: feedback → lesson``), for reports.
        self.changes = tuple(changes)


def normalise(values: dict[str, Any], body: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Appendix A on one file's frontmatter: canonical memoir values, or None if opaque.

    Returns ``(canonical, notes)``; ``notes`` says where type and session id
    were found and which lesson fields were derived (the layout of the file,
    and the report of an upgrade). Pure: ``values`` is not changed.
    """
    notes: dict[str, Any] = {"type_at": None, "type_word": None, "session_at": None, "derived": [],
                             "changes": []}
    meta = values.get("metadata")
    word = None
    if isinstance(values.get("type"), str):
        word, notes["type_at"] = values["type"], "top"
    elif isinstance(meta, dict) and isinstance(meta.get("type"), str):
        word, notes["type_at"] = meta["type"], "metadata"
    notes["type_word"] = word
    session = None
    if isinstance(values.get("originSessionId"), str):
        session, notes["session_at"] = values["originSessionId"], "top"
    elif isinstance(meta, dict) and isinstance(meta.get("originSessionId"), str):
        session, notes["session_at"] = meta["originSessionId"], "metadata"
    carried = values.get(CARRY_KEY)
    carried_kind = carried.get("kind") if isinstance(carried, dict) else None
    if word in READ_AS:
        kind = READ_AS[word]
    elif word in efm.TYPES:
        kind = word
    elif word == "project" and carried_kind in KINDS:
        kind = carried_kind
    else:
        return None, notes
    out: dict[str, Any] = {"type": kind}
    for key, value in values.items():
        if (key == "type" and notes["type_at"] == "top") or (key == "originSessionId" and notes["session_at"] == "top"):
            continue
        if key == "metadata" and isinstance(value, dict) and (notes["type_at"] == "metadata"
                                                              or notes["session_at"] == "metadata"):
            rest = {k: v for k, v in value.items()
                    if not (k == "type" and notes["type_at"] == "metadata")
                    and not (k == "originSessionId" and notes["session_at"] == "metadata")}
            if rest:
                out["metadata"] = rest
            continue
        if key == CARRY_KEY and carried_kind == kind and word == "project":
            rest = {k: v for k, v in value.items() if k != "kind"}
            if rest:
                out[CARRY_KEY] = rest
            continue
        out[key] = value
    if notes["type_at"] == "metadata":
        notes["changes"].append(f"metadata.type: {word} → type")
    if word != kind and word != "project":
        notes["changes"].append(f"type: {word} → {kind}")
    if session is not None:
        origin = out.get("origin")
        if origin is None:
            out["origin"] = {"session_id": session}
        elif isinstance(origin, dict) and "session_id" not in origin:
            out["origin"] = {**origin, "session_id": session}
        else:
            out["originSessionId"] = session  # both present and different: keep, never guess
            session = None
        if session is not None:
            where = "originSessionId" if notes["session_at"] == "top" else "metadata.originSessionId"
            notes["changes"].append(f"{where} → origin.session_id")
    if word == "feedback":
        # A blank description says no trigger: taken for one, it was a memoir lesson's `trigger: ""`, which
        # `memoir validate` refuses (docs/claude.md); none, the target fills it as it fills a missing one.
        description = out.get("description")
        if not isinstance(out.get("trigger"), str) and isinstance(description, str) and description.strip():
            out["trigger"] = description
            notes["derived"].append("trigger")
            notes["changes"].append("trigger ← description")
        if not isinstance(out.get("how_to_apply"), str):
            how = bodies.section(body, bodies.HOW_TO_APPLY)
            if how is not None:
                out["how_to_apply"] = how
                notes["derived"].append("how_to_apply")
                notes["changes"].append("how_to_apply ← **How to apply:** section")
    return out, notes


def read_entry(raw: bytes, path: str, link: str) -> Record:
    """One claude memory file → one record. Raises :class:`ReadError` for what must be quarantined."""
    fm, body, text_layout = fmx.split_file(raw, path)
    values = fm.values if fm is not None else {}
    canonical, notes = normalise(values, body) if fm is not None else (None, {})
    if canonical is None:
        record = efm.opaque_record(values, body, link, bodies.first_title)
        layout = ClaudeFileLayout(fm, text_layout, notes.get("type_at"), notes.get("type_word"), notes.get("session_at"))
    else:
        record = efm.to_record(canonical, True, body, link)
        layout = ClaudeFileLayout(fm, text_layout, notes["type_at"], notes["type_word"], notes["session_at"],
                             notes["derived"], notes["changes"])
    version = "legacy" if fm is None or notes.get("type_word") not in CLAUDE_TYPES or notes.get("type_at") != "top" \
        or notes.get("session_at") is not None else "current"
    if canonical is not None and notes["type_word"] in efm.TYPES:
        version = "memoir"
    record.source = Source(dialect=NAME, path=path, version=version, raw=raw, layout=layout)
    record.source.fingerprint = fingerprint_as_read(record)
    return record


# --- writing -----------------------------------------------------------------------


def type_word(record: Record, layout: ClaudeFileLayout | None) -> str:
    """The ``type`` word a record that is not opaque is written with (at the top or under ``metadata``)."""
    if layout is not None and layout.type_word is not None:
        # ``project`` is read as the kind its ``memconv`` key carries (:func:`normalise`): the word of every kind,
        # as it is without a layout. Before, a goal's ``project`` was written ``goal`` (its index line under
        # ``## Other``) once its file had a layout (forty-sixth session).
        same_kind = READ_AS.get(layout.type_word, layout.type_word) == record.kind \
            or (layout.type_word == "project" and record.kind in KINDS and record.kind not in WRITE_AS)
        return layout.type_word if same_kind else WRITE_AS.get(record.kind, record.kind)
    return WRITE_AS.get(record.kind, "project")


def frontmatter_pairs(record: Record, layout: ClaudeFileLayout | None) -> dict[str, Any]:
    """The frontmatter ``record`` is written with: in its source shape, or Claude Code's current one."""
    if record.opaque:
        return dict(record.extra)
    pairs = efm.frontmatter_pairs(record)
    pairs.pop("type")
    derived = layout.derived if layout is not None else frozenset({"trigger", "how_to_apply"})
    if record.kind == "lesson":
        if "trigger" in derived and record.trigger is not None and record.trigger == record.description:
            pairs.pop("trigger", None)
        # (a section is a piece of the body: a value that is not in it needs no parse to tell)
        if "how_to_apply" in derived and record.how_to_apply is not None and record.how_to_apply in record.body \
                and record.how_to_apply == bodies.section(record.body, bodies.HOW_TO_APPLY):
            pairs.pop("how_to_apply", None)
    word = type_word(record, layout)
    origin = pairs.get("origin")
    session = None
    session_at = layout.session_at if layout is not None else None
    if session_at is not None and isinstance(origin, dict) and "session_id" in origin:
        session = origin["session_id"]
        rest = {k: v for k, v in origin.items() if k != "session_id"}
        if rest:
            pairs["origin"] = rest
        else:
            pairs.pop("origin")
    type_at = layout.type_at if layout is not None else "top"
    if type_at == "metadata" or session_at == "metadata":
        original = layout.frontmatter.values.get("metadata", {}) if layout.frontmatter is not None else {}
        extra_meta = pairs.get("metadata") if isinstance(pairs.get("metadata"), dict) else {}
        meta: dict[str, Any] = {}
        for key in original:
            if key == "type" and type_at == "metadata":
                meta["type"] = word
            elif key == "originSessionId" and session_at == "metadata" and session is not None:
                meta["originSessionId"] = session
            elif key in extra_meta:
                meta[key] = extra_meta[key]
        for key, value in extra_meta.items():
            meta.setdefault(key, value)
        if type_at == "metadata":
            meta.setdefault("type", word)
        pairs["metadata"] = meta
    out: dict[str, Any] = {}
    for key in ("name", "description"):
        if key in pairs:
            out[key] = pairs.pop(key)
    if type_at != "metadata":
        out["type"] = word
    if session_at == "top" and session is not None:
        out["originSessionId"] = session
    if word == "project" and record.kind != "project" and record.kind in KINDS:
        carried = pairs.pop(CARRY_KEY, {})
        pairs[CARRY_KEY] = {"kind": record.kind, **(carried if isinstance(carried, dict) else {})}
    out.update(pairs)
    return out


def write_entry(record: Record) -> bytes:
    """One record → the bytes of its claude memory file."""
    raw = efm.unchanged_bytes(record, NAME)
    if raw is not None:
        return raw
    source = record.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    fm = layout.frontmatter if layout is not None else None
    return efm.render(record, fm, frontmatter_pairs(record, layout), layout.text if layout is not None else None)
