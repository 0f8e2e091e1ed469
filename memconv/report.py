"""The report of every command: what happened to every file, said honestly.

Every command builds one :class:`Report`. People get a short summary on
stderr, warnings grouped by kind, and a closing line with the counts and the
time taken; programs get the whole thing as JSON on stdout with ``--json``, in
one shape for every command (``memconv/schema/report.schema.json``,
docs/report.md). The exit statuses are one table here, :data:`EXIT_STATUSES`:
the command's ``--help`` and docs/cli.md are made from it.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, NamedTuple, Sequence

from .fs import display, spelled

#: The version of the JSON report's shape (``"schema": 1``); it grows only when a key changes meaning or goes.
SCHEMA_VERSION = 1


class ExitStatus(NamedTuple):
    code: int
    #: A stable word for the status, also in the JSON report (``exit_status``).
    name: str
    #: What it means, for a person (one table row in docs/cli.md and ``memconv --help``).
    means: str


#: Every exit status memconv uses: the one table (``memconv --help``, docs/cli.md, the report's ``exit_status``).
EXIT_STATUSES = (
    ExitStatus(0, "ok", "done; nothing quarantined or refused (`check`: the round trip is byte-identical; "
                        "`--check`: OUT is already what the command would write)"),
    ExitStatus(1, "differences", "`check` found files that would change, or files it could not read (quarantined or "
                                 "refused); `--check`: OUT is not what the command would write"),
    ExitStatus(2, "usage", "usage error, for every command: a bad or missing option or argument, an unknown command, "
                           "IN and OUT overlapping, an empty path, `upgrade` without OUT or `--in-place` (or with "
                           "both); IN is not the dialect `--from` names, is empty, holds several stores (no "
                           "`--from`), is a Claude project folder, or (for `upgrade`) is not Claude Code memory"),
    ExitStatus(3, "quarantined", "done, but one or more files were quarantined or refused (see the report)"),
    ExitStatus(4, "error", "nothing done: IN is not a usable store (without `--from`, `detect` found none), OUT "
                           "cannot be written (not empty; `--force` over a folder memconv did not write; locked), a "
                           "disk fault (full, read-only, EIO, permission, a name too long, a link loop, a file "
                           "vanishing mid-read), input nested too deeply, out of memory, or a dialect plugin's own "
                           "code failed (report it to the plugin's author)"),
    ExitStatus(5, "loss", "`--fail-on-loss`: something would have been dropped; nothing was written"),
    ExitStatus(6, "conflicts", "`merge` and `--into`: merged, and conflicting copies were kept beside the winners"),
    ExitStatus(70, "bug", "a bug in memconv (an unexpected exception in memconv's code, a built-in dialect's "
                          "included; sysexits' EX_SOFTWARE): nothing half-written is left; please report the message"),
    ExitStatus(130, "interrupted", "interrupted by Ctrl-C (SIGINT): OUT absent or complete, no temporary "
                                   "folder left"),
    ExitStatus(141, "broken-pipe", "stdout was closed early (memconv piped into `head`): the rest of the output "
                                   "was not printed"),
    ExitStatus(143, "terminated", "terminated (SIGTERM): OUT absent or complete, no temporary folder left"),
)

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_USAGE = 2
EXIT_QUARANTINED = 3
EXIT_ERROR = 4
EXIT_LOSS = 5
EXIT_CONFLICTS = 6
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_TERMINATED = 143

_NAMES = {s.code: s.name for s in EXIT_STATUSES}
assert {EXIT_OK, EXIT_DIFFERENCES, EXIT_USAGE, EXIT_QUARANTINED, EXIT_ERROR, EXIT_LOSS, EXIT_CONFLICTS, EXIT_BUG,
        EXIT_INTERRUPTED, EXIT_BROKEN_PIPE, EXIT_TERMINATED} == set(_NAMES), "every status is in the table"


def exit_table(markdown: bool = True) -> str:
    """The exit statuses as a Markdown table (docs/cli.md) or as aligned text (``--help``)."""
    if markdown:
        rows = ["| status | name | means |", "|---|---|---|"]
        rows += [f"| {s.code} | `{s.name}` | {s.means} |" for s in EXIT_STATUSES]
        return "\n".join(rows)
    import textwrap

    return "\n".join(textwrap.fill(s.means.replace("`", ""), width=100, initial_indent=f"{s.code:>5}  {s.name:<12} ",
                                   subsequent_indent=" " * 20, break_on_hyphens=False) for s in EXIT_STATUSES)


#: Where docs/cli.md holds the table, between these two lines (``python -m memconv.report`` rewrites it).
TABLE_BEGIN, TABLE_END = "<!-- exit-statuses:begin (python -m memconv.report) -->", "<!-- exit-statuses:end -->"


def write_docs(path) -> None:
    """Put :func:`exit_table` between the markers of ``path`` (docs/cli.md)."""
    from pathlib import Path

    text = Path(path).read_text(encoding="utf-8")
    head, rest = text.split(TABLE_BEGIN, 1)
    _, tail = rest.split(TABLE_END, 1)
    Path(path).write_text(f"{head}{TABLE_BEGIN}\n{exit_table()}\n{TABLE_END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    from pathlib import Path

    write_docs(Path(__file__).resolve().parent.parent / "docs" / "cli.md")


#: File statuses of :class:`FileReport`, in the order the counts list them.
STATUSES = ("converted", "kept", "migrated", "opaque", "foreign", "quarantined", "refused")
#: Statuses of a record that was written (converted or not) — "converted" in the closing line.
WRITTEN = ("converted", "kept", "migrated", "opaque")


@dataclass(slots=True)
class FileReport:
    """One record or file: where it came from, where it went, and what became of its fields.

    One is held per file until the report is printed: with slots, no per-instance dict (a run within
    memoir holds little else; docs/performance.md). Its lists of names are the one empty tuple until something
    is said: a new empty list each took 56 bytes, four of them to a file, and held a run within Claude's
    folder 35 MB higher at 100,000 files. Whoever adds to one sets a list (:meth:`warn`).
    """

    source: str | None
    source_kind: str | None = None
    target: str | None = None
    target_kind: str | None = None
    #: ``converted``, ``kept`` (byte for byte), ``opaque``, ``foreign``, ``quarantined``, ``migrated``,
    #: ``refused`` (never read: see ``Report.refused``).
    status: str = "converted"
    native: Sequence[str] = ()
    carried: Sequence[str] = ()
    dropped: Sequence[str] = ()
    warnings: Sequence[str] = ()
    #: What a rewrite did to this file, one line each (``type: feedback → lesson``); ``upgrade`` fills it.
    changes: Sequence[str] = ()

    def warn(self, message: str) -> None:
        """Say ``message`` of this file."""
        self.warnings = [*self.warnings, message]


#: The lists of a :class:`FileReport` (the fields that are the empty tuple until something is said): lists in its
#: JSON, whatever they are held as.
_NAME_LISTS = tuple(f.name for f in fields(FileReport) if f.default == ())


#: A lone surrogate: what Python makes of a byte of a name that is not UTF-8 (``\\udcff`` for ``0xff``).
_SURROGATE = re.compile("[\ud800-\udfff]")


def _spelled(surrogate: re.Match[str]) -> str:
    """A lone surrogate in JSON text, written out in words as a message shows it (``fs.spelled``), as a JSON string
    holds them (its ``\\`` escaped)."""
    return spelled(surrogate[0]).replace("\\", "\\\\")


def _shown(path: str | None) -> str | None:
    """A folder's name for a person, as every message names one (``fs.display``: ``bad\\xff``, not ``bad\\udcff``)."""
    return None if path is None else display(path)


class NoticeKind(NamedTuple):
    """A kind of warning: a stable name (for grouping and for programs), how to spot it, and plain words."""

    name: str
    pattern: re.Pattern
    #: What every warning of this kind says, when their messages differ only by names and values (a link's
    #: target, a date): they are summed up in these words. None: the warnings that say the same are grouped.
    plain: str | None = None


def _k(name: str, pattern: str, plain: str | None = None) -> NoticeKind:
    return NoticeKind(name, re.compile(pattern), plain)


#: Known kinds of warnings, first match wins. The name is stable: the ``kind`` of each notice in the JSON
#: report. A warning of no known kind is ``other``, grouped with the warnings that say exactly the same.
#: No pattern has two unbounded parts, so each runs in linear time on a warning quoting a hostile name.
NOTICE_KINDS = (
    _k("kept-as-written", r"^kept as written: "),
    _k("kept-as-note", r"^kept as a note"),
    _k("target-would-rewrite", r"would rewrite this file differently"),
    _k("target-would-rename", r"would name this file",
       "memfmt would give these files another name; they are kept where they are"),
    # "the link points at nothing": a link to a memory deleted in the other dialect (forty-sixth session).
    _k("link-to-nothing", r"which (?:is not in the folder|names no entry)|the link points at nothing",
       "a link points at a file that is not in the store; kept as written"),
    _k("no-description", r"^no description"),
    # Exact since the forty-sixth session: a MEMORY.md over the limit kept as written matched "loads only the first"
    # too, and was said to be split (docs/report.md).
    _k("index-split", r"loads only the first \d+ lines and \d+ KB: split into"),
    _k("index-over-limit", r"\(Claude Code loads only the first \d+ (?:lines|KB)\)",
       "an index longer than Claude Code loads, written as it was: what is past the limit is not read; move some of "
       "it into a topic file"),
    _k("no-field-in-target", r"has no field for them; carried",
       "the target has no field for some values: they are carried in its memconv key"),
    _k("name-differs-from-id", r"file name does not match its id",
       "the file name does not match the record's id; kept where it is"),
    _k("same-id-twice", r"(same id as|two records claim)",
       "two records have the same id; the target keeps only one of them as a record"),
    _k("date-missing", r"(no usable|no date)",
       "a date the target needs is missing; see each message (-v) for what was done"),
    # A rendering memconv made (of the working set, of an index's words or bullet) edited, retired, emptied or
    # deleted in the other dialect: restore.py's lines, each of which opens with what the rendering was (forty-sixth
    # session; "other", or edited-in-target for two of them, before).
    _k("rendering-edited", r"^(?:the working set's rendering|(?:the text of )?(?:the words written in|an inline "
                           r"bullet of)|the rendering of) ",
       "a rendering memconv made (of the working set, or of an index's words) was changed in the other dialect: "
       "home again from its carried copy, the change applied or counted dropped (-v says how, each)"),
    # "^edited in X: ": the one warning of a record's edits (conversion.edits_said), whose wording lost its kind
    # when it was restated on 2026-12-05 ("other" until the forty-sixth session).
    _k("edited-in-target", r"was edited in |^edited in [\w.-]+: ",
       "edited in the other dialect since the last conversion: the edit wins where home's files can hold it "
       "(-v says how)"),
    _k("carry-ignored", r"(?:carry is ignored|; ignored|carried format patch|its carry (?:names|says))",
       "memconv's own carried copy could not be used (damaged or unsafe): the file as written wins"),
    _k("read-on-trust", r"no mark of \w+ found"),
    _k("session-as-memory", r"^session\.json .* is written as a memory of its own"),
    _k("left-out", r"^left out"),
    # "not a canonical memoir entry": memoir's reader of such an entry (forty-sixth session; "other" before).
    _k("not-canonical", r"(is neither a Claude Code nor a memoir type|not one of the six memoir types|"
                        r"needs|is not an ISO 8601 date|is not global or project|^not a canonical memoir entry)",
       "kept as written: memoir's own validator would refuse it as an entry (-v says why)"),
    # "<what> backed up to <path>", one line for both in-place writes (upgrade.backed_up_and_replaced): "originals"
    # (upgrade --in-place) and "EXISTING" (--into), whose line was "other" and a warning until the forty-sixth session.
    _k("backup", r"^(?:originals|EXISTING) backed up to "),
    _k("nothing-to-do", r"^(already upgraded|round trip is byte-identical)"),
    _k("placeholder", r"^would be added, an empty placeholder"),
    _k("carry-only", r"^would change in memconv's carry alone",
       "a file would change in memconv's carry alone, nothing its dialect's tools read (-v says what)"),
    _k("unread-text", r"are text \w+ does not read"),
    _k("in-copy-not-taken", r"^IN's copy not taken",
       "an import left IN's copy out where EXISTING's is newer: EXISTING's kept as it is (-v says why, each)"),
    _k("index-carried", r"index file\(s\) carried here"),
    # Added in the forty-sixth session; each was "other" until then (docs/report.md).
    _k("carried-untouched", r"[;,] carried (?:untouched|unchanged)",
       "not a memory the store's tool reads (someone's own note, or a file memconv cannot read): carried as it is, "
       "never converted (-v says why, each)"),
    _k("date-refused", r"(?:is unquoted|is not an ISO date-time ending in Z); memspec ",
       "a date memspec's own tools reject (unquoted, or not in its form): kept as written; -v says how to write it"),
    _k("link-to-no-memory", r"not as a current memory: in \w+ the link points at no memory",
       "a link points at a record that is no memory in the target (a note, the session): kept as written"),
    _k("session-invalid", r"^no '\w+'; left absent rather than invented|`memoir validate` rejects the file",
       "session.json holds what memoir's validator rejects (a key missing or of the wrong shape): kept as written, "
       "nothing invented; fix it by hand (-v says what)"),
    _k("linked-from-index", r"a memory new to this folder, which Claude Code finds only through its index",
       "memories new to this folder, linked from its own index so that Claude Code finds them (-v says where)"),
    _k("not-linked-from-index", r"which ends inside a code block, where a link is not read",
       "not linked from the folder's index, which ends inside a code block: link it by hand (-v says which)"),
    _k("index-titles-differ", r"^the two indexes have different titles",
       "the two indexes have different titles: the merge kept one (-v says which)"),
    _k("layouts-differ", r"^one store (?:keeps its entries in memory/, the other flat|is a memory/ folder, the "
                         r"other holds one)",
       "the two stores lay out their files differently: the merged store takes one layout (-v says which)"),
    _k("import-record-unread", r"^not an import record memconv reads",
       "the import record memconv keeps in EXISTING could not be read: written anew; this import compares dates "
       "only"),
    _k("session-over-cap", r"^current\.\w+ holds \d+ items, more than memoir-cli keeps",
       "a list of session.json holds more items than memoir-cli keeps: all kept; memoir-cli may rotate them on "
       "its next write"),
    _k("name-unportable", r"^its name holds a '\\', a folder separator on Windows; written as ",
       "a name holds a '\\', a folder separator on Windows: written under another name (-v says which)"),
    # A memoir entry whose frontmatter YAML refuses, read as memoir-cli reads it (forty-seventh session).
    _k("yaml-refused", r"; read line by line as memoir-cli reads it",
       "a memoir entry's frontmatter that YAML refuses: read line by line as memoir-cli reads it and kept as written; "
       "a YAML reader may read it otherwise (-v says why, each)"),
    # A value the target's validator refuses under a key it reserves, not written there (forty-seventh session).
    _k("value-refused", r" validate refuses th(?:is value|ese values) there, so (?:it is|they are) not written under ",
       "a value the target's own validator refuses under a key it reserves (memoir's created: last week): not written "
       "under that key, carried for the way back (each message names the key and value)"),
    _k("over-the-size-limit", r"larger than the size limit memconv reads",
       "written larger than memconv reads by default: give --max-file-size to read OUT again (see each message)"),
)


def kind_of(message: str) -> NoticeKind | None:
    """The known kind of a warning's message (its file name already taken off), or None."""
    for kind in NOTICE_KINDS:
        if kind.pattern.search(message):
            return kind
    return None


#: The name part of a warning that starts with a file's name: ``MEMORY.md:12`` in ``MEMORY.md:12: links to …``.
_FILE_NAME = re.compile(r"[^:]*\.(?:md|json|jsonl|yaml|yml|txt)(?::\d+)?")


def split_name(warning: str) -> tuple[str | None, str]:
    """``("memory/x.md", "message")`` for a warning that starts with a file's name, else ``(None, warning)``.

    The name is what stands before the first ``": "``: a path (it holds a ``/``) or a file name
    (``MEMORY.md``, ``session.json:3``). Found by ``str.find``, so a hostile name costs linear time.
    """
    end = warning.find(": ")
    if end <= 0 or end > 4096:
        return None, warning
    name = warning[:end]
    if name[0].isspace() or not ("/" in name or _FILE_NAME.fullmatch(name)):
        return None, warning
    return name, warning[end + 2:]


def split_side(warning: str, sides: Sequence[str]) -> tuple[str | None, str]:
    """``("B", "memory/x.md: message")`` for a warning of one input of a merge (``B: memory/x.md: message``), else
    ``(None, warning)``. Taken off before :func:`split_name`, which took the side for the file's name."""
    for side in sides:
        if warning.startswith(side) and warning.startswith(": ", len(side)):
            return side, warning[len(side) + 2:]
    return None, warning


@dataclass
class Report:
    #: The words a store-level warning of one input opens with (``B: memory/x.md: …``): a merge's
    #: (merge.report.MergeReport); none elsewhere, where "A: " would be a warning's own words.
    SIDES: ClassVar[tuple[str, ...]] = ()

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
    #: For ``check``, ``--diff`` and ``--check``: the files that would change, with their diffs (git patches).
    differences: list[dict[str, str]] = field(default_factory=list)
    exit_code: int = EXIT_OK
    #: Why the command stopped, when it did: kind, message, hint, and the file (and line) where known.
    error: dict[str, Any] | None = None

    # --- the JSON report -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The report in the one shape of docs/report.md (``schema`` first)."""
        doc = asdict(self)
        for file in doc["files"]:
            for name in _NAME_LISTS:
                file[name] = list(file[name])
        return {"schema": SCHEMA_VERSION, **doc, "exit_status": _NAMES.get(self.exit_code, "error"),
                "counts": self.totals(), "notices": self.notices()}

    def to_json(self) -> str:
        """The report as JSON text, UTF-8 whatever the names it holds.

        A folder named with a byte that is not UTF-8 (``bad\\xff``) reaches memconv as ``bad\\udcff``. Dumped as it
        is, the report held a raw ``0xff`` byte (no JSON parser reads it), or could not be printed at all on a strict
        stdout (a traceback, exit 1). Such a byte is written as ``fs.display`` writes it in every message
        (``\\xff``), and as ``refused`` names such a file; any other lone surrogate as ``\\udXXX``, in words. A lone
        surrogate is only ever in a string of the JSON text, so the text is mended, not a copy of the report made.
        """
        text = json.dumps(self.to_dict(), ensure_ascii=False, indent=2)
        return text if text.isascii() else _SURROGATE.sub(_spelled, text)

    def totals(self) -> dict[str, int]:
        """How many files of each status, fields carried and dropped, warnings and differences."""
        counts = {status: 0 for status in STATUSES}
        for f in self.files:
            counts[f.status] = counts.get(f.status, 0) + 1
        counts["quarantined"] = max(counts["quarantined"], len(self.quarantined))
        counts["refused"] = max(counts["refused"], len(self.refused))
        counts["carried"] = sum(len(f.carried) for f in self.files)
        counts["dropped"] = sum(len(f.dropped) for f in self.files)
        counts["warnings"] = len(self.warnings) + sum(len(f.warnings) for f in self.files)
        counts["differences"] = len(self.differences)
        return counts

    def notices(self) -> list[dict[str, Any]]:
        """Every warning, the store's and each file's, as ``{kind, path, message}``, and ``side`` when the warning
        is of one input of a merge."""
        out = []
        for w in self.warnings:
            side, w = split_side(w, self.SIDES)
            name, message = split_name(w)
            kind = kind_of(message)
            out.append({"kind": kind.name if kind else "other", "path": name, "message": message})
            if side is not None:
                out[-1]["side"] = side
        for f in self.files:
            for w in f.warnings:
                kind = kind_of(w)
                out.append({"kind": kind.name if kind else "other", "path": f.source or f.target, "message": w})
        return out

    # --- for a person ----------------------------------------------------------------------------------

    def head(self) -> str:
        head = f"memconv {self.command}: {_shown(self.input)}"
        if self.source_dialect:
            head += f" ({self.source_dialect}"
            if self.target_dialect and self.target_dialect != self.source_dialect:
                head += f" → {self.target_dialect}"
            head += ")"
        if self.output:
            head += f" → {_shown(self.output)}"
        return head

    def summary(self, verbose: bool = False, shown: int = 3) -> str:
        """A few lines for a person: what was read and written, then warnings grouped by kind.

        ``verbose`` lists every warning, quarantined and refused file on its own line instead.
        """
        lines = [self.head()]
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
        lines += _listed("quarantined", [q["path"] + (f":{q['line']}" if q.get("line") else "") + f": {q['reason']}"
                                         for q in self.quarantined], verbose, 10)
        lines += _listed("refused", [f"{r['path']}: {r['reason']}" for r in self.refused], verbose, 10)
        notices = self.notices()
        if verbose:
            lines += [f"  {_label(n)}: {_named(n)}: {n['message']}" if _named(n) else f"  {_label(n)}: {n['message']}"
                      for n in notices]
        else:
            lines += _grouped(notices, shown)
        for e in self.errors:
            lines.append(f"  error: {e}")
        if self.dry_run:
            lines.append("  dry run: nothing was written")
        elif self.written:
            lines.append(f"  written: {_shown(self.output)}")
        return "\n".join(lines)

    @property
    def stopped(self) -> bool:
        """Whether the run stopped before its end: an error, or a refusal of ``--fail-on-loss`` (which wrote nothing,
        and closed "done" before the forty-fifth session: docs/cli.md)."""
        return self.error is not None or self.exit_code == EXIT_LOSS

    def closing(self, seconds: float | None = None) -> str:
        """The last line: the counts, and the time taken."""
        c = self.totals()
        converted = sum(c[s] for s in WRITTEN)
        # Kept byte for byte are written too (counted converted), and said: an upgrade of a folder already canonical
        # said "7 converted" of a run that changed nothing.
        kept = f" ({c['kept']} kept as they were)" if c["kept"] else ""
        parts = [f"{converted} converted{kept}", f"{c['carried']} field(s) carried", f"{c['dropped']} dropped",
                 f"{c['quarantined']} quarantined"]
        if c["refused"]:
            parts.append(f"{c['refused']} refused")
        if c["foreign"]:
            parts.append(f"{c['foreign']} other file(s) kept")
        warned = c["warnings"] - sum(1 for n in self.notices() if n["kind"] in INFORMATIVE_KINDS)
        if warned:
            parts.append(f"{warned} warning(s)")
        if self.differences:
            parts.append(f"{len(self.differences)} file(s) would change")
        took = f" in {_duration(seconds)}" if seconds is not None else ""
        verb = "stopped" if self.stopped else "checked" if self.command == "check" else \
            ("OUT is stale" if self.differences else "OUT is up to date") if getattr(self, "checking", False) else \
            "previewed" if self.dry_run else "done"
        return f"memconv {self.command}: {verb}{took}: " + ", ".join(parts) + f" (exit {self.exit_code})"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes} min {rest:02d} s"


def _listed(what: str, items: list[str], verbose: bool, shown: int) -> list[str]:
    """Each item on its line; past ``shown`` (unless verbose), the first few and how many more."""
    if not items:
        return []
    if verbose or len(items) <= shown:
        return [f"  {what} {item}" for item in items]
    return [f"  {what}: {len(items)} file(s); the first {shown}:"] + [f"    {item}" for item in items[:shown]] \
        + [f"    … and {len(items) - shown} more (-v lists all; --json has every one)"]


#: Kinds of notices that say all is well, or what was done: ``note:``, and not counted as warnings.
INFORMATIVE_KINDS = ("nothing-to-do", "backup", "placeholder")


def _label(notice: dict[str, Any]) -> str:
    return "note" if notice["kind"] in INFORMATIVE_KINDS else "warning"


def _named(notice: dict[str, Any]) -> str | None:
    """What a notice is of, for a person: its file, after its side in a merge (``B: memory/x.md``), as written."""
    side, path = notice.get("side"), notice["path"]
    return f"{side}: {path}" if side and path else side or path


#: How much of one warning the summary shows: a warning naming every record it is about (memspec's
#: undated records, 1,500 ids at 2,000 entries) is cut after its first names there; -v and --json have it whole.
CLIPPED_AT = 400


def _clipped(message: str) -> str:
    """``message``, or its first :data:`CLIPPED_AT` characters cut at a list's comma, and what is left out."""
    if len(message) <= CLIPPED_AT:
        return message
    cut = message.rfind(", ", 0, CLIPPED_AT)
    cut = cut if cut > CLIPPED_AT // 2 else CLIPPED_AT
    more = message[cut:].count(", ") if message[cut:cut + 2] == ", " else 0
    rest = f"and {more} more" if more else "and more"
    return f"{message[:cut]} … {rest} (-v or --json has the whole warning)"


def _grouped(notices: list[dict[str, Any]], shown: int) -> list[str]:
    """Warnings by kind: a count, what they say, and the first few names."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for n in notices:
        kind = next((k for k in NOTICE_KINDS if k.name == n["kind"]), None)
        key = (n["kind"], kind.plain if kind and kind.plain else n["message"])
        groups.setdefault(key, []).append(n)
    lines = []
    for (name, plain), items in groups.items():
        if len(items) == 1:
            n = items[0]
            message = _clipped(n["message"])
            lines.append(f"  {_label(n)}: {_named(n)}: {message}" if _named(n) else f"  {_label(n)}: {message}")
            continue
        if len({n["message"] for n in items}) == 1:
            plain = _clipped(items[0]["message"])  # they all say the same: in their own words
        names = list(dict.fromkeys(_named(n) for n in items if _named(n)))  # a file warned of twice: named once
        first = ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
        lines.append(f"  warning ({len(items)}×) {plain}" + (f": {first}" if first else ""))
    return lines


@dataclass
class DetectReport(Report):
    """``detect``: the common report plus every dialect's opinion and the finding."""

    #: ``one store``, ``several stores`` or ``nothing``.
    finding: str | None = None
    #: Surest first: dialect, version, confidence, evidence, hint, where.
    detections: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class DialectsReport(Report):
    """``dialects``: the common report plus each dialect's versions and ladder steps."""

    dialects: list[dict[str, Any]] = field(default_factory=list)
