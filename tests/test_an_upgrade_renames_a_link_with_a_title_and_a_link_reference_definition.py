"""An upgrade renames a link written with a title, `[role](user_role.md "Her role")`, and a link reference
definition, `[r]: user_role.md`, as it renames `[role](user_role.md)`.

Both are links CommonMark (and Claude Code) follows to the memory's file. The one link rule
(`markdown.md_links`) knew only `(file.md)` and `(file.md#part)`: once the upgrade named the file
`preference_role.md`, a titled link or a reference definition, in a memory's body or in MEMORY.md, pointed at
nothing, with no warning and exit 0. In code they stay as written.
"""

from __future__ import annotations

from memconv import markdown
from memconv import upgrade as upgrading
from memconv.report import Report

from .claude_support import upgraded, write

ROLE = b"---\nname: Role\ndescription: senior dev\ntype: user\n---\nAna.\n"
LESSON = (b"---\nname: Tests\ndescription: when testing\ntype: feedback\n---\n"
          b"Ask [her](user_role.md \"Her role\"), [again](./user_role.md#why 'x') and [by ref][r].\n\n"
          b"[r]: user_role.md\n\n**How to apply:** always.\n")
INDEX = (b"# Memory Index\n\n- [Role](user_role.md) \xe2\x80\x94 senior dev\n"
         b"- [Tests](feedback_tests.md) \xe2\x80\x94 when testing\n\n"
         b"See [the role][r] and [tests][t].\n\n"
         b"[r]: user_role.md \"Role\"\n[t]: <feedback_tests.md>\n\n"
         b"```\n[r]: user_role.md\n```\n")


def _upgraded(tmp_path):
    return upgraded({"MEMORY.md": INDEX, "feedback_tests.md": LESSON, "user_role.md": ROLE}, tmp_path / "in")


def test_a_titled_link_and_a_definition_in_a_body_follow_the_rename(tmp_path):
    body = _upgraded(tmp_path)["lesson_tests.md"].decode("utf-8")
    assert "Ask [her](preference_role.md \"Her role\"), [again](./preference_role.md#why 'x')" in body, body
    assert "\n[r]: preference_role.md\n" in body, body
    assert "user_role" not in body, "no link is left pointing at the old name"


def test_memory_mds_definitions_follow_the_rename_and_code_stays_code(tmp_path):
    index = _upgraded(tmp_path)["MEMORY.md"].decode("utf-8")
    assert "\n[r]: preference_role.md \"Role\"\n[t]: <lesson_tests.md>\n" in index, index
    assert "```\n[r]: user_role.md\n```\n" in index, "a definition in a code block is code"


def test_a_second_upgrade_changes_nothing(tmp_path):
    once = _upgraded(tmp_path)
    write(once, tmp_path / "again")
    assert upgrading.plan(tmp_path / "again", Report(command="upgrade", input="again"), "flat").files == once


def test_the_link_rule_finds_a_titled_link_and_a_definition_but_no_half_link():
    found = [m.group("target") for m in markdown.md_links('[a](x.md "t") [b](y.md (t)) [c](z.md "t) [d](w.md q)')]
    assert found == ["x.md", "y.md"], "a title is quoted or in parentheses, and closed"
    assert markdown.link_targets("[r]: x.md\n  [s]: <./y.md#h> 'T'\n[u]: z.md trailing\n    [v]: c.md\n") \
        == ["x", "y"], "a definition is a whole line, indented by at most three spaces"
