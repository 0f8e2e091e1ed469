"""Notes: records a target cannot hold live, written as files its tools ignore.

memfmt has no lifecycle, claude loads only what its index links, and no
dialect but memoir has a working set. A record that must not be presented as
live, the exact working set, store-level facts (index files) and the carry
of a file that must stay bare are therefore written as *notes*: a markdown
file under ``.memconv/notes/`` (inside ``.memspec/`` for memspec, the only
folder memspec is read from), with a ``name`` for people, a readable body, and
the whole thing carried under the ``memconv`` key. The folder's name starts
with a dot, so the target's tools (``memoir validate``, ``memoir recall``,
Claude Code, memfmt) neither check nor show it. Every dialect's reader sees a
note as a file it does not own and carries it byte for byte, so it survives
any chain of conversions and is restored on the way back.

A note is untrusted input on the way back like any other file: a path it
names passes :func:`memconv.fs.safe_relpath`, and a note that fails is
ignored with a warning naming its file.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Callable, Iterable, Iterator

from .. import frontmatter as fmx
from .. import fs
from ..errors import ReadError
from ..limits import load_json
from ..markdown import escape_link_text
from ..model import ForeignFile, IndexFile, Pieces, Record, WorkingSet, in_chunks
from ..text import short_digest
from ..text import decode
from .carry import KEY, VERSION
from .codec import as_json, compact_json, from_json, json_pieces
from .mapping import NOTE_SUFFIX, NOTES_ROOT
from .native import render_working_set

#: memconv's own folder in a target store: a dot-name, so the target's tools skip it.
MEMCONV_DIR = fs.MEMCONV_DIR
#: Where notes go, relative to the target store's root.
NOTES_DIR = f"{MEMCONV_DIR}/notes"
#: Where notes went before: still read, so that older outputs come home.
_OLD_NOTES_DIR = "memconv"


def _root(target: str) -> str:
    """The folder of ``target``'s store its notes folder is in, as it declares (``NOTES_ROOT``):
    memspec reads only ``.memspec/``, so its notes go there; the store's root otherwise."""
    return NOTES_ROOT[target]


def _roots() -> list[str]:
    """Every folder a note may be in, whatever dialect wrote it."""
    return sorted({"", *NOTES_ROOT.values()})


#: Where files the source store did not own are set aside in a target of another dialect.
FILES_DIR = fs.FILES_DIR
_OLD_FILES_DIR = f"{_OLD_NOTES_DIR}/files"


def carried_file(path: str, owner: str, target: str) -> str:
    """Where a foreign file of an ``owner`` store goes in ``target``: ``memconv/files/<owner>/<path>``."""
    return f"{_root(target)}{FILES_DIR}/{owner}/{path}"


def carried_file_path(path: str) -> tuple[str, str] | None:
    """(owner dialect, original path) of a file set aside by :func:`carried_file`, or None."""
    from ..errors import OutputError
    from ..fs import safe_relpath

    for prefix in _roots():
        for folder in (FILES_DIR, _OLD_FILES_DIR):
            head = f"{prefix}{folder}/"
            if path.startswith(head) and "/" in path[len(head):]:
                owner, rest = path[len(head):].split("/", 1)
                try:
                    return owner, safe_relpath(rest)
                except OutputError:
                    return None
    return None


def _digest(text: str) -> str:
    return short_digest(text)


def _path(target: str, name: str) -> str:
    return f"{_root(target)}{NOTES_DIR}/{name}{NOTE_SUFFIX[target]}"


#: Characters a note's file name never holds, separators, controls and what Windows refuses: ``a/b:c`` → ``a-b-c``.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


def note_name(text: str) -> str:
    """A file name for a note about ``text``: its own words, any script, only unsafe characters replaced."""
    name = _UNSAFE.sub("-", unicodedata.normalize("NFC", text)).strip(" .-")
    while len(name.encode("utf-8")) > 120:
        name = name[:-1]
    return name.rstrip(" .-") or "untitled"


class NoteNames:
    """Note names already given in one output: a name differing only in case or Unicode form is taken."""

    def __init__(self, reserved: tuple[str, ...] = ("store", "working-set")) -> None:
        self._taken = {self._key(n) for n in reserved}

    @staticmethod
    def _key(name: str) -> str:
        return unicodedata.normalize("NFKC", name).casefold()

    def claim(self, wanted: str) -> str:
        name, n = wanted, 2
        while self._key(name) in self._taken:
            name = f"{wanted}-{n}"
            n += 1
        self._taken.add(self._key(name))
        return name


def _render(name: str, status: str | None, payload: dict[str, Any] | None, body: str) -> bytes:
    """A note's bytes (a record's, a carry's, the working set's), joined whole (``bytes(Pieces)``). A store note is
    written in pieces (:func:`_store_note`)."""
    return bytes(Pieces(functools.partial(_parts, name, status, payload, body)))


def _parts(name: str, status: str | None, payload: dict[str, Any] | None, body: str | Iterable[str], *,
           in_pieces: bool = False) -> Iterator[bytes]:
    """A note's bytes, in the parts it is made of; ``body`` is its text, or its lines (a store note's: one per index
    line).

    ``in_pieces``: the carry's JSON is made piece by piece (:func:`codec.json_pieces`), for a payload that may be
    megabytes (a store note's). A record's note is encoded whole: piece by piece, each list item and each key of a
    record was a ``json.dumps`` and a quoting of its own, 17% more instructions for memspec -> memoir, whose
    archived and operator records are notes."""
    pairs: dict[str, Any] = {"name": name}
    if status:
        pairs["status"] = status
    head = fmx.patch(None, pairs, fmx.render_block)  # "---\n…---\n"
    yield head[:-len("---\n")].encode("utf-8")
    if payload is not None:
        # The carry's JSON can be megabytes (a store note): made into its line's bytes piece by piece
        # (codec.json_pieces), never whole as text. The bytes are what fmx.carry_scalar gives the carry:
        # JSON text starting with "{" is never a plain scalar, and double-quoting is character by
        # character, so the pieces quoted one by one join to the whole quoted.
        yield fmx.scalar_line_start(KEY).encode("utf-8")
        yield b'"'
        document = {"v": VERSION, **payload}
        for piece in json_pieces(document) if in_pieces else (compact_json(document),):
            yield fmx.double_quoted(piece)[1:-1].encode("utf-8")
        yield b'"\n'
    yield b"---\n"
    for line in ([body] if body else []) if isinstance(body, str) else body:  # as "\n".join(lines) gives them
        yield b"\n"
        yield line.encode("utf-8")


def write(record: Record, owner: str, target: str, why: str, *, lossy: bool,
          format_patch: dict[str, Any] | None = None, names: NoteNames | None = None) -> ForeignFile:
    """A note holding ``record`` whole (or, with ``lossy``, only its title and body).

    ``format_patch`` turns the record's canonical rendering back into its
    source file (see ``format_patch.py``), when the two differ. ``names`` are the
    note names already given in this output: the note gets a name of its own.
    """
    name = (names or NoteNames()).claim(note_name(record.link))
    # Rendered when it is written, not held: the record is held anyway (docs/performance.md).
    return ForeignFile.later(_path(target, name), functools.partial(_note, record, owner, lossy, format_patch),
                             why=f"memconv note: {why}")


def _note(record: Record, owner: str, lossy: bool, format_patch: dict[str, Any] | None) -> bytes:
    data = as_json(record)
    data.pop("body", None)
    payload = None if lossy else {"from": owner, "record": data}
    if payload is not None and format_patch is not None:
        payload["format"] = format_patch
    status = f"{record.lifecycle.state} {record.kind}" if record.lifecycle.state != "active" else record.kind
    return _render(record.title or record.link, status, payload, record.body)


def sidecar(path: str, carry: str, target: str, names: NoteNames) -> ForeignFile:
    """The carry of the record written at ``path``, kept beside the store: the file itself must stay as it is
    (a bare file has no frontmatter to hold a carry, and gaining one would make it an invalid entry)."""
    name = names.claim(note_name(path.rsplit("/", 1)[-1].removesuffix(".md") + ".carry"))
    return ForeignFile(_path(target, name), sidecar_bytes(path, carry),
                       why="memconv note: the carry of a file that stays bare")


def sidecar_bytes(path: str, carry: str) -> bytes:
    """The bytes of the sidecar note of ``path``'s ``carry``, exactly as memconv writes it, whatever its name: a note
    that is not these bytes holds text of a person's."""
    return _render(f"memconv carry of {path}", "carry", {"sidecar": {"path": path, "carry": carry}}, "")


def sidecar_holds_more(note: ForeignFile, path: str, carry: str) -> bool:
    """Whether the sidecar ``note`` of ``path``'s ``carry`` is not exactly what memconv writes for them
    (:func:`sidecar_bytes`): a line added or changed in it is a person's text, kept as a file, not let go."""
    return note.raw != sidecar_bytes(path, carry)


def working_set(ws: WorkingSet, target: str, owner: str, *, lossy: bool) -> ForeignFile:
    from . import format_patch

    payload = None if lossy else {"from": owner, "working_set": ws.document}
    patch = format_patch.working_set_patch(ws) if payload is not None else None
    if patch is not None:
        payload["format"] = patch
    body = render_working_set(ws)
    if payload is not None:
        payload["rendered"] = _digest(body)
    raw = _render("Working set", "session working set", payload, body)
    return ForeignFile(_path(target, "working-set"), raw, why="memconv note: the session working set")


def store_note(store_payload: Callable[[], dict[str, Any]], target: str, owner: str, *, lossy: bool,
               shown: Iterable[IndexFile] = ()) -> ForeignFile:
    """The note of a store's own facts, rendered when it is written (:meth:`ForeignFile.later`), not held.

    ``store_payload()`` gives them: ``"indexes"`` are :class:`IndexFile` values, encoded as the note
    is rendered, so a long index's JSON tree is never built whole, and the note's megabytes are not
    held beside the converted records until the write (docs/performance.md). ``shown``: the indexes its
    body shows, line by line, for a person (the payload may hold only their paths and texts).
    """
    pieces = functools.partial(_store_note, store_payload, owner, lossy, shown)
    return ForeignFile.later(_path(target, "store"), functools.partial(bytes, Pieces(pieces)), in_pieces=pieces,
                             why="memconv note: store-level facts")


def _store_note(store_payload: Callable[[], dict[str, Any]], owner: str, lossy: bool,
                shown: Iterable[IndexFile]) -> Iterator[bytes]:
    """The store note's bytes, in pieces (:func:`~memconv.model.in_chunks`): it is written as it is made (23 MB for
    a 100,000-entry Claude store's, which was held whole at the run's end, its peak; docs/performance.md)."""
    facts = store_payload()
    return in_chunks(_parts("memconv store", None, None if lossy else {"from": owner, "store": facts},
                            _store_note_lines(shown), in_pieces=True))


def _store_note_lines(indexes) -> Iterator[str]:
    """The readable body of a store note: each index, its sections and its lines."""
    yield "Store-level facts of the source store, kept by memconv."
    yield ""
    for index in indexes:
        yield f"## {index.path}"
        for section in index.sections:
            if section.heading:
                yield f"### {section.heading}"
            for link in section.links:
                yield f"- [{escape_link_text(link.title)}]({link.target})"
            for bullet in section.inline:
                yield f"- {bullet}"
        yield ""


def is_note_path(path: str) -> bool:
    if not path.endswith((".md", *NOTE_SUFFIX.values())):  # any dialect's, and .md as every note was before
        return False
    for prefix in _roots():
        for folder in (NOTES_DIR, _OLD_NOTES_DIR):
            if path.startswith(f"{prefix}{folder}/"):
                return True
    return False


def read(foreign: ForeignFile) -> tuple[str, Any] | None:
    """What a note holds: ``("record", (Record, owner dialect, format patch or None))``,
    ``("working_set", (document, format patch or None, whether its rendering was edited))``,
    ``("store", dict)``, ``("sidecar", (path, carry text))``; else None.

    A note is IN like any file: one whose payload does not hold together, or names a path
    that would leave the store, raises :class:`ValueError` saying why (the caller warns).
    """
    if not is_note_path(foreign.path):
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
    from .carry_checks import check_note

    try:
        check_note(doc)
    except ValueError as exc:  # a crafted or damaged note: kept as a file, said by the caller
        raise ValueError(f"{foreign.path}: {exc}; the note is kept as a file, not restored") from None
    patch = doc.get("format")
    if patch is not None:
        if not isinstance(patch, dict) or not isinstance(patch.get("path"), str):
            raise ValueError("its format patch names no path")
        _checked(patch["path"])
    if "record" in doc:
        try:
            record = from_json(doc["record"], Record)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ValueError(f"its record does not hold together ({exc})") from None
        if not isinstance(record.link, str) or not record.link:
            raise ValueError("its record has no link")
        _checked(f"{record.link}.md")
        record.body = body
        return "record", (record, str(doc.get("from")), patch)
    if "sidecar" in doc:
        side = doc["sidecar"]
        if not isinstance(side, dict) or not all(isinstance(side.get(k), str) for k in ("path", "carry")):
            raise ValueError("its carry names no file")
        return "sidecar", (_checked(side["path"]), side["carry"])
    if "working_set" in doc:
        edited = "rendered" in doc and doc["rendered"] != _digest(body.lstrip("\n"))
        return "working_set", (doc["working_set"], doc.get("format"), edited)
    if "store" in doc:
        if not isinstance(doc["store"], dict):
            raise ValueError("its store facts are not a mapping")
        return "store", doc["store"]
    return None


def _checked(path: str) -> str:
    """``path`` if it stays inside the store; a :class:`ValueError` naming it otherwise."""
    from ..errors import OutputError
    from ..fs import safe_relpath

    try:
        return safe_relpath(path)
    except OutputError:
        raise ValueError(f"it names {path!r}, which would land outside the store") from None
