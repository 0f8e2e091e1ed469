"""A file ``merge`` (or ``convert --into``) did not read is named, and the run exits 3.

The listing refuses a file over ``--max-file-size`` (or a link out of the folder) without reading
it. ``convert`` names it and exits 3; ``merge`` left it out of OUT in silence, exit 0, the report
saying nothing: a memory of A lost from the merged store. ``merge`` now names it as ``convert``
does, and takes ``--max-file-size`` and ``--max-depth`` so that such a file can be merged.
``convert --into`` kept such a file of EXISTING where it was but did not name it, though
docs/merge.md gives exit 3 for it.
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import tree, write_files
from .test_report_schema import validate

SMALL = b"---\nname: Small\ndescription: a small memory\ntype: user\n---\n\nhello\n"
LONG = b"---\nname: Long\ndescription: a long memory\ntype: user\n---\n\n" + b"a long line of memory\n" * 100
INDEX = b"# Memory Index\n\n- [Small](user_small.md) \xe2\x80\x94 a small memory\n"


def _stores(tmp_path):
    write_files(tmp_path / "a", {"MEMORY.md": INDEX, "user_small.md": SMALL, "user_long.md": LONG})
    write_files(tmp_path / "b", {"MEMORY.md": INDEX, "user_small.md": SMALL})
    return tmp_path / "a", tmp_path / "b"


def test_merge_names_a_file_of_a_it_did_not_read_and_exits_3(runner, tmp_path):
    a, b = _stores(tmp_path)
    result = runner.invoke(main, ["merge", "--max-file-size", "1K", "--json", str(a), str(b), str(tmp_path / "out")])
    # Watched fail without the refused files named: exit 0, "refused": [].
    assert result.exit_code == 3, result.output
    report = validate(result.stdout)  # the published schema holds
    [refused] = report["refused"]
    assert refused["path"] == str(a / "user_long.md") and "--max-file-size" in refused["reason"]
    assert "user_long.md" not in tree(tmp_path / "out")
    assert "1 refused" in result.stderr


def test_merge_takes_a_larger_limit_and_merges_the_file(runner, tmp_path):
    a, b = _stores(tmp_path)
    result = runner.invoke(main, ["merge", "--max-file-size", "64K", str(a), str(b), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "out")["user_long.md"] == LONG


def test_convert_into_names_a_file_of_existing_it_did_not_read(runner, tmp_path):
    a, existing = _stores(tmp_path)
    write_files(existing, {"user_long.md": LONG})
    before = tree(existing)
    write_files(tmp_path / "in", {"MEMORY.md": b"# Memory Index\n\n- [New](user_new.md) \xe2\x80\x94 new\n",
                                  "user_new.md": SMALL.replace(b"Small", b"New")})
    result = runner.invoke(main, ["convert", "--from", "claude", "--to", "claude", "--max-file-size", "1K", "--json",
                                  str(tmp_path / "in"), "--into", str(existing)])
    # Watched fail without EXISTING's refused files named: exit 0, "refused": [].
    assert result.exit_code == 3, result.output
    [refused] = validate(result.stdout)["refused"]
    assert refused["path"] == str(existing / "user_long.md") and refused["reason"].endswith("kept in EXISTING as it is")
    after = tree(existing)
    assert after["user_long.md"] == before["user_long.md"] and "user_new.md" in after


def test_convert_into_names_a_file_of_in_it_did_not_read(runner, tmp_path):
    a, existing = _stores(tmp_path)
    result = runner.invoke(main, ["convert", "--from", "claude", "--to", "claude", "--max-file-size", "1K", "--json",
                                  str(a), "--into", str(existing)])
    # Watched fail with the refused left out of MergeReport.settle_exit: exit 0.
    assert result.exit_code == 3, result.output
    [refused] = validate(result.stdout)["refused"]
    assert refused["path"] == "user_long.md" and "--max-file-size" in refused["reason"]
    assert "user_long.md" not in tree(existing)
