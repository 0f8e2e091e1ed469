"""A memspec claim of memspec's own that links a claim memconv converted comes back through another dialect as written.

A memoir store converted to memspec, then a decision superseded there with memspec's own ``supersede --body``: the new
claim is memspec's (no carry; memspec 0.7.2 writes it without ``source_kind``), and its ``supersedes`` names the
claim memconv made of the memoir decision. Through memoir, Claude or memfmt and back, that new claim came back with
``source_kind: agent`` added, the report said "source_kind: taken out in the dialect it was read from … the deletion
is dropped" and counted it dropped (``check --via`` exit 1, ``--fail-on-loss`` 5), though nobody took anything
out. Its links were renamed to follow the converted claim home (``restore``), which made it look edited since read,
so it got no format patch and came home rendered as a record built in code. Fixed in the forty-sixth session:
renamed links are no edit of its own, so it keeps its fingerprint, and its patch (docs/conversion.md).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import write_files

OLD = "ms_01KQNJ50005DNX7R97BE9VQ70Q"
NEW = "ms_01M995JAZ0SKVT2TGE0RFGTHV9"

def _ok(runner, args):
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output


def _store(runner, tmp_path):
    """memoir → memspec by memconv, then the decision superseded as memspec 0.7.2's ``supersede --body`` does."""
    write_files(tmp_path / "memoir", {"memory/decision_tabs.md": b"""---
type: decision
name: Use tabs
description: Tabs for indentation
date: 2026-05-03
why: taste
rejected: spaces
created: 2026-05-03
---

Body.
"""})
    ms = tmp_path / "ms"
    _ok(runner, ["memoir-to-memspec", "-q", str(tmp_path / "memoir"), str(ms)])
    old = ms / ".memspec" / "memory" / "decisions" / f"{OLD}.md"
    text = old.read_text(encoding="utf-8")
    old.unlink()
    review = "check_by: '2026-10-30T00:00:00.000Z'\n"
    assert review in text and "state: active\n" in text, text
    text = text.replace("state: active\n", "state: superseded\n")
    text = text.replace(review, f"{review}superseded_by: {NEW}\nsupersede_reason: changed mind\n")
    (ms / ".memspec" / "archive" / f"{OLD}.md").write_text(text, encoding="utf-8")
    (ms / ".memspec" / "memory" / "decisions" / f"{NEW}.md").write_text(f"""---
id: {NEW}
kind: claim
type: decision
state: active
created: '2026-12-07T21:11:45.390Z'
source: unknown
tags: []
check_by: '2027-06-05T21:11:45.391Z'
last_verified: '2026-12-07T21:11:45.390Z'
supersedes:
  - {OLD}
supersede_reason: changed mind
---
# Use tabs

Use spaces
""", encoding="utf-8")
    return ms


@pytest.mark.parametrize("via", ["memoir", "claude", "memfmt"])
def test_memspecs_own_claim_comes_back_as_written_and_nothing_is_said_dropped(runner, tmp_path, via):
    ms = _store(runner, tmp_path)
    new = (ms / ".memspec" / "memory" / "decisions" / f"{NEW}.md").read_bytes()
    there, back = tmp_path / "there", tmp_path / "back"
    _ok(runner, [f"memspec-to-{via}", "-q", str(ms), str(there)])
    result = runner.invoke(main, [f"{via}-to-memspec", "--fail-on-loss", str(there), str(back)])
    assert result.exit_code == 0, "nothing was taken out anywhere, so nothing is dropped: " + result.stderr
    assert "deletion is dropped" not in result.stderr, result.stderr
    assert (back / ".memspec" / "memory" / "decisions" / f"{NEW}.md").read_bytes() == new, \
        "memspec's own claim, unedited, comes back as its file was"
