"""A run within a dialect that reads and writes one record at a time (memoir, memspec, claude, memfmt: ``migrate``,
``check``) holds one record at a time, and gives the same files, in the same order, and the same report as the run that
reads the whole store first (issue 12: memory growing sublinearly where the dialects allow).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memconv import errors as memconv_errors
from memconv import pipeline
from memconv.cli import main as cli
from memconv.dialects import claude, memfmt, memoir, memspec
from memconv.report import Report

from .bench_support import bench_module
from .conftest import GOLDEN, tree
from .convert_helpers import golden_inputs

CANONICAL = GOLDEN / "memoir" / "canonical" / "input"


def _whole(root: Path, dialect: str, date: str | None = None) -> tuple[list[tuple[str, bytes]], Report]:
    report = Report(command="migrate", input=str(root))
    files = list(pipeline.plan(pipeline.read(root, dialect), dialect, report, date=date, jobs=1).iter_files())
    return files, report


def _streamed(root: Path, dialect: str, date: str | None = None) -> tuple[list[tuple[str, bytes]], Report]:
    report = Report(command="migrate", input=str(root))
    _, plan = pipeline.stream_within(root, dialect, report, date=date)
    return list(plan.iter_files()), report


def _said(report: Report) -> dict:
    """Everything the report says, as the JSON a user gets (no time taken)."""
    said = json.loads(report.to_json())
    said.pop("elapsed_seconds", None)
    return said


def _both_ways(root: Path, dialect: str, date: str | None = None) -> tuple[list[tuple[str, bytes]], dict]:
    """The whole run's files and report, once the streamed run has given the same files, in the same order,
    and the same report."""
    files, report = _whole(root, dialect, date=date)
    streamed, streamed_report = _streamed(root, dialect, date=date)
    assert streamed == files, f"{root.name}: the same files in the same order"
    said = _said(report)
    assert _said(streamed_report) == said
    return files, said


def _link_out(root: Path, link: Path) -> None:
    """A symbolic link at ``link``, in the store at ``root``, to a file beside the store: never followed."""
    outside = root.parent / "outside.md"
    outside.write_text("elsewhere\n")
    os.symlink(outside, link)


def _awkward_store(root: Path) -> Path:
    """A memoir store with everything the reader sets aside or says: a foreign file, a file it quarantines,
    a legacy (opaque) entry, two entries one file apart only in case, an old session.json, a link out."""
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", root)
    shutil.copy(GOLDEN / "memoir" / "legacy-session" / "input" / "session.json", root / "session.json")
    entry = (CANONICAL / "memory" / "fact_staging-endpoints.md").read_bytes()
    (root / "memory" / "fact_staging-endpoints.md").write_bytes(entry)
    (root / "memory" / "FACT_staging-endpoints.md").write_bytes(entry)
    (root / "memory" / "fact_broken.md").write_bytes(b"---\ntype: fact\ntitle: [unclosed\n---\nbody\n")
    (root / "memory" / "fact_not-utf8.md").write_bytes(b"---\ntype: fact\n---\n\xff\xfe\n")
    (root / "README.md").write_text("not memory\n")
    _link_out(root, root / "memory" / "fact_elsewhere.md")
    return root


def test_an_awkward_store_streams_to_the_same_files_and_report(tmp_path):
    root = _awkward_store(tmp_path / "in")
    files, said = _both_ways(root, "memoir", date="2031-05-06")
    assert said["quarantined"] and said["refused"] and said["migrations"], "the store exercises every list"
    assert any("case" in w for w in said["warnings"]), "and the case clash"


def test_a_streamed_plan_is_read_once(tmp_path):
    _, plan = pipeline.stream_within(CANONICAL, "memoir", Report(command="migrate", input=str(CANONICAL)))
    plan.drain()
    with pytest.raises(RuntimeError, match="read once"):
        plan.drain()


# --- memspec: each record file read alone; config.yaml (its operators) read first -----------------


MEMSPEC = GOLDEN / "memspec"
_OLD = "ms_01KN49FJ20YPXRG8K06G4R9E2Z"  # claimed twice: the migrated copy is moved onto the current one's file
_NEWEST = "ms_01KN6VW920K10JQP0DJNM70Z57"


def _memspec_record(id_: str, state: str, lines: str, title: str) -> str:
    return f"---\nid: {id_}\n{lines}state: {state}\n---\n\n# {title}\n"


def _awkward_memspec_store(root: Path) -> Path:
    """A memspec project with everything its reader sets aside or says, and the one case whose bytes wait for
    the whole store: a v0.2 record with no date of its own that the ladder moves onto a file already written
    (it is written under an id of its own, with the store's newest date, held by a record read after it)."""
    shutil.copytree(MEMSPEC / "v02-dated-observations" / "input", root)  # dated folders, a bad id, usage.jsonl
    store = root / ".memspec"
    (store / "archive" / f"{_OLD}.md").write_text(_memspec_record(
        _OLD, "retired", "kind: claim\ntype: fact\ncreated: '2026-03-01T10:00:00.000Z'\nsource: agent\ntags: []\n"
        "check_by: never\n", "Already archived"))
    (store / "memory" / "facts" / f"{_OLD}.md").write_text(_memspec_record(
        _OLD, "archived", "type: fact\nconfidence: 0.5\nsource: agent\ntags: []\n", "Old copy, no created"))
    (store / "memory" / "facts" / f"{_NEWEST}.md").write_text(_memspec_record(
        _NEWEST, "active", "kind: claim\ntype: fact\ncreated: '2031-05-09T10:00:00.000Z'\nsource: ana\ntags: []\n"
        "check_by: '2031-08-07T10:00:00.000Z'\n", "Newest, an operator's"))
    (store / "config.yaml").write_text("operators: [ana]\n")
    (store / "notes.txt").write_text("carried\n")
    (store / "memory" / "facts" / "ms_nofrontmatter.md").write_text("no frontmatter\n")
    (store / ".fts.db").write_bytes(b"cache")
    _link_out(root, store / "memory" / "facts" / "ms_elsewhere.md")
    (root / "src").mkdir()
    os.symlink(root.parent, root / "src" / "loop")  # the project around the store: never listed
    return root


@pytest.mark.parametrize("date", [None, "2031-05-06"])
def test_an_awkward_memspec_store_streams_to_the_same_files_and_report(tmp_path, date):
    root = _awkward_memspec_store(tmp_path / "in")
    files, said = _both_ways(root, "memspec", date=date)
    assert said["quarantined"] and said["refused"] and said["migrations"], "the store exercises every list"
    refused = [r["path"] for r in said["refused"]]
    assert refused == [".memspec/memory/facts/ms_elsewhere.md"], "the project around .memspec/ is not listed"
    undated = [w for w in said["warnings"] if "have no date of their own" in w]
    assert undated and (date or "2031-05-09") in undated[0], "the renamed record takes the newest date, read after it"
    assert any("two records claim" in w for w in said["warnings"])


@pytest.mark.parametrize("dialect, is_record, exactly", [
    ("memoir", lambda path: path.startswith("memory/"), True),  # memoir writes each entry file it read
    ("memspec", lambda path: path.endswith(".md"), False),  # memspec adds its index-like files
    ("claude", lambda path: path != "MEMORY.md", True),  # claude writes its index after the memories
    ("memfmt", lambda path: path != "memory/MEMORY.md", False),  # memfmt too (and a profile), from its first read
], ids=["memoir", "memspec", "claude", "memfmt"])
def test_each_record_is_written_before_the_next_is_read(tmp_path, monkeypatch, dialect, is_record, exactly):
    """What bounds the memory: the stream reads a file only when the one before it has been written."""
    module = {"memoir": memoir, "memspec": memspec, "claude": claude, "memfmt": memfmt}[dialect]
    root = bench_module("generators").make(dialect, tmp_path / "in", 50)
    read: list[str] = []
    real = module.read_bytes

    def noting(root, path, **kw):
        read.append(path)
        return real(root, path, **kw)

    monkeypatch.setattr(module, "read_bytes", noting)
    _, plan = pipeline.stream_within(root, dialect, Report(command="migrate", input=str(root)))
    # memfmt reads the store once, keeping a little of each record, before the first is written: the second counts
    assert bool(read) == (dialect == "memfmt")
    read.clear()
    records = 0
    for path, _ in plan.iter_files():
        if is_record(path):
            records += 1
            assert read.count(path) == 1 and read[-1] == path, f"{path} was read just before it was written"
            assert sum(is_record(p) for p in read) == records, "no record read ahead"
    assert records == 50 if exactly else records >= 50


def test_a_record_given_the_stores_date_holds_the_files_after_it_till_the_end(tmp_path, monkeypatch):
    """The one case a record waits for the whole store: the files after it wait with it, in their order."""
    root = _awkward_memspec_store(tmp_path / "in")
    read: list[str] = []
    real = memspec.read_bytes
    monkeypatch.setattr(memspec, "read_bytes", lambda root, path, **kw: read.append(path) or real(root, path, **kw))
    _, plan = pipeline.stream_within(root, "memspec", Report(command="migrate", input=str(root)))
    for path, data in plan.iter_files():
        if b"created: '2031-05-09'" in data:
            assert any(p.endswith(f"{_NEWEST}.md") for p in read), "rendered once the newest date was read"
            break
    else:
        pytest.fail("the renamed record takes the newest date")


def test_write_each_refuses_a_record_not_named_by_an_id():
    store = memspec.read(MEMSPEC / "canonical" / "input")
    store.records[0].link = "not-an-id"
    with pytest.raises(memconv_errors.StoreError, match="not named by a memspec id"):
        list(memspec.write_each(store, iter(store.records)))


# --- claude: each memory a file of its own; MEMORY.md written after them ---------------------------


CLAUDE = GOLDEN / "claude"


def _awkward_claude_store(root: Path, index: bool = True) -> Path:
    """A Claude Code memory folder with everything its reader sets aside or says: a legacy shape and a bare
    file, a broken index link, a file it quarantines, a symlink out, a subfolder, two names one file apart only
    in case, and a memory named so that it is read before ``MEMORY.md`` (``A`` sorts before ``M``).
    ``index=False``: no ``MEMORY.md``, so the writer generates one from every record."""
    shutil.copytree(CLAUDE / "mixed-project" / "input", root)
    shutil.copy(CLAUDE / "broken-links" / "input" / "reference_broken.md", root / "reference_broken.md")
    entry = (CLAUDE / "canonical" / "input" / "user_role.md").read_bytes()
    (root / "A_first.md").write_bytes(entry.replace(b"name: ", b"name: First "))
    (root / "User_Role.md").write_bytes(entry)
    (root / "feedback_broken.md").write_bytes(b"---\nname: [unclosed\ntype: feedback\n---\nbody\n")
    (root / "feedback_not-utf8.md").write_bytes(b"---\ntype: feedback\n---\n\xff\xfe\n")
    with (root / "MEMORY.md").open("a") as index_file:
        index_file.write("- [Gone](reference_gone.md) \u2014 a link to nothing\n")
    _link_out(root, root / "user_elsewhere.md")
    if not index:
        (root / "MEMORY.md").unlink()
    return root


@pytest.mark.parametrize("index", [True, False], ids=["own index", "index generated"])
def test_a_generated_claude_store_streams_to_the_same_files_and_report(tmp_path, index):
    root = bench_module("generators").make("claude", tmp_path / "in", 300)
    if not index:
        (root / "MEMORY.md").unlink()
    files, _ = _both_ways(root, "claude")
    assert len(files) > 300
    assert (b"- [" in dict(files)["MEMORY.md"]) and (index or b"# Memory Index" in dict(files)["MEMORY.md"])


@pytest.mark.parametrize("index", [True, False], ids=["own index", "index generated"])
def test_an_awkward_claude_store_streams_to_the_same_files_and_report(tmp_path, index):
    root = _awkward_claude_store(tmp_path / "in", index=index)
    files, said = _both_ways(root, "claude")
    assert said["quarantined"] and said["refused"], "the store exercises every list"
    assert any("case" in w for w in said["warnings"]), "and the case clash"
    assert not index or any("reference_gone.md" in w for w in said["warnings"]), "and the broken link"
    assert [p for p, _ in files].index("A_first.md") < [p for p, _ in files].index("MEMORY.md")
    written = dict(files)["MEMORY.md"]
    if index:
        assert b"reference_gone.md" in written, "its own index, written back as it was"
    else:
        assert b"(A_first.md)" in written and b"reference_gone.md" not in written, "generated: every memory linked"


# --- memfmt: read twice, what its writer needs of every record kept from the first read -------------


MEMFMT = GOLDEN / "memfmt"


def _memfmt_file(kind: str, name: str, lines: str = "", body: str = "") -> str:
    return f"---\nmemfmt_type: {kind}\n{lines}---\n\n# {name}\n{body}"


def _awkward_memfmt_store(root: Path) -> Path:
    """A memfmt store with everything its reader sets aside or says: someone's own notes (one behind a byte-order
    mark, one it quarantines for a '\\' in its name), a second index, a link out, old mengram files (an empty
    profile among them), records whose files memfmt would rewrite, and an entity named anew (a '\\' in its name)
    whose name is one file with another's on macOS and Windows."""
    shutil.copytree(MEMFMT / "vault" / "input", root)
    shutil.copy(MEMFMT / "legacy" / "input" / "memory" / "entities" / "Kenji.md", root / "memory" / "entities" / "Kenji.md")
    entities = root / "memory" / "entities"
    (entities / "zed.md").write_text(_memfmt_file("entity", "zed", "entity_type: person\n"))
    # named anew, as its name holds a '\\': "Zed" would be one file with zed.md on macOS and Windows
    (entities / "old\\zed.md").write_text(_memfmt_file("entity", "Zed", "entity_type: person\n"))
    (entities / "Named otherwise.md").write_text(_memfmt_file("entity", "Another name"))
    (entities / "Spaced.md").write_text(_memfmt_file("entity", "Spaced", "", "\n\n\nText  with   spaces\n\n\n"))
    (entities / "Broken.md").write_text("---\nmemfmt_type: entity\nentity_type: [unclosed\n---\n\n# Broken\n")
    (entities / "Second.md").write_text(_memfmt_file("index", "Another index"))
    (root / "memory" / "odd\\name.md").write_text("a note of someone's own\n")
    (root / "memory" / "profile.md").write_text(_memfmt_file("profile", "Profile").replace("memfmt_type", "mengram_type"))
    _link_out(root, entities / "Elsewhere.md")
    return root


@pytest.mark.parametrize("date", [None, "2031-05-06"])
def test_an_awkward_memfmt_store_streams_to_the_same_files_and_report(tmp_path, date):
    root = _awkward_memfmt_store(tmp_path / "in")
    files, said = _both_ways(root, "memfmt", date=date)
    assert said["quarantined"] and said["refused"] and said["migrations"], "the store exercises every list"
    warnings = "\n".join(said["warnings"])
    for what in ("case or Unicode", "would rewrite this file differently", "a folder separator on Windows"):
        assert what in warnings, what


def test_a_memfmt_file_changed_between_the_two_reads_is_refused(tmp_path):
    root = bench_module("generators").make("memfmt", tmp_path / "in", 20)
    _, plan = pipeline.stream_within(root, "memfmt", Report(command="migrate", input=str(root)))
    entity = sorted((root / "memory" / "entities").iterdir())[-1]
    entity.write_text(entity.read_text().replace("# ", "# Renamed ", 1))
    with pytest.raises(memconv_errors.StoreError, match="changed while the store was read"):
        plan.drain()


def test_memfmt_write_each_refuses_a_store_not_read_twice():
    store = memfmt.read(MEMFMT / "full" / "input")
    with pytest.raises(memconv_errors.StoreError, match="write_each takes the store iter_read gives"):
        list(memfmt.write_each(store, iter(store.records)))


def test_a_memfmt_file_changed_between_the_reads_stops_migrate_and_writes_nothing(tmp_path, runner, monkeypatch):
    root = bench_module("generators").make("memfmt", tmp_path / "in", 20)
    changed = sorted((root / "memory" / "entities").iterdir())[-1].relative_to(root).as_posix()
    seen: list[str] = []
    real = memfmt.read_bytes

    def changing(root, path, **kw):
        seen.append(path)
        data = real(root, path, **kw)
        return data.replace(b"# ", b"# Renamed ", 1) if path == changed and seen.count(path) == 2 else data

    monkeypatch.setattr(memfmt, "read_bytes", changing)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["migrate", "--from", "memfmt", str(root), str(out), "--json"])
    assert result.exit_code == 4, result.output
    assert "changed while the store was read" in json.loads(result.stdout)["errors"][0]
    assert not out.exists(), "nothing is half-written"


# --- every dialect: the same run, streamed and whole ------------------------------------------------


DIALECTS = ["memoir", "memspec", "claude", "memfmt"]
#: A store of each dialect with everything its reader sets aside or says; a Claude folder with its own index
#: and without one (the writer generates it from every memory).
AWKWARD = [pytest.param("memoir", _awkward_store, id="memoir"),
           pytest.param("memspec", _awkward_memspec_store, id="memspec"),
           pytest.param("claude", _awkward_claude_store, id="claude-own-index"),
           pytest.param("claude", lambda root: _awkward_claude_store(root, index=False), id="claude-index-generated"),
           pytest.param("memfmt", _awkward_memfmt_store, id="memfmt")]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_dialect_streams_within_itself(dialect):
    assert pipeline.streams(dialect)


@pytest.mark.parametrize("dialect, name, date", [(d, n, None) for d, n in golden_inputs() if d in DIALECTS]
                         + [(d, n, "2031-05-06") for d, n in golden_inputs() if d == "memfmt"])
def test_golden_stores_stream_to_the_same_files_and_report(dialect, name, date):
    root = GOLDEN / dialect / name / "input"
    _both_ways(root, dialect, date=date)


@pytest.mark.parametrize("dialect", ["memoir", "memspec", "memfmt"])  # claude's: with and without MEMORY.md
def test_a_generated_store_streams_to_the_same_files_and_report(tmp_path, dialect):
    root = bench_module("generators").make(dialect, tmp_path / "in", 300)
    files, _ = _both_ways(root, dialect)
    assert len(files) > 300


@pytest.mark.parametrize("dialect, awkward", AWKWARD)
def test_check_streams_and_says_what_the_whole_check_says(tmp_path, monkeypatch, dialect, awkward):
    root = awkward(tmp_path / "in")
    streamed = _said(pipeline.check(root, dialect, Report(command="check", input=str(root))))
    monkeypatch.setattr(pipeline, "streams", lambda dialect: False)
    whole = _said(pipeline.check(root, dialect, Report(command="check", input=str(root))))
    assert streamed == whole and whole["differences"] and whole["exit_code"] == 1
    assert not any(".fts.db" in d["path"] for d in whole["differences"]), "memspec's caches are left out"


@pytest.mark.parametrize("dialect, awkward", AWKWARD)
def test_migrate_through_the_cli_writes_what_the_whole_run_plans(tmp_path, runner, dialect, awkward):
    root = awkward(tmp_path / "in")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["migrate", "--from", dialect, str(root), str(out), "--json"])
    assert result.exit_code == 3, result.output  # quarantined files
    files, report = _whole(root, dialect)
    written = tree(out)
    written.pop(".memconv/manifest.json", None)
    assert written == dict(files)
    assert json.loads(result.stdout)["files"] == _said(report)["files"]
