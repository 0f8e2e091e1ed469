"""``merge --from X`` refuses a store of another dialect, exit 2, naming what it is and the merge to run.

``convert``, ``migrate`` and ``check`` refuse a ``--from`` that IN is not (``pipeline.confirm_dialect``). merge did
not: two Claude stores merged ``--from memoir`` ran memoir's rules, exit 6, and wrote an unlinked
``MEMORY.conflict-….md`` instead of rebuilding the index.
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN


@pytest.mark.parametrize("given", ["memoir", "memspec", "memfmt"])
def test_merge_refuses_a_from_the_stores_are_not(tmp_path, given):
    for side in "AB":
        shutil.copytree(GOLDEN / "claude" / "canonical" / "input", tmp_path / side)
    # Watched fail before the fix: exit 6 (memoir), and an OUT written by another dialect's rules.
    result = CliRunner().invoke(main, ["merge", "--from", given, "--json", str(tmp_path / "A"), str(tmp_path / "B"),
                                       str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "out").exists()
    report = json.loads(result.stdout)
    assert report["exit_code"] == 2 and "merge --from claude" in json.dumps(report)
    assert CliRunner().invoke(main, ["merge", "--from", "claude", str(tmp_path / "A"), str(tmp_path / "B"),
                                     str(tmp_path / "out")]).exit_code == 0
