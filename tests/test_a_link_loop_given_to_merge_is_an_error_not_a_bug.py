"""A symbolic link loop given to ``merge`` as A, B or OUT (or above OUT) is bad input, exit 4, never exit 70.

``merge`` compared OUT with A and B through ``Path.resolve()``, which raises ``RuntimeError`` on a loop (Python
before 3.13): "this is a bug in memconv" (exit 70) for a path every other command names (exit 4: "not a folder",
"a symbolic link to nothing", "too many symbolic links"). The overlap is now compared as ``convert`` and
``--into`` compare it, on ``os.path.realpath``, which never raises (docs/cli.md, Writing rules).
"""
import json
import os

import pytest

from memconv.cli import main

from .conftest import GOLDEN

STORE = str(GOLDEN / "claude" / "canonical" / "input")


@pytest.mark.parametrize("args", [
    ["{loop}", STORE, "{out}"],
    [STORE, "{loop}", "{out}"],
    [STORE, STORE, "{loop}"],
    [STORE, STORE, "{loop}/x/y"],
])
@pytest.mark.parametrize("mode", [[], ["--dry-run"], ["--force"], ["--from", "claude"]])
def test_a_link_loop_is_named_not_a_bug(runner, tmp_path, args, mode):
    loop = tmp_path / "loop"
    os.symlink("loop", loop)
    out = tmp_path / "out"
    given = ["merge", *mode, *(a.format(loop=loop, out=out) for a in args)]
    result = runner.invoke(main, given)
    # --dry-run asks about the folders above OUT too, as the run does (a loop above OUT is exit 4 for both:
    # tests/test_a_dry_run_refuses_an_out_below_what_is_not_a_folder_as_the_run_does.py)
    assert result.exit_code == 4, result.output
    assert "bug in memconv" not in result.output and "Traceback" not in result.output, result.output
    assert str(loop) in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"], "nothing is written, no temporary folder left"
    as_json = runner.invoke(main, [*given, "--json"])
    report = json.loads(as_json.stdout)
    assert as_json.exit_code == 4 and report["exit_code"] == 4, as_json.output
    assert report["error"]["kind"] != "bug", report["error"]


@pytest.mark.parametrize("flag", ["--check", "--diff"])
def test_a_link_loop_as_out_is_compared_not_a_bug(runner, tmp_path, flag):
    """--check and --diff write nothing: a loop as OUT is an OUT that holds nothing, as convert takes it."""
    loop = tmp_path / "loop"
    os.symlink("loop", loop)
    result = runner.invoke(main, ["merge", flag, STORE, STORE, str(loop)])
    converted = runner.invoke(main, ["claude-to-memoir", flag, STORE, str(loop)])
    assert result.exit_code == converted.exit_code != 70, (result.output, converted.output)
    assert "bug in memconv" not in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]
