"""One slug for every name memconv makes from a title or a file stem (memconv.text.slug)."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, strategies as st

import memconv
from memconv.converters.mapping import name_part
from memconv.text import SLUG_LIMIT, UNTITLED, slug


def test_examples():
    assert slug("Staging API endpoints") == "staging-api-endpoints"
    assert slug("Café notes") == "cafe-notes"  # a Latin letter's accent goes
    assert slug("日本語のメモ") == "日本語のメモ"  # another script stays, and is not emptied to "untitled"
    assert slug("ガイド") == "ガイド"  # a kana's voicing mark is not an accent
    assert slug("ﬁle ＡＢＣ") == "file-abc"  # compatibility forms fold
    assert slug("No_Mocks!") == "no-mocks"
    assert slug("__") == UNTITLED
    assert slug("a" * 80) == "a" * SLUG_LIMIT


def test_a_stem_loses_its_type_word_first():
    assert name_part("feedback_No_Mocks") == "no-mocks"
    assert name_part("next_action-ship it") == "ship-it"
    assert name_part("fact") == "fact"  # a type word alone is the name


@given(st.text())
def test_slugging_a_slug_changes_nothing(text):
    once = slug(text)
    assert slug(once) == once
    assert 0 < len(once) <= SLUG_LIMIT
    assert not once.startswith("-") and not once.endswith("-")


def test_no_other_module_slugs_on_its_own():
    # The one rule's pieces, written out again anywhere else in memconv, are a second slug.
    # (memfmt's own file names follow memfmt's library, a rule of that format: syntax.file_stem.)
    package = Path(memconv.__file__).parent
    found = []
    for path in package.rglob("*.py"):
        if path.name == "text.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") in ("slug", "slugify", "stem_slug"):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert found == []


def test_a_name_in_another_script_is_a_file_memoir_validate_accepts(tmp_path):
    # The reason the slug keeps other scripts: the name says something, and memoir-cli takes it.
    import pytest

    from memconv.model import Record, Store

    from .convert_helpers import convert_files
    from .reference_tools import MEMOIR_CLI, MEMOIR_MISSING, memoir_validate

    store = Store(dialect="memfmt", records=[
        Record(kind="entity", link="日本語のメモ", title="日本語のメモ", facts=["東京のサーバー", "See [[Café notes]]"]),
        Record(kind="entity", link="Café notes", title="Café notes", facts=["Opens at eight"])])
    files, _ = convert_files(store, "memoir")
    entries = sorted(p for p in files if p.startswith("memory/"))
    assert entries == ["memory/fact_cafe-notes.md", "memory/fact_日本語のメモ.md"], entries
    assert "[[fact_cafe-notes]]" in files["memory/fact_日本語のメモ.md"].decode()
    if MEMOIR_CLI is None:
        pytest.skip(MEMOIR_MISSING)
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    verdict = memoir_validate(tmp_path)
    assert verdict.ok and verdict.checked >= 2, verdict.output
