"""Records from elsewhere are written the way Claude Code writes memory today, and read back the same."""

from __future__ import annotations

import dataclasses

from memconv.dialects import claude, memoir
from memconv.dialects.claude import entries
from memconv.model import Lifecycle, Origin, Record, Store

from . import golden
from .claude_support import frontmatter, write


def _records() -> list[Record]:
    return [
        Record(kind="preference", link="preference_style", title="Style", description="Terse", scope="global"),
        Record(kind="lesson", link="lesson_tests", title="Tests", description="When touching the DB",
               trigger="When touching the DB", how_to_apply="Run the integration suite",
               body="Rule.\n\n**How to apply:** Run the integration suite\n", fired_count=3),
        Record(kind="lesson", link="lesson_other", title="Other", description="D", trigger="T", how_to_apply="H"),
        Record(kind="fact", link="fact_staging", title="Staging", description="URLs", source_text="ops wiki",
               origin=Origin(session_id="s1", tool="claude-code"), tags=["ops"]),
        Record(kind="decision", link="decision_db", title="SQLite", description="local cache", why="zero deps",
               rejected="Postgres", date="2026-05-02", lifecycle=Lifecycle("hidden", "2026-06-01")),
        Record(kind="next_action", link="next_action_retry", title="Retry", description="backoff",
               added="2026-06-12T09:30:00Z"),
        Record(kind="goal", link="goal_ship", title="Ship", description="v1", set_on="2026-06-01",
               extra={"owner": "ana"}),
    ]


def test_every_file_has_top_level_name_description_and_a_claude_type(tmp_path):
    files = claude.write(Store(dialect="memoir", records=_records()))
    for path, data in files.items():
        if path == "MEMORY.md":
            continue
        values = frontmatter(data, path)
        assert list(values)[:3] == ["name", "description", "type"], f"{path}: Claude Code's key order"
        assert values["type"] in entries.CLAUDE_TYPES, f"{path}: a type Claude Code knows"
    assert frontmatter(files["lesson_tests.md"])["type"] == "feedback"
    assert "how_to_apply" not in frontmatter(files["lesson_tests.md"]), "said by the body section already"
    assert frontmatter(files["lesson_other.md"])["how_to_apply"] == "H", "not in the body: kept as a key"


def test_reading_the_written_folder_gives_back_the_same_records(tmp_path):
    records = _records()
    write(claude.write(Store(dialect="memoir", records=records)), tmp_path)
    again = {r.link: r for r in claude.read(tmp_path).records}
    for record in records:
        back = dataclasses.replace(again[record.link], source=None)
        assert back == record, f"{record.link} survives claude writing and reading"


def test_memoir_store_to_claude_links_every_entry_in_memory_md():
    store = memoir.read(golden.upgraded_folder("mixed-project"))
    store.dialect = "memoir"
    files = claude.write(store)
    text = files["MEMORY.md"].decode()
    for record in store.records:
        assert f"]({record.link}.md)" in text, f"{record.link} is linked from MEMORY.md"
