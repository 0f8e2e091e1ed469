"""A file given where a store folder is asked is "not a folder", with one exit status, for every command.

``merge`` said click's "Directory 'f.md' is a file." (exit 2), ``convert`` and ``check`` "not a folder" (exit 4),
and the shorthands, ``migrate`` and ``upgrade`` "no such folder" (exit 4) of a path that is there.
"""
import json

import pytest

from memconv.cli import main

from .conftest import GOLDEN

STORE = str(GOLDEN / "memoir" / "canonical" / "input")


@pytest.mark.parametrize("args", [
    ["convert", "--to", "memfmt", "{f}", "{out}"],
    ["memoir-to-memfmt", "{f}", "{out}"],
    ["migrate", "--from", "memoir", "{f}", "{out}"],
    ["check", "{f}"],
    ["check", "--from", "claude", "{f}"],
    ["detect", "{f}"],
    ["upgrade", "{f}", "{out}"],
    ["merge", "{f}", STORE, "{out}"],
    ["merge", STORE, "{f}", "{out}"],
])
def test_a_file_is_not_a_folder(runner, tmp_path, args):
    f = tmp_path / "f.md"
    f.write_text("---\nname: x\ntype: fact\n---\nx\n")
    given = [a.format(f=f, out=tmp_path / "out") for a in args]
    result = runner.invoke(main, given)
    assert result.exit_code == 4, result.output
    assert f"{f}: not a folder" in result.output, result.output
    assert "no such folder" not in result.output and "is a file" not in result.output
    assert not (tmp_path / "out").exists()
    as_json = runner.invoke(main, [*given, "--json"])
    assert as_json.exit_code == 4 and json.loads(as_json.stdout)["exit_code"] == 4, as_json.output
