"""Every script of ``benchmarks/`` imports: a rename inside memconv (``converters/layout.py`` became
``format_patch.py``) left ``benchmarks/formatting.py`` failing on its first import, with no test to say so.
Importing runs no benchmark (each script's work is behind ``if __name__ == "__main__"``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_script_imports(script):
    spec = importlib.util.spec_from_file_location(f"benchmarks_{script[:-3]}", BENCHMARKS / script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does: a dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    assert module.__doc__, f"benchmarks/{script} says what it measures in its docstring"
