"""Converters between dialects: model in, model out, knowing no files.

A conversion of a store read from dialect A into dialect B runs in four steps:

1. **Restore.** Records that carry a ``memconv`` carry (they were converted
   into A earlier) are put back the way they were, native edits winning.
2. **Forward.** Every record goes to its native home in B (``mapping.py``):
   its kind, a link name B can use, every ``[[link]]`` and edge renamed.
   Text B's kind has no field for is written into its readable home
   (``readable.show``): the carry is never its only copy. Records B cannot
   hold live (a retired claim in memfmt) become *notes*: files under
   ``.memconv/notes/``, which B's tools ignore.
3. **Read back.** B's writer renders the store, B's reader reads each file
   back in memory (``read_file``), and each record is mapped home to A again.
4. **Carry the difference.** Whatever did not come back is encoded under the
   one ``memconv`` key of B's extension mechanism, so B→A gives A again.

One module per job: :mod:`.restore` (step 1), :mod:`.forward` (steps 2 and 4),
:mod:`.read_back` (step 3), :mod:`.naming` (link names and renaming),
:mod:`.store_facts` (which dialect a record belongs to, what the store says of
itself), :mod:`.slots` (where the target's extension mechanism holds the carry)
and :mod:`.conversion` (the result). This module runs them in order.
"""

from __future__ import annotations

import dataclasses

from ..errors import StoreError
from ..model import Store
from .carry import Carry
from .conversion import Conversion
from .forward import forward
from .mapping import TARGET_KIND
from .naming import native_link, rename_links, slug
from .restore import restore
from .slots import get_carry, set_carry, strip_carry
from .store_facts import carried_indexes, holds_state

__all__ = ["Carry", "Conversion", "convert", "forward", "get_carry", "holds_state", "native_link", "rename_links",
           "restore", "run", "set_carry", "slug", "strip_carry"]


def convert(store: Store, target: str, *, lossy: bool = False) -> Store:
    """The store as ``target`` should be written (see :func:`run` for the report)."""
    return run(store, target, lossy=lossy).store


def run(store: Store, target: str, *, lossy: bool = False, date: str | None = None,
        release: bool = False, lazy: bool = False) -> Conversion:
    """Convert ``store`` into ``target``: restore, then forward. ``date`` (``YYYY-MM-DD``) is the day the
    target's writer stamps where its format needs one and the records hold none (an :class:`Occasion`).

    ``release``: ``store`` is handed over, for a caller that will not use its records again (the
    command line): ``store.records`` is emptied, and each record is let go once it is converted.
    ``lazy`` (with ``release``): the rest of the conversion may be left for the final write to run
    (:attr:`Conversion.pending`, :func:`.forward.forward`).
    """
    if target not in TARGET_KIND:
        raise StoreError(f"unknown target dialect {target!r}")
    own = any(get_carry(r) is None for r in store.records)
    read = store  # as read: its index is compared with what its writer generates for it, its facts and all
    if not own:
        # Every record came from elsewhere: the store's own facts (memfmt's generated date) are
        # only a rendering of them, and need not travel. Facts restored from a note still do.
        # (Everything else is the same store's: a field added to Store is passed on without being named here.)
        store = dataclasses.replace(store, meta={}, refused=[])
    given = store.records
    restored, report = restore(store)
    # After the restore, which reads each record as the index names it (a hook its memory does not say travels);
    # before the records are let go (an index of the store's own records is compared with their rendering).
    indexes = carried_indexes(read, own, report.read_as)
    if release:
        given.clear()  # the restored store holds them now
    restored.indexes = indexes + [i for i in restored.indexes if i not in store.indexes]
    return forward(restored, target, lossy=lossy, report=report, date=date, release=release, lazy=lazy and release)
