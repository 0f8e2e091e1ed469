"""An import record (``.memconv/imports.json``) is read only at the version memconv writes.

Its version was not looked at: ``"imports": true`` (which Python takes for 1), ``2`` (a newer memconv's) or none at all
were read as this memconv's record, and a newer one's bases half-understood. Now a record of no version memconv knows
is not read, with a warning, and the import compares dates only, as without a record; one of a newer version stops
the import (exit 4) before anything is written, since writing it anew would lose what the newer memconv kept.
"""
import json
import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN


STORE = GOLDEN / "memoir" / "canonical" / "input"


def _imported_once(runner, tmp_path, version):
    """EXISTING after one import, its import record then given ``version`` (None: no version): the record's path
    and what it holds."""
    existing = tmp_path / "memfmt"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", existing)
    assert runner.invoke(main, ["memoir-to-memfmt", str(STORE), "--into", str(existing)]).exit_code == 0
    record = existing / ".memconv" / "imports.json"
    doc = json.loads(record.read_text())
    assert doc["memconv"]["imports"] == 1
    if version is None:
        del doc["memconv"]["imports"]
    else:
        doc["memconv"]["imports"] = version
    record.write_text(json.dumps(doc))
    return existing, record, doc


@pytest.mark.parametrize("version, said", [(1, None), (True, "not an import record memconv reads"),
                                           (3.5, "not an import record memconv reads"),
                                           ("1", "not an import record memconv reads"),
                                           (None, "not an import record memconv reads")])
def test_an_import_record_is_read_at_its_own_version_only(runner, tmp_path, version, said):
    existing, record, _ = _imported_once(runner, tmp_path, version)
    result = runner.invoke(main, ["memoir-to-memfmt", str(STORE), "--into", str(existing)])
    assert result.exit_code == 0, result.output
    if said is None:
        assert "import record" not in result.output, result.output
    else:
        assert said in result.output and "compares dates only" in result.output, result.output
        assert json.loads(record.read_text())["memconv"]["imports"] == 1, "written anew, at this version"


def test_an_import_record_of_a_newer_memconv_stops_the_import(runner, tmp_path):
    existing, record, doc = _imported_once(runner, tmp_path, 2)
    result = runner.invoke(main, ["memoir-to-memfmt", str(STORE), "--into", str(existing)])
    assert result.exit_code == 4, result.output
    assert "written by a newer memconv (version 2)" in result.output
    assert json.loads(record.read_text()) == doc, "nothing written"
