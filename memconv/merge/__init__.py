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

from typing import Callable

from ..errors import MemconvError, StoreError
from ..model import Store
from .memoir import MergeResult, Tree, finish
from .records import Hints, Rules, merge_records
from .report import EXIT_CONFLICTS, MergeReport, Outcome

#: The built-in dialects ``merge`` knows the rules of (a plugin may declare its own ``merge``).
SUPPORTED = ("memoir", "claude", "memspec", "memfmt")


class MergeRefused(MemconvError):
    """The two stores cannot be merged as asked (different dialects, or a dialect with no merge rules)."""

    exit_code = 2


def merge(a: Store, b: Store, *, hints: Hints | None = None) -> MergeResult:
    """The merge of ``a`` and ``b``: commutative, idempotent, and losing nothing (docs/merge.md).

    ``hints``: what an import (:mod:`.into`) knows of records from their
    memconv carries: identities shared across names, and their origin's dates.
    """
    if a.dialect != b.dialect:
        raise MergeRefused(f"cannot merge a {a.dialect} store with a {b.dialect} store",
                           hint="both stores must be of one dialect; convert one first")
    rules = _rules(a.dialect)
    result = rules(a, b, hints) if hints is not None else rules(a, b)
    if a.dialect not in SUPPORTED:
        _check(result, a.dialect)
    return result


def merges(dialect: str) -> bool:
    """Whether ``merge`` (and an import with ``--into``) takes stores of ``dialect``."""
    if dialect in SUPPORTED:
        return True  # without importing its rules (memconv dialects asks for each)
    try:
        _rules(dialect)
    except MergeRefused:
        return False
    return True


def _rules(dialect: str) -> Callable[..., MergeResult]:
    """The merge of ``dialect``: a built-in's module here, else the ``merge`` its plugin declares."""
    if dialect in SUPPORTED:
        import importlib

        return importlib.import_module(f".{dialect}", __name__).merge
    from ..dialects import MODULES, get
    from ..dialects.protocol import declared

    hook = declared(get(dialect), "merge") if dialect in MODULES else None
    if hook is None:
        raise MergeRefused(f"the {dialect} dialect has no merge rules (merge knows {', '.join(SUPPORTED)}, and "
                           "any dialect whose plugin declares merge)",
                           hint="its plugin can define merge(a, b, hints=None) -> MergeResult: docs/plugins.md")
    return hook


def _check(result: object, dialect: str) -> None:
    """A plugin's merge gave a :class:`MergeResult` of path → bytes and outcomes; else an error naming it.

    The paths themselves pass the one path guard when OUT is written, as every path memconv writes.
    """
    wrong = None
    if not isinstance(result, MergeResult):
        wrong = f"a {type(result).__name__}, not a MergeResult"
    elif not isinstance(result.files, dict) or not all(
            isinstance(p, str) and isinstance(d, bytes) for p, d in result.files.items()):
        wrong = "files that are not a dict of path (str) → bytes"
    elif not isinstance(result.outcomes, list) or not all(isinstance(o, Outcome) for o in result.outcomes):
        wrong = "outcomes that are not a list of memconv.merge.Outcome"
    if wrong is not None:
        raise StoreError(f"the {dialect} dialect's merge gave {wrong}; nothing was written",
                         hint="a fault of its plugin: tell its author (docs/plugins.md says what merge gives)")


#: ``Rules``, ``merge_records``, ``Tree`` and ``finish`` are what a plugin's own ``merge`` builds on
#: (docs/plugins.md, "Merging a plugin's stores").
__all__ = ["EXIT_CONFLICTS", "Hints", "MergeRefused", "MergeReport", "MergeResult", "Outcome", "Rules", "SUPPORTED",
           "Tree", "finish", "merge", "merge_records", "merges"]
