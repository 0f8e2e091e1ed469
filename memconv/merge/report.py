"""The merge preview: what became of every record, and the exit status it earns.

Each record (an entry file, a session item, a foreign file) gets one
:class:`Outcome`: ``added`` (only one store had it), ``updated`` (both had it,
differently, and one side won — the outcome says which and why),
``unchanged`` (both had it, the same), or ``conflict`` (both had it,
differently, with nothing to choose between them: the winner is kept in place
and the other copy beside it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from ..fs import display
from ..report import EXIT_OK, EXIT_QUARANTINED, Report

#: Merged, but at least one record was in conflict: both copies kept (docs/merge.md).
EXIT_CONFLICTS = 6

STATUSES = ("added", "updated", "unchanged", "conflict")

#: An import's words for the side a store-level warning is of, written before it in place of merge's A and B
#: (``EXISTING: memory/x.md: …``): B's store is IN as converted into the target, and its paths are that store's.
IMPORT_SIDES = {"A": "EXISTING", "B": "IN (as converted)"}


@dataclass
class Outcome:
    """What the merge did with one record."""

    #: ``entry``, ``session`` (an item of session.json), or ``file`` (foreign or quarantined).
    kind: str
    #: Where it lives in the merged store: a path, or ``session.json current.goals``.
    where: str
    #: The record's identity: link name, normalised-text hash, path.
    identity: str
    status: str
    #: Which side's copy is in the merged store: ``A``, ``B``, ``both`` (they agreed), or a rule.
    won: str | None = None
    #: Why that copy, in a few words a person can check.
    why: str | None = None
    #: Where the other copy was kept, for a conflict.
    conflict_copy: str | None = None
    #: A short human label (a session item's text, cut to one line).
    label: str | None = None
    #: True when the conflict copy already existed in an input: nothing new to look at.
    already_kept: bool = False
    #: The sides (``A``, ``B``) that already hold what the merged store keeps of a session item, in its list and as
    #: it stands: keeping it changes nothing there (an import's EXISTING is A). Not in the report.
    held_by: tuple[str, ...] = ()

    def line(self) -> str:
        text = f"  {self.status:<9}  {display(self.where)}"  # a session.json key can hold a lone surrogate
        if self.label:
            text += f" {self.label!r}"
        details = []
        if self.won:
            details.append(f"{self.won} won" if self.status in ("updated", "conflict") else f"from {self.won}")
        if self.why:
            details.append(self.why)
        if self.conflict_copy:
            details.append(f"other copy {'already ' if self.already_kept else ''}kept at {self.conflict_copy}")
        if details:
            text += ": " + "; ".join(details)
        return text


@dataclass
class MergeReport(Report):
    """The common report plus one outcome per record."""

    records: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)

    #: A merge writes each input's own warnings after its side (merge.memoir.finish; an import, after its words for
    #: it): taken off into the notice's ``side``, so its file and kind are found as a conversion finds them.
    SIDES: ClassVar[tuple[str, ...]] = ("A", "B", *IMPORT_SIDES.values())

    def add(self, outcomes: list[Outcome]) -> None:
        self.records.extend({k: v for k, v in asdict(o).items() if k != "held_by"} for o in outcomes)

    def counts(self) -> dict[str, int]:
        counts = {s: 0 for s in STATUSES}
        for r in self.records:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        return counts

    def new_conflicts(self) -> int:
        return sum(1 for r in self.records if r["status"] == "conflict" and not r["already_kept"])

    def settle_exit(self) -> None:
        """3 if anything was quarantined or refused (not read, so not merged), else 6 if a new conflict was kept,
        else 0."""
        if self.quarantined or self.refused:
            self.exit_code = EXIT_QUARANTINED
        elif self.new_conflicts():
            self.exit_code = EXIT_CONFLICTS
        else:
            self.exit_code = EXIT_OK

    def preview(self, verbose: bool = True) -> str:
        """One line per record; without ``verbose``, the unchanged ones are counted, not listed."""
        lines = [Outcome(**r).line() for r in self.records if verbose or r["status"] != "unchanged"]
        unchanged = 0 if verbose else sum(1 for r in self.records if r["status"] == "unchanged")
        if unchanged:
            lines.append(f"  unchanged  {unchanged} record(s) (-v lists them)")
        return "\n".join(lines)

    def closing(self, seconds: float | None = None) -> str:
        """The last line: what became of the records, what was quarantined, and the time taken."""
        took = f" in {seconds:.1f} s" if seconds is not None else ""
        verb = "stopped" if self.stopped else \
            ("OUT is stale" if self.differences else "OUT is up to date") if getattr(self, "checking", False) else \
            "previewed" if self.dry_run else "merged"
        parts = [f"{n} {s}" for s, n in self.counts().items()] + [f"{len(self.quarantined)} quarantined"] \
            + ([f"{len(self.refused)} refused"] if self.refused else [])
        if self.differences:
            parts.append(f"{len(self.differences)} file(s) would change")
        return f"memconv {self.command}: {verb}{took}: " + ", ".join(parts) + f" (exit {self.exit_code})"

    def summary(self, verbose: bool = False, shown: int = 3) -> str:
        lines = [super().summary(verbose, shown)]
        counts = self.counts()
        lines.append("  records: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
        if self.new_conflicts():
            lines.append(f"  {self.new_conflicts()} conflict(s): both copies kept; see the lines marked conflict")
        return "\n".join(lines)
