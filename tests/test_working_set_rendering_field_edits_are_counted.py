"""A value of the working set's rendering edited in the target is counted dropped, not lost unsaid.

memconv writes session.json into claude, memspec and memfmt as a memory of its own, which the way home drops: the
working set is restored from its note. The rendering's digest covers its text, so an edit of a line was counted;
an edit of a value memconv or the target's writer filled in (memspec's ``source: memconv-import``, its ``tags: []``,
a Claude memory's ``description``, a memfmt entity's added ``entity_type``) was dropped with exit 0 and nothing said.
Found by fuzzing frontmatter values of converted golden stores (2026-12-05). Now the way home renders the working
set again as the target's writer does, and each value that differs is counted dropped, so ``--fail-on-loss`` fails.
"""

from __future__ import annotations

import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN

SRC = GOLDEN / "memoir" / "canonical" / "input"


def _rendering(out, target):
    found = [p for p in out.rglob("*.md") if ".memconv" not in p.parts and "MEMORY.md" != p.name
             and '"working_set_rendering"' in p.read_text(encoding="utf-8").replace('\\"', '"')]
    assert len(found) == 1, found
    return found[0]


EDITS = [
    ("memspec", "source: memconv-import\n", "source: my own notes\n", "source_text"),
    ("memspec", "tags: []\n", "tags: [session]\n", "tags"),
    ("memspec", "source_kind: import\n", "source_kind: operator\n", "source_kind"),
    ("memspec", "type: fact\n", "type: decision\n", "kind"),
    ("claude", "type: project\n", "type: user\n", "kind"),
    ("claude", "name: Working set\n", "name: Working set\nowner: me\n", "extra.owner"),
    ("memfmt", "memfmt_type: entity\n", "memfmt_type: entity\nentity_type: session\n", "category"),
]


@pytest.mark.parametrize("target, old, new, field", EDITS)
def test_an_edited_value_of_the_rendering_is_counted(runner, tmp_path, target, old, new, field):
    out = tmp_path / target
    made = runner.invoke(main, [f"memoir-to-{target}", str(SRC), str(out)])
    assert made.exit_code == 0, made.stderr
    untouched = runner.invoke(main, [f"{target}-to-memoir", str(out), str(tmp_path / "as-is"), "--fail-on-loss"])
    assert untouched.exit_code == 0, untouched.stderr  # unedited, nothing is counted: the check is not a guess
    edited = tmp_path / "edited"
    shutil.copytree(out, edited)
    shown = _rendering(edited, target)
    text = shown.read_text(encoding="utf-8")
    assert text.count(old) == 1
    shown.write_text(text.replace(old, new), encoding="utf-8")
    failed = runner.invoke(main, [f"{target}-to-memoir", str(edited), str(tmp_path / "back"), "--fail-on-loss"])
    assert failed.exit_code == 5, failed.stderr
    assert "the working set's rendering had its" in failed.stderr and field in failed.stderr
    # Without --fail-on-loss the working set still comes home as it was, from its note.
    done = runner.invoke(main, [f"{target}-to-memoir", str(edited), str(tmp_path / "done")])
    assert done.exit_code == 0, done.stderr
    assert (tmp_path / "done" / "session.json").read_bytes() == (SRC / "session.json").read_bytes()
