"""A record in the target's words: the native record the forward step writes.

:func:`in_target_words` gives a record the target's kind, the fields its tools
require, and its text in readable homes (:mod:`.transforms`, :mod:`.readable`);
:func:`dossier` is ``--lossy``'s plain memory kept whole.
"""

from __future__ import annotations

from ..model import Record, clone
from . import readable, transforms
from .mapping import EDGE_TYPES, edge_types, type_word


def in_target_words(record: Record, kind: str, link: str, target: str | None = None) -> Record:
    """A copy of ``record`` as a ``kind`` of ``target`` named ``link``: the kind's fields, what its tools
    require, text it has no field for in its readable home, and only the edges it has a word for.
    Without ``target`` (a record home again) only the kind and link change."""
    native = clone(record)
    native = transforms.to_kind(native, kind, target)
    if target is not None:
        native = transforms.tags_as_text(native)
        native = transforms.fill_required(native, target)
        native = readable.show(native, target)
        native = transforms.on_one_line(native, target)
        native = transforms.no_empty_lists(native, target)
    native.link = link
    native.opaque = kept_whole(record, kind)
    held = edge_types(target, kind) if target in EDGE_TYPES else None
    if held is not None:
        # Links the target has no word for (none in a memfmt procedure or episode) are carried, not forced into a
        # wrong one.
        native.edges = [e for e in native.edges if e.type in held and e.direction == "out"]
    return native


def kept_whole(record: Record, kind: str) -> bool:
    """Whether ``record`` as a ``kind`` (:func:`in_target_words`) is kept whole: a legacy entry or bare file (opaque)
    where the target keeps such files whole. Asked of the record, before its copy is made (a conversion that makes
    each copy only as its write asks for it: forward.py)."""
    return kind == "opaque" and record.opaque


def dossier(record: Record, target: str) -> Record:
    """A record as a plain memory kept whole (a Claude Code ``project`` memory): name, description, body;
    nothing else. Its type is the word the target gives a record kept whole."""
    extra = {"name": record.title or record.link}
    if record.description is not None:
        extra["description"] = record.description
    extra["type"] = type_word(target, "opaque")
    return Record(kind="opaque", link=record.link, title=record.title, description=record.description,
                  body=record.body, opaque=True, extra=extra)
