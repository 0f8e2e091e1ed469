"""A file a merge moves off its path, because the other store has something else there, is a conflict (exit 6).

A memfmt folder keeps a person's own notes (Markdown without `memfmt_type`) beside memfmt's records. Where one store
has such a note at `entities/Kenji.md` and the other the entity Kenji there, the merge keeps the record in place and
the note beside it, `Kenji.conflict-<8 hex>.md`. That was reported `added ...: from A; same path held by another
file`, exit 0: a note renamed (its links in the vault now open the entity) with nothing a script sees. An import
(`--into`) did the same to a note of EXISTING, exit 0, and its report said only that IN's record was added.
Now it is a conflict, as two names that fold alike are (docs/merge.md): where the file was, the copy that holds it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from memconv.cli import main

from .conftest import GOLDEN

MEMFMT = GOLDEN / "memfmt" / "full" / "input"
NOTE = "# Kenji\n\nMy own vault note on Kenji.\n"


def _with_note(root: Path) -> Path:
    shutil.copytree(MEMFMT, root)
    (root / "memory" / "entities" / "Kenji.md").write_text(NOTE)  # the entity's path, a note of the person's
    return root


def _run(runner, *args):
    result = runner.invoke(main, [*args, "--json"])
    return result, json.loads(result.stdout)


def _moved(report) -> dict:
    [line] = [r for r in report["records"] if r["kind"] == "file" and r["identity"] == "memory/entities/Kenji.md"]
    return line


def test_a_note_kept_beside_a_record_at_its_path_is_a_conflict(runner, tmp_path):
    a, b = _with_note(tmp_path / "a"), tmp_path / "b"
    shutil.copytree(MEMFMT, b)
    result, report = _run(runner, "merge", str(a), str(b), str(tmp_path / "out"))
    assert result.exit_code == 6, "a file renamed by the merge is a conflict a script sees"
    line = _moved(report)
    assert line["status"] == "conflict" and line["where"] == "memory/entities/Kenji.md"
    copy = tmp_path / "out" / line["conflict_copy"]
    assert copy.read_text() == NOTE, "the report names the file that holds the note"
    assert not line["already_kept"]
    # merging the result again with the side that had the note: the copy is already kept, exit 0
    again, report = _run(runner, "merge", str(tmp_path / "out"), str(a), str(tmp_path / "again"))
    assert again.exit_code == 0 and _moved(report)["already_kept"]


def test_an_import_that_moves_a_note_of_existing_says_so(runner, tmp_path):
    existing = _with_note(tmp_path / "existing")
    source = tmp_path / "in"
    result = runner.invoke(main, ["memfmt-to-memoir", str(MEMFMT), str(source)])
    assert result.exit_code == 0, result.output
    result, report = _run(runner, "memoir-to-memfmt", str(source), "--into", str(existing))
    assert result.exit_code == 6, "EXISTING's own file was renamed: a conflict, not a silent import"
    line = _moved(report)
    assert line["status"] == "conflict"
    assert (existing / line["conflict_copy"]).read_text() == NOTE
