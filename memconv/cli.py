"""The ``memconv`` command: convert, detect, check, migrate, upgrade, merge, dialects.

Every command takes ``--json`` (the full report on stdout, one shape for all:
docs/report.md), ``-q`` and ``-v``; every command that writes takes
``--dry-run``, ``--diff`` and ``--check``. Errors are one line naming the file
and what to do, never a traceback. Exit statuses are one table,
:data:`memconv.report.EXIT_STATUSES`, shown by ``memconv --help`` and in docs/cli.md.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import dataclasses
import errno
import functools
import io
import os
import re
import shlex
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

import click

from . import dialects, fs, jobs, limits, lock, pipeline, preview, progress
from .errors import MemconvError, Unstreamable, UsageError
from .fs import check_out, write_tree
from .model import written_in_pieces
from .report import (EXIT_BROKEN_PIPE, EXIT_BUG, EXIT_DIFFERENCES, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_LOSS, EXIT_OK,
                     EXIT_TERMINATED, EXIT_USAGE, DetectReport, DialectsReport, Report, exit_table)

DIALECTS = list(dialects.MODULES)

_json_option = click.option("--json", "as_json", is_flag=True,
                            help="Print the full report as JSON on stdout (one shape for every command: docs/report.md).")
_dry_run_option = click.option("--dry-run", is_flag=True, help="Show the plan and the report; write nothing.")
_force_option = click.option("--force", is_flag=True, help="Replace OUT even if it is not empty.")
_diff_option = click.option("--diff", "show_diff", is_flag=True,
                            help="Print what would change in OUT as a git patch (git apply turns OUT into what "
                                 "the run writes); write nothing.")
_check_option = click.option("--check", "check_only", is_flag=True,
                             help="Write nothing; exit 1 if OUT is not already what this command would write, "
                                  "0 if it is (like black --check).")

#: ``-q`` / ``-v`` of the command running now.
_quiet: contextvars.ContextVar[bool] = contextvars.ContextVar("memconv_quiet", default=False)
_verbose: contextvars.ContextVar[bool] = contextvars.ContextVar("memconv_verbose", default=False)
#: Whether ``--json`` is on the command line (read before click parses it, so usage errors honour it too).
_as_json: contextvars.ContextVar[bool] = contextvars.ContextVar("memconv_as_json", default=False)
#: When the command started (``time.monotonic()``), for the closing line.
_started: contextvars.ContextVar[float | None] = contextvars.ContextVar("memconv_started", default=None)


def is_verbose() -> bool:
    """Whether ``-v``/``--verbose`` was given to the command running (cli_merge asks)."""
    return _verbose.get()


def _set(var: contextvars.ContextVar):
    def callback(ctx, param, value):
        if value:
            var.set(True)
        return value
    return callback


_quiet_option = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set(_quiet),
                             help="Print only errors on stderr (JSON, diffs and detect's answer still print).")
_verbose_option = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_set(_verbose),
                               help="List every warning, file and change on its own line instead of grouping them.")


def _voice_options(command):
    """What every command takes: ``--json``, ``-q``, ``-v``."""
    return _json_option(_quiet_option(_verbose_option(command)))


def _preview_options(command):
    """What every writing command takes besides its own: ``--dry-run``, ``--diff``, ``--check``, ``--force``."""
    return _dry_run_option(_diff_option(_check_option(_force_option(command))))


class _Folder(click.ParamType):
    """A path argument: never empty (``""`` would mean the current folder), never holding NUL."""

    name = "path"

    def convert(self, value, param, ctx):
        if isinstance(value, Path):
            return value
        if value == "":
            self.fail("an empty path; give a folder (use . for the current one)", param, ctx)
        if "\x00" in value:
            self.fail("a path with a NUL character", param, ctx)
        return Path(value)


_SIZE = re.compile(r"^\s*(\d+)\s*([kKmMgG]i?[bB]?|[bB])?\s*$")


def _max_file_size(ctx, param, value):
    if value is None:
        return None
    match = _SIZE.match(value)
    if not match or int(match[1]) <= 0:
        raise click.BadParameter("give a size in bytes, or with K, M or G (64M, 1G)")
    unit = (match[2] or "b")[0].lower()
    size = int(match[1]) * {"b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[unit]
    limits.set_limits(max_file_size=size)
    return size


def _max_depth(ctx, param, value):
    if value is not None:
        limits.set_limits(max_depth=value)
    return value


_max_file_size_option = click.option("--max-file-size", callback=_max_file_size, expose_value=False, metavar="SIZE",
                                     is_eager=True,
                                     help="Refuse (by name, unread) any file larger than this; default 64M.")
_max_depth_option = click.option("--max-depth", callback=_max_depth, expose_value=False, metavar="N",
                                 type=click.IntRange(min=1, max=limits.DEEPEST), is_eager=True,
                                 help="Quarantine a file whose YAML or JSON nests deeper than this; default 100, "
                                      f"at most {limits.DEEPEST}.")


def _jobs(ctx, param, value):
    jobs.set_jobs(value)  # always: None (the default, every core) resets what a previous run set
    return value


_jobs_option = click.option("--jobs", callback=_jobs, expose_value=False, metavar="N", is_eager=True,
                            type=click.IntRange(min=1, max=1024),
                            help="Spread the work on each record (rendering it; a conversion's read-back) "
                                 "over N processes; default: the number of cores. "
                                 "The output is the same bytes with any N.")


def _limits_option(command):
    """The bounds on the work one input file may cause (docs/limits.md), and --jobs."""
    return _jobs_option(_max_file_size_option(_max_depth_option(command)))
_in_arg = click.argument("in_path", metavar="IN", type=_Folder())
_out_arg = click.argument("out_path", metavar="OUT", type=_Folder())

#: The report of the command running now, so that a failure no command caught still prints it.
_current: contextvars.ContextVar[Report | None] = contextvars.ContextVar("memconv_report", default=None)


def begin_report(report: Report) -> Report:
    """Make ``report`` the one a failure prints; start the clock; show progress on a terminal."""
    _current.set(report)
    if _started.get() is None:
        _started.set(time.monotonic())
    if progress.wanted(sys.stderr, as_json=_as_json.get(), quiet=_quiet.get()):
        progress.show(sys.stderr)
    return report


def start_report(command: str, in_path: Path) -> Report:
    """The report of a command that reads IN; clears what killed runs left in the scratch folders."""
    report = begin_report(Report(command=command, input=str(in_path)))
    fs.confine(in_path)  # detection too lists nothing outside IN; main() releases it
    for folder in fs.scratch_dirs():
        fs.sweep_stale(folder)
    return report


def _elapsed() -> float | None:
    started = _started.get()
    return None if started is None else time.monotonic() - started


def finish_report(report: Report, as_json: bool, *, preview_lines: str = "") -> None:
    """Print the report (JSON on stdout with ``--json``; the summary, grouped, on stderr) and exit with its status."""
    quiet, verbose = _quiet.get(), _verbose.get()
    if as_json:
        click.echo(report.to_json())
    if preview_lines and not quiet:
        click.echo(preview_lines, err=as_json)
    if not quiet:
        click.echo(report.summary(verbose=verbose), err=True)
    if getattr(report, "print_diffs", True):
        for difference in report.differences:
            click.echo(difference["diff"], err=as_json, nl=False)
            if not difference["diff"] and not quiet:  # what no patch holds (preview.Unreadable): a folder, a FIFO…
                click.echo(f"  would change: {difference['path']} ({difference.get('change', 'modified')}; "
                           f"not in the patch: {difference.get('why', 'no diff')})", err=True)
    elif report.differences and not quiet:
        click.echo("\n".join(_few([f"  would change: {d['path']} ({d.get('change', 'modified')})"
                                   for d in report.differences], verbose)), err=True)
    if not quiet:
        click.echo(report.closing(_elapsed()), err=True)
    sys.exit(report.exit_code)


def _few(lines: list[str], verbose: bool, shown: int = 10) -> list[str]:
    """``lines``, or (unless verbose) the first few and how many more."""
    if verbose or len(lines) <= shown:
        return lines
    return lines[:shown] + [f"  … and {len(lines) - shown} more (-v lists all; --json has every one)"]


def fail_report(report: Report, exc: MemconvError, as_json: bool) -> None:
    _emit(report, exc.exit_code, "usage" if exc.exit_code == EXIT_USAGE else "error", exc.message, exc.hint,
          getattr(exc, "path", None), getattr(exc, "line", None), as_json)


def _emit(report: Report, code: int, kind: str, message: str, hint: str | None, path: str | None,
          line: int | None, as_json: bool) -> None:
    """Say why the command stopped: one line on stderr, and the report as JSON with ``--json``; exit ``code``."""
    text = message + (f" ({hint})" if hint else "")
    report.errors.append(text)
    report.exit_code = code
    report.error = {"kind": kind, "message": message, "hint": hint, "path": path, "line": line}
    if as_json:
        click.echo(report.to_json())
    said = "memconv" if report.command == "memconv" else f"memconv {report.command}"  # (an error before any command)
    click.echo(f"{said}: {'error' if code not in (130, 143) else 'stopped'}: {text}", err=True)
    sys.exit(code)


def _would_write(out: Path, paths) -> None:
    """``--dry-run``: the files OUT would get, a few of them unless ``-v``."""
    if _quiet.get():
        return
    lines = [f"would write {out / path}" for path in sorted(paths)]
    for line in _few(lines, _verbose.get()):
        click.echo(line, err=True)


def _write(report: Report, plan: pipeline.Plan, out: Path, dry_run: bool, force: bool, *, show_diff: bool = False,
           check_only: bool = False, against: Path | None = None) -> None:
    """Write OUT; or, with ``--dry-run``, ``--diff`` or ``--check``, say what would be written, and write nothing.

    ``against``: the folder ``--diff`` compares with when it is not OUT (IN, for ``migrate``).
    """
    report.output = str(out)
    if show_diff or check_only:
        preview_files(report, plan.iter_files(), out, show_diff=show_diff, check_only=check_only, against=against)
        return
    if dry_run:
        report.dry_run = True
        check_out(out, force)
        _would_write(out, plan.paths())
        return
    with progress.task("writing", total=plan.count() + 1), written_in_pieces():  # counted, not rendered twice
        # A stream: each file is written as it is rendered, and a store note a piece at a time as it is made.
        write_tree(plan.iter_files(), out, force=force)
    report.written = True


def preview_files(report: Report, files: Mapping[str, bytes] | Iterable[tuple[str, bytes]], out: Path, *,
                  show_diff: bool, check_only: bool, against: Path | None = None,
                  before: dict[str, bytes] | None = None) -> None:
    """``--diff`` and ``--check``: the changes writing ``files`` (a dict, or a stream of pairs) would make; exit 1
    under ``--check`` if any.

    ``--check`` compares with OUT as memconv would leave it (its manifest included); ``--diff`` alone
    compares with ``against`` when given (IN, for ``migrate``), else with OUT, holding only the files that differ
    (:func:`preview.changes_in`). ``before``: the files to compare with, when the caller has them (``upgrade
    --in-place``: the files it read).
    """
    report.dry_run = True
    pairs = files.items() if isinstance(files, Mapping) else files
    if before is not None:
        report.differences = preview.changes(before, dict(pairs))
    elif check_only or against is None:
        report.differences = preview.changes_in(out, pairs, manifest=True)
    else:
        report.differences = preview.changes_in(against, pairs, manifest=False)
    report.print_diffs = show_diff
    report.checking = check_only
    if check_only and report.differences:
        report.exit_code = EXIT_DIFFERENCES


def _os_message(exc: OSError) -> tuple[str, str | None, str | None]:
    """A failed system call as (message, hint, file), for a person."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        failed = exc.args[0]
        src, _, why = failed[0] if len(failed[0]) == 3 else (None, None, failed[0])
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        return f"{fs.display(str(src))}: could not be copied: {why}{more}", \
            "something changed or failed while memconv copied the folder; nothing was replaced", str(src)
    name = exc.filename if isinstance(exc.filename, str) else os.fsdecode(exc.filename) if exc.filename else None
    where = fs.display(name) if name else "a file"
    what = exc.strerror or str(exc)
    hints = {
        errno.ENOSPC: "the disk is full; OUT was not written, and no temporary folder is left",
        errno.EDQUOT: "the disk quota is used up; OUT was not written",
        errno.EROFS: "that file system is read-only; choose an OUT on a writable disk",
        errno.EACCES: "memconv may not read or write there; check the permissions",
        errno.EPERM: "memconv may not read or write there; check the permissions",
        errno.EIO: "the disk reported an input/output error; check it, then run again",
        errno.ENOENT: "it is missing: it vanished while memconv worked (is something else changing IN or OUT?), "
                      "or a folder on its path does not exist",
        errno.ENAMETOOLONG: "a name or path is too long for this file system",
        errno.ELOOP: "too many symbolic links (a loop?)",
        errno.ENOTDIR: "a part of the path is not a folder",
    }
    return f"{where}: {what}", hints.get(exc.errno), name


class _Memconv(click.Group):
    """The ``memconv`` group: every failure becomes a documented exit status and one line, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        argv = list(sys.argv[1:] if args is None else args)
        words = argv[:argv.index("--")] if "--" in argv else argv
        as_json = "--json" in words
        command = next((w for w in words if w in self.commands), "memconv")
        # Held back until the try below can answer them: a Ctrl-C between here and there was a traceback.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, fs.STOPPING_SIGNALS)
        restore = _handle_signals()
        token, bounds, confined = _current.set(None), limits.set_limits(limits.Limits()), fs.unconfine()
        voice = [_quiet.set(False), _verbose.set(False), _as_json.set(as_json), _started.set(None)]
        shown = progress.hide()
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            code = super().main(args=argv, prog_name=prog_name or "memconv", complete_var=complete_var,
                                standalone_mode=False, **extra)
            sys.exit(code if isinstance(code, int) else 0)
        except SystemExit:
            raise
        except _BrokenPipe:
            _quiet_stdout()
            sys.exit(EXIT_BROKEN_PIPE)
        except BaseException as exc:  # noqa: BLE001 — this is the one place every failure is turned into words
            report = _current.get() or Report(command=command, input="")
            _emit(report, *_describe(exc), as_json)
        finally:
            if args is None and threading.current_thread() is threading.main_thread():
                # The program is done and its status chosen: a signal now must not turn it into a kill.
                signal.pthread_sigmask(signal.SIG_BLOCK, fs.STOPPING_SIGNALS)
            # What a signal left between a temporary folder's making and the cleanup that owns it.
            fs.remove_leftovers()
            jobs.stop_all()  # and the workers of a conversion it stopped half-way
            progress.restore(shown)
            for var, value in zip((_quiet, _verbose, _as_json, _started), voice):
                var.reset(value)
            _current.reset(token)
            limits.reset_limits(bounds)
            fs.release(confined)
            restore()


    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # stdout closed early (`memconv … | head`): not a failure of memconv's
            raise _BrokenPipe() from None


class _BrokenPipe(Exception):
    """stdout was closed by its reader: exit 141 (a shell's status for SIGPIPE), quietly."""


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def _describe(exc: BaseException) -> tuple[int, str, str, str | None, str | None, int | None]:
    """(exit status, kind, message, hint, file, line) for any exception."""
    stopped = _stopped_by(exc)
    if isinstance(stopped, KeyboardInterrupt):
        return EXIT_INTERRUPTED, "interrupted", "interrupted (Ctrl-C)", \
            "nothing half-written was left: OUT is absent or complete, temporary folders are removed", None, None
    if isinstance(stopped, fs.Terminated):
        return EXIT_TERMINATED, "interrupted", "terminated (SIGTERM)", \
            "nothing half-written was left: OUT is absent or complete, temporary folders are removed", None, None
    if isinstance(exc, click.exceptions.Abort):
        return EXIT_INTERRUPTED, "interrupted", "aborted", None, None, None
    if isinstance(exc, click.ClickException):
        hint = None
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f"see {exc.ctx.command_path} --help"
        return EXIT_USAGE, "usage", exc.format_message(), hint, None, None
    if isinstance(exc, MemconvError):
        return exc.exit_code, "usage" if exc.exit_code == EXIT_USAGE else "error", exc.message, exc.hint, \
            getattr(exc, "path", None), getattr(exc, "line", None)
    if isinstance(exc, OSError):
        message, hint, name = _os_message(exc)
        return EXIT_ERROR, "system", message, hint, name, None
    last = fs.last_read.get()
    last = fs.display(last) if last else last
    where = f" (the last file read was {last})" if last else ""
    if isinstance(exc, RecursionError):
        return EXIT_ERROR, "input", f"input nested too deeply to read{where}", \
            "that file is quarantined by name when the reader catches it; this one was not: please report it", \
            last, None
    if isinstance(exc, MemoryError):
        return EXIT_ERROR, "input", f"ran out of memory{where}", "lower --max-file-size, or free memory", last, None
    plugin = dialects.failed_plugin(exc)  # a dialect plugin's own code raised it: for its author, not memconv's
    if plugin is not None:
        return plugin.exit_code, "error", plugin.message + where, plugin.hint, last, None
    return EXIT_BUG, "bug", f"this is a bug in memconv, please report it: {type(exc).__name__}: {exc}{where}", \
        None, last, None


def _stopped_by(exc: BaseException | None) -> BaseException | None:
    """The Ctrl-C (KeyboardInterrupt) or SIGTERM (fs.Terminated) ``exc`` is, or was raised from or while
    handling, else None. A signal landing in code that wraps what it catches comes out as another error: a
    module imported as the command runs (a dataclass's ``__set_name__`` makes it a RuntimeError), click (Abort).
    Such a run was stopped by the user, not by a bug: it exits 130 or 143, not 70."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, (KeyboardInterrupt, fs.Terminated)):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ if exc.__cause__ is not None else exc.__context__
    return None


def _handle_signals():
    """SIGTERM unwinds like Ctrl-C (cleanups run, exit 143); returns what puts the old handlers back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def terminated(signum, frame):
        raise fs.Terminated()

    old_term = signal.signal(signal.SIGTERM, terminated)
    old_int = signal.getsignal(signal.SIGINT)
    if old_int != signal.SIG_IGN:  # a run started with Ctrl-C ignored (nohup, `&` in a script) keeps it so
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # A handler runs wherever the program is, also inside a callback Python cannot raise from (a weakref's,
    # a __del__): there its exception was printed as "Exception ignored in…", with a traceback, and the
    # signal was lost (the run went on to exit 0). Such an exception goes to sys.unraisablehook: it is
    # raised again a moment later, by SIGALRM's handler, in the code that runs next.
    # Without SIGALRM (Windows) such a signal is lost, as before.
    again: list[BaseException] = []
    old_hook = sys.unraisablehook
    old_alarm = signal.getsignal(signal.SIGALRM) if hasattr(signal, "setitimer") else None

    def unraisable(info):
        if isinstance(info.exc_value, (fs.Terminated, KeyboardInterrupt)):
            again.append(info.exc_value)
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        old_hook(info)

    def alarm(signum, frame):
        if again:
            raise again.pop()

    if old_alarm is not None:
        sys.unraisablehook = unraisable
        signal.signal(signal.SIGALRM, alarm)

    def restore():
        if old_alarm is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_alarm)
            sys.unraisablehook = old_hook
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGINT, old_int)

    return restore


def _epilog() -> str:
    """The exit statuses, from the one table in report.py (``\\b`` keeps click from rewrapping it)."""
    return "\b\nExit statuses (docs/cli.md):\n" + exit_table(markdown=False)


@click.group(cls=_Memconv, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
             epilog=_epilog())
@click.version_option(package_name="memconv")
def main() -> None:
    """Convert AI-agent memory stores between memoir, claude, memspec and memfmt, losing nothing.

    Every command takes --json (one report shape: docs/report.md), -q and -v;
    every command that writes takes --dry-run, --diff and --check.
    """


def _iso_date(ctx, param, value):
    if value is not None:
        from .dialects.protocol import is_day

        if not is_day(value):  # the one rule the writers' occasion holds a day to, asked before IN is read
            raise click.BadParameter("give a date as YYYY-MM-DD")
    return value


_date_option = click.option("--date", callback=_iso_date, metavar="YYYY-MM-DD",
                            help="Day stamped where the target needs a date the store lacks (memfmt's MEMORY.md, "
                                 "memspec's undated records); default: from the store.")
_lossy_option = click.option("--lossy", is_flag=True,
                             help="Write clean target files with no memconv carry; list exactly what was dropped.")
_fail_on_loss_option = click.option("--fail-on-loss", is_flag=True,
                                    help="Exit 5 (writing nothing) if anything would be dropped.")


def _convert(command, source, target, in_path, out_path, *, dry_run, force, as_json, lossy, fail_on_loss, date=None,
             show_diff=False, check_only=False, into=None):
    if into is not None or out_path is None:  # issue 11: import into an existing store (docs/merge.md)
        from .cli_merge import convert_into

        convert_into(command, source, target, in_path, out_path, into, dry_run=dry_run, force=force,
                     as_json=as_json, lossy=lossy, fail_on_loss=fail_on_loss, date=date, show_diff=show_diff,
                     check_only=check_only)
    report = start_report(command, in_path)
    try:
        with fs.listings_kept():  # IN is listed once, for its detection and its reader
            report.warnings += pipeline.confirm_dialect(in_path, source, suggest_instead(command, target, out_path))
            source = pipeline.resolve_dialect(in_path, source)
            _guard_in_out(in_path, out_path)
            with progress.task("reading"):
                store = pipeline.read(in_path, source, **_for_conversion(source, target))
        planned = copy.deepcopy(report)
        # The records are handed over: each is let go once converted, and where the target splices, each file
        # is written as soon as it is made (docs/performance.md); --fail-on-loss needs the report first.
        lazy = not fail_on_loss
        try:
            _convert_and_write(report, store, target, out_path, lossy=lossy, date=date, lazy=lazy, dry_run=dry_run,
                               force=force, fail_on_loss=fail_on_loss, as_json=as_json, show_diff=show_diff,
                               check_only=check_only)
        except Unstreamable:
            # A record the target cannot hold after all, met once the write had begun (nothing is left of it):
            # again, the whole store held, and the report as it was before the conversion.
            for name in (f.name for f in dataclasses.fields(report)):
                setattr(report, name, getattr(planned, name))
            with progress.task("reading"):
                store = pipeline.read(in_path, source, **_for_conversion(source, target))
            _convert_and_write(report, store, target, out_path, lossy=lossy, date=date, lazy=False, dry_run=dry_run,
                               force=force, fail_on_loss=fail_on_loss, as_json=as_json, show_diff=show_diff,
                               check_only=check_only)
    except MemconvError as exc:
        fail_report(report, exc, as_json)
    finish_report(report, as_json)


def _for_conversion(source: str, target: str) -> dict:
    """What reading for a conversion from ``source`` to ``target`` does to each record and each index as it is read
    (``pipeline.read``'s ``each`` and ``each_index``): into another dialect, its file's layout is let go
    (:func:`memconv.converters.forward.unformatted`, :func:`~memconv.converters.forward.unformatted_index`), and the
    record is held packed until it is converted (``hold``: :func:`~memconv.converters.forward.held`)."""
    if source == target:
        return {}
    from .converters.forward import held, unformatted, unformatted_index

    return {"each": unformatted, "each_index": functools.partial(unformatted_index, target=target), "hold": held}


def _convert_and_write(report, store, target, out_path, *, lossy, date, lazy, dry_run, force, fail_on_loss, as_json,
                       show_diff, check_only):
    with progress.task("converting", unit="record", ticking=True):
        plan = pipeline.plan(store, target, report, lossy=lossy, date=date, release=True, lazy=lazy)
    # Counted, not listed: the report names them, and a list held through the write was 20 MB at 100,000 entries.
    dropped = sum(len(f.dropped) for f in report.files) if fail_on_loss else 0
    if dropped:
        plan.drain()  # what the write would have said (an undated record…) is in the report too
        report.errors.append(f"{dropped} field(s) would be dropped; nothing was written")
        report.exit_code = EXIT_LOSS
        report.dry_run = dry_run or show_diff or check_only  # a preview refused is still a preview (docs/cli.md)
        report.output = str(out_path)
        finish_report(report, as_json)
    _write(report, plan, out_path, dry_run, force, show_diff=show_diff, check_only=check_only)


_into_option = click.option("--into", "into", metavar="EXISTING", type=_Folder(),
                            help="Import IN into this existing store of the target dialect, in place (no OUT): "
                                 "merged, under a lock, after a verified backup (docs/merge.md).")
_optional_out_arg = click.argument("out_path", metavar="[OUT]", required=False, type=_Folder())

#: What every converting command takes, in order: IN, OUT (or --into EXISTING), the writing, preview and loss
#: options, the bounds. A new option goes here once, and its value reaches :func:`_convert` as a keyword of the
#: same name.
_CONVERSION_OPTIONS = [_in_arg, _optional_out_arg, _into_option, _preview_options, _voice_options,
                       _lossy_option, _fail_on_loss_option, _date_option, _limits_option]


def _conversion_options(command):
    """What every converting command takes: :data:`_CONVERSION_OPTIONS`."""
    for option in reversed(_CONVERSION_OPTIONS):
        command = option(command)
    return command


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@click.option("--to", "target", type=click.Choice(DIALECTS), required=True, help="Dialect to write.")
@_conversion_options
def convert(source, target, **options):
    """Convert the store IN into a new store OUT, or import it into an existing store (--into EXISTING)."""
    _convert("convert", source, target, **options)


def _shorthand(source: str, target: str) -> None:
    @main.command(name=f"{source}-to-{target}", help=f"Shorthand for `convert --from {source} --to {target}`.")
    @_conversion_options
    def pair(**options):
        _convert(f"{source}-to-{target}", source, target, **options)


for _source in DIALECTS:
    for _target in DIALECTS:
        if _source != _target:
            _shorthand(_source, _target)


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@_in_arg
@_out_arg
@_preview_options
@_voice_options
@_date_option
@_limits_option
def migrate(source, in_path, out_path, dry_run, force, as_json, date, show_diff, check_only):
    """Bring the store IN up to its dialect's current version, as OUT.

    --diff shows what migrating changes against IN; --check compares with OUT.
    """
    report = start_report("migrate", in_path)
    try:
        with fs.listings_kept():  # IN is listed once, for its detection and its reader
            report.warnings += pipeline.confirm_dialect(in_path, source, suggest_instead("migrate", None, out_path))
            source = pipeline.resolve_dialect(in_path, source)
            _guard_in_out(in_path, out_path)
            streamed = pipeline.streams(source)
            if streamed:  # each entry read, written and let go in turn
                _, plan = pipeline.stream_within(in_path, source, report, date=date)
            else:
                with progress.task("reading"):
                    store = pipeline.read(in_path, source)
        if not streamed:
            with progress.task("converting", ticking=True):
                plan = pipeline.plan(store, source, report, date=date)
        _write(report, plan, out_path, dry_run, force, show_diff=show_diff, check_only=check_only, against=in_path)
    except MemconvError as exc:
        fail_report(report, exc, as_json)
    finish_report(report, as_json)


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@click.option("--via", type=click.Choice(DIALECTS), help="Round-trip through this dialect and back.")
@_in_arg
@_voice_options
@_limits_option
def check(source, via, in_path, as_json):
    """Read IN, write it back in memory (through --via B and back), and show every file that would change."""
    report = start_report("check", in_path)
    try:
        report.warnings += pipeline.confirm_dialect(in_path, source, suggest_instead("check", via, None))
        source = pipeline.resolve_dialect(in_path, source)
        with progress.task("reading"):
            if via and via != source:
                pipeline.check_via(in_path, source, via, report)
            else:
                pipeline.check(in_path, source, report)
    except MemconvError as exc:
        fail_report(report, exc, as_json)
    if report.exit_code == EXIT_OK:
        report.warnings.append("round trip is byte-identical")
    finish_report(report, as_json)


@main.command()
@_in_arg
@_voice_options
@_limits_option
def detect(in_path, as_json):
    """Say which dialect and version IN is, with a hint when it looks like something else.

    The answer goes to stdout (to stderr with --json, whose report lists every detection).
    """
    report = begin_report(DetectReport(command="detect", input=str(in_path)))
    fs.confine(in_path)
    try:
        with fs.noting_refusals() as refusals:
            survey = dialects.survey(in_path)
    except MemconvError as exc:
        fail_report(report, exc, as_json)
    # What the listing would not read (a link out of IN, a FIFO) is named, as a converting command names it: a
    # store folder that is a link out would otherwise be described as a store with no entries, and no reason.
    report.refused.extend({"path": path, "reason": reason} for path, reason in fs.refused_under(in_path, refusals))
    refused_lines = [f"  refused {r['path']}: {r['reason']}" for r in report.refused]
    found, finding = survey.found, survey.finding
    report.finding = finding
    report.detections = [{"dialect": d.dialect, "version": d.version, "confidence": round(d.confidence, 3),
                          "evidence": d.evidence, "hint": d.hint, "where": d.where} for d in found]
    if found and finding == "one store":
        report.source_dialect = found[0].dialect
    if not found:
        report.exit_code = EXIT_ERROR
        message = f"{fs.display(str(in_path))}: {survey.describe()}"
        report.errors.append(message)
        report.error = {"kind": "error", "message": message, "hint": "name the folder that holds the store",
                        "path": None, "line": None}
        if as_json:
            click.echo(report.to_json())
        click.echo(message, err=True)
        for line in refused_lines:
            click.echo(line, err=True)
        sys.exit(EXIT_ERROR)
    if as_json:
        click.echo(report.to_json())
    if finding == "several stores":
        click.echo(f"{in_path}: several stores, one in each place; name the one to read with --from", err=as_json)
        for d in survey.stores:
            click.echo(f"  {d.dialect} (version {d.version}) at {d.where}: {d.evidence}", err=as_json)
            if d.hint:
                click.echo(f"    hint: {d.hint}", err=as_json)
        for line in refused_lines:
            click.echo(line, err=as_json)
        sys.exit(EXIT_OK)
    best = found[0]
    click.echo(f"{best.dialect} (version {best.version}): {best.evidence}", err=as_json)
    for other in found[1:]:
        click.echo(f"  also looks like {other.dialect} ({other.evidence})", err=as_json)
    if best.hint:
        click.echo(f"  hint: {best.hint}", err=as_json)
    for line in refused_lines:
        click.echo(line, err=as_json)
    sys.exit(EXIT_OK)


@main.command()
@_in_arg
@click.argument("out_path", metavar="[OUT]", required=False, type=_Folder())
@click.option("--in-place", is_flag=True,
              help="Upgrade IN where it stands, after copying it whole to a timestamped backup beside it "
                   "(under ~/.claude/memconv-backups for a folder in ~/.claude/projects).")
@_preview_options
@_voice_options
@_limits_option
def upgrade(in_path, out_path, in_place, dry_run, force, as_json, show_diff, check_only):
    """Upgrade a legacy Claude Code memory folder IN to a canonical memoir v0.1.2 store.

    With OUT, IN is left alone and OUT gets a memoir store (memory/*.md). With
    --in-place, the folder keeps its place (and its flat layout, so Claude Code
    still loads it) and the originals go to IN.memconv-backup-<time> beside it (a folder in
    ~/.claude/projects: at the same path in ~/.claude/memconv-backups, which memoir-cli does not recall).
    With --in-place, --diff and --check compare with IN.
    """
    from . import upgrade as upgrading

    report = start_report("upgrade", in_path)
    try:
        if in_place == (out_path is not None):
            raise UsageError("give either OUT or --in-place", hint="memconv upgrade IN OUT, or memconv upgrade --in-place IN")
        if in_place:
            with contextlib.ExitStack() as held:
                previewing = dry_run or show_diff or check_only
                if not previewing:  # the whole read, backup and swap, so that two runs never interleave
                    held.enter_context(lock.held(in_path))
                    for folder in upgrading.beside(in_path):
                        fs.sweep_stale(folder)
                with progress.task("reading"):
                    planned = upgrading.plan(in_path, report, shape="flat", in_place=True)
                report.output = str(in_path)
                if show_diff or check_only:
                    before = {p: fs.read_bytes(in_path, p) for p in sorted(planned.read)}
                    after = dict(planned.files)
                    for path, text in planned.links.items():  # a link the swap re-points: its text, as git diffs it
                        before[path], after[path] = os.fsencode(os.readlink(in_path / path)), os.fsencode(text)
                    preview_files(report, after, in_path, show_diff=show_diff, check_only=check_only, before=before)
                elif not planned.changes_in:
                    report.warnings.append("already upgraded: nothing to change, no backup made")
                elif dry_run:
                    report.dry_run = True
                    _would_write(in_path, [*planned.files, *planned.links])
                else:
                    with progress.task("writing", total=len(planned.files)):
                        upgrading.backed_up_and_replaced(planned.files, in_path, planned.read, report.warnings,
                                                         moved=planned.moved, links=planned.links)
                    report.written = True
        else:
            _guard_in_out(in_path, out_path)
            with progress.task("reading"):
                planned = upgrading.plan(in_path, report)
            _write(report, pipeline.Plan(planned.files, report), out_path, dry_run, force, show_diff=show_diff,
                   check_only=check_only)
    except MemconvError as exc:
        fail_report(report, exc, as_json)
    finish_report(report, as_json)


#: Each dialect's versions in words: what it reads (besides its ladder's versions) and what it writes.
def _ladders(dialect: str) -> list[dict]:
    """The migration ladders ``dialect`` declares (its ``LADDERS``, docs/plugins.md): versions and steps."""
    out: list[dict] = []
    for ladder in dialects.declaration(dialect, "LADDERS"):
        if not any(ladder.subject == o["subject"] for o in out):
            out.append({"subject": ladder.subject, "versions": [str(v) for v in ladder.versions],
                        "current": str(ladder.current),
                        "steps": [{"from": str(v), "to": str(ladder.versions[i + 1]), "does": ladder.describe[v]}
                                  for i, v in enumerate(ladder.versions[:-1])]})
    return out


@main.command(name="dialects")
@_voice_options
def dialects_command(as_json):
    """List each dialect: the versions it reads and writes, its migration ladder's steps, and whether it merges."""
    from .merge import merges

    report = begin_report(DialectsReport(command="dialects", input=""))
    for name in dialects.available():  # a plugin that breaks the contract is left out, with a warning
        reads, writes = dialects.declaration(name, "VERSIONS")
        report.dialects.append({"name": name, "reads": reads, "writes": writes, "ladders": _ladders(name),
                                "merges": merges(name)})
    if as_json:
        click.echo(report.to_json())
        sys.exit(EXIT_OK)
    for d in report.dialects:
        click.echo(f"{d['name']}\n  reads:  {d['reads']}\n  writes: {d['writes']}")
        if not d["ladders"]:
            click.echo("  ladder: none (nothing to migrate)")
        for ladder in d["ladders"]:
            click.echo(f"  ladder: {ladder['subject']}: {' → '.join(ladder['versions'])}"
                       + ("" if ladder["steps"] else " (one version: no step yet)"))
            for step in ladder["steps"]:
                click.echo(f"    {step['from']} → {step['to']}: {step['does']}")
        click.echo("  merge:  its own rules (memconv merge, convert --into; docs/merge.md)" if d["merges"]
                   else "  merge:  none: memconv merge and convert --into refuse its stores")
    sys.exit(EXIT_OK)


def suggest_instead(command: str, target: str | None, out_path: Path | None):
    """``(dialect, folder) → the command line to run``: the same command, for the store IN really is."""
    def line(dialect: str, folder: Path) -> str:
        out = f" {shlex.quote(str(out_path))}" if out_path is not None else ""
        where = shlex.quote(str(folder))
        if command == "check":
            return f"memconv check --from {dialect}" + (f" --via {target}" if target else "") + f" {where}"
        if command == "migrate" or dialect == target:
            return f"memconv migrate --from {dialect} {where}{out}"
        if command == "convert":
            return f"memconv convert --from {dialect} --to {target} {where}{out}"
        return f"memconv {dialect}-to-{target} {where}{out}"
    return line


def _guard_in_out(in_path: Path, out_path: Path) -> None:
    """IN is never written and never deleted: refuse an OUT that is IN, lies inside it, or holds it."""
    a, b = os.path.realpath(in_path), os.path.realpath(out_path)
    if a == b:
        raise UsageError(f"{fs.display(str(out_path))}: OUT is the input folder itself",
                         hint="choose an OUT outside IN; memconv never writes into its input")
    if b.startswith(a.rstrip(os.sep) + os.sep):
        raise UsageError(f"{fs.display(str(out_path))}: the output would be written inside the input store",
                         hint="choose an OUT outside IN; memconv never writes into its input")
    if a.startswith(b.rstrip(os.sep) + os.sep):
        raise UsageError(f"{fs.display(str(out_path))}: OUT holds the input store, and --force would delete it",
                         hint="choose an OUT that does not contain IN")


from .cli_merge import merge_command  # noqa: E402  (issue 11: `memconv merge`, docs/merge.md)
# The options every command takes, and the bounds on what one file of A or B may cost (no --jobs: a merge spreads
# nothing over workers).
main.add_command(_max_file_size_option(_max_depth_option(_quiet_option(_verbose_option(merge_command)))))
