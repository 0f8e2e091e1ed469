"""The formats' own tools judge every golden output: ``memoir validate``, memspec's loader, ``memfmt validate``.

Two sets of outputs are judged:

- every golden conversion of ``golden/<dialect>/<store>/input/`` into each other dialect
  (``tests/golden.py``; ``test_golden_outputs.py`` pins these files to their snapshots):
  the target's tool must report **zero** errors. memoir-cli also reads Claude
  memory folders (the legacy dialect of its format), so it judges claude
  outputs too;
- every golden input written back in its own dialect (``memconv migrate``):
  memconv may keep a problem the user wrote, but must add none — the tool's
  complaints about the output are a subset of its complaints about the input.

Needs node and the built tools (``.ci/run`` builds them); skips, saying so, without.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from memconv import pipeline
from memconv.report import Report

from . import golden
from .conftest import GOLDEN, write_files
from .convert_helpers import DIALECTS, golden_inputs
from .memfmt_oracle import validate as memfmt_validate
from .reference_tools import memoir_validate, memspec_load, needs_memoir, needs_memspec

def _conversions(target: str) -> list:
    """One case per golden store converted into ``target``; the test gets the folder from ``_out``."""
    cases = []
    for dialect, name in golden_inputs():
        if dialect == target or target not in DIALECTS:
            continue
        case = f"{dialect}/{name}/convert-to-{target}"
        cases.append(pytest.param((dialect, name, target), id=case))
    return cases


def _out(case: tuple[str, str, str]) -> Path:
    return golden.converted_folder(*case)


def test_every_golden_conversion_is_judged():
    """The lists below cover every store × every other dialect: no output escapes its judge."""
    stores = golden_inputs()
    judged = {t: _conversions(t) for t in ("memoir", "claude", "memspec", "memfmt")}
    for target, cases in judged.items():
        expected = sum(1 for d, _ in stores if d != target)
        assert len(cases) == expected, target
        for case in cases:
            assert any(_out(case.values[0]).iterdir()), f"{case.id}: the golden conversion writes files"
    assert sum(len(c) for c in judged.values()) >= 30


# --- memoir-cli --------------------------------------------------------------------------------


@needs_memoir
@pytest.mark.parametrize("case", _conversions("memoir") + _conversions("claude"))
def test_memoir_validate_accepts_the_conversion(case):
    out = _out(case)
    verdict = memoir_validate(out)
    assert verdict.checked > 0, "memoir validate found files to check"
    assert verdict.errors == [], verdict.output
    assert verdict.ok, verdict.output


# --- memspec -----------------------------------------------------------------------------------


def _record_files(out: Path) -> list[str]:
    store = out / ".memspec" if (out / ".memspec").is_dir() else out
    return sorted(p.relative_to(out).as_posix() for d in ("memory", "observations", "archive")
                  for p in (store / d).rglob("*.md"))


@needs_memspec
@pytest.mark.parametrize("case", _conversions("memspec"))
def test_memspecs_loader_takes_every_record_of_the_conversion(case):
    out = _out(case)
    loaded = memspec_load(out)
    assert loaded.problems == [], "memspec skips no file and its schema scan finds no violation"
    files = _record_files(out)
    assert files, "the conversion holds records"
    assert sorted(i["file"] for i in loaded.items) == files, "memspec loads every record file memconv wrote"
    for item in loaded.items:
        assert not item["created"].startswith("1970"), f"{item['file']}: a date from the store, not 1970"


# --- memfmt ------------------------------------------------------------------------------------


def _memfmt_root(out: Path) -> Path:
    return out / "memory" if (out / "memory").is_dir() else out


def _profile_day(root: Path) -> str | None:
    profile = root / "profile.md"
    if not profile.is_file():
        return None
    m = re.search(r"^generated: (\S+)$", profile.read_text(encoding="utf-8"), re.M)
    return m.group(1) if m else None


@pytest.mark.parametrize("case", _conversions("memfmt"))
def test_memfmt_validate_accepts_the_conversion(case):
    out = _out(case)
    root = _memfmt_root(out)
    status, said = memfmt_validate(root, today=_profile_day(root))
    assert status == 0, said


# --- same dialect: memconv adds no problem -----------------------------------------------------


def _migrated(dialect: str, name: str, tmp: Path) -> Path:
    store = pipeline.read(GOLDEN / dialect / name / "input", dialect)
    plan = pipeline.plan(store, dialect, Report(command="migrate", input=name))
    write_files(tmp, plan.files)
    return tmp


def _same(dialect: str) -> list:
    return [pytest.param(dialect, name, id=f"{dialect}/{name}") for d, name in golden_inputs() if d == dialect]


def _shape(message: str) -> str:
    return re.sub(r"\s+", " ", message).strip()


@needs_memoir
@pytest.mark.parametrize(("dialect", "name"), _same("memoir") + _same("claude"))
def test_memoir_validate_finds_nothing_new_in_the_store_written_back(dialect, name, tmp_path):
    before = memoir_validate(GOLDEN / dialect / name / "input")
    after = memoir_validate(_migrated(dialect, name, tmp_path))
    assert after.checked > 0
    new = {(f, _shape(e)) for f, e in after.errors} - {(f, _shape(e)) for f, e in before.errors}
    assert new == set(), after.output


@needs_memspec
@pytest.mark.parametrize(("dialect", "name"), _same("memspec"))
def test_memspecs_loader_finds_nothing_new_in_the_store_written_back(dialect, name, tmp_path):
    before = memspec_load(GOLDEN / dialect / name / "input")
    out = _migrated(dialect, name, tmp_path)
    after = memspec_load(out)
    said_before = {_shape(p.split(": ", 1)[1]) for p in before.problems}
    new = [p for p in after.problems if _shape(p.split(": ", 1)[1]) not in said_before]
    assert new == [], "memconv's rewrite adds no problem memspec finds"
    assert len(after.items) >= len(before.items), "memspec loads at least what it loaded before"


@pytest.mark.parametrize(("dialect", "name"), _same("memfmt"))
def test_memfmt_validate_accepts_the_store_written_back(dialect, name, tmp_path):
    with tempfile.TemporaryDirectory() as tmp:
        out = _migrated(dialect, name, Path(tmp))
        root = _memfmt_root(out)
        status, said = memfmt_validate(root, today=_profile_day(root))
    assert status == 0, said


#: `memconv upgrade` on every golden claude folder, and `migrate` on the memoir store that climbs the ladder.
UPGRADED = [pytest.param(("upgrade", n), id=f"claude/{n}/upgrade") for d, n in golden_inputs() if d == "claude"] + \
    [pytest.param(("migrate", "memoir", "legacy-session"), id="memoir/legacy-session/migrate")]


@needs_memoir
@pytest.mark.parametrize("case", UPGRADED)
def test_memoir_validate_accepts_what_upgrade_and_migrate_write(case):
    out = golden.upgraded_folder(case[1]) if case[0] == "upgrade" else golden.migrated_folder(*case[1:])
    verdict = memoir_validate(out)
    assert verdict.checked > 0
    assert verdict.errors == [], verdict.output
