"""``memconv merge A B OUT``: two stores of one dialect merged into a new store OUT.

Registered on the ``memconv`` group by one line at the end of :mod:`memconv.cli`.
Exit statuses: 0 merged; 1 ``--check`` found OUT stale; 2 usage (the two
stores are not of one dialect, OUT overlaps one, or the dialect has no merge
rules yet); 3 merged, but a file was quarantined; 4 nothing done (a store
cannot be read, OUT cannot be written); 6 merged, with conflicts kept side by
side. See docs/merge.md. The report, ``-q``/``-v`` and the closing line are
the other commands' (:mod:`memconv.cli`).
"""

from __future__ import annotations

from pathlib import Path

import click

from . import dialects, pipeline
from .errors import MemconvError, UsageError
from .fs import check_out, list_files, write_tree
from .merge import MergeReport, merge

_DIALECTS = list(dialects.MODULES)


def _guard(inputs: tuple[Path, ...], out: Path) -> None:
    """Inputs are never written: OUT may not be an input, lie inside one, or contain one."""
    b = out.resolve()
    for path in inputs:
        a = path.resolve()
        if a == b or a in b.parents or b in a.parents:
            raise UsageError(f"{out}: the output would overlap the input store {path}",
                               hint="choose an OUT outside both stores; merge never writes into its inputs")


def _diffs(a_path: Path, files: dict[str, bytes]) -> list[dict[str, str]]:
    """OUT against A, file by file: what the merge would change in A."""
    on_disk = set(list_files(a_path))
    out = []
    for path in sorted(on_disk | set(files)):
        before = (a_path / path).read_bytes() if path in on_disk else None
        after = files.get(path)
        if before != after:
            out.append({"path": path, "diff": pipeline._diff(path, before, after)})
    return out


@click.command(name="merge")
@click.option("--from", "source", type=click.Choice(_DIALECTS),
              help="Dialect of A and B (default: detected; both must be the same).")
@click.argument("a_path", metavar="A", type=click.Path(path_type=Path, file_okay=False))
@click.argument("b_path", metavar="B", type=click.Path(path_type=Path, file_okay=False))
@click.argument("out_path", metavar="OUT", type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Show the preview and the report; write nothing.")
@click.option("--force", is_flag=True, help="Replace OUT even if it is not empty.")
@click.option("--json", "as_json", is_flag=True, help="Print the full report (every record's outcome) as JSON on stdout.")
@click.option("--diff", "show_diff", is_flag=True, help="Show OUT against A as a unified diff; write nothing.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 if OUT is not already what the merge would write, 0 if it is.")
def merge_command(source, a_path, b_path, out_path, dry_run, force, as_json, show_diff, check_only):
    """Merge the stores A and B (one dialect) into a new store OUT.

    Every record is listed as added, updated (which side won, and why),
    unchanged, or conflict (both copies kept: the other one beside it). A and B
    are never written. Exit 6 when conflicts were kept; see docs/merge.md.
    """
    from . import cli, progress

    report = cli._begin(MergeReport(command="merge", input=f"{a_path} + {b_path}",
                                    inputs=[str(a_path), str(b_path)]))
    try:
        found = [pipeline.resolve_dialect(p, source) for p in (a_path, b_path)]
        report.source_dialect = report.target_dialect = found[0]
        if found[0] != found[1]:
            from .merge import MergeRefused

            raise MergeRefused(f"{a_path} is a {found[0]} store and {b_path} a {found[1]} store",
                               hint="merge takes two stores of one dialect; convert one first, or pass --from")
        _guard((a_path, b_path), out_path)
        with progress.task("reading"):
            stores = [pipeline.read(p, found[0]) for p in (a_path, b_path)]
        result = merge(*stores)
        report.add(result.outcomes)
        report.warnings.extend(result.warnings)
        report.quarantined.extend(result.quarantined)
        for side, store in zip("AB", stores):
            report.migrations.extend(f"{side}: {step}" for step in store.migrations)
        report.output = str(out_path)
        report.settle_exit()
        if check_only:
            cli._preview(report, result.files, out_path, show_diff=show_diff, check_only=True)
        elif show_diff:
            report.dry_run = True
            report.differences = _diffs(a_path, result.files)
        elif dry_run:
            report.dry_run = True
            check_out(out_path, force)
        else:
            with progress.task("writing", total=len(result.files) + 1):
                write_tree(result.files, out_path, force=force)
            report.written = True
    except MemconvError as exc:
        cli._fail(report, exc, as_json)
    cli._finish(report, as_json, preview_lines=report.preview(cli._verbose.get()))
