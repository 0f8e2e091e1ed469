"""A field edited natively in the target wins on the way back; its carried copy is dropped and reported."""

from __future__ import annotations

import re

import pytest

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import DIALECTS, convert_files, read_files

SRC = GOLDEN / "memoir" / "canonical" / "input"
LINK = "fact_staging-endpoints"
OLD = "Base URLs and auth mode for the staging environment"
NEW = "Staging URLs (edited by hand in the target)"


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_a_native_edit_wins_over_the_carried_copy(via):
    store = dialects.get("memoir").read(SRC)
    files, _ = convert_files(store, via)
    edited = {}
    hits = 0
    carried_description = False
    for path, data in files.items():
        if path.endswith(".md") and OLD.encode() in data and not path.startswith(("memconv/", ".memspec/memconv/")):
            carried_description = b'description\\"' in data or b"'description'" in data
            data = data.replace(OLD.encode(), NEW.encode())
            hits += 1
        edited[path] = data
    assert hits >= 1, f"the description is written natively in {via}"
    back_files, report = convert_files(read_files(edited, via), "memoir")
    text = back_files[f"memory/{LINK}.md"].decode()
    assert f"description: {NEW}\n" in text, "the edit made in the target reaches the way back"
    assert OLD not in text, "the carried copy of the edited field is dropped"
    said = "\n".join(report.warnings)
    reported = re.search(r"edited in " + via + r": [^\n]*description", said) is not None
    assert reported == carried_description, "the report names the dropped carried copy, and only then"
