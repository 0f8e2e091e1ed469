"""A frontmatter key that is not text (``1: x``) is named at the line that writes it, with what to do.

Before (forty-fifth session, found by a hunt): the quarantine said ``file.md:2: frontmatter key 1 is not text``
wherever the key was: a person sent to line 2 of a long frontmatter found nothing there.
"""
import json

import pytest

from memconv.cli import main
from memconv.errors import ReadError
from memconv.frontmatter import split

TEXT = "---\nname: n\ndescription: d\ntype: user\nextra: 1\n{key}: numeric key\n---\n\nBody.\n"


@pytest.mark.parametrize("key", ["1", "2.5", "12"])
def test_the_error_names_the_keys_line(key):
    with pytest.raises(ReadError) as caught:
        split(TEXT.format(key=key), "user_x.md")
    assert caught.value.line == 6
    assert f"'{key}'" in caught.value.hint


def test_a_key_written_otherwise_falls_back_to_the_first_line():
    from memconv.frontmatter import _key_line

    assert _key_line(["name: n", "1.0e+3: x"], 1000.0) == 2  # written otherwise than Python prints it
    assert _key_line(["name: n", "10: x", "1: y"], 1) == 4  # (not the line of a key it begins)


def test_the_quarantine_names_the_line(runner, tmp_path):
    store = tmp_path / "in"
    store.mkdir()
    (store / "user_x.md").write_text(TEXT.format(key="1"), encoding="utf-8")
    result = runner.invoke(main, ["convert", "--from", "claude", "--to", "memoir", str(store), str(tmp_path / "out"),
                                  "--json"])
    report = json.loads(result.stdout[result.stdout.index("{"):])
    [entry] = report["quarantined"]
    assert entry["line"] == 6 and "not text" in entry["reason"]
