"""A Mengram file whose ``memfmt_type`` is the quoted empty string ``""`` is still memfmt's once migrated.

memfmt reads ``memfmt_type: ""`` as no type and falls back to ``mengram_type``. The text copy of the
ladder's step dropped only a bare ``memfmt_type:`` line, so the renamed key landed beside the quoted
empty one and memfmt, reading the last of the two, saw no type at all: the entity vanished from memfmt.
"""

from __future__ import annotations

import memfmt
from click.testing import CliRunner

from memconv.cli import main
from memconv.dialects import memfmt as dialect
from memconv.dialects.memfmt import syntax
from memconv.migrations.memfmt import mengram_to_memfmt

TEXT = '---\nmengram_type: entity\nmemfmt_type: ""\nentity_type: person\n---\n\n# Ali\n\n- works at → [[Acme]]\n'
ACME = "---\nmengram_type: entity\nentity_type: org\n---\n\n# Acme\n"


def test_the_text_step_drops_a_quoted_empty_memfmt_type_as_the_mapping_step_does():
    before = syntax.split(TEXT)[0].values
    after = syntax.split(mengram_to_memfmt.step_text(TEXT))[0]
    assert after.values == mengram_to_memfmt.step(before) == {"memfmt_type": "entity", "entity_type": "person"}


def test_memfmt_still_reads_the_entity_after_migrate(tmp_path):
    root = tmp_path / "in" / "memory" / "entities"
    root.mkdir(parents=True)
    (root / "ali.md").write_text(TEXT, encoding="utf-8")
    (root / "acme.md").write_text(ACME, encoding="utf-8")
    assert sorted(e.name for e in memfmt.load(tmp_path / "in" / "memory").entities) == ["Acme", "Ali"]
    result = CliRunner().invoke(main, ["migrate", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    written = (tmp_path / "out" / "memory" / "entities" / "ali.md").read_text(encoding="utf-8")
    assert written == TEXT.replace('memfmt_type: ""\n', "").replace("mengram_type", "memfmt_type")
    assert sorted(e.name for e in memfmt.load(tmp_path / "out" / "memory").entities) == ["Acme", "Ali"]
    assert sorted(r.link for r in dialect.read(tmp_path / "out").records) == ["Acme", "Ali"]
