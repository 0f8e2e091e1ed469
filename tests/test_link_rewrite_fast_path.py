"""markdown.rewrite_links's shortcuts (no backtick, no code block) rename exactly what the line-by-line path renames."""

from __future__ import annotations

import re

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from memconv import markdown

RENAME = {"a": "A", "b c": "B", "x": "y"}
#: The one wikilink rule, as a regex: the reference the scanner is held to.
WIKILINK = re.compile(r"\[\[([^\[\]|\n]+?)(\|[^\[\]\n]*)?\]\]")


def _line_by_line(body: str) -> str:
    """The rewrite before the shortcuts: code lines skipped, code spans skipped on every other line."""
    code = markdown.code_lines(body)

    def link(m):
        target = m.group(1)
        new = RENAME.get(target)
        if new is None:
            target = target.strip()
            new = RENAME.get(target)
        return m.group(0) if new is None or new == target else f"[[{new}{m.group(2) or ''}]]"

    def line_(text: str) -> str:
        out, pos = [], 0
        for start, end in markdown.code_spans(text):
            out.append(WIKILINK.sub(link, text[pos:start]))
            out.append(text[start:end])
            pos = end
        out.append(WIKILINK.sub(link, text[pos:]))
        return "".join(out)

    return "\n".join(line if i in code else line_(line) for i, line in enumerate(body.split("\n")))


_PIECES = st.sampled_from(["[[a]]", "[[b c|label]]", "[[x", "]]", "[[z]]", "`", "``", "```\n", "    ", "\t", "<b>",
                           "\n", "\n\n", " ", "text", "[[", "|", "~~~\n", "- "])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join))
@example("see [[a]] and `[[a]]`")
@example("```\n[[a]]\n```\n[[a]]")
@example("[[a]]\n    [[a]]")
@example("[[ x ]] and [[x ]]")
def test_rewrite_renames_what_the_line_by_line_path_renames(body):
    # Verified by letting the no-backtick shortcut run on bodies with code blocks: fenced links are renamed.
    assert markdown.rewrite_links(body, RENAME)[0] == _line_by_line(body)


def test_an_upgrade_renames_file_links_too_and_says_what_it_changed():
    body, changed = markdown.rewrite_links("See [[a]], [A](a.md) and `(a.md)` and [[b c|label]].",
                                           {"a": "fact_a", "b c": "fact_bc"}, file_links=True)
    assert body == "See [[fact_a]], [A](fact_a.md) and `(a.md)` and [[fact_bc|label]]."
    assert changed == ["[[a]] → [[fact_a]]", "(a.md) → (fact_a.md)", "[[b c]] → [[fact_bc]]"]


def test_one_module_finds_and_renames_wikilinks():
    # One rule in one place (issue 13): a second finder or rewriter of [[links]] elsewhere is a second rule.
    # Verified by keeping converters/links.py's rewrite beside it: fails naming that file.
    import ast
    from pathlib import Path

    import memconv

    root = Path(memconv.__file__).parent
    # (A writer spelling one link, memfmt's ``wikilink(name, stems)``, finds nothing: not a second rule.)
    FINDERS = {"wikilinks", "md_links", "link_targets", "code_spans", "code_lines"}
    others = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "markdown.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and (node.name in FINDERS or node.name.startswith("rewrite")):
                others.append(f"{path.relative_to(root)}: {node.name}")
    assert others == []


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join), st.lists(_PIECES, max_size=12).map("".join),
       st.dictionaries(st.sampled_from(["a", "b c", "x", "z", "A", "y"]), st.sampled_from(["a", "A", "y", "z", "[[", "]]"])))
@example("see [[A]]", "see [[a]]", {"a": "A"})
def test_a_body_said_to_differ_however_renamed_never_comes_home_equal(before, after, rename):
    # The forward step skips renaming a body home when this says so (converters/forward.py).
    # Verified by comparing the whole bodies instead: fails on ("see [[A]]", "see [[a]]", {"a": "A"}).
    from memconv.converters.naming import differs_however_renamed

    assume(differs_however_renamed(before, after))
    assert markdown.rewrite_links(after, rename)[0] != before


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab xc[]`|\n~-", max_size=80))
@example("see [[q]] and `[[a]]`")
@example("see [[q]] here")
@example("```\n[[a]]\n```\n[[zz]]")
def test_a_body_no_rename_changes_is_the_very_string(body):
    # A native's body shares its source record's string when no link in it is renamed: held once, not
    # twice, for every record of a store (docs/performance.md).
    new, changed = markdown.rewrite_links(body, RENAME)
    assume(not changed)
    assert new is body
