"""A path given where a store folder is asked is named for what it is, by one rule (``fs.no_folder``), whatever
the command: "not a folder" for a file, "a symbolic link loop", "a symbolic link to nothing", "no such folder"
only where nothing is there.

``--into`` had a rule of its own and said "no such folder" of a file that is there, of a link loop and of a link
to nothing; every other command said "not a folder" of both links, which sends the user looking for a file where
there is a link to mend.
"""
import os

import pytest

from memconv.cli import main

from .conftest import GOLDEN

STORE = str(GOLDEN / "memoir" / "canonical" / "input")


def _make(tmp_path, what):
    path = tmp_path / "given"
    if what == "a file":
        path.write_text("x\n")
    elif what == "a link to nothing":
        os.symlink(tmp_path / "nowhere", path)
    elif what == "a link loop":
        os.symlink(tmp_path / "other", path)
        os.symlink(path, tmp_path / "other")
    return path


SAID = {"a file": "not a folder", "a link to nothing": "a symbolic link to nothing",
        "a link loop": "a symbolic link loop", "nothing": "no such folder"}


@pytest.mark.parametrize("what", list(SAID))
@pytest.mark.parametrize("args, status", [
    (["memoir-to-claude", STORE, "--into", "{p}"], 2),
    (["check", "{p}"], 4),
    (["memoir-to-memfmt", "{p}", "{out}"], 4),
    (["merge", "{p}", STORE, "{out}"], 4),
])
def test_a_path_that_is_no_folder_is_named_for_what_it_is(runner, tmp_path, what, args, status):
    path = _make(tmp_path, what)
    result = runner.invoke(main, [a.format(p=path, out=tmp_path / "out") for a in args])
    assert result.exit_code == status, result.output
    assert f"{path}: {SAID[what]}" in result.output, "the message names what is at the path: " + result.output
    assert not (tmp_path / "out").exists()
