"""syrupy extensions for the golden snapshots: a tree of files as one readable, byte-exact listing.

A tree (relative POSIX path → bytes) is written as one ``.tree`` file::

    # 3 files
    === MEMORY.md (812 bytes) ===
    <the file's bytes, exactly>
    === memory/note.md (40 bytes, crlf, no final newline) ===
    <the file's bytes, exactly>
    === attachments/diagram.png (68 bytes, base64) ===
    iVBORw0KGgo...

Each file's bytes follow its header as they are (CRLF, BOM, a missing final
newline and all), then one ``\\n`` ends the block. Bytes that are not UTF-8
text (or hold a NUL) are written as one line of base64, marked ``base64``.
The header gives the byte count, so the listing reads back unambiguously
(:func:`parse`): two trees have the same listing only if they are the same
bytes. The flags (``crlf``, ``cr``, ``bom``, ``no final newline``, ``empty``)
are there for the reviewer, who would not see them in a diff.

The snapshot file is read and written in binary (no newline translation), and
``tests/__snapshots__/.gitattributes`` stops git from touching line endings.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

_HEADER = re.compile(rb"=== (.+) \((\d+) bytes((?:, [a-z0-9 ]+)*)\) ===\n")


def _is_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _flags(data: bytes, text: bool) -> list[str]:
    if not text:
        return ["base64"]
    flags = []
    if not data:
        flags.append("empty")
    if data.startswith(b"\xef\xbb\xbf"):
        flags.append("bom")
    if b"\r\n" in data:
        flags.append("crlf")
    if b"\r" in data.replace(b"\r\n", b""):
        flags.append("cr")
    if data and not data.endswith(b"\n"):
        flags.append("no final newline")
    return flags


def listing(files: Mapping[str, bytes]) -> bytes:
    """The tree as one listing, files in path order; see the module docstring."""
    out = [f"# {len(files)} files\n".encode()]
    for path in sorted(files):
        data = files[path]
        if "\n" in path or "\r" in path:
            raise ValueError(f"{path!r}: a path with a line break cannot be listed")
        text = _is_text(data)
        extra = "".join(f", {f}" for f in _flags(data, text))
        out.append(f"=== {path} ({len(data)} bytes{extra}) ===\n".encode())
        out.append(data if text else base64.b64encode(data))
        out.append(b"\n")
    return b"".join(out)


def parse(raw: bytes) -> dict[str, bytes]:
    """The tree a listing holds: ``parse(listing(files)) == files``."""
    first, _, rest = raw.partition(b"\n")
    count = int(re.fullmatch(rb"# (\d+) files", first).group(1))
    files, at = {}, 0
    while at < len(rest):
        head = _HEADER.match(rest, at)
        if head is None:
            raise ValueError(f"not a file header at byte {at + len(first) + 1}")
        path, size, flags = head.group(1).decode(), int(head.group(2)), head.group(3).decode()
        at = head.end()
        if "base64" in flags:
            end = rest.index(b"\n", at)
            data = base64.b64decode(rest[at:end], validate=True)
        else:
            end = at + size
            data = rest[at:end]
        if len(data) != size or rest[end:end + 1] != b"\n":
            raise ValueError(f"{path}: the listing does not hold {size} bytes")
        files[path] = data
        at = end + 1
    if len(files) != count:
        raise ValueError(f"the listing says {count} files and holds {len(files)}")
    return files


class _BytesSnapshot(SingleFileSnapshotExtension):
    """Stored and compared as bytes; a failure shows a line diff of the text (line ends marked)."""

    _write_mode = WriteMode.BINARY

    def diff_lines(self, serialized_data, snapshot_data):
        def text(data):
            return data.decode("utf-8", "backslashreplace") if isinstance(data, bytes) else str(data)

        return super().diff_lines(text(serialized_data), text(snapshot_data))


class TreeSnapshot(_BytesSnapshot):
    """A tree of files, one ``.tree`` listing per snapshot."""

    file_extension = "tree"

    def serialize(self, data, **kwargs) -> bytes:
        return listing(data)


class TextSnapshot(_BytesSnapshot):
    """A report as text (UTF-8), one ``.txt`` file per snapshot, compared byte for byte."""

    file_extension = "txt"

    def serialize(self, data, **kwargs) -> bytes:
        return data.encode("utf-8")


class JSONTextSnapshot(TextSnapshot):
    """A report already rendered as JSON text, one ``.json`` file per snapshot."""

    file_extension = "json"
