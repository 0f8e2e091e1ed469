"""A record kept as a note because its target kind cannot mark its state says so, not that its kind has no home.

memoir marks ``superseded`` on a decision only. A memspec fact (or procedure, observation) that is superseded goes
to memoir as a note, and the warning said "fact has no home in memoir", which is false (memoir has facts, and the
live facts of the same store went there) and hides the reason: its state. It now says "superseded in the source;
memoir cannot mark a fact so", as a record edited in memspec since its conversion already did
(docs/conversion.md, "(forty-sixth session)").
"""

from __future__ import annotations

import pytest

from memconv.cli import main

_CLAIM = """---
id: {id}
kind: claim
type: {type}
state: {state}
created: '2026-04-01T10:00:00.000Z'
source: claude-code
source_kind: agent
tags: []
check_by: '2026-07-01T10:00:00.000Z'
{more}---
# {title}

{title} in words.
"""

_OLD = "ms_01KN49FJ20YPXRG8K06G4R9E2A"
_NEW = "ms_01KN49FJ20YPXRG8K06G4R9E2B"


@pytest.mark.parametrize(("type_", "kind_said"), [("fact", "a fact"), ("procedure", "a lesson")])
def test_a_superseded_claim_into_memoir_is_said_kept_out_for_its_state(runner, tmp_path, type_, kind_said):
    folder = {"fact": "facts", "procedure": "procedures"}[type_]
    ms = tmp_path / "in" / ".memspec"
    (ms / "archive").mkdir(parents=True)
    (ms / "memory" / folder).mkdir(parents=True)
    (ms / "archive" / f"{_OLD}.md").write_text(_CLAIM.format(
        id=_OLD, type=type_, state="superseded", title="Old way",
        more=f"superseded_by: {_NEW}\nsupersede_reason: replaced\n"), encoding="utf-8")
    (ms / "memory" / folder / f"{_NEW}.md").write_text(_CLAIM.format(
        id=_NEW, type=type_, state="active", title="New way", more=f"supersedes:\n  - {_OLD}\n"), encoding="utf-8")
    result = runner.invoke(main, ["memspec-to-memoir", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert f"kept as a note, not as a current memory: superseded in the source; memoir cannot mark {kind_said} so" \
        in result.stderr, "the note names the state memoir's kind cannot mark"
    assert "has no home in memoir" not in result.stderr, "memoir has the kind: only the state has no mark there"
