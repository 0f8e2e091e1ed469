"""memoir-cli's ``recall`` never hands the agent a file memconv keeps as IN had it, in a Claude Code memory folder.

``recall`` reads every ``.md`` file under ``~/.claude/projects/*/memory/``, hidden folders too. A Claude target
keeps two kinds of file there that are not memory: files passed through from another dialect's store
(``.memconv/files/<dialect>/``: a vault's README, its daily notes) and quarantined originals
(``.memconv/quarantine/``: a memspec claim memconv could not read). Named ``.md``, recall found them (``my
vault`` → ``.memconv/files/memfmt/README.md``; ``bad id`` → a quarantined claim). A ``.md`` file kept there is
now named ``<name>.md.kept`` (the claude dialect's ``KEPT_SUFFIX``), and read under its own name again, so it
comes back to its own path and bytes (docs/claude.md).
"""

from __future__ import annotations

import shutil

import pytest

from memconv import fs
from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import MEMOIR_CLI, needs_memoir, run_node

#: (golden store, words only a kept file of it says, the kept file)
CASES = [(("memfmt", "vault"), "my vault", ".memconv/files/memfmt/README.md"),
         (("memspec", "v02-dated-observations"), "bad id", ".memconv/quarantine/.memspec/memory/facts/ms_notanid.md")]


def _converted(runner, tmp_path, dialect, name, target="claude", out="out"):
    result = runner.invoke(main, [f"{dialect}-to-{target}", str(GOLDEN / dialect / name / "input"),
                                  str(tmp_path / out)])
    assert result.exit_code in (0, 3), result.output  # 3: the memspec store has files to quarantine
    return tmp_path / out


@pytest.mark.parametrize(("store", "words", "kept"), CASES, ids=["passed-through", "quarantined"])
def test_a_claude_output_keeps_no_file_named_md_under_memconv(runner, tmp_path, store, words, kept):
    # Broken once (KEPT_SUFFIX ""): README.md, the daily notes and the quarantined claims were .md files.
    files = tree(_converted(runner, tmp_path, *store))
    assert kept + ".kept" in files
    assert [p for p in files if p.startswith(fs.KEPT_DIRS) and p.lower().endswith(".md")] == []


@needs_memoir
@pytest.mark.parametrize(("store", "words", "kept"), CASES, ids=["passed-through", "quarantined"])
def test_recall_does_not_hand_the_agent_a_kept_file(runner, tmp_path, store, words, kept):
    # Broken as above: recall's one hit was the kept file.
    home = tmp_path / "home"
    shutil.copytree(_converted(runner, tmp_path, *store), home / ".claude" / "projects" / "-work-proj" / "memory")
    done = run_node([str(MEMOIR_CLI), "recall", words], cwd=tmp_path, home=home)
    assert done.returncode == 0, done.stderr
    assert ".memconv" not in done.stdout, done.stdout


@pytest.mark.parametrize(("store", "words", "kept"), CASES, ids=["passed-through", "quarantined"])
def test_a_kept_file_comes_back_to_its_path_and_bytes(runner, tmp_path, store, words, kept):
    # Broken once (the reader not told of the suffix): the files came home as README.md.kept, and the claims
    # were carried as ….md.kept into memspec.
    out = _converted(runner, tmp_path, *store)
    away = tree(out)
    dialect, name = store
    back = tree(_back(runner, out, dialect, tmp_path / "back"))
    again = tree(_back(runner, out, "claude", tmp_path / "again"))
    assert {p: b for p, b in again.items() if p != fs.MANIFEST} == {p: b for p, b in away.items() if p != fs.MANIFEST}
    if dialect == "memfmt":  # passed through: home at its own path
        assert back["README.md"] == (GOLDEN / dialect / name / "input" / "README.md").read_bytes()
        assert not any(p.endswith(".kept") for p in back)
    else:  # a quarantined original of the claude store: carried into memspec, a .md named .md.kept there too
        original = (GOLDEN / dialect / name / "input" / kept.removeprefix(".memconv/quarantine/")).read_bytes()
        assert back[".memspec/.memconv/files/claude/" + kept + ".kept"] == original


def _back(runner, out, target, where):
    """``out`` (a claude store) converted to ``target`` (claude: written back as it is) at ``where``."""
    result = runner.invoke(main, ["convert", "--from", "claude", "--to", target, str(out), str(where)])
    assert result.exit_code in (0, 3), result.output
    return where


def test_a_kept_name_comes_back_as_it_was():
    # Broken once (a name already ending in the suffix left as it was): x.kept came back as x.
    for path in (".memconv/files/memfmt/a.md", ".memconv/files/memfmt/a.MD", ".memconv/files/memfmt/a.kept",
                 ".memconv/files/memfmt/a.md.kept", ".memconv/quarantine/b.md", ".memconv/files/memfmt/c.png",
                 "reference_x.md", ".memconv/notes/n.markdown"):
        written = fs.kept_name(path, ".kept")
        assert fs.kept_path(written, ".kept") == path
        assert not (written.startswith(fs.KEPT_DIRS) and written.lower().endswith(".md"))
    assert fs.kept_name(".memconv/files/memfmt/a.md", "") == ".memconv/files/memfmt/a.md"
    # A name kept_name never writes is a file's own (crafted, or an earlier output's): x.kept is not x.
    assert fs.kept_path(".memconv/files/memfmt/x.kept", ".kept") == ".memconv/files/memfmt/x.kept"


def test_a_crafted_kept_name_beside_its_own_name_loses_neither(runner, tmp_path):
    # Broken once (the reader always giving the name back): a.md.kept was read as a.md, and one of the two was
    # passed once, the other gone from OUT.
    from .conftest import write_files

    files = {"MEMORY.md": b"# Memory Index\n", ".memconv/files/memfmt/a.md": b"OLD\n",
             ".memconv/files/memfmt/a.md.kept": b"NEW\n", ".memconv/files/memfmt/x.kept": b"X\n"}
    write_files(tmp_path / "in", files)
    out = tree(_back(runner, tmp_path / "in", "claude", tmp_path / "out"))
    for data in (b"OLD\n", b"NEW\n", b"X\n"):
        assert data in out.values(), data
    home = tree(_back(runner, tmp_path / "out", "memfmt", tmp_path / "home"))
    assert home["x.kept"] == b"X\n", "a name ending in .kept comes home as it was"
    assert {home.get("a.md"), home.get("a.md.kept")} == {b"OLD\n", b"NEW\n"}


def test_a_merge_of_claude_stores_keeps_the_names_and_the_way_home(runner, tmp_path):
    # Broken once (merge's finish not told of the suffix): the merged folder held README.md again.
    out = _converted(runner, tmp_path, "memfmt", "vault")
    merged = tmp_path / "merged"
    result = runner.invoke(main, ["merge", "--from", "claude", str(out), str(GOLDEN / "claude" / "canonical" / "input"),
                                  str(merged)])
    assert result.exit_code == 0, result.output
    files = tree(merged)
    assert ".memconv/files/memfmt/README.md.kept" in files
    assert [p for p in files if p.startswith(fs.KEPT_DIRS) and p.lower().endswith(".md")] == []
    back = tree(_back(runner, merged, "memfmt", tmp_path / "back"))
    assert back["README.md"] == (GOLDEN / "memfmt" / "vault" / "input" / "README.md").read_bytes()


@pytest.mark.parametrize(("store", "words", "kept"), CASES, ids=["passed-through", "quarantined"])
@pytest.mark.parametrize("in_place", [True, False], ids=["in-place", "into-out"])
def test_an_upgrade_keeps_the_kept_name(runner, tmp_path, store, words, kept, in_place):
    """``memconv upgrade`` of such a folder: the reader gives a kept file its own name back, and the upgrade wrote
    it so, a ``.md`` again that Claude Code loads (in place, the folder is still Claude's). Broken once (the
    upgrade writing the name as read): both fail."""
    out = _converted(runner, tmp_path, *store)
    before = tree(out)
    args = ["upgrade", "--in-place", str(out)] if in_place else ["upgrade", str(out), str(tmp_path / "up")]
    result = runner.invoke(main, args)
    assert result.exit_code in (0, 3), result.output
    upgraded = tree(out if in_place else tmp_path / "up")
    prefix = "" if in_place else "memory/"
    assert prefix + kept + ".kept" in upgraded
    assert [p for p in upgraded if ".memconv/" in p and p.lower().endswith(".md")] == []
    assert upgraded[prefix + kept + ".kept"] == before[kept + ".kept"], "its bytes as they were"
