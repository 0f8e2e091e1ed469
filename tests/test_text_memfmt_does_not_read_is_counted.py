"""Text written in a memfmt file where memfmt does not read it cannot come home, and the report says so.

memfmt reads an entity's facts from its ``## Facts`` bullets. A paragraph added there without its ``- `` is not
read, by memfmt's library or by memconv's reader, which follows it. In a memfmt store memconv wrote (records of
another dialect), such a paragraph was lost on the way home, and the report counted nothing dropped: found by fuzzing
edits of converted stores (docs/limits.md). The memfmt reader now lists the lines with a word its rendering does not
say (``Record.unread``), and a record going home from such a file counts them dropped, so ``--fail-on-loss`` fails.

A record of memfmt's own whose file holds such text keeps it for the way back in its carry's format patch, and the
other dialects show it, under ``**Text outside the format:**`` (principle 1: before, only the carry held it).
"""

from __future__ import annotations

import shutil

import pytest

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


def test_a_section_label_left_with_nothing_under_it_is_not_text(runner, tmp_path):
    # Every fact of an entity deleted, its "## Facts" label left: memfmt writes no label over nothing, but the label
    # is the format's word, not the user's. Watched fail before: "1 line(s) of it are text memfmt does not read
    # ("## Facts")", counted dropped, and --fail-on-loss exited 5 for a plain deletion.
    out = _there(runner, tmp_path)
    for entity in (out / "memory" / "entities").glob("*.md"):
        text = entity.read_text(encoding="utf-8")
        head, facts, rest = text.partition("\n## Facts\n")
        if facts:
            lines = rest.split("\n")
            kept = [line for line in lines if not line.startswith("- ")]
            entity.write_text(head + facts + "\n".join(kept), encoding="utf-8")
    result = runner.invoke(main, ["memfmt-to-claude", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert "does not read" not in result.stderr
    assert "## Facts" not in result.stderr
    # What fails the run is the one deletion that cannot land: the description of a memory Claude keeps whole (its
    # frontmatter is its own), said as such; before, "brought home from another dialect".
    assert result.exit_code == 5, result.stderr
    assert "description: taken out in the dialect it was read from, but its claude file still says it: the deletion " \
           "is dropped" in result.stderr
    assert "brought home" not in result.stderr


NOTES = "\n## Notes\n\nAli asks to be copied on every deploy.\n"


def _own(tmp_path):
    """The full golden memfmt store, one entity with a paragraph and a section memfmt does not read."""
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", src)
    entity = src / "memory" / "entities" / "cloud-api.py.md"
    entity.write_text(entity.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    ali = src / "memory" / "entities" / "Ali.md"
    ali.write_text(ali.read_text(encoding="utf-8").replace("\n## Relations", NOTES + "\n## Relations"),
                   encoding="utf-8")
    return src


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_memfmts_own_record_keeps_it_for_the_way_back(runner, tmp_path, target):
    # A record of memfmt's own: the text travels in its carry's format patch, and memfmt gets its bytes back.
    src = _own(tmp_path)
    there = runner.invoke(main, [f"memfmt-to-{target}", str(src), str(tmp_path / target), "--fail-on-loss"])
    assert there.exit_code == 0, there.stderr
    back = runner.invoke(main, [f"{target}-to-memfmt", str(tmp_path / target), str(tmp_path / "back"),
                                "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert tree(tmp_path / "back") == tree(src)


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_memfmts_own_record_shows_it_in_the_target(runner, tmp_path, target):
    # Watched fail before: the paragraph and the section were in the carry's format patch only, which no tool of
    # the target shows (principle 1).
    src = _own(tmp_path)
    there = runner.invoke(main, [f"memfmt-to-{target}", str(src), str(tmp_path / target)])
    assert there.exit_code == 0, there.stderr
    shown = {path: data.decode("utf-8") for path, data in tree(tmp_path / target).items()
             if "/.memconv/" not in f"/{path}"}
    ali = [text for text in shown.values() if "- Ali asks to be copied on every deploy." in text]
    assert len(ali) == 1 and "**Text outside the format:**\n\n- ## Notes\n- Ali asks" in ali[0]
    assert sum("- A paragraph about quokkas, written without its dash." in text for text in shown.values()) == 1


def test_an_edit_of_it_in_the_target_comes_home_where_memfmt_shows_it(runner, tmp_path):
    # Edited in the target, the block is the target's text now: it comes home among the entity's facts, which memfmt
    # shows, and the edit is said, not lost.
    src = _own(tmp_path)
    out = tmp_path / "memoir"
    assert runner.invoke(main, ["memfmt-to-memoir", str(src), str(out)]).exit_code == 0
    ali = out / "memory" / "fact_ali.md"
    text = ali.read_text(encoding="utf-8")
    assert text.count("\n- Ali asks to be copied on every deploy.") == 1
    ali.write_text(text.replace("\n- Ali asks to be copied on every deploy.", "\n- Ali asks to be copied on releases."),
                   encoding="utf-8")
    back = runner.invoke(main, ["memoir-to-memfmt", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "edited in memoir: facts" in back.stderr
    assert "Ali asks to be copied on releases." in (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(
        encoding="utf-8")


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


BLOCK = "**Text outside the format:**\n\n- ## Notes\n- Ali asks to be copied on every deploy."


def _shown_there(runner, tmp_path, target):
    src = _own(tmp_path)
    out = tmp_path / target
    assert runner.invoke(main, [f"memfmt-to-{target}", str(src), str(out)]).exit_code == 0
    shown = [p for p in out.rglob("*.md") if "/.memconv/" not in f"/{p.relative_to(out)}"
             and BLOCK in p.read_text(encoding="utf-8")]
    assert len(shown) == 1
    return out, shown[0]


def _ali_home(runner, tmp_path, target, out):
    back = runner.invoke(main, [f"{target}-to-memfmt", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    return back.stderr, (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_the_block_taken_out_in_the_target_stays_out(runner, tmp_path, target):
    # Watched fail before: the format patch wrote the ## Notes section back, and nothing was said.
    out, shown = _shown_there(runner, tmp_path, target)
    shown.write_text(shown.read_text(encoding="utf-8").replace("\n\n" + BLOCK, ""), encoding="utf-8")
    said, ali = _ali_home(runner, tmp_path, target, out)
    assert "## Notes" not in ali and "every deploy" not in ali
    assert "- based in Tokyo" in ali and "entity_type: person" in ali  # the rest of the file as it was
    assert f"edited in {target}: text outside the format" in said


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_the_block_replaced_in_the_target_does_not_come_back_beside_the_edit(runner, tmp_path, target):
    # Watched fail before: the new sentence came home as a fact, and the old one in its ## Notes section too.
    out, shown = _shown_there(runner, tmp_path, target)
    shown.write_text(shown.read_text(encoding="utf-8").replace(BLOCK, "Ali asks to be copied on releases."),
                     encoding="utf-8")
    said, ali = _ali_home(runner, tmp_path, target, out)
    assert "- Ali asks to be copied on releases." in ali
    assert "## Notes" not in ali and "every deploy" not in ali
    assert f"edited in {target}: facts, text outside the format" in said


def test_the_block_goes_with_a_body_emptied_in_the_target(runner, tmp_path):
    # The whole body taken out, the block with it: said, as an edit of it (watched fail before: only "facts").
    out, shown = _shown_there(runner, tmp_path, "memoir")
    head, sep, _ = shown.read_text(encoding="utf-8").partition("\n---\n")
    shown.write_text(head + sep, encoding="utf-8")
    said, ali = _ali_home(runner, tmp_path, "memoir", out)
    assert "## Notes" not in ali and "every deploy" not in ali
    assert "edited in memoir: facts, text outside the format" in said


@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_a_line_of_the_block_edited_in_the_target_comes_home_without_memconvs_label(runner, tmp_path, target):
    # Watched fail before: the label came home as a fact of its own (- **Text outside the format:**), and the lines
    # as one fact of dashes (- - ## Notes - Ali asks …).
    out, shown = _shown_there(runner, tmp_path, target)
    text = shown.read_text(encoding="utf-8")
    assert text.count("\n- Ali asks to be copied on every deploy.") == 1
    shown.write_text(text.replace("\n- Ali asks to be copied on every deploy.", "\n- Ali asks to be copied on releases."),
                     encoding="utf-8")
    said, ali = _ali_home(runner, tmp_path, target, out)
    facts = ali.split("## Facts\n\n", 1)[1].split("\n\n", 1)[0].split("\n")
    assert facts == ["- prefers Rust for memory safety", "- based in Tokyo", "- writes \"memfmt\": a format",
                     "- ## Notes - Ali asks to be copied on releases."]
    assert "Text outside the format" not in ali and "every deploy" not in ali
    assert f"edited in {target}: facts, text outside the format" in said
