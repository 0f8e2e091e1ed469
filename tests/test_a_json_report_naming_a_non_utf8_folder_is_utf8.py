"""A ``--json`` report stays UTF-8 JSON when IN or OUT is a folder whose name is not UTF-8.

Python gives such a name to memconv with each undecodable byte as a lone surrogate (``\\udcff``).
The report printed it as it came: with a stdout that writes surrogates back as bytes (the C locale)
the JSON held a raw ``0xff`` byte, which no JSON parser reads; with a strict stdout the print
itself failed, a traceback and exit 1 after OUT was written. A name in the report is now written
as every other name memconv prints is (``fs.display``: ``bad\\xff``), the way ``refused`` already
names such a file inside IN (docs/cli.md, "Exit statuses").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from .conftest import GOLDEN

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads(resources.files("memconv").joinpath("schema/report.schema.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a name that is not UTF-8 needs a byte file system")


def _memconv(*args: bytes, errors: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING=f"utf-8:{errors}")
    return subprocess.run([sys.executable, "-m", "memconv", *args, b"--json", b"-q"], capture_output=True,
                          cwd=ROOT, env=env, timeout=120)


@pytest.fixture
def odd(tmp_path):
    folder = os.fsencode(tmp_path) + b"/bad\xff"
    os.mkdir(folder)
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", os.fsdecode(folder + b"/store"))
    return folder


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
@pytest.mark.parametrize("command", ["convert", "detect", "not-empty"])
def test_the_report_is_utf8_json_that_names_the_folder_escaped(odd, command, errors):
    store, out = odd + b"/store", odd + b"/out"
    if command == "convert":
        run, status = _memconv(b"memoir-to-memfmt", store, out, errors=errors), 0
    elif command == "detect":
        run, status = _memconv(b"detect", store, errors=errors), 0
    else:
        os.mkdir(out)
        open(out + b"/mine.txt", "wb").close()
        run, status = _memconv(b"memoir-to-memfmt", store, out, errors=errors), 4
    assert b"Traceback" not in run.stderr, run.stderr.decode("utf-8", "replace")
    doc = json.loads(run.stdout.decode("utf-8"))  # strict UTF-8: a raw 0xff byte fails here
    jsonschema.validate(doc, SCHEMA)
    assert run.returncode == doc["exit_code"] == status
    assert doc["input"] == os.fsdecode(store).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    assert doc["input"].endswith("/bad\\xff/store")
    if command != "detect":
        assert doc["output"].endswith("/bad\\xff/out")


def test_the_summary_names_the_folder_as_every_message_does(odd):
    # The summary on stderr showed Python's stand-in for the byte (bad\udcff), where every other message says bad\xff.
    store, out = odd + b"/store", odd + b"/out"
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    done = subprocess.run([sys.executable, "-m", "memconv", "convert", "--to", "memfmt", store, out],
                          capture_output=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    said = done.stderr.decode("utf-8")
    assert "bad\\xff/store" in said and "written: " in said and "bad\\xff/out" in said, said
    assert "\\udc" not in said, said
