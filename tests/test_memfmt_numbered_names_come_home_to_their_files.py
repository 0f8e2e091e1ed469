"""Two memfmt memories of one name but for case are one file on macOS and Windows, so memfmt's writer
numbers the second: ``Redis.md`` and ``redis (2).md``. Converted away and back, each comes home to its
own file; before, the way back numbered them in the order the target reads its records, and the two
files swapped contents."""

from __future__ import annotations

import pytest

from .convert_helpers import hop, read_files


def _entity(title: str, fact: str) -> bytes:
    # entity_type has no place in memoir or Claude: both records carry something, as every record to memspec does.
    return f"---\nmemfmt_type: entity\nentity_type: tool\n---\n\n# {title}\n\n## Facts\n\n- {fact}\n".encode()


FILES = {"memory/entities/Redis.md": _entity("Redis", "ALPHA the cache"),
         "memory/entities/redis (2).md": _entity("redis", "BETA the queue")}


@pytest.mark.parametrize("target", ["memoir", "claude", "memspec"])
def test_two_entities_numbered_by_memfmt_come_home_to_their_own_files(target):
    store = read_files(FILES, "memfmt")
    for _ in range(2):  # there and back, twice
        there, _ = hop(store, target)
        store, files = hop(there, "memfmt")
        entities = {p: b for p, b in files.items() if p.startswith("memory/entities/")}
        assert entities == FILES


def test_a_name_that_only_ends_in_a_number_is_not_rendered_alone(tmp_path, monkeypatch):
    """``token-10057`` has the writer's numbered form (``{}-{}``) but no file is named ``token``: it is a name
    of its own, and rendering each such file alone to check cost 6% of claude -> memspec. ``release-2`` beside
    ``release`` is still checked."""
    from click.testing import CliRunner

    from memconv.cli import main
    from memconv.converters import format_patch

    src = tmp_path / "in"
    src.mkdir()
    for stem in ("user_token-10057", "user_token-10058", "user_release", "user_release-2"):
        (src / f"{stem}.md").write_text(f"---\nname: {stem}\ndescription: d\ntype: user\n---\n\nBody.\n")
    alone: list[str] = []
    real = format_patch.render_alone
    monkeypatch.setattr(format_patch, "render_alone",
                        lambda dialect, record: alone.append(record.source.path) or real(dialect, record))
    result = CliRunner().invoke(main, ["convert", "--from", "claude", "--to", "memspec", str(src),
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert alone == ["user_release-2.md"]


def test_the_report_names_the_file_a_memory_numbered_around_a_file_beside_it_is_written_to(tmp_path):
    """A file memfmt could not read (``memory/entities/notes.md``) travels through Claude and comes home beside a
    memory named ``Notes`` made there: memfmt's writer numbers the memory ``Notes (2)`` around it. The read-back,
    which tells the report where each record is written, rendered the records without the files beside them, and
    the report said ``Notes.md``, a file not written."""
    import json

    from click.testing import CliRunner

    from memconv.cli import main

    store = tmp_path / "memfmt"
    (store / "memory" / "entities").mkdir(parents=True)
    (store / "memory" / "entities" / "Other.md").write_bytes(_entity("Other", "a fact"))
    (store / "memory" / "entities" / "notes.md").write_bytes(b"---\nmemfmt_type: [broken\n---\nx\n")
    runner = CliRunner()
    assert runner.invoke(main, ["memfmt-to-claude", str(store), str(tmp_path / "claude"), "-q"]).exit_code == 0
    (tmp_path / "claude" / "notes.md").write_text("---\nname: Notes\ndescription: notes made in Claude\n"
                                                  "type: user\n---\n\nSome notes.\n")
    done = runner.invoke(main, ["claude-to-memfmt", str(tmp_path / "claude"), str(tmp_path / "back"), "--json"])
    assert done.exit_code == 0, done.output
    written = {p.relative_to(tmp_path / "back").as_posix() for p in (tmp_path / "back").rglob("*.md")}
    assert {"memory/entities/notes.md", "memory/entities/Notes (2).md"} <= written
    targets = {f["source"]: f["target"] for f in json.loads(done.stdout)["files"]}
    assert targets["notes.md"] == "memory/entities/Notes (2).md"
    assert all(target in written for source, target in targets.items() if source.endswith(".md")
               and not source.startswith(".memconv/")), targets
