"""Lines of a markdown body for property tests of the line-by-line readings (memconv.markdown): prose,
labels, bullets, headings, and the block markers and characters that make a reading decline."""

from __future__ import annotations

from hypothesis import strategies as st

word = st.sampled_from(["text", "Why", "run", "`make`", "[[link]]", "(x)", "\"q\"", "'s'", "2026", "é", "a*b",
                        "#tag", "\\", "-", "**", "x:", "\u00a0", "\u2028", "1.", "1)"])
words = st.lists(word, min_size=1, max_size=4).map(" ".join)
line = st.one_of(
    words,                                            # prose (mostly)
    words.map(lambda w: "**Why:** " + w),
    words.map(lambda w: "**How to apply:** " + w),
    st.just("**How to apply:**"),
    st.just(""), st.just("  "), st.just("\t"),
    words.map(lambda w: "- " + w),                    # bullets
    st.sampled_from(["-", "- ", "* x", "+ x", "1. x", "2) x", "---", "***", "___", "===", "> q", "[a]: /u",
                     "| a | b |", "  indented", "   - x", "<b>x</b>", "```", "~~~", "    code", "\tcode", "x\r",
                     "a\x0cb", "#", "#x", "# ", "##  Title  ", "# Title #", "####### seven"]),
    st.tuples(st.integers(1, 6), words).map(lambda t: "#" * t[0] + " " + t[1]),  # headings
)
