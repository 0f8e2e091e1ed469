"""A working set's rendering whose note is gone comes home as a record of its own, said; never dropped in silence.

memoir's ``session.json`` goes to Claude, memspec and memfmt as one record, "Working set", marked as a rendering,
and its exact JSON in a note under ``.memconv/``; the way home drops the rendering and restores the session from
the note. A user who copies the store without its ``.memconv/`` folder (or cleans it away) leaves the rendering
alone: the way home dropped it all the same, so every goal, next action and decision went nowhere, with 0 dropped,
no warning and exit 0 under ``--fail-on-loss``. IN is untrusted, memconv's marks included: a mark whose note
restores nothing is ignored, and the record converted as it stands, as a carry memconv cannot read is.

Verified by removing the ``ws_note is None`` branch in ``restore.restore``: the home store then has no memory
holding "Write the migration guide", and no warning.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import GOLDEN

SOURCE = GOLDEN / "memoir" / "canonical" / "input"
#: Words of the session no entry of SOURCE says: a parked action, an open question, a decision.
WORDS = ("Write the migration guide", "Do we support Windows paths in the importer?", "Use SQLite for the local cache")


def test_the_rendering_without_its_note_is_a_record_at_home(runner, tmp_path):
    for tgt in ("claude", "memspec", "memfmt"):
        there, home = tmp_path / tgt, tmp_path / f"{tgt}-home"
        assert runner.invoke(main, [f"memoir-to-{tgt}", str(SOURCE), str(there)]).exit_code == 0
        [note] = [p for p in there.rglob("working-set.*") if ".memconv" in p.parts]
        note.unlink()
        result = runner.invoke(main, [f"{tgt}-to-memoir", "--json", "--fail-on-loss", str(there), str(home)])
        assert result.exit_code == 0, (tgt, result.output)
        assert not (home / "session.json").exists()  # memconv does not make a session up from its rendering
        entries = "".join(p.read_text(encoding="utf-8") for p in (home / "memory").glob("*.md"))
        for words in WORDS:
            assert words in entries, f"{tgt}: the session's words come home in an entry: {words!r}"
        warnings = json.loads(result.stdout)["warnings"]
        assert any("no memconv note holds the working set" in w for w in warnings), (tgt, warnings)


def test_the_rendering_with_its_note_is_still_the_working_set(runner, tmp_path):
    for tgt in ("claude", "memspec", "memfmt"):
        there, home = tmp_path / tgt, tmp_path / f"{tgt}-home"
        assert runner.invoke(main, [f"memoir-to-{tgt}", str(SOURCE), str(there)]).exit_code == 0
        result = runner.invoke(main, [f"{tgt}-to-memoir", "--fail-on-loss", str(there), str(home)])
        assert result.exit_code == 0, (tgt, result.output)
        assert (home / "session.json").read_bytes() == (SOURCE / "session.json").read_bytes()
        assert sorted(p.name for p in (home / "memory").iterdir()) == \
            sorted(p.name for p in (SOURCE / "memory").iterdir()), f"{tgt}: the rendering is no entry at home"
