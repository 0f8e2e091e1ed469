"""A quarantined original memconv keeps in OUT is in the store OUT's own reader reads, so a later run carries it.

memspec's reader reads only ``.memspec/``: a copy kept at ``OUT/.memconv/quarantine/`` beside it was in no later
run's input, and a second conversion lost it without a word. And ``check`` of an OUT holding such a copy said the
copy would be deleted, though the run writes it back where it is.
"""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

GOLDEN = Path(__file__).parent.parent / "golden" / "claude" / "broken-links" / "input"
BROKEN = (GOLDEN / "reference_broken.md").read_bytes()


def run(*args):
    return CliRunner().invoke(main, [*args, "-q"])


def holds_broken(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and p.read_bytes() == BROKEN]


@pytest.mark.parametrize("via", ["memspec", "memoir", "memfmt", "claude"])
def test_a_second_conversion_carries_what_the_first_quarantined(tmp_path, via):
    shutil.copytree(GOLDEN, tmp_path / "in")
    first = run("convert", "--from", "claude", "--to", via, str(tmp_path / "in"), str(tmp_path / "mid"))
    assert first.exit_code == 3, first.output  # quarantined
    [kept] = holds_broken(tmp_path / "mid")
    if via == "memspec":
        assert kept.relative_to(tmp_path / "mid").parts[0] == ".memspec", "inside the folder memspec's reader reads"
    then = "memoir" if via != "memoir" else "claude"
    second = run("convert", "--from", via, "--to", then, str(tmp_path / "mid"), str(tmp_path / "out"))
    assert second.exit_code == 0, second.output
    assert holds_broken(tmp_path / "out"), "the quarantined original was lost on the second conversion"


@pytest.mark.parametrize("via", ["memspec", "memoir", "memfmt", "claude"])
def test_check_of_an_output_holding_a_quarantined_original_finds_it_fresh(tmp_path, via):
    shutil.copytree(GOLDEN, tmp_path / "in")
    run("convert", "--from", "claude", "--to", via, str(tmp_path / "in"), str(tmp_path / "mid"))
    checked = CliRunner().invoke(main, ["check", "--from", via, str(tmp_path / "mid")])
    assert checked.exit_code == 0, checked.output
