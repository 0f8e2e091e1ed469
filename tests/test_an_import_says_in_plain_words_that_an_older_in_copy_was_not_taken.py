"""`--into` says, in plain words, that IN's copy of a record was not taken where EXISTING's is newer or edited since.

An import whose IN copy of a memory differs from EXISTING's, and loses to it (EXISTING's is newer by the dates, or
was edited since the last import of IN while IN's was not), leaves EXISTING's file as it is. It was reported
`unchanged … EXISTING already holds it (newer …)`, which reads as if IN's edit were there, and, `unchanged` being
counted rather than listed, said nothing without -v. The record's line says IN's copy was not taken and why, and
an edit of IN that was not taken is a notice of its own kind, `in-copy-not-taken` (docs/merge.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from memconv import report
from memconv.cli import main

SCHEMA = json.loads((Path(report.__file__).parent / "schema" / "report.schema.json").read_text())
ENTRY = ("---\nname: Role\ndescription: the user's role\ntype: user\nupdated: {date}\n---\n\n{text}\n")


def _claude(root: Path, date: str, text: str) -> None:
    root.mkdir(exist_ok=True)
    (root / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — the user's role\n")
    (root / "user_role.md").write_text(ENTRY.format(date=date, text=text))


def _import(runner, src: Path, existing: Path, *more: str):
    return runner.invoke(main, ["convert", "--from", "claude", "--to", "memoir", *more, str(src),
                                "--into", str(existing)])


def _convert(runner, src: Path, out: Path):
    return runner.invoke(main, ["convert", "--from", "claude", "--to", "memoir", str(src), str(out)])


def _role(existing: Path) -> str:
    return (existing / "memory" / "preference_role.md").read_text()


def _line(doc: dict) -> dict:
    [line] = [r for r in doc["records"] if r["where"] == "memory/preference_role.md"]
    return line


def _setup(runner, tmp_path: Path) -> tuple[Path, Path]:
    src, existing = tmp_path / "in", tmp_path / "existing"
    _claude(src, "2026-01-01", "Data engineer.")
    assert _convert(runner, src, existing).exit_code == 0
    assert _import(runner, src, existing).exit_code == 0  # the first import: the base
    text = _role(existing).replace("2026-01-01", "2026-03-01").replace("Data engineer.", "Staff data engineer.")
    (existing / "memory" / "preference_role.md").write_text(text)
    return src, existing


def test_an_older_edit_of_in_is_said_not_taken(runner, tmp_path):
    src, existing = _setup(runner, tmp_path)
    _claude(src, "2026-02-01", "Data engineer at Acme.")  # edited in IN too, earlier than EXISTING's edit
    done = _import(runner, src, existing, "--json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert "Staff data engineer." in _role(existing)  # EXISTING's newer copy stays
    line = _line(doc)
    assert line["status"] == "unchanged" and line["won"] is None
    assert "already holds" not in line["why"]
    assert line["why"].startswith("IN's copy not taken") and "newer" in line["why"], line["why"]
    [notice] = [n for n in doc["notices"] if n["kind"] == "in-copy-not-taken"]
    assert notice["path"] == "memory/preference_role.md"
    assert "not taken" in notice["message"] and "2026-03-01" in notice["message"]
    shown = _import(runner, src, existing)  # without -v: the notice is shown, the record line is not
    assert "IN's copy" in shown.output and "not taken" in shown.output, shown.output


def test_an_unedited_in_copy_against_an_edit_of_existing_says_so_with_no_notice(runner, tmp_path):
    src, existing = _setup(runner, tmp_path)
    done = _import(runner, src, existing, "--json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    jsonschema.validate(doc, SCHEMA)
    line = _line(doc)
    assert line["status"] == "unchanged"
    assert line["why"].startswith("IN's copy not taken") and "changed in EXISTING" in line["why"], line["why"]
    assert not [n for n in doc["notices"] if n["kind"] == "in-copy-not-taken"]  # IN brought nothing new


def test_a_copy_that_says_the_same_is_still_already_held(runner, tmp_path):
    src, existing = tmp_path / "in", tmp_path / "existing"
    _claude(src, "2026-01-01", "Data engineer.")
    assert _convert(runner, src, existing).exit_code == 0
    done = _import(runner, src, existing, "--json")
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert _line(doc)["status"] == "unchanged"
    assert not [n for n in doc["notices"] if n["kind"] == "in-copy-not-taken"]
