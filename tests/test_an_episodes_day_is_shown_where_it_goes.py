"""The day a memfmt episode happened is shown in memoir and Claude, and an edit of it there comes home.

memfmt's ``happened`` is a date a person wrote: when the thing happened. memoir and Claude have no key for it (a
fact's ``created`` is when it was written down), and ``readable.show`` wrote no line for it: it sat in the carry
alone, where neither memoir-cli nor Claude Code shows it (an episode's valence, importance and participants each had
their line). It is a ``**Happened:**`` line of the body now, read home as the other value lines are: as it was, it
is taken out; edited, it is the episode's new day (and file name); unedited, the way home is byte for byte.
docs/conversion.md.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import memfmt
import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN, tree

STORE = GOLDEN / "memfmt" / "full" / "input"
#: the episode's file in each target
FILES = {"memoir": "memory/fact_deploy-failed-on-a-cold-pool.md", "claude": "reference_deploy-failed-on-a-cold-pool.md"}


def _convert(source: Path, target: str, out: Path) -> Path:
    result = CliRunner().invoke(main, ["convert", "--to", target, "--fail-on-loss", str(source), str(out)])
    assert result.exit_code == 0, result.output
    return out


def _body(text: str) -> str:
    """A file's text after its frontmatter, where memconv's carry is not."""
    return re.split(r"^---\n", text, maxsplit=2, flags=re.M)[2]


@pytest.mark.parametrize("target", sorted(FILES))
def test_the_day_is_a_line_of_the_body(tmp_path, target):
    out = _convert(STORE, target, tmp_path / "out")
    assert "**Happened:** 2026-07-30" in _body((out / FILES[target]).read_text())


@pytest.mark.parametrize("target", sorted(FILES))
def test_the_day_edited_there_comes_home(tmp_path, target):
    out = _convert(STORE, target, tmp_path / "out")
    path = out / FILES[target]
    path.write_text(path.read_text().replace("**Happened:** 2026-07-30", "**Happened:** 2026-07-31"))
    back = _convert(out, "memfmt", tmp_path / "back")
    episode = next(e for e in memfmt.load(back / "memory").episodes if e.summary == "deploy failed on a cold pool")
    assert episode.happened == "2026-07-31"
    assert episode.context.endswith("- stagger boots")  # the line is not text of the context


@pytest.mark.parametrize("target", sorted(FILES))
def test_unedited_the_way_home_is_byte_for_byte(tmp_path, target):
    shutil.copytree(STORE, tmp_path / "in")
    back = _convert(_convert(tmp_path / "in", target, tmp_path / "out"), "memfmt", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv")} == tree(STORE)
