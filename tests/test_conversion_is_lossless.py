"""Converting to any other dialect and back gives the store back: bytes for canonical stores, meaning for any."""

from __future__ import annotations

import itertools

import pytest

from memconv import dialects

from .conftest import GOLDEN, tree
from .convert_helpers import CANONICAL, DIALECTS, golden_inputs, hop, model

PAIRS = [(d, n, b) for d, n in golden_inputs() for b in DIALECTS if b != d]


@pytest.mark.parametrize("dialect, name, via", [(d, n, b) for d, n in CANONICAL for b in DIALECTS if b != d])
def test_canonical_store_comes_back_byte_for_byte(dialect, name, via):
    src = GOLDEN / dialect / name / "input"
    store = dialects.get(dialect).read(src)
    there, _ = hop(store, via)
    _, files = hop(there, dialect)
    assert files == tree(src), f"{dialect}→{via}→{dialect} gives back every file, byte for byte"


@pytest.mark.parametrize("dialect, name, via", PAIRS)
def test_any_store_comes_back_with_the_same_meaning(dialect, name, via):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    there, _ = hop(store, via)
    back, _ = hop(there, dialect)
    assert model(back) == model(store), f"{dialect}→{via}→{dialect} keeps every record and the working set"


CHAINS = [(d, n, b, c) for d, n in golden_inputs() for b, c in itertools.permutations(DIALECTS, 2)
          if d not in (b, c)]


@pytest.mark.parametrize("dialect, name, b, c", CHAINS)
def test_chains_come_back_too(dialect, name, b, c):
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    s = store
    for step in (b, c, dialect):
        s, _ = hop(s, step)
    assert model(s) == model(store), f"{dialect}→{b}→{c}→{dialect} keeps every record and the working set"
