"""A memfmt or memspec file whose frontmatter and body end their lines differently (an LF frontmatter written by a
tool over a CRLF body written on Windows, or the reverse) keeps each part's line ends: unedited through any dialect
(byte for byte), edited in another dialect and home again, and migrated.

memfmt's and memspec's readers gave such a file one line end, CRLF if any line had one, and their writers wrote the
whole file in it: an LF frontmatter edited elsewhere came home CRLF, every line of it changed (memoir and Claude
Code keep each part's own: ``tests/test_a_frontmatter_and_a_body_keep_their_own_line_ends.py``). A legacy memfmt
file (``mengram_type``) migrated in place got one line end too, where the migration changes one key.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .convert_helpers import convert_dir

LF_HEAD_MEMFMT_ENTITY = b"---\nmemfmt_type: entity\nentity_type: team\n---\n"
MEMFMT_ENTITY_BODY = b"\n# Ops\n\n## Facts\n\n- keeps the lights on\n- pages at night\n"
LF_HEAD_MEMFMT_EPISODE = b"---\nmemfmt_type: episode\nid: ep1\nhappened: 2026-07-30\nimportance: 4\n---\n"
MEMFMT_EPISODE_BODY = b"\n# the pool ran dry\n\nTwo workers booted at once.\n\nThe pager went off at night.\n"
LF_HEAD_MEMSPEC = (b"---\nid: ms_01KN49FJ2028KAX7EADGMGE1FN\nkind: claim\ntype: fact\nstate: active\n"
                   b"created: '2026-08-03T10:30:00.000Z'\nsource: claude-code\nsource_kind: agent\ntags: []\n"
                   b"check_by: '2027-01-30T10:30:00.000Z'\nverified_with: assertion\n---\n")
MEMSPEC_BODY = b"# Ops pages at night\n\nThe pager rotates weekly.\n"
#: A second record beside each, LF throughout, so that each store is more than the one file.
OTHERS = {"memfmt": ("memory/entities/Dev.md", b"---\nmemfmt_type: entity\nentity_type: team\n---\n\n# Dev\n\n"
                                               b"## Facts\n\n- ships\n"),
          "memspec": (".memspec/memory/facts/ms_01KNRWNA20VCD395V3FZBW4Z1W.md",
                      LF_HEAD_MEMSPEC.replace(b"ms_01KN49FJ2028KAX7EADGMGE1FN", b"ms_01KNRWNA20VCD395V3FZBW4Z1W")
                      + b"# Dev ships\n\nOn Fridays too.\n")}
#: (home, the file's path, its LF frontmatter, its LF body, a word of the body, what the word becomes)
FILES = [
    ("memfmt", "memory/entities/Ops.md", LF_HEAD_MEMFMT_ENTITY, MEMFMT_ENTITY_BODY, b"at night", b"at noon"),
    ("memfmt", "memory/episodes/2026-07-30-the pool ran dry.md", LF_HEAD_MEMFMT_EPISODE, MEMFMT_EPISODE_BODY,
     b"at night", b"at noon"),
    ("memspec", ".memspec/memory/facts/ms_01KN49FJ2028KAX7EADGMGE1FN.md", LF_HEAD_MEMSPEC, MEMSPEC_BODY,
     b"weekly", b"daily"),
]


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


#: How the file ends its lines: its frontmatter's, its body's.
ENDS = {"lf-head-crlf-body": lambda head, body: head + _crlf(body),
        "crlf-head-lf-body": lambda head, body: _crlf(head) + body}


def _store(root: Path, home: str, name: str, data: bytes) -> Path:
    other, other_data = OTHERS[home]
    for path, raw in ((name, data), (other, other_data)):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(raw)
    return root


def _edit_last(data: bytes, old: bytes, new: bytes) -> bytes:
    at = data.rindex(old)
    return data[:at] + new + data[at + len(old):]


def _edited(out: Path, old: bytes, new: bytes) -> None:
    """The word ``old`` of the body changed in the target's file of it (its last place there: the body, below its
    frontmatter and the carry in it)."""
    [path] = [p for p in out.rglob("*.md") if old in p.read_bytes() and ".memconv" not in p.parts
              and not p.name.startswith("MEMORY")]
    path.write_bytes(_edit_last(path.read_bytes(), old, new))


EDITED = [pytest.param(target, ends, *file, id=f"{file[0]}-{file[1].rsplit('/', 2)[-2]}-{ends}-edited-in-{target}")
          for file in FILES for ends in ENDS for target in ("memoir", "claude", "memspec", "memfmt")
          if target != file[0]]


@pytest.mark.parametrize("target, ends, home, name, head, body, old, new", EDITED)
def test_a_file_edited_in_another_dialect_comes_home_with_each_parts_line_ends(tmp_path: Path, target, ends, home,
                                                                               name, head, body, old, new):
    data = ENDS[ends](head, body)
    inp = _store(tmp_path / "in", home, name, data)
    out = convert_dir(inp, target, tmp_path / "out")
    _edited(out, old, new)
    back = convert_dir(out, home, tmp_path / "back")
    # Watched fail before the fix (an LF frontmatter over a CRLF body): the frontmatter came home CRLF.
    assert (back / name).read_bytes() == _edit_last(data, old, new)


UNEDITED = [pytest.param(via, ends, *file[:4], id=f"{file[0]}-{file[1].rsplit('/', 2)[-2]}-{ends}-via-{via}")
            for file in FILES for ends in ENDS for via in (None, "memoir", "claude", "memspec", "memfmt")
            if via != file[0]]


@pytest.mark.parametrize("via, ends, home, name, head, body", UNEDITED)
def test_an_unedited_round_trip_is_byte_identical(tmp_path: Path, via, ends, home, name, head, body):
    inp = _store(tmp_path / "in", home, name, ENDS[ends](head, body))
    result = CliRunner().invoke(main, ["check", str(inp)] + (["--via", via] if via else []))
    assert result.exit_code == 0, result.output


LEGACY_ENTITY = LF_HEAD_MEMFMT_ENTITY.replace(b"memfmt_type", b"mengram_type")


@pytest.mark.parametrize("data", [
    pytest.param(LEGACY_ENTITY + _crlf(MEMFMT_ENTITY_BODY), id="lf-head-crlf-body"),
    pytest.param(_crlf(LEGACY_ENTITY) + MEMFMT_ENTITY_BODY, id="crlf-head-lf-body"),
    pytest.param(LEGACY_ENTITY + b"\n# Ops\r\n\n## Facts\r\n\n- keeps the lights on\r\n- pages at night\n",
                 id="lf-head-mixed-body"),
])
def test_migrating_a_legacy_memfmt_file_changes_its_type_key_and_no_line_end(tmp_path: Path, data: bytes):
    inp = _store(tmp_path / "in", "memfmt", "memory/entities/Ops.md", data)
    result = CliRunner().invoke(main, ["migrate", str(inp), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    # Watched fail before the fix: the whole file was written with one line end, CRLF.
    assert (tmp_path / "out/memory/entities/Ops.md").read_bytes() == data.replace(b"mengram_type", b"memfmt_type")


V02_HEAD = (b"---\nid: ms_01KNC0NQ20QXJSYZEXJH3PXJFN\ntype: decision\nstate: active\nconfidence: 0.9\n"
            b"created: '2026-04-04T10:30:00.000Z'\nsource: claude-code\ntags:\n  - policy\ndecay_after: never\n---\n")
V02_BODY = b"# No vendor lock-in for the queue\n\nWe keep the queue behind our own interface.\n"


@pytest.mark.parametrize("ends", ENDS)
def test_a_migrated_memspec_record_keeps_each_parts_line_ends(tmp_path: Path, ends: str):
    name = ".memspec/memory/decisions/ms_01KNC0NQ20QXJSYZEXJH3PXJFN.md"
    inp = _store(tmp_path / "in", "memspec", name, ENDS[ends](V02_HEAD, V02_BODY))
    result = CliRunner().invoke(main, ["migrate", str(inp), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    head, _, body = (tmp_path / "out" / name).read_bytes().partition(b"\n---")
    head_crlf = ends.startswith("crlf-head")
    # Rewritten by the ladder (its keys change), each part in its own line ends. Watched fail before the fix: the
    # LF frontmatter was written CRLF.
    assert all(line.endswith(b"\r") == head_crlf for line in head.split(b"\n"))
    assert body == (b"\r\n" if head_crlf else b"\n") + ENDS[ends](b"", V02_BODY)
