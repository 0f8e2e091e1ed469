"""detect names a dialect only on that dialect's own mark; READMEs are nothing, several stores are said to be several.

What counts as evidence is listed in docs/cli.md ("How detect decides").
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memconv import dialects
from memconv.cli import main

from .conftest import GOLDEN, write_files
from .convert_helpers import DIALECTS, convert_files, golden_inputs, read_files
from .detect_support import FIXTURES, memfmt_store, project_folder, two_stores

CLAUDE_GOLDEN = sorted(p.name for p in (GOLDEN / "claude").iterdir() if (p / "input").is_dir())


def _found(root: Path) -> list[tuple[str, str]]:
    return [(d.dialect, d.version) for d in dialects.detect_all(root)]


# --- a Markdown file alone is nobody's memory -------------------------------------------

@pytest.mark.parametrize("files", [
    {"README.md": b"# Project\n\nHow to build it.\n"},
    {"guide.md": b"# Guide\n", "api.md": b"# API\n\n- GET /things\n", "img/logo.png": b"\x89PNG"},
    {"post.md": b"---\ntitle: Hello\ntags: [blog]\n---\n\n# Hello\n"},
    {"notes.md": b"---\ntype: tutorial\n---\n\nA docs page with a type of its own.\n"},
], ids=["a-readme", "a-docs-folder", "a-blog-post", "a-page-with-another-type"])
def test_a_folder_of_readmes_or_docs_is_no_store(tmp_path, files):
    # Verified by making claude's detect accept any .md again: these fail with [('claude', 'legacy')].
    write_files(tmp_path, files)
    assert _found(tmp_path) == [], "a Markdown file alone is evidence of no dialect"


def test_nothing_found_keeps_the_json_shape_and_says_nothing(runner, tmp_path):
    write_files(tmp_path, {"README.md": b"# Readme\n"})
    result = runner.invoke(main, ["detect", "--json", str(tmp_path)])
    assert result.exit_code == 4, "nothing found is 'IN is not a usable store'"
    report = json.loads(result.stdout)  # the one report shape of every command (docs/report.md)
    assert report["detections"] == [] and report["finding"] == "nothing" and report["source_dialect"] is None
    assert "no memory store here" in report["error"]["message"]


def test_an_empty_folder_is_said_to_be_empty(runner, tmp_path):
    result = runner.invoke(main, ["detect", str(tmp_path)])
    assert result.exit_code == 4
    assert "the folder is empty" in result.stderr


@pytest.mark.parametrize("name, text", [
    ("MEMORY.md", "# Memory\n\n- User prefers Tailwind CSS\n"),
    ("feedback_tests.md", "---\nname: Tests\ntype: feedback\n---\nRun them.\n"),
    ("old.md", "---\nname: Old\nmetadata:\n  type: reference\n  node_type: memory\n---\nA link.\n"),
    ("session.md", "---\nname: Chat\noriginSessionId: 9b2d6c1e\n---\nSaid once.\n"),
], ids=["its-index", "a-typed-entry", "a-metadata-type", "an-origin-session"])
def test_one_claude_mark_is_enough(tmp_path, name, text):
    write_files(tmp_path, {name: text.encode(), "README.md": b"# Readme\n"})
    assert [d for d, _ in _found(tmp_path)][:1] == ["claude"], f"{name} is Claude Code's own mark"


def test_bare_files_are_legacy_entries_only_beside_a_mark(tmp_path):
    write_files(tmp_path, {"MEMORY.md": b"# Memory\n\n- [Deploy](deploy.md)\n", "deploy.md": b"# Deploy\n\nmake it\n"})
    (claude,) = [d for d in dialects.detect_all(tmp_path) if d.dialect == "claude"]
    assert claude.version == "legacy", "a bare entry in a Claude memory folder is Appendix A's legacy shape"


def test_a_memfmt_index_is_not_claudes(tmp_path):
    memfmt_store(tmp_path)
    assert _found(tmp_path / "memory") == [("memfmt", 1)], "memory/ itself, MEMORY.md included, is memfmt's"


# --- stores made by the formats' own tools -----------------------------------------------

def test_a_memspec_project_is_memspec_only_though_init_left_a_markdown_file_beside_it():
    # memspec init writes AGENTS.md at the project root; it used to make the folder "legacy claude".
    assert _found(FIXTURES / "memspec-project") == [("memspec", "current")]


def test_a_memoir_cli_store_is_current_memoir_not_a_claudeproject_folder():
    # memoir-cli keeps events.jsonl beside session.json: transcripts are .jsonl too, yet this is memoir.
    assert _found(FIXTURES / "memoir-cli-store") == [("memoir", "current")]
    (best,) = dialects.detect_all(FIXTURES / "memoir-cli-store")
    assert "memoir spec v0.1.2" in best.evidence and best.hint is None


def test_a_memfmt_store_written_by_the_library_is_memfmt(tmp_path):
    memfmt_store(tmp_path)
    assert _found(tmp_path) == [("memfmt", 1)]


# --- several stores and a store one level down -------------------------------------------

def test_a_folder_holding_two_stores_lists_both_with_no_false_confidence(tmp_path):
    # Verified by making Survey.stores keep only the surest detection: finding becomes 'one store'.
    survey = dialects.survey(two_stores(tmp_path / "project"))
    assert survey.finding == "several stores"
    assert sorted((d.dialect, d.where) for d in survey.stores) == [("memfmt", "memory/"), ("memspec", ".memspec/")]
    assert all(d.confidence <= dialects.STRONG for d in survey.found), "neither store is 'the' dialect of the folder"


def test_detect_prints_each_store_and_json_says_several(runner, tmp_path):
    root = two_stores(tmp_path / "project")
    human = runner.invoke(main, ["detect", str(root)])
    assert human.exit_code == 0
    assert "several stores" in human.stdout
    assert "memspec (version current) at .memspec/" in human.stdout and "memfmt (version 1) at memory/" in human.stdout
    report = json.loads(runner.invoke(main, ["detect", "--json", str(root)]).stdout)
    rows = report["detections"]
    assert {r["dialect"] for r in rows} == {"memspec", "memfmt"}
    assert report["finding"] == "several stores" and report["source_dialect"] is None
    assert all(set(r) == {"dialect", "version", "confidence", "evidence", "hint", "where"} for r in rows)


def test_one_store_says_so_in_json(runner):
    report = json.loads(runner.invoke(main, ["detect", "--json", str(GOLDEN / "memoir" / "canonical" / "input")]).stdout)
    assert report["detections"][0]["dialect"] == "memoir" == report["source_dialect"]
    assert report["finding"] == "one store"


def test_a_claude_project_folder_points_at_its_memory_folder(tmp_path):
    # Verified by dropping the project-folder branch of claude.detect: nothing is found here.
    root = project_folder(tmp_path / "-home-ana-src-acme")
    (best, *_) = dialects.detect_all(root)
    assert best.dialect == "claude" and best.root == root / "memory" and best.elsewhere(root)
    assert "Claude Code project folder" in best.evidence and str(root / "memory") in best.hint


# --- after upgrade: current memoir -----------------------------------------------------

@pytest.mark.parametrize("store", CLAUDE_GOLDEN)
@pytest.mark.parametrize("how", ["to-OUT", "in-place"])
def test_detect_on_upgrades_output_says_current(runner, tmp_path, store, how):
    # Verified by counting every user/feedback/reference entry as upgradable again (without asking
    # upgrade's rule): broken-links' unparseable entry, kept as written, makes it 'legacy' + 'upgrade'.
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "claude" / store / "input", src)
    if how == "in-place":
        assert runner.invoke(main, ["upgrade", "--in-place", str(src)]).exit_code in (0, 3)
        out = src
    else:
        out = tmp_path / "out"
        assert runner.invoke(main, ["upgrade", str(src), str(out)]).exit_code in (0, 3)
    best = dialects.detect_all(out)[0]
    assert best.version == "current", f"{store} upgraded reads as {best.dialect} {best.version}: {best.evidence}"
    assert not (best.hint and "upgrade" in best.hint), "detect never sends an upgraded store back to upgrade"
    if any(p.name != "MEMORY.md" for p in (GOLDEN / "claude" / store / "input").glob("*.md")):
        assert best.dialect == "memoir", "an upgraded folder with entries is memoir"
        assert "memoir spec v0.1.2" in best.evidence
    result = runner.invoke(main, ["detect", str(out)])
    assert result.stdout.startswith(f"{best.dialect} (version current): "), result.stdout


def test_a_legacy_claude_folder_still_hints_upgrade():
    best = dialects.detect_all(GOLDEN / "claude" / "mixed-project" / "input")[0]
    assert best.dialect == "claude" and best.version == "legacy" and "memconv upgrade" in best.hint


def test_evidence_heads_are_read_once_for_all_dialects(tmp_path, monkeypatch):
    from memconv.dialects import evidence

    write_files(tmp_path, {f"memory/fact_{i}.md": f"---\nname: F{i}\ntype: fact\n---\nx\n".encode() for i in range(5)})
    write_files(tmp_path, {"session.json": b'{"version": 1, "current": {}}'})
    reads = []
    real = evidence.Folder.raw_head

    def counting(self, path):
        if path not in self._raw:
            reads.append(path)
        return real(self, path)

    monkeypatch.setattr(evidence.Folder, "raw_head", counting)
    assert dialects.detect_all(tmp_path)[0].dialect == "memoir"
    assert len(reads) == len(set(reads)), "each file's head is read once, however many dialects look"


def test_another_tools_session_json_is_not_memoirs(tmp_path):
    # Verified by accepting any JSON object as a session: this finds ('memoir', 'unknown').
    write_files(tmp_path, {"session.json": b'{"version": 2, "tabs": ["a", "b"]}', "notes.md": b"# Notes\n"})
    assert _found(tmp_path) == []


def test_a_memoir_store_beside_a_memspec_store_is_two_stores(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "memspec-project", root)
    shutil.copytree(FIXTURES / "memoir-cli-store", root, dirs_exist_ok=True)
    survey = dialects.survey(root)
    assert survey.finding == "several stores"
    assert sorted(d.dialect for d in survey.stores) == ["memoir", "memspec"]


def test_a_missing_folder_is_said_to_be_missing(runner, tmp_path):
    result = runner.invoke(main, ["detect", str(tmp_path / "nope")])
    assert result.exit_code == 4 and "no such folder" in result.stderr


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-", min_size=1, max_size=12)
_MARKS = {"type", "metadata", "originSessionId", "memfmt_type", "mengram_type"}


@st.composite
def _pages(draw):
    """Markdown pages with no dialect's mark: bare, or frontmatter of other keys."""
    files = {}
    for stem in draw(st.lists(_word, min_size=1, max_size=6, unique=True)):
        assume(stem.upper() != "MEMORY")
        body = f"# {draw(_word)}\n\n{draw(st.text(max_size=60))}\n"
        keys = draw(st.dictionaries(_word, _word, max_size=4))
        assume(not (_MARKS & set(keys)))
        head = "".join(f"{k}: {v}\n" for k, v in keys.items())
        folder = draw(st.sampled_from(["", "docs/", "memory/"]))
        files[f"{folder}{stem}.md"] = (f"---\n{head}---\n{body}" if keys else body).encode()
    return files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_pages())
def test_no_folder_of_unmarked_markdown_is_ever_a_store(tmp_path_factory, files):
    root = tmp_path_factory.mktemp("pages")
    write_files(root, files)
    assert _found(root) == [], f"Markdown without a mark is nobody's memory: {sorted(files)}"


@pytest.mark.parametrize("dialect, name", golden_inputs())
def test_every_conversion_output_is_one_store_of_its_target(tmp_path, dialect, name):
    # memconv's carries (memconv/files/<dialect>/…) hold copies of source files: they are no second store.
    store = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    for target in DIALECTS:
        files, _ = convert_files(store, target)
        out = tmp_path / target
        write_files(out, files)
        survey = dialects.survey(out)
        back = read_files(files, target)
        if not survey.found:  # an output with nothing of the target in it (only memconv's notes) has no mark
            assert not back.records and back.working_set is None, f"{dialect}/{name} → {target}: no mark found"
            continue
        assert survey.found[0].dialect == target, f"{dialect}/{name} → {target}: {survey.describe()}"
        assert survey.finding == "one store", f"{dialect}/{name} → {target}: {survey.describe()}"
