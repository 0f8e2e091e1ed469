"""The public Python API (docs/api.md): its examples run, and it keeps the CLI's promises."""

from __future__ import annotations

import doctest
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import memconv
from memconv import fs
from memconv.errors import MemconvError, OutputError, StoreError, UsageError, WrongDialect

from .conftest import GOLDEN, tree

ROOT = Path(__file__).resolve().parent.parent
CLAUDE = GOLDEN / "claude" / "mixed-project" / "input"
MEMOIR = GOLDEN / "memoir" / "canonical" / "input"


def test_the_examples_in_docs_api_md_run(monkeypatch, tmp_path):
    # Verified by changing an expected value in docs/api.md: fails with "1 of 25 examples failed".
    monkeypatch.chdir(ROOT)  # the examples name the bundled stores by their repository paths
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the examples' mkdtemp folders go with the test
    failed, attempted = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                         optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert attempted >= 20, "docs/api.md holds the examples"
    assert failed == 0, f"{failed} of {attempted} examples in docs/api.md failed (see the output above)"


def test_every_public_name_resolves_and_import_stays_cheap():
    for name in memconv.__all__:
        assert getattr(memconv, name) is not None, name
    assert {"read_store", "convert", "write_store", "detect", "check", "merge"} <= set(memconv.__all__)
    # `import memconv` loads none of the machinery (click, yaml, the dialects): the API loads it on use.
    done = subprocess.run([sys.executable, "-c", "import sys, memconv; "
                           "print(sorted(m for m in sys.modules if m.startswith(('memconv.', 'click', 'yaml'))))"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_str_and_path_give_the_same_store_and_the_same_files():
    by_str = memconv.convert(memconv.read_store(str(MEMOIR)), to="claude")
    by_path = memconv.convert(memconv.read_store(MEMOIR, dialect="memoir"), to="claude")
    assert by_str.files == by_path.files and by_str.files
    assert memconv.detect(str(CLAUDE)).dialect == memconv.detect(CLAUDE).dialect == "claude"


def test_write_store_writes_what_the_cli_writes(tmp_path):
    from click.testing import CliRunner

    from memconv.cli import main

    memconv.write_store(memconv.convert(memconv.read_store(CLAUDE), to="memspec"), tmp_path / "api")
    result = CliRunner().invoke(main, ["claude-to-memspec", str(CLAUDE), str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "api") == tree(tmp_path / "cli"), "the same files, manifest included"


def test_write_store_converts_a_store_given_with_to(tmp_path):
    report = memconv.write_store(memconv.read_store(MEMOIR), tmp_path / "out", to="memfmt")
    assert report.written and report.target_dialect == "memfmt"
    assert memconv.detect(tmp_path / "out").dialect == "memfmt"
    with pytest.raises(UsageError, match="converted to memfmt, not memspec"):
        memconv.write_store(memconv.convert(memconv.read_store(MEMOIR), "memfmt"), tmp_path / "x", to="memspec")


def test_write_store_is_all_or_nothing(tmp_path, monkeypatch):
    # Verified by making write_store write file by file into OUT: fails, OUT exists half-written.
    converted = memconv.convert(memconv.read_store(CLAUDE), to="memoir")
    real = fs._write_one
    calls = []

    def dies_on_the_third_file(full, data):
        calls.append(full)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(full, data)

    monkeypatch.setattr(fs, "_write_one", dies_on_the_third_file)
    with pytest.raises(OSError):
        memconv.write_store(converted, tmp_path / "out")
    assert not (tmp_path / "out").exists(), "OUT is absent, not half-written"
    assert list(tmp_path.iterdir()) == [], "no temporary folder is left beside it"


def test_write_store_replaces_only_what_memconv_wrote(tmp_path):
    converted = memconv.convert(memconv.read_store(CLAUDE), to="memoir")
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.md").write_text("mine")
    with pytest.raises(OutputError, match="folder is not empty"):
        memconv.write_store(converted, out)
    with pytest.raises(OutputError, match="holds what memconv did not write: mine.md"):
        memconv.write_store(converted, out, force=True)
    assert tree(out) == {"mine.md": b"mine"}, "nothing was changed"
    (out / "mine.md").unlink()
    assert memconv.write_store(converted, out).written
    before = tree(out)
    report = memconv.write_store(converted, out, force=True, dry_run=True)
    assert report.dry_run and not report.written and tree(out) == before


def test_check_says_whether_a_round_trip_keeps_the_store(tmp_path):
    out = tmp_path / "out"
    memconv.write_store(memconv.convert(memconv.read_store(MEMOIR), "memoir"), out)
    assert memconv.check(out).exit_code == 0
    assert memconv.check(CLAUDE, via="memfmt").exit_code == 0
    (out / "memory" / "fact_broken.md").write_bytes(b"---\ntype: fact\nname: never closed\nbody\n")
    report = memconv.check(out, dialect="memoir")
    assert report.exit_code == 1, "a file the round trip cannot keep is a difference"
    assert any("fact_broken.md" in e for e in report.errors)


def test_merge_takes_stores_or_folders():
    a, b = memconv.read_store(CLAUDE), memconv.read_store(GOLDEN / "claude" / "canonical" / "input")
    by_store = memconv.merge(a, b)
    by_path = memconv.merge(str(CLAUDE), GOLDEN / "claude" / "canonical" / "input")
    assert by_store.files == by_path.files and by_store.outcomes
    with pytest.raises(MemconvError, match="cannot merge a claude store with a memoir store"):
        memconv.merge(CLAUDE, MEMOIR)


@pytest.mark.parametrize("call, error, words", [
    (lambda: memconv.read_store("/no/such/folder"), StoreError, "no such folder"),
    (lambda: memconv.read_store(""), UsageError, "path is empty"),
    (lambda: memconv.read_store(42), UsageError, "must be a path"),
    (lambda: memconv.read_store(CLAUDE, dialect="memspec"), WrongDialect, "not a memspec store"),
    (lambda: memconv.read_store(CLAUDE, dialect="yaml"), StoreError, "unknown dialect 'yaml'"),
    (lambda: memconv.detect(CLAUDE / "MEMORY.md"), StoreError, "not a folder"),
    (lambda: memconv.check(CLAUDE, via="toml"), StoreError, "unknown dialect 'toml'"),
    (lambda: memconv.convert("not a store", "memoir"), UsageError, "takes a store read by read_store"),
    (lambda: memconv.convert(memconv.read_store(MEMOIR), "memfmt", date="tuesday"), UsageError, "not a date"),
])
def test_errors_are_memconv_errors_that_say_what_to_do(call, error, words):
    with pytest.raises(error) as caught:
        call()
    assert words in caught.value.message
    assert caught.value.hint, "every error says what to do"


def test_an_unreadable_file_is_quarantined_not_raised(tmp_path):
    store = tmp_path / "store"
    (store / "memory").mkdir(parents=True)
    for entry in (MEMOIR / "memory").glob("*.md"):
        (store / "memory" / entry.name).write_bytes(entry.read_bytes())
    (store / "memory" / "fact_broken.md").write_bytes(b"---\ntype: fact\nname: never closed\nbody\n")
    read = memconv.read_store(store)
    assert [q.path for q in read.quarantined] == ["memory/fact_broken.md"]
    converted = memconv.convert(read, "claude")
    assert converted.report.exit_code == 3 and converted.report.quarantined
    assert any(p.startswith(".memconv/quarantine/") for p in converted.files)


def test_the_program_tunes_the_garbage_collector_and_the_library_leaves_it_alone():
    # docs/performance.md: a conversion's records hold no cycles, so the program collects less often.
    # Verified by setting the thresholds in memconv.cli instead of _entry: the library half fails.
    script = ("import gc, sys\nfrom memconv import _entry\nsys.argv = ['memconv', '--version']\n"
              "try:\n    _entry.main()\nexcept SystemExit:\n    pass\n"
              "print(gc.get_threshold() == _entry.GC_THRESHOLDS, gc.get_freeze_count() > 0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip().splitlines()[-1] == "True True", done.stdout + done.stderr
    library = subprocess.run([sys.executable, "-c", "import gc; t = gc.get_threshold(); import memconv.cli, "
                              "memconv.api; print(gc.get_threshold() == t, gc.get_freeze_count() == 0)"],
                             capture_output=True, text=True, cwd=ROOT, check=True)
    assert library.stdout.strip() == "True True", library.stdout + library.stderr


_MAPPED_PROBE = """
import ctypes, sys
from memconv import _entry
class Info(ctypes.Structure):  # glibc's struct mallinfo2
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
if sys.argv[1] == "program":
    sys.argv = ["memconv", "--version"]
    try:
        _entry.main()
    except SystemExit:
        pass
freed = bytes(24 << 20)  # freed, it raises glibc's own threshold to 24 MB
del freed
mapped = libc.mallinfo2().hblkhd
block = bytearray(5 << 20)
print(libc.mallinfo2().hblkhd - mapped >= (5 << 20))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc"
                    or tuple(int(n) for n in platform.libc_ver()[1].split(".")[:2]) < (2, 33),
                    reason="glibc's allocator setting (mallopt; mallinfo2 from glibc 2.33); elsewhere the program "
                           "leaves the allocator alone")
def test_the_program_maps_a_large_block_on_its_own_and_the_library_leaves_the_allocator_alone():
    # docs/performance.md: a block of a megabyte or more (a store note's bytes growing) is mapped on its own,
    # not made in the heap and copied out; the library does not touch a caller's allocator.
    # Verified by dropping the call in _entry.main: the program half printed False.
    def probe(who: str) -> str:
        done = subprocess.run([sys.executable, "-c", _MAPPED_PROBE, who], capture_output=True, text=True,
                              cwd=ROOT, check=True)
        return done.stdout.strip().splitlines()[-1]

    assert probe("program") == "True"
    assert probe("library") == "False"
