"""Every entry of IN memconv does not read is refused by name, never followed out of IN, never opened."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memconv import fs
from memconv.cli import main
from memconv.errors import ReadError

from .conftest import tree




def _hostile(root: Path, outside: Path) -> dict[str, str]:
    """Odd entries in ``root``, and a word each refusal must say."""
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("---\ntype: fact\nname: Secret\n---\noutside IN\n")
    os.mkfifo(root / "memory" / "fifo.md")
    (root / "memory" / "zero.md").symlink_to("/dev/zero")
    (root / "memory" / "loop.md").symlink_to("loop.md")
    (root / "memory" / "dangling.md").symlink_to("nowhere.md")
    (root / "memory" / "dir-link").symlink_to(outside)
    (root / "memory" / "out-link.md").symlink_to(outside / "secret.md")
    (root / "memory" / "back\\slash.md").write_text("---\ntype: fact\nname: B\n---\nb\n")
    (root / "memory" / "bell\x07.md").write_text("---\ntype: fact\nname: C\n---\nc\n")
    (root / os.fsdecode(b"memory/latin1-\xe9.md")).write_text("x")
    return {"memory/fifo.md": "FIFO", "memory/zero.md": "outside the store", "memory/loop.md": "loop",
            "memory/dangling.md": "dangling", "memory/dir-link": "outside the store",
            "memory/out-link.md": "outside the store",
            "memory/bell\\x07.md": "control character", "memory/latin1-\\xe9.md": "not valid UTF-8"}


@pytest.mark.parametrize("command", [["convert", "--to", "memfmt"], ["convert", "--to", "claude"],
                                     ["migrate"], ["check"], ["check", "--via", "memspec"]])
def test_every_odd_entry_is_refused_by_name_by_every_command(runner, store, tmp_path, command):
    # Verified by letting _scan skip what it refuses (no report): every assertion on names fails;
    # and by following links in list_files: out-link.md's "outside IN" text lands in OUT.
    expected = _hostile(store, tmp_path / "outside")
    before = {p: os.lstat(p).st_mtime_ns for p in map(str, store.rglob("*"))}
    writes = command[0] != "check"
    out = tmp_path / "out"
    result = runner.invoke(main, [*command, "--json", str(store), *([str(out)] if writes else [])])
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    refused = {r["path"]: r["reason"] for r in report["refused"]}
    for path, word in expected.items():
        assert path in refused and word in refused[path], (path, refused)
    # A '\\' is an ordinary character on POSIX: that file is read and quarantined, with a copy (docs/limits.md).
    assert "memory/back\\slash.md" not in refused
    assert any(q["path"] == "memory/back\\slash.md" and "\\" in q["reason"] for q in report["quarantined"]) \
        or any(e.startswith("memory/back\\slash.md: ") for e in report["errors"]), "named as set aside"
    assert result.exit_code == (3 if writes else 1)
    assert "byte-identical" not in result.stderr
    assert {p: os.lstat(p).st_mtime_ns for p in map(str, store.rglob("*"))} == before, "IN unchanged"
    if writes:
        assert not any(b"outside IN" in data for data in tree(out).values()), "no byte from outside IN"


def test_detect_names_every_entry_it_would_not_read(runner, store, tmp_path):
    # Verified by dropping the refusals from cli's detect: neither the report nor the words name them.
    expected = _hostile(store, tmp_path / "outside")
    result = runner.invoke(main, ["detect", "--json", str(store)])
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    refused = {r["path"]: r["reason"] for r in json.loads(result.stdout)["refused"]}
    for path, word in expected.items():
        assert path in refused and word in refused[path], (path, refused)
    said = runner.invoke(main, ["detect", str(store)])
    assert "refused memory/out-link.md: " in said.stdout and "outside the store" in said.stdout


@pytest.mark.parametrize("command", [["convert", "--to", "memfmt"], ["migrate"]])
def test_in_is_scanned_once_and_every_refusal_still_said(runner, store, tmp_path, monkeypatch, command):
    # Detection and the reader share one listing (fs.listings_kept). Verified by dropping listings_kept
    # from cli._convert or cli's migrate: fails with two scans of IN.
    expected = _hostile(store, tmp_path / "outside")
    scanned, real = [], fs._scan

    def scan(top, rel, *rest):
        if not rel:
            scanned.append(top)  # a listing of a whole folder (a sub-folder is scanned with its parent)
        return real(top, rel, *rest)

    monkeypatch.setattr(fs, "_scan", scan)
    result = runner.invoke(main, [*command, "--json", str(store), str(tmp_path / "out")])
    refused = {r["path"] for r in json.loads(result.stdout)["refused"]}
    assert scanned == [os.path.realpath(store)] and set(expected) <= refused, (scanned, refused)


def test_a_link_to_a_file_inside_in_is_read_as_that_file(store):
    (store / "memory" / "alias.md").symlink_to("fact_staging-endpoints.md")
    assert "memory/alias.md" in fs.list_files(store)
    assert fs.read_bytes(store, "memory/alias.md") == (store / "memory" / "fact_staging-endpoints.md").read_bytes()


def test_a_file_over_the_size_limit_is_refused_unread(runner, store, tmp_path):
    # Verified by raising the limit check to `>= 10 * limit`: the big file is read and converted.
    (store / "memory" / "big.md").write_bytes(b"---\ntype: fact\nname: Big\n---\n" + b"x" * 300_000)
    result = runner.invoke(main, ["convert", "--to", "claude", "--max-file-size", "200K", "--json",
                                  str(store), str(tmp_path / "out")])
    assert result.exit_code == 3
    [refused] = json.loads(result.stdout)["refused"]
    assert refused["path"] == "memory/big.md" and "--max-file-size" in refused["reason"]
    bad = runner.invoke(main, ["check", "--max-file-size", "lots", str(store)])
    assert bad.exit_code == 2
    assert fs.limits().max_file_size == fs.DEFAULT_MAX_FILE_SIZE == 64 * 1024 * 1024, "the limit does not leak"


def test_read_bytes_stops_at_the_limit_even_if_a_file_grows(tmp_path):
    (tmp_path / "grows.md").write_bytes(b"x" * 100)
    token = fs.set_limits(fs.Limits(max_file_size=50))
    try:
        with pytest.raises(ReadError, match="size limit"):
            fs.read_bytes(tmp_path, "grows.md")
        assert fs.read_bytes(tmp_path, "grows.md", head=10) == b"x" * 10
    finally:
        fs.reset_limits(token)


def test_read_bytes_never_opens_a_fifo_or_follows_a_link_out(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(ReadError, match="FIFO"):
        fs.read_bytes(tmp_path, "fifo")
    with pytest.raises(ReadError, match="out of the store"):
        fs.read_bytes(tmp_path, "zero")


def test_an_unreadable_file_and_folder_are_refused_by_name(runner, store, tmp_path, monkeypatch):
    # Verified by dropping the os.access test on files in _scan: locked.md is listed, not refused.
    (store / "memory" / "locked.md").write_text("---\ntype: fact\nname: L\n---\nx\n")
    (store / "private").mkdir()
    (store / "private" / "inside.md").write_text("x")
    os.chmod(store / "memory" / "locked.md", 0o000)
    os.chmod(store / "private", 0o000)
    if os.geteuid() == 0:
        # root reads whatever the mode (and the venv under /root cannot be run as another user), so
        # the kernel's "permission denied" is played by os.access for these two entries.
        locked = {str(store / "memory" / "locked.md"), str(store / "private")}
        real_access = os.access
        monkeypatch.setattr(fs.os, "access", lambda path, mode: str(path) not in locked and real_access(path, mode))
    try:
        result = runner.invoke(main, ["convert", "--to", "claude", "--json", str(store), str(tmp_path / "out")])
    finally:
        monkeypatch.undo()
        os.chmod(store / "private", 0o755)
        os.chmod(store / "memory" / "locked.md", 0o644)
    assert "Traceback" not in result.stderr
    refused = {r["path"]: r["reason"] for r in json.loads(result.stdout)["refused"]}
    assert result.exit_code == 3
    assert "permission denied" in refused["memory/locked.md"]
    assert "permission denied" in refused["private"]


def test_a_file_a_reader_looks_up_by_name_may_be_a_hostile_link(runner, store, tmp_path):
    # Verified by reading session.json with read_bytes in memoir.detect: the run stops, exit 4.
    (store / "session.json").unlink()
    (store / "session.json").symlink_to("/etc/passwd")
    result = runner.invoke(main, ["convert", "--to", "claude", "--json", str(store), str(tmp_path / "out")])
    assert result.exit_code == 3, result.stderr
    assert [r["path"] for r in json.loads(result.stdout)["refused"]] == ["session.json"]
    assert not any(b"root:" in data for data in tree(tmp_path / "out").values())


def test_an_in_that_squats_memconvs_own_names_is_refused_not_a_collision(runner, store, tmp_path):
    # Verified by dropping the .memconv test in _scan: the run stops, "two outputs collide".
    (store / ".memconv").mkdir()
    (store / ".memconv" / "manifest.json").mkdir()
    (store / ".memconv" / "manifest.json" / "x.md").write_text("x")
    result = runner.invoke(main, ["convert", "--to", "claude", "--json", str(store), str(tmp_path / "out")])
    assert result.exit_code == 3, result.stderr
    assert [r["path"] for r in json.loads(result.stdout)["refused"]] == [".memconv/manifest.json"]


@pytest.mark.parametrize("args", [["convert", "--from", "memspec", "--to", "memoir"], ["detect"]])
def test_a_store_folder_linked_out_of_in_is_not_listed(runner, tmp_path, args):
    # Verified by dropping the confinement test in list_files: the outside secret lands in OUT.
    (tmp_path / "outside" / "memory" / "facts").mkdir(parents=True)
    (tmp_path / "outside" / "memory" / "facts" / "secret.md").write_text(
        "---\nid: ms_01HZZZZZZZZZZZZZZZZZZZZZZZ\nkind: fact\n---\nSECRET-OUTSIDE\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / ".memspec").symlink_to(tmp_path / "outside")
    out = tmp_path / "out"
    result = runner.invoke(main, [*args, str(tmp_path / "in"), *([str(out)] if args[0] == "convert" else [])])
    assert "Traceback" not in result.stderr and "SECRET" not in result.stdout
    if args[0] == "detect":  # said, not described as a store with no records and no reason
        assert "refused .memspec: " in result.output and "outside the store" in result.output
    if out.exists():
        assert not any(b"SECRET-OUTSIDE" in data for data in tree(out).values())
