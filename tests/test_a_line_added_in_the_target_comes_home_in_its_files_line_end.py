"""A line added in the target to a file whose lines end CRLF comes home ending CRLF, as the file's other lines do.

Edited, a record is written home by its own writer in the layout of the file the format patch rebuilds on the
edited rendering. That rendering ends its lines LF; the patch held the file's CRLF lines only, so a line it did not
hold (one appended in the target) kept the rendering's LF, and the writer kept those bytes: the file came home
mixing CRLF and LF. Where a line moved the patch's one change (every line of a CRLF file differs from its
rendering), memspec's way home dropped it and the whole file came home LF.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .convert_helpers import convert_dir

#: (home, the file's path in the store, its bytes, a second file beside it)
HOMES = {
    "memoir": ("memory/fact_ops.md",
               b"---\r\ntype: fact\r\nname: Ops\r\ndescription: the ops team\r\n---\r\n"
               b"\r\nKeeps the lights on.\r\n\r\nPages at night.\r\n",
               b"---\ntype: fact\nname: Dev\ndescription: the dev team\n---\n\nShips.\n"),
    "claude": ("project_ops.md",
               b"---\r\nname: Ops\r\ndescription: the ops team\r\ntype: project\r\n---\r\n"
               b"\r\nKeeps the lights on.\r\n\r\nPages at night.\r\n",
               b"---\nname: Dev\ndescription: the dev team\ntype: project\n---\n\nShips.\n"),
}
# (memfmt reads no line it does not know in an entity's body: the added line is dropped there, with a warning.)
WAYS = [pytest.param(home, target, how, id=f"{home}-{target}-{how}")
        for home in HOMES for target in ["memoir", "claude", "memspec"] if target != home
        for how in ["appended", "inserted"]]


def _edit(out: Path, how: str) -> None:
    """``Added later.`` written in the target's file of the record, at its end or before its last line, in the line
    end that file's lines have."""
    [path] = [p for p in out.rglob("*.md") if b"Pages at night." in p.read_bytes()
              and ".memconv" not in p.parts and not p.name.startswith("MEMORY")]
    data = path.read_bytes()
    end = b"\r\n" if data.endswith(b"\r\n") else b"\n"
    if how == "appended":
        data += b"Added later." + end
    else:
        head, _, tail = data.rpartition(b"Pages at night.")
        data = head + b"Added later." + end + b"Pages at night." + tail
    path.write_bytes(data)


@pytest.mark.parametrize("home, target, how", WAYS)
def test_a_line_added_to_a_crlf_file_comes_home_ending_crlf(tmp_path: Path, home, target, how):
    name, data, other = HOMES[home]
    inp = tmp_path / "in"
    (inp / name).parent.mkdir(parents=True, exist_ok=True)
    (inp / name).write_bytes(data)
    (inp / name).with_name(name.rsplit("/", 1)[-1].replace("ops", "dev")).write_bytes(other)
    out = convert_dir(inp, target, tmp_path / "out")
    _edit(out, how)
    back = convert_dir(out, home, tmp_path / "back")
    added = b"Added later.\r\n"
    want = data + added if how == "appended" else data.replace(b"Pages at night.", added + b"Pages at night.")
    # Watched fail before the fix: appended, the line came home ending LF (through Claude Code and memspec);
    # inserted through memspec, every line of the file came home ending LF.
    assert (back / name).read_bytes() == want


#: A body under a frontmatter of the other line end, and the line end a line appended to it comes home in.
MIXED = {
    "lf-body-crlf-frontmatter": (b"---\r\ntype: fact\r\nname: Ops\r\ndescription: the ops team\r\n---\r\n\n"
                                 b"Keeps the lights on.\n", b"\n"),
    "crlf-body-lf-frontmatter": (b"---\ntype: fact\nname: Ops\ndescription: the ops team\n---\n\r\n"
                                 b"Keeps the lights on.\r\n", b"\r\n"),
}


@pytest.mark.parametrize("layout", sorted(MIXED))
@pytest.mark.parametrize("target", ["claude", "memspec"])
def test_a_line_appended_under_a_frontmatter_of_the_other_line_end_ends_as_the_body_does(tmp_path: Path, target,
                                                                                          layout):
    """The line end a line added at the file's end takes is the one of the lines it follows: a body's, not its
    frontmatter's."""
    data, ending = MIXED[layout]
    name = "memory/fact_ops.md"
    inp = tmp_path / "in"
    (inp / name).parent.mkdir(parents=True)
    (inp / name).write_bytes(data)
    (inp / "memory/fact_dev.md").write_bytes(HOMES["memoir"][2])
    out = convert_dir(inp, target, tmp_path / "out")
    _edit_append_after(out, b"Keeps the lights on.")
    back = convert_dir(out, "memoir", tmp_path / "back")
    assert (back / name).read_bytes() == data + b"Added later." + ending


def _edit_append_after(out: Path, last: bytes) -> None:
    [path] = [p for p in out.rglob("*.md") if p.read_bytes().rstrip().endswith(last)
              and ".memconv" not in p.parts and not p.name.startswith("MEMORY")]
    data = path.read_bytes()
    path.write_bytes(data + b"Added later." + (b"\r\n" if data.endswith(b"\r\n") else b"\n"))
