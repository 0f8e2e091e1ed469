"""The line saying where `--into` put EXISTING's backup is the same kind of notice as `upgrade --in-place`'s.

Both are made by one function (`upgrade.backed_up_and_replaced`, "<what> backed up to <path>"); only the
upgrade's ("originals …") was of kind `backup`. The import's ("EXISTING …") was `other`, printed as a
"warning:", as if something had gone wrong (forty-sixth session).
"""

from __future__ import annotations

import json
import shutil

from memconv.cli import main

from .conftest import GOLDEN


def test_the_backup_line_of_an_import_is_a_note_of_kind_backup(runner, tmp_path):
    existing = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", existing)
    result = runner.invoke(main, ["memoir-to-claude", str(GOLDEN / "memoir" / "messy" / "input"),
                                  "--into", str(existing), "--json"])
    assert result.exit_code in (0, 6), result.output
    report = json.loads(result.stdout)
    [notice] = [n for n in report["notices"] if "backed up to" in n["message"]]
    assert notice["message"].startswith("EXISTING backed up to "), notice
    assert notice["kind"] == "backup", "a backup made as promised is said as one, as upgrade --in-place says it"
    assert "  note: EXISTING backed up to " in result.stderr, "a person reads it as a note, not a warning"
