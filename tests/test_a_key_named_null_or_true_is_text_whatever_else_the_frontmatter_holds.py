"""A frontmatter key written ``null:``, ``true:`` or ``False:`` is the text written, whatever else the block holds.

The no-YAML fast path reads such a key as its text (``"null"``), as memoir-cli and memspec (js-yaml, whose
object keys are text) do, and memconv's writers quote it (``"null": x``). A block the fast path declines (a
comment line, a flow list, a block scalar anywhere in it) went to PyYAML, which read the same key as None or
True: the file was quarantined, "frontmatter key None is not text", at line 2 whatever line the key was on,
while its twin without the comment converted. A number key (``1:``) is still refused (docs/limits.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main
from memconv.frontmatter import _fast_values, load_yaml

_HEAD = "name: {name}\ndescription: a memory\ntype: user\n"


@pytest.mark.parametrize("key", ["null", "true", "false", "True", "NULL", "False"])
@pytest.mark.parametrize("extra", ["", "# a comment between keys\n", "flow: [a, b]\n", "notes: |\n  two\n  lines\n"])
def test_the_key_is_its_text_on_either_path(key: str, extra: str) -> None:
    block = _HEAD.format(name="K") + extra + f"{key}: x\nmore:\n  {key}: y\n"
    values = load_yaml(block)
    assert values[key] == "x" and values["more"] == {key: "y"}
    fast = _fast_values(block.rstrip("\n").split("\n"))
    assert fast is None or fast == values


def test_merged_and_quoted_keys_are_text_too() -> None:
    values = load_yaml("base: &b {null: 1, 'true': 2}\nmore:\n  <<: *b\n  false: 3\n")
    assert values["more"] == {"null": 1, "true": 2, "false": 3}


def test_a_number_key_is_still_refused(tmp_path: Path) -> None:
    store = tmp_path / "in"
    store.mkdir()
    (store / "num.md").write_text("---\n" + _HEAD.format(name="N") + "1: x\n---\n\nbody\n")
    done = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "memoir", str(store), str(tmp_path / "o")])
    assert done.exit_code == 3, done.output
    assert "num.md" in done.output and "is not text" in done.output


@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_a_file_with_such_a_key_converts_and_comes_home_byte_for_byte(tmp_path: Path, target: str) -> None:
    store = tmp_path / "in"
    store.mkdir()
    plain = "---\n" + _HEAD.format(name="Plain") + "null: kept by hand\n---\n\nPlain body.\n"
    commented = ("---\n" + _HEAD.format(name="Commented") + "# set by hand\nnull: kept by hand\n"
                 "true: also\n---\n\nCommented body.\n")
    (store / "user_plain.md").write_text(plain)
    (store / "user_commented.md").write_text(commented)
    out, home = tmp_path / "out", tmp_path / "home"
    runner = CliRunner()
    there = runner.invoke(main, ["convert", "--from", "claude", "--to", target, str(store), str(out)])
    assert there.exit_code == 0, there.output
    assert "  quarantined " not in there.output and "2 converted" in there.output
    back = runner.invoke(main, ["convert", "--from", target, "--to", "claude", str(out), str(home)])
    assert back.exit_code == 0, back.output
    assert (home / "user_plain.md").read_text() == plain
    assert (home / "user_commented.md").read_text() == commented
