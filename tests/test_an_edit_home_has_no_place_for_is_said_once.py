"""An edit made in another dialect that home's files have no place for is said once, as dropped.

A memfmt procedure in memoir is a lesson, whose body shows the procedure's evolution. A paragraph of prose added
there comes home to memfmt, whose procedure has no body: the edit is dropped, and counted so. (An edited evolution
line is memfmt's evolution since the forty-sixth session: this test edited one until then.) The report said it
twice, and the two contradicted each other: "body — the edit wins, the carried copies were dropped", then "body —
memfmt's files have no place for them: the edit is dropped". The first is restated as the second; where the
conversion was not run as the write asked (a record home in memfmt, which places it by its carry), the first stayed
beside it.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir

STORE = GOLDEN / "memfmt" / "full" / "input"


def test_a_body_edit_memfmt_cannot_hold_is_said_once_and_counted(tmp_path):
    out = convert_dir(STORE, "memoir", tmp_path / "memoir")
    lesson = out / "memory" / "lesson_write-a-memory-file.md"
    text = lesson.read_text()
    assert "\n- v0 → v1: first draft\n" in text
    draft = "\n- v0 → v1: first draft\n"
    lesson.write_text(text.replace(draft, draft + "\nReviewed by Kenji.\n"))
    result = CliRunner().invoke(main, ["memoir-to-memfmt", str(out), str(tmp_path / "back"), "--json"])
    report = json.loads(result.stdout)
    said = [w for w in report["warnings"] if w.startswith("memory/lesson_write-a-memory-file.md: edited in memoir")]
    # Watched fail before the fix: both warnings were there.
    assert said == ["memory/lesson_write-a-memory-file.md: edited in memoir: body — memfmt's files have no place for "
                    "them: the edit is dropped"]
    assert report["counts"]["dropped"] == 1
    assert report["counts"]["warnings"] == len(report["warnings"])
