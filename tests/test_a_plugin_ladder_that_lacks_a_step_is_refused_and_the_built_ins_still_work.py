"""A dialect plugin whose migration ladder (``LADDERS``) lacks a step, a step's line, or versions is refused by the
contract check (``protocol.problems``: what the ladder lacks, for its author), with the documented RuntimeWarning
(docs/plugins.md, "The contract"): ``memconv dialects`` lists the built-ins and exits 0. Before, ``_fits`` checked only
that each entry was a ``Ladder``, and ``memconv dialects`` ended in exit 70, "a bug in memconv: KeyError: 0"."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from memconv import dialects
from memconv.dialects import protocol
from memconv.errors import StoreError
from memconv.migrations import Ladder
from memconv.model import Store

from . import plugin_kit

BUILTINS = ["memoir", "claude", "memspec", "memfmt"]
SOURCE = """from memconv.migrations import Ladder
from memconv.model import Store
NAME = 'laddered'
KIND_HOMES = {'fact': 'fact'}
LIFECYCLE_STATES = frozenset({'active'})
def detect(root, seen=None): return None
def read(root): return Store(dialect='laddered')
def read_file(path, raw, meta): return None
def write(store): return {}
LADDERS = (Ladder(subject='jsonl line', versions=(0, 1), steps={0: lambda d: d}, describe={}),)
"""


def _module(ladder: Ladder) -> types.ModuleType:
    module = types.ModuleType("fake_dialect")
    for key, value in dict(NAME="fake", KIND_HOMES={"fact": "fact"}, LIFECYCLE_STATES=frozenset({"active"}),
                           detect=lambda root, seen=None: None, read=lambda root: Store(dialect="fake"),
                           read_file=lambda path, raw, meta: None, write=lambda store: {},
                           LADDERS=(ladder,)).items():
        setattr(module, key, value)
    return module


def _step(d):
    return d


@pytest.mark.parametrize("ladder, said", [
    (Ladder("jsonl line", (0, 1), {0: _step}, {}), "its ladder 'jsonl line' has no describe for version 0"),
    (Ladder("jsonl line", (0, 1), {}, {0: "stamped"}), "its ladder 'jsonl line' has no step for version 0"),
    (Ladder("jsonl line", (), {}, {}), "its ladder 'jsonl line' has no versions"),
    (Ladder("jsonl line", (0, 0, 1), {0: _step}, {0: "x"}), "its ladder 'jsonl line' names a version twice"),
    (Ladder("jsonl line", (1, 0), {1: _step}, {1: "x"}), "its ladder 'jsonl line' versions must be increasing"),
    (Ladder("jsonl line", (0, 1), {0: "step"}, {0: "x"}), "its ladder 'jsonl line' step for version 0 is not a "
                                                          "function"),
    (Ladder("jsonl line", (0, 1), {0: _step}, {0: 3}), "its ladder 'jsonl line' describe for version 0 is not a str"),
    (Ladder("jsonl line", ([0], 1), {}, {}), "its ladder 'jsonl line' versions must be hashable"),
])
def test_the_check_says_what_a_ladder_lacks(ladder, said):
    found = protocol.problems(_module(ladder), "fake")
    assert any(said in p for p in found), found


@pytest.mark.parametrize("ladder", [
    Ladder("one version", (1,), {}, {}),
    Ladder("words", ("v0.2", "v0.4", "current"), {"v0.2": _step, "v0.4": _step}, {"v0.2": "a", "v0.4": "b"}),
    Ladder("numbers", (0, 1), {0: _step}, {0: "stamped"}),
])
def test_a_whole_ladder_keeps_the_contract(ladder):
    assert protocol.problems(_module(ladder), "fake") == []


def _install(tmp_path):
    return plugin_kit.install_source(tmp_path / "site", "memconv_laddered", SOURCE, {"laddered": "memconv_laddered"})


def test_the_plugin_is_refused_with_a_warning(tmp_path, monkeypatch):
    listed, said = plugin_kit.warnings_with(monkeypatch, _install(tmp_path), "_warned", dialects.available)
    assert listed == BUILTINS
    assert any("laddered" in m and "no describe for version 0" in m for m in said), said
    with pytest.raises(StoreError, match="does not keep memconv's dialect contract"):
        dialects.get("laddered")


def test_memconv_dialects_lists_the_built_ins(tmp_path):
    env = plugin_kit.environ(_install(tmp_path))
    done = subprocess.run([sys.executable, "-m", "memconv", "dialects", "--json"], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert [d["name"] for d in json.loads(done.stdout)["dialects"]] == BUILTINS
    assert "laddered" in done.stderr and "no describe for version 0" in done.stderr, done.stderr
