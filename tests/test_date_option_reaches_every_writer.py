"""``--date`` is the day a target's writer stamps where its format needs one and the store has none.

It travels as the writers' occasion (``protocol.Occasion``) through the whole
pipeline: the final write and the converter's read-back see the same day, so a
record given it carries nothing wrong, and the way back is exact.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from memconv.cli import main

GOLDEN = Path(__file__).parent.parent / "golden"


def _run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _created(out: Path) -> set[str]:
    days = set()
    for path in (out / ".memspec").rglob("*.md"):
        if "/.memconv/" in path.as_posix():
            continue
        found = re.search(r"^created: ['\"]?([0-9T:.Z-]+)", path.read_text(encoding="utf-8"), re.M)
        if found:
            days.add(found.group(1)[:10])
    return days


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".memconv/manifest.json" not in p.as_posix()}


def test_a_given_day_dates_the_undated_claude_memories_in_memspec_and_the_way_back_is_exact(tmp_path):
    source = GOLDEN / "claude" / "canonical" / "input"
    plain, dated, back = tmp_path / "plain", tmp_path / "dated", tmp_path / "back"
    _run("claude-to-memspec", str(source), str(plain))
    _run("claude-to-memspec", "--date", "2031-02-03", str(source), str(dated))
    assert "2031-02-03" not in _created(plain), "without --date the day comes from the store"
    assert _created(dated) == {"2031-02-03"}, "Claude memories have no dates: every one gets the day given"
    # The read-back saw the same day as the final write: nothing about `created` is carried or seen as an edit.
    _run("memspec-to-claude", str(dated), str(back))
    assert _tree(back) == _tree(source) | {k: v for k, v in _tree(back).items() if k.startswith(".memconv/")}


def test_the_day_given_changes_only_the_dates(tmp_path):
    source = GOLDEN / "claude" / "canonical" / "input"
    one, two = tmp_path / "one", tmp_path / "two"
    _run("claude-to-memspec", "--date", "2031-02-03", str(source), str(one))
    _run("claude-to-memspec", "--date", "2032-03-04", str(source), str(two))
    a, b = _tree(one), _tree(two)
    assert a.keys() == b.keys()
    differ = [k for k in a if a[k] != b[k]]
    assert differ, "the day given is used"
    for key in differ:
        # The day, the review day counted from it, and the carry's digests of the two: nothing else.
        x = _masked(a[key].decode(), "2031-02-03", "2031-05-04")
        y = _masked(b[key].decode(), "2032-03-04", "2032-06-02")
        assert x == y, key


def _masked(text: str, day: str, review: str) -> str:
    return re.sub(r'"(created|check_by)":"[0-9a-f]{12}"', r'"\1":"H"', text.replace(day, "D").replace(review, "R"))
