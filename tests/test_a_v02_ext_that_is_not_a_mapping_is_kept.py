"""A v0.2 record whose ``ext`` is not a mapping keeps that value when the ladder keeps a legacy one in ``ext``.

Before (forty-sixth session, found by a hunt): ``ext: [keep-me, and-me]`` beside a ``confidence`` came out of
``migrate`` as ``ext: {legacy_confidence: 0.8}``: the list was gone, exit 0, "0 dropped", and no line said so.
The step started a fresh mapping whenever ``ext`` was not one. memspec's schema wants ``ext`` to be a mapping,
so the value cannot stay where it was once the step writes into ``ext``: it is kept under ``ext.legacy_ext``
(beside the other ``ext.legacy_*`` values) and the report says so. A record the step writes nothing into ``ext``
for keeps its ``ext`` as written, as a current record does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv.cli import main
from memconv.frontmatter import load_yaml

from .conftest import write_files
from .test_a_v02_value_kept_under_ext_never_overwrites_one_there import ID, _climb


@pytest.mark.parametrize("ext", [["keep-me", "and-me"], "a note", 7])
@pytest.mark.parametrize("fields", [{"confidence": 0.8}, {"decay_after": "2030-01-01", "check_by": "2029-01-01"}])
def test_the_value_of_a_non_mapping_ext_is_kept_and_said(ext, fields):
    draft = _climb(**fields, ext=ext)
    assert draft.values["ext"]["legacy_ext"] == ext, "what ext held is not lost when a legacy value goes there"
    assert any("ext.legacy_ext" in line for line in draft.changes), draft.changes


def test_a_non_mapping_ext_the_step_writes_nothing_into_stays_as_written():
    draft = _climb(decay_after="2030-01-01", ext=["keep-me"])
    assert draft.values["ext"] == ["keep-me"], "nothing moved into ext, so ext is not reshaped"


def test_migrate_keeps_the_list_and_memspec_loads_the_record(tmp_path: Path, runner):
    path = f".memspec/memory/facts/{ID}.md"
    write_files(tmp_path / "in", {path: (
        f"---\nid: {ID}\ntype: fact\nstate: captured\nconfidence: 0.8\ncreated: 2026-01-10T09:00:00Z\n"
        "source: therin\ndecay_after: 2030-01-01T00:00:00Z\next: [keep-me, and-me]\n---\n\n# Something\n").encode()})
    result = runner.invoke(main, ["migrate", "-v", str(tmp_path / "in"), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    ext = load_yaml((tmp_path / "out" / path).read_text().split("---\n")[1])["ext"]
    assert ext == {"legacy_ext": ["keep-me", "and-me"], "legacy_confidence": 0.8}
    assert "ext.legacy_ext" in result.output
