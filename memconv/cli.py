"""The ``memconv`` command: convert, detect, check, migrate, upgrade.

Every command takes ``--json`` (the full report on stdout); every command that
writes takes ``--dry-run``. Errors are one line naming the file and what to do,
never a traceback. Exit statuses are listed in docs/cli.md.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click

from . import dialects, pipeline
from .errors import MemconvError
from .fs import check_out, write_tree
from .report import EXIT_ERROR, EXIT_LOSS, EXIT_OK, Report

DIALECTS = list(dialects.MODULES)

_json_option = click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON on stdout.")
_dry_run_option = click.option("--dry-run", is_flag=True, help="Show the plan and the report; write nothing.")
_force_option = click.option("--force", is_flag=True, help="Replace OUT even if it is not empty.")
_in_arg = click.argument("in_path", metavar="IN", type=click.Path(path_type=Path, file_okay=False))
_out_arg = click.argument("out_path", metavar="OUT", type=click.Path(path_type=Path))


def _finish(report: Report, as_json: bool) -> None:
    if as_json:
        click.echo(report.to_json())
    click.echo(report.summary(), err=True)
    for difference in report.differences:
        click.echo(difference["diff"], err=as_json, nl=False)
    sys.exit(report.exit_code)


def _fail(report: Report, exc: MemconvError, as_json: bool) -> None:
    report.errors.append(str(exc))
    report.exit_code = exc.exit_code
    if as_json:
        click.echo(report.to_json())
    click.echo(f"memconv {report.command}: error: {exc}", err=True)
    sys.exit(exc.exit_code)


def _write(report: Report, plan: pipeline.Plan, out: Path, dry_run: bool, force: bool) -> None:
    report.output = str(out)
    if dry_run:
        report.dry_run = True
        check_out(out, force)
        for path in sorted(plan.files):
            click.echo(f"would write {out / path}", err=True)
        return
    write_tree(plan.files, out, force=force)
    report.written = True


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="memconv")
def main() -> None:
    """Convert AI-agent memory stores between memoir, claude, memspec and memfmt, losing nothing."""


def _iso_date(ctx, param, value):
    if value is not None:
        import datetime

        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            raise click.BadParameter("give a date as YYYY-MM-DD") from None
    return value


_date_option = click.option("--date", callback=_iso_date, metavar="YYYY-MM-DD",
                            help="Date stamped on regenerated indexes (memfmt MEMORY.md); default: from the store.")
_lossy_option = click.option("--lossy", is_flag=True,
                             help="Write clean target files with no memconv carry; list exactly what was dropped.")
_fail_on_loss_option = click.option("--fail-on-loss", is_flag=True,
                                    help="Exit 5 (writing nothing) if anything would be dropped.")


def _convert(command, source, target, in_path, out_path, dry_run, force, as_json, lossy, fail_on_loss, date=None):
    report = Report(command=command, input=str(in_path))
    try:
        report.warnings += pipeline.confirm_dialect(in_path, source, _instead(command, target, out_path))
        source = pipeline.resolve_dialect(in_path, source)
        _guard_in_out(in_path, out_path)
        store = pipeline.read(in_path, source)
        plan = pipeline.plan(store, target, report, lossy=lossy, date=date)
        dropped = [f"{f.source}: {name}" for f in report.files for name in f.dropped]
        if fail_on_loss and dropped:
            report.errors.append(f"{len(dropped)} field(s) would be dropped; nothing was written")
            report.exit_code = EXIT_LOSS
            report.output = str(out_path)
            _finish(report, as_json)
        _write(report, plan, out_path, dry_run, force)
    except MemconvError as exc:
        _fail(report, exc, as_json)
    _finish(report, as_json)


def _conversion_options(command):
    """What every converting command takes: IN, OUT, and the writing and loss options."""
    for option in reversed((_in_arg, _out_arg, _dry_run_option, _force_option, _json_option, _lossy_option,
                            _fail_on_loss_option, _date_option)):
        command = option(command)
    return command


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@click.option("--to", "target", type=click.Choice(DIALECTS), required=True, help="Dialect to write.")
@_conversion_options
def convert(source, target, in_path, out_path, dry_run, force, as_json, lossy, fail_on_loss, date):
    """Convert the store IN into a new store OUT."""
    _convert("convert", source, target, in_path, out_path, dry_run, force, as_json, lossy, fail_on_loss, date)


def _shorthand(source: str, target: str) -> None:
    @main.command(name=f"{source}-to-{target}", help=f"Shorthand for `convert --from {source} --to {target}`.")
    @_conversion_options
    def pair(in_path, out_path, dry_run, force, as_json, lossy, fail_on_loss, date):
        _convert(f"{source}-to-{target}", source, target, in_path, out_path, dry_run, force, as_json, lossy,
                 fail_on_loss, date)


for _source in DIALECTS:
    for _target in DIALECTS:
        if _source != _target:
            _shorthand(_source, _target)


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@_in_arg
@_out_arg
@_dry_run_option
@_force_option
@_json_option
@_date_option
def migrate(source, in_path, out_path, dry_run, force, as_json, date):
    """Bring the store IN up to its dialect's current version, as OUT."""
    report = Report(command="migrate", input=str(in_path))
    try:
        report.warnings += pipeline.confirm_dialect(in_path, source, _instead("migrate", None, out_path))
        source = pipeline.resolve_dialect(in_path, source)
        _guard_in_out(in_path, out_path)
        store = pipeline.read(in_path, source)
        plan = pipeline.plan(store, source, report, date=date)
        _write(report, plan, out_path, dry_run, force)
    except MemconvError as exc:
        _fail(report, exc, as_json)
    _finish(report, as_json)


@main.command()
@click.option("--from", "source", type=click.Choice(DIALECTS), help="Dialect of IN (default: detected).")
@click.option("--via", type=click.Choice(DIALECTS), help="Round-trip through this dialect and back.")
@_in_arg
@_json_option
def check(source, via, in_path, as_json):
    """Read IN, write it back in memory (through --via B and back), and show every file that would change."""
    report = Report(command="check", input=str(in_path))
    try:
        report.warnings += pipeline.confirm_dialect(in_path, source, _instead("check", via, None))
        source = pipeline.resolve_dialect(in_path, source)
        if via and via != source:
            pipeline.check_via(in_path, source, via, report)
        else:
            pipeline.check(in_path, source, report)
    except MemconvError as exc:
        _fail(report, exc, as_json)
    if report.exit_code == EXIT_OK:
        report.warnings.append("round trip is byte-identical")
    _finish(report, as_json)


@main.command()
@_in_arg
@_json_option
def detect(in_path, as_json):
    """Say which dialect and version IN is, with a hint when it looks like something else."""
    try:
        survey = dialects.survey(in_path)
    except MemconvError as exc:
        _fail(Report(command="detect", input=str(in_path)), exc, as_json)
    found, finding = survey.found, survey.finding
    if as_json:
        rows = [{"dialect": d.dialect, "version": d.version, "confidence": round(d.confidence, 3),
                 "evidence": d.evidence, "hint": d.hint, "finding": finding} for d in found]
        if not found:  # the same shape, saying what was (not) seen
            rows = [{"dialect": None, "version": None, "confidence": 0.0, "evidence": survey.describe(),
                     "hint": "name the folder that holds the store", "finding": finding}]
        click.echo(json.dumps(rows, indent=2))
    if not found:
        click.echo(f"{in_path}: {survey.describe()}", err=True)
        sys.exit(EXIT_ERROR)
    if finding == "several stores":
        click.echo(f"{in_path}: several stores, one in each place; name the one to read with --from", err=as_json)
        for d in survey.stores:
            click.echo(f"  {d.dialect} (version {d.version}) at {d.where}: {d.evidence}", err=as_json)
            if d.hint:
                click.echo(f"    hint: {d.hint}", err=as_json)
        sys.exit(EXIT_OK)
    best = found[0]
    click.echo(f"{best.dialect} (version {best.version}): {best.evidence}", err=as_json)
    for other in found[1:]:
        click.echo(f"  also looks like {other.dialect} ({other.evidence})", err=as_json)
    if best.hint:
        click.echo(f"  hint: {best.hint}", err=as_json)
    sys.exit(EXIT_OK)


@main.command()
@_in_arg
@click.argument("out_path", metavar="[OUT]", required=False, type=click.Path(path_type=Path))
@click.option("--in-place", is_flag=True,
              help="Upgrade IN where it stands, after copying it whole to a timestamped backup beside it.")
@_dry_run_option
@_force_option
@_json_option
def upgrade(in_path, out_path, in_place, dry_run, force, as_json):
    """Upgrade a legacy Claude Code memory folder IN to a canonical memoir v0.1.2 store.

    With OUT, IN is left alone and OUT gets a memoir store (memory/*.md). With
    --in-place, the folder keeps its place (and its flat layout, so Claude Code
    still loads it) and the originals go to IN.memconv-backup-<time> beside it.
    """
    from . import upgrade as upgrading

    report = Report(command="upgrade", input=str(in_path))
    try:
        if in_place == (out_path is not None):
            raise MemconvError("give either OUT or --in-place", hint="memconv upgrade IN OUT, or memconv upgrade --in-place IN")
        if in_place:
            planned = upgrading.plan(in_path, report, layout="flat")
            report.output = str(in_path)
            if not planned.changes_in:
                report.warnings.append("already upgraded: nothing to change, no backup made")
            elif dry_run:
                report.dry_run = True
                for path in sorted(planned.files):
                    click.echo(f"would write {in_path / path}", err=True)
            else:
                kept = upgrading.backup(in_path)
                report.warnings.append(f"originals backed up to {kept}")
                upgrading.replace_in_place(planned.files, in_path)
                report.written = True
        else:
            _guard_in_out(in_path, out_path)
            planned = upgrading.plan(in_path, report)
            _write(report, pipeline.Plan(planned.files, report), out_path, dry_run, force)
    except MemconvError as exc:
        _fail(report, exc, as_json)
    _finish(report, as_json)


def _instead(command: str, target: str | None, out_path: Path | None):
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
    """IN is never written: refuse an OUT that is IN or lies inside it."""
    a, b = in_path.resolve(), out_path.resolve()
    if a == b or a in b.parents:
        raise MemconvError(f"{out_path}: the output would be written inside the input store",
                           hint="choose an OUT outside IN; memconv never writes into its input")

from .cli_merge import merge_command  # noqa: E402  (issue 11: `memconv merge`, docs/merge.md)
main.add_command(merge_command)
