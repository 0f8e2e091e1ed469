"""The frontmatter reader's remembered scalars answer what working them out anew answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import frontmatter
from memconv.frontmatter import _fast_scalar, _scalar_answer

_alphabet = st.sampled_from(list("abcABXYZ019 -_:#'\"[]{},.!&*|>%@`?~=+<\t\\/é") + ["\u2028", "\x85", "\ufeff"])
_texts = st.one_of(
    st.text(_alphabet, max_size=12),
    st.sampled_from(["null", "NULL", "True", "true", "yes", "0", "-0", "007", "2026-05-14", "2026-06-12T09:30:00Z", "{}", "[]",
                     "'it''s'", '"a\\nb"', "4f7c1b", "bench", "Bench", "t3", "a" * 64, "a" * 65]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_texts, min_size=1, max_size=20))
def test_remembered_answers_are_the_answers(texts):
    for text in texts + texts:  # the second time round, from memory where kept
        assert _fast_scalar(text) == _scalar_answer(text)


@given(st.sampled_from(["{}", "[]"]))
def test_containers_are_never_shared(text):
    first, second = _fast_scalar(text)[1], _fast_scalar(text)[1]
    assert first == second and first is not second
    first.update(a=1) if isinstance(first, dict) else first.append(1)  # a caller that fills its value changes no other caller's
    assert _fast_scalar(text)[1] == ({} if text == "{}" else [])


def test_memory_is_bounded(monkeypatch):
    from memconv import text

    monkeypatch.setattr(text, "CACHE_LIMIT", 10)  # the one limit of memconv's caches of answers (text.remember)
    frontmatter._SCALARS.clear()
    for i in range(25):
        _fast_scalar(f"w{i}")
    assert 0 < len(frontmatter._SCALARS) <= 10
    assert _fast_scalar("x" * 65) == (True, "x" * 65) and "x" * 65 not in frontmatter._SCALARS


@settings(max_examples=300, deadline=None)
@given(st.lists(_texts, min_size=1, max_size=20))
def test_remembered_renderings_are_the_renderings(texts):
    for text in texts + texts:
        assert frontmatter.scalar(text) == frontmatter._scalar_text(text)
        assert frontmatter.render_block(text, "v") == [f"{frontmatter._top_key_text(text)}: {frontmatter.scalar('v')}"]
