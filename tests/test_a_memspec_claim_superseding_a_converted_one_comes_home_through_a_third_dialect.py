"""memspec's own claim, superseding a claim memconv converted, keeps its file through a third dialect and home.

The golden memoir store converted to memspec, its staging fact superseded there with memspec's own ``supersede
--body`` (a new claim, memspec's, no ``source_kind``: ``supersedes: [the fact's id]``), then to Claude or memfmt, and
on to memoir, the fact's home. Restored on that last step, the new claim's memspec form named the fact as memoir does
(``supersedes → fact_staging-endpoints``) where its file, rebuilt from its format patch, has the fact's id: it looked
edited, lost its patch, and ``check --via memspec`` of the memoir store exited 1 (memspec's writer gave it
``source_kind: agent`` the file never had). Fixed in the forty-seventh session: link names are no edit
(docs/conversion.md).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .convert_helpers import claim_superseded_in_memspec
from .reference_tools import needs_memspec


@needs_memspec
@pytest.mark.parametrize("via", ["claude", "memfmt"])
def test_memspecs_own_claim_keeps_its_file_through_a_third_dialect_home(runner, tmp_path, via):
    ms = tmp_path / "memspec"
    claim_superseded_in_memspec(ms, "Staging runs at", "--body", "Staging moved to staging2", "--reason", "moved")
    there, home = tmp_path / via, tmp_path / "home"
    for args in (["convert", "--from", "memspec", "--to", via, str(ms), str(there)],
                 ["convert", "--from", via, "--to", "memoir", str(there), str(home)]):
        done = runner.invoke(main, [args[0], "-q", *args[1:]])
        assert done.exit_code == 0, done.output
    checked = runner.invoke(main, ["check", "--via", "memspec", str(home)])
    assert checked.exit_code == 0, "the claim comes back to memspec as its file was: " + checked.output
    assert "source_kind" not in checked.output, checked.output
