"""A memfmt episode's outcome, edited where memspec shows it (the observation's first paragraph), is its outcome home.

memspec has no outcome: a memfmt episode is an observation whose first paragraph is the outcome, as a claim's is
its description (docs/conversion.md, "Native first"). That paragraph edited in memspec came home as a new first
paragraph of the episode's context, and the old outcome stayed in memfmt's frontmatter and ``**Outcome**`` line.
"""

from __future__ import annotations

from pathlib import Path

import memfmt

from .convert_helpers import convert_dir

EPISODE = ("---\nmemfmt_type: episode\nhappened: 2026-07-30\noutcome: rolled back, raised pool_max\n---\n\n"
           "# deploy failed on a cold pool\n\nTwo workers booted at once.\n\n"
           "**Outcome** — rolled back, raised pool_max\n")


def test_the_outcome_edited_in_memspec_is_the_outcome_at_home(tmp_path: Path) -> None:
    # Watched fail before the fix: outcome "rolled back, raised pool_max", and the edit the context's first paragraph.
    (tmp_path / "in" / "memory" / "episodes").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "episodes" / "2026-07-30-deploy failed on a cold pool.md").write_text(EPISODE)
    there = convert_dir(tmp_path / "in", "memspec", tmp_path / "there")
    [file] = (there / ".memspec" / "observations").glob("*.md")
    text = file.read_text()
    assert "\n# deploy failed on a cold pool\n\nrolled back, raised pool_max\n\n" in text
    file.write_text(text.replace("\nrolled back, raised pool_max\n", "\nrolled back, raised pool_max to 8\n"))
    back = convert_dir(there, "memfmt", tmp_path / "back")
    [episode] = memfmt.load(back / "memory").episodes
    assert episode.outcome == "rolled back, raised pool_max to 8", "the paragraph memspec showed it in is the outcome"
    assert episode.context == "Two workers booted at once.", "the edited outcome is not a paragraph of the context"
