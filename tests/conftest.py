"""Shared helpers for the test suite: golden stores, tree comparison, the CLI runner."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
SCHEMAS = Path(__file__).resolve().parent / "schemas"


def ctrl_c_as_from_a_terminal() -> None:
    """A child's Ctrl-C as a terminal starts it (``preexec_fn``): a test run started in the background (``&`` in a
    script, nohup) has SIGINT ignored, every child inherits that, and memconv keeps it ignored on purpose
    (docs/cli.md): a test of what Ctrl-C does then saw nothing happen."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` as relative POSIX path → bytes; memconv's own manifest of OUT left out."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).as_posix() != ".memconv/manifest.json"}


def write_files(root: Path, files: dict[str, bytes]) -> None:
    for path, data in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def round_trip(runner: CliRunner, tmp_path: Path, files: dict[str, bytes], home: str, away: str) -> list:
    """``files`` written as IN (``tmp_path/in``), converted ``home`` → ``away`` (``tmp_path/away``) and back
    (``tmp_path/back``), each with ``--json`` and exit 0; the two runs' results."""
    from memconv.cli import main

    write_files(tmp_path / "in", files)
    results = []
    for source, target, a, b in ((home, away, "in", "away"), (away, home, "away", "back")):
        result = runner.invoke(main, [f"{source}-to-{target}", "--json", str(tmp_path / a), str(tmp_path / b)])
        assert result.exit_code == 0, result.output
        results.append(result)
    return results


def run_json(*args: str) -> dict:
    """``memconv *args --json`` run in-process: asserted to exit 0; its report."""
    import json

    from memconv.cli import main

    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def changed_files(back: Path, before: Path) -> tuple[dict[str, bytes], list[str]]:
    """The tree at ``back`` (a store converted home again), and the files of it that differ from the same path at
    ``before`` (memconv's own folder left out)."""
    came, was = tree(back), tree(before)
    return came, [p for p in came if p in was and came[p] != was[p] and not p.startswith(".memconv")]


def assert_tree(expected_dir: Path, actual: dict[str, bytes]) -> None:
    """``actual`` equals the tree at ``expected_dir``, byte for byte (golden outputs are syrupy snapshots:
    docs/golden.md)."""
    expected = tree(expected_dir)
    assert sorted(actual) == sorted(expected), "the output has exactly the expected files"
    for path in expected:
        assert actual[path] == expected[path], f"{path} is byte-identical to the golden copy"


@pytest.fixture(autouse=True)
def _no_store_left_in_tmp():
    """Stores made by ``hostile.store_with`` go when their test ends (they were left in /tmp, 12 a run)."""
    yield
    from .hostile import remove_made
    remove_made()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def store(tmp_path) -> Path:
    """A copy of the canonical golden memoir store, as IN (a module may define its own ``store``)."""
    import shutil

    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", root)
    return root
