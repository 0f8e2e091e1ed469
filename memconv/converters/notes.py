"""Notes: records a target cannot hold live, written as files its tools ignore.

memfmt has no lifecycle, claude loads only what its index links, and no
dialect but memoir has a working set. A record that must not be presented as
live, a record the target has no home for, the working set and store-level
facts (index files) are therefore written as *notes*: a markdown file under
``memconv/`` beside the target's own files, with a ``name`` for people, a
readable body, and the whole thing carried under the ``memconv`` key. Every
dialect's reader sees such a note as a file it does not own and carries it
byte for byte, so it survives any chain of conversions and is restored on
the way back.
"""

from __future__ import annotations

import json
from typing import Any

from .. import frontmatter as fmx
from ..errors import ReadError
from ..limits import load_json
from ..model import ForeignFile, Record, WorkingSet
from ..text import decode
from .carry import KEY, VERSION
from .codec import decode as decode_value
from .codec import encode

#: Where notes go, relative to the target store's root.
NOTES_DIR = "memconv"
#: Per-target root of the notes folder, for stores whose root is not the folder given.
_PREFIX = {"memspec": ".memspec/"}


#: Where files the source store did not own are set aside in a target of another dialect.
FILES_DIR = f"{NOTES_DIR}/files"


def carried_file(path: str, origin: str, target: str) -> str:
    """Where a foreign file of an ``origin`` store goes in ``target``: ``memconv/files/<origin>/<path>``."""
    return f"{_PREFIX.get(target, '')}{FILES_DIR}/{origin}/{path}"


def carried_file_path(path: str) -> tuple[str, str] | None:
    """(origin dialect, original path) of a file set aside by :func:`carried_file`, or None."""
    for prefix in {"", *_PREFIX.values()}:
        head = f"{prefix}{FILES_DIR}/"
        if path.startswith(head) and "/" in path[len(head):]:
            origin, rest = path[len(head):].split("/", 1)
            return origin, rest
    return None


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def _path(target: str, name: str) -> str:
    return f"{_PREFIX.get(target, '')}{NOTES_DIR}/{name}.md"


def _render(name: str, status: str | None, payload: dict[str, Any] | None, body: str) -> bytes:
    pairs: dict[str, Any] = {"name": name}
    if status:
        pairs["status"] = status
    if payload is not None:
        pairs[KEY] = json.dumps({"v": VERSION, **payload}, ensure_ascii=False, separators=(",", ":"))
    head = fmx.patch(None, pairs, fmx.render_block)
    return (head + ("\n" + body if body else "")).encode("utf-8")


def write(record: Record, origin: str, target: str, why: str, *, lossy: bool,
          format_patch: dict[str, Any] | None = None) -> ForeignFile:
    """A note holding ``record`` whole (or, with ``lossy``, only its title and body).

    ``format_patch`` turns the record's canonical rendering back into its
    source file (see ``layout.py``), when the two differ.
    """
    from . import slug

    data = encode(record)
    data.pop("body", None)
    payload = None if lossy else {"from": origin, "record": data}
    if payload is not None and format_patch is not None:
        payload["format"] = format_patch
    status = f"{record.lifecycle.state} {record.kind}" if record.lifecycle.state != "active" else record.kind
    raw = _render(record.title or record.link, status, payload, record.body)
    return ForeignFile(_path(target, slug(record.link)), raw, why=f"memconv note: {why}")


def working_set(ws: WorkingSet, target: str, origin: str, *, lossy: bool) -> ForeignFile:
    from . import layout

    payload = None if lossy else {"from": origin, "working_set": ws.document}
    patch = layout.working_set_patch(ws) if payload is not None else None
    if patch is not None:
        payload["format"] = patch
    body = render_working_set(ws)
    if payload is not None:
        payload["rendered"] = _digest(body)
    raw = _render("Working set", "session working set", payload, body)
    return ForeignFile(_path(target, "working-set"), raw, why="memconv note: the session working set")


def store_note(store_payload: dict[str, Any], target: str, origin: str, *, lossy: bool) -> ForeignFile:
    payload = None if lossy else {"from": origin, "store": store_payload}
    lines = ["Store-level facts of the source store, kept by memconv.", ""]
    for index in store_payload.get("indexes", []):
        lines.append(f"## {index.get('path')}")
        for section in index.get("sections", []):
            if section.get("heading"):
                lines.append(f"### {section['heading']}")
            lines += [f"- [{link['title']}]({link['target']})" for link in section.get("links", [])]
            lines += [f"- {bullet}" for bullet in section.get("inline", [])]
        lines.append("")
    return ForeignFile(_path(target, "store"), _render("memconv store", None, payload, "\n".join(lines)),
                       why="memconv note: store-level facts")


def read(foreign: ForeignFile) -> tuple[str, Any] | None:
    """What a note holds: ``("record", (Record, origin dialect, format patch or None))``,
    ``("working_set", (document, format patch or None, whether its rendering was edited))``,
    ``("store", dict)``; else None."""
    if not foreign.path.endswith(".md") or f"{NOTES_DIR}/" not in foreign.path:
        return None
    try:
        text, _ = decode(foreign.raw, foreign.path)
        fm, body = fmx.split(text, foreign.path)
    except ReadError:
        return None
    if fm is None or not isinstance(fm.values.get(KEY), str):
        return None
    try:
        doc = load_json(fm.values[KEY])  # bounded: a note is input like any other
    except ValueError:
        return None
    if not isinstance(doc, dict) or type(doc.get("v")) is not int or doc["v"] > VERSION:
        return None
    from .carry import check_note

    try:
        check_note(doc)
    except ValueError as exc:  # a crafted or damaged note: kept as a file, said by the caller
        raise ValueError(f"{foreign.path}: {exc}; the note is kept as a file, not restored") from None
    if "record" in doc:
        record = decode_value(doc["record"], Record)
        record.body = body
        return "record", (record, str(doc.get("from")), doc.get("format"))
    if "working_set" in doc:
        edited = "rendered" in doc and doc["rendered"] != _digest(body.lstrip("\n"))
        return "working_set", (doc["working_set"], doc.get("format"), edited)
    if "store" in doc:
        return "store", doc["store"]
    return None


_LISTS = (
    ("goals", "Goals", "set_on"),
    ("next_actions", "Next actions", "added"),
    ("parked_actions", "Parked actions", "added"),
    ("open_questions", "Open questions", "asked"),
    ("decisions", "Recent decisions", "date"),
    ("completed_actions", "Completed actions", "done_at"),
    ("completed_goals", "Completed goals", "done_at"),
)


def render_working_set(ws: WorkingSet) -> str:
    """The working set as markdown a person (or an agent) can read. Hidden decisions are not shown."""
    lines = ["# Working set", ""]
    for name, heading, date_key in _LISTS:
        items = ws.current(name)
        if not items:
            continue
        lines.append(f"## {heading}")
        lines.append("")
        for item in items:
            if not isinstance(item, dict) or item.get("hidden") is True:
                continue
            text = str(item.get("text", "")).replace("\n", " ")
            when = item.get(date_key)
            extra = f" ({date_key} {when})" if when else ""
            if name == "decisions" and item.get("why"):
                extra += f" — why: {item['why']}"
            lines.append(f"- {text}{extra}")
        lines.append("")
    history = ws.history or []
    if history:
        lines += ["## History", ""]
        for row in history:
            if isinstance(row, dict):
                lines.append(f"- {row.get('date', '?')}: {row.get('summary', '')}".rstrip())
        lines.append("")
    return "\n".join(lines)
