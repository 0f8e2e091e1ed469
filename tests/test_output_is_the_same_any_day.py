"""Same input, same bytes, any day: no writer reads the clock.

Every golden store is converted into every dialect (itself included) in a
child process whose clock is pinned by ``faketime`` to several far-apart
dates; the outputs must be identical. Without ``faketime`` on the machine
(``apt-get install faketime``) the test skips, saying so; ``.ci/run``
installs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT

DAYS = ["2001-02-03 04:05:06", "2026-11-30 12:00:00", "2099-12-31 23:59:59"]

_SCRIPT = r"""
import datetime, hashlib, json, sys
today = datetime.date.today().isoformat()  # before the work: a slow run must not cross midnight
sys.path.insert(0, sys.argv[1])
from memconv import dialects
from tests.conftest import GOLDEN
from tests.convert_helpers import DIALECTS, convert_files, golden_inputs
out = {}
for dialect, name in golden_inputs():
    for target in DIALECTS:
        store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
        files, _ = convert_files(store, target)
        out[f"{dialect}/{name}->{target}"] = {p: hashlib.sha256(b).hexdigest() for p, b in files.items()}
print(json.dumps({"today": today, "outputs": out}))
"""


def _convert_all_on(day: str) -> dict:
    done = subprocess.run(["faketime", "-f", f"@{day}", sys.executable, "-c", _SCRIPT, str(ROOT)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("faketime") is None,
                    reason="faketime is not installed (apt-get install faketime): the clock cannot be pinned")
def test_every_golden_conversion_gives_the_same_bytes_on_any_day():
    runs = [_convert_all_on(day) for day in DAYS]
    assert [r["today"] for r in runs] == [d[:10] for d in DAYS], "faketime really moved the clock"
    first = runs[0]["outputs"]
    assert len(first) >= 40, "every golden store was converted into every dialect"
    for day, run in zip(DAYS[1:], runs[1:]):
        for case, files in first.items():
            assert run["outputs"][case] == files, f"{case} gives other bytes on {day} than on {DAYS[0]}"
