"""The converter names no dialect: no string constant in ``memconv/converters/`` names one.

What differs between dialects is what each dialect declares in its own module
(``docs/plugins.md``, "What a dialect declares for the mapping"); the converter
reads those declarations. So a string constant of code (not a docstring: those
may name a dialect as an example) that is, or contains as a word, the name of a
registered dialect is a rule about that dialect written in the wrong place.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import memconv.converters
from memconv import dialects

CONVERTERS = Path(memconv.converters.__file__).parent
def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants of ``tree``: the first statement of a module, class or function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def naming_dialects(source: str, names: list[str], where: str = "<source>") -> list[str]:
    """Every string constant of ``source``, docstrings aside, that names one of ``names`` as a word."""
    word = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9_])")
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [f"{where}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and word.search(node.value)]


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in sorted(CONVERTERS.glob("*.py"))])
def test_no_string_in_the_converters_names_a_dialect(path):
    found = naming_dialects(path.read_text(encoding="utf-8"), dialects.available(), str(path.relative_to(CONVERTERS)))
    assert found == [], "what differs between dialects is what each declares (docs/plugins.md):\n" + "\n".join(found)


def test_the_check_sees_a_dialect_named_in_code_and_not_in_a_docstring():
    # The check itself must be able to fail: each way a name can be written in code, once.
    names = ["memoir", "claude", "memspec", "memfmt"]
    source = '''"""A module that names memoir in its docstring: allowed."""
def f(target):
    """And claude here: allowed."""
    if target == "memfmt":
        return {"memspec": ".memspec/"}
    return f"{target} is not memoir"
X = "memspec_id, memoirs and claudes are other words"
'''
    found = naming_dialects(source, names)
    assert sorted(line.split(":")[1] for line in found) == ["4", "5", "5", "6"], found
