"""Text written in a memfmt file where memfmt does not read it cannot come home, and the report says so.

memfmt reads an entity's facts from its ``## Facts`` bullets. A paragraph added there without its ``- `` is not
read, by memfmt's library or by memconv's reader, which follows it. In a memfmt store memconv wrote (records of
another dialect), such a paragraph was lost on the way home, and the report counted nothing dropped: found by fuzzing
edits of converted stores (docs/limits.md). The memfmt reader now lists the lines with a word its rendering does not
say (``Store.unread``), and a record going home from such a file counts them dropped, so ``--fail-on-loss`` fails.
"""

from __future__ import annotations

import shutil

from memconv.cli import main

from .conftest import GOLDEN, tree

ADDED = "\nA paragraph about quokkas, written without its dash.\n"


def _there(runner, tmp_path, dialect="claude"):
    out = tmp_path / "memfmt"
    result = runner.invoke(main, [f"{dialect}-to-memfmt", str(GOLDEN / dialect / "canonical" / "input"), str(out)])
    assert result.exit_code == 0, result.stderr
    return out


def test_a_paragraph_memfmt_does_not_read_is_counted_dropped(runner, tmp_path):
    # Watched fail before: exit 0, "0 dropped", and the paragraph nowhere in the claude folder.
    out = _there(runner, tmp_path)
    entity = sorted((out / "memory" / "entities").glob("*.md"))[0]
    entity.write_text(entity.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    failed = runner.invoke(main, ["memfmt-to-claude", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert failed.exit_code == 5, failed.stderr
    assert "text memfmt does not read (\"A paragraph about quokkas, written without its dash.\")" in failed.stderr
    assert "cannot come home to claude: dropped" in failed.stderr
    done = runner.invoke(main, ["memfmt-to-claude", str(out), str(tmp_path / "back2"), "--json"])
    assert done.exit_code == 0, done.stderr
    assert '"text outside the format"' in done.stdout and '"kind": "unread-text"' in done.stdout


def test_spacing_is_not_text(runner, tmp_path):
    out = _there(runner, tmp_path)
    entity = sorted((out / "memory" / "entities").glob("*.md"))[0]
    entity.write_text(entity.read_text(encoding="utf-8").replace("\n- ", "\n-   ") + "\n\n\n", encoding="utf-8")
    result = runner.invoke(main, ["memfmt-to-claude", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert result.exit_code == 0, result.stderr
    assert "does not read" not in result.stderr


def test_memfmts_own_record_keeps_it_for_the_way_back(runner, tmp_path):
    # A record of memfmt's own: the text travels in its carry's format patch, and memfmt gets its bytes back.
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", src)
    entity = src / "memory" / "entities" / "cloud-api.py.md"
    entity.write_text(entity.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    there = runner.invoke(main, ["memfmt-to-claude", str(src), str(tmp_path / "claude"), "--fail-on-loss"])
    assert there.exit_code == 0, there.stderr
    back = runner.invoke(main, ["claude-to-memfmt", str(tmp_path / "claude"), str(tmp_path / "back"),
                                "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert tree(tmp_path / "back")["memory/entities/cloud-api.py.md"] == entity.read_bytes()


def test_a_paragraph_added_to_the_working_sets_entity_is_counted(runner, tmp_path):
    out = _there(runner, tmp_path, "memoir")
    shown = out / "memory" / "entities" / "Working set.md"
    shown.write_text(shown.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    result = runner.invoke(main, ["memfmt-to-memoir", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert result.exit_code == 5, result.stderr
    assert "the working set's rendering was edited in memfmt" in result.stderr


def test_a_paragraph_added_to_an_inline_bullets_entity_is_counted(runner, tmp_path):
    # A Claude index's inline bullet is an entity of its own in memfmt; home again, the index says the bullet, and
    # the paragraph has nowhere to go. Found by the same fuzzing, after the fix above: exit 0, "0 dropped".
    out = tmp_path / "memfmt"
    made = runner.invoke(main, ["claude-to-memfmt", str(GOLDEN / "claude" / "inline-only" / "input"), str(out)])
    assert made.exit_code == 0, made.stderr
    shown = next(p for p in (out / "memory" / "entities").glob("*.md") if '\\"inline\\"' in p.read_text())
    shown.write_text(shown.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    result = runner.invoke(main, ["memfmt-to-claude", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert result.exit_code == 5, result.stderr
    assert "text memfmt does not read" in result.stderr
