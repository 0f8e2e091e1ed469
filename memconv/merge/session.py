"""memoir spec §5 for ``session.json``, on the parsed document.

The document stays plain JSON data throughout, so keys nobody specified pass
through at every level. The rules, each in one function below:

* every session list is a union by identity (§5.1), newest copy by the list's
  date field winning wholesale (§5.2) — :func:`_pick`;
* ``hidden`` is sticky whatever the dates, a purged tombstone wins over every
  un-purged copy (§5.3.1) — :func:`_pick`;
* ``completed_actions`` / ``completed_goals`` suppress copies added (set) no
  later than their ``done_at``, so a later re-add survives (§5.3.2) —
  :func:`_suppress`;
* live and parked next actions are pooled, then re-split: the newest
  :data:`LIVE_NEXT_ACTIONS` by ``added`` are live, the rest parked (§5.2 rule 1) —
  :func:`_split_next_actions`;
* ``machines`` per UUID by ``last_seen``, ``history`` unioned by session, and
  ``created_at`` / ``updated_at`` earliest / latest;
* anything else (unknown keys, or known keys of the wrong shape) passes
  through; when both sides hold different values, one is kept and the other
  is a conflict (:func:`_unknown`).

Nothing is ever cut to a cap: the spec's caps are memoir-cli's rendering
budget, and a merge that cut would lose memory (docs/merge.md). The only
rotation is the one the spec asks for, live next actions into
``parked_actions``.

Merging is commutative: no rule looks at which store was named first. Where
dates tie and copies differ, the copy with the greater canonical JSON is kept
and the other is returned as a conflict, for the caller to keep beside.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..text import short_digest
from .identity import canonical, instant, parses, is_hidden, is_purged, item_key, spelled
from .report import Outcome

#: memoir-cli's cap on live next actions (spec §4.1 "Bounded lists"): the rest are parked.
LIVE_NEXT_ACTIONS = 8

#: memoir-cli's caps (spec §4.1). A merge never cuts to them; it only warns when a list is longer.
REFERENCE_CAPS = {"goals": 3, "parked_actions": 20, "open_questions": 5, "decisions": 10,
                  "completed_actions": 50, "completed_goals": 50, "history": 30}

#: The session lists and their date field (spec §4.1).
DATE_FIELDS = {"goals": "set_on", "next_actions": "added", "parked_actions": "added",
               "open_questions": "asked", "decisions": "date", "completed_actions": "done_at",
               "completed_goals": "done_at"}

#: Tombstone list → the list whose items it suppresses (spec §5.3.2).
TOMBSTONES = {"completed_actions": "next_actions", "completed_goals": "goals"}

#: Key order of a merged document when the two inputs disagree (memoir-cli's own order first).
TOP_ORDER = ("version", "created_at", "updated_at", "machines", "current", "history")
CURRENT_ORDER = ("goals", "next_actions", "parked_actions", "open_questions", "decisions",
                 "completed_actions", "completed_goals")
_OPTIONAL_LISTS = ("parked_actions", "completed_actions", "completed_goals")

#: Keys that place or tombstone an item rather than say what it is: copies that differ only
#: in these are the same record (stickiness and the re-split settle them).
_PLACEMENT_KEYS = ("hidden", "hidden_at", "parked_at")

#: Where conflict copies of session items are written, beside session.json.
CONFLICT_PREFIX = "session.conflict-"


@dataclass
class Copy:
    side: str  #: ``A`` or ``B``
    place: str  #: the list it was in
    item: Any


@dataclass
class Conflict:
    """A copy that lost a tie: kept beside session.json, never dropped."""

    where: str
    value: Any

    def file(self) -> tuple[str, bytes]:
        payload = {"memconv": "conflict copy", "of": "session.json", "where": self.where, "value": self.value}
        text = json.dumps(payload, ensure_ascii=True, indent=2) + "\n"
        return f"{CONFLICT_PREFIX}{short_digest(canonical(payload), 8)}.json", text.encode("ascii")


@dataclass
class Merged:
    """One identity of one list, merged."""

    key: str
    copies: list[Copy]
    result: Any
    winner: Copy
    why: str
    conflicts: list[Any] = field(default_factory=list)
    #: The list the result lands in; None when a tombstone suppressed it.
    place: str | None = None


@dataclass
class SessionMerge:
    document: dict[str, Any]
    outcomes: list[Outcome] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# ── choosing among copies ──────────────────────────────────────────


def _substance(item: Any) -> str:
    if isinstance(item, dict):
        item = {k: v for k, v in item.items() if k not in _PLACEMENT_KEYS}
    return canonical(item)


def _date(item: Any, date_field: str) -> Any:
    return item.get(date_field) if isinstance(item, dict) else None


def _rank(copy: Copy, date_field: str) -> tuple[int, str, str, str]:
    """Newest first; among equal dates, by content, then by placement (so a tombstone a copy
    inherited never changes which copy wins the next merge)."""
    return instant(_date(copy.item, date_field)), _substance(copy.item), canonical(copy.item), spelled(copy.item)


def _pick(key: str, copies: list[Copy], date_field: str) -> Merged:
    """The merged copy of one identity: purged wins, else newest, hidden sticky, ties are conflicts."""
    purged = [c for c in copies if is_purged(c.item)]
    pool = purged or copies
    winner = max(pool, key=lambda c: _rank(c, date_field))
    when = instant(_date(winner.item, date_field))
    shown = _date(winner.item, date_field)
    tied = {}
    for c in sorted(pool, key=lambda c: _rank(c, date_field), reverse=True):
        if instant(_date(c.item, date_field)) == when and _substance(c.item) != _substance(winner.item):
            tied.setdefault(_substance(c.item), c)
    notes = []
    if purged and any(not is_purged(c.item) for c in copies):
        notes.append("purged tombstone wins over every copy, whatever the dates")
    if tied:
        notes.append(f"same {date_field} ({shown if shown is not None else 'none'}), different content: "
                     "kept the canonical choice")
    elif not purged and any(instant(_date(c.item, date_field)) != when for c in copies):
        notes.append(f"newer {date_field} ({shown})")
    result = winner.item
    stones = [c for c in copies if is_hidden(c.item)]
    if stones and not is_hidden(result):
        stone = max(stones, key=lambda c: _rank(c, date_field))
        result = _hide_like(result, stone.item)
        notes.append(f"hidden inherited from {stone.side} (hidden is sticky)")
    why = "; ".join(notes)
    conflicts = [c.item if not is_hidden(result) else _hide_like(c.item, result)
                 for _, c in sorted(tied.items())]
    return Merged(key, copies, result, winner, why, conflicts)


def _hide_like(item: Any, stone: dict) -> Any:
    if not isinstance(item, dict) or is_hidden(item):
        return item
    hidden = dict(item)
    hidden["hidden"] = True
    if "hidden_at" in stone:
        hidden["hidden_at"] = stone["hidden_at"]
    return hidden


def _union(lists: list[tuple[str, str, list]], date_field: str) -> list[Merged]:
    """Every identity in the given (side, place, list) triples, merged (callers sort the result)."""
    groups: dict[str, list[Copy]] = {}
    for side, place, items in lists:
        for item in items:
            groups.setdefault(item_key(item), []).append(Copy(side, place, item))
    return [_pick(key, copies, date_field) for key, copies in groups.items()]


def _newest_first(merged: list[Merged], date_field: str) -> list[Merged]:
    return sorted(merged, key=lambda m: (-instant(_date(m.result, date_field)), _substance(m.result),
                                         spelled(m.result)))


# ── the rules, list by list ────────────────────────────────────────


def _suppress(merged: list[Merged], tombstones: list[Merged], date_field: str, tombstone_list: str) -> None:
    """§5.3.2: a copy added no later than its tombstone's ``done_at`` is done; a later re-add lives."""
    done = {m.key: m.result for m in tombstones if isinstance(m.result, dict)}
    for m in merged:
        stone = done.get(m.key)
        if stone is None:
            continue
        if instant(_date(m.result, date_field)) <= instant(stone.get("done_at")):
            m.place = None
            m.why = _also(m.why, f"done: {tombstone_list} has it done_at {stone.get('done_at')}, "
                                 f"not before its {date_field}")
            m.conflicts = []
        else:
            m.why = _also(m.why, f"re-added after its done_at ({stone.get('done_at')}): stays open")


def _split_next_actions(pool: list[Merged], parked_at: Any) -> tuple[list[Any], list[Any]]:
    """Pooled live and parked next actions → (live, parked): the newest N live, the rest parked."""
    alive = _newest_first([m for m in pool if m.place is not None], "added")
    live, parked = [], []
    for index, m in enumerate(alive):
        item = m.result
        if index < LIVE_NEXT_ACTIONS:
            m.place = "next_actions"
            if isinstance(item, dict) and "parked_at" in item:
                item = {k: v for k, v in item.items() if k != "parked_at"}
            live.append(item)
        else:
            m.place = "parked_actions"
            if any(c.place == "next_actions" for c in m.copies):
                m.why = _also(m.why, f"parked: the {LIVE_NEXT_ACTIONS} newest next actions stay live")
            if isinstance(item, dict) and "parked_at" not in item:
                known = sorted((c.item["parked_at"] for c in m.copies
                                if isinstance(c.item, dict) and "parked_at" in c.item),
                               key=lambda v: (instant(v), canonical(v)))
                stamp = known[0] if known else parked_at
                if stamp is not None:
                    item = dict(item)
                    item["parked_at"] = stamp
            parked.append(item)
        m.result = item
    return live, parked


def _key_order(a: dict | None, b: dict | None, known: tuple[str, ...]) -> list[str]:
    """The two sides' key order when they agree; else known keys first, then the rest sorted."""
    if a is None or b is None:
        return list(a if b is None else b)
    ka, kb = list(a), list(b)
    if ka == kb:
        return ka
    keys = set(ka) | set(kb)
    return [k for k in known if k in keys] + sorted(k for k in keys if k not in known)


class _Merger:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.conflicts: list[Conflict] = []
        self.warnings: list[str] = []

    # Unknown keys and wrong shapes: pass through; differing values are a conflict.
    def unknown(self, where: str, a: Any, b: Any, present_a: bool, present_b: bool) -> Any:
        if not present_b:
            self._outcome(where, "added", "A")
            return a
        if not present_a:
            self._outcome(where, "added", "B")
            return b
        if canonical(a) == canonical(b):
            self._outcome(where, "unchanged", None)
            return max(a, b, key=spelled)
        keep, other = (a, b) if canonical(a) > canonical(b) else (b, a)
        conflict = Conflict(where, other)
        path, _ = conflict.file()
        self.conflicts.append(conflict)
        self.outcomes.append(Outcome("session", f"session.json {where}", where, "conflict",
                                     "A" if keep is a else "B",
                                     "both stores hold a different value and nothing orders them: "
                                     "kept the canonical choice", path))
        return keep

    def _outcome(self, where: str, status: str, won: str | None, why: str | None = None) -> None:
        self.outcomes.append(Outcome("session", f"session.json {where}", where, status, won, why))

    def report(self, where: str, merged: list[Merged]) -> None:
        """One outcome per identity, by comparing where it landed with what each side had."""
        for m in merged:
            sides = sorted({c.side for c in m.copies})
            landed = (m.place, canonical(m.result))
            if where == "current":
                place = f"current.{m.place}" if m.place else f"current.{m.copies[0].place} (done)"
            else:
                place = where
            paths = []
            for loser in m.conflicts:
                conflict = Conflict(f"machines.{m.key}" if where == "machines" else place, loser)
                self.conflicts.append(conflict)
                paths.append(conflict.file()[0])
            # A side holds what landed when its copies are that one, in that list; done, when it holds none live.
            kept = {landed} if m.place is not None else set()
            held = tuple(s for s in ("A", "B")
                         if {(c.place, canonical(c.item)) for c in m.copies if c.side == s} == kept)
            if m.place is None:
                status, won = "updated", "tombstone"
            elif len(sides) == 1:
                status, won = "added", sides[0]
            elif all(s in held for s in sides):
                status, won = "unchanged", None
            elif m.conflicts:
                status, won = "conflict", m.winner.side
            else:
                status, won = "updated", m.winner.side
            why = m.why if status != "unchanged" and m.why else None
            name = m.key if where == "machines" else label(m.result)
            self.outcomes.append(Outcome("session", f"session.json {place}", m.key, status, won, why,
                                         ", ".join(paths) or None, name, held_by=held))

    # The document.
    def document(self, a: dict, b: dict) -> dict:
        merged: dict[str, Any] = {}
        for key in _key_order(a, b, TOP_ORDER):
            va, vb, ina, inb = a.get(key), b.get(key), key in a, key in b
            if key == "version" and _int(va) and _int(vb):
                merged[key] = max(va, vb)
            elif key in ("created_at", "updated_at") and ina and inb and isinstance(va, str) \
                    and isinstance(vb, str):
                merged[key] = _later(va, vb) if key == "updated_at" else _earlier(va, vb)
            elif key == "machines" and _dict_or_absent(va, ina) and _dict_or_absent(vb, inb):
                merged[key] = self.machines(va or {}, vb or {})
            elif key == "history" and _list_or_absent(va, ina) and _list_or_absent(vb, inb):
                rows = self._history(va or [], vb or [])
                merged[key] = [m.result for m in rows]
                self.report("history", rows)
            elif key == "current" and _dict_or_absent(va, ina) and _dict_or_absent(vb, inb):
                merged[key] = self.current(va, vb, a, b)
            else:
                merged[key] = self.unknown(key, va, vb, ina, inb)
        return merged

    def machines(self, a: dict, b: dict) -> dict:
        out = {}
        for uuid in _key_order(a, b, ()):
            copies = [Copy(s, "machines", side[uuid]) for s, side in (("A", a), ("B", b)) if uuid in side]
            m = _pick(uuid, copies, "last_seen")
            m.place = "machines"
            out[uuid] = m.result
            self.report("machines", [m])
        return out

    def _history(self, a: list, b: list) -> list[Merged]:
        groups: dict[str, list[Copy]] = {}
        for side, rows in (("A", a), ("B", b)):
            for row in rows:
                groups.setdefault(_history_key(row), []).append(Copy(side, "history", row))
        rows = [_pick(key, copies, "date") for key, copies in groups.items()]
        for m in rows:
            m.place = "history"
        return _newest_first(rows, "date")

    def current(self, a: dict | None, b: dict | None, doc_a: dict, doc_b: dict) -> dict:
        a, b = a or {}, b or {}
        lists = {}
        malformed = set()
        for name in DATE_FIELDS:
            if any(name in side and not isinstance(side[name], list) for side in (a, b)):
                malformed.add(name)
        if malformed & {"next_actions", "parked_actions"}:
            malformed |= {"next_actions", "parked_actions"}
        for name, target in TOMBSTONES.items():
            if target in malformed:
                malformed.add(name)
        for name, date_field in DATE_FIELDS.items():
            if name in malformed or name == "parked_actions":
                continue
            triples = [("A", name, a.get(name) or []), ("B", name, b.get(name) or [])]
            if name == "next_actions":
                triples += [("A", "parked_actions", a.get("parked_actions") or []),
                            ("B", "parked_actions", b.get("parked_actions") or [])]
            lists[name] = _union(triples, date_field)
            for m in lists[name]:
                m.place = name
        for stones, target in TOMBSTONES.items():
            if stones in lists and target in lists:
                _suppress(lists[target], lists[stones], DATE_FIELDS[target], stones)
        updated = _later(doc_a.get("updated_at"), doc_b.get("updated_at"))
        values: dict[str, Any] = {}
        if "next_actions" in lists:
            live, parked = _split_next_actions(lists["next_actions"], updated)
            values["next_actions"], values["parked_actions"] = live, parked
        for name in ("goals", "open_questions", "completed_actions", "completed_goals"):
            if name in lists:
                alive = _newest_first([m for m in lists[name] if m.place is not None], DATE_FIELDS[name])
                values[name] = [m.result for m in alive]
        if "decisions" in lists:
            ordered = _newest_first(lists["decisions"], "date")
            values["decisions"] = [m.result for m in ordered if not is_hidden(m.result)] + \
                                  [m.result for m in ordered if is_hidden(m.result)]
        keys = list(dict.fromkeys([*a, *b]))
        if values.get("parked_actions") and "parked_actions" not in keys:
            keys.append("parked_actions")
        out: dict[str, Any] = {}
        for key in _ordered(keys, a, b, doc_a.get("current"), doc_b.get("current")):
            if key in values:
                out[key] = values[key]
            else:
                out[key] = self.unknown(f"current.{key}", a.get(key), b.get(key), key in a, key in b)
        for name in lists:
            self.report("current", lists[name])
        for name, cap in REFERENCE_CAPS.items():
            if isinstance(out.get(name), list) and len(out[name]) > cap:
                # The file's name first, alone, as every warning of a file (report.split_name): its notice's path.
                self.warnings.append(f"session.json: current.{name} holds {len(out[name])} items, more than "
                                     f"memoir-cli keeps ({cap}); all kept, memoir-cli may rotate them on its next "
                                     "write")
        return out


def _ordered(keys: list[str], a: dict, b: dict, raw_a: Any, raw_b: Any) -> list[str]:
    """The inputs' key order when they agree (or only one side has ``current``); else CURRENT_ORDER."""
    sides = [side for side, raw in ((a, raw_a), (b, raw_b)) if isinstance(raw, dict)]
    if sides and all(list(side) == list(sides[0]) for side in sides) and set(keys) == set(sides[0]):
        return list(sides[0])
    seen = set(keys)
    return [k for k in CURRENT_ORDER if k in seen] + sorted(k for k in seen if k not in CURRENT_ORDER)


def _history_key(row: Any) -> str:
    """v0.1.2: one row per ``session_id`` when present, else per (date, machine_id, summary)."""
    if isinstance(row, dict):
        if isinstance(row.get("session_id"), str):
            return "session:" + row["session_id"]
        if "date" in row:
            return "row:" + canonical([row.get("date"), row.get("machine_id"), row.get("summary")])
    return "raw:" + canonical(row)


def _later(a: Any, b: Any) -> Any:
    """The later of two date strings; a date that does not parse never wins over one that does."""
    dates = [v for v in (a, b) if isinstance(v, str)]
    return max(dates, key=lambda v: (parses(v), instant(v), v)) if dates else None


def _earlier(a: str, b: str) -> str:
    """The earlier of two date strings; a date that does not parse never wins over one that does."""
    return min((a, b), key=lambda v: (not parses(v), instant(v), v))


def _also(why: str, note: str) -> str:
    return f"{why}; {note}" if why else note


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _dict_or_absent(value: Any, present: bool) -> bool:
    return not present or isinstance(value, dict)


def _list_or_absent(value: Any, present: bool) -> bool:
    return not present or isinstance(value, list)


def label(item: Any) -> str | None:
    if isinstance(item, dict):
        text = item.get("text") if isinstance(item.get("text"), str) else item.get("summary")
        if isinstance(text, str):
            line = text.strip().split("\n", 1)[0]
            return line if len(line) <= 60 else line[:57] + "..."
    return None


def content(document: Any) -> str:
    """What a session document says, the order of its session lists and history set aside: the items of each list,
    each list as it stands (a live action is not a parked one). The merge lists them newest first, memoir-cli's
    ``addNext`` appends, so a merged document equal to one side's in every item keeps that side's bytes and order
    (an unknown key's list keeps its order: nobody knows what it means)."""
    if not isinstance(document, dict):
        return canonical(document)
    flat = dict(document)
    if isinstance(flat.get("history"), list):
        flat["history"] = sorted(canonical(row) for row in flat["history"])
    current = flat.get("current")
    if isinstance(current, dict):
        flat["current"] = {k: sorted(canonical(i) for i in v) if k in DATE_FIELDS and isinstance(v, list) else v
                           for k, v in current.items()}
    return canonical(flat)


def merge_documents(a: dict, b: dict) -> SessionMerge:
    """Two parsed session.json documents → the merged document, one outcome per item, and the conflicts."""
    merger = _Merger()
    document = merger.document(a, b)
    return SessionMerge(document, merger.outcomes, merger.conflicts, merger.warnings)
