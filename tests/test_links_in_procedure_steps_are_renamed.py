"""A ``[[link]]`` in a memfmt procedure's steps or preconditions names a memory memfmt has.

A Claude feedback or a memoir lesson becomes a memfmt procedure: its body's list items become
steps and its prose preconditions. The converter renamed links in the body, the facts and the
one-line fields, not in those parts, so ``see [[reference_wiki]]`` reached memfmt as a link to
nothing (the memory is ``Old wiki`` there). The memfmt library is the judge of what memfmt reads.
"""

from __future__ import annotations

import re

import memfmt
import pytest
from click.testing import CliRunner

from memconv import pipeline
from memconv.cli import main

from .conftest import GOLDEN, tree

LINK = re.compile(r"\[\[([^\]|#]+)")
STORES = [(d, p.name) for d in ("claude", "memoir") for p in sorted((GOLDEN / d).iterdir()) if (p / "input").is_dir()]


@pytest.mark.parametrize("dialect,name", STORES)
def test_every_link_of_a_procedure_names_a_memfmt_memory(tmp_path, dialect, name):
    # Watched fail without renaming steps and preconditions: [[reference_wiki]], [[feedback_testing]]…
    src = GOLDEN / dialect / name / "input"
    result = CliRunner().invoke(main, ["convert", "--from", dialect, "--to", "memfmt", str(src), str(tmp_path / "out")])
    assert result.exit_code in (0, 3), result.output
    old_links = {r.link for r in pipeline.read(src, dialect).records}
    store = memfmt.load(tmp_path / "out" / "memory")
    # An entity and a procedure are linked by name, an episode by its file's stem.
    names = {m.name for m in [*store.entities, *store.procedures]} \
        | {p.stem for p in (tmp_path / "out" / "memory" / "episodes").glob("*.md")}
    texts = [t for p in store.procedures for t in [*p.preconditions, *(s.action for s in p.steps),
                                                  *(s.detail or "" for s in p.steps)]]
    pointing = [link.strip() for text in texts for link in LINK.findall(text)]
    assert not [link for link in pointing if link in old_links and link not in names]


def test_a_renamed_step_link_comes_home_byte_for_byte(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "feedback_deploy.md").write_text("---\nname: Deploy safely\ndescription: How we deploy\ntype: feedback\n"
                                            "---\n\nDeploy only after [[project_pipeline]] is green.\n\n"
                                            "1. Read [[project_pipeline]] first\n2. Run the checks\n")
    (src / "project_pipeline.md").write_text("---\nname: The pipeline\ndescription: Our CI\ntype: project\n---\n\n"
                                             "It runs on every push.\n")
    runner = CliRunner()
    assert runner.invoke(main, ["claude-to-memfmt", str(src), str(tmp_path / "out")]).exit_code == 0
    [procedure] = memfmt.load(tmp_path / "out" / "memory").procedures
    assert procedure.steps[0].action == "Read [[The pipeline]] first"
    assert procedure.preconditions == ["Deploy only after [[The pipeline]] is green."]
    assert runner.invoke(main, ["memfmt-to-claude", str(tmp_path / "out"), str(tmp_path / "back")]).exit_code == 0
    back = tree(tmp_path / "back")
    assert {p: back.get(p) for p in tree(src)} == tree(src)
