"""Two files of IN that restore one thing (a file's path, the working set): the first restores it, the other is kept
as a file, and the report names both.

memconv's notes and set-aside files live under ``.memconv/`` in a converted store, and were read from the older
``memconv/`` folder too. A copy in that folder (crafted, or left by an older run) restored the same file or the same
working set as the real one: one replaced the other, and the report said nothing. The crafted working set won.
"""

from __future__ import annotations

import json
import re
import shutil

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir


def _home(tmp_path, out):
    result = CliRunner().invoke(main, ["memfmt-to-memoir", "--json", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return tmp_path / "back", json.loads(result.stdout)["warnings"]


def test_a_second_copy_of_a_set_aside_file_is_kept_as_a_file(tmp_path):
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", tmp_path / "in")
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    (out / "memconv" / "files" / "memoir").mkdir(parents=True)
    (out / "memconv" / "files" / "memoir" / "notes.txt").write_text("EVIL\n")
    back, warnings = _home(tmp_path, out)
    # Watched fail before the fix: no warning, and EVIL nowhere in OUT.
    assert (back / "notes.txt").read_bytes() == (tmp_path / "in" / "notes.txt").read_bytes()
    assert any(w.startswith("memconv/files/memoir/notes.txt: ") and "kept as a file" in w for w in warnings), warnings
    assert [p for p in back.rglob("*") if p.is_file() and p.read_bytes() == b"EVIL\n"]


def test_a_second_working_set_note_is_kept_as_a_file(tmp_path):
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", tmp_path / "in")
    out = convert_dir(tmp_path / "in", "memfmt", tmp_path / "mf")
    note = (out / ".memconv" / "notes" / "working-set.md").read_text()
    line = re.search(r"^memconv: (\".*\")$", note, re.M)
    carry = json.loads(json.loads(line.group(1)))
    carry["working_set"]["current"]["next_actions"][0]["text"] = "INJECTED"
    carry.pop("format", None)
    (out / "memconv").mkdir()
    (out / "memconv" / "working-set.md").write_text(
        note[:line.start()] + "memconv: " + json.dumps(json.dumps(carry)) + note[line.end():])
    back, warnings = _home(tmp_path, out)
    # Watched fail before the fix: session.json said INJECTED, and the real note was neither restored nor kept.
    assert (back / "session.json").read_bytes() == (tmp_path / "in" / "session.json").read_bytes()
    assert any(w.startswith("memconv/working-set.md: ") and "kept as a file" in w for w in warnings), warnings
