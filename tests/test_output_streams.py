"""The output is a stream: files are rendered one at a time and written as they come, never all held at once,
and the input is held once, as records, its bytes read again from IN when a file is kept as written
(issue 12, item 1: bounded memory; docs/performance.md)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memconv import fs, pipeline
from memconv.dialects import memoir
from memconv.errors import OutputError, StoreError
from memconv.model import Pieces
from memconv.report import Report

from .conftest import GOLDEN, tree


@pytest.fixture
def store_root(tmp_path):
    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", root)
    return root


def test_files_are_rendered_as_the_stream_is_read(store_root, monkeypatch):
    rendered = []
    real = memoir.write_entry

    def counting(record):
        rendered.append(record.link)
        return real(record)

    monkeypatch.setattr(memoir, "write_entry", counting)
    store = pipeline.read(store_root, "memoir")
    plan = pipeline.plan(store, "memoir", Report(command="migrate", input=str(store_root)), jobs=1)
    assert rendered == [], "planning renders nothing"
    stream = plan.iter_files()
    next(stream)
    assert len(rendered) == 1, "one file read from the stream, one record rendered"
    rest = list(stream)
    assert len(rendered) == len(store.records) and len(rest) >= len(store.records) - 1


def test_the_stream_and_the_dict_are_the_same_files(store_root):
    for target in ("memoir", "claude", "memspec", "memfmt"):
        store = pipeline.read(store_root, "memoir")
        streamed = list(pipeline.plan(store, target, Report(command="convert", input="in"), jobs=1).iter_files())
        assert len({p for p, _ in streamed}) == len(streamed), "each path once"
        again = pipeline.read(store_root, "memoir")
        assert dict(streamed) == pipeline.plan(again, target, Report(command="convert", input="in"), jobs=1).files


def test_a_stream_is_written_with_its_manifest(tmp_path):
    files = {"a.md": b"one\n", "sub/b.md": b"two\n"}
    fs.write_tree(iter(files.items()), tmp_path / "out")
    assert tree(tmp_path / "out") == files
    assert (tmp_path / "out" / fs.MANIFEST).read_bytes() == fs.manifest(files)


def test_a_stream_that_fails_half_way_leaves_nothing(tmp_path):
    def files():
        yield "a.md", b"written first\n"
        raise StoreError("the renderer failed")

    with pytest.raises(StoreError):
        fs.write_tree(files(), tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert os.listdir(tmp_path) == [], "no staging folder is left beside OUT"


def test_a_stream_cannot_bring_its_own_manifest(tmp_path):
    with pytest.raises(OutputError, match="manifest"):
        fs.write_tree(iter([("a.md", b"x"), (fs.MANIFEST, b"{}")]), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_input_is_held_once(store_root):
    store = pipeline.read(store_root, "memoir")
    assert store.records and all(r.source.raw_in_memory is None for r in store.records), \
        "the bytes are not kept beside the records"
    record = store.records[0]
    assert record.source.raw == (store_root / record.source.path).read_bytes(), "asked for, they are read again"


def test_a_source_says_whether_bytes_are_its_files_without_reading_it_again(store_root, monkeypatch):
    store = pipeline.read(store_root, "memoir")
    source = store.records[0].source
    data = (store_root / source.path).read_bytes()
    monkeypatch.setattr(fs, "read_bytes", lambda *a: pytest.fail("the file was read again"))
    # Verified by making Source.holds compare with self.raw: fails with "the file was read again".
    assert source.holds(data)
    assert not source.holds(data + b"\n") and not source.holds(data[:-1] + b"?")


@pytest.mark.parametrize("dialect, base", [("memoir", "memoir/canonical"), ("claude", "claude/canonical"),
                                           ("memfmt", "memfmt/full")])
def test_a_format_patch_reads_no_file_again_and_renders_no_index(dialect, base, tmp_path, monkeypatch):
    from memconv import dialects
    from memconv.converters import format_patch

    root = tmp_path / "in"
    shutil.copytree(GOLDEN / base / "input", root)
    store = pipeline.read(root, dialect)
    module, stream, read_again = dialects.get(dialect), dialects.get(dialect).iter_write, []
    monkeypatch.setattr(fs, "read_bytes", lambda *a: read_again.append(a[-1]) or (root / a[-1]).read_bytes())

    def no_index(store, render=None, context=None):
        for path, data in stream(store, render, context=context):
            assert not path.endswith("MEMORY.md"), f"{path}: an index rendered for a format patch"
            yield path, data

    monkeypatch.setattr(module, "iter_write", no_index)
    # Verified by dropping records_only in format_patch._canonical: fails with "an index rendered"; by
    # comparing with source.raw there: fails with the canonical files in read_again.
    patched = format_patch.patches({dialect: list(store.records)})
    assert set(read_again) == {r.source.path for r in store.records if id(r) in patched}, \
        "only a file that needs a patch is read again"


@pytest.mark.parametrize("fails", [False, True], ids=["written", "writer fails"])
def test_a_format_patch_renders_the_records_themselves_and_gives_their_sources_back(fails, tmp_path, monkeypatch):
    # The group is rendered with each source set aside, not as copies (a kilobyte per record at the
    # peak). Verified by dropping the ``finally`` in format_patch.sources_aside: the failing writer leaves
    # records with no source; by not setting the sources aside: the writer sees them.
    from memconv import dialects
    from memconv.converters import format_patch
    from memconv.errors import StoreError

    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir/canonical/input", root)
    store = pipeline.read(root, "memoir")
    sources = {id(r): r.source for r in store.records}
    module, stream, seen = dialects.get("memoir"), dialects.get("memoir").iter_write, []

    def watched(store, render=None, context=None):
        for n, (path, data) in enumerate(stream(store, render, context=context)):
            seen.extend(r.source for r in store.records)
            if fails and n == 1:
                raise StoreError("the writer stops here")
            yield path, data

    monkeypatch.setattr(module, "iter_write", watched)
    patched = format_patch.patches({"memoir": list(store.records)})
    assert seen and all(source is None for source in seen), "the writer rendered each record anew"
    assert all(r.source is sources[id(r)] for r in store.records), "every record has its own source again"
    if fails:
        assert len(patched) == len(store.records), "a writer that fails: no record is taken as canonical"


@pytest.mark.parametrize("fails", [False, True], ids=["compared", "writer fails"])
def test_an_index_is_compared_with_the_records_themselves_and_their_sources_come_back(fails, tmp_path,
                                                                                       monkeypatch):
    # The index a claude writer would generate is made from the records with their sources set aside
    # (format_patch.sources_aside), not from copies of them. Verified by dropping the ``finally`` in
    # sources_aside: the failing writer leaves records with no source; by not setting them aside: the
    # writer sees them.
    from memconv import dialects
    from memconv.converters import carried_indexes
    from memconv.errors import StoreError

    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "claude/canonical/input", root)
    store = pipeline.read(root, "claude")
    sources = {id(r): r.source for r in store.records}
    module, generate, seen = dialects.get("claude"), dialects.get("claude").generated_index, []

    def watched(probe):
        seen.extend(r.source for r in probe.records)
        if fails:
            raise StoreError("the writer stops here")
        return generate(probe)

    monkeypatch.setattr(module, "generated_index", watched)
    if fails:
        with pytest.raises(StoreError):
            carried_indexes(store, own=True)
    else:
        assert carried_indexes(store, own=True) == [], "the canonical index is only a rendering of its records"
    assert len(seen) == len(store.records) and all(source is None for source in seen), \
        "the writer saw each record as one to write anew"
    assert all(r.source is sources[id(r)] for r in store.records), "every record has its own source again"


def test_a_file_changed_after_it_was_read_is_an_error_naming_it(store_root, tmp_path):
    store = pipeline.read(store_root, "memoir")
    kept = store.records[0].source.path
    (store_root / kept).write_bytes((store_root / kept).read_bytes() + b"\nedited meanwhile\n")
    plan = pipeline.plan(store, "memoir", Report(command="migrate", input=str(store_root)), jobs=1)
    with pytest.raises(StoreError, match="changed since memconv read it") as caught:
        fs.write_tree(plan.iter_files(), tmp_path / "out")
    assert kept in str(caught.value)
    assert not (tmp_path / "out").exists(), "nothing written: never other bytes than those read"


def test_a_file_removed_after_it_was_read_is_an_error_naming_it(store_root):
    store = pipeline.read(store_root, "memoir")
    kept = store.records[0].source.path
    (store_root / kept).unlink()
    with pytest.raises(StoreError, match="could not be read again"):
        store.records[0].source.raw


def test_a_plan_counts_its_files_without_rendering_them(store_root, monkeypatch):
    # The progress bar's total: counting by paths() rendered the whole store once more.
    # Verified by making count() call paths(): the rendered list is then not empty.
    rendered = []
    real = memoir.write_entry
    monkeypatch.setattr(memoir, "write_entry", lambda record: rendered.append(record.link) or real(record))
    for root in sorted(GOLDEN.glob("*/*/input")):
        source = root.parent.parent.name
        for target in ("memoir", "claude", "memspec", "memfmt"):
            store = pipeline.read(root, source)
            plan = pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=1)
            rendered.clear()
            counted = plan.count()
            assert rendered == [], "counting renders nothing"
            files = len(plan.paths())
            assert files - 3 <= counted <= files, (source, target, counted, files)


def test_notes_are_rendered_when_written_not_held(tmp_path):
    # A record another dialect cannot hold live becomes a note: its bytes are made when the
    # note is written, from the record the conversion holds anyway.
    # Verified by rendering the note in notes.write again: the held bytes are then not empty.
    from memconv import converters

    root = GOLDEN / "memspec" / "current-every-field" / "input"
    store = pipeline.read(root, "memspec")
    out = converters.run(store, "memoir").store
    notes = [f for f in out.foreign if "kept as a note" in f.why or "cannot mark" in f.why or "no home" in f.why]
    assert notes, "this golden memspec store has records memoir keeps as notes"
    for note in notes:
        assert note._raw == b"", f"{note.path}: no bytes held before it is written"
        assert note.raw.startswith(b"---\n") and note.raw == note.raw, "the same bytes each time it is asked"


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1), st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
                       max_size=6))
def test_the_manifest_made_line_by_line_is_what_json_gives(hashes):
    # Made a line at a time, so that a 100,000-file manifest is not held five times over; its bytes stay
    # those of json.dumps(indent=2), which readers and earlier outputs have.
    doc = {"memconv": {"manifest": 1, "note": "what memconv wrote here; --force replaces only this"},
           "files": {path: hashes[path] for path in sorted(hashes)}}
    assert fs.manifest_of(hashes) == (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), st.integers(1, 7))
def test_a_text_from_bytes_is_encoded_as_its_decoded_text(text, piece):
    # A carried file's text is decoded a slice at a time, slices cut anywhere in a character's bytes: the
    # JSON is that of the text decoded whole.
    from memconv.converters import codec

    data = text.encode("utf-8")
    old, codec._PIECE = codec._PIECE, piece
    try:
        pieces = "".join(codec.json_pieces({"raw": {"MEMORY.md": codec.TextOfBytes(lambda: data)}}))
    finally:
        codec._PIECE = old
    assert pieces == codec.compact_json({"raw": {"MEMORY.md": text}})


def test_a_text_from_bytes_that_is_not_utf8_fails_as_decoding_it_would():
    from memconv.converters import codec

    with pytest.raises(UnicodeDecodeError):
        "".join(codec.json_pieces(codec.TextOfBytes(lambda: b"ok \xff")))


def test_a_manifest_of_many_files_made_in_pieces_is_what_json_gives():
    # Made in pieces of about 64 KB (written as they are made): the pieces join to json.dumps(indent=2)'s bytes.
    hashes = {f"memory/fact_{i}é.md": f"{i:064x}" for i in range(5000)}
    doc = {"memconv": {"manifest": 1, "note": "what memconv wrote here; --force replaces only this"},
           "files": {path: hashes[path] for path in sorted(hashes)}}
    pieces = list(fs._manifest_pieces(hashes))
    assert len(pieces) > 3 and b"".join(pieces) == (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
       st.lists(st.integers(0, 60), max_size=5))
def test_a_text_from_bytes_read_in_pieces_is_encoded_as_its_decoded_text(text, cuts):
    # The bytes of a file read again a megabyte at a time (fs.OnDisk.pieces), cut anywhere in a character's bytes.
    from memconv.converters import codec

    data = text.encode("utf-8")
    edges = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    chunks = [data[a:b] for a, b in zip(edges, edges[1:])]
    assert "".join(codec.json_pieces(codec.TextOfBytes(lambda: iter(chunks)))) == codec.compact_json(text)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "é", "Z", "sub/x", "sub/é", "0"]), st.binary(max_size=40)),
                min_size=1, max_size=7, unique_by=lambda pair: pair[0]),
       st.randoms(use_true_random=False))
def test_files_streamed_in_any_order_are_listed_sorted_with_their_sha256(tmp_path_factory, pairs, random):
    # The stream's digests wait for the manifest packed in one buffer (docs/performance.md, "(thirty-fifth)"); the
    # manifest is the one made of the files whole. Half the files come in pieces, digested as they are written.
    files = {f"{name}.md": data for name, data in pairs}
    order = list(files.items())
    random.shuffle(order)
    stream = [(path, Pieces(lambda data=data: [data[:3], data[3:]]) if n % 2 else data)
              for n, (path, data) in enumerate(order)]
    out = tmp_path_factory.mktemp("out") / "out"
    fs.write_tree(iter(stream), out)
    assert (out / fs.MANIFEST).read_bytes() == fs.manifest(files)
    listed = json.loads((out / fs.MANIFEST).read_text(encoding="utf-8"))["files"]
    assert list(listed) == sorted(files)
    assert listed == {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
