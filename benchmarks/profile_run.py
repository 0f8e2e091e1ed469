"""Where the time and the memory of one conversion go: a CPU profile and a memory profile.

    pip install -e '.[bench]'        # pyinstrument (CPU) and memray (memory)
    python benchmarks/profile_run.py memoir-to-memfmt claude-to-memspec --n 10000 --keep prof/

For each run named (`X-to-Y`, or `migrate:X`), a store of n entries is generated
(benchmarks/generators.py) and the conversion is run twice as its own process:

- under `pyinstrument` (a sampling profiler): the session is kept (open it
  with `pyinstrument --load FILE`), its call tree is kept as text, and each
  memconv function's inclusive share of the run, with the functions that
  spend the time themselves, is printed;
- under `memray run --trace-python-allocators` (a memory profiler that tracks
  every allocation, Python's small objects one by one): the heap at its
  high-water mark is summed by allocation site (the innermost memconv function
  on the stack) and by phase (the innermost function of the pipeline,
  `memconv/pipeline.py` and `memconv/converters/__init__.py`). Without the
  option memray sees only the 1 MiB arenas Python's allocator carves small
  objects from, each charged whole to the allocation that happened to open it:
  at 100,000 entries that put 32 MB on `is_entry_path`, which keeps nothing.

Reports land in `--keep DIR` (default: a temporary folder, removed after).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
#: The checkout this script is in: each run starts there, so that ``-m memconv`` is its memconv (bench.REPO).
REPO = Path(__file__).resolve().parent.parent

from generators import make  # noqa: E402

BIN = Path(sys.executable).parent


def memconv_args(run: str, store: Path, out: Path) -> list[str]:
    if run.startswith("migrate:"):
        return ["migrate", "--from", run.split(":", 1)[1], str(store), str(out)]
    return [run, str(store), str(out)]


def source_of(run: str) -> str:
    return run.split(":", 1)[1] if run.startswith("migrate:") else run.split("-to-")[0]


def cpu_summary(path: Path, top: int = 25) -> str:
    """Each memconv function's inclusive share of the run, and the leaf functions' own time."""
    from pyinstrument.session import Session

    session = Session.load(str(path))
    root = session.root_frame()
    total = root.time if root is not None else 0.0
    inclusive: dict[str, float] = {}
    own: dict[str, float] = {}

    def walk(frame, open_: frozenset) -> None:
        key = f"{frame.function} ({(frame.file_path_short or '').split('memconv/')[-1]}:{frame.line_no})"
        mine = "/memconv/" in (frame.file_path or "") and "/.venv/" not in (frame.file_path or "")
        if mine and key not in open_:  # count a recursive function once
            inclusive[key] = inclusive.get(key, 0.0) + frame.time
        named = frame.parent if frame.function == "[self]" and frame.parent is not None else frame
        leaf = f"{named.function} ({named.file_path_short}:{named.line_no})"
        own[leaf] = own.get(leaf, 0.0) + frame.total_self_time
        for child in frame.children:
            walk(child, open_ | {key} if mine else open_)

    if root is not None:
        walk(root, frozenset())
    pct = (lambda t: 100 * t / total) if total else (lambda t: 0.0)
    lines = [f"wall {session.duration:.1f}s, CPU {session.cpu_time:.1f}s (the share below is of the sampled wall time)",
             "", "memconv functions, inclusive share:"]
    lines += [f"  {pct(t):5.1f}%  {t:7.2f}s  {k}" for k, t in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]]
    lines += ["", "own time (any function):"]
    lines += [f"  {pct(t):5.1f}%  {t:7.2f}s  {k}" for k, t in sorted(own.items(), key=lambda kv: -kv[1])[:15]]
    return "\n".join(lines) + "\n"


PHASE_FILES = ("memconv/pipeline.py", "memconv/converters/__init__.py", "memconv/cli.py")


def at_peak(path: Path, top: int = 15) -> str:
    """The live heap at memray's high-water mark, summed by memconv site and by pipeline phase."""
    from memray import FileReader

    reader = FileReader(str(path))
    peak = reader.metadata.peak_memory
    sites: dict[str, int] = {}
    phases: dict[str, int] = {}
    for record in reader.get_high_watermark_allocation_records(merge_threads=True):
        stack = record.stack_trace()  # innermost first: (function, file, line)
        site = next((f"{fn} ({file.split('/memconv/')[-1]}:{line})" for fn, file, line in stack
                     if "/memconv/" in file and "/.venv/" not in file), "(outside memconv)")
        phase = next((fn for fn, file, _ in stack if file.endswith(PHASE_FILES)), "(start-up, imports)")
        sites[site] = sites.get(site, 0) + record.size
        phases[phase] = phases.get(phase, 0) + record.size
    mb = 1024 * 1024
    lines = [f"peak heap: {peak / mb:.0f} MB (memray high-water mark; RSS adds the interpreter and free lists)",
             "", "by pipeline phase (innermost pipeline function on the stack):"]
    lines += [f"  {size / mb:8.1f} MB  {name}" for name, size in sorted(phases.items(), key=lambda kv: -kv[1])[:top]]
    lines += ["", "by allocation site (innermost memconv frame):"]
    lines += [f"  {size / mb:8.1f} MB  {name}" for name, size in sorted(sites.items(), key=lambda kv: -kv[1])[:top]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="X-to-Y or migrate:X")
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--keep", type=Path, help="folder to keep the reports in")
    ap.add_argument("--no-memory", action="store_true", help="skip the memray run")
    args = ap.parse_args(argv)
    for tool in ("pyinstrument", "memray"):
        if not (BIN / tool).exists() and not (tool == "memray" and args.no_memory):
            ap.error(f"{tool} is not installed beside {sys.executable}: pip install -e '.[bench]'")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        keep = args.keep or work / "reports"
        keep.mkdir(parents=True, exist_ok=True)
        stores: dict[str, Path] = {}
        for run in args.runs:
            src = source_of(run)
            if src not in stores:
                stores[src] = make(src, work / src, args.n)
            name = run.replace(":", "-")
            out = work / "out"
            session = keep / f"{name}.pyisession"
            subprocess.run([str(BIN / "pyinstrument"), "-r", "session", "-o", str(session), "-m", "memconv",
                            *memconv_args(run, stores[src], out)], check=False, cwd=REPO,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(out, ignore_errors=True)
            tree = subprocess.run([str(BIN / "pyinstrument"), "--load", str(session), "-r", "text",
                                   "--no-color"], capture_output=True, text=True).stdout
            (keep / f"{name}.cpu-tree.txt").write_text(tree)
            text = cpu_summary(session)
            (keep / f"{name}.cpu.txt").write_text(text)
            print(f"==== {run} ({args.n}): CPU (pyinstrument) → {session}, {name}.cpu-tree.txt")
            print(text)
            if args.no_memory:
                continue
            mem = keep / f"{name}.memray.bin"
            mem.unlink(missing_ok=True)
            subprocess.run([str(BIN / "memray"), "run", "-q", "--trace-python-allocators", "-o", str(mem),
                            "-m", "memconv",
                            *memconv_args(run, stores[src], out)], check=False, cwd=REPO,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(out, ignore_errors=True)
            text = at_peak(mem)
            (keep / f"{name}.memory.txt").write_text(text)
            print(f"==== {run} ({args.n}): memory at the peak (memray) → {mem}")
            print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
