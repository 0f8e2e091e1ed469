"""Merging two memoir stores: entry files, session.json, and every other file.

* Entry files are one record each, identified by link name (spec §5.1). Same
  link on both sides: identical bytes are unchanged; otherwise the newer by
  ``updated`` (falling back to ``created``) wins (§5.2). A completion
  (``done_at`` on a goal or next action) sticks to a winner added no later
  than it, and ``hidden`` on a decision sticks whatever the dates (§5.3).
  Two different copies with nothing to order them are a conflict: the
  canonical choice stays in place, the other is kept beside it as
  ``<link>.conflict-<hash>.md``, an entry memoir validates like any other.
* ``session.json`` merges by :mod:`.session`.
* Any other file (foreign, or quarantined by the reader) is unioned by path;
  the same path with different bytes keeps both, the other as a conflict copy,
  except a log the dialect's tools only append to (its ``APPEND_ONLY``): the
  copy holding every line of the other's wins, and lines added on both sides
  are kept, each once, in order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..dialects import fold
from ..dialects.memoir import entries as memoir_entries
from ..dialects.memoir import session as memoir_session
from ..fs import fitting, kept_name, kept_too_long, quarantine_path
from ..model import Lifecycle, Record, Source, Store, WorkingSet, clone, fingerprint
from ..text import short_digest
from .identity import canonical, instant, item_key
from .records import SAME_CONTENT, Hints
from .report import Outcome
from .session import content as session_content, label as _label, merge_documents


@dataclass
class MergeResult:
    """The merged store as files, and what became of every record."""

    dialect: str
    files: dict[str, bytes]
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Files either reader set aside: ``{"side", "path", "line", "reason", "kept_at"}``.
    quarantined: list[dict[str, Any]] = field(default_factory=list)

    @property
    def conflicts(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "conflict"]


class _Files(dict):
    """The output files, path → bytes, that also know which names a case-insensitive, normalising file system would
    take for one (:func:`memconv.dialects.fold`). Only a path that is not its own folded form is held a second time
    (``odd``): most names are their own (``user_role.md``), and a table of every name folded cost memory at 100,000
    files. A file set directly (an index page, a writer's files) is counted as one placed through :meth:`Tree.put`."""

    def __init__(self) -> None:
        super().__init__()
        self.odd: dict[str, str] = {}

    def __setitem__(self, path: str, data: bytes) -> None:
        super().__setitem__(path, data)
        folded = fold(path)
        if folded != path:
            self.odd.setdefault(folded, path)

    def update(self, *others: Any, **more: bytes) -> None:
        for path, data in dict(*others, **more).items():
            self[path] = data

    def holder(self, path: str) -> str | None:
        """The file placed whose name is ``path``'s but for case or Unicode normalisation (not ``path`` itself)."""
        folded = fold(path)
        other = folded if folded in self else self.odd.get(folded)
        return other if other is not None and other != path else None


#: Why a file is not at its own path, when another file was there with other bytes.
SAME_PATH = "same path held by another file: kept beside it"


class Tree:
    """The output files, with the one rule for two different things at one path: keep both. One path is also any
    name that folds to it (:func:`memconv.dialects.fold`): ``User_Role.md`` and ``user_role.md`` are one file on
    macOS and Windows, so the second placed is kept beside the first, as a conflict copy (docs/merge.md)."""

    def __init__(self, suffix: str = "") -> None:
        self.files: dict[str, bytes] = _Files()
        #: What the name of a ``.md`` file memconv keeps gains when written (the dialect's ``KEPT_SUFFIX``;
        #: :func:`memconv.fs.kept_name`): a conflict copy is cut to fit as written, ``.kept`` included.
        self.suffix = suffix
        #: ``(path wanted, where it went, the file whose name it folds to)``: for the report (:func:`finish`).
        self.folded: list[tuple[str, str, str]] = []

    def conflict_path(self, path: str, data: bytes) -> str:
        """``dir/name.conflict-<hash of data>.ext``: free (no name placed folds to it), or already holding ``data``.
        Its stem is cut so that the name as written (:func:`memconv.fs.kept_name`, ``.kept`` included) fits."""
        head, sep, name = path.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        if not dot or not stem:
            stem, ext = name, ""
        grows = self.suffix if kept_name(path, self.suffix) != path else ""  # (so does its copy: the same ext)
        length = 8
        while True:
            tail = f".conflict-{short_digest(data, length)}{'.' + ext if ext else ''}"
            copy = f"{head}{sep}{fitting(stem, tail + grows)}{tail}"  # a long name stays a name a disk takes
            if self.files.get(copy, data) == data and self.files.holder(copy) is None:
                return copy
            length += 4

    def put(self, path: str, data: bytes, holder: str | None = None) -> str | None:
        """Place ``data`` at ``path``; if something else is there, or at a name that folds to it, beside it.
        Returns where, if moved. Records, then other files, are placed in the order of their names, so of two
        names that fold alike the first keeps its place whichever store it came from, and a merge of the result
        with either store again places every file where it is. ``holder``: the store's own file whose name
        ``path`` is on macOS and Windows (a Claude index page: ``MEMORY-2.md`` for ``memory-2.md``), placed or
        not: ``data`` goes beside it, said as a name that folds to another's is."""
        holder = holder or self.files.holder(path)
        if holder is None and self.files.get(path, data) == data:
            self.files[path] = data
            return None
        copy = self.conflict_path(path, data)
        self.files[copy] = data
        if holder is not None:
            self.folded.append((path, copy, holder))
        return copy


def _placed(tree: Tree, kind: str, path: str, ident: str, side: str, moved: str | None, seen: set[str]) -> Outcome:
    """The outcome of a record or file only ``side`` has, placed at ``path`` or, moved, beside what holds it.

    Moved off its path because the other store has something else there (a memfmt entity where this store has a
    note of the person's), it is a conflict, as two copies at one path are: a file renamed, and a script must see
    it. Moved because its name folds to another's, :func:`_say_folded` says so."""
    if moved is None:
        return Outcome(kind, path, ident, "added", side)
    if any(copy == moved for _, copy, _ in tree.folded):
        return Outcome(kind, moved, ident, "added", side, SAME_PATH)
    return Outcome(kind, path, ident, "conflict", "B" if side == "A" else "A",
                   f"from {side}; the other store has another file at this path: kept beside it",
                   moved, already_kept=moved in seen)


def _entry_date(record: Record) -> tuple[str | None, Any]:
    """The recency of an entry file: ``updated``, else ``created`` (spec §5.2)."""
    for name in ("updated", "created"):
        value = getattr(record, name) if not record.opaque else record.extra.get(name)
        if isinstance(value, str):
            return name, value
    return None, None


def _bytes(record: Record) -> bytes:
    """The entry's file: the bytes it was read from (records read are never changed here), else rendered."""
    source = record.source
    if source is not None and source.dialect == "memoir" and source.has_raw:
        return source.raw
    return memoir_entries.write_entry(record)


def _when(record: Record, hints: Hints | None) -> tuple[int, str | None, Any]:
    """``(instant, field, value)`` of the entry's date, or of a later one its carry gives (an import's hint)."""
    name, value = _entry_date(record)
    best = (instant(value), name, value)
    for name, value in (hints.dates.get(id(record), ()) if hints is not None else ()):
        if instant(value) > best[0]:
            best = (instant(value), name, value)
    return best


def _substance(record: Record) -> str:
    """What an entry says, its tombstone left out: copies that differ only there are one record."""
    saved = record.lifecycle
    record.lifecycle = Lifecycle()
    try:
        return fingerprint(record)
    finally:
        record.lifecycle = saved


def _start(record: Record) -> Any:
    """When a goal was set or a next action added: what a ``done_at`` is compared with."""
    return record.set_on if record.kind == "goal" else record.added


def _inherit(winner: Record, loser: Record, loser_side: str) -> tuple[Record, str | None]:
    """The winner, carrying a tombstone the loser had that must stick (spec §5.3)."""
    if winner.opaque or loser.opaque or winner.kind != loser.kind:
        return winner, None
    if winner.kind == "decision" and loser.lifecycle.state == "hidden" and winner.lifecycle.state != "hidden":
        copy = clone(winner, keep_source=True)
        copy.lifecycle = Lifecycle("hidden", loser.lifecycle.at)
        return copy, f"hidden inherited from {loser_side} (hidden is sticky)"
    if winner.kind in ("goal", "next_action") and loser.lifecycle.state == "done" \
            and winner.lifecycle.state != "done" and loser.lifecycle.at is not None:
        if instant(_start(winner)) <= instant(loser.lifecycle.at):
            copy = clone(winner, keep_source=True)
            copy.lifecycle = Lifecycle("done", loser.lifecycle.at)
            return copy, (f"done_at inherited from {loser_side}: completed {loser.lifecycle.at}, "
                          f"not before it was {'set' if winner.kind == 'goal' else 'added'}")
        return winner, f"re-added after {loser_side}'s done_at ({loser.lifecycle.at}): stays open"
    return winner, None


def _conflict_copy(record: Record, raw: bytes) -> bytes:
    """The losing copy of an entry, renamed so a reader can tell it from the one in place."""
    if record.opaque or not isinstance(record.title, str):
        return raw
    copy = clone(record, keep_source=True)
    copy.title = f"{record.title} (conflict copy)"
    return memoir_entries.write_entry(copy)


def _merge_entries(a: Store, b: Store, prefix: str, tree: Tree, outcomes: list[Outcome], seen: set[str],
                   hints: Hints | None = None) -> None:
    by_link: dict[str, dict[str, Record]] = {}
    for side, store in (("A", a), ("B", b)):
        for record in store.records:
            by_link.setdefault(record.link, {})[side] = record
    for link in sorted(by_link):
        copies = by_link[link]
        path = f"{prefix}{link}.md"
        if len(copies) == 1:
            (side, record), = copies.items()
            outcomes.append(_placed(tree, "entry", path, link, side, tree.put(path, _bytes(record)), seen))
            continue
        ra, rb = copies["A"], copies["B"]
        raw_a, raw_b = _bytes(ra), _bytes(rb)
        if raw_a == raw_b:
            tree.put(path, raw_a)
            outcomes.append(Outcome("entry", path, link, "unchanged"))
            continue
        ta, tb = _when(ra, hints)[0], _when(rb, hints)[0]
        prefer = hints.prefer if hints is not None else {}
        conflict = False
        if (id(ra) in prefer) != (id(rb) in prefer):
            (won, winner, raw_w), (lost, loser, raw_l) = sorted(
                (("A", ra, raw_a), ("B", rb, raw_b)), key=lambda t: id(t[1]) in prefer, reverse=True)
            why = prefer[id(winner)]
        elif ta != tb:
            (won, winner, raw_w), (lost, loser, raw_l) = sorted(
                (("A", ra, raw_a), ("B", rb, raw_b)), key=lambda t: -_when(t[1], hints)[0])
            _, name, value = _when(winner, hints)
            why = f"newer {name} ({value})"
        else:
            (won, winner, raw_w), (lost, loser, raw_l) = sorted(
                (("A", ra, raw_a), ("B", rb, raw_b)), key=lambda t: (_substance(t[1]), t[2]), reverse=True)
            _, name, value = _when(winner, hints)
            when = f"same {name} ({value})" if name else "no updated or created date on either side"
            if _substance(ra) == _substance(rb):
                why = f"{when}{SAME_CONTENT}: kept the canonical choice"
            else:
                conflict = True
                why = f"{when}, different content: kept the canonical choice"
        kept, note = _inherit(winner, loser, lost)
        if note:
            why += "; " + note
        tree.put(path, memoir_entries.write_entry(kept) if kept is not winner else raw_w)
        if not conflict:
            outcomes.append(Outcome("entry", path, link, "updated", won, why))
            continue
        other = _conflict_copy(loser, raw_l)
        copy_path = tree.conflict_path(path, other)
        tree.files[copy_path] = other
        outcomes.append(Outcome("entry", path, link, "conflict", won, why, copy_path,
                                already_kept=copy_path in seen))


def _merge_session(a: Store, b: Store, tree: Tree, outcomes: list[Outcome], warnings: list[str],
                   seen: set[str]) -> None:
    wa, wb = a.working_set, b.working_set
    path = memoir_session.PATH
    if wa is None and wb is None:
        return
    if wa is None or wb is None:
        only = wa or wb
        side = "A" if wb is None else "B"
        tree.put(path, memoir_session.write_session(only))
        outcomes.extend(_listing(only.document, side))
        return
    raws = {"A": memoir_session.write_session(wa), "B": memoir_session.write_session(wb)}
    merged = merge_documents(wa.document, wb.document)
    outcomes.extend(merged.outcomes)
    warnings.extend(merged.warnings)
    text = session_content(merged.document)  # the items, not their order: memoir-cli appends, the merge sorts
    same = [raws[s] for s, ws in (("A", wa), ("B", wb)) if session_content(ws.document) == text]
    if same:
        data = min(same)
    else:
        la = wa.source.layout if wa.source is not None else None
        lb = wb.source.layout if wb.source is not None else None
        layout = la if la == lb and la is not None else memoir_session.SessionLayout()
        out = WorkingSet(document=merged.document, source=Source(dialect="memoir", path=path, layout=layout))
        data = memoir_session.write_session(out)  # a lone surrogate as its escape, as memoir-cli writes it
    tree.put(path, data)
    for conflict in merged.conflicts:
        copy_path, copy = conflict.file()
        tree.put(copy_path, copy)
        for outcome in outcomes:
            if outcome.conflict_copy and copy_path in outcome.conflict_copy.split(", ") and copy_path in seen:
                outcome.already_kept = True


def _listing(document: dict, side: str) -> list[Outcome]:
    """Every item of a session.json only one store has: each one added, as it stands."""
    found = []
    current = document.get("current")
    for name, items in (current.items() if isinstance(current, dict) else ()):
        for item in items if isinstance(items, list) else ():
            found.append(Outcome("session", f"session.json current.{name}", item_key(item), "added", side,
                                 label=_label(item)))
    for name in ("machines", "history"):
        value = document.get(name)
        for item in (value if isinstance(value, list) else value.keys() if isinstance(value, dict) else ()):
            found.append(Outcome("session", f"session.json {name}", canonical(item), "added", side,
                                 label=item if isinstance(item, str) else _label(item)))
    return found or [Outcome("session", memoir_session.PATH, memoir_session.PATH, "added", side)]


def _merge_files(a: Store, b: Store, tree: Tree, outcomes: list[Outcome], quarantined: list[dict],
                 seen: set[str], folder: str, suffix: str, prefer: dict[str, tuple[bytes, str]],
                 logs: frozenset[str] = frozenset()) -> None:
    """Foreign and quarantined files: union by path; different bytes at one path keep both. A quarantined
    original is kept in ``folder`` (:func:`memconv.dialects.quarantine_folder`) where a conversion of its side
    would keep it (:func:`memconv.fs.quarantine_path`: never over a file that side carries, such as an earlier
    run's copy, which it replaced here without a word; a ``\\`` spelled ``%5C``, which stopped the merge), under
    a name that fits once named as ``suffix`` (the dialect's ``KEPT_SUFFIX``) names it. So is a carried file whose
    name with ``suffix`` would not fit, said on its side's warnings, as a conversion sets it aside
    (:func:`memconv.dialects.passed_through`): it refused the whole merge, exit 4. ``prefer``: :attr:`Hints.files`."""
    by_path: dict[str, dict[str, bytes]] = {}
    for side, store in (("A", a), ("B", b)):
        taken: dict[str, bytes] = {foreign.path: foreign.raw for foreign in store.foreign}
        for foreign in store.foreign:
            path = foreign.path
            if (too_long := kept_too_long(path, suffix)) is not None \
                    and (aside := quarantine_path(path, taken, folder, suffix, foreign.raw)) is not None:
                store.warnings.append(f"{path}: {too_long}; kept aside at {kept_name(aside, suffix)}")
                path = aside
                taken[path] = foreign.raw
            by_path.setdefault(path, {})[side] = foreign.raw
        for q in store.quarantined:
            kept = quarantine_path(q.path, taken, folder, suffix)  # (named as written: fs.kept_name)
            reason = q.reason
            if kept is None:
                reason += "; its name is not safe to write, so no copy was kept"
            else:
                by_path.setdefault(kept, {})[side] = taken[kept] = q.raw
            quarantined.append({"side": side, "path": q.path, "line": q.line, "reason": reason, "kept_at": kept})
    for path in sorted(by_path):
        copies = by_path[path]
        if path in tree.files and all(tree.files[path] == data for data in copies.values()):
            continue  # a conflict copy an earlier merge wrote, already placed
        if len(copies) == 1:
            (side, data), = copies.items()
            outcomes.append(_placed(tree, "file", path, path, side, tree.put(path, data), seen))
            continue
        if copies["A"] == copies["B"]:
            tree.put(path, copies["A"])
            outcomes.append(Outcome("file", path, path, "unchanged"))
            continue
        chosen, why = prefer.get(path, (None, None))
        if chosen in (copies["A"], copies["B"]):  # changed on one side only since an import (into._three_way)
            taken = ("A" if copies["A"] == chosen else "B", chosen, why)
        else:  # a log its tools only append to: the copy holding the other's lines, or the lines both added
            taken = _appended(copies["A"], copies["B"]) if path in logs else None
        if taken is not None:
            won, data, why = taken
            tree.put(path, data)
            outcomes.append(Outcome("file", path, path, "updated", won, why))
            continue
        won, lost = ("A", "B") if copies["A"] > copies["B"] else ("B", "A")
        tree.put(path, copies[won])
        copy_path = tree.conflict_path(path, copies[lost])
        tree.files[copy_path] = copies[lost]
        for q in quarantined:  # the losing side's original is kept in the copy: its line says so
            if q["side"] == lost and q["kept_at"] == path:
                q["kept_at"] = copy_path
        outcomes.append(Outcome("file", path, path, "conflict", won,
                                "different bytes on each side, and no date to order them: kept the canonical choice",
                                copy_path, already_kept=copy_path in seen))


def merge(a: Store, b: Store, hints: Hints | None = None) -> MergeResult:
    """Two memoir stores → the merged store's files and the outcome of every record."""
    shapes = {a.meta.get("layout", "nested"), b.meta.get("layout", "nested")}
    shape = shapes.pop() if len(shapes) == 1 else "nested"
    prefix = "memory/" if shape == "nested" else ""
    seen = _paths(a) | _paths(b)
    tree = Tree()
    outcomes: list[Outcome] = []
    warnings: list[str] = []
    _merge_entries(a, b, prefix, tree, outcomes, seen, hints)
    _merge_session(a, b, tree, outcomes, warnings, seen)
    if len({a.meta.get("layout", "nested"), b.meta.get("layout", "nested")}) > 1:
        warnings.append("one store keeps its entries in memory/, the other flat: the merged store uses memory/")
    return finish("memoir", a, b, tree, outcomes, warnings, seen, hints)


def finish(dialect: str, a: Store, b: Store, tree: Tree, outcomes: list[Outcome], warnings: list[str],
           seen: set[str] | None = None, hints: Hints | None = None) -> MergeResult:
    """What every dialect's merge ends with: the files no record owns (foreign, quarantined), each
    side's own warnings, and the result. ``seen``: every path the two readers saw (default: computed)."""
    from .. import dialects

    quarantined: list[dict] = []
    seen = _paths(a) | _paths(b) if seen is None else seen
    # A .md file memconv keeps as IN had it, in a dialect whose tools read every Markdown file (claude:
    # KEPT_SUFFIX), is written under the name that keeps it from them, as that dialect's writer writes it.
    suffix = dialects.declaration(dialect, "KEPT_SUFFIX")
    _merge_files(a, b, tree, outcomes, quarantined, seen,
                 dialects.quarantine_folder(dialect, a), suffix,  # the merged store is written where A is
                 hints.files if hints is not None else {},
                 _logs(dialect, {f.path for store in (a, b) for f in store.foreign}))
    _say_folded(tree, outcomes, seen)
    for side, store in (("A", a), ("B", b)):
        warnings.extend(f"{side}: {w}" for w in store.warnings)
    for q in quarantined:
        if q["kept_at"] is not None:
            q["kept_at"] = kept_name(q["kept_at"], suffix)
    for o in outcomes:  # (a file and its conflict copy, named as in OUT: the report named x.md for x.md.kept)
        if o.kind == "file":
            o.where = kept_name(o.where, suffix)
            o.conflict_copy = kept_name(o.conflict_copy, suffix) if o.conflict_copy else o.conflict_copy
    files = {kept_name(path, suffix): data for path, data in tree.files.items()}
    return MergeResult(dialect, dict(sorted(files.items())), outcomes, warnings, quarantined)


#: Why a log's copy won whole: it holds every line of the other's (an import says EXISTING already holds it).
APPENDED = "appended on that side only: it holds every line of the other copy"


def _logs(dialect: str, paths: set[str]) -> frozenset[str]:
    """Of ``paths``, the logs whose tools only append to them: the dialect's ``APPEND_ONLY``, and another
    dialect's carried here (``.memconv/files/memoir/events.jsonl`` in a Claude folder)."""
    from .. import dialects
    from ..converters.notes import carried_file_path

    own = dialects.declarations("APPEND_ONLY")
    found = set()
    for path in paths:
        carried = carried_file_path(path)
        owner, name = carried if carried is not None else (dialect, path)
        if name in own.get(owner, ()):
            found.add(path)
    return frozenset(found)


def _appended(a: bytes, b: bytes) -> tuple[str, bytes, str] | None:
    """Two copies of an append-only log, as (the side that won, the bytes kept, why); None when they are not
    copies of one log appended to (a line taken out or changed, a last line cut short): a conflict, as before.
    A copy that holds every line of the other (it starts with the other's bytes, or each line the other added
    after the lines both start with is among its own) is that side's appends. Lines added on both sides are
    kept, each once, after the lines both start with: the two sides' lines in one sequence, the lesser line
    first where each side's next differ (memoir-cli's start with their time, so that is the order they
    happened in), each side's in its own order. Depends on the two copies only, not on which is A."""
    if a.startswith(b) or b.startswith(a):
        return ("A", a, APPENDED) if len(a) > len(b) else ("B", b, APPENDED)
    if not (a.endswith(b"\n") and b.endswith(b"\n")):
        return None
    lines_a, lines_b = a.splitlines(keepends=True), b.splitlines(keepends=True)
    both = 0
    while both < min(len(lines_a), len(lines_b)) and lines_a[both] == lines_b[both]:
        both += 1
    added_a, added_b = lines_a[both:], lines_b[both:]
    if not Counter(added_b) - Counter(added_a):
        return "A", a, APPENDED
    if not Counter(added_a) - Counter(added_b):
        return "B", b, APPENDED
    union, i, j = lines_a[:both], 0, 0
    while i < len(added_a) or j < len(added_b):
        if j == len(added_b) or i < len(added_a) and added_a[i] < added_b[j]:
            union.append(added_a[i])
            i += 1
        elif i == len(added_a) or added_b[j] < added_a[i]:
            union.append(added_b[j])
            j += 1
        else:  # the same line on both sides: once
            union.append(added_a[i])
            i, j = i + 1, j + 1
    return "both", b"".join(union), ("appended on both sides: the lines both had, then each line either side "
                                     "added, once, in order")


def _say_folded(tree: Tree, outcomes: list[Outcome], seen: set[str]) -> None:
    """Each record or file kept beside one whose name folds to its own (:attr:`Tree.folded`) is reported as a
    conflict, as two copies at one path are: where it would have been, and the conflict copy that holds it."""
    moved: dict[str, tuple[str, str, str]] = {}
    for wanted, copy, holder in tree.folded:
        moved[wanted] = moved[copy] = (wanted, copy, holder)
    for outcome in outcomes if moved else ():
        found = moved.get(outcome.where)
        if found is None or outcome.where == found[1] and outcome.why != SAME_PATH:
            continue  # (at the copy's path: a record of its own there, or one reported where it was moved to)
        wanted, copy, holder = found
        note = (f"{holder} is the name of the store's own index page: kept under a conflict name" if wanted == holder
                else f"its name differs from {holder}'s only in case or Unicode normalisation, and the two would be "
                "one file on macOS and Windows: kept under a conflict name")
        if outcome.status == "conflict" and outcome.conflict_copy:
            outcome.conflict_copy, outcome.already_kept = f"{copy}, {outcome.conflict_copy}", \
                outcome.already_kept and copy in seen
        else:
            outcome.conflict_copy, outcome.already_kept = copy, copy in seen
        came = f"from {outcome.won}" if outcome.status == "added" and outcome.won else None  # not "A won"
        if came:
            outcome.won = None
        outcome.why = "; ".join(w for w in (came, outcome.why if outcome.why != SAME_PATH else None, note) if w)
        outcome.status, outcome.where = "conflict", wanted


def _paths(store: Store) -> set[str]:
    """Every path the store's reader saw: to tell a conflict copy an earlier merge kept from a new one."""
    paths = {f.path for f in store.foreign}
    paths.update(r.source.path for r in store.records if r.source is not None)
    return paths


__all__ = ["MergeResult", "merge"]
