"""An import record (``.memconv/imports.json``) holding text no file holds is not read.

JSON can say a lone surrogate (``\\ud800``), which no UTF-8 file holds. The record's bases were checked for their
JSON types only, so one holding such text, under another IN's key, was kept and written back when the import wrote
the record anew: encoding it failed, and the import stopped with exit 70, "a bug in memconv". Now the record is
checked by the rule a carry's and a note's text is checked by (``text.unwritable``): such a record is not one
memconv reads, a warning says so, the import compares dates only and writes the record anew (docs/merge.md).
"""
import json
import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN


@pytest.mark.parametrize("text", ['"x": {"in": "\\ud800"}', '"\\udfff": {"in": "a", "out": "a"}',
                                  '"x": {"in": "\\u0000"}'])
def test_an_import_record_with_unwritable_text_is_written_anew(runner, tmp_path, text):
    existing = tmp_path / "claude"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", existing)
    (existing / ".memconv").mkdir()
    record = existing / ".memconv" / "imports.json"
    record.write_text('{"memconv": {"imports": 1}, "from": {"memoir:elsewhere": {' + text + '}}}')
    result = runner.invoke(main, ["memoir-to-claude", str(GOLDEN / "memoir" / "canonical" / "input"),
                                  "--into", str(existing)])
    # Watched fail before the fix: exit 70, "UnicodeEncodeError: ... surrogates not allowed" (a NUL: read, no word).
    assert result.exit_code == 0, result.output
    assert "not an import record memconv reads" in result.output
    doc = json.loads(record.read_bytes().decode("utf-8"))
    assert "memoir:elsewhere" not in doc["from"]
