"""One name, one meaning (issue 13, item 5; the glossary is docs/glossary.md).

Read from the source (``ast``): what each module of ``memconv/converters/``
defines at its top. A public name defined by two of them would be two meanings
under one name (``carry.apply`` and the format patch's ``apply``, two
``encode``/``decode`` pairs, two ``Names``); the words retired from the
converters (a ``layout`` module, a dialect called ``origin``, a second
``convert``) must not come back.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import memconv

CONVERTERS = Path(memconv.__file__).parent / "converters"
GLOSSARY = Path(memconv.__file__).parent.parent / "docs" / "glossary.md"


def _defined(source: str) -> list[str]:
    """The names a module defines at its top: functions, classes, assigned constants."""
    names = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return names


def _sources() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(CONVERTERS.glob("*.py"))}


def _twice(sources: dict[str, str]) -> dict[str, list[str]]:
    where = defaultdict(list)
    for module, source in sources.items():
        for name in set(_defined(source)):
            if not name.startswith("_"):
                where[name].append(module)
    return {name: modules for name, modules in where.items() if len(modules) > 1}


def test_no_public_name_is_defined_by_two_converter_modules():
    assert _twice(_sources()) == {}


def test_the_check_sees_a_name_defined_twice():
    # As carry.apply and the format patch's apply were (seen failing before format_patch.apply became rebuild).
    sources = {**_sources(), "format_patch": _sources()["format_patch"] + "\n\ndef apply(canonical, patch):\n    pass\n"}
    assert _twice(sources) == {"apply": ["carry", "format_patch"]}


def test_retired_words_stay_retired_in_the_converters():
    sources = _sources()
    assert "layout" not in sources, "the format patch module is format_patch.py; a layout is a file's (Source.layout)"
    # A function called convert converts a store (converters.convert); a record's kind is changed by to_kind.
    assert [m for m, s in sources.items() if "convert" in _defined(s)] == ["__init__"]
    # The dialect a record belongs to is its owner; origin is the spec's field (model.Origin).
    # (Public names: forward.py's private _carries_origin is left for its owner to rename; docs/glossary.md.)
    named_origin = {m: [n for n in _defined(s) if "origin" in n.lower() and not n.startswith("_")]
                    for m, s in sources.items()}
    assert {m: n for m, n in named_origin.items() if n} == {}


def test_the_glossary_names_each_renamed_word():
    text = GLOSSARY.read_text(encoding="utf-8")
    for word in ("format_patch", "owner", "to_kind", "NOTICE_KINDS", "ConvertedFrom", "as_json", "NoteNames",
                 "readable.show", "rebuild"):
        assert word in text, word
