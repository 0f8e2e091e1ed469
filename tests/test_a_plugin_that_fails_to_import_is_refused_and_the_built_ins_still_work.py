"""A dialect plugin whose module fails to import (a dependency missing, an error in its code) is refused, with
a warning naming it and why, like a plugin that breaks the contract (docs/plugins.md, "Registration"): the
built-ins still detect and convert, ``memconv dialects`` lists them, and ``--to`` the plugin is an error saying
why (exit 4), never "a bug in memconv" (exit 70)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

from memconv import dialects
from memconv.errors import StoreError

from . import plugin_kit
from .conftest import GOLDEN

BUILTINS = ["memoir", "claude", "memspec", "memfmt"]
FAILS = {"dependency": "import memconv_no_such_dependency_xyz\n",
         "error": "raise RuntimeError('the plugin is broken')\n"}


def _install(tmp_path, how):
    return plugin_kit.install_source(tmp_path / "site", "memconv_fails_to_import", FAILS[how],
                                     {"fails": "memconv_fails_to_import"})


@pytest.mark.parametrize("how", sorted(FAILS))
def test_the_plugin_is_left_out_with_a_warning_and_asked_for_is_an_error(tmp_path, monkeypatch, how):
    plugin_kit.activate(monkeypatch, _install(tmp_path, how))
    monkeypatch.setattr(dialects, "_warned", set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert dialects.available() == BUILTINS
        assert dialects.survey(GOLDEN / "claude" / "mixed-project" / "input").found[0].dialect == "claude"
    said = [str(w.message) for w in seen]
    assert any("fails" in m and "memconv_fails_to_import" in m and "could not be imported" in m for m in said), said
    with pytest.raises(StoreError, match="could not be imported"):
        dialects.get("fails")


@pytest.mark.parametrize("how", sorted(FAILS))
def test_the_cli_still_converts_between_built_ins(tmp_path, how):
    env = plugin_kit.environ(_install(tmp_path, how))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "memconv", *args], capture_output=True, text=True, env=env)

    src = str(GOLDEN / "claude" / "mixed-project" / "input")
    listed = run("dialects")
    assert listed.returncode == 0 and "memfmt" in listed.stdout and "fails" in listed.stderr, listed.stderr
    assert run("detect", src).returncode == 0
    done = run("convert", "--to", "memoir", src, str(tmp_path / "m"))
    assert done.returncode == 0, done.stderr
    refused = run("convert", "--to", "fails", src, str(tmp_path / "f"))
    assert refused.returncode == 4 and "could not be imported" in refused.stderr, refused.stderr
    assert not (tmp_path / "f").exists()
