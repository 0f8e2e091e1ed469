"""A memory that arrives in a Claude folder with a hand-written index is linked from it.

Claude Code finds a memory through ``MEMORY.md``. A Claude store converted to memoir and back gets
its hand-written index restored as it was; a memory added in memoir came home as a file the index
did not name, so Claude never read it (nor an inline bullet edited in memoir, which comes home as an
entry of its own). Such a memory is now linked under its type's section, with a warning; a memory
home again is left as the index has it.
"""

from __future__ import annotations


import pytest


from .conftest import GOLDEN, run_json, tree

MIXED = GOLDEN / "claude" / "mixed-project" / "input"
INLINE_ONLY = GOLDEN / "claude" / "inline-only" / "input"


def test_a_memory_added_in_memoir_is_linked_from_the_hand_written_index(tmp_path):
    # Watched fail without Occasion.arrived reaching the claude writer: MEMORY.md came home as it was.
    run_json("convert", "--from", "claude", "--to", "memoir", str(MIXED), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "fact_new.md").write_text(
        "---\ntype: fact\nname: New fact\ndescription: Added in memoir\n---\n\nThe new body.\n")
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    before = (MIXED / "MEMORY.md").read_text()
    after = (tmp_path / "back" / "MEMORY.md").read_text()
    line = "- [New fact](reference_new.md) — Added in memoir\n"
    assert after.replace(line, "") == before and line in after.partition("## Reference")[2]
    assert any("reference_new.md: linked from MEMORY.md" in w for w in back["warnings"])
    files = tree(tmp_path / "back")
    assert all(files[p] == data for p, data in tree(MIXED).items() if p != "MEMORY.md"), \
        "every other file comes home as it was: a memory home again is not linked anew"


def test_a_bare_file_added_in_memoir_is_not_linked_as_new(tmp_path):
    """A bare file carries nothing, so whose it is cannot be told: it may be the folder's own, home again, and
    is not linked anew. Watched fail when the question was asked while the read-back's marker was on it (the
    marker looked like frontmatter of its own)."""
    run_json("convert", "--from", "claude", "--to", "memoir", str(MIXED), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "scratch_loose.md").write_text("Loose thoughts, no frontmatter.\n")
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert (tmp_path / "back" / "scratch_loose.md").read_text() == "Loose thoughts, no frontmatter.\n"
    assert (tmp_path / "back" / "MEMORY.md").read_text() == (MIXED / "MEMORY.md").read_text()
    assert not [w for w in back["warnings"] if "linked from" in w], back["warnings"]


def test_an_inline_bullet_edited_in_memoir_is_linked_as_the_entry_it_becomes(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "there"))
    entry = tmp_path / "there" / "memory" / "fact_user-prefers-tailwind-css.md"
    entry.write_text(entry.read_text().replace("User prefers Tailwind CSS", "User prefers Tailwind CSS v4"))
    run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    index = (tmp_path / "back" / "MEMORY.md").read_text()
    assert "- User prefers Tailwind CSS\n" in index, "the bullet as it was"
    assert "(reference_user-prefers-tailwind-css.md)" in index and "Tailwind CSS v4" in index


def _mini(tmp_path):
    src = tmp_path / "mini"
    src.mkdir()
    (src / "MEMORY.md").write_text("# My index\n\n## User\n- [Role](user_role.md) — r\n")
    (src / "user_role.md").write_text("---\nname: Role\ndescription: r\ntype: user\n---\n\nrole\n")
    (src / "user_hidden.md").write_text("---\nname: Hidden\ndescription: h\ntype: user\n---\n\nhidden\n")
    return src


@pytest.mark.parametrize("chain", [["memoir"], ["memspec"], ["memfmt"], ["memoir", "memspec"], ["memfmt", "memoir"]])
def test_an_entry_the_index_leaves_out_stays_out(tmp_path, chain):
    # Watched fail without the note's members: claude->memoir->claude linked user_hidden.md, a canonical
    # entry that carried nothing and so looked new (found by a helper).
    src = _mini(tmp_path)
    here = src
    for n, dialect in enumerate([*chain, "claude"]):
        there = tmp_path / f"hop{n}"
        report = run_json("convert", "--to", dialect, str(here), str(there))
        here = there
    assert not [w for w in report["warnings"] if "linked from" in w], report["warnings"]
    assert {p: b for p, b in tree(here).items() if not p.startswith(".memconv/")} == tree(src)


def test_linking_past_claude_code_s_limit_is_told(tmp_path):
    src = tmp_path / "big"
    src.mkdir()
    lines = ["# My index", "", "## Reference"] + [f"- [Note {i}](reference_n{i}.md) — n" for i in range(196)]
    (src / "MEMORY.md").write_text("\n".join(lines) + "\n")
    for i in range(196):
        (src / f"reference_n{i}.md").write_text(f"---\nname: Note {i}\ndescription: n\ntype: reference\n---\n\nn\n")
    run_json("convert", "--to", "memoir", str(src), str(tmp_path / "there"))
    for i in range(3):
        (tmp_path / "there" / "memory" / f"preference_p{i}.md").write_text(
            f"---\ntype: preference\nname: P{i}\ndescription: p\n---\n\np\n")
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert any("Claude Code loads only the first 200 lines" in w for w in back["warnings"]), back["warnings"]


def test_an_index_ending_inside_a_code_block_is_not_linked_into_and_says_so(tmp_path):
    # Watched fail without reading the written index again: the link went inside the fence, where it
    # is text, and every later trip added it once more (found by a helper).
    src = tmp_path / "fence"
    src.mkdir()
    (src / "MEMORY.md").write_text("# My index\n\n## User\n- [Role](user_role.md) — r\n\n```text\nunclosed fence\n")
    (src / "user_role.md").write_text("---\nname: Role\ndescription: r\ntype: user\n---\n\nrole\n")
    run_json("convert", "--to", "memoir", str(src), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "fact_f.md").write_text("---\ntype: fact\nname: F\ndescription: f\n---\n\nf\n")
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert any("reference_f.md: not linked from MEMORY.md, which ends inside a code block" in w
               for w in back["warnings"]), back["warnings"]
    assert (tmp_path / "back" / "MEMORY.md").read_bytes() == (src / "MEMORY.md").read_bytes()


def test_an_entry_deleted_in_memoir_leaves_a_link_that_is_told(tmp_path):
    # Watched fail without _links_to_the_deleted: MEMORY.md came home linking a file that is gone, no word.
    run_json("convert", "--from", "claude", "--to", "memoir", str(MIXED), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "lesson_migrations.md").unlink()
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    told = [w for w in back["warnings"] if "points at nothing" in w]
    assert len(told) == 1 and "lesson_migrations.md" in told[0], back["warnings"]
    unedited = run_json("convert", "--from", "claude", "--to", "memoir", str(MIXED), str(tmp_path / "again"))
    assert not [w for w in unedited["warnings"] if "points at nothing" in w]
    home = run_json("convert", "--to", "claude", str(tmp_path / "again"), str(tmp_path / "home"))
    assert not [w for w in home["warnings"] if "points at nothing" in w]
