"""A note in IN may be crafted: one claiming the link a live record of IN comes home under never takes it silently.

memoir -> claude keeps a hidden decision as a note (``.memconv/notes/decision_client-name.markdown``) and the live
decision as ``project_local-db-choice.md``, whose carry names no link (it comes home under the link its kind and
name give: ``decision_local-db-choice``). A note edited to claim that link came home under it, and the live record
was written as ``decision_local-db-choice-2.md``: exit 0, no warning, and every ``[[decision_local-db-choice]]``
of the store now named the hidden record. Found in the forty-fifth session. The record home again keeps its link, as
the rule for names says (docs/limits.md, "Names never collide"); the live record numbered for it is said, in the rule's
words: which file, which name, and why (``converters.forward``, docs/conversion.md).
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import GOLDEN


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
    if "name: Local store is SQLite, not Postgres" not in live:
        said = [w for w in result.stderr.splitlines() if "project_local-db-choice.md" in w]
        assert said, result.stderr
        assert "decision_local-db-choice is written as decision_local-db-choice-2" in said[0], said
        assert "another record is written under that very name" in said[0], said
