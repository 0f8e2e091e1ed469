"""Records with dates or sources memspec's schema refuses are written so that memspec loads them.

Found by loading memconv's memspec output with memspec's own loader: a memoir fact created
9999-12-31 crashed the conversion (``year 10000 is out of range``, exit 70); one created 0001-01-01
got ``check_by: '1-04-01T00:00:00.000Z'``; ``created: yesterday`` was copied as it stood, and
``source: ""`` too. memspec skipped each such record ("Must be a valid ISO 8601 date", "Too small").
Now the review date past year 9999 is ``never``, years have four digits, a ``created`` that is not a
date gives way to the record's first date that is one (else the store's), and an empty source is
memconv's import source; the original text rides in the carry and comes home byte for byte.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree
from .reference_tools import memspec_load, needs_memspec

ENTRIES = {
    "memory/fact_far-future.md": "---\ntype: fact\nname: Far future\ndescription: d\ncreated: 9999-12-31\n---\n\nBody.\n",
    "memory/decision_late.md": "---\ntype: decision\nname: Late decision\ndescription: d\ndate: 9999-10-01\n---\n\nB.\n",
    "memory/fact_year-one.md": "---\ntype: fact\nname: Year one\ndescription: d\ncreated: 0001-01-01\n---\n\nBody.\n",
    "memory/fact_vague.md": "---\ntype: fact\nname: Vague\ndescription: d\ncreated: yesterday\nupdated: 2026-05-04\n---\n\nB.\n",
    "memory/fact_no-month.md": "---\ntype: fact\nname: No month\ndescription: d\ncreated: 2026-13-01\n---\n\nB.\n",
    "memory/fact_empty-source.md": "---\ntype: fact\nname: Empty source\ndescription: d\nsource: \"\"\n---\n\nB.\n",
}


@pytest.fixture
def converted(tmp_path):
    for path, text in ENTRIES.items():
        (tmp_path / "in" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / path).write_text(text)
    result = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", "memspec",
                                       str(tmp_path / "in"), str(tmp_path / "out")])
    # Verified with iso() as it was: exit 70, "year 10000 is out of range".
    assert result.exit_code == 0, result.output
    return tmp_path


@needs_memspec
def test_memspec_loads_every_record(converted):
    # Verified with the old rules one at a time: memspec skipped the year-one record (check_by), the
    # vague and no-month ones (created), and the empty-source one ("source: Too small").
    load = memspec_load(converted / "out")
    assert load.problems == []
    assert sorted(i["title"] for i in load.items) == sorted(
        ["Far future", "Late decision", "Year one", "Vague", "No month", "Empty source"])
    by_title = {i["title"]: i for i in load.items}
    assert by_title["Year one"]["check_by"].startswith("0001-04-01T")
    assert by_title["Vague"]["created"].startswith("2026-05-04")


def test_every_entry_comes_home_byte_for_byte(converted):
    back = CliRunner().invoke(main, ["convert", "--to", "memoir", str(converted / "out"), str(converted / "back")])
    assert back.exit_code == 0, back.output
    home = tree(converted / "back")
    assert {p: home.get(p) for p in ENTRIES} == {p: t.encode() for p, t in ENTRIES.items()}
