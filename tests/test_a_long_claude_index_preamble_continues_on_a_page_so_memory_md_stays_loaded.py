"""A long preamble of a Claude index (its lines before the first ``## ``) continues on a page: MEMORY.md stays loaded.

Claude Code loads only the first 200 lines / 25 KB of MEMORY.md. `memconv merge` split the merged index's sections
into pages past those limits, but never its preamble: a preamble of 250 lines (or 30 KB) made MEMORY.md 257 lines,
and every section after it, the `## More memory` links included, was invisible to Claude Code (exit 0, and a warning
that blamed "one item longer than a page"). The preamble's overflow now continues at the top of `MEMORY-2.md`…, split
between lines, never inside a fenced block, and merging the result again changes nothing. A conversion writes a
MEMORY.md a person wrote back as written (docs/claude.md), and says when it is past the limits.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memconv.cli import main
from memconv.dialects.claude import index

from .convert_helpers import convert_dir

ENTRY = "---\nname: {name}\ndescription: {hook}\ntype: {type}\n---\n\n{body}\n"


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _merge(runner, a: Path, b: Path, out: Path):
    result = runner.invoke(main, ["merge", "--json", "--from", "claude", str(a), str(b), str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _paragraphs(n: int, width: int = 60) -> str:
    """``n`` lines of a person's text, paragraphs of five lines a blank line apart, each line ``width`` long."""
    out = []
    for i in range(n):
        out.append(f"Note {i:03d}: " + "w" * (width - 10))
        if i % 5 == 4:
            out.append("")
    return "\n".join(out) + "\n"


def _folders(tmp_path: Path, preamble: str) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        root.mkdir()
        (root / "user_role.md").write_text(ENTRY.format(name="Role", hook="who", type="user", body="A dev."))
    (a / "project_deploy.md").write_text(ENTRY.format(name="Deploy", hook="how", type="project", body="Fridays."))
    (a / "MEMORY.md").write_text(preamble + "\n## User\n- [Role](user_role.md) — who\n\n"
                                 "## Project\n- [Deploy](project_deploy.md) — how\n")
    (b / "MEMORY.md").write_text(preamble + "\n## User\n- [Role](user_role.md) — who\n")
    return a, b


FENCE = "```\n" + "".join(f"code line {i}\n" for i in range(40)) + "```\n"

PREAMBLES = {
    "250 lines": "# Memory Index\n\n" + _paragraphs(250),
    "30 KB in 100 lines": "# Memory Index\n\n" + _paragraphs(100, width=300),
    "one paragraph under the title": "# Memory Index\n" + "".join(f"Line {i} of one paragraph.\n" for i in range(260)),
    "a fenced block": "# Memory Index\n\n" + _paragraphs(100) + FENCE + _paragraphs(100),
}


@pytest.mark.parametrize("preamble", list(PREAMBLES.values()), ids=list(PREAMBLES))
def test_a_merged_memory_md_with_a_long_preamble_stays_within_claude_codes_limits(runner, tmp_path, preamble):
    a, b = _folders(tmp_path, preamble)
    report = _merge(runner, a, b, tmp_path / "out")
    files = _files(tmp_path / "out")
    pages = {p: data.decode() for p, data in files.items() if index.is_index_path(p)}
    assert len(pages) > 1
    for path, text in pages.items():
        lines = text.split("\n")[:-1]
        assert len(lines) <= index.PAGE_LINES and len(files[path]) <= index.PAGE_BYTES, (path, len(lines))
        assert sum(line.startswith("```") for line in lines) % 2 == 0, f"{path} splits a fenced block"
    memory = pages["MEMORY.md"]
    assert "## More memory\n- [Memory index, page 2](MEMORY-2.md)" in memory
    everything = "".join(pages.values())
    for line in preamble.split("\n")[1:]:
        if line.strip():
            assert everything.count(line + "\n") == preamble.count(line + "\n"), f"lost or doubled: {line!r}"
    assert "- [Deploy](project_deploy.md) — how" in everything and "- [Role](user_role.md) — who" in everything
    assert any("MEMORY-2.md" in w and "before its first heading" in w for w in report["warnings"]), report["warnings"]
    assert not any("one item longer than a page" in w for w in report["warnings"]), report["warnings"]
    # A fixed point: merging the result again, with itself or with a side, changes nothing.
    _merge(runner, tmp_path / "out", tmp_path / "out", tmp_path / "again")
    assert _files(tmp_path / "again") == files
    _merge(runner, tmp_path / "out", a, tmp_path / "with-a")
    assert _files(tmp_path / "with-a") == files


def test_a_conversion_keeps_a_long_memory_md_as_written_and_says_it_is_past_the_limits(runner, tmp_path):
    a, _ = _folders(tmp_path, PREAMBLES["250 lines"])
    home = convert_dir(a, "memoir", tmp_path / "memoir")
    back = tmp_path / "back"
    result = runner.invoke(main, ["convert", "--json", "--to", "claude", str(home), str(back)])
    assert result.exit_code == 0, result.output
    assert (back / "MEMORY.md").read_bytes() == (a / "MEMORY.md").read_bytes(), "a person's index, byte for byte"
    warnings = json.loads(result.stdout)["warnings"]
    assert any("MEMORY.md" in w and "200 lines" in w for w in warnings), warnings
