"""A sidecar note of IN that no record uses is said, and kept as a file unless it is exactly memconv's own.

A sidecar note holds the carry of a bare file (a Claude memory with no frontmatter, kept whole). One naming a file
that is not in the store, or a record that wears a carry of its own, was used by nothing and left the store in
silence, with any text a person wrote in it: memconv writes such a note, so a person may well edit it, and IN is
untrusted, memconv's own marks included. Now it is kept as a file where it was, and a warning names it; a note that is
exactly what memconv writes (its bare file deleted in the target by the user: the deletion is theirs, and the note
holds only memconv's carry) is not kept, and the warning says its file is gone.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir

LINE = "A line I wrote here."


def _memoir(tmp_path):
    out = convert_dir(GOLDEN / "claude" / "mixed-project" / "input", "memoir", tmp_path / "mm")
    own = out / ".memconv" / "notes" / "deploy-notes.carry.md"
    assert own.is_file(), "the bare file's carry waits in a note"
    return out, own


def _back(tmp_path, out):
    result = CliRunner().invoke(main, ["memoir-to-claude", "--json", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return tmp_path / "back", json.loads(result.stdout)["warnings"]


def _kept(back, raw: bytes) -> list:
    return [p for p in back.rglob("*") if p.is_file() and p.read_bytes() == raw]


def test_a_sidecar_naming_no_file_is_kept_as_a_file_and_said(tmp_path):
    out, own = _memoir(tmp_path)
    orphan = out / ".memconv" / "notes" / "orphan.carry.md"
    raw = own.read_bytes().replace(b"memory/deploy-notes.md", b"memory/nowhere.md") + f"\n{LINE}\n".encode()
    orphan.write_bytes(raw)
    back, warnings = _back(tmp_path, out)
    # Watched fail before the fix: the note and its line were nowhere in OUT, and no warning named it.
    assert _kept(back, raw), "the note is kept as a file, its line with it"
    assert any(w.startswith(".memconv/notes/orphan.carry.md: ") and "memory/nowhere.md" in w
               and "kept as a file" in w for w in warnings), warnings
    assert not (back / "nowhere.md").exists()


def test_a_sidecar_naming_a_record_that_wears_its_own_carry_is_kept_as_a_file_and_said(tmp_path):
    out, own = _memoir(tmp_path)
    worn = out / ".memconv" / "notes" / "worn.carry.md"
    assert "memconv:" in (out / "memory" / "preference_role.md").read_text(), "a record wearing its own carry"
    raw = own.read_bytes().replace(b"memory/deploy-notes.md", b"memory/preference_role.md") + f"\n{LINE}\n".encode()
    worn.write_bytes(raw)
    back, warnings = _back(tmp_path, out)
    assert _kept(back, raw)
    assert any(w.startswith(".memconv/notes/worn.carry.md: ") and "memory/preference_role.md" in w
               and "wears its own carry" in w and "kept as a file" in w for w in warnings), warnings
    assert (back / "user_role.md").read_bytes() == \
        (GOLDEN / "claude" / "mixed-project" / "input" / "user_role.md").read_bytes()


def test_memconvs_own_sidecar_of_a_file_deleted_in_the_target_is_said_not_kept(tmp_path):
    out, own = _memoir(tmp_path)
    raw = own.read_bytes()
    (out / "memory" / "deploy-notes.md").unlink()  # the user's deletion
    back, warnings = _back(tmp_path, out)
    assert not _kept(back, raw), "memconv's own carry is not a file of the user's"
    assert not (back / "deploy-notes.md").exists()
    assert any(w.startswith(".memconv/notes/deploy-notes.carry.md: ") and "memory/deploy-notes.md" in w
               and "not a record of this store" in w and "kept as a file" not in w for w in warnings), warnings


def test_a_line_written_into_a_sidecar_that_restores_its_file_is_kept_too(tmp_path):
    out, own = _memoir(tmp_path)
    raw = own.read_bytes() + f"\n{LINE}\n".encode()
    own.write_bytes(raw)
    back, warnings = _back(tmp_path, out)
    # Watched fail before (forty-fourth session): the carry was applied and the line was nowhere, with no warning.
    assert (back / "deploy-notes.md").read_bytes() == \
        (GOLDEN / "claude" / "mixed-project" / "input" / "deploy-notes.md").read_bytes(), "the carry still restores"
    assert _kept(back, raw), "the note is kept as a file, its line with it"
    assert any(w.startswith(".memconv/notes/deploy-notes.carry.md: ") and "memory/deploy-notes.md" in w
               and "kept as a file" in w for w in warnings), warnings


def test_memconvs_own_sidecar_that_restores_its_file_is_not_kept(tmp_path):
    out, own = _memoir(tmp_path)
    back, warnings = _back(tmp_path, out)
    assert not _kept(back, own.read_bytes())
    assert not any("deploy-notes.carry.md" in w for w in warnings), warnings
