"""memconv's own folder in a memfmt store, ``.memconv/``, is carried as it is (docs/memfmt.md, "Whose file is it").

The memfmt reader read every file of the folder as the store's: a quarantined original memconv had set aside
(``.memconv/quarantine/…``, a memfmt file refused for ``version: two``) was read and quarantined again, so ``check``
of memconv's own output exited 1 with a diff deleting the copy, and a conversion set it aside a second time
(``.memconv/quarantine/.memconv/quarantine/…``, exit 3); memconv's notes (``.memconv/notes/``) were each warned
of as "markdown without memfmt_type: someone's own note". memoir's and Claude's readers carry the folder silently.
"""

from __future__ import annotations

import json

from memconv.cli import main

from .conftest import tree, write_files

BAD = b"---\nmemfmt_type: procedure\nversion: two\n---\n\n# bad (v1 \xc2\xb7 untested)\n"
ALI = b"---\nmemfmt_type: entity\n---\n\n# Ali\n\n## Facts\n\n- based in Tokyo\n"
FACT = (b"---\ntype: fact\nname: Staging\ndescription: staging runs at staging.example.com\n---\n\n"
        b"Bearer tokens.\n")
LESSON = (b"---\ntype: lesson\nname: Rehearse\ndescription: rehearse on a copy\ntrigger: before a migration\n"
          b"how_to_apply: restore a backup first\n---\n\nIt cost a day.\n")


def _json(runner, *args: str) -> tuple[int, dict]:
    result = runner.invoke(main, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_a_quarantined_original_in_a_memfmt_store_memconv_wrote_is_not_read_again(runner, tmp_path):
    # Broken before: check exited 1 ("1 quarantined", the copy shown deleted) and convert nested the copy.
    for given in ("in", "in/memory"):  # the folder holding memory/, and the memory folder itself
        write_files(tmp_path / "in" / "memory", {"entities/Ali.md": ALI, "procedures/bad.md": BAD})
        out = tmp_path / f"out-{given.replace('/', '-')}"
        code, _ = _json(runner, "convert", "--to", "memfmt", str(tmp_path / given), str(out))
        assert code == 3
        copies = [p for p in tree(out) if p.startswith(".memconv/quarantine/")]
        assert len(copies) == 1 and tree(out)[copies[0]] == BAD
        code, report = _json(runner, "check", str(out))
        assert (code, report["quarantined"], report["differences"]) == (0, [], [])
        again = tmp_path / f"again-{given.replace('/', '-')}"
        code, report = _json(runner, "convert", "--to", "claude", str(out), str(again))
        assert (code, report["quarantined"]) == (0, [])
        # Carried as any file of the store is (as memoir's copy is), not set aside a second time: under its own
        # name (memfmt's copy is named .md.kept, docs/memfmt.md), named so again in the Claude folder.
        assert copies[0].endswith(".md.kept")
        assert [p for p in tree(again) if "quarantine" in p] == [f".memconv/files/memfmt/{copies[0]}"]


def test_memconvs_notes_in_a_memfmt_store_are_no_ones_own_note(runner, tmp_path):
    # Broken before: "markdown without memfmt_type: someone's own note" for each of memconv's notes.
    write_files(tmp_path / "in" / "memory", {"fact_staging.md": FACT, "lesson_rehearse.md": LESSON})
    (tmp_path / "in" / "session.json").write_text('{"version": 1, "current": {"goals": [{"text": "Ship it"}]}}')
    out = tmp_path / "out"
    code, _ = _json(runner, "memoir-to-memfmt", str(tmp_path / "in"), str(out))
    assert code == 0
    assert any(p.startswith(".memconv/notes/") for p in tree(out))
    for args in (["check", str(out)], ["migrate", str(out), str(tmp_path / "migrated")],
                 ["memfmt-to-memoir", str(out), str(tmp_path / "back")]):
        code, report = _json(runner, *args)
        assert code == 0, report
        said = report["warnings"] + [w for f in report["files"] for w in f["warnings"]]
        assert not [w for w in said if "someone's own note" in w], args
