"""SIGINT and SIGTERM at random points of a real conversion: OUT absent or complete, no temporary folder left.

A biggish store is converted in a child process, which is signalled after a
random delay (seeded, so the same delays every run). The long version
(30 more delays, marker ``long_fuzz``) runs with ``MEMCONV_LONG_FUZZ=1``; see docs/cli.md.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memconv import fs

from .conftest import ROOT, ctrl_c_as_from_a_terminal, tree

LONG = bool(os.environ.get("MEMCONV_LONG_FUZZ"))


def _store(root: Path, n: int = 800) -> Path:
    (root / "memory").mkdir(parents=True)
    for i in range(n):
        (root / "memory" / f"fact_f{i}.md").write_text(
            f"---\ntype: fact\nname: Fact {i}\n---\nBody of fact {i}, linking [[fact_f{i + 1}]].\n")
    return root


def _run(src: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "memconv", "convert", "--to", "memfmt", str(src), str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=ctrl_c_as_from_a_terminal)


def _leftovers(folder: Path, pid: int) -> list[str]:
    beside = [p.name for p in folder.iterdir() if ".memconv-" in p.name]
    scratch = [name for d in fs.scratch_dirs() for name in os.listdir(d) if f"-{pid}-" in name
               and name.startswith("memconv-")]
    return beside + scratch


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    base = tmp_path_factory.mktemp("signals")
    src = _store(base / "in")
    done = _run(src, base / "reference")
    done.communicate()
    assert done.returncode == 0
    return src, tree(base / "reference")


_rng = random.Random(9)
_long = pytest.mark.skipif(not LONG, reason="long fuzzing: set MEMCONV_LONG_FUZZ=1 (docs/cli.md)")
DELAYS = [_rng.uniform(0.3, 1.8) for _ in range(3)] + [
    pytest.param(_rng.uniform(0.2, 2.5), marks=[pytest.mark.long_fuzz, _long]) for _ in range(30)]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize("delay", DELAYS, ids=lambda d: f"{d:.2f}s")
def test_a_signal_at_any_point_leaves_out_absent_or_complete(reference, tmp_path, sig, delay):
    # Verified by removing the SIGTERM handler in the CLI: TERM kills the child at once and leaves
    # .out.memconv-new-* behind (or a traceback-free but half-built scratch folder).
    src, expected = reference
    out = tmp_path / "out"
    child = _run(src, out)
    time.sleep(delay)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err
    assert child.returncode in (0, 130 if sig == signal.SIGINT else 143), err
    if out.exists():
        assert tree(out) == expected, "OUT is complete when it exists"
    assert _leftovers(tmp_path, child.pid) == [], "no temporary folder is left"


def test_what_a_killed_run_leaves_is_cleared_by_the_next_run(reference, tmp_path):
    # Verified by making sweep_stale a no-op: the killed run's folders are still there at the end.
    src, expected = reference
    out = tmp_path / "out"
    for delay in (0.7, 1.1):
        child = _run(src, out)
        time.sleep(delay)
        child.kill()
        child.communicate()
        again = _run(src, tmp_path / "other")
        _, err = again.communicate(timeout=60)
        assert again.returncode == 0, err
        assert _leftovers(tmp_path, child.pid) == [], "the next run cleared what SIGKILL left"
        if out.exists():
            assert tree(out) == expected
        shutil.rmtree(tmp_path / "other")


def test_ctrl_c_while_starting_exits_130_not_by_the_signal():
    """A Ctrl-C caught while the program imports its modules exits 130, as docs/cli.md says.

    Python could still hold its own mark of an unhandled KeyboardInterrupt, and then it killed
    itself with SIGINT on the way out (status -2): 8 of 60 signals sent 0.12-0.5 s after the
    start did so. Watched fail with ``sys.exit`` in place of ``os._exit`` in ``_entry._stop``
    (3 of these 24 runs).
    """
    codes = []
    for i in range(24):
        child = subprocess.Popen([sys.executable, "-m", "memconv", "detect", str(ROOT / "golden" / "memoir" / "canonical" / "input")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                 preexec_fn=ctrl_c_as_from_a_terminal)
        time.sleep(0.25 + 0.015 * i)  # across the imports (before 0.2 s, Python has not reached memconv)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
        assert "Traceback" not in err
        assert child.returncode in (0, 130), (codes, child.returncode, err)  # what it said, if it ever is not
        codes.append(child.returncode)
