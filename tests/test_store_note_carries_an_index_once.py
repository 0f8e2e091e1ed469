"""A store note carries an index's text, and its model only where no dialect reads that text again.

The note of a Claude store's ``MEMORY.md`` held the index twice over besides its readable body: its
text, and its model (every link as JSON), which the way home never used while the text read again
(restore reads the text with the index's own dialect). At 20,000 entries that model was 4.3 MB of an
8 MB note, rendered whole at the run's end, where a conversion's memory peaks (docs/performance.md).
A note written before, with the model beside the text, comes home as it always did.
"""

from __future__ import annotations

import importlib
import json

from memconv import frontmatter

from .conftest import GOLDEN, run_json, tree

STORE = GOLDEN / "claude" / "mixed-project" / "input"


def _noted(root) -> dict:
    [note] = [p for p in root.rglob("store.md") if ".memconv" in p.parts]
    values, _ = frontmatter.split(note.read_text(encoding="utf-8"), str(note))
    return json.loads(values.values["memconv"])["store"]


def test_an_index_its_dialect_reads_again_is_noted_by_its_path_and_text(tmp_path):
    run_json("claude-to-memspec", str(STORE), str(tmp_path / "there"))
    store = _noted(tmp_path / "there")
    # Watched fail with forward._noted giving the index whole: its title and sections were in the note.
    assert [i["path"] for i in store["indexes"]] == ["MEMORY.md"]
    assert store["indexes"][0]["sections"] == [] and store["indexes"][0]["title"] is None
    assert store["raw"]["MEMORY.md"] == (STORE / "MEMORY.md").read_text(encoding="utf-8")
    run_json("memspec-to-claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert tree(tmp_path / "back") == tree(STORE)


def test_a_note_written_with_the_model_beside_the_text_comes_home_the_same(tmp_path, monkeypatch):
    forward = importlib.import_module("memconv.converters.forward")  # the module: the package's forward is a function
    monkeypatch.setattr(forward, "_noted", lambda index, dialect: index)  # as memconv wrote notes before
    run_json("claude-to-memspec", str(STORE), str(tmp_path / "there"))
    monkeypatch.undo()
    assert _noted(tmp_path / "there")["indexes"][0]["sections"], "the model is in the note"
    run_json("memspec-to-claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert tree(tmp_path / "back") == tree(STORE)

