"""An upgrade renames a body link whose destination is written in `<>`, `[see](<user other note.md>)`, and a link
reference definition `[r]: <user other note.md>`, as it renames `[see](user_other.md)`.

`<>` is CommonMark's form for a file name with a space (a bare destination holds none), and Claude Code follows it
to the file; MEMORY.md's link lines are read so (forty-seventh session), but the one link rule of a body
(`markdown.md_links`, `markdown.md_definitions`) was not: once the upgrade named the file
`preference_user-other-note.md`, the body's link pointed at nothing, with no warning and exit 0. markdown-it-py,
which finds the body's code, is the judge here of what is a link; in code it stays as written.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from memconv import markdown
from memconv import upgrade as upgrading
from memconv.report import Report

from .claude_support import upgraded, write

OTHER = b"---\nname: Other note\ndescription: other\ntype: user\n---\nAna.\n"
LESSON = (b"---\nname: Tests\ndescription: when testing\ntype: feedback\n---\n"
          b"See [see](<user other note.md>), [part](<./user other note.md#why> \"T\") and [by ref][r].\n\n"
          b"[r]: <user other note.md>\n\n"
          b"```\n[code](<user other note.md>)\n```\n\n"
          b"Inline `[code](<user other note.md>)` too.\n\n**How to apply:** always.\n")
INDEX = (b"# Memory Index\n\n- [Other](<user other note.md>) \xe2\x80\x94 other\n"
         b"- [Tests](feedback_tests.md) \xe2\x80\x94 when testing\n\n"
         b"See [o](<user other note.md>).\n\n[q]: <user other note.md> \"Q\"\n")


def _upgraded(tmp_path):
    return upgraded({"MEMORY.md": INDEX, "feedback_tests.md": LESSON, "user other note.md": OTHER}, tmp_path / "in")


def test_a_body_link_and_a_definition_in_angle_brackets_follow_the_rename(tmp_path):
    files = _upgraded(tmp_path)
    assert "preference_user-other-note.md" in files, sorted(files)
    body = files["lesson_tests.md"].decode("utf-8")
    assert "See [see](<preference_user-other-note.md>), [part](<./preference_user-other-note.md#why> \"T\")" \
        in body, body
    assert "\n[r]: <preference_user-other-note.md>\n" in body, body
    assert "```\n[code](<user other note.md>)\n```\n" in body, "a link in a fenced block is code"
    assert "Inline `[code](<user other note.md>)` too." in body, "a link in a code span is code"
    index = files["MEMORY.md"].decode("utf-8")
    assert "See [o](<preference_user-other-note.md>).\n\n[q]: <preference_user-other-note.md> \"Q\"\n" in index, index


def test_a_link_in_angle_brackets_to_no_memory_is_said(tmp_path):
    gone = LESSON.replace(b"[by ref][r]", b"[gone](<no such.md>)")
    write({"MEMORY.md": INDEX, "feedback_tests.md": gone, "user other note.md": OTHER}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    body = upgrading.plan(tmp_path / "in", report, "flat").files["lesson_tests.md"].decode("utf-8")
    assert "[gone](<no such.md>)" in body, "left as written"
    said = [w for f in report.files for w in f.warnings]
    assert any("[[no such]]" in w and "names no entry" in w for w in said), said


def test_a_second_upgrade_changes_nothing(tmp_path):
    once = _upgraded(tmp_path)
    write(once, tmp_path / "again")
    assert upgrading.plan(tmp_path / "again", Report(command="upgrade", input="again"), "flat").files == once


def _markdown_it_targets(text: str) -> list[str]:
    """The destinations markdown-it-py (CommonMark) reads as links in ``text``, inline and by reference."""
    parser = MarkdownIt("commonmark")
    found = []
    for token in parser.parse(text):
        for child in token.children or ():
            if child.type == "link_open":
                found.append(parser.normalizeLinkText(child.attrs["href"]))
    return found


ANGLED = ["[a](<x y.md>)", "[a](<./x y.md#p q>)", '[a](<x y.md> "t")', "[a](<x(1).md>)",
          "[a](<x y.md>", "[a](<x\ny.md>)", "[a](<x<y.md>)", "[a](<x y.md>z)", "[a](<x/y.md>)", "[a](<x y.txt>)"]


def test_the_link_rule_finds_what_markdown_it_reads_as_a_link_to_a_sibling_file():
    for text in ANGLED:
        ours = [m.group("target") for m in markdown.md_links(text)]
        theirs = [t.removeprefix("./").partition("#")[0] for t in _markdown_it_targets(text)]
        assert ours == [t for t in theirs if "/" not in t and t.endswith(".md")], text
    assert markdown.link_targets("[r]: <x y.md>\n[s]: <./z w.md#h> 'T'\n[u]: <q r.md> trailing\n[v]: <a\nb.md>\n") \
        == ["x y", "z w"], "a definition in <> is a whole line, closed on it"
    for line in ("[r]: <x y.md>", "[s]: <./z w.md#h> 'T'"):
        assert _markdown_it_targets(f"{line}\n\n[x][{line[1]}]\n"), line


def test_a_backslash_escape_inside_the_angle_brackets_is_not_read():
    """As a MEMORY.md link line's (docs/claude.md): the link is left as written, not renamed to a guess."""
    assert markdown.md_links(r"[a](<x\>y.md>)") == []
    assert markdown.rewrite_links(r"[a](<x\ y.md>)", {r"x\ y": "z"}, file_links=True) == (r"[a](<x\ y.md>)", [])
