"""A memory linking the rendering of a Claude index's own words (or of one of its inline bullets), which go home as
MEMORY.md's text and no file, is warned about at home; the link is kept.

A Claude store converted to memspec: MEMORY.md's own words (and each bullet with no link) become claims of their own.
memspec's ``relate --from <a memory's claim> --to <that claim> --type refines`` gives the memory an edge to it. Home
in Claude, the claim is MEMORY.md's text again, and the memory's ``refines → [[ms_…]]`` names nothing in the folder;
before, nothing said so (found in the forty-third session), as a link to the working set's rendering is said
(test_a_link_to_the_working_set_s_rendering_is_said_at_home.py). The link is kept as written: converting the store
to memspec again gives the claim its id back, and the link resolves there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memconv import dialects

from .convert_helpers import plan_written, write_files
from .reference_tools import memspec, needs_memspec

INDEX = ("# Memory Index\n\nRead these before starting work.\n\n"
         "- [Style](feedback_style.md) — code style\n- Always run the tests before a commit\n")
STYLE = "---\nname: Style\ndescription: code style\ntype: feedback\n---\nUse tabs.\n"


def _claim(out: Path, holding: str) -> str:
    ids = [p.stem for p in (out / ".memspec" / "memory").rglob("ms_*.md") if holding in p.read_text(encoding="utf-8")]
    assert len(ids) == 1, ids
    return ids[0]


@needs_memspec
@pytest.mark.parametrize("holding, said", [("MEMORY.md's own words", "the words written in MEMORY.md"),
                                           ("Always run the tests", "an inline bullet of MEMORY.md")])
def test_a_memory_related_to_a_rendering_of_memory_md_says_its_link_at_home(tmp_path, holding, said):
    source = tmp_path / "claude"
    write_files({"MEMORY.md": INDEX.encode(), "feedback_style.md": STYLE.encode()}, source)
    out = tmp_path / "memspec"
    plan_written(dialects.get("claude").read(source), "memspec", out)
    memory, rendering = _claim(out, "Use tabs."), _claim(out, holding)
    done = memspec(out, "relate", "--from", memory, "--to", rendering, "--type", "refines")
    assert done.returncode == 0, done.stdout + done.stderr

    home = tmp_path / "home"
    report = plan_written(dialects.get("memspec").read(out), "claude", home)
    assert sorted(p.name for p in home.iterdir()) == ["MEMORY.md", "feedback_style.md"]
    assert (home / "MEMORY.md").read_text(encoding="utf-8") == INDEX, "the index as it was"
    style = (home / "feedback_style.md").read_text(encoding="utf-8")
    assert f"refines → [[{rendering}]]" in style, "the edge is kept as written, for the way back"
    warned = [w for f in report.files if f.target == "feedback_style.md" for w in f.warnings if rendering in w]
    assert warned and said in warned[0] and "MEMORY.md" in warned[0], [(f.target, f.warnings) for f in report.files]

    again = tmp_path / "again"
    plan_written(dialects.get("claude").read(home), "memspec", again)
    assert (again / ".memspec" / "memory" / "facts" / f"{rendering}.md").is_file(), \
        "converted again, the rendering has its id back: the link resolves"
