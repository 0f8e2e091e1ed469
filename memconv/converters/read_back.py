"""Read back: what the target's reader makes of what its writer wrote, one file at a time, in memory."""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..errors import ReadError, StoreError
from ..model import Quarantined, Record, Store
from .mapping import TARGET_KIND
from .slots import get_carry, set_carry, strip_carry


#: The marker a record wears while it is written and read back: which one it was.
_PROBE = "memconv-probe:"


def read_back(target: str, natives: list[tuple[Record, Record]], store: Store,
               also: list[Record] = ()) -> dict[int, Record]:
    """What the target's reader makes of what its writer wrote: id(native) → record read back.

    Each native record wears a marker in the target's extension mechanism for
    the trip, so it is found again whatever path or link the writer gave it.
    ``also`` are the other records the final store holds (written beside them,
    not read back), so that the writer's store-wide facts are the same both times.
    """
    if not natives:
        return {}
    module = dialects.get(target)
    written = Store(dialect=f"{store.dialect}→{target}", records=[n for _, n in natives] + list(also))
    for i, (_, native) in enumerate(natives):
        set_carry(native, target, f"{_PROBE}{i}")
    back: dict[int, Any] = {}
    refused: tuple[str, str] | None = None
    try:
        files = module.write(written)
        # Each file is read as the target's reader reads it, in memory and one at a time: no
        # folder, no second store, none of the reader's store-wide checks (their warnings
        # are the final write's business).
        # A dialect whose file holds many records (a plugin's JSON Lines) reads one with ``read_records``.
        many = getattr(module, "read_records", None)
        for path, raw in (files.items() if isinstance(files, dict) else files):
            why = dialects.unportable(path)
            try:
                records = [] if why is not None else many(path, raw, written.meta) if many is not None \
                    else [module.read_file(path, raw, written.meta)]
            except ReadError as exc:
                why = Quarantined.because(exc, path, raw).reason
                records = []
            if why is not None:
                refused = refused or (path, why)
                continue
            for record in records:
                marker = get_carry(record) if record is not None else None
                if isinstance(marker, str) and marker.startswith(_PROBE):
                    _, native = natives[int(marker[len(_PROBE):])]
                    back[id(native)] = record
    finally:
        for _, native in natives:
            strip_carry(native)
    if refused is not None:
        path, reason = refused
        if len(back) == len(natives):
            raise StoreError(f"the {target} writer made a file its own reader refuses: {path}: {reason}",
                             hint="this is a bug in memconv; please report it")
        # Records that did not come back: the caller quarantines their source files, with this reason.
        back[REFUSED] = f"its {target} rendering ({path}) is refused by the {target} reader: {reason}"
    return back


#: Key of :func:`read_back`'s answer that holds why records did not come back.
REFUSED = -1


def reread(files: list[tuple[str, str, bytes]]) -> dict[tuple[str, str], Record]:
    """Source files read again by their own dialect, each in memory: (dialect, path, bytes) → record
    with its source. A file the reader refuses is left out (the record is then written anew)."""
    out: dict[tuple[str, str], Record] = {}
    for dialect, path, raw in files:
        if dialect not in TARGET_KIND or dialects.unportable(path) is not None:
            continue
        try:
            record = dialects.get(dialect).read_file(path, raw, {})
        except ReadError:
            continue
        if record is not None and record.source is not None:
            out[(dialect, record.source.path)] = record
    return out


def one_line_per_key(record: Record) -> bool:
    """Whether no frontmatter key of ``record``'s file is written twice (YAML lets the last win)."""
    fm = getattr(getattr(record.source, "layout", None), "frontmatter", None)
    keys = [c.key for c in getattr(fm, "chunks", None) or () if c.key is not None]
    return len(keys) == len(set(keys))


def quarantine_unwritable(out: Store, original: Record, target: str, why: str | None) -> bool:
    """Set ``original``'s source file aside when the target cannot hold it; False when there is no file."""
    from ..model import Quarantined

    src = original.source
    if why is None or src is None or not src.has_raw:
        return False
    out.quarantined.append(Quarantined(path=src.path, raw=src.raw, reason=why))
    return True
