"""An edit in the target never costs a word the target showed.

A memfmt entity shows a record's description and its body's paragraphs as one list of facts; read
back, the first fact is the description and the rest the body. A Claude memory with no description
came home from memfmt with one fact added and lost its first paragraph: the body was edited (the
edit won), the description looked unedited, and its carried copy, "none", was put back. A carried
"there was none" no longer empties a field whose text is found nowhere else: it goes back into the body.
"""

from __future__ import annotations

from click.testing import CliRunner

from memconv.cli import main

ENTRY = "---\nname: Note\ntype: project\n---\n\nFirst paragraph.\n\nSecond paragraph.\n"


def _there_and_back(tmp_path, edit, entry: str = ENTRY) -> tuple[str, str]:
    src = tmp_path / "in"
    src.mkdir()
    (src / "MEMORY.md").write_text("- [Note](note.md) — a note\n")
    (src / "note.md").write_text(entry)
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--from", "claude", "--to", "memfmt", str(src), str(tmp_path / "mf")]).exit_code == 0
    entity = tmp_path / "mf" / "memory" / "entities" / "Note.md"
    entity.write_text(edit(entity.read_text()))
    back = runner.invoke(main, ["convert", "--to", "claude", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    return (tmp_path / "back" / "note.md").read_text(), back.output


def test_a_fact_added_in_memfmt_comes_home_with_every_paragraph(tmp_path):
    # Watched fail without carry._keep_every_word: 'First paragraph.' was gone from the whole folder.
    note, said = _there_and_back(tmp_path, lambda text: text + "- Added in memfmt.\n")
    assert note == "---\nname: Note\ntype: project\n---\n\nFirst paragraph.\n\nSecond paragraph.\n\nAdded in memfmt.\n"
    assert "edited in memfmt: body" in said


def test_a_fact_edited_in_memfmt_comes_home_edited_and_the_others_stay(tmp_path):
    note, _ = _there_and_back(tmp_path, lambda text: text.replace("- Second paragraph.", "- Second, edited."))
    assert "First paragraph." in note and "Second, edited." in note and "Second paragraph." not in note


def test_the_first_fact_edited_in_memfmt_comes_home_once(tmp_path):
    note, _ = _there_and_back(tmp_path, lambda text: text.replace("- First paragraph.", "- First, edited."))
    assert note.count("First") == 1 and "First, edited." in note and "Second paragraph." in note


def test_a_precondition_added_in_memfmt_reaches_the_memoir_lesson(tmp_path):
    # Watched fail without readable.fold_in: the lesson came home unchanged, while the report said
    # "edited in memfmt: preconditions — the edit wins" (found by a helper).
    from .conftest import GOLDEN, tree

    src = GOLDEN / "memoir" / "canonical" / "input"
    runner = CliRunner()
    assert runner.invoke(main, ["convert", "--to", "memfmt", str(src), str(tmp_path / "mf")]).exit_code == 0
    procedure = tmp_path / "mf" / "memory" / "procedures" / "Rehearse destructive migrations on a copy first.md"
    procedure.write_text(procedure.read_text().replace("- Never run", "- Take a snapshot first.\n- Never run", 1))
    back = runner.invoke(main, ["convert", "--to", "memoir", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    path = "memory/lesson_migrations-staging-first.md"
    before, after = tree(src), tree(tmp_path / "back")
    assert after[path] == before[path].rstrip(b"\n") + b"\n\n**Preconditions:**\n\n- Take a snapshot first.\n"
    assert all(after[p] == data for p, data in before.items() if p != path)


def test_the_first_line_edited_where_the_description_was_made_of_it_comes_home_once(tmp_path):
    # memspec claims have no description; memoir shows the first line of the body as one, and the body too. That line
    # edited in memoir, the description left as it was: the description, carried as "none", was put back into the
    # body as text found nowhere else, the old line beside its edit (watched fail before; found by editing a body
    # line in the target, bringing it home and converting it there again). A memfmt entity shows the two as one
    # fact, where it is that paragraph, and stays (the tests above).
    from .conftest import GOLDEN

    src = GOLDEN / "memspec" / "canonical" / "input"
    runner = CliRunner()
    assert runner.invoke(main, ["memspec-to-memoir", str(src), str(tmp_path / "memoir")]).exit_code == 0
    entry = tmp_path / "memoir" / "memory" / "decision_team-a-ships-on-tuesdays.md"
    text = entry.read_text()
    assert "\ndescription: Release train leaves Tuesday 10:00.\n" in text
    entry.write_text(text.replace("\n\nRelease train leaves Tuesday 10:00.\n", "\n\nRelease train leaves at 10:30.\n"))
    back = runner.invoke(main, ["memoir-to-memspec", str(tmp_path / "memoir"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    (claim,) = [p for p in (tmp_path / "back" / ".memspec").rglob("*.md") if "Team A ships" in p.read_text()]
    assert claim.read_text().endswith("\n# Team A ships on Tuesdays\n\nRelease train leaves at 10:30.\n")


def _memspec_decision_home(tmp_path, edit) -> str:
    from .conftest import GOLDEN

    runner = CliRunner()
    src = GOLDEN / "memspec" / "canonical" / "input"
    assert runner.invoke(main, ["memspec-to-memoir", str(src), str(tmp_path / "memoir")]).exit_code == 0
    entry = tmp_path / "memoir" / "memory" / "decision_team-a-ships-on-tuesdays.md"
    text = entry.read_text()
    entry.write_text(edit(text))
    back = runner.invoke(main, ["memoir-to-memspec", str(tmp_path / "memoir"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    (claim,) = [p for p in (tmp_path / "back" / ".memspec").rglob("*.md") if "Team A ships" in p.read_text()]
    return claim.read_text()


def test_a_description_made_of_the_first_line_and_edited_apart_from_it_leaves_the_line(tmp_path):
    # memoir shows a memspec decision's description (its body's first line) and its body apart. Only the description
    # edited there, the body's line was replaced by the edit at home: text the user never touched, lost (watched fail
    # before). memspec has no description: the edit is a paragraph of the body, first, beside the line.
    claim = _memspec_decision_home(tmp_path, lambda t: t.replace(
        "\ndescription: Release train leaves Tuesday 10:00.\n", "\ndescription: Releases go out every Tuesday.\n"))
    assert claim.endswith("\n# Team A ships on Tuesdays\n\nReleases go out every Tuesday.\n\n"
                          "Release train leaves Tuesday 10:00.\n")


def test_a_description_filled_for_a_claude_memory_and_edited_in_memoir_is_its_description(tmp_path):
    # A Claude memory with no description is given its first line as one in memoir, which requires one. Edited
    # there, the edit replaced the body's paragraph at home (watched fail before): Claude holds a description, so
    # the edit is one, and the body stays as it was.
    user = ENTRY.replace("type: project", "type: user")  # (a project memory is kept whole in memoir)
    src = tmp_path / "in"
    src.mkdir()
    (src / "MEMORY.md").write_text("- [Note](note.md)\n")
    (src / "note.md").write_text(user)
    runner = CliRunner()
    assert runner.invoke(main, ["claude-to-memoir", str(src), str(tmp_path / "memoir")]).exit_code == 0
    (entry,) = (tmp_path / "memoir" / "memory").glob("*note*.md")
    text = entry.read_text()
    assert "\ndescription: First paragraph.\n" in text
    entry.write_text(text.replace("\ndescription: First paragraph.\n", "\ndescription: A note on two things.\n"))
    back = runner.invoke(main, ["memoir-to-claude", str(tmp_path / "memoir"), str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    assert (tmp_path / "back" / "note.md").read_text() == user.replace(
        "type: user\n", "description: A note on two things.\ntype: user\n")


def test_the_only_fact_taken_out_in_memfmt_takes_the_paragraph_out(tmp_path):
    # A Claude memory with no description and one paragraph is a memfmt entity of one fact. That fact deleted there,
    # the report said the edit won, and the paragraph came home as it was (watched fail before).
    def take_out(text: str) -> str:
        assert "\n- Only paragraph.\n" in text
        return text.replace("\n- Only paragraph.\n", "\n")

    back, _ = _there_and_back(tmp_path, take_out, "---\nname: Note\ntype: project\n---\n\nOnly paragraph.\n")
    assert "Only paragraph." not in back
