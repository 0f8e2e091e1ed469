"""A float YAML writes as a word (``.nan``, ``.inf``, ``-.inf``) is written so in a memoir or Claude frontmatter.

``json.dumps`` wrote ``NaN`` and ``Infinity``, which YAML (js-yaml, memoir-cli's reader; PyYAML) reads as text: a
memspec claim's ``stale: .nan`` became the text "NaN" in memoir and Claude Code.
"""
import math

import pytest
import yaml
from click.testing import CliRunner

from memconv.cli import main
from memconv.frontmatter import scalar

CLAIM = """---
id: ms_01KNRWNA20VCD395V3FZBW4Z1W
kind: claim
type: fact
state: active
created: '2026-08-01T10:30:00.000Z'
source: claude-code
source_kind: agent
tags:
  - build
scope: universal
stale: {value}
---
The toolchain pins Node 22.
"""


@pytest.mark.parametrize("value, written", [(math.nan, ".nan"), (math.inf, ".inf"), (-math.inf, "-.inf"),
                                            (1.5, "1.5"), (3, "3")])
def test_a_number_is_written_as_yaml_reads_it(value, written):
    assert scalar(value) == written
    read = yaml.safe_load(f"k: {scalar(value)}\n")["k"]
    assert isinstance(read, (int, float)) and (read == value or math.isnan(value) and math.isnan(read))


@pytest.mark.parametrize("target", ["memoir", "claude"])
@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_a_memspec_float_stays_a_number_in_the_target(tmp_path, target, value):
    facts = tmp_path / "in" / ".memspec" / "memory" / "facts"
    facts.mkdir(parents=True)
    (facts / "ms_01KNRWNA20VCD395V3FZBW4Z1W.md").write_text(CLAIM.format(value=value))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["convert", "--from", "memspec", "--to", target, "-q",
                                       str(tmp_path / "in"), str(out)])
    assert result.exit_code == 0, result.output
    [written] = [p for p in out.rglob("*.md") if p.name != "MEMORY.md"]
    head = written.read_text().split("---\n")[1]
    assert f"stale: {value}\n" in head
    stale = yaml.safe_load(head)["stale"]
    expected = {".nan": math.nan, ".inf": math.inf, "-.inf": -math.inf}[value]
    assert isinstance(stale, float) and (math.isnan(stale) if math.isnan(expected) else stale == expected)
    home = tmp_path / "home"
    result = CliRunner().invoke(main, ["convert", "--from", target, "--to", "memspec", "-q", str(out), str(home)])
    assert result.exit_code == 0, result.output
    assert (home / ".memspec/memory/facts/ms_01KNRWNA20VCD395V3FZBW4Z1W.md").read_text() == CLAIM.format(value=value)
