"""memspec's YAML is js-yaml 3.14's: the writer must quote, fold and indent exactly as it does.

The expected strings below were produced by js-yaml 3.14.2 ``safeDump({k: value})``
(the version gray-matter 4 pulls into memspec 0.7.2), not written by hand.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memconv.dialects.memspec import jsyaml

#: (value, what js-yaml writes after ``k: ``)
JS_YAML_SCALARS = [
    ('plain words', 'plain words'),
    ('yes', "'yes'"),
    ('No', "'No'"),
    ('on', "'on'"),
    ('y', "'y'"),
    ('0123', "'0123'"),
    ('0o17', '0o17'),
    ('0x1F', "'0x1F'"),
    ('1_000', "'1_000'"),
    ('1:30', "'1:30'"),
    ('+1', "'+1'"),
    ('.5', "'.5'"),
    ('1e3', "'1e3'"),
    ('-', "'-'"),
    ('- item', "'- item'"),
    ('~', "'~'"),
    ('null', "'null'"),
    ('true', "'true'"),
    ('2026-04-04', "'2026-04-04'"),
    ('2026-04-04T10:30:00Z', "'2026-04-04T10:30:00Z'"),
    ('human:siim', "'human:siim'"),
    ('a #b', "'a #b'"),
    ('a#b', 'a#b'),
    ('#tag', "'#tag'"),
    ('trailing ', "'trailing '"),
    (' leading', "' leading'"),
    ("it's", "it's"),
    ('tab\there', '"tab\\there"'),
    ('nbsp\xa0x', '"nbsp\\_x"'),
    ('emoji 😀', '"emoji \\U0001F600"'),
    ('line1\nline2', '|-\n  line1\n  line2'),
    ('ends with newline\n', '|\n  ends with newline'),
    ('two\n\n', '|+\n  two'),
    ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
    ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', '>-\n  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
    ('word word word word word word word word word word word word word word word word word', '>-\n  word word word word word word word word word word word word word word word\n  word word'),
    ('word word word word word word word word word word word word word word word word wor', '>-\n  word word word word word word word word word word word word word word word\n  word wor'),
    ('@mention', "'@mention'"),
    ('%pct', "'%pct'"),
    ('*star', "'*star'"),
    ('!bang', "'!bang'"),
    ('&amp', "'&amp'"),
    ('|pipe', "'|pipe'"),
    ('>gt', "'>gt'"),
    ('[x]', "'[x]'"),
    ('{x}', "'{x}'"),
    ('a, b', "'a, b'"),
    ("'quoted'", "'''quoted'''"),
    ('"dq"', '\'"dq"\''),
    ('=eq', "'=eq'"),
    ('?q', "'?q'"),
    ('.inf', "'.inf'"),
    ('-.5', "'-.5'"),
    ('', "''"),
]


@pytest.mark.parametrize("value, expected", JS_YAML_SCALARS)
def test_scalar_quoting_matches_js_yaml(value, expected):
    # Verified by dropping the YAML 1.1 compat booleans list: 'yes', 'No', 'on', 'y' fail.
    assert jsyaml.dump({"k": value}) == "k: " + expected


def test_nested_structures_match_js_yaml_layout():
    doc = {"tags": [], "anchors": [{"file": "a.ts", "sha": "abc", "repo": "../x"}], "ext": {"empty": {},
           "n": [1, 0.85, 1.0, -3, True, None], "deep": {"list": ["human:ana"]}}, "check_by": "never"}
    assert jsyaml.dump(doc) == (
        "tags: []\n"
        "anchors:\n"
        "  - file: a.ts\n"
        "    sha: abc\n"
        "    repo: ../x\n"
        "ext:\n"
        "  empty: {}\n"
        "  'n':\n"
        "    - 1\n"
        "    - 0.85\n"
        "    - 1\n"
        "    - -3\n"
        "    - true\n"
        "    - null\n"
        "  deep:\n"
        "    list:\n"
        "      - 'human:ana'\n"
        "check_by: never"
    )


def test_fold_width_shrinks_with_depth():
    # 76 columns at depth 2 (ext.x), 78 at depth 1: js-yaml narrows the width as indentation grows.
    text = "x" * 77
    assert jsyaml.dump({"k": text}) == "k: " + text
    assert jsyaml.dump({"ext": {"x": text}}) == "ext:\n  x: >-\n    " + text


def test_integer_like_keys_come_first_as_in_javascript_objects():
    assert jsyaml.dump({"b": 1, "10": 2, "2": 3}) == "'2': 3\n'10': 2\nb: 1"


# --- the fast path agrees with the unit-by-unit one --------------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

#: Characters around every boundary the style rules draw: indicators, space, tab, line feed,
#: NEL, NBSP, the line separators, the byte-order mark, a lone surrogate, an astral character.
_EDGES = list(" \t\n:#,[]{}-?|>'\"%@`!&*=~xy0.1e\x7f\x85\xa0\xa1\u2028\u2029\ufeff\ufffe\ud800\U0001F600é—")


#: Mostly plain words with the odd edge character, sometimes anything at all.
_TEXTS = (st.text(st.sampled_from(list("ab #\n:-'")), max_size=100)
          | st.text(st.sampled_from(list("aaaabbbb  #-'")), min_size=1, max_size=100)
          | st.text(st.sampled_from(_EDGES) | st.sampled_from(list("abc ")), max_size=120)
          | st.text(st.characters(), max_size=60))


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.booleans(),
       st.sampled_from([40, 76, 78, 8]))
@example("a #b", False, 40)
@example("word " * 20, False, 40)
def test_quick_style_is_the_unit_by_unit_style(text, key, width):
    quick = jsyaml._quick_style(text, key, width) if text else None
    if quick is not None:
        assert quick == jsyaml._style(jsyaml._units(text), text, key, width)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(_EDGES) | st.characters(), max_size=60))
def test_units_round_trip(text):
    units = jsyaml._units(text)
    assert units == [int.from_bytes(text.encode("utf-16-le", "surrogatepass")[i:i + 2], "little")
                     for i in range(0, 2 * len(units), 2)]
    assert jsyaml._from_units(units) == text


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.sampled_from([40, 76, 8, 3]))
@example("word " * 20, 40)
@example("a\n\n  b " * 30, 8)
def test_folding_the_string_is_folding_its_units(text, width):
    # Verified by dropping the blank line js-yaml adds between two lines that are not more indented.
    if not jsyaml._WIDE.search(text):
        assert jsyaml._fold_text(text, width) == jsyaml._fold(jsyaml._units(text), width)


@given(st.dictionaries(st.text(st.sampled_from(list("0123456789a٣-")), max_size=12), st.none(), max_size=8))
def test_object_keys_order_as_javascript(mapping):
    """Array-index keys first, ascending, then the rest as inserted: the rule, without the digit pre-check."""
    import re as re_

    index = sorted((k for k in mapping if re_.fullmatch(r"0|[1-9][0-9]*", k) and int(k) < 2**32 - 1), key=int)
    assert jsyaml._object_keys(mapping) == index + [k for k in mapping if k not in index]


def _mapping_by_the_rule(mapping, level, compact):
    """js-yaml's writeBlockMapping as jsyaml wrote it before its short-string shortcut: key, then node."""
    out = []
    for index, key in enumerate(jsyaml._object_keys(mapping)):
        prefix = "" if compact and index == 0 else "\n" + " " * (jsyaml.INDENT * level)
        value = mapping[key]
        if isinstance(value, dict) and value:
            dump = _mapping_by_the_rule(value, level + 1, False)
        else:
            dump = jsyaml._node(value, level + 1)
        out.append(prefix + jsyaml.scalar(str(key), level + 1, key=True) + (":" if dump.startswith("\n") else ": ")
                   + dump)
    return "".join(out)


_jtext = st.text(st.sampled_from(list("ab :#'\"-\n1é") + ["\u2028", "\x07"]), max_size=90)
_jvalues = st.recursive(st.none() | st.booleans() | st.integers() | _jtext | st.lists(_jtext, max_size=2),
                        lambda inner: st.dictionaries(_jtext, inner, max_size=3), max_leaves=8)


@given(st.dictionaries(_jtext, _jvalues, min_size=1, max_size=5))
def test_mapping_shortcut_writes_what_the_rule_writes(mapping):
    assert jsyaml.dump(mapping) == _mapping_by_the_rule(mapping, 0, True).strip()
