"""An edge to a heading or a block of a record (a memfmt relation line, ``- depends_on → [[Ops#Leads]]``) follows
the record's new name, as a body's link to one does (``tests/test_a_link_to_a_heading_is_renamed.py``).

A conversion points every link and every edge at the name the target gives a record. An edge's target was looked
up whole only, so ``Ops#Leads`` was found nowhere and kept the name of the store it was written in: a relation
added in memfmt came home to memoir naming ``Ship v1 of the importer#Scope``, which no memoir file is, and memspec
was written ``supports: [Ops#Leads]``, which no claim's id is.
"""

from __future__ import annotations

from pathlib import Path

from memconv.cli import main
from memconv.converters import rename_links
from memconv.markdown import rewrite_links
from memconv.model import Edge, Record

from .conftest import GOLDEN, changed_files

#: Targets as a relation line may name them: a record, a heading of it, a block of it, a name holding a ``#``,
#: a heading of a record no conversion renamed, a heading of no name.
TARGETS = ["Ops", "Ops#Leads", "Ops#^b1", " Ops #Leads", "C#", "Dev#Leads", "#Leads"]
RENAME = {"Ops": "fact_ops", "C#": "fact_c", "C": "fact_x"}


def test_an_edge_is_renamed_by_the_rule_a_body_link_is():
    record = Record(kind="fact", link="fact_ali", edges=[Edge("depends_on", t) for t in TARGETS])
    rename_links(record, RENAME)
    assert [e.target for e in record.edges] == ["fact_ops", "fact_ops#Leads", "fact_ops#^b1", "fact_ops#Leads",
                                                "fact_c", "Dev#Leads", "#Leads"]
    # One rule: each edge is named as a body's link to the same target is.
    assert [rewrite_links(f"[[{t}]]", RENAME)[0] for t in TARGETS] == [f"[[{e.target}]]" for e in record.edges]


def test_a_relation_to_a_heading_added_in_memfmt_comes_home_named_by_its_home_link(runner, tmp_path: Path):
    # A ## Relations line added with memfmt's syntax to an entity converted from a memoir fact, naming a heading
    # of another record by its memfmt name: home, it names the memoir link and keeps the heading.
    inp = GOLDEN / "memoir" / "canonical" / "input"
    assert runner.invoke(main, ["memoir-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    entity = tmp_path / "mf" / "memory" / "entities" / "Staging API endpoints.md"
    with entity.open("a", encoding="utf-8") as file:
        file.write("\n## Relations\n\n- depends_on → [[Ship v1 of the importer#Scope]]\n"
                   "- reviewed by ← [[Commit message style#^b1]]\n")
    result = runner.invoke(main, ["memfmt-to-memoir", str(tmp_path / "mf"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, changed = changed_files(tmp_path / "back", inp)
    assert changed == ["memory/fact_staging-endpoints.md"]
    assert back[changed[0]].decode().endswith(
        "\n\n**Relations:**\n\n- depends_on → [[goal_importer-v1#Scope]]\n"
        "- reviewed by ← [[preference_commit-style#^b1]]\n")


ALI = ("---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n- leads the night shift\n\n"
       "## Relations\n\n- supports → [[Ops#Leads]]\n- refines → [[Ops]]\n")
OPS = "---\nmemfmt_type: entity\nentity_type: team\n---\n\n# Ops\n\n## Facts\n\n- keeps the lights on\n"


def test_a_memfmt_relation_to_a_heading_names_the_claims_id_in_memspec_and_comes_home(runner, tmp_path: Path):
    inp = tmp_path / "in"
    (inp / "memory" / "entities").mkdir(parents=True)
    (inp / "memory" / "entities" / "Ali.md").write_text(ALI)
    (inp / "memory" / "entities" / "Ops.md").write_text(OPS)
    assert runner.invoke(main, ["memfmt-to-memspec", str(inp), str(tmp_path / "ms")]).exit_code == 0
    claims = {p.read_text().split("\n# ", 1)[1].split("\n", 1)[0]: p for p in (tmp_path / "ms").rglob("ms_*.md")}
    ali, ops = claims["Ali"].read_text(), claims["Ops"].stem
    assert f"\nrefines:\n  - {ops}\n" in ali
    assert f"\nsupports:\n  - {ops}#Leads\n" in ali  # before: Ops#Leads, memfmt's name
    assert runner.invoke(main, ["memspec-to-memfmt", str(tmp_path / "ms"), str(tmp_path / "back")]).exit_code == 0
    assert (tmp_path / "back" / "memory" / "entities" / "Ali.md").read_text() == ALI
