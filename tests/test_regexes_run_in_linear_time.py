"""Every regex runs in linear time (issue 9, item 4).

Each pattern that was super-linear is now a scanner (or a regex with one way
to match). Two kinds of test: the scanner gives exactly what the old regex
gave (property tests, the old regex kept here as the reference), and a
100 KB pathological line finishes in well under a second (the old regexes
took from seconds to many minutes on these).
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memconv import frontmatter as fm
from memconv import markdown
from memconv.dialects.claude import index as claude_index
from memconv.dialects.claude.index import heading_text
from memconv.dialects.memfmt import syntax as sx

from .hostile import convert_everywhere, store_with

# --- the old regexes, as the reference of what each scanner must find -----------------------------

OLD_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
#: The one wikilink rule (memconv.markdown): no ``[`` inside a link, a target before any ``|``.
OLD_WIKILINK = re.compile(r"\[\[(?P<target>[^\[\]|\n]+?)(?P<rest>\|[^\[\]\n]*)?\]\]")
#: A sibling file link, a title after its name too (forty-sixth session: ``[x](a.md "title")``).
OLD_MD_LINK = re.compile(r"(?P<head>\]\()(?P<dot>\./)?(?P<target>[^)\s/#]+\.md)(?P<tail>#[^)\s]*)?"
                         r"(?P<title>[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))[ \t]*)?\)")
OLD_TITLE = re.compile(r"^#[ \t]+(?P<text>.*?)[ \t#]*$")
OLD_SECTION = re.compile(r"^##[ \t]+(?P<text>.*?)[ \t#]*$")
OLD_TOP_KEY = re.compile(
    r"""^(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<plain>[^\s#\-'"][^:]*?|-[^\s:][^:]*?))[ \t]*:(?:[ \t]|$)""")


def pieces(*parts: str) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(parts), max_size=14).map("".join)


SAME = settings(max_examples=400, deadline=None)


@SAME
@given(pieces("`", "``", "a", " ", "\n", "[[x]]"))
def test_code_spans_are_what_the_old_regex_found(text):
    assert markdown.code_spans(text) == [m.span() for m in OLD_CODE_SPAN.finditer(text)]


@SAME
@given(pieces("[[", "[", "]", "]]", "|", "a", "\n"))
def test_wikilinks_are_what_the_one_wikilink_regex_finds(text):
    def parts(ms):
        return [(m.span if isinstance(m.span, tuple) else m.span(), m.group("target"), m.group("rest")) for m in ms]
    assert parts(markdown.wikilinks(text)) == parts(OLD_WIKILINK.finditer(text))


@SAME
@given(pieces("](", ".md", "./", ")", "#", " ", "/", "a", "]", "(", ".", '"', "'", "\t", "\n", ' "t")', " (t)"))
@example('[a](x.md "t") [b](./y.md#p (t) ) [c](z.md \'t)')
def test_md_links_are_what_the_old_regex_found(text):
    names = ("head", "dot", "target", "tail", "title")

    def parts(ms):
        return [(m.span if isinstance(m.span, tuple) else m.span(), *(m.group(n) for n in names)) for m in ms]
    assert parts(markdown.md_links(text)) == parts(OLD_MD_LINK.finditer(text))


@SAME
@given(pieces("#", "##", " ", "\t", "x", "# "))
def test_index_headings_are_what_the_old_regex_found(line):
    for level, old in ((1, OLD_TITLE), (2, OLD_SECTION)):
        m = old.match(line)
        assert heading_text(line, level) == (m.group("text") if m else None)


@SAME
@given(pieces("- ", " → [[", " ← [[", "]]", "]", "[", "x", " ", "→"))
def test_memfmt_relations_are_what_the_old_regex_found(line):
    new, old = markdown.relation(line), markdown.RELATION.match(line)
    assert (new is None) == (old is None)
    if new is not None:
        assert all(new.group(k) == old.group(k) for k in ("verb", "arrow", "link", "rest"))


@SAME
@given(pieces(" ", "\t", "(", ")", "1", "✓/", "✗", "[", "]", "→", "x", "(v1 · ", "\u00a0"))
def test_memfmt_line_ends_are_what_the_old_regex_found(text):
    for new, old in ((sx.step_record, sx.STEP_RECORD), (sx.step_slots, sx.STEP_SLOTS)):
        a, b = new(text), old.search(text)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))
    assert sx.without_reliability(text) == sx.RELIABILITY_SUFFIX.sub("", text)


@SAME
@given(pieces('"', "'", "a", " ", "\t", ":", "-", "#", ": "))
def test_frontmatter_keys_are_what_the_old_regex_found(line):
    def key(m):
        if m is None:
            return None
        return m.group("dq") if m.group("dq") is not None else m.group("sq") if m.group("sq") is not None \
            else m.group("plain").rstrip()
    assert key(fm._TOP_KEY.match(line)) == key(OLD_TOP_KEY.match(line))


# --- 100 KB pathological lines -------------------------------------------------------------------

N = 100_000

PATHOLOGICAL = {
    "backticks beside a link": (lambda: markdown.rewrite_links("`" * N + "[[a]]", {"a": "b"})),
    "backticks and letters": (lambda: markdown.rewrite_links("`a" * (N // 2) + "[[a]]", {"a": "b"})),
    "opened wikilinks": (lambda: markdown.wikilinks("[[" * (N // 2) + "]]")),
    "opened wikilinks with text": (lambda: markdown.wikilinks("[[a" * (N // 3) + "]]")),
    "opened md links": (lambda: markdown.md_links("](" * (N // 2) + ")")),
    "opened titles": (lambda: markdown.md_links('](a.md "' * (N // 8) + "(" * N)),
    "opened parenthesised titles": (lambda: markdown.md_links("](a.md (" * (N // 8) + " " * N)),
    "definitions of brackets": (lambda: markdown.md_definitions("[" + "\\]" * (N // 2) + "]: a.md x")),
    "opened md links in <>": (lambda: markdown.md_links("](<" * (N // 3) + ">)")),
    "md link of names in <>": (lambda: markdown.md_links("](<" + "x .md" * (N // 5) + " (")),
    "md links in <> of opened titles": (lambda: markdown.md_links('](<a.md> "' * (N // 10) + "(" * N)),
    "definition of names in <>": (lambda: markdown.md_definitions("[r]: <" + "x .md" * (N // 5) + " (")),
    "definition of parts in <>": (lambda: markdown.md_definitions("[r]: <" + "x .md#" * (N // 6))),
    "index link of parts": (lambda: claude_index.LINK_LINE.match("- [a](" + "x.md#" * (N // 5))),
    "index link of names": (lambda: claude_index.LINK_LINE.match("- [a](" + "x.md" * (N // 4) + " (")),
    "index link of names in <>": (lambda: claude_index.LINK_LINE.match("- [a](<" + "x .md" * (N // 5) + " (")),
    "index link of parts in <>": (lambda: claude_index.LINK_LINE.match("- [a](<" + "x .md#" * (N // 6))),
    "title of hashes": (lambda: heading_text("# " + "# " * (N // 2) + "x", 1)),
    "section of hashes": (lambda: heading_text("## " + "# " * (N // 2) + "x", 2)),
    "relation arrows": (lambda: markdown.relation("- a" + " → [[x" * (N // 6) + "]")),
    "step of spaces": (lambda: (sx.step_record(" " * N), sx.step_slots(" " * N))),
    "step of brackets": (lambda: sx.step_slots("[" * N + "]")),
    "step of arrows": (lambda: sx.step_slots("[" + "→" * N + "]")),
    "reliability opens": (lambda: sx.without_reliability("(v1 · " * (N // 6) + ")")),
    "frontmatter key of spaces": (lambda: fm._TOP_KEY.match("a" + " " * N + ":x")),
    "fast plain scalar": (lambda: fm._fast_scalar("a" + " #" * (N // 2) + ":")),
}


@pytest.mark.parametrize("case", list(PATHOLOGICAL))
def test_a_pathological_100kb_line_finishes_in_well_under_a_second(case):
    started = time.perf_counter()
    PATHOLOGICAL[case]()
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("dialect,files", [
    ("claude", {"MEMORY.md": "# Memory\n\n## " + "# " * (N // 2) + "x\n"}),
    ("claude", {"project_ticks.md": "---\nname: t\ndescription: d\ntype: project\n---\n" + "`" * N + " [[user_role]]\n"}),
    ("memoir", {"memory/fact_ticks.md": "---\ntype: fact\nname: t\n---\n" + "`" * N + " [[fact_x]]\n"}),
    ("memfmt", {"memory/entities/Arrows.md": "---\nmemfmt_type: entity\n---\n# Arrows\n\n## Relations\n\n- a"
                + " → [[x" * (N // 6) + "\n"}),
])
def test_a_store_with_a_pathological_line_converts_everywhere_in_seconds(dialect, files):
    started = time.perf_counter()
    reports = convert_everywhere(store_with(dialect, files), dialect)
    assert all(r.exit_code in (0, 3) for r in reports.values())
    assert time.perf_counter() - started < 10.0
