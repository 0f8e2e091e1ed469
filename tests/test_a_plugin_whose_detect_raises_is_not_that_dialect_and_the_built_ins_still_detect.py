"""A dialect plugin whose ``detect`` raises (a ValueError, anything its code raises) is taken as "not this dialect",
with a warning naming the plugin, once: the built-ins still detect, and a store of one still converts
(docs/plugins.md, "The contract"). Before, ``dialects.survey`` called each ``detect`` unguarded, and one such plugin
made ``detect`` and ``convert`` of every store exit 70, "a bug in memconv". A built-in's ``detect`` raising is still
memconv's own bug, raised as it is."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from memconv import dialects

from . import plugin_kit
from .conftest import GOLDEN

SOURCE = """from memconv.model import Store
NAME = 'blows'
KIND_HOMES = {'fact': 'fact'}
LIFECYCLE_STATES = frozenset({'active'})
def detect(root, seen=None): raise ValueError('detect blew up')
def read(root): return Store(dialect='blows')
def read_file(path, raw, meta): return None
def write(store): return {}
"""
SRC = GOLDEN / "claude" / "mixed-project" / "input"


def _install(tmp_path):
    return plugin_kit.install_source(tmp_path / "site", "memconv_blows", SOURCE, {"blows": "memconv_blows"})


def test_the_built_ins_still_detect_and_the_plugin_is_said_once(tmp_path, monkeypatch):
    surveys, said = plugin_kit.warnings_with(monkeypatch, _install(tmp_path), "_detect_failed",
                                             lambda: [dialects.survey(SRC) for _ in range(2)])
    for survey in surveys:
        assert [d.dialect for d in survey.found][:1] == ["claude"]
        assert "blows" not in [d.dialect for d in survey.found]
    said = [m for m in said if "blows" in m]
    assert len(said) == 1 and "ValueError: detect blew up" in said[0] and "memconv_blows" in said[0], said


def test_a_detect_that_returns_no_detection_is_said_the_same_way(tmp_path, monkeypatch):
    # Before (forty-fourth session): a plugin's detect returning "yes" ended "AttributeError: 'str' object has no
    # attribute 'confidence'", exit 70, for every store.
    source = SOURCE.replace("raise ValueError('detect blew up')", "return 'yes'")  # (a module of its own name)
    site = plugin_kit.install_source(tmp_path / "site", "memconv_says_yes", source, {"blows": "memconv_says_yes"})
    survey, said = plugin_kit.warnings_with(monkeypatch, site, "_detect_failed", lambda: dialects.survey(SRC))
    assert [d.dialect for d in survey.found][:1] == ["claude"]
    said = [m for m in said if "blows" in m]
    assert len(said) == 1 and "detect returned str, not a Detection" in said[0], said


def test_a_built_in_s_detect_raising_is_still_memconv_s_bug(monkeypatch):
    claude = importlib.import_module(dialects.BUILTINS["claude"])

    def blows(root, seen=None):
        raise ValueError("a built-in blew up")
    monkeypatch.setattr(claude, "detect", blows)
    with pytest.raises(ValueError, match="a built-in blew up"):
        dialects.survey(SRC)


def test_the_cli_still_detects_and_converts(tmp_path):
    env = plugin_kit.environ(_install(tmp_path))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "memconv", *args], capture_output=True, text=True, env=env)

    found = run("detect", str(SRC))
    assert found.returncode == 0 and "claude" in found.stdout, found.stderr
    done = run("convert", "--to", "memoir", str(SRC), str(tmp_path / "m"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("ValueError: detect blew up") == 1, done.stderr
