"""A symbolic link loop where OUT is, or above it, is called a loop, and a dangling link "a symbolic link to nothing".

Before (forty-third session, noticed): both were "a symbolic link to nothing", which is untrue of a loop and sends the
user looking for a missing target that is there. The one guard of OUT (``fs.check_out``, through ``fs.destination``
for OUT itself and ``fs._in_the_way`` for the folders above it) now tells them apart; the status stays 4.
"""
import os

import pytest

from memconv.cli import main

from .conftest import GOLDEN

MEMOIR = str(GOLDEN / "memoir" / "canonical" / "input")


def _world(tmp_path):
    os.symlink("nowhere", tmp_path / "dangling")
    os.symlink("loop", tmp_path / "loop")
    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")


@pytest.mark.parametrize("flags", [[], ["--dry-run"], ["--force"]])
@pytest.mark.parametrize("out, words", [
    ("loop", "a symbolic link loop"), ("loop/x/y", "a symbolic link loop"), ("a/x", "a symbolic link loop"),
    ("dangling", "a symbolic link to nothing"), ("dangling/x", "a symbolic link to nothing"),
])
def test_the_words_say_which(runner, tmp_path, out, words, flags):
    _world(tmp_path)
    result = runner.invoke(main, ["memoir-to-memfmt", MEMOIR, str(tmp_path / out), *flags])
    assert result.exit_code == 4, result.output
    wrong = {"a symbolic link loop", "a symbolic link to nothing"} - {words}
    assert words in result.stderr and not any(w in result.stderr for w in wrong), result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "dangling", "loop"]
