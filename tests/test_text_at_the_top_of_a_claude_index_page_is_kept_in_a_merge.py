"""Text a person wrote at the top of a Claude index page (`MEMORY-2.md`…) is kept in a merge, once.

A merged MEMORY.md past Claude Code's limits is split into pages `MEMORY-2.md`, `MEMORY-3.md`… (docs/merge.md),
each beginning with a title memconv writes (`# Memory Index (page 2 of 3)`). A merge read a page's lines before
its first `## ` heading as that generated title, and left them all out: a paragraph a person wrote there, or the
text a page written by someone else begins with, was dropped, exit 0 and no word. It is kept as the index's own
words, at the top of MEMORY.md with MEMORY.md's own paragraphs, and a warning says so; the generated title is not
kept twice, and merging the result again changes nothing.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.generators import make
from memconv.cli import main
from memconv.dialects import claude

NOTE = "These project notes are about the Berlin office; ask Dana before editing."
ENTRY = "---\nname: {name}\ndescription: {hook}\ntype: {type}\n---\n\n{body}\n"


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _merge(runner, a: Path, b: Path, out: Path):
    result = runner.invoke(main, ["merge", "--json", "--from", "claude", str(a), str(b), str(out)])
    return result, json.loads(result.stdout)


def _index(files: dict[str, bytes]) -> str:
    return "".join(data.decode() for path, data in files.items() if claude.index.is_index_path(path))


def _small(tmp_path: Path, top: str) -> tuple[Path, Path]:
    """A with a page MEMORY-2.md that begins with ``top``, B with MEMORY.md alone."""
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        root.mkdir()
        (root / "user_role.md").write_text(ENTRY.format(name="Role", hook="who", type="user", body="A dev."))
        (root / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — who\n")
    (a / "project_deploy.md").write_text(ENTRY.format(name="Deploy", hook="how", type="project",
                                                      body="Deploy on Fridays."))
    (a / "MEMORY.md").write_text("# Memory Index\n\n## User\n- [Role](user_role.md) — who\n\n"
                                 "## More memory\n- [Memory index, page 2](MEMORY-2.md) — Project\n")
    (a / "MEMORY-2.md").write_text(top + "## Project\n- [Deploy](project_deploy.md) — how\n")
    return a, b


@pytest.mark.parametrize("top", [
    f"# Memory Index (page 2 of 2)\n\n{NOTE}\n\n",  # a paragraph under the generated title
    f"{NOTE}\n",  # a page written by someone else: no title
    f"# Berlin office\n\n{NOTE}\n\n",  # a title of its own: a person's words too
], ids=["under the title", "no title", "own title"])
def test_a_paragraph_at_the_top_of_a_page_is_kept(runner, tmp_path, top):
    a, b = _small(tmp_path, top)
    out = tmp_path / "out"
    result, report = _merge(runner, a, b, out)
    assert result.exit_code == 0, result.output
    files = _files(out)
    index = _index(files)
    assert index.count(NOTE) == 1, index
    assert "page 2 of 2" not in index  # the generated title is not the person's: not kept
    if top.startswith("# Berlin"):
        assert index.count("# Berlin office\n") == 1
    assert any("MEMORY-2.md" in w and "MEMORY.md" in w for w in report["warnings"]), report["warnings"]
    assert "- [Deploy](project_deploy.md) — how" in index
    again, report2 = _merge(runner, out, out, tmp_path / "again")
    assert again.exit_code == 0, again.output
    assert _files(tmp_path / "again") == files
    both, _ = _merge(runner, a, a, tmp_path / "both")  # the same page on both sides: its text once
    assert _index(_files(tmp_path / "both")).count(NOTE) == 1


def test_a_paragraph_on_a_page_of_a_split_index_is_kept_once(runner, tmp_path):
    a = tmp_path / "a"
    make("claude", a, 300)
    first, _ = _merge(runner, a, a, tmp_path / "split")
    assert first.exit_code == 0, first.output
    split = tmp_path / "split"
    page = (split / "MEMORY-2.md").read_text()
    title, rest = page.split("\n", 1)
    assert re.fullmatch(r"# .* \(page 2 of \d+\)", title), title
    (split / "MEMORY-2.md").write_text(f"{title}\n\n{NOTE}\n{rest}")
    b = tmp_path / "b"
    shutil.copytree(split, b)
    (b / "MEMORY-2.md").write_text(page)
    out = tmp_path / "out"
    result, _ = _merge(runner, split, b, out)
    assert result.exit_code == 0, result.output
    files = _files(out)
    index = _index(files)
    assert index.count(NOTE) == 1
    pages = [path for path in files if claude.index.is_index_path(path)]
    titles = [line for line in index.splitlines() if re.fullmatch(r"# .* \(page \d+ of \d+\)", line)]
    assert len(titles) == len(pages) - 1  # one generated title a page, none kept as text
    again, _ = _merge(runner, out, out, tmp_path / "again")
    assert again.exit_code == 0, again.output
    assert _files(tmp_path / "again") == files


def test_the_kept_text_comes_first_when_memory_md_has_none_of_its_own(runner, tmp_path):
    a, b = _small(tmp_path, f"{NOTE}\n\n")
    (a / "MEMORY.md").write_text("# Memory Index\n## User\n- [Role](user_role.md) — who\n"
                                 "## More memory\n- [Memory index, page 2](MEMORY-2.md) — Project\n")
    out = tmp_path / "out"
    result, _ = _merge(runner, a, b, out)
    assert result.exit_code == 0, result.output
    index = (out / "MEMORY.md").read_text()
    assert index.index(NOTE) < index.index("## User") < index.index("## Project"), index
    again, _ = _merge(runner, out, out, tmp_path / "again")
    assert _files(tmp_path / "again") == _files(out)
