"""An import whose IN copy of a memspec decision wins says no supersession link was added that EXISTING had.

The golden memoir store imported into a memspec project, then the decision ``decision_local-db-choice`` edited in
IN: IN's copy won whole (changed in IN only), and the chains gave it back the ``supersedes`` EXISTING's copy held.
The report said ``updated supersession links … supersedes … added``, a change nobody would find in EXISTING. Now
a link a copy of the record already held is not said; one the chains really add still is.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from memconv import dialects
from memconv.cli import main
from memconv.merge import merge
from memconv.merge.memspec import CHAIN
from memconv.model import Edge, Lifecycle

from .conftest import GOLDEN, write_files

MEMOIR = GOLDEN / "memoir" / "canonical" / "input"
DECISION = Path("memory") / "decision_local-db-choice.md"
WHY = "Zero-dependency install"
MEMSPEC = GOLDEN / "memspec" / "current-every-field" / "input"
FACT = "ms_01KN49FJ20XS6Y1EYPJ9ZTW94H"
OTHER = "ms_01KNPA8K20A89R76HW86EQNMC0"


def _run(*args: str):
    result = CliRunner().invoke(main, [*args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_supersedes_existing_held_is_not_said_added(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    shutil.copytree(MEMOIR, src)
    assert _run("memoir-to-memspec", "-q", str(src), str(existing)).exit_code == 0
    assert _run("memoir-to-memspec", "-q", str(src), "--into", str(existing)).exit_code == 0
    decision = src / DECISION
    decision.write_text(decision.read_text().replace(WHY, "A zero-dependency install"))
    result = _run("memoir-to-memspec", "--json", str(src), "--into", str(existing))
    assert result.exit_code == 0
    records = json.loads(result.stdout)["records"]
    # Watched fail before the fix: "updated supersession links … supersedes ms_01KPM2ZN00J6KK9CBV0H6YZ3Q1 added".
    assert [r for r in records if r["kind"] == "chain"] == []
    assert [r["status"] for r in records if r["status"] != "unchanged"] == ["updated"]


def test_a_supersedes_no_copy_held_is_still_said_added(tmp_path):
    memspec = dialects.get("memspec")
    store = memspec.read(MEMSPEC)
    fact = next(r for r in store.records if r.link == FACT)
    assert not any(e.type == "supersedes" and e.target == FACT for r in store.records for e in r.edges)
    fact.lifecycle = Lifecycle("superseded", None, "replaced")
    fact.edges = [e for e in fact.edges if e.type not in CHAIN] + [Edge("superseded_by", OTHER)]
    write_files(tmp_path / "a", memspec.write(store))
    a, b = memspec.read(tmp_path / "a"), memspec.read(MEMSPEC)
    chain = [o for o in merge(a, b).outcomes if o.kind == "chain"]
    assert len(chain) == 1 and f"{OTHER}: supersedes {FACT} added" in chain[0].why
