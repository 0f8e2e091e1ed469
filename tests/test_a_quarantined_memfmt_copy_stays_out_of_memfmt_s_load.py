"""A file memconv quarantined in a memfmt store stays out of what memfmt's own library loads (docs/memfmt.md).

memconv keeps a quarantined original at ``.memconv/quarantine/<its path>`` in OUT. memfmt 0.5.2's ``load`` and
``memfmt validate`` read every ``*.md`` under the folder they are given, hidden folders too (``rglob``): in a bare
memory folder, or in the folder holding ``memory/`` (which ``memfmt validate .`` takes), the copy was read as live
memory. A procedure memconv refused (``version: two``) was loaded as a procedure, and ``validate`` exited 1 with the
copy "not reproduced"; a Claude memory that is not UTF-8, quarantined on its way into memfmt, stopped ``memfmt.load``
with a UnicodeDecodeError. Such a copy is named ``.md.kept`` (memfmt's ``KEPT_SUFFIX``, as in a Claude folder or a
memspec store), which memfmt never reads, and read under its own name again.
"""

from __future__ import annotations

import json

import memfmt

from memconv import dialects
from memconv.cli import main

from .conftest import tree, write_files
from .memfmt_oracle import validate

ALI = b"---\nmemfmt_type: entity\n---\n\n# Ali\n\n## Facts\n\n- based in Tokyo\n"
BAD = b"---\nmemfmt_type: procedure\nversion: two\n---\n\n# bad (v1 \xc2\xb7 untested)\n"
STAGING = b"---\nname: Staging\ndescription: staging host\ntype: project\n---\n\nBearer tokens.\n"
LATIN1 = b"---\nname: Bad\ndescription: caf\xe9\ntype: project\n---\n\nLatin-1.\n"


def _convert(runner, *args: str) -> tuple[int, dict]:
    result = runner.invoke(main, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def _names(memory: memfmt.Memory) -> list[str]:
    return sorted([e.name for e in memory.entities] + [p.name for p in memory.procedures]
                  + [e.summary for e in memory.episodes])


def test_memfmt_loads_no_procedure_memconv_quarantined(runner, tmp_path):
    for given in ("in/memory", "in"):  # a bare memory folder (.memconv/ inside it), and the folder holding memory/
        write_files(tmp_path / "in" / "memory", {"entities/Ali.md": ALI, "procedures/bad.md": BAD})
        out = tmp_path / f"out-{given.replace('/', '-')}"
        code, report = _convert(runner, "convert", "--to", "memfmt", str(tmp_path / given), str(out))
        assert code == 3
        (kept,) = [q["kept_at"] for q in report["quarantined"]]
        assert kept.endswith(".md.kept") and tree(out)[kept] == BAD, kept
        # Watched fail: ['Ali', 'bad'], the refused procedure loaded from .memconv/quarantine/, and validate exit 1.
        assert _names(memfmt.load(out)) == ["Ali"]
        assert validate(out)[0] == 0
        code, report = _convert(runner, "check", str(out))
        assert (code, report["differences"]) == (0, [])
        back = dialects.get("memfmt").read(out)
        assert [f.path for f in back.foreign if "quarantine" in f.path] == [kept[: -len(".kept")]], \
            "read under its own name again"


def test_memfmt_loads_a_store_holding_a_quarantined_claude_memory(runner, tmp_path):
    write_files(tmp_path / "in", {"project_staging.md": STAGING, "project_bad.md": LATIN1})
    out = tmp_path / "out"
    code, report = _convert(runner, "convert", "--to", "memfmt", str(tmp_path / "in"), str(out))
    assert code == 3
    assert [q["kept_at"] for q in report["quarantined"]] == [".memconv/quarantine/project_bad.md.kept"]
    # Watched fail: UnicodeDecodeError from memfmt.load, which read the Latin-1 copy.
    assert _names(memfmt.load(out)) == ["Staging"]
    code, report = _convert(runner, "check", str(out))
    assert (code, report["differences"]) == (0, [])
