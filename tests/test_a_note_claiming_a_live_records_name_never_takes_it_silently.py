"""A note in IN may be crafted: one claiming the link a live record of IN comes home under never takes it silently.

memoir -> claude keeps a hidden decision as a note (``.memconv/notes/decision_client-name.markdown``) and the live
decision as ``project_local-db-choice.md``, whose carry names no link (it comes home under the link its kind and
name give: ``decision_local-db-choice``). A note edited to claim that link came home under it, and the live record
was written as ``decision_local-db-choice-2.md``: exit 0, no warning, and every ``[[decision_local-db-choice]]``
of the store now named the hidden record. Found in the forty-fifth session; not fixed yet (the record home again
takes its link before a record deriving one, ``converters.forward``, and numbering a derived link says nothing).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import GOLDEN


@pytest.mark.xfail(strict=True, reason="a crafted note's link takes a live record's name silently (not fixed yet)")
def test_a_note_claiming_a_live_records_link_is_said_or_refused(runner, tmp_path):
    claude = tmp_path / "claude"
    result = runner.invoke(main, ["memoir-to-claude", str(GOLDEN / "memoir" / "canonical" / "input"), str(claude)])
    assert result.exit_code == 0, result.stderr
    (claude / ".memconv" / "manifest.json").unlink()
    note = claude / ".memconv" / "notes" / "decision_client-name.markdown"
    text = note.read_text()
    assert '\\"link\\":\\"decision_client-name\\"' in text
    note.write_text(text.replace('\\"link\\":\\"decision_client-name\\"', '\\"link\\":\\"decision_local-db-choice\\"'))
    out = tmp_path / "memoir"
    result = runner.invoke(main, ["claude-to-memoir", str(claude), str(out)])
    assert result.exit_code in (0, 3), result.stderr
    live = (out / "memory" / "decision_local-db-choice.md").read_text()
    assert "name: Local store is SQLite, not Postgres" in live or "decision_local-db-choice" in result.stderr
