"""An upgrade that makes MEMORY.md pass Claude Code's limits (200 lines, 25 KB) says so, on the index's report.

An upgrade writes each inline bullet of the index as a link line to its new fact entry, and renames link targets
(`user_x.md` → `preference_x.md`): an index Claude Code loaded whole grew past 25,000 bytes, so the last bullets,
now entries, were past what Claude Code reads, with no warning and exit 0 (in place or into OUT). The index is
still written as the upgrade makes it (a hand-kept index is not reflowed, docs/claude.md), but not silently.
"""

from __future__ import annotations

from memconv import upgrade as upgrading
from memconv.dialects.claude import index
from memconv.report import Report

from .claude_support import write

BULLET = "- Remember that the service number {} uses the staging host for integration tests and pins its image"


def _index(bullets: int) -> bytes:
    return ("# Memory Index\n\n" + "".join(BULLET.format(n) + "\n" for n in range(bullets))).encode()


def _upgraded(tmp_path, raw: bytes):
    write({"MEMORY.md": raw}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    files = upgrading.plan(tmp_path / "in", report, "flat").files
    (said,) = [f for f in report.files if f.source == "MEMORY.md"]
    return files["MEMORY.md"], said.warnings


def test_an_index_the_upgrade_grows_past_25_kb_is_warned_of(tmp_path):
    raw = _index(190)
    assert index.past_limits(raw) is None, "Claude Code loads the hand-written index whole"
    data, warnings = _upgraded(tmp_path, raw)
    assert index.past_limits(data) is not None, "the upgrade's link lines are longer than the bullets"
    assert [w for w in warnings if "25 KB" in w and "once upgraded" in w], warnings


def test_an_index_already_past_the_limits_is_warned_of_too(tmp_path):
    data, warnings = _upgraded(tmp_path, _index(230))
    assert [w for w in warnings if "200 lines" in w and "once upgraded" not in w], warnings


def test_an_index_within_the_limits_after_the_upgrade_is_quiet(tmp_path):
    data, warnings = _upgraded(tmp_path, _index(20))
    assert index.past_limits(data) is None
    assert not [w for w in warnings if "Claude Code loads only" in w], warnings
