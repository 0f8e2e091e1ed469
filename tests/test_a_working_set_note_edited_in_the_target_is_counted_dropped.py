"""The working set's note, its readable lines edited in the target, is counted dropped on the way home.

The note that holds the working set's exact JSON (``.memconv/notes/working-set.*``) shows the session too, as the
rendering does: a person who finds it in the store folder and edits a line of it has written text the way home
does not apply (the session comes from the note's JSON). An edit of the rendering was counted dropped, so
``--fail-on-loss`` failed; the same edit in the note was a warning only: 0 dropped, exit 0, the new words in no
file at home.

Verified by taking the note's report entry out of ``restore.restore``: 0 dropped, and ``--fail-on-loss`` exits 0.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN, tree

SOURCE = GOLDEN / "memoir" / "canonical" / "input"
LINE = "- Add retry with backoff to the sync client"


def test_the_working_set_note_edited_in_each_target_is_counted_dropped(runner, tmp_path):
    for tgt in ("claude", "memspec", "memfmt"):
        there = tmp_path / tgt
        assert runner.invoke(main, [f"memoir-to-{tgt}", str(SOURCE), str(there)]).exit_code == 0
        [note] = [p for p in there.rglob("working-set.*") if ".memconv" in p.parts]
        text = note.read_text(encoding="utf-8")
        assert LINE in text, tgt
        note.write_text(text.replace(LINE, "- Add retry with jitter to the sync client", 1), encoding="utf-8")
        args = [f"{tgt}-to-memoir", "--json", str(there)]
        result = runner.invoke(main, [*args, str(tmp_path / f"{tgt}-home")])
        assert result.exit_code == 0, (tgt, result.output)
        assert tree(tmp_path / f"{tgt}-home")["session.json"] == tree(SOURCE)["session.json"]
        report = json.loads(result.stdout)
        said = [(f["source"], f["dropped"]) for f in report["files"] if f["target_kind"] == "working_set"]
        assert said == [(note.relative_to(there).as_posix(), ["edits"])], \
            f"{tgt}: an edit the way home does not apply is counted dropped"
        assert report["counts"]["dropped"] == 1, (tgt, report["counts"])
        failed = runner.invoke(main, [*args, "--fail-on-loss", str(tmp_path / f"{tgt}-home2")])
        assert failed.exit_code == 5, (tgt, failed.output)
