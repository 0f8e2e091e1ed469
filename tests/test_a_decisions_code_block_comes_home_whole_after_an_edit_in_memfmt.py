"""A decision's code block comes home whole after another line of its context is edited in memfmt.

A memoir or Claude decision is a memfmt episode, its body the episode's context line for line. Read home, the
context is read a paragraph a line (the digests that tell an edit were made of that reading), and once the user
edited one line of it in memfmt, the edit won with that reading: a fenced block elsewhere in the body, which the
user did not touch, came home run together on one line (```` ``` ## Outcome It failed. ``` ````), no longer code,
and its line memfmt needs one space in (`` ## Outcome``) kept the space. Found hunting bodies with fences
(2026-12-07, forty-fifth session).
"""

from __future__ import annotations

import pytest

from .decision_through_memfmt import decision_stores, episode_in_memfmt, home_again

FENCE = "```\n## Outcome\nIt failed.\n**Supersede reason:** none\n```"
BODY = f"We chose X.\n\n{FENCE}\n\n~~~\n# not a title\n~~~\n\n    ## indented code\n    [[fact_other]]\n\nThe end.\n"
STORES = decision_stores(BODY)


@pytest.mark.parametrize("home", sorted(STORES))
def test_an_edited_line_beside_a_fence_leaves_the_fence_as_it_was(runner, tmp_path, home):
    name, text = STORES[home]
    episode = episode_in_memfmt(runner, tmp_path, home, name, text)
    shown = episode.read_text(encoding="utf-8")
    assert "We chose X." in shown
    episode.write_text(shown.replace("We chose X.", "We chose Y."), encoding="utf-8")
    home_again(runner, tmp_path, home)
    assert (tmp_path / "back" / name).read_text(encoding="utf-8") == text.replace("We chose X.", "We chose Y.")
