"""On the command line, the store note and the manifest are written a piece at a time as they are made, never held
whole: at 100,000 entries a Claude store's note is 23 MB and the manifest 11 MB, both made at the run's end, its
peak (docs/performance.md, "(thirty-first)"). The files are the bytes a whole rendering gives, the manifest names
each by its SHA-256, and a note over ``--max-file-size`` is said to be, with its size."""

from __future__ import annotations

import hashlib
import json
import os

from memconv import fs, pipeline
from memconv.cli import main
from memconv.model import Pieces
from memconv.report import Report

from .bench_support import bench_module

NOTE = ".memconv/notes/store.md"


def _claude(tmp_path, n):
    return bench_module("generators").make("claude", tmp_path / "claude", n)


def test_the_store_note_and_the_manifest_reach_the_disk_in_pieces(tmp_path, runner, monkeypatch):
    # Watched fail with the command line writing outside written_in_pieces: the note came whole, as bytes.
    src, out = _claude(tmp_path, 40), tmp_path / "out"
    given = {}
    real = fs._write_one

    def spy(full, data):
        given[os.path.relpath(full, os.path.dirname(os.path.dirname(os.path.dirname(full))))] = data.__class__
        return real(full, data)

    monkeypatch.setattr(fs, "_write_one", spy)
    result = runner.invoke(main, ["claude-to-memoir", str(src), str(out), "-q"])
    assert result.exit_code == 0, result.output
    kinds = {path.split(os.sep)[-1]: kind for path, kind in given.items()}
    assert kinds["store.md"] is Pieces and kinds["manifest.json"] is Pieces
    assert {kind for name, kind in kinds.items() if name not in ("store.md", "manifest.json")} == {bytes}


def test_files_written_in_pieces_are_the_bytes_of_a_whole_rendering(tmp_path, runner):
    # Watched fail with _and_manifest naming a file in pieces by another digest than its bytes'.
    src, out = _claude(tmp_path, 400), tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memoir", str(src), str(out), "-q"])
    assert result.exit_code == 0, result.output
    whole = pipeline.plan(pipeline.read(src, "claude"), "memoir", Report(command="convert", input=str(src)),
                          jobs=1).files
    assert NOTE in whole and len(whole[NOTE]) > 1 << 16, "a note of more than one piece"
    on_disk = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert on_disk.pop(fs.MANIFEST) == fs.manifest(whole)
    assert on_disk == whole
    listed = json.loads((out / fs.MANIFEST).read_text())["files"]
    assert listed[NOTE] == hashlib.sha256(whole[NOTE]).hexdigest()
    again = runner.invoke(main, ["claude-to-memoir", "--force", str(src), str(out), "-q"])
    assert again.exit_code == 0, "the manifest says OUT is memconv's: --force replaces it"


def test_a_store_note_over_the_size_limit_is_said_to_be_with_its_size(tmp_path, runner):
    # Watched fail with the size of a file in pieces never looked at: no word of it.
    src, out = _claude(tmp_path, 400), tmp_path / "out"
    result = runner.invoke(main, ["claude-to-memoir", "--max-file-size", "64K", "--json", str(src), str(out)])
    assert result.exit_code == 0, result.stderr
    size = (out / NOTE).stat().st_size
    assert size > 64 * 1024, "the test needs a note written over the limit"
    said = [n for n in json.loads(result.stdout)["notices"] if n["kind"] == "over-the-size-limit"]
    assert [n["message"] for n in said] == [
        f"written at {size:,} bytes, larger than the size limit memconv reads ({64 * 1024:,} bytes): to convert OUT "
        "again, or to --diff a change of this file, give --max-file-size 1M"], said
    assert NOTE in json.dumps(said[0])


def test_a_file_in_pieces_passed_on_unwritten_is_memconvs_bug():
    # Watched fail with _and_manifest taking a file in pieces it has no digest of yet: the manifest named it None.
    import pytest

    from memconv.errors import StoreError

    stream = fs._and_manifest([("a.md", Pieces(lambda: [b"x"])), ("b.md", b"y")])
    assert next(stream)[0] == "a.md"
    with pytest.raises(StoreError, match="before this one was written"):
        next(stream)
    written = fs._and_manifest([("a.md", Pieces(lambda: [b"x"]))])
    path, data = next(written)
    assert b"".join(data) == b"x" and bytes(data) == b"x" and data.size == 1
    assert json.loads(b"".join(next(written)[1]))["files"] == {"a.md": hashlib.sha256(b"x").hexdigest()}


def test_a_file_kept_on_disk_is_read_again_in_pieces_and_checked(tmp_path):
    # Watched fail with OnDisk.pieces not comparing the digest: the edited bytes went into the note in silence.
    import pytest

    from memconv.errors import StoreError

    (tmp_path / "MEMORY.md").write_bytes(b"- [A](a.md)\n" * 1000)
    on_disk = fs.OnDisk(str(tmp_path), "MEMORY.md", (tmp_path / "MEMORY.md").read_bytes())
    pieces = list(on_disk.pieces(size=4096))
    assert len(pieces) == 3 and b"".join(pieces) == (tmp_path / "MEMORY.md").read_bytes()
    for edited in (b"- [B](a.md)\n" * 1000, b"- [A](a.md)\n" * 1001, b"- [A](a.md)\n" * 999):
        (tmp_path / "MEMORY.md").write_bytes(edited)
        with pytest.raises(StoreError, match="MEMORY.md: changed since memconv read it"):
            b"".join(on_disk.pieces(size=4096))
    (tmp_path / "MEMORY.md").unlink()
    with pytest.raises(StoreError, match="could not be read again"):
        b"".join(on_disk.pieces())


def test_an_index_changed_before_its_store_note_is_written_stops_the_run_and_writes_nothing(tmp_path, runner,
                                                                                           monkeypatch):
    # The index is read again for its store note, a megabyte at a time, at the run's end.
    from memconv.converters import notes

    src, out = _claude(tmp_path, 40), tmp_path / "out"
    real = notes._store_note_lines

    def edited_meanwhile(indexes):
        (src / "MEMORY.md").write_bytes((src / "MEMORY.md").read_bytes().replace(b"note", b"nope"))
        return real(indexes)

    monkeypatch.setattr(notes, "_store_note_lines", edited_meanwhile)
    result = runner.invoke(main, ["claude-to-memoir", str(src), str(out)])
    assert result.exit_code != 0 and "MEMORY.md: changed since memconv read it" in result.stderr
    assert not out.exists(), "nothing written"


def test_the_index_carried_in_the_store_note_is_read_again_in_pieces_only(tmp_path, runner, monkeypatch):
    # Watched fail with the note's raw text taken from Source.raw: MEMORY.md was read again whole (11 MB at 100,000).
    src, out = _claude(tmp_path, 40), tmp_path / "out"
    whole, pieces = [], []
    real_call, real_pieces = fs.OnDisk.__call__, fs.OnDisk.pieces
    monkeypatch.setattr(fs.OnDisk, "__call__", lambda self: whole.append(self.path) or real_call(self))
    monkeypatch.setattr(fs.OnDisk, "pieces", lambda self, *a: pieces.append(self.path) or real_pieces(self, *a))
    result = runner.invoke(main, ["claude-to-memoir", str(src), str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert pieces == ["MEMORY.md"] and "MEMORY.md" not in whole
