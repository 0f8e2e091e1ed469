"""A ``## Knowledge`` entry added in memfmt to an entity converted from memoir or claude comes home in its body.

memoir and Claude Code have no key for an entity's knowledge (``**[snippet] hook** — …`` and its code block): the
record came home from its carry, its writer left the entry out, and the report said "0 dropped". It is now written
into the body as ``show`` writes knowledge, and the report says the edit won.
"""

from __future__ import annotations

import json

import pytest

from memconv.cli import main

from .conftest import GOLDEN, changed_files

ENTRY = "\n## Knowledge\n\n**[snippet] hook** — the commit-msg hook\n\n```\nnpx commitlint --edit\n```\n"


@pytest.mark.parametrize("home, store", [("memoir", "canonical"), ("claude", "canonical")])
def test_a_knowledge_entry_added_in_memfmt_comes_home_in_the_body(runner, tmp_path, home, store):
    # Broken once: without the knowledge fold in restore it was counted dropped, and the body had no entry.
    inp = GOLDEN / home / store / "input"
    assert runner.invoke(main, [f"{home}-to-memfmt", str(inp), str(tmp_path / "mf")]).exit_code == 0
    entity = sorted((tmp_path / "mf" / "memory" / "entities").glob("*.md"))[0]
    entity.write_text(entity.read_text(encoding="utf-8") + ENTRY, encoding="utf-8")
    result = runner.invoke(main, [f"memfmt-to-{home}", "--json", "--fail-on-loss", str(tmp_path / "mf"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, changed = changed_files(tmp_path / "back", inp)
    assert len(changed) == 1, changed
    text = back[changed[0]].decode()
    assert text.endswith("\n\n- **[snippet] hook** — the commit-msg hook\n\n```\nnpx commitlint --edit\n```\n"), text
    assert any("knowledge" in w and "edited in memfmt" in w for w in json.loads(result.stdout)["warnings"])


def test_knowledge_a_memoir_record_was_built_with_is_not_taken_for_an_edit():
    # A record built in code with knowledge its own files cannot say carries it: through memfmt (which holds it)
    # and home, it is the same record, its body untouched. Broken once: without the carry in forward, the entry
    # was written into the body.
    from memconv.converters import convert
    from memconv.model import Knowledge, Record, Store, meaning

    from .convert_helpers import convert_files, read_files

    record = Record(kind="fact", link="fact_hook", title="Hook", description="The commit hook", body="Runs on commit.\n",
                    knowledge=[Knowledge(kind="snippet", title="hook", content="the hook", artifact="npx x")])
    files, _ = convert_files(Store(dialect="memoir", records=[record]), "memfmt")
    [back] = convert(read_files(files, "memfmt"), "memoir").records
    assert meaning(back) == meaning(record)
