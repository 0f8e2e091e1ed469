"""Bounded work (issue 9, item 4): bombs, tags, depth and huge numbers are refused, never expanded."""

from __future__ import annotations

import shutil

import pytest

from memconv import limits
from memconv.converters.carry import Carry
from memconv.frontmatter import UnsafeYAML, load_yaml

from .hostile import RECORD_PATH, convert_everywhere, quarantined, record_file, store_with

#: Nine levels of nine aliases each: 9**9 (about 387 million) values once expanded.
BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
#: Six levels: 9**6 (about 530 000) values, small enough to expand should the guard be gone.
SMALL_BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n" for p, c in zip("abcde", "bcdef"))

YAML_DIALECTS = ["memoir", "claude", "memspec"]

ODD = {
    "alias bomb": (SMALL_BOMB, "alias bomb"),
    "python object tag": ("x: !!python/object/apply:os.system [ls]\n", "tag"),
    "binary tag": ("x: !!binary aGVsbG8=\n", "tag"),
    "set tag": ("x: !!set {a, b}\n", "tag"),
    "timestamp tag": ("x: !!timestamp 2026-01-01\n", "tag"),
    "custom tag": ("x: !mine value\n", "tag"),
    "deep nesting": ("x: " + "[" * 150 + "]" * 150 + "\n", "deeper than 100"),
    "deep block nesting": ("x:\n" + "".join("  " * (i + 1) + "a:\n" for i in range(150)), "deeper than 100"),
    "huge integer": ("n: " + "9" * 5000 + "\n", "digits"),
    "alias cycle": ("x: &c [*c]\n", None),
}


@pytest.mark.parametrize("dialect", YAML_DIALECTS)
@pytest.mark.parametrize("case", list(ODD))
def test_an_odd_frontmatter_is_quarantined_with_its_reason_and_the_rest_converts(dialect, case):
    extra, reason = ODD[case]
    root = store_with(dialect, {RECORD_PATH[dialect]: record_file(dialect, extra)})
    for target, report in convert_everywhere(root, dialect).items():
        q = quarantined(report)
        assert RECORD_PATH[dialect] in q, f"{case}: {dialect}→{target} quarantines the file"
        if reason:
            assert reason in q[RECORD_PATH[dialect]], q
        assert report.exit_code == 3
        assert len(report.files) > 1, "the rest of the store converts"


def test_a_bomb_is_measured_not_expanded():
    with pytest.raises(UnsafeYAML, match="alias bomb"):
        load_yaml(BOMB)


def test_aliases_within_bounds_still_read():
    assert load_yaml("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}
    assert load_yaml("base: &b {k: 1}\nmine:\n  <<: *b\n  j: 2\n") == {"base": {"k": 1}, "mine": {"k": 1, "j": 2}}


def test_too_many_aliases_are_refused_even_when_small():
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * 1001) + "]\n"
    with pytest.raises(UnsafeYAML, match="aliases"):
        load_yaml(text)


def test_the_limits_are_configurable_in_one_place():
    text = "x: " + "[" * 6 + "]" * 6
    assert load_yaml(text) == {"x": [[[[[[]]]]]]}
    token = limits.set_limits(max_depth=5)
    try:
        with pytest.raises(UnsafeYAML, match="deeper than 5"):
            load_yaml(text)
        with pytest.raises(limits.TooDeep):
            limits.load_json(text[3:])
    finally:
        limits.reset_limits(token)
    assert limits.limits().max_depth == 100


def test_a_long_integer_on_the_fast_path_goes_to_the_bounded_reader():
    assert load_yaml("n: " + "9" * 30) == {"n": int("9" * 30)}
    with pytest.raises(UnsafeYAML, match="digits"):
        load_yaml("n: " + "9" * 4001)


@pytest.mark.parametrize("doc,problem", [
    ('{"version":1,"x":' + "[" * 5000 + "]" * 5000 + "}", "deeper than 100"),
    ('{"version":1,"x":' + "9" * 5000 + "}", "digits"),
])
def test_an_odd_session_json_is_quarantined_not_a_traceback(doc, problem):
    root = store_with("memoir", {"session.json": doc})
    for report in convert_everywhere(root, "memoir").values():
        assert problem in quarantined(report)["session.json"]


@pytest.mark.parametrize("doc", [
    '{"version":1,"current":{"goals":[{"text":"half an emoji \\ud83d"}]}}',
    '{"version":1,"current":{"goals":[{"text":"a \\u0000 NUL"}]}}',
    '{"version":1,"\\udfff":1}',
])
def test_a_session_json_saying_text_no_file_holds_is_quarantined_in_another_dialect(doc):
    """JSON can say a lone surrogate or a NUL (``\\ud83d``, ``\\u0000``), which memoir-cli keeps and memoir's
    writer writes back as the escape; carried into another dialect it ended the run with exit 4 ("a bug in
    memconv"), and the note holding it was refused on the way back without a word."""
    root = store_with("memoir", {"session.json": doc})
    for target, report in convert_everywhere(root, "memoir").items():
        if target == "memoir":
            assert "session.json" not in quarantined(report)
        else:
            assert "lone surrogate or a NUL" in quarantined(report)["session.json"], target


def test_memoirs_writer_writes_a_lone_surrogate_as_its_escape():
    from memconv.dialects.memoir.session import read_session, write_session
    from memconv.model import WorkingSet

    data = write_session(WorkingSet(document={"version": 1, "current": {"goals": [{"text": "x \ud800 y"}]}}))
    assert b'"x \\ud800 y"' in data
    assert read_session(data)[0].document["current"]["goals"][0]["text"] == "x \ud800 y"


def test_a_session_json_with_text_no_file_holds_is_quarantined_with_its_line(tmp_path):
    from memconv.cli import main
    from click.testing import CliRunner

    root = store_with("memoir", {"session.json": '{\n  "version": 1,\n  "current": {"goals": [{"text": "x \\ud800"}]}\n}'})
    try:
        result = CliRunner().invoke(main, ["memoir-to-claude", str(root), str(tmp_path / "out"), "--json"])
        assert result.exit_code == 3, result.output
        assert '"line": 3' in result.output
        assert (tmp_path / "out" / ".memconv" / "quarantine" / "session.json").read_bytes() == \
            (root / "session.json").read_bytes()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_json_depth_skips_brackets_inside_strings():
    assert limits.json_depth('{"a": "[[[[[[[[", "b": [1, {"c": "\\"]]]"}]}') == 3
    limits.load_json('{"a": "' + "[" * 500 + '"}')


@pytest.mark.parametrize("text", [
    '{"v":1,"from":"memoir","fields":' + "[" * 3000 + "]" * 3000 + "}",
    '{"v":1,"from":"memoir","fields":{"fired_count":' + "9" * 6000 + "}}",
])
def test_a_deep_or_huge_carry_is_a_value_error_not_a_crash(text):
    with pytest.raises(ValueError):
        Carry.loads(text)


def test_json_past_what_the_reader_follows_is_too_deep_not_a_recursion_error():
    # Watched fail before the fix: RecursionError (the run exited 4, "please report it").
    token = limits.set_limits(max_depth=1_000_000)
    try:
        with pytest.raises(limits.TooDeep):
            limits.load_json("[" * 100_000 + "]" * 100_000)
    finally:
        limits.reset_limits(token)


def test_max_depth_is_bounded_where_every_step_can_follow(tmp_path):
    from click.testing import CliRunner

    from memconv.cli import main

    src = tmp_path / "in"
    (src / "memory").mkdir(parents=True)
    nested = "[" * (limits.DEEPEST - 1) + "]" * (limits.DEEPEST - 1)  # in a mapping: DEEPEST levels in all
    # A few levels less in a frontmatter: a carry holds the key that much deeper (memfmt's: refused at home, said).
    deep = "[" * (limits.DEEPEST - 5) + "]" * (limits.DEEPEST - 5)
    (src / "memory" / "fact_y.md").write_text(f"---\ntype: fact\nname: Y\ndescription: y\nzz: {deep}\n---\n\nB.\n")
    (src / "session.json").write_text('{"goals": [], "x": ' + nested + "}\n")
    runner = CliRunner()
    # Watched fail with the bound at 10,000: 400 deep in session.json stopped the run with exit 4.
    too_deep = runner.invoke(main, ["memoir-to-claude", "--max-depth", str(limits.DEEPEST + 1), str(src),
                                    str(tmp_path / "never")])
    assert too_deep.exit_code == 2 and not (tmp_path / "never").exists()
    for target in ("claude", "memfmt", "memspec"):
        out = tmp_path / target
        result = runner.invoke(main, [f"memoir-to-{target}", "--max-depth", str(limits.DEEPEST), str(src), str(out)])
        assert result.exit_code in (0, 3) and "please report" not in result.output, result.output
        home = runner.invoke(main, [f"{target}-to-memoir", "--max-depth", str(limits.DEEPEST), str(out),
                                    str(tmp_path / f"{target}-home")])
        assert home.exit_code in (0, 3), home.output
        assert (tmp_path / f"{target}-home" / "memory" / "fact_y.md").read_text() == \
            (src / "memory" / "fact_y.md").read_text()
