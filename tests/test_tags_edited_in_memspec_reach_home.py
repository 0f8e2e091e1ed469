"""A tag added or removed in memspec, on a record that came from memfmt or memoir, arrives home: the edit wins.

memfmt has no tags: a memfmt entity's tags shown in memspec were its frontmatter ``tags:`` (an
unknown key) or none. A tag added there came home to nothing: the report said "the edit wins" and
the tag was dropped (the memfmt writer does not write a record's tags, and the carried ``tags:`` key
was put back as it was). Now the edited list is the ``tags:`` key when the file had one, else a
``**Tags:**`` fact, as a memoir record's tags are shown in memfmt.
"""

from __future__ import annotations

import re
from pathlib import Path

import memfmt

from .convert_helpers import convert_dir

ENTITY = ("---\nmemfmt_type: entity\nentity_type: technology\nname: Postgres\n{tags}---\n\n# Postgres\n\n"
          "## Facts\n\n- We use Postgres 16\n")
PROCEDURE = ("---\nmemfmt_type: procedure\nversion: 1\nsuccess_count: 0\nfail_count: 0\n---\n\n"
             "# Release (v1 · untested)\n\n**When** — shipping\n\n## Steps\n\n1. Tag the commit\n")


def _edit_tags(store: Path, edit) -> None:
    """The claim's YAML ``tags:`` list, edited by hand: ``edit`` takes the list and returns the new one."""
    [claim] = (store / ".memspec" / "memory").rglob("ms_*.md")
    text = claim.read_text()
    m = re.search(r"^tags:(?: \[\])?\n((?:  - .*\n)*)", text, re.M)
    tags = [line[4:] for line in m.group(1).splitlines()]
    new = edit(tags)
    said = "tags:\n" + "".join(f"  - {t}\n" for t in new) if new else "tags: []\n"
    claim.write_text(text[:m.start()] + said + text[m.end():])


def _memfmt_there_and_back(tmp_path: Path, name: str, text: str, edit):
    (tmp_path / "mf" / "memory" / "entities").mkdir(parents=True)
    (tmp_path / "mf" / "memory" / name).write_text(text)
    ms = convert_dir(tmp_path / "mf", "memspec", tmp_path / "ms")
    _edit_tags(ms, edit)
    return convert_dir(ms, "memfmt", tmp_path / "back") / "memory"


def test_a_tag_added_in_memspec_reaches_a_memfmt_entity_as_a_tags_fact(tmp_path):
    # Watched fail before the fix: the entity came home with its one fact; the tag was dropped.
    back = _memfmt_there_and_back(tmp_path, "entities/Postgres.md", ENTITY.format(tags=""),
                                  lambda tags: tags + ["added"])
    [entity] = memfmt.load(back).entities
    assert entity.facts == ["We use Postgres 16", "**Tags:** added"]
    assert (back / "entities" / "Postgres.md").read_text() == ENTITY.format(tags="") + "- **Tags:** added\n"


def test_a_tag_added_in_memspec_reaches_the_tags_key_of_a_memfmt_file(tmp_path):
    # Watched fail before the fix: `tags:` came home as [db], the added tag dropped.
    back = _memfmt_there_and_back(tmp_path, "entities/Postgres.md", ENTITY.format(tags="tags:\n  - db\n"),
                                  lambda tags: tags + ["added"])
    assert (back / "entities" / "Postgres.md").read_text() == ENTITY.format(tags="tags:\n  - db\n  - added\n")


def test_a_tag_removed_in_memspec_leaves_the_tags_key_of_a_memfmt_file(tmp_path):
    back = _memfmt_there_and_back(tmp_path, "entities/Postgres.md",
                                  ENTITY.format(tags="tags:\n  - db\n  - sql\n"), lambda tags: ["sql"])
    assert (back / "entities" / "Postgres.md").read_text() == ENTITY.format(tags="tags:\n  - sql\n")
    (tmp_path / "back2").mkdir()
    back = _memfmt_there_and_back(tmp_path / "back2", "entities/Postgres.md",
                                  ENTITY.format(tags="tags:\n  - db\n"), lambda tags: [])
    assert (back / "entities" / "Postgres.md").read_text() == ENTITY.format(tags="")


def test_a_tag_added_in_memspec_reaches_a_memfmt_procedure(tmp_path):
    (tmp_path / "mf" / "memory" / "procedures").mkdir(parents=True)
    back = _memfmt_there_and_back(tmp_path, "procedures/Release.md", PROCEDURE, lambda tags: tags + ["added"])
    [procedure] = memfmt.load(back).procedures
    assert (procedure.name, procedure.preconditions) == ("Release", ["**Tags:** added"])


def test_a_tag_added_in_memspec_reaches_memoir(tmp_path):
    entry = "---\ntype: fact\nname: Deploy window\ndescription: When we may deploy\ntags: [deploy]\n---\n\nTuesdays.\n"
    (tmp_path / "mo" / "memory").mkdir(parents=True)
    (tmp_path / "mo" / "memory" / "fact_deploy.md").write_text(entry)
    ms = convert_dir(tmp_path / "mo", "memspec", tmp_path / "ms")
    _edit_tags(ms, lambda tags: tags + ["added"])
    back = convert_dir(ms, "memoir", tmp_path / "back")
    assert (back / "memory" / "fact_deploy.md").read_text() == entry.replace(
        "tags: [deploy]\n", "tags:\n  - deploy\n  - added\n")
