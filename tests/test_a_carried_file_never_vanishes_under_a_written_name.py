"""A file carried from IN (``.memconv/files/<dialect>/<path>``) whose name the writer takes is kept aside, said.

IN is untrusted, memconv's own folders included: such a file, crafted or left by hand, was dropped in silence when
it came home under a name the writer wrote (``MEMORY.md``, a memory's file, one that differs only in case), and
one named like memconv's manifest stopped the whole run (exit 4). Now it goes to ``.memconv/quarantine/`` and a
warning says where (docs/limits.md).
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import tree, write_files

_ENTITY = b"---\nmemfmt_type: entity\n---\n\n# A\n\nsomething about A\n"


def test_carried_files_under_written_names_are_kept_aside_and_said(runner, tmp_path):
    # Verified by passing a taken name through as before (skipped): the three files are nowhere in OUT.
    inp = tmp_path / "in"
    write_files(inp, {"memory/entities/A.md": _ENTITY,
                      ".memconv/files/claude/MEMORY.md": b"my own index text\n",
                      ".memconv/files/claude/reference_a.md": b"HANDWRITTEN\n",
                      ".memconv/files/claude/Reference_A.md": b"CASE\n",
                      ".memconv/files/claude/.memconv/manifest.json": b"{}\n",
                      ".memconv/files/claude/other.txt": b"kept fine\n"})
    result = runner.invoke(main, ["memfmt-to-claude", "--json", str(inp), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    out = tree(tmp_path / "out")
    held = sorted(out.values())
    for data in (b"my own index text\n", b"HANDWRITTEN\n", b"CASE\n", b"{}\n", b"kept fine\n"):
        assert data in held, data
    assert out["other.txt"] == b"kept fine\n"
    aside = [p for p in out if p.startswith(".memconv/quarantine/")]
    assert len(aside) == 4, aside
    warnings = " ".join(n["message"] for n in json.loads(result.stdout)["notices"])
    for path in aside:
        assert f"kept aside at {path}" in warnings
    folded = [p.casefold() for p in out]
    assert len(set(folded)) == len(folded), "no two names of OUT are one file on macOS"
