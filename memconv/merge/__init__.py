"""Merging two stores of one dialect into a third (issue 11, first step).

``merge(a, b)`` takes two stores as their readers returned them and gives the
merged store as files, with one :class:`~.report.Outcome` per record: added,
updated (which side won, and why), unchanged, or conflict. It never writes:
the CLI (``memconv merge``, :mod:`memconv.cli_merge`) does, through the same
atomic writer as every other command.

memoir is merged by its spec's §5 (:mod:`.memoir`, :mod:`.session`);
claude, memspec and memfmt by their own rules (:mod:`.claude`,
:mod:`.memspec`, :mod:`.memfmt`) over the shared record merge of
:mod:`.records`. See docs/merge.md.
"""

from __future__ import annotations

from ..errors import MemconvError
from ..model import Store
from .memoir import MergeResult
from .records import Hints
from .report import EXIT_CONFLICTS, MergeReport, Outcome

#: Dialects ``merge`` knows the rules of.
SUPPORTED = ("memoir", "claude", "memspec", "memfmt")


class MergeRefused(MemconvError):
    """The two stores cannot be merged as asked (different dialects, or a dialect with no merge rules yet)."""

    exit_code = 2


def merge(a: Store, b: Store, *, hints: Hints | None = None) -> MergeResult:
    """The merge of ``a`` and ``b``: commutative, idempotent, and losing nothing (docs/merge.md).

    ``hints``: what an import (:mod:`.into`) knows of records from their
    memconv carries: identities shared across names, and their origin's dates.
    """
    if a.dialect != b.dialect:
        raise MergeRefused(f"cannot merge a {a.dialect} store with a {b.dialect} store",
                           hint="both stores must be of one dialect; convert one first")
    if a.dialect not in SUPPORTED:
        raise MergeRefused(f"merging {a.dialect} stores is not supported yet (only {', '.join(SUPPORTED)})",
                           hint="see docs/merge.md for what merge does today")
    import importlib

    module = importlib.import_module(f".{a.dialect}", __name__)
    return module.merge(a, b, hints) if hints is not None else module.merge(a, b)


__all__ = ["EXIT_CONFLICTS", "Hints", "MergeRefused", "MergeReport", "MergeResult", "Outcome", "SUPPORTED", "merge"]
