"""A record of memfmt, memoir or Claude superseded with memspec's own tool (``memspec supersede <kept> --merge-from
<other>``) comes home as a note, not as a current memory, when home's kind cannot mark it so (a memfmt entity, a memoir
fact, a Claude memory; docs/conversion.md, "A state is live only where the target's kind can mark it"), and it stays
one every round: converting home to memspec again (the note is read, the claim is superseded there) and back, with no
edit, gives the note again, said, and memspec the superseded claim.

Before (2026-12-07): the second round brought it home as a live memory (memfmt's ``memory/entities/Bob.md``), with
nothing said: its carry held the superseded state as one home had written, and a record home again was taken as live
unless its state was edited in memspec since its conversion.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .reference_tools import memspec, memspec_load, needs_memspec
from .test_a_supersede_reason_given_in_memspec_comes_home_shown import STORES


def _live_bob(home):
    """The files of ``home`` outside memconv's own folder that hold Bob's words."""
    return [p for p in home.rglob("*.md") if ".memconv" not in p.parts and "is tall" in p.read_text(encoding="utf-8")]


def _noted_bob(home):
    notes = home / ".memconv" / "notes"
    return [p for p in notes.rglob("*") if p.is_file() and "tall" in p.read_text(encoding="utf-8")]


def _bob_in_memspec(ms):
    """Bob's claim as memspec's loader gives it, and its file's text."""
    bob = next(i for i in memspec_load(ms).items if i["title"] == "Bob")
    return bob, (ms / bob["file"]).read_text(encoding="utf-8")


@needs_memspec
@pytest.mark.parametrize("dialect", ["memfmt", "memoir", "claude"])
def test_bob_merged_in_memspec_is_a_note_at_home_every_round(runner, tmp_path, dialect):
    src = tmp_path / "in"
    for path, text in STORES[dialect].items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text, encoding="utf-8")
    ms = tmp_path / "ms0"
    assert runner.invoke(main, [f"{dialect}-to-memspec", "-q", str(src), str(ms)]).exit_code == 0
    ids = {i["title"]: i["id"] for i in memspec_load(ms).items}
    done = memspec(ms, "supersede", ids["Ana"], "--merge-from", ids["Bob"], "--reason", "one person")
    assert done.returncode == 0, done.stdout + done.stderr
    for n in range(1, 4):
        home = tmp_path / f"home{n}"
        back = runner.invoke(main, [f"memspec-to-{dialect}", str(ms), str(home)])
        assert back.exit_code == 0, back.stderr
        assert not _live_bob(home), f"round {n}: Bob came home live"
        assert len(_noted_bob(home)) == 1, f"round {n}"
        assert "kept as a note, not as a current memory" in back.stderr, f"round {n}"
        if n == 1:  # (it said "memfmt cannot mark a entity so")
            kind = {"memfmt": "an entity", "memoir": "a fact", "claude": "a preference"}[dialect]
            assert f"since its conversion; {dialect} cannot mark {kind} so" in back.stderr, back.stderr
        ms = tmp_path / f"ms{n}"
        assert runner.invoke(main, [f"{dialect}-to-memspec", str(home), str(ms)]).exit_code == 0
        bob, text = _bob_in_memspec(ms)
        assert bob["state"] == "superseded" and f"\nsuperseded_by: {ids['Ana']}\n" in text, f"round {n}: {text}"
