"""An index lists every memory with the memory's own words: Claude Code writes a memory's name as its
``MEMORY.md`` line's title, its description as the hook, and links its file by name; memfmt's index links each
entity by its title. Read, each line holds the text its memory's record holds, one copy for the two, to the end of a
conversion (docs/performance.md, "(thirty-fifth)"); a line that says something else keeps its own words, and the
store reads and writes back byte for byte."""

from __future__ import annotations

from memconv import dialects, fs, pipeline
from memconv.converters.forward import unformatted

from .bench_support import bench_module


def _links(store) -> dict[str, object]:
    return {link.target: link for index in store.indexes for section in index.sections for link in section.links}


def test_a_claude_index_line_holds_its_memorys_name_description_and_file_name(tmp_path):
    # Watched fail with the reader's _shared left out: every line held copies of its own.
    root = bench_module("generators").make("claude", tmp_path / "claude", 30)
    for store in (pipeline.read(root, "claude"), pipeline.read(root, "claude", each=unformatted)):
        links = _links(store)
        assert len(store.records) == 30 and len(links) == 30
        for record in store.records:
            link = links[record.source.path]
            assert link.target is record.source.path
            assert link.title is record.title
            assert link.hook is record.description


def test_a_claude_index_line_that_says_other_words_keeps_them(tmp_path):
    root = tmp_path / "claude"
    root.mkdir()
    (root / "user_a.md").write_text("---\nname: Alpha\ndescription: the first\ntype: user\n---\n\nBody a.\n")
    (root / "user_b.md").write_text("---\nname: Beta\ndescription: the second\ntype: user\n---\n\nBody b.\n")
    index = "# Memory Index\n\n- [Alpha, as listed](user_a.md) — the first, in other words\n- [Beta](user_b.md)\n"
    (root / "MEMORY.md").write_text(index)
    store = pipeline.read(root, "claude")
    links = _links(store)
    assert (links["user_a.md"].title, links["user_a.md"].hook) == ("Alpha, as listed", "the first, in other words")
    assert (links["user_b.md"].title, links["user_b.md"].hook) == ("Beta", None)
    assert dialects.get("claude").write(store)["MEMORY.md"] == index.encode()


def test_a_memfmt_index_line_holds_its_entitys_title(tmp_path):
    # Watched fail with the reader's sharing left out: every line held a copy of its own.
    root = bench_module("generators").make("memfmt", tmp_path / "memfmt", 40)
    store = pipeline.read(root, "memfmt")
    links = _links(store)
    entities = [r for r in store.records if r.kind == "entity"]
    assert entities and len(links) == len(entities)
    prefix = store.meta["root"] + "/" if store.meta.get("root") else ""
    for record in entities:
        assert links[record.source.path.removeprefix(prefix)].title is record.title


def test_stores_whose_index_lines_share_their_memorys_text_are_written_back_as_read(tmp_path):
    for dialect in ("claude", "memfmt"):
        root = bench_module("generators").make(dialect, tmp_path / dialect, 25)
        files = {path: (root / path).read_bytes() for path in fs.list_files(root)}
        assert dialects.get(dialect).write(pipeline.read(root, dialect)) == files, dialect


def test_the_files_an_index_names_are_read_from_a_store_whose_index_comes_last(tmp_path):
    # An entry read before its index (its name sorts first) keeps its own copies; nothing else changes.
    root = tmp_path / "claude"
    root.mkdir()
    (root / "AAA.md").write_text("---\nname: First\ndescription: sorted before the index\ntype: user\n---\n\nA.\n")
    (root / "MEMORY.md").write_text("# Memory Index\n\n- [First](AAA.md) — sorted before the index\n")
    store = pipeline.read(root, "claude")
    assert [r.title for r in store.records] == ["First"] and _links(store)["AAA.md"].title == "First"
    assert dialects.get("claude").write(store)["MEMORY.md"] == (root / "MEMORY.md").read_bytes()

