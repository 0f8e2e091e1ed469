"""A store note's folder facts name only a folder the store's own reader gives; another is ignored, and said.

A store converted into another dialect keeps its own facts in a store note, among them where its records live:
memfmt's ``root`` (``memory``, or ``""`` for a store read at its folder's root) and memspec's ``prefix``
(``.memspec/`` or ``""``). The note is IN, and may be crafted. A folder outside the store was already refused;
one inside it was followed as written: memfmt's whole store written under ``.memconv/``, memconv's own folder,
and memspec's kept folders (``archive/``, ``observations/``) beside records that ignore the prefix.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import GOLDEN
from .convert_helpers import convert_dir


def _home(out: Path, home: str, back: Path) -> list[str]:
    """``memconv convert --to home out back --json``, which must succeed: its warnings."""
    result = CliRunner().invoke(main, ["convert", "--to", home, "--json", str(out), str(back)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["warnings"]


def _tamper(note: Path, key: str, value: str) -> None:
    text = note.read_text()
    line = re.search(r"^memconv: (\".*\")$", text, re.M)
    carry = json.loads(json.loads(line.group(1)))
    carry["store"]["meta"][key] = value
    note.write_text(text[:line.start()] + "memconv: " + json.dumps(json.dumps(carry)) + text[line.end():])


@pytest.mark.parametrize(("home", "store", "key", "value", "written"), [
    ("memfmt", "full", "root", ".memconv", ".memconv/MEMORY.md"),
    ("memfmt", "full", "root", "notes", "notes/MEMORY.md"),
    ("memspec", "newer-scope-probes", "prefix", "x", "xarchive/.gitkeep"),
    ("memspec", "newer-scope-probes", "prefix", "memory/", "memory/archive/.gitkeep"),
])
def test_a_crafted_folder_fact_is_ignored_and_said(tmp_path, home, store, key, value, written):
    # Watched fail before the fix: memfmt's store came home under .memconv/ (or notes/), memspec's kept folders
    # as xarchive/ and memory/archive/, and no warning said so.
    shutil.copytree(GOLDEN / home / store / "input", tmp_path / "in")
    out = convert_dir(tmp_path / "in", "claude", tmp_path / "claude")
    _tamper(out / ".memconv" / "notes" / "store.markdown", key, value)
    back = tmp_path / "back"
    warnings = _home(out, home, back)
    assert any(f"{key}={value!r}" in w and "ignored" in w for w in warnings), warnings
    assert not (back / written).exists()
    if home == "memfmt":  # as a note without the fact: the folder its writer assumes (memspec's: "Left alone")
        expected = convert_dir(tmp_path / "in", home, tmp_path / "expected")
        assert _files(back) == _files(expected)


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and ".memconv" not in p.relative_to(root).parts[:1])


@pytest.mark.parametrize(("home", "store"), [("memfmt", "full"), ("memspec", "newer-scope-probes")])
def test_a_folder_fact_the_reader_gives_still_comes_home(tmp_path, home, store):
    shutil.copytree(GOLDEN / home / store / "input", tmp_path / "in")
    out = convert_dir(tmp_path / "in", "claude", tmp_path / "claude")
    warnings = _home(out, home, tmp_path / "back")
    assert not any("ignored" in w for w in warnings), warnings
