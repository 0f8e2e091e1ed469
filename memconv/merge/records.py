"""The part every record-per-file dialect shares: union by identity, newest wins, conflicts kept.

claude, memspec and memfmt each give a :class:`Rules`: what identifies a
record, which dates order two copies, what of a record is *merged* rather
than chosen (memspec's state and ``ext``, memfmt's facts and counters) and how
a losing copy becomes a conflict copy the target's tool accepts. This module
applies them the same way for all three, so that:

* every identity of A ∪ B is in the result (no silent loss);
* the result depends on the two copies only, never on which store was named
  first (commutative, byte for byte): the winner is the newer, and on a tie
  the one whose substance, then bytes, sort last;
* a record whose merged meaning equals one input's keeps that input's bytes,
  so merging a result again with either side changes nothing;
* two copies that differ in what is *chosen* with nothing to order them are a
  conflict: the winner stays, the other is kept as a new record beside it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Callable, Hashable

from ..model import Record, fingerprint
from .identity import instant
from .report import Outcome

#: What an outcome's reason says where two copies tied on their dates say the same (an import reads it: into.plan).
SAME_CONTENT = ", same content"


@dataclass
class Rules:
    dialect: str
    #: The record's identity in its store (link name, id, canonical name).
    identity: Callable[[Record], str]
    #: The bytes a copy was read from (or would be written as): identical bytes are unchanged.
    raw: Callable[[Record], bytes]
    #: ``(field name, value)`` pairs that order copies, newest wins (missing or unreadable = epoch).
    dates: Callable[[Record], list[tuple[str, object]]]
    #: What of a copy is chosen wholesale: two copies that differ here, with tied dates, are a conflict.
    substance: Callable[[Record], str]
    #: ``(winner, loser, tied) -> (merged record, notes)``: the parts that merge rather than get chosen.
    #: Must be idempotent (``combine(m, x) == m`` for ``m = combine(w, x)``) and give back ``winner``
    #: itself when there is nothing to merge.
    combine: Callable[[Record, Record, bool], tuple[Record, list[str]]]
    #: ``(loser, its bytes) -> the record kept beside the winner``, with a new identity that depends on its content only.
    conflict_copy: Callable[[Record, bytes], Record]
    #: Outcome kind in the report.
    kind: str = "record"
    #: Where a record lives, for the report.
    where: Callable[[Record], str] = lambda r: r.link
    #: How much a copy holds of what merges (more wins a tie, so a merged result outranks its inputs).
    size: Callable[[Record], int] = lambda r: 0
    #: Why this copy wins over the other whatever the dates (an import's three-way base), or None.
    prefer: Callable[[Record], str | None] = lambda r: None


@dataclass
class Hints:
    """What an import knows of records beyond their own dialect, from their memconv carries (:mod:`.into`).

    ``same``: id(record) → the identity it shares with a record of the other
    store although its own differs. ``dates``: id(record) → more ``(field,
    value)`` pairs that order it: its origin's dates, as its carry holds them
    (a memoir ``updated`` has no field in a memfmt entity). Both depend on the
    record only, so a merge with hints stays commutative.
    """

    same: dict[int, str] = field(default_factory=dict)
    dates: dict[int, list[tuple[str, object]]] = field(default_factory=dict)
    #: id(record) → why this copy wins whatever the dates: it changed since the last import and the
    #: other did not (the import's record of what it brought, :mod:`.into`).
    prefer: dict[int, str] = field(default_factory=dict)
    #: path → ``(bytes, why)``: at a path no record owns (a kept note), the copy holding these bytes wins whatever
    #: else, for the same reason as :attr:`prefer`. Keyed by content, so the merge stays commutative.
    files: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    def apply(self, rules: Rules) -> Rules:
        base_identity, base_dates = rules.identity, rules.dates
        same, dates, prefer = self.same, self.dates, self.prefer
        return Rules(**{**rules.__dict__,
                        "identity": (lambda r: same.get(id(r)) or base_identity(r)) if same else base_identity,
                        "dates": (lambda r: base_dates(r) + dates.get(id(r), [])) if dates else base_dates,
                        "prefer": lambda r: prefer.get(id(r))})


def recency(rules: Rules, record: Record) -> tuple[int, str | None, object]:
    """The newest of the record's dates: ``(instant, field, value)``."""
    best: tuple[int, str | None, object] = (0, None, None)
    for name, value in rules.dates(record):
        moment = instant(value)
        if value is not None and (best[1] is None or moment > best[0]):
            best = (moment, name, value)
    return best


@dataclass
class Merged:
    records: list[Record]
    outcomes: list[Outcome]
    #: identity → the copy kept beside it (conflicts of this merge), for indexes that must link them.
    copies: dict[str, Record]


def merge_records(a: list[Record], b: list[Record], rules: Rules) -> Merged:
    """Two lists of records of one dialect → the merged records (sorted by identity) and their outcomes."""
    by_id: dict[str, dict[str, Record]] = {}
    for side, records in (("A", a), ("B", b)):
        for record in records:
            ident = rules.identity(record)
            n = 1
            while side in by_id.get(ident if n == 1 else f"{ident} #{n}", {}):
                n += 1  # two records of one store with one identity: both kept, told apart by order
            by_id.setdefault(ident if n == 1 else f"{ident} #{n}", {})[side] = record
    out: dict[str, Record] = {}
    outcomes: list[Outcome] = []
    copies: dict[str, Record] = {}
    for ident in sorted(by_id):
        found = by_id[ident]
        if len(found) == 1:
            (side, record), = found.items()
            out[ident] = record
            outcomes.append(Outcome(rules.kind, rules.where(record), ident, "added", side))
            continue
        ra, rb = found["A"], found["B"]
        raw_a, raw_b = rules.raw(ra), rules.raw(rb)
        if raw_a == raw_b:
            out[ident] = ra
            outcomes.append(Outcome(rules.kind, rules.where(ra), ident, "unchanged"))
            continue
        ta, tb = recency(rules, ra), recency(rules, rb)
        pa, pb = rules.prefer(ra), rules.prefer(rb)

        def rank(t):
            side, record, raw, when = t
            return (rules.prefer(record) is not None, when[0], rules.substance(record), rules.size(record), raw)

        (won, winner, raw_w, tw), (lost, loser, raw_l, tl) = sorted(
            (("A", ra, raw_a, ta), ("B", rb, raw_b, tb)), key=rank, reverse=True)
        preferred = (pa is None) != (pb is None)
        tied = ta[0] == tb[0] and not preferred
        conflict = tied and rules.substance(ra) != rules.substance(rb)
        # A copy preferred by an import's base changed since, the other did not: it is taken whole.
        merged, notes = (winner, []) if preferred else rules.combine(winner, loser, tied)
        # A merged meaning that equals one copy's keeps that copy's bytes.
        fp = fingerprint(merged)
        for record in (winner, loser):
            if fingerprint(record) == fp:
                merged = record
                break
        if preferred:
            why = rules.prefer(winner)
        elif not tied:
            why = f"newer {tw[1]} ({tw[2]})"
        elif tw[1] is not None:
            why = f"same {tw[1]} ({tw[2]})"
        else:
            why = "no date on either side"
        if not conflict:
            if tied:
                why += SAME_CONTENT + (": merged" if notes else ": kept the canonical choice")
            why = "; ".join([why, *notes])
            out[ident] = merged
            outcomes.append(Outcome(rules.kind, rules.where(merged), ident, "updated", won, why))
            continue
        out[ident] = merged
        copy = rules.conflict_copy(loser, raw_l)
        cid = rules.identity(copy)
        already = cid in by_id
        if not already:
            out[cid] = copy
            copies[ident] = copy
        why = "; ".join([why + ", different content: kept the canonical choice", *notes])
        outcomes.append(Outcome(rules.kind, rules.where(merged), ident, "conflict", won, why,
                                rules.where(copy), already_kept=already))
    return Merged([out[k] for k in sorted(out)], outcomes, copies)


def merge_sequences(a: list[Hashable], b: list[Hashable], key: Callable[[Hashable], str] = str) -> list[Hashable]:
    """One order holding every element of ``a`` and ``b``, keeping the order each gives where they agree.

    Kahn's algorithm on the "comes right after" pairs of both lists; when several
    elements may come next (or the two orders disagree), the one whose ``key`` sorts
    first. The result depends on the two lists only, not on which is ``a``: and when
    one list already holds the other in its order, it is that list.
    """
    nodes = list(dict.fromkeys([*a, *b]))
    after: dict[Hashable, set] = {n: set() for n in nodes}
    before: dict[Hashable, int] = {n: 0 for n in nodes}
    for seq in (a, b):
        for x, y in zip(seq, seq[1:]):
            if y not in after[x] and x != y:
                after[x].add(y)
                before[y] += 1
    ready = [(key(n), i, n) for i, n in enumerate(sorted(nodes, key=key)) if before[n] == 0]
    order = {n: i for i, n in enumerate(sorted(nodes, key=key))}
    heapq.heapify(ready)
    done: list[Hashable] = []
    placed: set = set()
    while len(done) < len(nodes):
        if not ready:  # the two orders disagree: take the first remaining by key
            n = min((n for n in nodes if n not in placed), key=key)
            before[n] = 0
            ready.append((key(n), order[n], n))
        _, _, n = heapq.heappop(ready)
        if n in placed:
            continue
        placed.add(n)
        done.append(n)
        for m in sorted(after[n], key=key):
            if m in placed:
                continue
            before[m] -= 1
            if before[m] == 0:
                heapq.heappush(ready, (key(m), order[m], m))
    return done


def union(a: list | None, b: list | None, key: Callable = lambda x: x) -> list | None:
    """``a`` then ``b``'s items ``a`` does not have (by ``key``); None only when both are."""
    if a is None and b is None:
        return None
    seen = {key(x) for x in a or ()}
    out = list(a or ())
    for x in b or ():
        if key(x) not in seen:
            seen.add(key(x))
            out.append(x)
    return out


__all__ = ["Hints", "Merged", "Rules", "merge_records", "merge_sequences", "recency", "union"]
