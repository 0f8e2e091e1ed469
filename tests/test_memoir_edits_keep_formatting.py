"""Editing one field of a hand-written entry changes that field's line and nothing else."""

from __future__ import annotations

from memconv.dialects import memoir

from .conftest import GOLDEN


def _read(name: str):
    store = memoir.read(GOLDEN / "memoir" / "messy" / "input")
    return store, next(r for r in store.records if r.link == name)


def test_edited_field_is_rendered_and_the_rest_keeps_its_bytes():
    store, record = _read("fact_deploy-window")
    record.description = "Deploys Tue–Thu only"
    before = record.source.raw
    after = memoir.write(store)["memory/fact_deploy-window.md"]
    old_lines, new_lines = before.split(b"\r\n"), after.split(b"\r\n")
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert len(old_lines) == len(new_lines), "no line is added or lost"
    assert changed == [(b"description: 'Deploys only Tue\xe2\x80\x93Thu, 10:00\xe2\x80\x9316:00 CET'",
                        "description: Deploys Tue–Thu only".encode())], "only the edited key's line changes"


def test_comments_bom_and_missing_final_newline_survive_an_edit():
    store, record = _read("lesson_friday-deploy")
    record.fired_count = 1
    after = memoir.write(store)["memory/lesson_friday-deploy.md"]
    assert after.startswith(b"\xef\xbb\xbf---\n"), "the BOM stays"
    assert b"# review this after the Q3 retro\n" in after, "a frontmatter comment stays"
    assert b"fired_count: 1\n" in after
    assert after.endswith(b"```"), "a file without a final newline still has none"


def test_removed_field_goes_and_new_field_is_added_at_the_end():
    store, record = _read("preference_tone")
    record.tags = None
    record.updated = "2026-07-01"
    text = memoir.write(store)["memory/preference_tone.md"].decode()
    assert "tags:" not in text and "- review" not in text, "a removed list goes with its items"
    assert text.split("---\n")[1].endswith("updated: 2026-07-01\n"), "a new key is appended to the block"
    assert "x-color: blue\n" in text and "  editor: vim\n" in text, "unknown keys, nested ones too, stay"
