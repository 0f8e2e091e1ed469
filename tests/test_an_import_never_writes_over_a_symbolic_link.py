"""An import (``--into``) never writes a file where EXISTING has a symbolic link, at its path or above it.

EXISTING's listing reads a link to a file inside it as that file, so a Claude folder holding
``user_commit-style.md -> user_role.md`` has a record ``user_commit-style``. Before the fix, an import whose IN
brought a record of that name merged it, said ``IN won`` (or a conflict), backed EXISTING up, and swapped in a
folder where the link had been put back over the file written for it (the swap keeps links): IN's text was in
neither EXISTING nor the backup, and the import record said it was imported. A link to a folder on the way
(``.memconv/quarantine -> elsewhere``) stopped the swap with "Is a directory", naming a temporary folder.
Now such an import stops before anything is written, exit 4, naming the link (docs/merge.md, "Safety").
"""

from __future__ import annotations

import os

from click.testing import CliRunner

from memconv.cli import main

ENTRY = "---\ntype: preference\nname: Commit style\ndescription: imperative mood\nscope: global\n" \
        "created: 2026-04-02\n---\n\nUse imperative mood. FROM IN.\n"
ROLE = "---\nname: Role\ndescription: backend engineer\ntype: user\n---\n\nGo.\n"


def _stores(tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    (src / "memory").mkdir(parents=True)
    existing.mkdir()
    (src / "memory" / "preference_commit-style.md").write_text(ENTRY)
    (existing / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — backend engineer\n")
    (existing / "user_role.md").write_text(ROLE)
    return src, existing


def _import(src, existing):
    return CliRunner().invoke(main, ["memoir-to-claude", "-q", str(src), "--into", str(existing)])


def _tree(root):
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            full = os.path.join(folder, name)
            out[os.path.relpath(full, root)] = os.readlink(full) if os.path.islink(full) else (
                open(full, "rb").read() if os.path.isfile(full) else None)
    return out


def test_a_record_written_where_existing_has_a_link_stops_the_import(tmp_path):
    src, existing = _stores(tmp_path)
    os.symlink("user_role.md", existing / "user_commit-style.md")
    before = _tree(tmp_path)
    result = _import(src, existing)
    # Watched fail before the fix: exit 0, the link put back, "FROM IN" nowhere in EXISTING or its backup.
    assert result.exit_code == 4, result.output
    assert "user_commit-style.md" in result.output and "symbolic link" in result.output
    assert _tree(tmp_path) == before  # nothing written: no backup, EXISTING as it was


def test_a_link_to_a_folder_on_the_way_stops_the_import(tmp_path):
    src, existing = _stores(tmp_path)
    (src / "memory" / "fact_bad.md").write_text("---\nname: never closed\nbody\n")  # quarantined: kept in EXISTING
    (tmp_path / "elsewhere").mkdir()
    (existing / ".memconv").mkdir()
    os.symlink("../../elsewhere", existing / ".memconv" / "quarantine")
    before = _tree(tmp_path)
    result = _import(src, existing)
    assert result.exit_code == 4, result.output
    assert ".memconv/quarantine" in result.output and "symbolic link" in result.output
    assert _tree(tmp_path) == before


def test_a_link_the_import_leaves_as_it_is_stays_a_link(tmp_path):
    src, existing = _stores(tmp_path)
    os.symlink("user_role.md", existing / "alias.md")
    result = _import(src, existing)
    assert result.exit_code == 0, result.output
    assert os.readlink(existing / "alias.md") == "user_role.md"
    assert "FROM IN" in (existing / "user_commit-style.md").read_text()
