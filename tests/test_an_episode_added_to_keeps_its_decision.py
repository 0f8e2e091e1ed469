"""A decision converted into a memfmt episode, its context added to there, keeps its why and its rejected at home.

An episode has no why and no rejected: a decision's are the last paragraphs of its context, labelled
(``**Why:** …``, ``**Rejected:** …``), and the way home reads them back into their fields. Text added to the
context goes after them. Before the fix only labels at the very end were read: the decision came home with both
keys gone and their paragraphs in its body (memoir's validator then warned of a decision without a why), and the
report said nothing was dropped.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest

from .convert_helpers import convert_dir

DECISION = ("---\ntype: decision\nname: Plain decision\ndescription: desc\ndate: 2026-02-02\n"
            "why: because it is fast\nrejected: slow thing\n---\n\nMy notes.\n")
EPISODE = "memory/episodes/2026-02-02-Plain decision.md"


def _home(tmp_path: Path, edit) -> str:
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "decision_plain.md").write_text(DECISION)
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    episode = out / EPISODE
    edited = edit(episode.read_text())
    assert edited != episode.read_text(), "the edit must change the episode"
    episode.write_text(edited)
    memfmt.load(out / "memory")  # memfmt's own reader takes the edited store
    return (convert_dir(out, "memoir", tmp_path / "back") / "memory" / "decision_plain.md").read_text()


@pytest.mark.parametrize("added", ["Added by hand.", "Added by hand.\n\nAnd a second paragraph."],
                         ids=["a-paragraph", "two-paragraphs"])
def test_text_added_after_the_labels_stays_text_and_the_fields_stay_fields(tmp_path, added):
    # Watched fail before the fix: why and rejected were gone from the frontmatter, their lines in the body.
    back = _home(tmp_path, lambda t: t.replace("**Rejected:** slow thing\n",
                                               f"**Rejected:** slow thing\n\n{added}\n"))
    assert back == DECISION + f"\n{added}\n"


def test_an_edited_why_still_comes_home_as_the_why(tmp_path):
    back = _home(tmp_path, lambda t: t.replace("**Why:** because it is fast", "**Why:** it is simple"))
    assert back == DECISION.replace("why: because it is fast", "why: it is simple")
