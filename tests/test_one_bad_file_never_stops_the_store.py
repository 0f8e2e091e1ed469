"""One bad file never stops the store (issue 9, item 6), and names never collide (item 7)."""

from __future__ import annotations

import unicodedata

import pytest

from memconv import dialects, fs, pipeline
from memconv.report import Report

from .hostile import HEAD, RECORD_PATH, convert_everywhere, quarantined, record_file, store_with

ODD_FILES = {
    "a key that is a number": lambda d: record_file(d, "1: x\n"),
    "schema_version of another dialect": lambda d: record_file(d, "schema_version: 3\n"),
    "bytes that are not UTF-8": lambda d: record_file(d).encode() + b"\xff\xfe\n",
    "a NUL byte": lambda d: record_file(d, body="bo\x00dy\n"),
    "a BOM and mixed line endings": lambda d: "\ufeff" + record_file(d).replace("\n", "\r\n", 3),
    "empty frontmatter": lambda d: "---\n---\nbody\n",
    "frontmatter that is a list": lambda d: "---\n- a\n- b\n---\nbody\n",
    "frontmatter that is a scalar": lambda d: "---\nhello\n---\nbody\n",
    "a duplicate key": lambda d: record_file(d, "description: again\n"),
    "an unclosed frontmatter": lambda d: "---\n" + HEAD[d],
    "an empty file": lambda d: "",
    "a file that is only a BOM": lambda d: "\ufeff",
}


@pytest.mark.parametrize("dialect", list(RECORD_PATH))
@pytest.mark.parametrize("case", list(ODD_FILES))
def test_an_odd_file_never_stops_the_store(dialect, case):
    root = store_with(dialect, {RECORD_PATH[dialect]: ODD_FILES[case](dialect)})
    for target, report in convert_everywhere(root, dialect).items():
        assert report.exit_code in (0, 3), f"{dialect}→{target}"
        assert len(report.files) > 2, "the rest of the store converts"
        if report.exit_code == 3:
            assert quarantined(report), "exit 3 names the quarantined file"


@pytest.mark.parametrize("source", ["claude", "memspec", "memfmt"])
def test_a_schema_version_of_another_dialect_comes_home_through_memoir(source):
    root = store_with(source, {RECORD_PATH[source]: record_file(source, "schema_version: 3\n")})
    store = dialects.get(source).read(root)
    report = Report(command="convert", input="x")
    plan = pipeline.plan(store, "memoir", report)
    assert not report.quarantined, "memoir writes no schema_version it cannot read back; the carry keeps it"
    # (the carry may quote the source's own line inside its JSON; no frontmatter key of memoir's says it)
    assert not any(line.startswith(b"schema_version:") for data in plan.files.values() for line in data.splitlines())


def test_a_key_memoir_would_read_as_a_number_is_quoted():
    root = store_with("memfmt", {RECORD_PATH["memfmt"]: record_file("memfmt", "1: x\ntrue: y\n", "# Odd\n")})
    store = dialects.get("memfmt").read(root)
    report = Report(command="convert", input="x")
    plan = pipeline.plan(store, "memoir", report)
    assert not report.quarantined
    text = b"".join(plan.files.values())
    assert b'"1": x' in text and b'"true": y' in text


def test_a_bare_memory_page_name_is_given_another_name_in_claude():
    root = store_with("memoir", {"memory/MEMORY-2.md": "just text\n"})
    reports = convert_everywhere(root, "memoir")
    assert reports["claude"].exit_code == 0
    assert any("MEMORY-2" in (f.source or "") and f.target not in ("MEMORY-2.md",) for f in reports["claude"].files)


def test_quarantine_never_overwrites_a_file_already_there():
    root = store_with("memoir", {"memory/fact_bad.md": b"\xff\xfe", ".memconv/quarantine/memory/fact_bad.md": "mine"})
    store = dialects.get("memoir").read(root)
    for target in dialects.available():
        report = Report(command="convert", input="x")
        files = pipeline.plan(store, target, report).files
        kept_at = report.quarantined[0]["kept_at"]
        assert files[kept_at] == b"\xff\xfe"
        assert b"mine" in files.values(), "the file already there is kept"
        if target == "memoir":
            assert kept_at == ".memconv/quarantine/memory/fact_bad-2.md"
            assert files[".memconv/quarantine/memory/fact_bad.md"] == b"mine"


@pytest.mark.parametrize("dialect,path", [("memoir", "memory/fact_a\\b.md"), ("claude", "project_a\\b.md"),
                                          ("memspec", ".memspec/memory/facts/a\\b.md")])
def test_a_backslash_in_a_name_is_quarantined_by_every_command(dialect, path, tmp_path):
    root = store_with(dialect, {path: record_file(dialect)})
    try:
        store = dialects.get(dialect).read(root)
        assert [q.path for q in store.quarantined] == [path]
        check = pipeline.check(root, dialect, Report(command="check", input=str(root)))
        assert any(path in e for e in check.errors), "check says what convert says"
    finally:
        import shutil
        shutil.rmtree(root)
    for target in dialects.available():
        report = Report(command="convert", input="x")
        files = pipeline.plan(store, target, report).files
        # (a .md copy in a Claude folder is named .md.kept, out of memoir-cli recall's reach: docs/claude.md)
        kept = fs.kept_name(dialects.quarantine_folder(target, store) + "/" + path.replace("\\", "%5C"),
                            dialects.declaration(target, "KEPT_SUFFIX"))
        assert report.quarantined[0]["kept_at"] == kept
        assert all("\\" not in p for p in files)


def test_a_backslash_in_a_memfmt_name_is_written_without_it():
    root = store_with("memfmt", {"memory/episodes/x\\y-ep.md": "---\nmemfmt_type: episode\nhappened: x\\y\n---\n\n# ep\n"})
    store = dialects.get("memfmt").read(root)
    report = Report(command="convert", input="x")
    files = pipeline.plan(store, "memfmt", report).files
    assert "memory/episodes/x-y-ep.md" in files and all("\\" not in p for p in files)
    assert any("x\\y-ep.md" in w and "Windows" in w for w in report.warnings)


NAME_CLASHES = {
    "case": ("Deploy", "deploy"),
    "normalisation": ("\u00e9t\u00e9", "e\u0301te\u0301"),
}


@pytest.mark.parametrize("clash", list(NAME_CLASHES))
@pytest.mark.parametrize("source,target", [("memoir", "memfmt"), ("memfmt", "memoir"), ("memfmt", "claude"),
                                           ("claude", "memfmt")])
def test_names_that_differ_only_in_case_or_normalisation_never_collide(clash, source, target):
    a, b = NAME_CLASHES[clash]
    if source == "memoir":
        files = {f"memory/fact_{i}.md": f"---\ntype: fact\nname: {n}\n---\nbody {i}\n" for i, n in enumerate((a, b))}
    elif source == "claude":
        files = {f"reference_{i}.md": f"---\nname: {n}\ndescription: d\ntype: reference\n---\nbody {i}\n"
                 for i, n in enumerate((a, b))}
    else:
        files = {f"memory/entities/e{i}.md": f"---\nmemfmt_type: entity\n---\n# {n}\n" for i, n in enumerate((a, b))}
    root = store_with(source, files, base=False)
    report = convert_everywhere(root, source)[target]
    store = dialects.get(source).read(store_with(source, files, base=False))
    written = pipeline.plan(store, target, Report(command="convert", input="x")).files
    folded = [unicodedata.normalize("NFC", p).casefold() for p in written]  # as macOS sees them
    assert len(folded) == len(set(folded)), sorted(written)
    assert report.exit_code == 0


def test_a_name_clash_is_said_in_the_report():
    files = {f"memory/fact_{i}.md": f"---\ntype: fact\nname: {n}\n---\nbody {i}\n" for i, n in enumerate(("Deploy", "deploy"))}
    report = convert_everywhere(store_with("memoir", files, base=False), "memoir")["memfmt"]
    assert any("deploy (2).md" in w and "case" in w for w in report.warnings)


def test_non_latin_names_are_kept():
    files = {"memory/fact_x.md": "---\ntype: fact\nname: 日本語\n---\nbody\n",
             "memory/fact_y.md": "---\ntype: fact\nname: 中文\n---\nbody2\n"}
    store = dialects.get("memoir").read(store_with("memoir", files, base=False))
    written = pipeline.plan(store, "memfmt", Report(command="convert", input="x")).files
    assert "memory/entities/日本語.md" in written and "memory/entities/中文.md" in written


def test_a_record_named_like_a_claude_index_page_gets_a_name_no_index_takes():
    from memconv.dialects import claude

    store = dialects.get("memoir").read(store_with("memoir", {"memory/fact_x.md": record_file("memoir")}, base=False))
    records = [r for r in store.records]
    for link in ("MEMORY", "MEMORY-2", "memory", "Memory-3"):
        record = records[0].__class__(kind="fact", link=link, title=link)
        files = claude.write(type(store)(dialect="x", records=[record]))
        names = [p for p in files if p != "MEMORY.md"]
        assert len(names) == 1 and not claude.index.is_index_path(names[0]), names


@pytest.mark.parametrize("command", [["check"], ["convert", "--from", "claude", "--to", "memoir"], ["migrate"],
                                     ["upgrade"]])
def test_every_command_sets_a_backslash_name_aside_and_goes_on(command, tmp_path):
    from click.testing import CliRunner

    from memconv.cli import main

    root = store_with("claude", {"project_a\\b.md": record_file("claude")})
    try:
        args = command + [str(root)] + ([] if command == ["check"] else [str(tmp_path / "out")])
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "project_a\\b.md" in result.output and "Windows" in result.output
        if command != ["check"]:
            assert result.exit_code in (0, 3)
            # (migrate writes a Claude folder, where a .md copy is named .md.kept: docs/claude.md; so does an upgrade,
            # whose folder Claude Code still loads in place)
            kept = "project_a%5Cb.md" + (".kept" if command in (["migrate"], ["upgrade"]) else "")
            assert (tmp_path / "out" / ".memconv" / "quarantine" / kept).is_file()
    finally:
        import shutil
        shutil.rmtree(root)
