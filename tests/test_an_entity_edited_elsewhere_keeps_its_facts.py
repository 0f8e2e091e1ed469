"""A memfmt entity edited where it is a fact-like record comes home with its facts, not the lines shown beside them.

memoir, claude and memspec show an entity's type as a ``**Entity type:**`` line and its relations under
``**Relations:**`` (``readable.show``). An entity's text comes home through its facts, one a paragraph
(``transforms.to_entity``): once any of them was edited there, the edit won, and every shown line came home as one
more fact (``- **Relations:**``, ``- - maintained by ← [[Ali]]``), and an edited type line stayed a fact while the
type stayed as it was. ``restore._unshow_facts`` takes them out as ``readable.unshow`` does for a body
(docs/conversion.md).
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN
from .convert_helpers import convert_files, read_files
from memconv import pipeline

ENTITY = "memory/entities/cloud-api.py.md"


def _source():
    return pipeline.read(GOLDEN / "memfmt" / "full" / "input", "memfmt")


def _there(target: str) -> tuple[dict[str, bytes], str]:
    files, _ = convert_files(_source(), target)
    path = next(p for p, b in files.items() if b"**Entity type:** file" in b and b"HTTP entry point" in b
                and ".memconv/" not in p)
    return files, path


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec"])
def test_a_paragraph_added_comes_home_as_one_fact(target):
    files, path = _there(target)
    text = files[path].decode()
    files[path] = text.replace("**Entity type:** file\n", "**Entity type:** file\n\nAlso serves /health.\n").encode()
    back, report = convert_files(read_files(files, target), "memfmt")
    home = back[ENTITY].decode()
    original = (GOLDEN / "memfmt" / "full" / "input" / ENTITY).read_text(encoding="utf-8")
    assert home == original.replace("- the HTTP entry point\n", "- the HTTP entry point\n- Also serves /health.\n")
    assert any("facts" in w and "edit wins" in w for w in report.warnings)


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec"])
def test_an_edited_type_line_is_the_entity_type(target):
    files, path = _there(target)
    files[path] = files[path].replace(b"**Entity type:** file", b"**Entity type:** module")
    back, report = convert_files(read_files(files, target), "memfmt")
    original = (GOLDEN / "memfmt" / "full" / "input" / ENTITY).read_text(encoding="utf-8")
    assert back[ENTITY].decode() == original.replace("entity_type: file", "entity_type: module")
    said = [w.split(f"edited in {target}: ")[1] for w in report.warnings if "edit wins" in w and path in w]
    assert said and said[0].startswith("category — "), "the type was edited, not the facts"
