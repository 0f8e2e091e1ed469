"""A dialect plugin's own code that raises once it is chosen (its ``read``, ``read_records``/``read_file`` in the
read-back, ``write``/``iter_write``, a step of its migration ladder) is said as the plugin's failure: its name, its
module and the exception, "report it to the plugin's author", exit 4 (docs/plugins.md, "The contract"; docs/cli.md's
exit table). Before, it ended "this is a bug in memconv, please report it", exit 70, sending the user to the wrong
author. OUT is left absent, IN as it was, and ``--json`` gives the error in the report's schema. A built-in's code
raising is still memconv's own bug, exit 70."""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
import types

import pytest
from click.testing import CliRunner

from memconv import dialects
from memconv.cli import main

from . import plugin_kit
from .conftest import GOLDEN

SRC = GOLDEN / "claude" / "mixed-project" / "input"

#: Appended to the toy jsonl plugin's module: one of its members made to raise, in its own code.
BREAKS = {
    "read": "def read(root):\n    raise ValueError('read blew up')\n",
    "read_records": "def read_records(path, raw, meta):\n    raise ValueError('read_records blew up')\n",
    "write": "del iter_write\ndef write(store):\n    raise KeyError('write blew up')\n",
    "iter_write": "_iter_write = iter_write\n"
                  "def iter_write(store, render=None):\n"
                  "    for i, pair in enumerate(_iter_write(store, render)):\n"
                  "        yield pair\n"
                  "    raise IndexError('iter_write blew up')\n",
    "ladder": "from memconv.migrations import Ladder\n"
              "def _step(doc):\n    raise ValueError('ladder step blew up')\n"
              "LADDERS = (Ladder('jsonl file', (1, 2), {1: _step}, {1: 'one to two'}),)\n"
              "_read = read\n"
              "def read(root):\n    LADDERS[0].climb({}, 1)\n    return _read(root)\n",
}


def _install(tmp_path, member: str):
    site = plugin_kit.install(tmp_path / "site")
    with open(site / "memconv_jsonl" / "__init__.py", "a") as module:
        module.write("\n" + BREAKS[member])
    return site


def _tree(root) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _jsonl_store(tmp_path):
    """A jsonl store, written by the toy itself (before it is broken)."""
    site = plugin_kit.install(tmp_path / "good")
    out = tmp_path / "store"
    done = subprocess.run([sys.executable, "-m", "memconv", "convert", "--to", "jsonl", str(SRC), str(out)],
                          capture_output=True, text=True, env=plugin_kit.environ(site))
    assert done.returncode in (0, 3), done.stderr
    return out


CASES = [("read", "from"), ("ladder", "from"), ("write", "to"), ("iter_write", "to"), ("read_records", "to")]


@pytest.mark.parametrize("member,way", CASES)
def test_the_plugin_is_named_and_the_exit_is_not_a_bug(tmp_path, member, way):
    src = _jsonl_store(tmp_path) if way == "from" else SRC
    site = _install(tmp_path, member)
    target = "memoir" if way == "from" else "jsonl"
    before = _tree(src)
    out = tmp_path / "out"
    for as_json in (False, True):
        args = ["convert", *(["--json"] if as_json else []), "--to", target, str(src), str(out)]
        done = subprocess.run([sys.executable, "-m", "memconv", *args], capture_output=True, text=True,
                              env=plugin_kit.environ(site))
        assert done.returncode == 4, (done.returncode, done.stderr)
        assert "bug in memconv" not in done.stderr + done.stdout and "Traceback" not in done.stderr
        said = done.stderr
        if as_json:
            error = json.loads(done.stdout)["error"]
            assert error["kind"] == "error" and json.loads(done.stdout)["exit_status"] == "error", error
            said = error["message"] + " " + (error["hint"] or "")
        assert "blew up" in said and "jsonl" in said and "memconv_jsonl" in said, said
        assert "plugin's author" in said, said
        assert not out.exists(), sorted(out.rglob("*"))
        assert _tree(src) == before


def test_a_built_in_s_code_raising_is_still_memconv_s_bug(tmp_path, monkeypatch):
    # A plugin is installed, and the built-in's code raises (a function whose frame is the memoir reader's own).
    plugin_kit.activate(monkeypatch, plugin_kit.install(tmp_path / "site"))
    memoir = importlib.import_module(dialects.BUILTINS["memoir"])
    code = compile("def read_bytes(*a, **k):\n    raise KeyError('a built-in blew up')\n", memoir.__file__, "exec")
    monkeypatch.setattr(memoir, "read_bytes", types.FunctionType(code.co_consts[0], vars(memoir)))
    out = tmp_path / "out"
    source = GOLDEN / "memoir" / "canonical" / "input"
    done = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", "memspec", str(source), str(out)])
    assert done.exit_code == 70, done.output
    assert "bug in memconv" in done.stderr and "a built-in blew up" in done.stderr, done.stderr
    assert not out.exists()
