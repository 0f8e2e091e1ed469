"""A memfmt episode's context keeps its lines in another dialect, and an edit of a line shown beside it comes home
without a loss counted.

Found by fuzzing values put into labelled lines of converted golden stores (2026-12-05): an episode's context
(``The fix took two tries:`` and a list under it) was collapsed to one line in memoir, claude and memspec
(``The fix took two tries: - raise pool_max - stagger boots``), and once its ``**Valence:**`` line was edited there,
the context came home so, while ``--fail-on-loss`` stopped the run for a body "dropped" (a line break at its end
that memfmt's reader does not give back).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import GOLDEN

EPISODE = "memory/episodes/2026-07-30-deploy failed on a cold pool.md"
LISTED = "The fix took two tries:\n- raise pool_max\n- stagger boots\n"


def _there(runner, tmp_path, target, store="legacy", valence="negative"):
    """The memfmt ``store`` in ``target``, and the one file there that shows an episode's ``valence``."""
    out = tmp_path / target
    assert runner.invoke(main, [f"memfmt-to-{target}", str(GOLDEN / "memfmt" / store / "input"), str(out)]
                         ).exit_code == 0
    shown = [p for p in out.rglob("*.md") if ".memconv" not in p.parts
             and f"**Valence:** {valence}" in p.read_text(encoding="utf-8")]
    assert len(shown) == 1
    return out, shown[0]


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_the_context_is_shown_with_its_lines(runner, tmp_path, target):
    _, shown = _there(runner, tmp_path, target)
    assert LISTED in shown.read_text(encoding="utf-8")


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_an_edited_valence_line_comes_home_with_the_context_as_it_was(runner, tmp_path, target):
    out, shown = _there(runner, tmp_path, target)
    shown.write_text(shown.read_text(encoding="utf-8").replace("**Valence:** negative", "**Valence:** mixed"),
                     encoding="utf-8")
    back = runner.invoke(main, [f"{target}-to-memfmt", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    home = (tmp_path / "back" / EPISODE).read_text(encoding="utf-8")
    original = (GOLDEN / "memfmt" / "legacy" / "input" / EPISODE).read_text(encoding="utf-8")
    assert "valence: mixed" in home
    assert home.split("\n---\n", 1)[1] == original.split("\n---\n", 1)[1]  # the text below the frontmatter


@pytest.mark.parametrize("target", ["claude", "memoir"])  # memspec gives a record no description
def test_an_episode_with_no_text_gains_none_from_its_title(runner, tmp_path, target):
    # An episode of a title alone is a Claude or memoir memory whose description is the title (their files need
    # one). Its Valence line edited there, the body counted as edited, and the description, taken for text of the
    # record's own that the edit must keep, came home as the episode's context: "body" dropped, exit 5.
    out, shown = _there(runner, tmp_path, target, store="vault", valence="positive")
    shown.write_text(shown.read_text(encoding="utf-8").replace("**Valence:** positive", "**Valence:** mixed"),
                     encoding="utf-8")
    back = runner.invoke(main, [f"{target}-to-memfmt", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    home = (tmp_path / "back" / "memory" / "episodes" / "2026-06-02-first green deploy.md").read_text(encoding="utf-8")
    assert home.endswith("\n# first green deploy\n") and "valence: mixed" in home
