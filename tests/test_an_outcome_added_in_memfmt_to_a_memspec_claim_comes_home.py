"""An outcome written in memfmt on a memspec decision or observation comes home in the claim's text.

memfmt shows a memspec decision (and an observation) as an episode, whose ``outcome`` is where memconv puts a
decision's description: the choice made. A memspec claim has no description, so a native one is shown with no
outcome; a person who writes one with memfmt's library (load, set, serialise, ``write_dir``) gave it text. memspec
has no key for that text either: it comes home as the claim's first paragraph, where ``readable.show`` writes a
description for memspec (and ``memspec search`` finds it). Before, it came home unchanged and the report said
``description`` was dropped, a field the user never saw. A why or a rejected added to the episode's context comes
home as its labelled line, as before. docs/conversion.md.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import memfmt
import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir
from .reference_tools import memspec, needs_memspec

DECISION = ".memspec/memory/decisions/ms_01KN49FJ2028KAX7EADGMGE1FN.md"
OBSERVATION = ".memspec/observations/ms_01KN9E9020MAD6KYG2V1S0VSA2.md"
#: (the claim's title, which memfmt shows as the episode's summary; its file at home)
CLAIMS = {"decision": ("Team A ships on Tuesdays", DECISION),
          "observation": ("No scope on this one: not yet classified", OBSERVATION)}
WORDS = "Shipped every week since quixotrain."


def _edit_in_memfmt(out: Path, summary: str, edit) -> None:
    """What a memfmt user does: load the store, change the episode, write the store again."""
    index = (out / "memory" / "MEMORY.md").read_text()
    generated = re.search(r"^generated: (\S+)$", index, re.M).group(1)  # memfmt stamps the index with a day
    memory = memfmt.load(out / "memory")
    episode = next(e for e in memory.episodes if e.summary == summary)
    edit(episode)
    memfmt.write_dir(memfmt.serialise(memory, generated=generated), out)


def _home(tmp_path: Path, claim: str, edit) -> tuple[Path, str, str]:
    """The canonical memspec store through memfmt, edited there, and home again with ``--fail-on-loss``: the store,
    the claim's file at home, what the command said."""
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", tmp_path / "in")
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    summary, path = CLAIMS[claim]
    _edit_in_memfmt(out, summary, edit)
    result = CliRunner().invoke(main, ["convert", "--to", "memspec", "--fail-on-loss", "-v", str(out),
                                       str(tmp_path / "back")])
    assert result.exit_code == 0, result.output  # 5 before the fix: description dropped
    return tmp_path / "back", (tmp_path / "back" / path).read_text(), result.output


def _set_outcome(episode) -> None:
    assert episode.outcome is None, "a native memspec claim has no description: memfmt shows no outcome"
    episode.outcome = WORDS


@pytest.mark.parametrize("claim", sorted(CLAIMS))
def test_an_outcome_written_in_memfmt_is_the_claims_first_paragraph(tmp_path, claim):
    # Watched fail before the fix: exit 5, "description: brought home from another dialect, … dropped".
    _, text, said = _home(tmp_path, claim, _set_outcome)
    before = (GOLDEN / "memspec" / "canonical" / "input" / CLAIMS[claim][1]).read_text()
    head, _, body = before.partition(f"# {CLAIMS[claim][0]}\n")
    assert text == head + f"# {CLAIMS[claim][0]}\n\n{WORDS}\n" + (body if body.strip() else "")
    assert "dropped:" not in said and "brought home" not in said


@pytest.mark.parametrize("label", ["Why", "Rejected"])
def test_a_why_or_a_rejected_added_to_the_context_is_its_labelled_line(tmp_path, label):
    def add(episode):
        episode.context = f"{episode.context}\n\n**{label}:** {WORDS}"

    _, text, _ = _home(tmp_path, "decision", add)
    assert text.endswith(f"Release train leaves Tuesday 10:00.\n\n**{label}:** {WORDS}\n")


@needs_memspec
def test_memspecs_search_finds_the_outcome(tmp_path):
    back, _, _ = _home(tmp_path, "decision", _set_outcome)
    found = memspec(back, "search", "quixotrain")
    assert found.returncode == 0, found.stderr
    assert "Team A ships on Tuesdays" in found.stdout, found.stdout
