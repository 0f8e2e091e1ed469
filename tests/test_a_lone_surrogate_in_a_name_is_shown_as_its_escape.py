"""A name holding any lone surrogate is shown as its escape, in every message and in the JSON report alike.

JSON text can say a lone surrogate (``"\\ud800"``), and memoir-cli keeps one in ``session.json``: its keys
(``"team\\ud800"``, a machine's id) name a merge's records. ``fs.display`` wrote only what a byte of a file name
that is not UTF-8 gives (``\\udc80``–``\\udcff``, shown ``\\xff``) and raised ``UnicodeEncodeError`` on any
other, and ``merge``'s preview printed a record's place as it came: a merge of two ``session.json`` holding such a
key ended ``-v`` (and a conflict without it) with exit 70, "a bug in memconv", after OUT was written; with a
``\\udcff`` the preview held a raw ``0xff`` byte, not UTF-8. Now ``display`` writes any other lone surrogate as
``\\udXXX``, as ``Report.to_json`` spells it (one rule: ``fs.spelled``), and the preview (``merge``, ``convert
--into``) names a place with it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memconv.fs import display
from memconv.report import Report

from .conftest import GOLDEN

ROOT = Path(__file__).resolve().parents[1]

NAMES = {
    "a byte that is not UTF-8": ("bad\udcff", "bad\\xff"),
    "a high surrogate": ("x\ud800y", "x\\ud800y"),
    "the last low surrogate": ("x\udfff", "x\\udfff"),
    "a low surrogate no byte gives": ("x\udc7f", "x\\udc7f"),
    "a pair's halves, apart": ("\ud83d\ude00", "\\ud83d\\ude00"),
    "a control character beside one": ("a\n\ud800", "a\\x0a\\ud800"),
}


@pytest.mark.parametrize("name, shown", NAMES.values(), ids=list(NAMES))
def test_display_writes_every_lone_surrogate_as_its_escape(name, shown):
    # Watched fail before the fix: UnicodeEncodeError for every surrogate outside U+DC80–U+DCFF.
    assert display(name) == shown
    assert display(name).encode("utf-8")


@pytest.mark.parametrize("name, shown", NAMES.values(), ids=list(NAMES))
def test_the_json_report_spells_a_name_as_display_shows_it(name, shown):
    # One rule: a name read from the --json report is the name every message shows.
    if "\n" in name:
        pytest.skip("a control character is JSON's own escape in the report, a message's \\x0a")
    doc = json.loads(Report(command="convert", input=name).to_json().encode("utf-8"))
    assert doc["input"] == display(name) == shown


def _memoir(path: Path, team: str) -> Path:
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", path)
    text = (path / "session.json").read_text()
    # A key of memoir-cli's own kind: unknown to the spec, kept by its tools, holding a lone surrogate.
    (path / "session.json").write_text(text.replace('"version": 1,', f'"version": 1,\n  {team},', 1))
    return path


def _merge(tmp_path: Path, key: str, *flags: str, errors: str) -> subprocess.CompletedProcess[bytes]:
    a = _memoir(tmp_path / "a", f'"team{key}": "quokka"')
    b = _memoir(tmp_path / "b", f'"team{key}": "wombat"')
    env = dict(os.environ, PYTHONIOENCODING=f"utf-8:{errors}")
    return subprocess.run([sys.executable, "-m", "memconv", "merge", str(a), str(b), str(tmp_path / "out"), *flags],
                          capture_output=True, cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
@pytest.mark.parametrize("key, shown", [("\\ud800", "team\\ud800"), ("\\udcff", "team\\xff")])
@pytest.mark.parametrize("flags", [(), ("-v",), ("--json",)])
def test_a_merge_naming_a_key_with_a_lone_surrogate_prints_its_escape(tmp_path, key, shown, flags, errors):
    # Watched fail before the fix: exit 70 ("UnicodeEncodeError … surrogates not allowed") for \ud800, a raw 0xff
    # byte in the preview for \udcff.
    run = _merge(tmp_path, key, *flags, errors=errors)
    assert run.returncode == 6, run.stderr.decode("utf-8", "replace")  # the conflict, kept beside
    out, err = run.stdout.decode("utf-8"), run.stderr.decode("utf-8")  # strict UTF-8: a raw 0xff fails here
    if "--json" in flags:
        (record,) = [r for r in json.loads(out)["records"] if r["status"] == "conflict"]
        assert record["where"] == f"session.json {shown}"
        out = err
    assert f"conflict   session.json {shown}: " in out
    merged = json.loads((tmp_path / "out" / "session.json").read_bytes())
    assert merged["team" + json.loads('"' + key + '"')] in ("quokka", "wombat"), "the key itself is kept as it was"


def test_an_import_into_a_store_with_such_a_key_prints_its_escape(tmp_path):
    # --into previews the same outcomes: watched exit 70 before the fix (-v, a strict stdout).
    existing = _memoir(tmp_path / "existing", '"team\\ud800": "quokka"')
    store = _memoir(tmp_path / "in", '"team\\ud800": "wombat"')
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    run = subprocess.run([sys.executable, "-m", "memconv", "convert", "--to", "memoir", "--into", str(existing),
                          str(store), "-v"],
                         capture_output=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 6, run.stderr.decode("utf-8", "replace")  # the conflict, kept beside
    assert "conflict   session.json team\\ud800: " in run.stdout.decode("utf-8")
