"""A wikilink to a heading or a block of a record (``[[fact_b#Setup]]``) follows the record's new name.

A conversion gives each record the name its target's users would write (``reference_b`` in Claude, ``B`` in
memfmt, a memspec id), and points every link at it. Before the fix a link to a part of a record was looked up
whole, ``fact_b#Setup``, found nowhere, and left pointing at a name no record had in the target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.markdown import rewrite_links

from .convert_helpers import convert_dir

A = ("---\ntype: fact\nname: A\ndescription: a\n---\n\n"
     "See [[fact_b|plain]], [[fact_b#Setup]], [[fact_b#Setup|setup]] and [[fact_b#^b1]].\n")
B = "---\ntype: fact\nname: B\ndescription: b\n---\n\n# Setup\n\nSteps. ^b1\n"


def test_a_link_to_a_part_of_a_record_is_renamed_and_keeps_its_part():
    body, said = rewrite_links("[[a#Setup]] [[a#Setup|s]] [[ a #x]] [[C#]] [[b#c]]", {"a": "A", "C#": "Cs", "C": "X"})
    assert body == "[[A#Setup]] [[A#Setup|s]] [[A#x]] [[Cs]] [[b#c]]"
    assert len(said) == 4  # a name holding a "#" is looked up whole first; an unknown name is left as written


@pytest.mark.parametrize("target", ["claude", "memfmt", "memspec"])
def test_links_to_a_heading_point_at_the_record_in_the_target_and_come_home(tmp_path: Path, target):
    # Watched fail before the fix: [[fact_b#Setup]] stayed as written in every target.
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_a.md").write_text(A)
    (tmp_path / "in" / "memory" / "fact_b.md").write_text(B)
    out = convert_dir(tmp_path / "in", target, tmp_path / "out")
    [text] = [p.read_text() for p in out.rglob("*.md") if "See [[" in p.read_text()]
    shown = text.split("\n---\n", 1)[-1]  # the file's text, not its carry
    assert "fact_b" not in shown
    assert shown.count("#Setup]]") == 1 and shown.count("#Setup|setup]]") == 1 and shown.count("#^b1]]") == 1
    back = convert_dir(out, "memoir", tmp_path / "back")
    assert (back / "memory" / "fact_a.md").read_text() == A
