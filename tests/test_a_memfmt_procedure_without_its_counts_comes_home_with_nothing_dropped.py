"""A memfmt procedure written by hand without ``version``, ``success_count`` or ``fail_count`` comes home with
nothing said dropped.

memfmt's own library reads an absent ``version`` as 1 and an absent count as 0 (its ``parse.py``), and memconv's
memfmt writer writes those values for a field unset: to memfmt an absent key and that value are one value. memconv's
reader keeps them unset (docs/memfmt.md), so a record home again was compared with the read-back of a fresh
rendering (``success_count: 0``) and its counts were said "brought home from another dialect … dropped", the
version "taken out … the deletion is dropped". Found by a hunt (2026-12-07, forty-sixth session): ``--fail-on-loss``
exited 5 on the way home from memoir, Claude and memspec, and ``check --via`` said "round trip is byte-identical"
and "2 dropped" in one run. A count that really differs from what the file says is still said dropped.
"""

from __future__ import annotations

import importlib
import json

import pytest

from .conftest import write_files
from .convert_helpers import convert_files, read_files

_PATH = "memory/procedures/rotate.md"
_BARE = "---\nmemfmt_type: procedure\nversion: 1\n---\n\n# rotate\n\n**When** — monthly\n\n## Steps\n\n1. rotate\n"\
    .encode()
_NO_VERSION = _BARE.replace(b"version: 1\n", b"")
_ONE_COUNT = _BARE.replace(b"version: 1\n", b"version: 2\nsuccess_count: 3\n")


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
@pytest.mark.parametrize("source", [_BARE, _NO_VERSION, _ONE_COUNT], ids=["no-counts", "no-version", "one-count"])
def test_a_procedure_without_its_counts_comes_home_byte_for_byte_with_nothing_dropped(via, source):
    # Watched fail before the fix (forward._count_unwritten): "failures, successes" (and "version") said dropped.
    files, _ = convert_files(read_files({_PATH: source}, "memfmt"), via)
    back, report = convert_files(read_files(files, via), "memfmt")
    assert back[_PATH] == source
    assert report.totals()["dropped"] == 0
    assert not [n for n in report.notices() if "dropped" in n["message"]], "no warning says a field dropped"


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_fail_on_loss_passes_and_check_says_nothing_dropped(via, tmp_path, runner):
    from memconv.cli import main

    write_files(tmp_path / "in", {_PATH: _BARE})
    there = runner.invoke(main, [f"memfmt-to-{via}", str(tmp_path / "in"), str(tmp_path / "there")])
    assert there.exit_code == 0, there.output
    home = runner.invoke(main, [f"{via}-to-memfmt", "--fail-on-loss", str(tmp_path / "there"), str(tmp_path / "back")])
    assert home.exit_code == 0, home.output
    assert (tmp_path / "back" / _PATH).read_bytes() == _BARE
    check = runner.invoke(main, ["check", "--via", via, "--json", str(tmp_path / "in")])
    assert check.exit_code == 0, check.output
    report = json.loads(check.stdout)
    assert report["counts"]["dropped"] == 0, "a byte-identical round trip drops nothing"


def test_a_count_that_differs_from_its_file_is_still_said_dropped():
    """The read-back's value is what memfmt means for an unset count; a count set to another is not that value."""
    from memconv.report import FileReport

    forward = importlib.import_module("memconv.converters.forward")  # the package's ``forward`` is a function

    [original] = read_files({_PATH: _BARE}, "memfmt").records
    original.successes = 5  # what a carry brought home, say; memfmt's rendering of it would read 5, not 0
    [returned] = read_files({_PATH: _BARE.replace(b"version: 1\n", b"version: 1\nsuccess_count: 0\n"
                                                  b"fail_count: 0\n")}, "memfmt").records
    rep = FileReport(source=_PATH, source_kind="procedure", target=_PATH, target_kind="procedure")
    forward._count_unwritten(original, returned, "memfmt", rep)
    assert rep.dropped == ["successes"], "a count the file does not say is dropped, and said so"
