"""``memconv merge A B OUT``, and ``convert … IN --into EXISTING``: merging stores (issue 11).

Registered on the ``memconv`` group by one line at the end of :mod:`memconv.cli`.
Exit statuses: 0 merged; 1 ``--check`` found OUT stale; 2 usage (the two
stores are not of one dialect, OUT overlaps one, or the dialect has no merge
rules yet); 3 merged, but a file was quarantined; 4 nothing done (a store
cannot be read, OUT cannot be written); 6 merged, with conflicts kept side by
side. ``--into`` (:func:`convert_into`), reached from ``memconv convert`` and
every ``X-to-Y`` shorthand, has the same statuses. See docs/merge.md. The
report, ``-q``/``-v`` and the closing line are the other commands'
(:mod:`memconv.cli`).
"""

from __future__ import annotations

from pathlib import Path

import click

import contextlib
import os

from . import dialects, fs, pipeline, preview
from .errors import MemconvError, UsageError
from .fs import check_out, list_files, write_tree
from .merge import MergeReport, merge

_DIALECTS = list(dialects.MODULES)


def _guard(inputs: tuple[Path, ...], out: Path) -> None:
    """Inputs are never written: OUT may not be an input, lie inside one, or contain one.

    Compared on ``os.path.realpath``, as convert's and --into's guards compare: ``Path.resolve`` raised
    ``RuntimeError`` on a link loop (exit 70, "a bug") where the other commands name the loop, exit 4."""
    b = Path(os.path.realpath(out))
    for path in inputs:
        a = Path(os.path.realpath(path))
        if a == b or a in b.parents or b in a.parents:
            raise UsageError(f"{out}: the output would overlap the input store {path}",
                               hint="choose an OUT outside both stores; merge never writes into its inputs")


def diffs(a_path: Path, files: dict[str, bytes], on_disk: set[str] | None = None) -> list[dict[str, str]]:
    """``files`` against the folder ``a_path`` (its files ``on_disk``, default all), file by file: what would change."""
    with fs.noting_refusals(a_path if a_path.is_dir() else None):  # listed and read within that folder only
        if on_disk is None:
            on_disk = set(list_files(a_path)) if a_path.is_dir() else set()
        before_all = {path: fs.read_bytes(a_path, path) for path in on_disk}
    # The one differ of every writing command: each entry says its change, and a file that moves is a rename
    # (docs/cli.md, --diff). This function had its own, with neither.
    return preview.changes(before_all, dict(files))


def _merge_instead(side: str, a_path, b_path, out_path):
    """``(dialect, folder) → the merge to run``: the same merge, the store ``side`` (``A`` or ``B``) read as it is."""
    import shlex

    def line(dialect: str, folder) -> str:
        a, b = (folder, b_path) if side == "A" else (a_path, folder)
        return f"memconv merge --from {dialect} " + " ".join(shlex.quote(str(p)) for p in (a, b, out_path))
    return line


@click.command(name="merge")
@click.option("--from", "source", type=click.Choice(_DIALECTS),
              help="Dialect of A and B (default: detected; both must be the same).")
@click.argument("a_path", metavar="A", type=click.Path(path_type=Path))
@click.argument("b_path", metavar="B", type=click.Path(path_type=Path))
@click.argument("out_path", metavar="OUT", type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Show the preview and the report; write nothing.")
@click.option("--force", is_flag=True, help="Replace OUT even if it is not empty.")
@click.option("--json", "as_json", is_flag=True, help="Print the full report (every record's outcome) as JSON on stdout.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print OUT against A as a git patch (git apply turns A into OUT); write nothing.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 if OUT is not already what the merge would write, 0 if it is.")
def merge_command(source, a_path, b_path, out_path, dry_run, force, as_json, show_diff, check_only):
    """Merge the stores A and B (one dialect) into a new store OUT.

    Every record is listed as added, updated (which side won, and why),
    unchanged, or conflict (both copies kept: the other one beside it). A and B
    are never written. Exit 6 when conflicts were kept; see docs/merge.md.
    """
    from . import cli, progress

    report = cli.begin_report(MergeReport(command="merge", input=f"{a_path} + {b_path}",
                                    inputs=[str(a_path), str(b_path)]))
    try:
        for side, path in (("A", a_path), ("B", b_path)):
            # --from names what both stores are: one of another dialect is refused, exit 2, as convert, migrate and
            # check refuse it (a claude store merged by memoir's rules wrote an unlinked MEMORY.conflict-….md).
            report.warnings += pipeline.confirm_dialect(path, source, _merge_instead(side, a_path, b_path, out_path))
        found = [pipeline.resolve_dialect(p, source) for p in (a_path, b_path)]
        report.source_dialect = report.target_dialect = found[0]
        if found[0] != found[1]:
            from .merge import MergeRefused

            raise MergeRefused(f"{a_path} is a {found[0]} store and {b_path} a {found[1]} store",
                               hint="merge takes two stores of one dialect; convert one first, or pass --from")
        _guard((a_path, b_path), out_path)
        with progress.task("reading"):
            stores = [pipeline.read_to_merge(p, found[0]) for p in (a_path, b_path)]
        result = merge(*stores)
        report.add(result.outcomes)
        report.warnings.extend(result.warnings)
        report.quarantined.extend(result.quarantined)
        for side, store, path in zip("AB", stores, (a_path, b_path)):
            report.migrations.extend(f"{side}: {step}" for step in store.migrations)
            # A file the listing would not read (over --max-file-size, a link out of the folder) is not in the
            # merge, so not in OUT: named, as convert names it, and the run exits 3. It was left out in silence.
            report.refused.extend({"path": fs.display(str(path / refused)), "reason": reason}
                                  for refused, reason in store.refused)
        report.output = str(out_path)
        report.settle_exit()
        if check_only:
            cli.preview_files(report, result.files, out_path, show_diff=show_diff, check_only=True)
        elif show_diff:
            report.dry_run = True
            report.differences = diffs(a_path, result.files)
        elif dry_run:
            report.dry_run = True
            check_out(out_path, force)
        else:
            with progress.task("writing", total=len(result.files) + 1):
                write_tree(result.files, out_path, force=force)
            report.written = True
    except MemconvError as exc:
        cli.fail_report(report, exc, as_json)
    cli.finish_report(report, as_json, preview_lines=report.preview(cli.is_verbose() or report.dry_run))


def convert_into(command, source, target, in_path, out_path, into, *, dry_run, force, as_json, lossy, fail_on_loss,
                 date, show_diff, check_only=False) -> None:
    """``memconv convert --from X --to Y IN --into EXISTING``: IN imported into the Y store EXISTING, in place.

    IN is converted in memory, merged into EXISTING by Y's merge rules (every
    record listed as added, updated, unchanged or conflict, "from IN" or "from
    EXISTING"), and the result swapped into place under EXISTING's lock after
    a verified backup beside it, as ``upgrade --in-place`` does. Exits as
    ``memconv merge`` does: 0, 2, 3, 4, 5 (--fail-on-loss), 6.
    """
    from . import cli, lock, upgrade
    from .merge import into as importing
    from .report import EXIT_DIFFERENCES, EXIT_LOSS

    cli.start_report(command, in_path)
    report = cli.begin_report(MergeReport(command=command, input=str(in_path),
                                    inputs=[str(into), str(in_path)] if into else []))
    try:
        if into is None:
            raise UsageError("give OUT, or --into EXISTING", hint=f"memconv {command} IN OUT, or "
                                                                   f"memconv {command} IN --into EXISTING")
        if out_path is not None:
            raise UsageError("give either OUT or --into EXISTING, not both",
                             hint="OUT writes a new store; --into imports into an existing one in place")
        if force:
            raise UsageError("--force does not apply to --into",
                             hint="--into never replaces EXISTING: it merges into it, after a backup")
        report.warnings += pipeline.confirm_dialect(in_path, source, cli.suggest_instead(command, target, None))
        source = pipeline.resolve_dialect(in_path, source)
        importing.guard(in_path, into)
        importing.confirm_existing(into, target)
        in_store = pipeline.read(in_path, source)
        previewing = dry_run or show_diff or check_only  # a preview writes and clears nothing (docs/cli.md)
        with contextlib.ExitStack() as held:
            if not previewing:  # the whole read, merge, backup and swap: two runs never interleave
                held.enter_context(lock.held(into))
                for folder in upgrade.beside(into):
                    fs.sweep_stale(folder)
            planned = importing.plan(in_store, target, into, report, lossy=lossy, date=date, in_path=in_path)
            report.output = str(into)
            dropped = [f"{f.source}: {name}" for f in report.files for name in f.dropped]
            if fail_on_loss and dropped:
                report.errors.append(f"{len(dropped)} field(s) would be dropped; nothing was written")
                report.exit_code = EXIT_LOSS
                report.dry_run = previewing  # a preview refused is still a preview (docs/cli.md)
                cli.finish_report(report, as_json)
            report.add(planned.outcomes)
            report.warnings.extend(planned.warnings)
            for q in planned.existing.quarantined:
                report.quarantined.append({"path": fs.display(q.path), "line": q.line, "reason": q.reason,
                                           "kept_at": f"{fs.display(q.path)} (EXISTING's own file, kept as it is)"})
            report.migrations.extend(f"EXISTING: {step}" for step in planned.existing.migrations)
            # EXISTING's files the listing would not read: kept where they are, but merged with nothing (docs/merge.md
            # says exit 3 for them; they were not named).
            report.refused.extend({"path": fs.display(str(into / path)),
                                   "reason": f"{reason}; kept in EXISTING as it is"}
                                  for path, reason in planned.existing.refused)
            if show_diff or check_only:  # --diff and --check write nothing (docs/cli.md)
                report.differences = diffs(into, planned.files, planned.compared)
                report.print_diffs = show_diff
                report.checking = check_only
            if not planned.changes:
                report.warnings.append("nothing to change: EXISTING already holds everything of IN; no backup made")
            elif previewing:
                report.dry_run = True
            else:
                upgrade.backed_up_and_replaced(planned.files, into, planned.read, report.warnings, "EXISTING")
                report.written = True
        report.settle_exit()  # 3 for a file of IN or EXISTING quarantined or refused
        if check_only and planned.changes:
            report.exit_code = EXIT_DIFFERENCES
    except MemconvError as exc:
        cli.fail_report(report, exc, as_json)
    cli.finish_report(report, as_json, preview_lines=report.preview(cli.is_verbose() or report.dry_run))
