"""Bytes to text and back, keeping what a user's editor put there.

Every dialect stores UTF-8 markdown. Users' files carry a BOM, CRLF line
endings, or no final newline; a converter that normalises those silently
rewrites every file of a store it was asked to leave alone. So decoding
records each of them in a :class:`TextLayout`, and encoding puts them back.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterator

from .errors import ReadError

BOM = "\ufeff"


@dataclass(frozen=True)
class TextLayout:
    bom: bool = False
    newline: str = "\n"
    #: The line end of the file's frontmatter where it is not the rest's (an LF frontmatter over a CRLF body);
    #: None where the whole file has one (:func:`with_head`).
    head_newline: str | None = None


def decode(raw: bytes, path: str) -> tuple[str, TextLayout]:
    """UTF-8 bytes → text with ``\\n`` newlines, plus how to undo that.

    A file with NUL bytes or invalid UTF-8 is not text: it is refused with an
    error naming the file, never decoded with replacement characters.
    """
    if b"\x00" in raw:
        raise ReadError(path, "is a binary file (it contains NUL bytes), not UTF-8 markdown",
                        hint="move it out of the store or restore the text it should hold")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ReadError(path, f"is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                        line=line, hint="re-save the file as UTF-8") from None
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    newline = "\r\n" if "\r\n" in text else "\n"
    if newline == "\r\n":
        text = text.replace("\r\n", "\n")
    return text, TextLayout(bom=bom, newline=newline)


def with_head(layout: TextLayout, raw: bytes, head_lines: int) -> TextLayout:
    """``layout`` (of ``raw``, as :func:`decode` gave it) with the line end of the file's first ``head_lines`` lines
    (its frontmatter, the closing line included) told apart from the rest's, where the two differ: :func:`decode`
    gives a file one line end, CRLF if any line has one, and an LF frontmatter over a CRLF body was written back
    CRLF throughout. Rest with no line end: the head's is the file's."""
    if layout.newline == "\n" or head_lines <= 0:
        return layout  # (no CRLF anywhere: one line end)
    at = -1
    for _ in range(head_lines):
        at = raw.find(b"\n", at + 1)
        if at < 0:
            return layout
    head = "\r\n" if raw.rfind(b"\r\n", 0, at + 1) >= 0 else "\n"
    rest = "\r\n" if raw.find(b"\r\n", at + 1) >= 0 else "\n" if raw.find(b"\n", at + 1) >= 0 else head
    return layout if head == rest else TextLayout(bom=layout.bom, newline=rest, head_newline=head)


def decode_lines(raw: bytes, path: str) -> tuple[Iterator[str], TextLayout, bool]:
    """What :func:`decode` gives, a line at a time: the lines of the text (split at ``\\n``, the last newline's
    empty line left out), each decoded from ``raw`` as it is asked for; the :class:`TextLayout`; whether the text
    ended with a newline. The text is never held whole (a 100,000-link ``MEMORY.md``). Bytes that are not text
    raise the ``ReadError`` :func:`decode` raises, naming the byte and its line in the file."""
    if b"\x00" in raw:
        decode(raw, path)  # (raises)
    bom = raw.startswith(_BOM_BYTES)
    final_newline = raw.endswith(b"\n")
    layout = TextLayout(bom=bom, newline="\r\n" if b"\r\n" in raw else "\n")
    return _decoded(raw, path, len(_BOM_BYTES) if bom else 0, len(raw) - 1 if final_newline else len(raw)), \
        layout, final_newline


def _decoded(raw: bytes, path: str, start: int, end: int) -> Iterator[str]:
    while True:
        stop = raw.find(b"\n", start, end)
        piece = raw[start:end if stop < 0 else stop]
        if stop >= 0 or end < len(raw):
            piece = piece.removesuffix(b"\r")  # a CRLF's CR: decode reads "\r\n" as "\n"
        try:
            yield piece.decode("utf-8")
        except UnicodeDecodeError:
            decode(raw, path)  # (raises, naming the byte and its line in the file)
            raise
        if stop < 0:
            return
        start = stop + 1


_BOM_BYTES = codecs.BOM_UTF8


def encode(text: str, layout: TextLayout | None = None, head: int = 0) -> bytes:
    """Text with ``\\n`` newlines → bytes in the given layout (default: plain UTF-8, LF). ``head``: how many
    characters of ``text`` are its frontmatter, whose lines end with the layout's ``head_newline`` where it has one."""
    if layout is not None and layout.head_newline is not None and head:
        return encode(text[:head], TextLayout(bom=layout.bom, newline=layout.head_newline)) \
            + encode(text[head:], TextLayout(newline=layout.newline))
    if layout is not None:
        if layout.newline != "\n":
            text = text.replace("\n", layout.newline)
        if layout.bom:
            text = BOM + text
    return text.encode("utf-8")


#: How many answers one of memconv's caches of answers keeps before it is emptied.
CACHE_LIMIT = 8192


def remember(cache: dict, key, value):
    """Keep ``value`` under ``key`` in a cache of answers (remembered scalars, digests of short values)
    and give it back; a full cache is emptied first. One rule for every such cache: bounded, and
    never a cost per look-up beyond the dict's."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def short_digest(data: bytes | str, length: int = 12) -> str:
    """The first ``length`` hex digits of the SHA-1 of ``data`` (text as UTF-8): the one short name for
    "these bytes", in carries, notes, format patches, import records and conflict copies' names. Not a security
    measure: a change detector. (memoir's ``text_hash`` is another rule, the spec's SHA-256 of an identity.)"""
    if isinstance(data, str):
        # A lone surrogate (JSON allows ``\\ud800``) is hashed as it stands, not refused.
        data = data.encode("utf-8", "surrogatepass")
    return short_hash(data).hexdigest()[:length]


def short_hash(data: bytes = b""):
    """The hash whose first hex digits :func:`short_digest` gives (SHA-1), for bytes digested a piece at a time."""
    import hashlib

    return hashlib.sha1(data)


#: Runs of anything but letters and digits (of any script), underscores included: ``No Mocks!`` → ``no-mocks``.
_SLUG_JUNK = re.compile(r"[\W_]+")
#: How long a slug may be: the name part of a file name stays readable in a listing.
SLUG_LIMIT = 60
#: The slug of a text with no letter or digit in it.
UNTITLED = "untitled"


#: A line break to any reader (Python's ``str.splitlines``): what one line of a file may not hold.
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def has_line_break(text: str) -> bool:
    return _LINE_BREAK.search(text) is not None


#: What cannot stand in a line a person reads: a line break of any kind and every other control character (a
#: NUL makes a whole markdown file a binary one, refused when it is read again).
NOT_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with every character of :data:`NOT_IN_A_LINE` a space, nothing else changed."""
    return NOT_IN_A_LINE.sub(" ", text)


def unwritable(doc: Any) -> bool:
    """Whether a JSON document (keys too) holds text no file holds: a NUL or a lone surrogate, which JSON says as
    ``\\u0000``, ``\\ud800``. A surrogate cannot be written as UTF-8, and a file with a NUL is refused by every
    reader (docs/limits.md)."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and ("\x00" in value or not value.isascii() and _has_surrogate(value)):
            return True
    return False


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def on_one_line(text: str) -> str:
    """``text`` on one line: when it holds a line break, every run of whitespace is one space (a title,
    a frontmatter value); otherwise as it is."""
    return flat(text) if has_line_break(text) else text


def flat(text: str) -> str:
    """``text`` on one line: every run of whitespace one space, none at either end (``" ".join(text.split())``).

    A long text is cut into words a slice at a time (:func:`_flat_in_slices`): cut into words at once, a 50 MB
    body was a list of eight million strings, 600 MB held together (docs/performance.md, "(seventeenth)")."""
    if len(text) <= _SLICE:
        return " ".join(text.split())
    return _flat_in_slices(text, _SLICE)


#: The longest text :func:`flat` cuts into words at once: a list of its words holds about ten times its size.
_SLICE = 1 << 16


def _flat_in_slices(text: str, size: int) -> str:
    """:func:`flat`, the text cut into words ``size`` characters at a time; a word the end of a slice cuts is
    put together again, in parts (a word longer than a slice is never copied once per slice)."""
    pieces: list[str] = []  # flat, each a slice's words
    cut: list[str] = []  # the parts of a word the slices cut, not ended yet
    for start in range(0, len(text), size):
        part = text[start:start + size]
        words = part.split()
        if cut and (not words or part[0].isspace()):
            pieces.append("".join(cut))  # it ended where the last slice did
            cut = []
        if not words:
            continue
        if cut:  # this slice begins with the rest of the cut word
            cut.append(words[0])
            if len(words) == 1 and not part[-1].isspace():
                continue  # and it goes on into the next
            pieces.append("".join(cut))
            cut = []
            del words[0]
        if not part[-1].isspace():
            cut.append(words.pop())  # the next slice may go on with it
        if words:
            pieces.append(" ".join(words))
    if cut:
        pieces.append("".join(cut))
    return " ".join(pieces)


def repr_digest(value, length: int = 12) -> str:
    """:func:`short_digest` of ``repr(value)``, the same digits, made a piece of the ``repr`` at a time: a string
    a slice at a time, a list or tuple an item at a time (a 50 MB body's ``repr`` and its UTF-8 were 250 MB held
    at once to digest a carried field; docs/performance.md, "(seventeenth)"). For a value the caller knows is
    long (:func:`is_long`, a record with a long body): a short one is digested faster whole."""
    digest = short_hash()
    for piece in _repr_pieces(value):
        digest.update(piece.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:length]


#: A text longer than this is long (:func:`is_long`): its ``repr`` is digested a slice at a time.
LONG_TEXT = _SLICE
#: A list or tuple of more items than this is long: its ``repr`` is digested an item at a time.
MANY_ITEMS = 4096


def is_long(value) -> bool:
    """Whether ``value``'s ``repr`` is digested a piece at a time (:func:`repr_digest`): a long text, or a list or
    tuple of many items or holding a long text."""
    kind = value.__class__
    if kind is str:
        return len(value) > LONG_TEXT
    if kind is list or kind is tuple:
        return len(value) > MANY_ITEMS or any(x.__class__ is str and len(x) > LONG_TEXT for x in value)
    return False


def _repr_pieces(value):
    """``repr(value)`` in pieces, for a str, list or tuple (anything else: its ``repr``, whole)."""
    kind = value.__class__
    if kind is str:
        yield from _str_repr_pieces(value, _SLICE) if len(value) > LONG_TEXT else (repr(value),)
    elif kind is list or kind is tuple:
        yield "[" if kind is list else "("
        for i, item in enumerate(value):
            if i:
                yield ", "
            yield from _repr_pieces(item)
        yield "]" if kind is list else ",)" if len(value) == 1 else ")"
    else:
        yield repr(value)


def _str_repr_pieces(text: str, size: int):
    """``repr(text)``, ``size`` characters of ``text`` at a time. Each slice's ``repr`` escapes as the whole
    text's does, but for the quote: ``repr`` quotes with ``"`` a text holding ``'`` and no ``"``, and then
    leaves ``'`` bare, which a text holding both (quoted with ``'``) escapes."""
    quote = '"' if "'" in text and '"' not in text else "'"
    yield quote
    for start in range(0, len(text), size):
        piece = repr(text[start:start + size])
        if piece[0] != quote and quote == "'":  # a slice with ' and no ", of a text that holds both
            yield piece[1:-1].replace("'", "\\'")
        else:  # (a slice quoted with ' of a text quoted with " holds no ': the same either way)
            yield piece[1:-1]
    yield quote


def same_stripped(a: str, b: str) -> bool:
    """``a.strip() == b.strip()``, without a stripped copy of either: a long text is compared where its words start
    and end, a slice at a time (docs/performance.md, "(seventeenth)")."""
    if len(a) <= _SLICE and len(b) <= _SLICE:
        return a.strip() == b.strip()
    a_at, b_at = start_of_text(a), start_of_text(b)
    a_end, b_end = end_of_text(a, a_at), end_of_text(b, b_at)
    if a_end - a_at != b_end - b_at:
        return False
    return all(a[a_at + i:min(a_at + i + _SLICE, a_end)] == b[b_at + i:min(b_at + i + _SLICE, b_end)]
               for i in range(0, a_end - a_at, _SLICE))


def start_of_text(text: str, at: int = 0) -> int:
    """Where ``text[at:]`` starts once trimmed of whitespace (its length when it is all whitespace)."""
    return _SPACES.match(text, at).end()


_SPACES = re.compile(r"\s*")


def end_of_text(text: str, start: int) -> int:
    """Where ``text[start:]`` ends once trimmed of whitespace (``start`` when it is all whitespace), found without
    a copy of the text: its tail is trimmed a few thousand characters at a time."""
    stop = len(text)
    while stop > start:
        tail = text[max(start, stop - 4096):stop]
        kept = tail.rstrip()
        if kept:
            return stop - len(tail) + len(kept)
        stop -= len(tail)
    return start


def after_line_breaks(text: str, at: int) -> int:
    """Where the run of line breaks at ``at`` in ``text`` ends (``at`` when there is none): the blank lines after
    a closing ``---`` or a leading ``# Title``, found without a copy of what follows."""
    return _LINE_BREAKS.match(text, at).end()


_LINE_BREAKS = re.compile(r"\n*")


def replaced(data: bytes, start: int, end: int, new: bytes) -> bytes:
    """``data`` with the bytes from ``start`` to ``end`` replaced by ``new``, made at once: ``data[:start] + new +
    data[end:]`` made a copy of each slice and of the first sum on the way, three more copies of a 100 MB file
    held together (docs/performance.md, "(seventeenth)")."""
    view = memoryview(data)
    return b"".join((view[:start], new, view[end:]))


def slug(text: str) -> str:
    """The one slug: the file-name form of a title or a file stem (``Staging API endpoints`` →
    ``staging-api-endpoints``; ``Café notes`` → ``cafe-notes``; ``日本語のメモ`` stays in its script).

    Compatibility forms are folded (NFKC: ``ﬁ`` → ``fi``, full-width → ASCII), accents on Latin
    letters are dropped (``é`` → ``e``), every other letter and digit of any script is kept,
    lowercase; every run of anything else becomes one ``-``; at most :data:`SLUG_LIMIT`
    characters, cut where the slug stays whole; :data:`UNTITLED` when nothing is left.
    Slugging a slug changes nothing. ``docs/conversion.md`` ("One slug") says why.
    """
    if text.isascii():
        folded = text.lower()  # what the folding below gives ASCII text: it has no compatibility form, no accent
    else:
        kept: list[str] = []
        for ch in unicodedata.normalize("NFKD", text):
            if unicodedata.combining(ch) and kept and kept[-1].isascii():
                continue  # the accent of a Latin letter: café → cafe
            kept.append(ch)
        folded = unicodedata.normalize("NFC", "".join(kept)).lower()
    return _SLUG_JUNK.sub("-", folded).strip("-")[:SLUG_LIMIT].strip("-") or UNTITLED


#: ``[text](url)``: in a one-line title, only its text is kept.
MARKDOWN_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
#: How long a title made from a line of prose may be.
TITLE_LIMIT = 72


def title_of(text: str) -> str:
    """A line of prose (an index's inline bullet) as a title: one line, markdown links reduced to
    their text, cut at a word with ``…`` when longer than :data:`TITLE_LIMIT`."""
    line = flat(MARKDOWN_LINK.sub(r"\1", text))
    if len(line) <= TITLE_LIMIT:
        return line
    cut = line[:TITLE_LIMIT].rsplit(" ", 1)[0].rstrip(" ,;:—-")
    return (cut or line[:TITLE_LIMIT]) + "…"
