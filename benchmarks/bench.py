"""Time memconv against memfmt's own load + serialise + write on generated 10k-file stores.

    python benchmarks/bench.py [--n 10000] [--runs 5]

Each figure is a whole process (interpreter start-up included), run several
times; the minimum and median are printed, and the ratio of medians. The stores
are generated fresh in a temporary folder; nothing in the repo is written.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable


def make_memoir(root: Path, n: int) -> None:
    mem = root / "memory"
    mem.mkdir(parents=True)
    kinds = ["fact", "preference", "decision", "lesson", "goal", "next_action"]
    for i in range(n):
        kind = kinds[i % 6]
        extra = {
            "fact": "source: generated\n",
            "preference": "scope: global\n",
            "decision": "date: 2026-05-02\nwhy: because it is measured\nrejected: the other thing\n",
            "lesson": "trigger: before a deploy\nhow_to_apply: run the smoke tests first\nfired_count: 3\n",
            "goal": "set_on: 2026-06-01\n",
            "next_action": "added: 2026-06-12T09:30:00Z\n",
        }[kind]
        (mem / f"{kind}_entry-{i}.md").write_text(
            f"---\ntype: {kind}\nname: Entry number {i}\ndescription: A generated {kind} for the benchmark\n"
            f"{extra}created: 2026-05-14\ntags:\n  - bench\n  - n{i % 17}\n---\n\n"
            f"Body of entry {i}. See [[fact_entry-{(i * 7) % n}]] for more.\n\n- a point\n- another point\n")
    (root / "session.json").write_text('{\n  "version": 1,\n  "current": {}\n}')


def make_memfmt(root: Path, n: int) -> None:
    import memfmt  # the real library: a test dependency

    script = f"""
import memfmt
from memfmt import Entity, Memory
m = Memory(entities=[Entity(name=f"Entity {{i}}", facts=[f"fact {{i}} one", "fact two"]) for i in range({n})])
memfmt.write_dir(memfmt.serialise(m), {str(root / 'memory')!r})
"""
    subprocess.run([PY, "-c", script], check=True)
    del memfmt


def timed(cmd: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out.append(time.perf_counter() - start)
    return out


def report(name: str, times: list[float]) -> float:
    med = statistics.median(times)
    print(f"{name:44s} min {min(times):6.2f}s  median {med:6.2f}s")
    return med


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        make_memoir(tmp / "memoir", args.n)
        baseline_store = tmp / "memfmt"
        make_memfmt(baseline_store, args.n)
        baseline = (
            "import memfmt, sys; m = memfmt.load(sys.argv[1]);"
            " memfmt.write_dir(memfmt.serialise(m), sys.argv[2])"
        )
        base = report(f"memfmt load+serialise+write ({args.n})",
                      timed([PY, "-c", baseline, str(baseline_store / "memory"), str(tmp / "base-out")], args.runs))
        ours = report(f"memconv memoir→memoir ({args.n})",
                      timed([PY, "-m", "memconv", "convert", "--to", "memoir", "--force", str(tmp / "memoir"),
                             str(tmp / "out")], args.runs))
        print(f"ratio memconv/memfmt (medians): {ours / base:.2f}")
        try:
            import memconv.dialects.memfmt  # noqa: F401
        except ModuleNotFoundError:
            return
        ours2 = report(f"memconv memfmt→memfmt ({args.n})",
                       timed([PY, "-m", "memconv", "convert", "--from", "memfmt", "--to", "memfmt", "--force",
                              str(baseline_store), str(tmp / "out2")], args.runs))
        print(f"ratio memconv memfmt→memfmt / memfmt (medians): {ours2 / base:.2f}")
        ours3 = report(f"memconv memoir→memfmt ({args.n})",
                       timed([PY, "-m", "memconv", "memoir-to-memfmt", "--force", str(tmp / "memoir"),
                              str(tmp / "out3")], args.runs))
        print(f"ratio memconv memoir→memfmt / memfmt (medians): {ours3 / base:.2f}")


if __name__ == "__main__":
    main()
