"""memspec's own ``migrate`` (dry run) finds nothing to migrate in a store memconv wrote from another dialect.

memspec 0.7.2's ``migrate`` backfills a ``verified_with`` on every record that has none (``inferVerifiedWith``:
``assertion`` unless anchors, evidence or an operator say otherwise) and ``supersede_reason: (predates reason
tracking)`` on a superseded record with no reason. memconv wrote neither, so its dry run said every record of every
store memconv wrote "need[s] migration". A claim memconv builds now gets the ``verified_with`` memspec's ``remember``
and ``migrate`` give it, and a superseded one the reason ``migrate`` backfills; both come home to the source dialect
as nothing (its carry, unedited), and a rendering of a Claude index's bullet counts neither dropped.

Two changes are memspec's own and stay: ``stale: true`` for a ``check_by`` past today (memconv stamps nothing from
the day it runs), and ``verified_with`` on an observation, which memspec's ``observe`` writes without one.
"""

from __future__ import annotations

import json
import re

import pytest

from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import memspec, needs_memspec

#: What memspec's migrate may still plan for a record memconv wrote (see the module docstring).
DAY_DEPENDENT = "stale: true (check_by in the past)"
OBSERVE_WRITES_NONE = "verified_with: assertion (inferred)"


def _planned(out) -> dict[str, list[str]]:
    done = memspec(out, "migrate")
    assert done.returncode == 0, done.stdout + done.stderr
    scanned = re.search(r"Scanned (\d+) memspec file\(s\)", done.stdout)
    assert scanned and 0 < int(scanned.group(1)) <= 30, done.stdout  # every planned file is listed
    planned: dict[str, list[str]] = {}
    path = ""
    for line in done.stdout.split("Planned changes (dry run):\n", 1)[-1].splitlines():
        if line.startswith("    - "):
            planned[path].append(line[6:])
        elif line.startswith("  ") and line.strip():
            path = line.strip()
            planned[path] = []
    return planned


@needs_memspec
@pytest.mark.parametrize("dialect, store", [("memoir", "canonical"), ("claude", "canonical"),
                                            ("claude", "inline-only"), ("memfmt", "full")])
def test_memspec_s_migrate_finds_nothing_to_migrate(runner, tmp_path, dialect, store):
    # Watched fail: "verified_with: assertion (inferred)" on every claim, the memoir decision superseded by
    # decision_local-db-choice with 'supersede_reason backfilled: "(predates reason tracking)"'.
    inp = GOLDEN / dialect / store / "input"
    out = tmp_path / "ms"
    result = runner.invoke(main, ["convert", "--from", dialect, "--to", "memspec", str(inp), str(out)])
    assert result.exit_code == 0, result.output
    left = {path: [c for c in changes if c != DAY_DEPENDENT and not (path.startswith("observations/")
                                                                    and c == OBSERVE_WRITES_NONE)]
            for path, changes in _planned(out).items()}
    assert {path: changes for path, changes in left.items() if changes} == {}
    if dialect == "memoir":
        superseded = [t for p, t in tree(out).items() if p.startswith(".memspec/archive/ms_")]
        assert len(superseded) == 1 and b"\nsupersede_reason: (predates reason tracking)\n" in superseded[0]

    back = tmp_path / "back"
    result = runner.invoke(main, ["convert", "--json", "--fail-on-loss", "--from", "memspec", "--to", dialect,
                                  str(out), str(back)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["counts"]["carried"], report["counts"]["dropped"]) == (0, 0), report
    assert {p: d for p, d in tree(back).items() if not p.startswith(".memconv/")} == tree(inp)
