"""A tag is shown where the target's user sees it as a tag, however short it is.

Whether a field's text was already shown in the target was a substring test over the shown text,
its label aside: a tag ``go`` was "there" in ``Ongoing``, ``db`` in ``dbx``, so memfmt's files never
said them, and a memspec decision's ``why: cost`` was "there" in ``costly``. Text is there now only
as whole words, and a tags line only as a tags line (a tag's word in prose is not shown as a tag).
The way home is unchanged: the carry brings the exact fields back.
"""

from __future__ import annotations

import re

import memfmt
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memconv.cli import main
from memconv.converters import readable

from .conftest import tree

LESSON = ("---\ntype: lesson\nname: Deploys\ndescription: Deploy lessons\ntrigger: before a deploy\n"
          "how_to_apply: check the ongoing jobs\ntags: [go]\n---\n\nOngoing work first.\n")
FACT = "---\ntype: fact\nname: Cluster\ndescription: The dbx cluster\ntags: [db]\n---\n\nIt said yes.\n"
PROSE = "---\ntype: fact\nname: Store\ndescription: Our store\ntags: [postgres]\n---\n\nWe use postgres.\n"
DECISION = ("---\ntype: decision\nname: Cache\ndescription: Use a cache\nwhy: cost\nrejected: none\n---\n\n"
            "The costly path is avoided.\n")
SHOWN = "---\ntype: fact\nname: Shown\ndescription: Said\ntags: [go]\n---\n\nGoing.\n\n**Tags:** go\n"
FILES = {"lesson_deploys.md": LESSON, "fact_cluster.md": FACT, "fact_store.md": PROSE,
         "decision_cache.md": DECISION, "fact_shown.md": SHOWN}


def _convert(tmp_path, target: str):
    src = tmp_path / "in" / "memory"
    src.mkdir(parents=True)
    for name, text in FILES.items():
        (src / name).write_text(text)
    result = CliRunner().invoke(main, ["convert", "--from", "memoir", "--to", target, str(tmp_path / "in"),
                                       str(tmp_path / target)])
    assert result.exit_code == 0, result.output
    return tmp_path / target


def test_memfmt_shows_a_tag_that_is_part_of_a_longer_word(tmp_path):
    # Watched fail before the fix: no **Tags:** line for go (in 'Ongoing'), db (in 'dbx') or postgres.
    store = memfmt.load(_convert(tmp_path, "memfmt") / "memory")
    facts = {e.name: e.facts for e in store.entities}
    [procedure] = store.procedures
    assert "**Tags:** go" in procedure.preconditions
    assert "**Tags:** db" in facts["Cluster"]
    assert "**Tags:** postgres" in facts["Store"]  # a word of the prose is not the tag shown as a tag
    assert [f for f in facts["Shown"] if "Tags" in f] == ["**Tags:** go"]  # a tags line there is not written twice


def test_memspec_shows_a_reason_that_is_part_of_a_longer_word(tmp_path):
    # Watched fail before the fix: the body said 'costly' only, and no **Why:** line.
    out = _convert(tmp_path, "memspec")
    [text] = [p.read_text() for p in (out / ".memspec" / "memory").rglob("*.md") if "# Cache" in p.read_text()]
    assert "\n**Why:** cost\n" in text


@pytest.mark.parametrize("target", ["memfmt", "memspec"])
def test_the_way_home_is_exact(tmp_path, target):
    out = _convert(tmp_path, target)
    result = CliRunner().invoke(main, ["convert", "--to", "memoir", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back = tree(tmp_path / "back")
    assert {n: back[f"memory/{n}"].decode() for n in FILES} == FILES


def test_the_short_tags_line_edited_in_memfmt_edits_the_tags(tmp_path):
    out = _convert(tmp_path, "memfmt")
    [entity] = [p for p in (out / "memory" / "entities").glob("*.md") if "Cluster" in p.name]
    entity.write_text(entity.read_text().replace("- **Tags:** db\n", "- **Tags:** db, pg\n"))
    result = CliRunner().invoke(main, ["convert", "--to", "memoir", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back = (tmp_path / "back" / "memory" / "fact_cluster.md").read_text()
    head, _, body = back.partition("\n---\n")
    assert "- pg" in head and "Tags" not in body and body.strip() == "It said yes."


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="ab_ .-é1", max_size=4), home=st.text(alphabet="ab_ .-é1\n", max_size=12))
def test_whole_words_are_found_as_the_word_boundaries_of_a_regex_say(text, home):
    """The scan that looks at the ends of each occurrence answers as ``\\w`` lookarounds would."""
    start = r"(?<!\w)" if re.match(r"\w", text[:1]) else ""
    end = r"(?!\w)" if re.match(r"\w", text[-1:]) else ""
    expected = bool(text) and re.search(start + re.escape(text) + end, home) is not None
    assert readable._within(text, home) == expected
