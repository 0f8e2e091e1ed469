"""The conversion report: what happened to every file, said honestly.

Every command builds one :class:`Report`. People get a short summary on
stderr; programs get the whole thing as JSON on stdout with ``--json``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

#: Exit statuses, documented in docs/cli.md.
EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_USAGE = 2
EXIT_QUARANTINED = 3
EXIT_ERROR = 4
EXIT_LOSS = 5
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


@dataclass
class FileReport:
    """One record or file: where it came from, where it went, and what became of its fields."""

    source: str | None
    source_kind: str | None = None
    target: str | None = None
    target_kind: str | None = None
    #: ``converted``, ``kept`` (byte for byte), ``opaque``, ``foreign``, ``quarantined``, ``migrated``,
    #: ``refused`` (never read: see ``Report.refused``).
    status: str = "converted"
    native: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: What a rewrite did to this file, one line each (``type: feedback → lesson``); ``upgrade`` fills it.
    changes: list[str] = field(default_factory=list)


@dataclass
class Report:
    command: str
    input: str
    output: str | None = None
    source_dialect: str | None = None
    target_dialect: str | None = None
    dry_run: bool = False
    written: bool = False
    files: list[FileReport] = field(default_factory=list)
    quarantined: list[dict[str, Any]] = field(default_factory=list)
    #: Entries of IN never read (FIFOs, links out of IN, unreadable or oversized files…): path and reason.
    refused: list[dict[str, Any]] = field(default_factory=list)
    migrations: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: For ``check``: the files that would change, with their unified diffs.
    differences: list[dict[str, str]] = field(default_factory=list)
    exit_code: int = EXIT_OK
    #: Why the command stopped, when it did: kind, message, hint, and the file (and line) where known.
    error: dict[str, Any] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2)

    def summary(self) -> str:
        """A few lines for a person: counts, then every problem on its own line."""
        lines = []
        head = f"memconv {self.command}: {self.input}"
        if self.source_dialect:
            head += f" ({self.source_dialect}"
            if self.target_dialect and self.target_dialect != self.source_dialect:
                head += f" → {self.target_dialect}"
            head += ")"
        if self.output:
            head += f" → {self.output}"
        lines.append(head)
        if self.files:
            counts: dict[str, int] = {}
            for f in self.files:
                counts[f.status] = counts.get(f.status, 0) + 1
            lines.append("  " + ", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
        carried = sum(len(f.carried) for f in self.files)
        dropped = sum(len(f.dropped) for f in self.files)
        if carried or dropped:
            lines.append(f"  {carried} field(s) carried, {dropped} dropped (see --json for which)")
        for step in self.migrations:
            lines.append(f"  migrated: {step}")
        for q in self.quarantined:
            where = q["path"] + (f":{q['line']}" if q.get("line") else "")
            lines.append(f"  quarantined {where}: {q['reason']}")
        for r in self.refused:
            lines.append(f"  refused {r['path']}: {r['reason']}")
        for w in self.warnings:
            lines.append(f"  warning: {w}")
        for f in self.files:
            for w in f.warnings:
                lines.append(f"  warning: {f.source or f.target}: {w}")
        for e in self.errors:
            lines.append(f"  error: {e}")
        if self.dry_run:
            lines.append("  dry run: nothing was written")
        elif self.written:
            lines.append(f"  written: {self.output}")
        return "\n".join(lines)
