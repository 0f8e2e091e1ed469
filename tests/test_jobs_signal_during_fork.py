"""A Ctrl-C that lands while ``--jobs`` forks its workers stops the run, not a traceback and carry on.

Python runs a signal's handler at the next Python call, and an at-fork hook is Python code: an
exception raised there is printed ("Exception ignored in") and dropped. The hook below sends
SIGINT from inside the fork, so the handler runs there every time, not once in a while.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memconv import jobs

from .conftest import ctrl_c_as_from_a_terminal

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import os, signal
from memconv import jobs

def _next():
    pass

def hook():
    os.kill(os.getpid(), signal.SIGINT)
    _next()  # a Python call: the handler runs here, inside the at-fork hook

os.register_at_fork(after_in_parent=hook)
try:
    out = list(jobs._Parallel(2).map(str, range(4 * jobs.CHUNK)))
except KeyboardInterrupt:
    print("interrupted")
else:
    print("finished", len(out))
"""


@pytest.mark.skipif(not jobs._can_fork(), reason="no fork on this platform: --jobs runs in one process")
def test_a_ctrl_c_during_the_fork_stops_the_run():
    # Verified by removing `with _signals_held():` in jobs.Spread (which _Parallel.map runs on): the run prints
    # "Exception ignored in: <function hook …>" with a KeyboardInterrupt traceback, then "finished 256".
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          preexec_fn=ctrl_c_as_from_a_terminal)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() == "interrupted", done.stdout + done.stderr


@pytest.mark.skipif(not jobs._can_fork(), reason="no fork on this platform: --jobs runs in one process")
def test_the_workers_are_gone_once_the_last_result_is_given():
    # The writers zip the rendered files with their paths, and zip stops without asking this
    # generator for its end: its workers must not wait for the garbage collector to be stopped.
    # Verified by removing the early close in jobs.Spread (which _Parallel.map runs on): two workers are still alive.
    import multiprocessing

    items = list(range(4 * jobs.CHUNK))
    rendered = jobs._Parallel(2).map(str, items)
    assert [value for _, value in zip(items, rendered)] == [str(i) for i in items]
    assert multiprocessing.active_children() == []
    rendered.close()
