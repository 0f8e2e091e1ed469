"""Two sidecar notes of IN naming one bare file: the first is that file's carry, the other is kept as a file, and the
report names both.

A bare file (a Claude memory with no frontmatter, kept whole) keeps its carry in a sidecar note beside the store. A
second sidecar naming the same file (a copy in the older ``memconv/`` folder, crafted or left by an older run)
replaced the first in silence, and both notes left the store: a crafted carry renamed the file, and the report said
the memory was deleted in the target. A second note or set-aside file restoring one thing was already kept and said
(``tests/test_a_second_claim_is_kept_and_said.py``); a sidecar is one more such claim.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir


def _crafted_sidecar(path: str, carry: dict) -> str:
    side = {"v": 1, "sidecar": {"path": path, "carry": json.dumps(carry)}}
    return f"---\nname: memconv carry of {path}\nstatus: carry\nmemconv: {json.dumps(json.dumps(side))}\n---\n"


def test_a_second_sidecar_naming_one_bare_file_is_kept_as_a_file(tmp_path):
    source = GOLDEN / "claude" / "mixed-project" / "input"
    out = convert_dir(source, "memoir", tmp_path / "mm")
    assert (out / ".memconv" / "notes" / "deploy-notes.carry.md").is_file(), "the bare file's carry waits in a note"
    (out / "memconv" / "notes").mkdir(parents=True)
    crafted = _crafted_sidecar("memory/deploy-notes.md", {"v": 1, "from": "claude", "fields": {"link": "evil"}})
    (out / "memconv" / "notes" / "zz.md").write_text(crafted)
    result = CliRunner().invoke(main, ["memoir-to-claude", "--json", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, warnings = tmp_path / "back", json.loads(result.stdout)["warnings"]
    # Watched fail before the fix: evil.md in place of deploy-notes.md, no warning, and the crafted note nowhere.
    assert (back / "deploy-notes.md").read_bytes() == (source / "deploy-notes.md").read_bytes()
    assert not (back / "evil.md").exists()
    assert any(w.startswith("memconv/notes/zz.md: ") and ".memconv/notes/deploy-notes.carry.md" in w
               and "kept as a file" in w for w in warnings), warnings
    assert [p for p in back.rglob("*") if p.is_file() and p.read_text(errors="replace") == crafted]
