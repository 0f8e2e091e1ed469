"""An upgrade warns once, as it does of a body link, of a ``superseded_by`` that names no memory in the folder, and
keeps it as written; an edge that names one, in any form a rename follows, is not warned of, before the upgrade or
after it.

Before (forty-second session, noticed): a body link to nothing was warned of, an edge to nothing was not, so a
decision said it was replaced by something that does not exist, silently.
"""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from click.testing import CliRunner

from memconv import upgrade as upgrading
from memconv.cli import main
from memconv.report import Report, kind_of

from .claude_support import frontmatter, write

TARGET = b"---\ntype: decision\nname: Use SQLite\ndescription: new\nwhy: simple\n---\nBody.\n"
SCHEMA = json.loads(resources.files("memconv").joinpath("schema/report.schema.json").read_text(encoding="utf-8"))


def _old(written: str) -> bytes:
    return (f"---\ntype: decision\nname: Old\ndescription: old\nwhy: x\nsuperseded_by: {written}\n---\n"
            "Body.\n").encode()


def _warnings(report: Report) -> list[str]:
    return [w for f in report.files for w in f.warnings]


def test_an_edge_to_nothing_is_warned_of_once_and_kept_as_written(tmp_path):
    write({"db-choice.md": TARGET, "old-db.md": _old("nothing-here")}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    files = upgrading.plan(tmp_path / "in", report).files
    assert frontmatter(files["memory/decision_old-db.md"])["superseded_by"] == "nothing-here"
    warnings = _warnings(report)
    assert warnings == ["superseded_by links to nothing-here, which names no entry in the store (left as written)"]
    assert kind_of(warnings[0]).name == "link-to-nothing"
    # Upgraded again, the edge still names nothing: still said, once.
    again = write({k.removeprefix("memory/"): v for k, v in files.items()}, tmp_path / "again")
    report = Report(command="upgrade", input="again")
    assert upgrading.plan(again, report).files == files
    assert _warnings(report) == warnings


@pytest.mark.parametrize("written", ["db-choice", "db-choice#Why", "db-choice.md", "./db-choice.md",
                                     "db-choice.md#Why", "decision_db-choice"])
def test_an_edge_that_names_a_memory_is_not_warned_of_before_or_after(tmp_path, written):
    write({"db-choice.md": TARGET, "old-db.md": _old(written)}, tmp_path / "in")
    report = Report(command="upgrade", input="in")
    files = upgrading.plan(tmp_path / "in", report).files
    assert _warnings(report) == []
    again = write({k.removeprefix("memory/"): v for k, v in files.items()}, tmp_path / "again")
    report = Report(command="upgrade", input="again")
    upgrading.plan(again, report)
    assert _warnings(report) == []


def test_the_json_report_names_its_kind_and_validates(tmp_path):
    write({"db-choice.md": TARGET, "old-db.md": _old("nothing-here")}, tmp_path / "in")
    result = CliRunner().invoke(main, ["upgrade", "--json", "-q", str(tmp_path / "in"), str(tmp_path / "out")])
    doc = json.loads(result.stdout)
    assert not list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc))
    notices = [n for n in doc["notices"] if "superseded_by" in n["message"]]
    assert [(n["kind"], n["path"]) for n in notices] == [("link-to-nothing", "old-db.md")]
