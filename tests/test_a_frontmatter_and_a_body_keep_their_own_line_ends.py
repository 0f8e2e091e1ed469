"""A file whose frontmatter and body end their lines differently (an LF frontmatter written by a tool, a CRLF body
written on Windows) comes home with each part's line ends after an edit in the target.

Unedited, the format patch gives the file back byte for byte. Edited, the record is written by its own writer in the
layout of the file as it was, and that layout held one line end for the whole file (CRLF, if any line had one): the
LF frontmatter came home CRLF, a change to every line of it the user did not make.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .convert_helpers import convert_dir

DEV = b"---\ntype: fact\nname: Dev\ndescription: the dev team\n---\n\nShips.\n"
#: (home, the file's path in the store, its frontmatter, its body)
STORES = [
    ("memoir", "memory/fact_ops.md", b"---\ntype: fact\nname: Ops\ndescription: the ops team\n---\n",
     b"\r\nKeeps the lights on.\r\n\r\nPages at night.\r\n"),
    ("memoir", "memory/fact_ops.md", b"---\r\ntype: fact\r\nname: Ops\r\ndescription: the ops team\r\n---\r\n",
     b"\nKeeps the lights on.\n\nPages at night.\n"),
    ("claude", "project_ops.md", b"---\nname: Ops\ndescription: the ops team\ntype: project\n---\n",
     b"\r\nKeeps the lights on.\r\n\r\nPages at night.\r\n"),
]


def _edited(out: Path) -> None:
    """The body line ``Pages at night.`` edited in the target's file of it (its frontmatter, and the carry there,
    left alone)."""
    [path] = [p for p in out.rglob("*.md") if b"Pages at night." in p.read_bytes().split(b"\n---", 1)[-1]
              and ".memconv" not in p.parts and not p.name.startswith("MEMORY")]
    head, _, body = path.read_bytes().partition(b"\n---")
    path.write_bytes(head + b"\n---" + body.replace(b"Pages at night.", b"Pages at night, rarely.", 1))


WAYS = [pytest.param(target, *store, id=f"{kind}-to-{target}")
        for store, kind in zip(STORES, ["memoir-lf-crlf", "memoir-crlf-lf", "claude-lf-crlf"])
        for target in ["claude", "memfmt", "memspec", "memoir"] if target != store[0]]  # (a way home: another dialect)


@pytest.mark.parametrize("target, home, name, head, body", WAYS)
def test_an_edited_file_comes_home_with_its_frontmatters_and_its_bodys_line_ends(tmp_path: Path, target, home, name,
                                                                                 head, body):
    inp = tmp_path / "in"
    (inp / name).parent.mkdir(parents=True, exist_ok=True)
    (inp / name).write_bytes(head + body)
    (inp / name).with_name(name.rsplit("/", 1)[-1].replace("ops", "dev")).write_bytes(DEV)
    out = convert_dir(inp, target, tmp_path / "out")
    _edited(out)
    back = convert_dir(out, home, tmp_path / "back")
    # Watched fail before the fix: the frontmatter came home with the body's line ends.
    assert (back / name).read_bytes() == head + body.replace(b"Pages at night.", b"Pages at night, rarely.")
