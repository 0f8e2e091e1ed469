"""memoir entry files ↔ records (spec v0.1.2 §3).

The frontmatter ↔ record mapping itself is shared with the claude dialect and
lives in :mod:`memconv.dialects.entry_frontmatter`; this module adds what is
memoir's own: the entry version check on read, and the layout that lets an
edited entry keep the formatting of every key whose value did not change.
"""

from __future__ import annotations

from ... import frontmatter as fmx
from ...errors import ReadError
from ...migrations import VersionProblem
from ...migrations.memoir import ENTRY, entry_version
from ...model import Record, Source, fingerprint_as_read
from .. import entry_frontmatter as efm
from ..entry_frontmatter import TYPES, frontmatter_pairs

NAME = "memoir"


class MemoirEntryLayout:
    """How a memoir entry file was written: frontmatter lines and text encoding."""

    __slots__ = ("frontmatter", "text")

    def __init__(self, frontmatter, text):
        self.frontmatter = frontmatter
        self.text = text


def read_entry(raw: bytes, path: str, link: str) -> Record:
    """One entry file → one record. Raises :class:`ReadError` for what must be quarantined."""
    # A block YAML refuses is read as memoir-cli reads it, line by line (docs/memoir.md, forty-seventh session).
    fm, body, text_layout = fmx.split_file(raw, path, lines=fmx.memoir_cli_values)
    values = fm.values if fm is not None else {}
    try:
        version = entry_version(values)
        ENTRY.check(version)
    except VersionProblem as exc:
        # (The reason of a version too new already says to upgrade memconv: the hint said it again.)
        raise ReadError(path, exc.reason, hint="if schema_version is wrong, fix it by hand") from None
    record = efm.to_record(values, fm is not None, body, link)
    record.source = Source(dialect=NAME, path=path, version=version, raw=raw,
                           layout=MemoirEntryLayout(fm, text_layout))
    record.source.fingerprint = fingerprint_as_read(record)
    return record


def write_entry(record: Record) -> bytes:
    """One record → the bytes of its entry file.

    An unedited record read from memoir comes back as the bytes it was read
    from. An edited one keeps the formatting of every unchanged key. A record
    with no memoir source is written in canonical form.
    """
    raw = efm.unchanged_bytes(record, NAME)
    if raw is not None:
        return raw
    source = record.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    fm = layout.frontmatter if layout is not None else None
    pairs = frontmatter_pairs(record)
    if layout is None:
        # Another dialect's value memoir validate refuses under a key memoir reserves (created: last week) is not
        # written there: the carry keeps it and the conversion says so (refused_values). An entry read from memoir
        # keeps what it had.
        refused = efm.refused_pairs(record, pairs)
        pairs = {k: v for k, v in pairs.items() if k not in refused}
    return efm.render(record, fm, pairs, layout.text if layout is not None else None)


def refused_values(record: Record) -> dict[str, object]:
    """The frontmatter pairs of ``record``, a record from another dialect, that :func:`write_entry` does not write
    because ``memoir validate`` would refuse them (``entry_frontmatter.refuses``)."""
    return efm.refused_pairs(record)


__all__ = ["NAME", "TYPES", "MemoirEntryLayout", "read_entry", "write_entry", "frontmatter_pairs", "refused_values"]
