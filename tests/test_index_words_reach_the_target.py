"""What an index says in its own words reaches the target's tools, and comes home as it was.

A Claude ``MEMORY.md`` (or a memfmt one someone wrote in) may hold a paragraph, a numbered list
or a fenced block beside its links and bullets. Bullets became records of the target; the rest
travelled only in the store note under ``.memconv/notes/``, which the target's tools ignore, so
a memspec or memfmt user never saw it (principle 1). It is now one more record, "MEMORY.md's own
words"; the way back drops it again, the index coming home from the note byte for byte.
"""

from __future__ import annotations

import json
import shutil

import memfmt
import pytest
from click.testing import CliRunner

from memconv import pipeline
from memconv.dialects.claude.index import read_index as claude_read_index
from memconv.dialects.memfmt import read_index as memfmt_read_index
from memconv.cli import main

from .conftest import GOLDEN, run_json, tree
from .reference_tools import memspec, needs_memspec

INLINE_ONLY = GOLDEN / "claude" / "inline-only" / "input"
WORDS = "Notes the assistant keeps for this repository."


def claude_index_of(text: str):
    return claude_read_index(text.encode(), "MEMORY.md", {"a.md"})


def memfmt_index_of(text: str):
    return memfmt_read_index(text.encode(), "memory/MEMORY.md")


def _own(folder) -> dict[str, bytes]:
    return {p: b for p, b in tree(folder).items() if not p.startswith(".memconv/")}


def test_each_reader_says_what_its_index_says_in_its_own_words():
    # Lines Markdown would take for a heading or a bullet's ("Keep answers short." under a link, a
    # paragraph over '---', a link reference) are the Claude index's own text, as its reader sees it.
    claude_index = ("# Memory Index\n\nA paragraph\nof two lines.\nA setext heading\n---\n\n## User\n"
                    "- [a](a.md) — a link\nUnder the link.\n- a bullet\n  its second line\n\n1. first\n2. second\n\n"
                    "```\n- [x](x.md) — in a fence\n```\n\n[wiki]: https://example.com\n")
    # Its title and headings are someone's words too (Claude Code's index is written by hand), but for
    # those every index may have: '# Memory Index', '## User'.
    assert claude_index_of(claude_index).words == (
        "A paragraph\nof two lines.\nA setext heading\n---\n\nUnder the link.\n\n"
        "1. first\n2. second\n\n```\n- [x](x.md) — in a fence\n```\n\n[wiki]: https://example.com")
    assert claude_index_of(claude_index.replace("## User", "## People").replace("Memory Index", "Our notes")).words \
        .startswith("# Our notes\n\nA paragraph\nof two lines.\nA setext heading\n---\n\n## People\n\nUnder the link.")
    memfmt_index = ("---\nmemfmt_type: index\ngenerated: 2026-08-02\n---\n\n# Memory\n\n- 4 entities\n\n"
                    "## Entities\n\n- [[Ali]]\n\n## Notes\n\n- a bullet\n\nAli prefers mornings.\n")
    assert memfmt_index_of(memfmt_index).words == "Ali prefers mornings."
    assert claude_index_of("# Memory Index\n\n## User\n- [a](a.md)\n- b\n").words == ""


def test_memfmt_shows_them(tmp_path):
    # Watched fail without the words record: no memfmt entity held the paragraph.
    run_json("convert", "--from", "claude", "--to", "memfmt", str(INLINE_ONLY), str(tmp_path / "out"))
    entities = {e.name: e for e in memfmt.load(tmp_path / "out" / "memory").entities}
    assert WORDS in entities["MEMORY.md's own words"].facts
    # memfmt names an entity's file after its name: titled "Written in MEMORY.md", it was "Written in MEMORY.md.md".
    assert (tmp_path / "out" / "memory" / "entities" / "MEMORY.md's own words.md").is_file()
    assert not [p for p in (tmp_path / "out").rglob("*.md.md")]


@needs_memspec
def test_memspec_finds_them(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memspec", str(INLINE_ONLY), str(tmp_path / "out"))
    found = memspec(tmp_path / "out", "search", "assistant")
    assert found.returncode == 0, found.stderr
    assert "MEMORY.md's own words" in found.stdout and WORDS in found.stdout


def test_memoir_holds_them(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "out"))
    store = pipeline.read(tmp_path / "out", "memoir")
    [record] = [r for r in store.records if r.title == "MEMORY.md's own words"]
    assert record.body.startswith("# Project memory\n\n" + WORDS) and "inside-a-fence.md" in record.body
    assert "## Conventions" in record.body and "## Empty section" in record.body


@pytest.mark.parametrize("target", ["memoir", "memspec", "memfmt"])
def test_the_way_back_drops_the_rendering(tmp_path, target):
    run_json("convert", "--from", "claude", "--to", target, str(INLINE_ONLY), str(tmp_path / "there"))
    run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert _own(tmp_path / "back") == tree(INLINE_ONLY)


def test_words_edited_in_the_target_come_back_as_an_entry_the_index_links(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "there"))
    entry = tmp_path / "there" / "memory" / "fact_memory-words.md"
    entry.write_text(entry.read_text().replace(WORDS, "Notes the assistant keeps, edited."))
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    assert any("the words written in MEMORY.md were edited in memoir" in w for w in back["warnings"]), back["warnings"]
    files = _own(tmp_path / "back")
    [entry] = [p for p, b in files.items() if b"Notes the assistant keeps, edited." in b and p != "MEMORY.md"]
    index = files["MEMORY.md"].decode()
    assert WORDS in index, "the index keeps its words as they were"
    # ...and links the entry the edit became, so Claude Code reads it (docs/claude.md).
    [link] = [line for line in index.splitlines() if f"]({entry})" in line]
    assert index.replace(link + "\n", "").replace("\n## Reference\n", "\n") \
        == (INLINE_ONLY / "MEMORY.md").read_text().replace("\n## Reference\n", "\n")


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec"])
def test_a_memfmt_index_written_in_shows_its_bullets_and_words_and_comes_home(tmp_path, target):
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memfmt" / "full" / "input", src)
    index = src / "memory" / "MEMORY.md"
    index.write_bytes(index.read_bytes() + b"\n## Notes\n\n- Kenji reviews on Tuesdays\n\nAli prefers mornings.\n")
    run_json("convert", "--to", target, str(src), str(tmp_path / "there"))
    shown = [p for p, b in _own(tmp_path / "there").items() if "/.memconv/" not in "/" + p]
    assert any(b"Kenji reviews on Tuesdays" in (tmp_path / "there" / p).read_bytes() for p in shown)
    assert any(b"Ali prefers mornings." in (tmp_path / "there" / p).read_bytes() for p in shown)
    run_json("convert", "--to", "memfmt", str(tmp_path / "there"), str(tmp_path / "back"))
    assert _own(tmp_path / "back") == tree(src)


@pytest.mark.parametrize("first,second", [("memfmt", "memoir"), ("memspec", "memfmt"), ("memoir", "memspec"),
                                          ("memfmt", "memspec")])
def test_the_index_comes_home_after_two_other_dialects(tmp_path, first, second):
    # Watched fail without the note's index_from: the second hop wrote the note as memfmt's, the way
    # home read the Claude MEMORY.md as a memfmt index, ignored it, and its words were nowhere.
    run_json("convert", "--from", "claude", "--to", first, str(INLINE_ONLY), str(tmp_path / "one"))
    run_json("convert", "--to", second, str(tmp_path / "one"), str(tmp_path / "two"))
    back = run_json("convert", "--to", "claude", str(tmp_path / "two"), str(tmp_path / "back"))
    assert not [w for w in back["warnings"] if "index" in w], back["warnings"]
    assert _own(tmp_path / "back") == tree(INLINE_ONLY)


def _home_after_memspec(tmp_path, title: str, command: str, *args: str) -> dict:
    """inline-only converted to memspec, memspec's own ``command`` run on the claim titled ``title``, and the
    report of the way home to Claude (in ``tmp_path / "back"``)."""
    run_json("convert", "--from", "claude", "--to", "memspec", str(INLINE_ONLY), str(tmp_path / "there"))
    [claim] = [p for p in (tmp_path / "there" / ".memspec").rglob("*.md") if f"\n# {title}\n" in p.read_text()]
    done = memspec(tmp_path / "there", command, claim.stem, *args)
    assert done.returncode == 0, done.stderr
    return run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))


@needs_memspec
def test_a_bullet_verified_in_memspec_stays_one_bullet(tmp_path):
    # Watched fail without the digest-only test: memspec's verify (a new check_by) made the bullet
    # "edited", and it came home as an entry of its own beside the same bullet in MEMORY.md.
    back = _home_after_memspec(tmp_path, "User prefers Tailwind CSS", "verify", "--evidence", "checked package.json")
    assert _own(tmp_path / "back") == tree(INLINE_ONLY)
    assert any("check_by" in w and "dropped" in w for w in back["warnings"]), back["warnings"]


@needs_memspec
def test_words_retracted_in_memspec_leave_the_index_and_stay_retracted(tmp_path):
    # Watched fail without withdrawing them: MEMORY.md came home unchanged, so Claude still read the
    # retracted paragraph, and the next conversion made it an active claim again.
    back = _home_after_memspec(tmp_path, "MEMORY.md's own words", "supersede", "--reason", "out of date")
    assert any("taken out of MEMORY.md" in w for w in back["warnings"]), back["warnings"]
    index = (tmp_path / "back" / "MEMORY.md").read_text()
    assert WORDS not in index and "User prefers Tailwind CSS" in index
    assert [p for p in (tmp_path / "back" / ".memconv" / "notes").glob("*.markdown") if WORDS in p.read_text()]
    run_json("convert", "--to", "memspec", str(tmp_path / "back"), str(tmp_path / "again"))
    holding = [p for p in (tmp_path / "again" / ".memspec").rglob("*.md") if WORDS in p.read_text() and ".memconv" not in p.parts]
    assert holding and all("\nstate: superseded\n" in p.read_text() for p in holding)


def test_a_rendering_deleted_in_the_target_is_told_and_the_index_keeps_it(tmp_path):
    # Watched fail without _deleted_renderings: the deletion was quietly undone, exit 0, no word of it.
    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "there"))
    (tmp_path / "there" / "memory" / "fact_memory-words.md").unlink()
    (tmp_path / "there" / "memory" / "fact_user-prefers-tailwind-css.md").unlink()
    back = run_json("convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back"))
    told = [w for w in back["warnings"] if "not in memoir any more" in w]
    assert len(told) == 2 and any("User prefers Tailwind CSS" in w for w in told), back["warnings"]
    assert _own(tmp_path / "back") == tree(INLINE_ONLY)
    unedited = run_json("convert", "--to", "claude", str(_fresh(tmp_path)), str(tmp_path / "back2"))
    assert not [w for w in unedited["warnings"] if "any more" in w]


def _fresh(tmp_path):
    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "fresh"))
    return tmp_path / "fresh"


@pytest.mark.parametrize("craft", [
    lambda store: store.__setitem__("index_from", {"MEMORY.md": ["x"]}),
    lambda store: store.__setitem__("index_from", {"MEMORY.md": "bogus"}),
    lambda store: store.__setitem__("fingerprints", {"MEMORY.md": {"a": 1}}),
    lambda store: store["indexes"][0].__setitem__("words", 5),
])
def test_a_crafted_store_note_never_stops_the_way_home(tmp_path, craft):
    # Watched fail with index_from naming a list: exit 70, 'unhashable type: list'.
    import re

    run_json("convert", "--from", "claude", "--to", "memoir", str(INLINE_ONLY), str(tmp_path / "there"))
    note = tmp_path / "there" / ".memconv" / "notes" / "store.md"
    text = note.read_text()
    found = re.search(r'^memconv: (".*")$', text, re.M)
    doc = json.loads(json.loads(found.group(1)))
    craft(doc["store"])
    note.write_text(text[:found.start(1)] + json.dumps(json.dumps(doc, separators=(",", ":"))) + text[found.end(1):])
    result = CliRunner().invoke(main, ["convert", "--to", "claude", str(tmp_path / "there"), str(tmp_path / "back")])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
