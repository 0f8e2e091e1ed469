"""For every golden store and every other dialect: the first labelled line memconv wrote there (``**Why:** …``,
``**Scope:** …``: a label the source's files do not hold), deleted whole, does not come back home, nor does its value:
home holds it once less than the source did (tests/test_a_deleted_labelled_line_empties_its_field.py has the rule's
cases).

So does the first block memconv wrote under a label of its own (tests/test_a_deleted_block_empties_its_field.py).

The same check ran as a fuzzer over random lines in the twenty-fourth session (it found a memfmt entity's type
line, whose facts read as unchanged without it); this keeps one line of each conversion in the suite.
"""

from __future__ import annotations

import re

import pytest

from memconv.cli import main

from .conftest import GOLDEN, tree

DIALECTS = ("memoir", "claude", "memspec", "memfmt")
LINE = re.compile(r"^\*\*([^*\n]+):\*\* (\S[^\n]*)\n", re.M)
CASES = [(src, store.name, tgt) for src in DIALECTS for store in sorted((GOLDEN / src).iterdir())
         if (store / "input").is_dir() for tgt in DIALECTS if tgt != src]


def _text(root) -> str:
    return "\n".join(data.decode("utf-8", "replace") for path, data in tree(root).items()
                     if ".memconv" not in path.split("/"))


BLOCK = re.compile(r"^\*\*([^*\n]+):\*\*\n\n((?:(?:- |\d+\. )[^\n]*\n)+)", re.M)


def _deleted(runner, tmp_path, src: str, store: str, tgt: str, shown: re.Pattern) -> tuple[str, str, int, str]:
    """The first match of ``shown`` memconv wrote in ``tgt`` (a label the source's files do not hold), deleted there,
    and the store home again: (its label, what it said, how often home unedited says that, home's text)."""
    there = tmp_path / tgt
    made = runner.invoke(main, [f"{src}-to-{tgt}", str(GOLDEN / src / store / "input"), str(there)])
    assert made.exit_code in (0, 3), made.stderr
    source = _text(GOLDEN / src / store / "input")
    hits = [(path, m) for path in sorted(there.rglob("*.md")) if ".memconv" not in path.relative_to(there).parts
            for m in shown.finditer(path.read_text(encoding="utf-8")) if f"**{m.group(1)}:**" not in source]
    if not hits:
        pytest.skip("memconv shows no such labelled text in this conversion")
    assert runner.invoke(main, [f"{tgt}-to-{src}", str(there), str(tmp_path / "as-was")]).exit_code in (0, 3)
    path, m = hits[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:m.start()] + text[m.end():], encoding="utf-8")
    back = runner.invoke(main, [f"{tgt}-to-{src}", str(there), str(tmp_path / "back")])
    assert back.exit_code in (0, 3), back.stderr
    home = _text(tmp_path / "back")
    label = m.group(1)
    assert f"**{label}:**" not in home, f"{path.name}: the deleted **{label}:** came back"
    # What it said (a block's first line, its relation's type): once less at home than home unedited says it (an old
    # memspec store comes home upgraded), unless the body still says it elsewhere, or show made it (a procedure's
    # steps joined on one line is in no file at home).
    said = re.sub(r"^(?:- |\d+\. )", "", m.group(2).strip().split("\n")[0]).split(" → ")[0].strip()
    elsewhere = said in (text[:m.start()] + text[m.end():]).partition("\n---\n")[2]
    return label, said, 0 if elsewhere else _text(tmp_path / "as-was").count(said), home


@pytest.mark.parametrize(("src", "store", "tgt"), CASES, ids=[f"{s}-{n}-to-{t}" for s, n, t in CASES])
def test_a_deleted_labelled_line_stays_deleted(runner, tmp_path, src, store, tgt):
    label, value, as_was, home = _deleted(runner, tmp_path, src, store, tgt, LINE)
    if as_was:
        assert home.count(value) < as_was, f"the value of the deleted **{label}:** line came back ({value!r})"


@pytest.mark.parametrize(("src", "store", "tgt"), CASES, ids=[f"{s}-{n}-to-{t}" for s, n, t in CASES])
def test_a_deleted_block_stays_deleted(runner, tmp_path, src, store, tgt):
    # The same for the first block memconv wrote under a label of its own (**Relations:**, **Preconditions:**…), but
    # where home requires it (a memoir lesson's how_to_apply, which a memspec procedure's **Steps:** say).
    label, first, as_was, home = _deleted(runner, tmp_path, src, store, tgt, BLOCK)
    if label != "Steps" and len(first) > 5 and as_was:
        assert home.count(first) < as_was, f"the deleted **{label}:** block came back ({first!r})"
