"""A Claude memory named like an index page (`memory-2.md`, `MEMORY-2.md`) is kept in a merge, beside the page.

Past Claude Code's limits a merged MEMORY.md is split into pages `MEMORY-2.md`, `MEMORY-3.md`… (docs/merge.md).
A memory named `memory-2.md` was written beside the generated `MEMORY-2.md`: one file on macOS and Windows, so
one overwrote the other, and the index's link to the memory opened the page. A memory file named `MEMORY-2.md`
(front matter, linked from `## User`) was read as a page: its text was dropped, and its index line with it,
exit 0 and no word. Each is kept under a conflict name, linked, and reported (exit 6), as `memory.md` is beside
`MEMORY.md`; merging the result again changes nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.generators import make
from memconv.cli import main
from memconv.dialects import claude, fold

MEMORY = ("---\nname: {name}\ndescription: a memory named like an index page\ntype: user\n---\n\n"
          "The user keeps a file named {file}: {fact}.\n")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _merge(runner, a: Path, b: Path, out: Path):
    result = runner.invoke(main, ["merge", "--json", "--from", "claude", str(a), str(b), str(out)])
    return result, json.loads(result.stdout)


def _stores(tmp_path: Path, n: int, file: str) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    make("claude", a, n)
    shutil.copytree(a, b)
    (a / file).write_text(MEMORY.format(name="Page-named memory", file=file, fact="the cellar key is blue"))
    index = (a / "MEMORY.md").read_text()
    (a / "MEMORY.md").write_text(index + f"\n## Kept by hand\n- [Page-named memory]({file}) — page-named\n")
    return a, b


@pytest.mark.parametrize("n", [300, 3], ids=["split", "one page"])
@pytest.mark.parametrize("file", ["memory-2.md", "MEMORY-2.md", "Memory-3.md"])
def test_a_memory_named_like_a_page_is_kept_linked_and_reported(runner, tmp_path, file, n):
    a, b = _stores(tmp_path, n, file)
    out = tmp_path / "out"
    result, report = _merge(runner, a, b, out)
    assert result.exit_code == 6, result.output
    files = _files(out)
    folded: dict[str, str] = {}
    for path in files:
        assert fold(path) not in folded, f"{path} and {folded[fold(path)]} are one file on macOS and Windows"
        folded[fold(path)] = path
    kept = [p for p in files if b"the cellar key is blue" in files[p]]
    assert len(kept) == 1, kept
    copy = kept[0]
    assert copy.startswith(file[:-3] + ".conflict-") and copy.endswith(".md")
    assert files[copy] == (a / file).read_bytes()  # byte for byte
    assert not claude.index.is_index_path(copy)  # read back as the memory it is, not as a page
    index = b"".join(data for path, data in files.items() if claude.index.is_index_path(path)).decode()
    assert f"]({copy})" in index  # Claude Code loads what the index links
    links = [line for line in index.splitlines() if f"]({file})" in line and "Memory index, page" not in line]
    assert links == []  # a link to the name would open the page, or nothing
    if n == 300:
        assert "MEMORY-2.md" in files and "page 2 of" in files["MEMORY-2.md"].decode()
    [line] = [o for o in report["records"] if o["status"] == "conflict"]
    assert line["where"] == file and copy in line["conflict_copy"]
    again, report2 = _merge(runner, out, out, tmp_path / "again")
    assert again.exit_code == 0, again.output
    assert _files(tmp_path / "again") == files
