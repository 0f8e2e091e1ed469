"""A Claude store converted to memoir, then that memoir store to memspec (or memfmt), gives the record "MEMORY.md's
own words" that a direct claude → memspec gives, and none where it gives none. Before, the second step looked the
index's links (``user_role.md``) up among memoir's names for the memories (``preference_role``), found none, and
took every renamed link for a line with no memory behind it: an index of links alone (and one inline bullet) gained
a words record of its links, and a paragraph already given its home in memoir came with those lines beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memconv.cli import main

from .conftest import tree

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "claude"

MEMORY = ("# Memory Index\n\n## User\n- [Role and background](user_role.md) — Senior backend engineer\n\n"
          "## Feedback\n- [Run the real test suite](feedback_testing.md) — Integration tests hit a real database\n\n"
          "## Project\n- [The Wire](project_wire.md) — The swipe feed at /tape\n\n"
          "## Reference\n- [Grafana boards](reference_grafana.md) — Where the latency dashboards live\n")
ENTRIES = {
    "user_role.md": ("Role and background", "Senior backend engineer", "user"),
    "feedback_testing.md": ("Run the real test suite", "Integration tests hit a real database", "feedback"),
    "project_wire.md": ("The Wire", "The swipe feed at /tape", "project"),
    "reference_grafana.md": ("Grafana boards", "Where the latency dashboards live", "reference"),
}


def _store(root: Path, tail: str) -> Path:
    root.mkdir()
    (root / "MEMORY.md").write_text(MEMORY + tail)
    for name, (title, description, kind) in ENTRIES.items():
        (root / name).write_text(f"---\nname: {title}\ndescription: {description}\ntype: {kind}\n---\n\n{title}.\n")
    return root


def _convert(source: Path, source_dialect: str, target: str, out: Path) -> None:
    result = CliRunner().invoke(main, ["convert", "--jobs", "1", "--from", source_dialect, "--to", target,
                                       str(source), str(out)])
    assert result.exit_code in (0, 3), result.output  # 3: a file quarantined (broken-links' broken YAML)


def _words(out: Path) -> dict[str, str]:
    """The files of ``out`` that hold the record "MEMORY.md's own words" (not memconv's notes, not an index): its
    heading in memspec and memfmt, its ``name:`` in memoir."""
    return {p.relative_to(out).as_posix(): p.read_text() for p in sorted(out.rglob("*.md"))
            if ".memconv" not in p.relative_to(out).parts and p.name != "MEMORY.md"
            and any(said in p.read_text() for said in ("# MEMORY.md's own words\n", "\nname: MEMORY.md's own words\n"))}


def _chain_and_direct(store: Path, target: str, tmp_path: Path,
                      via: str = "memoir") -> tuple[dict[str, str], dict[str, str]]:
    _convert(store, "claude", via, tmp_path / "via")
    _convert(tmp_path / "via", via, target, tmp_path / "chain")
    _convert(store, "claude", target, tmp_path / "direct")
    return _words(tmp_path / "chain"), _words(tmp_path / "direct")


#: (the dialect between, the target): the chains of the task, and the same through memspec and memfmt
CHAINS = [("memoir", "memspec"), ("memoir", "memfmt"), ("memspec", "memfmt"), ("memspec", "memoir"),
          ("memfmt", "memoir"), ("memfmt", "memspec")]


@pytest.mark.parametrize(("via", "target"), CHAINS)
def test_an_index_of_links_alone_makes_no_words_record_through_memoir(tmp_path, via, target):
    # The inline bullet makes the index content, carried in the store note; it says no word of its own.
    store = _store(tmp_path / "in", "- Staging resets every Sunday\n")
    chain, direct = _chain_and_direct(store, target, tmp_path, via)
    assert direct == {}, "the case asked for: an index whose links all say their memories"
    assert chain == direct


@pytest.mark.parametrize(("via", "target"), CHAINS)
def test_an_index_paragraph_homed_in_memoir_comes_on_alone(tmp_path, via, target):
    store = _store(tmp_path / "in", "\nA paragraph the person wrote.\n")
    chain, direct = _chain_and_direct(store, target, tmp_path, via)
    assert direct and all("A paragraph the person wrote." in text for text in direct.values())
    assert chain == direct


@pytest.mark.parametrize("golden", ["broken-links", "mixed-project", "inline-only"])
def test_a_golden_claude_store_through_memoir_says_the_words_a_direct_conversion_does(tmp_path, golden):
    store = tmp_path / "in"
    shutil.copytree(GOLDEN / golden / "input", store)
    chain, direct = _chain_and_direct(store, "memspec", tmp_path)
    assert direct, "the case asked for: an index with words of its own"
    assert chain == direct


def _home(chain: Path, target: str, out: Path) -> list[str]:
    result = CliRunner().invoke(main, ["convert", "--json", "--jobs", "1", "--from", target, "--to", "claude",
                                       str(chain), str(out)])
    assert result.exit_code == 0, result.output
    return [w for w in json.loads(result.stdout)["warnings"] if "words written in it" in w]


def _unnoted(root: Path) -> dict[str, bytes]:
    return {p: b for p, b in tree(root).items() if not p.startswith(".memconv/")}


@pytest.mark.parametrize("target", ["memspec", "memfmt"])
def test_an_index_of_links_alone_comes_home_through_two_dialects_without_a_warning_of_deleted_words(tmp_path, target):
    """Home from the chain, the index has no words whose record could be gone: the check of a deleted words record
    knows memoir's memories by the names Claude gives them too, as the forward step does."""
    store = _store(tmp_path / "in", "- Staging resets every Sunday\n")
    _chain_and_direct(store, target, tmp_path)
    assert _home(tmp_path / "chain", target, tmp_path / "back") == []
    assert _unnoted(tmp_path / "back") == tree(store)


def test_words_deleted_after_two_dialects_are_still_said(tmp_path):
    # (the bullet's record is read home: a deletion is told from a store that holds no rendering of the index)
    store = _store(tmp_path / "in", "- Staging resets every Sunday\n\nA paragraph the person wrote.\n")
    chain, _ = _chain_and_direct(store, "memspec", tmp_path)
    for path in chain:
        (tmp_path / "chain" / path).unlink()
    said = _home(tmp_path / "chain", "memspec", tmp_path / "back")
    assert [w.partition(";")[0] for w in said] == \
        ["MEMORY.md: the record of the words written in it is not in memspec any more"]
    assert _unnoted(tmp_path / "back") == tree(store)
