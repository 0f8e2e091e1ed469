"""A memfmt profile edited in memspec comes home with its edit, and the report drops nothing.

The edit came home, yet the report said the body was dropped ("the edit is dropped"), and ``--fail-on-loss`` exited 5
and wrote nothing: the body restored from memspec's file ends with a line end, which memfmt's reader of a profile
takes off, and the comparison counted that line end as text lost.
"""
import json

from memconv.cli import main

from .conftest import GOLDEN

PROFILE = ".memspec/memory/facts/ms_0000000000340ENDP05143TW96.md"


def test_a_profile_edited_in_memspec_comes_home_and_drops_nothing(runner, tmp_path):
    away, home = tmp_path / "memspec", tmp_path / "home"
    result = runner.invoke(main, ["convert", "--from", "memfmt", "--to", "memspec", "-q",
                                  str(GOLDEN / "memfmt" / "full" / "input"), str(away)])
    assert result.exit_code == 0, result.output
    profile = away / PROFILE
    text = profile.read_text(encoding="utf-8")
    assert text.count("replies in English") == 1, "the profile's line, shown once"
    profile.write_text(text.replace("replies in English", "replies in French"), encoding="utf-8")
    result = runner.invoke(main, ["convert", "--from", "memspec", "--to", "memfmt", "--fail-on-loss", "--json",
                                  str(away), str(home)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [f["dropped"] for f in report["files"] if f["dropped"]] == []
    assert "replies in French" in (home / "memory" / "profile.md").read_text(encoding="utf-8")
