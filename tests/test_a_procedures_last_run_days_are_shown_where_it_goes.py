"""The days a memfmt procedure last failed and last succeeded are shown in memoir, Claude and memspec, and an edit
of either there comes home.

memfmt's ``last_failed`` and ``last_succeeded`` are dates its own file shows (``**Last failure** — 2026-07-30: …``,
``**Last success** — 2026-08-01``). memoir, Claude and memspec have no key for them, and ``readable.show`` wrote no
line for them: the ``**Last failure:**`` line said why, not when, and both days sat in the carry alone, where no
target's tool shows them. Each is a line of the body now (``**Last failed:**``, ``**Last succeeded:**``), read home
as an episode's ``**Happened:**`` line is: as it was, it is taken out; edited, it is the procedure's new day;
unedited, the way home is byte for byte. memfmt shows both itself, so a procedure there gets no such line.
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
from memconv.converters import readable
from memconv.model import Record

from .conftest import GOLDEN, tree

STORE = GOLDEN / "memfmt" / "full" / "input"
TARGETS = ("claude", "memoir", "memspec")
LINES = ("**Last failed:** 2026-07-30", "**Last succeeded:** 2026-08-01")


def _convert(source: Path, target: str, out: Path) -> Path:
    result = CliRunner().invoke(main, ["convert", "--to", target, "--fail-on-loss", str(source), str(out)])
    assert result.exit_code == 0, result.output
    return out


def _file(out: Path) -> Path:
    """The procedure's file in a target: the one whose body says its steps."""
    return next(p for p in sorted(out.rglob("*.md")) if ".memconv" not in p.parts
                and "1. push to main" in p.read_text())


def _body(text: str) -> str:
    """A file's text after its frontmatter, where memconv's carry is not."""
    return re.split(r"^---\n", text, maxsplit=2, flags=re.M)[2]


@pytest.mark.parametrize("target", TARGETS)
def test_both_days_are_lines_of_the_body(tmp_path, target):
    body = _body(_file(_convert(STORE, target, tmp_path / "out")).read_text())
    for line in LINES:
        assert line in body


@pytest.mark.parametrize("target", TARGETS)
def test_the_days_edited_there_come_home(tmp_path, target):
    path = _file(_convert(STORE, target, tmp_path / "out"))
    text = path.read_text()
    text = text.replace(LINES[0], "**Last failed:** 2026-07-29").replace(LINES[1], "**Last succeeded:** 2026-08-03")
    path.write_text(text)
    back = _convert(tmp_path / "out", "memfmt", tmp_path / "back")
    procedure = next(p for p in memfmt.load(back / "memory").procedures if p.name == "deploy to Railway")
    assert (procedure.last_failed, procedure.last_succeeded) == ("2026-07-29", "2026-08-03")
    assert procedure.last_failure == "the pool refused the fourth client"
    assert procedure.preconditions == ["tests pass", "pool_max is set"]  # the lines are not text of the procedure


@pytest.mark.parametrize("target", TARGETS)
def test_unedited_the_way_home_is_byte_for_byte(tmp_path, target):
    shutil.copytree(STORE, tmp_path / "in")
    back = _convert(_convert(tmp_path / "in", target, tmp_path / "out"), "memfmt", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv")} == tree(STORE)


def test_memfmt_shows_them_itself():
    record = Record(kind="procedure", link="deploy", title="deploy", body="", last_failure="the pool",
                    last_failed="2026-07-30", last_succeeded="2026-08-01")
    shown = readable.show(record, "memfmt")
    assert not any("Last failed" in p or "Last succeeded" in p for p in shown.preconditions or ())
