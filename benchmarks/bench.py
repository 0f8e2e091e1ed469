"""The performance table: every pair and every same-dialect migrate, against memfmt's own pipeline.

    python benchmarks/bench.py                                  # 10k, all 16 runs, once each
    python benchmarks/bench.py --sizes 10000 --runs 3 --out docs/performance.md
    python benchmarks/bench.py --sizes 100000 --pairs memoir-to-memfmt,claude-to-memspec
    python benchmarks/bench.py --large 50                       # one 50 MB memory in a 20-entry store
    python benchmarks/bench.py --sizes 100000 --pairs merge:memoir,merge:claude   # each store merged with itself

For each size, one store per dialect is generated (benchmarks/generators.py) in
a temporary folder. Each measured command is a whole process, interpreter
start-up included: its wall time (time.perf_counter around the process), its
CPU time (user + system, from `os.wait4`; steadier than wall time on a shared
machine) and its peak resident set size (`ru_maxrss` of that child, from `os.wait4`: the same
figure `/usr/bin/time -v` prints as "Maximum resident set size"). Each command is started by a
bare interpreter (`LAUNCHER`), not by this script: a process started from one that holds the
generated stores would be measured at no less than that one's peak.

With `--large MB`, each store is instead the 20-entry one with a single memory
grown to MB megabytes of paragraphs (`generators.grow`; memfmt's: one entity's
facts, written by the library): what one long file costs.

The yardstick is the memfmt library's own pipeline on the same-size memfmt
store: `memfmt.load` + `memfmt.serialise` + `memfmt.write_dir`. It is run right
before every measured command, so each ratio compares two figures taken under
the same load on the machine. Figures are medians of `--runs`.

Both sides run from compiled bytecode, as a `pip install` or `pipx install`
leaves them: memconv's modules are compiled once before the first run (an
editable install never compiles them, and where `PYTHONDONTWRITEBYTECODE` is
set every run would compile memconv's source again, about 0.1 s of CPU that
the memfmt wheel never pays).

With `--out FILE`, the table replaces what lies between the
`<!-- bench:begin -->` and `<!-- bench:end -->` lines of FILE (with `--block
NAME`, `<!-- bench:NAME:begin -->` …), or is appended when FILE has no such
lines; without it the table is printed.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
#: The checkout this script is in: every command runs there, so that ``python -m memconv`` is its memconv. Started
#: from another folder, ``-m`` put that folder first, and two checkouts measured one memconv (2026-12-05).
REPO = Path(__file__).resolve().parent.parent

from generators import DIALECTS, grow, make  # noqa: E402

PY = sys.executable
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def markers(block: str) -> tuple[str, str]:
    """The lines a table lives between: ``bench:begin``/``bench:end``, or ``bench:NAME:begin``/…"""
    if not block:
        return BEGIN, END
    return f"<!-- bench:{block}:begin -->", f"<!-- bench:{block}:end -->"

MEMFMT_PIPELINE = (
    "import sys, memfmt\n"
    "m = memfmt.load(sys.argv[1])\n"
    "memfmt.write_dir(memfmt.serialise(m), sys.argv[2])\n"
)


@dataclass
class Sample:
    seconds: float
    cpu: float
    peak_mb: float
    status: int


#: The measured command's parent: a bare interpreter that runs it, waits for it and prints its figures. On Linux a
#: process started by ``exec`` takes the peak resident size of the process it was forked from as its own floor
#: (``exec_mmap`` records the old memory map's high-water mark), so a command spawned straight from this script,
#: which holds the stores it generated (about 200 MB at 100,000 entries), was measured at no less than that: every
#: run under it showed 206 MB (docs/performance.md, "(fifteenth)"). Started from this parent, its floor is about 10 MB.
LAUNCHER = (
    "import json, os, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(proc.pid, 0)\n"
    "seconds = time.perf_counter() - start\n"
    "cpu = usage.ru_utime + usage.ru_stime\n"
    "print(json.dumps([seconds, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status)]))\n"
)


def run_once(cmd: list[str], out: Path) -> Sample:
    """Run cmd as its own process; wall time, CPU time, its peak RSS, its exit status. OUT is removed after.

    The command is started by :data:`LAUNCHER`, which times it (its own start-up is not counted)."""
    done = subprocess.run([PY, "-c", LAUNCHER, *cmd], capture_output=True, text=True, check=True, cwd=REPO)
    seconds, cpu, peak_kib, status = json.loads(done.stdout)
    shutil.rmtree(out, ignore_errors=True)
    return Sample(seconds, cpu, peak_kib / 1024, status)  # ru_maxrss is KiB on Linux


def all_runs() -> list[tuple[str, str, str]]:
    """(label, source, target): the 12 cross pairs, then the 4 same-dialect migrates."""
    runs = [(f"{a}-to-{b}", a, b) for a in DIALECTS for b in DIALECTS if a != b]
    return runs + [(f"migrate {a}", a, a) for a in DIALECTS]


def merge_runs() -> list[tuple[str, str, None]]:
    """(label, dialect, None): ``memconv merge`` of each store with itself, every record unchanged. Not in the default
    table: run when named in ``--pairs`` (``merge:memoir``); docs/merge.md, "Memory", has the figures."""
    return [(f"merge {a}", a, None) for a in DIALECTS]


def command(source: str, target: str | None, store: Path, out: Path) -> list[str]:
    if target is None:
        return [PY, "-m", "memconv", "merge", "--from", source, str(store), str(store), str(out)]
    if source == target:
        return [PY, "-m", "memconv", "migrate", "--from", source, str(store), str(out)]
    return [PY, "-m", "memconv", f"{source}-to-{target}", str(store), str(out)]


def measure(n: int, runs: int, wanted: set[str] | None, work: Path, log, large: int | None = None) -> list[dict]:
    """Every run of :func:`all_runs` (those ``wanted``) on stores of ``n`` entries, or (``large``) on the 20-entry
    stores with one memory of ``large`` MB."""
    stores = {}
    for d in DIALECTS:
        t = time.perf_counter()
        stores[d] = grow(d, work / f"{d}-large", large) if large else make(d, work / f"{d}-{n}", n)
        log(f"  generated {d} ({f'one {large} MB memory' if large else n}) in {time.perf_counter() - t:.1f}s")
    memfmt_dir = stores["memfmt"] / "memory"
    rows = []
    for label, a, b in all_runs() + (merge_runs() if wanted else []):  # a merge only when named
        if wanted and label not in wanted and label.replace(" ", ":") not in wanted:
            continue
        ours, base = [], []
        for _ in range(runs):
            base.append(run_once([PY, "-c", MEMFMT_PIPELINE, str(memfmt_dir), str(work / "base-out")],
                                 work / "base-out"))
            ours.append(run_once(command(a, b, stores[a], work / "out"), work / "out"))
        row = {
            "size": f"20 + one {large} MB memory" if large else f"{n:,}", "run": label,
            "seconds": statistics.median(s.seconds for s in ours),
            "cpu": statistics.median(s.cpu for s in ours),
            "peak_mb": statistics.median(s.peak_mb for s in ours),
            "base_seconds": statistics.median(s.seconds for s in base),
            "base_cpu": statistics.median(s.cpu for s in base),
            "base_peak_mb": statistics.median(s.peak_mb for s in base),
            "status": sorted({s.status for s in ours}),
        }
        row["ratio"] = row["seconds"] / row["base_seconds"]
        row["cpu_ratio"] = row["cpu"] / row["base_cpu"]
        log(f"  {label:22s} {row['seconds']:7.2f}s (cpu {row['cpu']:.2f}s) {row['peak_mb']:6.0f} MB  "
            f"(memfmt {row['base_seconds']:.2f}s, cpu {row['base_cpu']:.2f}s, {row['base_peak_mb']:.0f} MB)"
            f"  ×{row['ratio']:.2f} (cpu ×{row['cpu_ratio']:.2f})"
            f"  exit {row['status']}")
        rows.append(row)
    return rows


def _version(distribution: str) -> str:
    """The installed version of ``distribution`` (the yardstick's speed has moved between its releases)."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "(not installed)"


def table(rows: list[dict], runs: int, workdir: Path | None) -> str:
    lines = [
        f"Machine: {os.cpu_count()} cores (`nproc`), Python {platform.python_version()}, "
        f"{platform.system()}, the yardstick memfmt {_version('memfmt')}; median of {runs} run(s) each; "
        "stores and OUT in "
        f"{workdir or 'the temporary folder'}.",
        "",
        "| entries | run | wall s | × memfmt | CPU s | × memfmt (CPU) | peak RSS MB "
        "| memfmt pipeline: wall s, CPU s, peak RSS MB | exit |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(f"| {r['size']} | {r['run']} | {r['seconds']:.2f} | {r['ratio']:.2f} | {r['cpu']:.2f} "
                     f"| {r['cpu_ratio']:.2f} | {r['peak_mb']:.0f} "
                     f"| {r['base_seconds']:.2f}, {r['base_cpu']:.2f}, {r['base_peak_mb']:.0f} "
                     f"| {', '.join(map(str, r['status']))} |")
    return "\n".join(lines) + "\n"


def write_out(path: Path, text: str, name: str = "") -> None:
    begin, end = markers(name)
    block = f"{begin}\n{text}{end}\n"
    old = path.read_text() if path.exists() else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        new = head + block + ("\n" + tail if tail else "")
    else:
        new = (old.rstrip("\n") + "\n\n" if old else "") + block
    path.write_text(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000", help="comma-separated entry counts (default 10000; "
                    "100000 takes several minutes per run)")
    ap.add_argument("--runs", type=int, default=1, help="runs per command; the median is reported")
    ap.add_argument("--pairs", default="", help="comma-separated runs to keep, e.g. "
                    "memoir-to-memfmt,claude-to-memspec,migrate:memoir (default: all 16); merge:DIALECT adds "
                    "memconv merge of that store with itself")
    ap.add_argument("--out", type=Path, help="write the table into this Markdown file")
    ap.add_argument("--block", default="", help="with --out: write between <!-- bench:BLOCK:begin --> and "
                    "<!-- bench:BLOCK:end --> (default: the unnamed bench:begin/bench:end block)")
    ap.add_argument("--large", type=int, metavar="MB", help="instead of --sizes: the 20-entry stores with one "
                    "memory of MB megabytes (issue 12's single long file)")
    ap.add_argument("--workdir", type=Path, help="where to generate stores and write OUT (default: the system's "
                    "temporary folder; /dev/shm takes a busy disk out of the figures)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    wanted = {p.strip() for p in args.pairs.split(",") if p.strip()} or None
    if wanted:
        runs = all_runs() + merge_runs()
        known = {label for label, _, _ in runs} | {label.replace(" ", ":") for label, _, _ in runs}
        unknown = sorted(wanted - known)
        if unknown:
            ap.error(f"unknown run(s) {', '.join(unknown)}; known: {', '.join(l for l, _, _ in runs)}")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    rows = []
    import memconv

    # As installed from a wheel: the package compiled (quiet=1: only errors are printed).
    compileall.compile_dir(str(Path(memconv.__file__).parent), quiet=1)
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)  # `--workdir /dev/shm/bench` on a fresh machine
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        for n in [20] if args.large else sizes:
            log(f"one {args.large} MB memory:" if args.large else f"{n} entries:")
            work = Path(tmp) / str(n)
            work.mkdir()
            rows += measure(n, args.runs, wanted, work, log, large=args.large)
            shutil.rmtree(work, ignore_errors=True)
    text = table(rows, args.runs, args.workdir)
    if args.out:
        write_out(args.out, text, args.block)
        log(f"table written to {args.out}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
