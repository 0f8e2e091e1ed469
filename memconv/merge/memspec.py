"""Merging two memspec stores: claims and observations by id.

* A record is identified by its id. Identical bytes are unchanged; otherwise
  the newer by ``last_verified``, then ``created``, wins (the newest of the two
  dates a copy has).
* What is *merged* rather than chosen, whichever copy wins:
  - the state is monotone: a merge never un-supersedes or un-retires (a
    superseded or retired copy makes the result so, with its reason and
    ``superseded_by``; when both left ``active``, the winner's state stands);
  - typed links are unioned (``supersedes``, ``conflicts_with``, ``refines``,
    ``supports``, ``depends_on``); ``superseded_by`` holds one id, the
    winner's, and a different one from the other copy is kept in
    ``ext.merged_superseded_by``;
  - ``ext`` is merged key by key: a key one copy has is kept; a key both have
    with different values takes the newer copy's (on a date tie, the value
    whose JSON sorts last), and the report names the value left out.
* After all records are merged, supersession chains are made consistent: a
  ``superseded_by: Y`` gets ``Y.supersedes`` back, a ``supersedes: [X]`` makes
  X superseded by Y (unless X already names another successor); a cycle of
  ``superseded_by`` is cut at the newest record of the cycle, the cut link
  kept in its ``ext.merged_superseded_by``.
* Two copies with tied dates that say different things (title, body, tags,
  anchors…) are a conflict: the canonical choice stays, the other is kept as a
  valid record with a new id (derived from its content), ``conflicts_with``
  the original, its supersession links moved to ``ext.conflict_copy_of``.
* Any other file (config.yaml…) is unioned by path, as for memoir.
"""

from __future__ import annotations

import json

from ..dialects.memspec import records as memspec_records
from ..dialects.memspec.ulid import derive
from ..model import Edge, Lifecycle, Record, Store, clone, fingerprint, unedited
from ..text import short_digest
from .identity import canonical
from .memoir import MergeResult, Tree, finish
from .records import Hints, Rules, merge_records, recency
from .report import Outcome

#: Links that are the supersession chain, kept consistent across the store.
CHAIN = ("supersedes", "superseded_by")
#: Where a ``superseded_by`` that could not stay (another successor won, or it closed a cycle) is kept.
KEPT_SUCCESSORS = "merged_superseded_by"


def _dates(record: Record) -> list[tuple[str, object]]:
    return [(name, getattr(record, name)) for name in ("last_verified", "created") if getattr(record, name)]


def _substance(record: Record) -> str:
    """What a copy says that is chosen wholesale: everything but state, links and ext."""
    saved = record.lifecycle, record.edges, record.ext
    record.lifecycle, record.edges, record.ext = Lifecycle(), [], None
    try:
        return fingerprint(record)
    finally:
        record.lifecycle, record.edges, record.ext = saved


def _size(record: Record) -> int:
    return len(record.edges) + len(record.ext or {}) + (record.lifecycle.state != "active")


def _successor(record: Record) -> str | None:
    return next((e.target for e in record.edges if e.type == "superseded_by"), None)


def _combine(winner: Record, loser: Record, tied: bool) -> tuple[Record, list[str]]:
    notes: list[str] = []
    merged = clone(winner, keep_source=True)
    # State: monotone.
    if winner.lifecycle.state == "active" and loser.lifecycle.state != "active":
        merged.lifecycle = Lifecycle(loser.lifecycle.state, loser.lifecycle.at, loser.lifecycle.reason)
        notes.append(f"{loser.lifecycle.state} kept from the other copy (a merge never revives a record)")
    # Links: a union, superseded_by one id.
    have = {(e.type, e.target) for e in merged.edges}
    mine = _successor(merged)
    for edge in loser.edges:
        if (edge.type, edge.target) in have:
            continue
        if edge.type == "superseded_by" and mine is not None:
            _keep_successor(merged, edge.target)
            notes.append(f"superseded_by {edge.target} of the other copy kept in ext.{KEPT_SUCCESSORS}")
            continue
        merged.edges.append(Edge(edge.type, edge.target, edge.note, edge.direction))
        have.add((edge.type, edge.target))
        if edge.type == "superseded_by":
            mine = edge.target
    # ext: key by key.
    if loser.ext:
        ext = dict(merged.ext or {})
        for key, value in loser.ext.items():
            if key not in ext:
                ext[key] = value
            elif canonical(ext[key]) != canonical(value):
                if tied and canonical(value) > canonical(ext[key]):
                    ext[key], value = value, ext[key]
                notes.append(f"ext.{key}: kept {_short(ext[key])}, not {_short(value)}")
        if ext != (merged.ext or {}):
            merged.ext = ext
        elif merged.ext is None:
            merged.ext = None
    return merged, notes


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _keep_successor(record: Record, target: str) -> None:
    ext = dict(record.ext or {})
    kept = list(ext.get(KEPT_SUCCESSORS) or []) if isinstance(ext.get(KEPT_SUCCESSORS), list) else []
    if target not in kept:
        kept.append(target)
        kept.sort()
    ext[KEPT_SUCCESSORS] = kept
    record.ext = ext


def _conflict_copy(record: Record, raw: bytes) -> Record:
    copy = clone(record)
    copy.link = derive(record.created, f"{record.link} conflict copy {short_digest(raw, 16)}")
    chain = {t: [e.target for e in record.edges if e.type == t] for t in CHAIN}
    copy.edges = [e for e in copy.edges if e.type not in CHAIN]
    if not any(e.type == "conflicts_with" and e.target == record.link for e in copy.edges):
        copy.edges.append(Edge("conflicts_with", record.link))
    ext = dict(copy.ext or {})
    ext["conflict_copy_of"] = {"id": record.link, **{t: v for t, v in chain.items() if v}}
    copy.ext = ext
    if isinstance(record.title, str):
        copy.title = f"{record.title} (conflict copy)"
    return copy


def _chains(records: dict[str, Record], notes: list[str], held: dict[str, set[tuple[str, str]]]) -> None:
    """Make ``supersedes``/``superseded_by`` agree across the store and cut cycles (records edited as clones).

    ``held``: per id, the links ``(type, target)`` a copy read of that record has. A link given back that a copy
    held is not said: nothing changed there (an import takes IN's copy whole, and the chain gives it back the link
    EXISTING's copy held)."""
    edited: set[str] = set()  # the records already cloned here (a Record has no room for a mark of its own)

    def edit(ident: str) -> Record:
        record = records[ident]
        if ident not in edited:
            record = clone(record, keep_source=True)
            edited.add(ident)
            records[ident] = record
        return record

    # Cycles of superseded_by: cut at the newest record of the cycle.
    for start in sorted(records):
        path, seen = [], set()
        ident = start
        while ident in records and ident not in seen:
            seen.add(ident)
            path.append(ident)
            ident = _successor(records[ident])
        if ident is not None and ident in seen:
            cycle = path[path.index(ident):]
            head = max(cycle, key=lambda i: (recency(RULES, records[i])[0], i))
            record = edit(head)
            target = _successor(record)
            record.edges = [e for e in record.edges if e.type != "superseded_by"]
            _keep_successor(record, target)
            notes.append(f"{head}: superseded_by {target} closed a cycle; cut, kept in ext.{KEPT_SUCCESSORS}")
    for ident in sorted(records):
        successor = _successor(records[ident])
        if successor in records and successor != ident:
            if not any(e.type == "supersedes" and e.target == ident for e in records[successor].edges):
                edit(successor).edges.append(Edge("supersedes", ident))
                if ("supersedes", ident) not in held.get(successor, ()):
                    notes.append(f"{successor}: supersedes {ident} added (it names {successor} as its successor)")
    for ident in sorted(records):
        for edge in list(records[ident].edges):
            if edge.type != "supersedes" or edge.target not in records or edge.target == ident:
                continue
            old = records[edge.target]
            if _successor(old) is None and ident not in (old.ext or {}).get(KEPT_SUCCESSORS, ()):
                # X superseded by Y unless that would close a cycle.
                walk, ok = ident, True
                while walk is not None and walk in records:
                    if walk == edge.target:
                        ok = False
                        break
                    walk = _successor(records[walk])
                if ok:
                    record = edit(edge.target)
                    record.edges.append(Edge("superseded_by", ident))
                    if record.lifecycle.state == "active":
                        record.lifecycle = Lifecycle("superseded", None, records[ident].lifecycle.reason)
                    if ("superseded_by", ident) not in held.get(edge.target, ()):
                        notes.append(f"{edge.target}: superseded by {ident} ({ident} supersedes it)")


RULES = Rules(
    dialect="memspec",
    identity=lambda r: r.link,
    raw=lambda r: r.source.raw if unedited(r) else b"",
    dates=_dates,
    substance=_substance,
    combine=_combine,
    conflict_copy=_conflict_copy,
    where=lambda r: r.source.path if r.source is not None else r.link,
    size=_size,
)


def merge(a: Store, b: Store, hints: Hints | None = None) -> MergeResult:
    """Two memspec stores → the merged store's files and the outcome of every record."""
    from ..dialects import memspec as dialect
    from . import MergeRefused

    if dialect.kept_root(a) != dialect.kept_root(b):
        raise MergeRefused("one memspec store was given as its project folder, the other as the .memspec folder "
                           "itself", hint="give both stores the same way (both project folders, or both .memspec "
                                          "folders)")

    ctx = memspec_records.WriteContext(ids={}, prefix=dialect.kept_root(a), operators=())

    def raw(record: Record) -> bytes:
        if unedited(record):
            return record.source.raw
        return memspec_records.write_record(record, ctx)[1]

    rules = Rules(**{**RULES.__dict__, "raw": raw})
    if hints is not None:
        rules = hints.apply(rules)
    merged = merge_records(a.records, b.records, rules)
    records = {r.link: r for r in merged.records}
    notes: list[str] = []
    held: dict[str, set[tuple[str, str]]] = {}
    for r in (*a.records, *b.records):
        held.setdefault(r.link, set()).update((e.type, e.target) for e in r.edges)
    _chains(records, notes, held)
    warnings: list[str] = []
    meta = {"prefix": dialect.kept_root(a)}
    operators = sorted(set(a.meta.get("operators", ())) | set(b.meta.get("operators", ())))
    if operators:
        meta["operators"] = operators
    kept = sorted(set(a.meta.get("kept", ())) | set(b.meta.get("kept", ())))  # keep files beside records
    if kept:
        meta["kept"] = kept
    out = Store(dialect="memspec", records=[records[k] for k in sorted(records)], meta=meta)
    files = dialect.write(out)
    by_name = {path.rsplit("/", 1)[-1]: path for path in files}
    for outcome in merged.outcomes:  # a conflict copy reported by its path, not only its id
        if outcome.conflict_copy and f"{outcome.conflict_copy}.md" in by_name:
            outcome.conflict_copy = by_name[f"{outcome.conflict_copy}.md"]
        # A record is filed by its state: one the merge (or a chain) made superseded or retired is written to
        # archive/, not where the winning copy was read; the report names the file OUT holds.
        if outcome.where not in files and f"{outcome.identity}.md" in by_name:
            outcome.where = by_name[f"{outcome.identity}.md"]
    tree = Tree(dialect.KEPT_SUFFIX)  # (a kept .md file is written .md.kept: finish)
    for path in sorted(files):
        tree.files[path] = files[path]
    outcomes: list[Outcome] = list(merged.outcomes)
    if notes:
        outcomes.append(Outcome("chain", "supersession links", "supersession", "updated", "both",
                                "; ".join(notes)))
    return finish("memspec", a, b, tree, outcomes, warnings, hints=hints)


__all__ = ["RULES", "merge"]
