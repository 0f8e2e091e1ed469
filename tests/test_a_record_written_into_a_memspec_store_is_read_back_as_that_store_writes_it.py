"""A record written into a memspec store home again is read back as that store's writer writes it.

A memspec store's facts (``config.yaml``'s operators, a store read at the ``.memspec`` folder itself) travel to
memoir and back, and its writer places and fills a record by them: a memoir memory added with ``source: ana``
(an operator the config names) is written ``source_kind: operator`` under ``memory/operator/facts/``, and one
of the bare store under ``memory/…``, not ``.memspec/memory/…``. The read-back wrote without those facts, so the
report named a file that was not written, and the carry remembered ``source_kind: agent``: the next conversion
home said memspec had edited ``source_kind`` and dropped it ("1 dropped"), with nothing edited. Decided
2026-12-07 (forty-fourth session; docs/conversion.md).
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import tree, write_files
from .test_report_schema import validate

_FACT = (b"---\nid: ms_01KN9E9020H7RQQBNT58TJ7XB1\nkind: claim\ntype: fact\nstate: active\n"
         b"created: '2026-04-04T10:30:00.000Z'\nsource: agent\nsource_kind: agent\ntags: []\ncheck_by: never\n---\n"
         b"# A fact\n\nBody.\n")
_ADDED = (b"---\ntype: fact\nname: Added in memoir\ndescription: A fact added in memoir.\nsource: ana\n"
          b"created: 2026-06-01\n---\n\nA fact added in memoir.\n")


def _home_again(runner, tmp_path, files: dict[str, bytes]) -> tuple[dict, dict]:
    """IN (memspec) to memoir, a memory added there, and home to memspec: the report, and OUT."""
    write_files(tmp_path / "in", files)
    result = runner.invoke(main, ["memspec-to-memoir", str(tmp_path / "in"), str(tmp_path / "memoir")])
    assert result.exit_code == 0, result.output
    write_files(tmp_path / "memoir", {"memory/fact_added-in-memoir.md": _ADDED})
    result = runner.invoke(main, ["memoir-to-memspec", "--json", str(tmp_path / "memoir"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return validate(result.stdout), tree(tmp_path / "back")


def _added(doc: dict) -> str:
    [target] = [f["target"] for f in doc["files"] if f["source"] == "memory/fact_added-in-memoir.md"]
    return target


def test_an_operator_the_config_names_is_written_and_reported_in_the_operator_tier(runner, tmp_path):
    doc, out = _home_again(runner, tmp_path, {".memspec/config.yaml": b"operators: [ana]\n",
                                              ".memspec/memory/facts/ms_01KN9E9020H7RQQBNT58TJ7XB1.md": _FACT})
    target = _added(doc)
    assert target.startswith(".memspec/memory/operator/facts/"), target
    assert b"\nsource_kind: operator\n" in out[target]


def test_nothing_edited_in_memspec_is_said_edited_or_dropped_on_the_way_back(runner, tmp_path):
    _home_again(runner, tmp_path, {".memspec/config.yaml": b"operators: [ana]\n",
                                   ".memspec/memory/facts/ms_01KN9E9020H7RQQBNT58TJ7XB1.md": _FACT})
    result = runner.invoke(main, ["memspec-to-memoir", "--json", str(tmp_path / "back"), str(tmp_path / "again")])
    assert result.exit_code == 0, result.output
    doc = validate(result.stdout)
    assert doc["counts"]["dropped"] == 0, doc["files"]
    assert not [w for w in doc["warnings"] if "edited in memspec" in w], doc["warnings"]
    assert tree(tmp_path / "again")["memory/fact_added-in-memoir.md"] == _ADDED


def test_a_bare_memspec_folder_reports_the_file_it_wrote(runner, tmp_path):
    doc, out = _home_again(runner, tmp_path, {"memory/facts/ms_01KN9E9020H7RQQBNT58TJ7XB1.md": _FACT,
                                              "archive/.gitkeep": b"", "observations/.gitkeep": b""})
    target = _added(doc)
    assert target in out, (target, sorted(out))
    assert target.startswith("memory/facts/"), target
