"""A merged memoir store is one memoir accepts: conflict copies, parked actions and tombstones included.

Always checked against the schema and validator rules (tests/memoir_rules.py); also against the real
`memoir validate` when MEMOIR_CLI names memoir-cli's bin/memoir.js (`source /tmp/reftools.env`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from memconv.cli import main

from .conftest import tree, write_files
from .memoir_rules import entry_errors, session_errors
from .merge_helpers import doc, entry


def _stores(tmp_path):
    a = doc(next_actions=[{"text": f"a{i}", "machine_id": "m1", "added": f"2026-04-{i + 10}T00:00:00.000Z"}
                          for i in range(6)],
            decisions=[{"text": "Use PG", "why": "joins", "machine_id": "m1", "date": "2026-02-01T00:00:00.000Z"}],
            completed_actions=[{"text": "b0", "done_at": "2026-06-01T00:00:00.000Z"}])
    b = doc(next_actions=[{"text": f"b{i}", "machine_id": "m2", "added": f"2026-05-{i + 10}T00:00:00.000Z"}
                          for i in range(6)],
            decisions=[{"text": "use pg", "why": "team", "machine_id": "m2", "date": "2026-02-01T00:00:00.000Z",
                        "hidden": True, "hidden_at": "2026-03-01T00:00:00.000Z"}],
            machines={"m2": {"label": "laptop", "last_seen": "2026-05-20T00:00:00.000Z"}})
    files_a = {"session.json": json.dumps(a, indent=2), "memory/x.md": entry(body="A\n", updated="2026-01-01"),
               "memory/l.md": entry("lesson", name="L", updated="2026-01-01")}
    files_b = {"session.json": json.dumps(b, indent=2), "memory/x.md": entry(body="B\n", updated="2026-01-01"),
               "memory/n.md": entry("next_action", name="N", added="2026-01-01T00:00:00Z")}
    for root, files in ((tmp_path / "a", files_a), (tmp_path / "b", files_b)):
        write_files(root, {p: v.encode() for p, v in files.items()})
    return tmp_path / "a", tmp_path / "b"


def test_a_merged_store_passes_memoirs_rules(runner, tmp_path):
    a, b = _stores(tmp_path)
    result = runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 6, result.output
    out = tree(tmp_path / "out")
    assert any(p.startswith("memory/x.conflict-") for p in out) and any(p.startswith("session.conflict-") for p in out)
    assert session_errors(out["session.json"]) == []
    for path, raw in out.items():
        if path.startswith("memory/"):
            assert entry_errors(raw, path) == [], path
    session = json.loads(out["session.json"])
    assert len(session["current"]["next_actions"]) == 8 and len(session["current"]["parked_actions"]) == 3


@pytest.mark.skipif(not os.environ.get("MEMOIR_CLI") or not shutil.which("node"),
                    reason="memoir-cli not available (source /tmp/reftools.env)")
def test_memoir_validate_accepts_a_merged_store(runner, tmp_path):
    (tmp_path / "home").mkdir()  # HOME for the tool, removed with the test
    a, b = _stores(tmp_path)
    runner.invoke(main, ["merge", str(a), str(b), str(tmp_path / "out")])
    env = dict(os.environ, HOME=str(tmp_path / "home"), DO_NOT_TRACK="1", MEMOIR_TELEMETRY="off")
    done = subprocess.run(["node", os.environ["MEMOIR_CLI"], "validate", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all passed" in done.stdout
