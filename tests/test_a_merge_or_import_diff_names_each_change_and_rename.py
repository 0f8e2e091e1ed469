"""``merge --diff`` and ``--into --diff``/``--check`` say of each file what changes, renames included.

docs/cli.md: ``--diff`` shows files that would move as renames (git's ``rename from``/``rename to``),
``merge --diff`` against A; docs/report.md: ``differences`` from ``--diff``/``--check`` have ``change``.
merge and ``--into`` had a differ of their own, which gave neither: a record a merge moves was a
deletion and an unrelated addition, no entry had ``change``, and the summary called an added file
"(modified)". They now use the one differ the other writing commands use (``preview.changes``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import GOLDEN

ROOT = Path(__file__).resolve().parents[1]


def _memconv(*args) -> tuple[int, dict, str]:
    run = subprocess.run([sys.executable, "-m", "memconv", *map(str, args), "--json"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    return run.returncode, json.loads(run.stdout), run.stderr


def test_merge_diff_shows_a_moved_record_as_a_rename(tmp_path):
    store = GOLDEN / "memspec" / "v02-dated-observations" / "input"
    code, doc, _ = _memconv("merge", store, store, tmp_path / "out", "--diff")
    assert code == 3  # its quarantined files
    assert all(d.get("change") in ("added", "deleted", "modified", "renamed") for d in doc["differences"])
    moved = {d["path"]: d for d in doc["differences"] if d["change"] == "renamed"}
    decision = ".memspec/memory/operator/decisions/ms_01KNC0NQ20QXJSYZEXJH3PXJFN.md"
    assert moved[decision]["from"] == ".memspec/memory/decisions/ms_01KNC0NQ20QXJSYZEXJH3PXJFN.md"
    assert "rename from .memspec/memory/decisions/" in moved[decision]["diff"]
    assert not any(d["path"] == moved[decision]["from"] for d in doc["differences"])


def test_an_import_check_says_what_it_would_add(tmp_path):
    source = GOLDEN / "memoir" / "canonical" / "input"
    existing = tmp_path / "existing"
    subprocess.run([sys.executable, "-m", "memconv", "memoir-to-memfmt", source, existing, "-q"], check=True,
                   cwd=ROOT, timeout=120)
    for flag in ("--check", "--diff"):
        code, doc, err = _memconv("memoir-to-memfmt", source, "--into", existing, flag)
        assert code == (1 if flag == "--check" else 0)
        assert [(d["path"], d.get("change")) for d in doc["differences"]] == [(".memconv/imports.json", "added")]
        if flag == "--check":
            assert "would change: .memconv/imports.json (added)" in err
