"""Bytes to text and back, keeping what a user's editor put there.

Every dialect stores UTF-8 markdown. Users' files carry a BOM, CRLF line
endings, or no final newline; a converter that normalises those silently
rewrites every file of a store it was asked to leave alone. So decoding
records each of them in a :class:`TextLayout`, and encoding puts them back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ReadError

BOM = "\ufeff"


@dataclass(frozen=True)
class TextLayout:
    bom: bool = False
    newline: str = "\n"


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


def encode(text: str, layout: TextLayout | None = None) -> bytes:
    """Text with ``\\n`` newlines → bytes in the given layout (default: plain UTF-8, LF)."""
    if layout is not None:
        if layout.newline != "\n":
            text = text.replace("\n", layout.newline)
        if layout.bom:
            text = BOM + text
    return text.encode("utf-8")


def short_digest(data: bytes | str, length: int = 12) -> str:
    """The first ``length`` hex digits of the SHA-1 of ``data`` (text as UTF-8): the one short name for
    "these bytes", in carries, notes and format patches. Not a security measure: a change detector."""
    import hashlib

    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha1(data).hexdigest()[:length]
