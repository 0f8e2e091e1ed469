"""The no-YAML fast path reads every block it accepts exactly as the YAML loader does."""

from __future__ import annotations

import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memconv.frontmatter import _fast_values, load_yaml, same

_alphabet = st.sampled_from(list("abcXYZ019 -_:#'\"[]{},.!&*|>%@`?~=+<\t\\/é—") + ["\u2028", "\x85", "\ufeff"])
#: Mostly-plain words, so that the fast path accepts many blocks and is really compared.
_wordy = st.text(st.sampled_from(list("abc XYé—") + ["\u2028", "\x85", "\x07", "\ufeff"]), max_size=8).map(
    lambda s: f"w{s}w")
_value = st.one_of(
    _wordy,
    st.text(_alphabet, min_size=1, max_size=12),
    st.sampled_from(["null", "True", "yes", "no", "on", "~", "0", "-0", "007", "0x1F", "1_000", "1.5", ".inf",
                     "2026-05-14", "2026-06-12T09:30:00Z", "2026-06-12 09:30:00", "12:30:00", "- x", "a: b", "a #c",
                     "'a: b'", "'it''s'", "''", "'a' b'", "' x '", "'#c'", "'a, ", "'a' #c", "{}", "[]",
                     "{ }", "'2026-05-14T10:30:00.000Z'", "'yes'", "4f7c", "0x1f", "0b1", "0B1", "0X1", "1e5", "1E5",
                     "12ab", "0o7", "0e0", "1_0a", "4f7c1b5f4d1b0c2f0f6d8a3a1c5e9b7d2e4f6a8c0b1d3e5f7a9c2e4b6d8f0a1c"]),
    st.text(_alphabet, max_size=10).map(lambda s: "'" + s + "'"),
    st.text(_alphabet, max_size=10).map(lambda s: '"' + s + '"'),
    # What the writers' double_quoted writes, escapes and all (one value in 13).
    st.text(st.sampled_from(list("ab \\\"\n\t\x00\x07\x1b/é") + ["\u2028", "\x85", "\ud800"]),
            max_size=8).map(lambda s: json.dumps(s, ensure_ascii=False)),
    st.text(st.sampled_from(list("ab \\\"nrtbfux0D8/")), max_size=8).map(lambda s: '"' + s + '"'),
)
_key = st.sampled_from(["type", "name", "tags", "origin", "x-y", "a_b", "null", "True"])
#: Words the fast path takes, with hand-written punctuation inside (``a: b`` aside).
_plain = st.from_regex(r"[a-zA-Zé][a-zA-Z0-9 é—_/()'\-]{0,10}[a-zA-Z0-9é)]", fullmatch=True)
#: Nine values in ten plain, one anything: one value the fast path declines declines the whole
#: block, so with every value drawn from ``_value`` only 1 block in 10 reached the comparison.
_mostly_plain = st.integers(0, 9).flatmap(lambda i: _value if i == 0 else _plain)


@st.composite
def blocks(draw):
    lines = []
    # Distinct keys: a repeated key makes the fast path decline the whole block.
    for key in draw(st.lists(_key, min_size=1, max_size=5, unique=True)):
        shape = draw(st.sampled_from(["scalar", "empty", "list", "list0", "map", "folded", "items", "items0",
                                      "deep"]))
        if shape == "scalar":
            lines.append(f"{key}: {draw(_mostly_plain)}")
        elif shape == "empty":
            lines.append(f"{key}:")
        elif shape in ("list", "list0"):
            lines.append(f"{key}:")
            indent = "  " if shape == "list" else ""
            lines += [f"{indent}- {draw(_mostly_plain)}" for _ in range(draw(st.integers(1, 3)))]
        elif shape == "folded":
            lines.append(f"{key}: >-")
            lines += [draw(st.sampled_from(["  ", "   ", " ", "\t", ""])) + draw(_mostly_plain)
                      + draw(st.sampled_from(["", "", " ", ":"])) for _ in range(draw(st.integers(0, 3)))]
        elif shape in ("items", "items0"):
            lines.append(f"{key}:")
            indent = "  " if shape == "items" else ""
            for _ in range(draw(st.integers(1, 3))):
                subs = draw(st.lists(_key, min_size=1, max_size=3, unique=True))
                lines.append(f"{indent}- {subs[0]}: {draw(_mostly_plain)}")
                lines += [draw(st.sampled_from([indent + "  ", indent + "  ", indent + "   ", indent]))
                          + f"{sub}: {draw(_mostly_plain)}" for sub in subs[1:]]
                if draw(st.integers(0, 5)) == 0:
                    lines.append(f"{indent}- {draw(_mostly_plain)}")
        elif shape == "deep":
            # Mappings nested two and three deep (memspec's ``ext: memconv: fields: scope: …``), now and
            # then with a line at an odd indent, a list, or a key with nothing under it.
            lines.append(f"{key}:")
            lines += draw(_nested(2))
        else:
            lines.append(f"{key}:")
            lines += [f"  {sub}: {draw(_mostly_plain)}" for sub in draw(st.lists(_key, min_size=1, max_size=3,
                                                                                unique=True))]
    return lines


@st.composite
def _nested(draw, depth: int):
    indent = " " * depth
    lines = []
    for sub in draw(st.lists(_key, min_size=1, max_size=3, unique=True)):
        form = draw(st.sampled_from(["value", "value", "mapping", "mapping", "bare", "odd", "list"]))
        if form == "value" or (form == "mapping" and depth >= 6):
            lines.append(f"{indent}{sub}: {draw(_mostly_plain)}")
        elif form == "mapping":
            lines.append(f"{indent}{sub}:")
            lines += draw(_nested(depth + 2))
        elif form == "bare":
            lines.append(f"{indent}{sub}:")
        elif form == "odd":
            lines.append(f"{indent}{sub}:")
            lines.append(f"{indent}   {draw(_key)}: {draw(_mostly_plain)}")
        else:
            lines.append(f"{indent}{sub}:")
            lines.append(f"{indent}  - {draw(_mostly_plain)}")
    return lines


@settings(max_examples=1500, deadline=None)
@given(blocks())
def test_fast_path_gives_what_yaml_gives_or_declines(lines):
    fast = _fast_values(lines)
    assume(fast is not None)  # a decline is always right: YAML reads the block
    # Verified by deleting the _UNPRINTABLE guard: fails with a ScannerError on 'w\x85w'.
    assert same(fast, load_yaml("\n".join(lines))), "the fast path never reads a value differently from YAML"


def test_fast_path_takes_the_common_shapes():
    lines = ["type: fact", "name: Staging API: endpoints", "created: 2026-05-14", "fired_count: 3", "tags:",
             "  - a", "origin:", "  tool: memoir-cli"]
    assert _fast_values(lines) is None, "': ' inside a value is YAML's business"
    lines[1] = "name: Staging API endpoints"
    assert _fast_values(lines) == {"type": "fact", "name": "Staging API endpoints", "created": "2026-05-14",
                                   "fired_count": 3, "tags": ["a"], "origin": {"tool": "memoir-cli"}}


import pytest  # noqa: E402
import yaml  # noqa: E402

#: Quoted and flow values the fast path now takes, or must decline (js-yaml writes memspec's this way).
_QUOTED = ["'a: b'", "'it''s'", "''", "'a' b'", "' x '", "'#c'", "'a'''", "'''", "'a' #c", "'x", "x'", "'",
           "{}", "[]", "{ }", "[ ]", "'2026-05-14T10:30:00.000Z'", "'yes'", "'a\\tb'", "'é — ok'"]


#: Double-quoted values (JSON's escapes) the fast path takes, or must decline.
_DOUBLE_QUOTED = ['"a: b"', '"it\'s"', '""', '"a\\"b"', '"a\\nb"', '"a\\u00e9"', '"a\\x41"',
                  '"a\\ud83d\\ude00"', '"a" #c', '"a', '"a\\"', '"a\\/b"', '"a\\_b"']


@pytest.mark.parametrize("value", _QUOTED + _DOUBLE_QUOTED)
def test_quoted_and_empty_flow_values_read_as_yaml_reads_them(value):
    # Verified by dropping the lone-quote check: "'a' b'" is taken, and YAML refuses it.
    lines = [f"k: {value}", "l:", f"  - {value}"]
    fast = _fast_values(lines)
    try:
        expected = load_yaml("\n".join(lines))
    except yaml.YAMLError:
        assert fast is None
        return
    assert fast is None or same(fast, expected)


def test_nested_mappings_are_taken():
    # Verified by breaking _fast_nested once (every nested value read as its text, quotes and all).
    lines = ["id: ms_x", "ext:", "  memconv:", "    carry: 'memconv-probe:9'", "    fields:", "      scope: global",
             "  other: x", "tags:", "  - a"]
    expected = {"id": "ms_x", "ext": {"memconv": {"carry": "memconv-probe:9", "fields": {"scope": "global"}},
                                      "other": "x"}, "tags": ["a"]}
    assert _fast_values(lines) == expected
    assert same(load_yaml("\n".join(lines)), expected)
    assert _fast_values(["a:", "  b:", "    c:"]) is None, "a key with nothing under it is YAML's business"


def test_the_new_shapes_are_taken():
    # Verified by breaking each branch once (folded joined with "\n"; item keys under the wrong mapping).
    lines = ["description: \"Paragraph one: the cache, and `make` \\\"checks\\\" it.\"", "reason: >-",
             "  replaced by a newer", "  claim", "probes:", "  - command: node --version", "    sha256: 4f7c",
             "  - command: ls", "tags:", "  - a"]
    expected = {"description": 'Paragraph one: the cache, and `make` "checks" it.',
                "reason": "replaced by a newer claim",
                "probes": [{"command": "node --version", "sha256": "4f7c"}, {"command": "ls"}], "tags": ["a"]}
    assert _fast_values(lines) == expected
    assert same(load_yaml("\n".join(lines)), expected)
