"""A decision's own ``**Why:**`` paragraph stays where it was in its body, labelled, after an edit in memfmt.

A decision with no why whose body holds a paragraph ``**Why:** cheaper.`` (the person's own words) is a memfmt
episode, its body the episode's context, and memfmt's way home reads an episode's last labelled paragraphs as the
decision's why and rejected (the lines memconv writes for those fields). Unedited, the carry put everything back. Once
another line of the context was edited in memfmt, the body came home with ``cheaper.`` as its first paragraph and no
label: the paragraph was read as the why, which home had none of, and its text was kept as a new first paragraph.
Found hunting labelled lines (2026-12-07, forty-fifth session).
"""

from __future__ import annotations

import pytest

from .decision_through_memfmt import decision_stores, episode_in_memfmt, home_again

BODY = "We chose X.\n\n**Why:** cheaper.\n"
STORES = {
    **decision_stores(BODY),
    "memspec": (".memspec/memory/decisions/ms_01KN49FJ2028KAX7EADGMGE1FN.md",
                "---\nid: ms_01KN49FJ2028KAX7EADGMGE1FN\nkind: claim\ntype: decision\nstate: active\n"
                "created: '2026-08-03T10:30:00.000Z'\nsource: claude-code\nsource_kind: agent\ntags: []\n"
                "check_by: '2027-01-30T10:30:00.000Z'\nverified_with: assertion\n---\n# A decision\n\n" + BODY),
}
EDITS = {
    "another line": ("We chose X.", "We chose Y."),
    "its own line": ("**Why:** cheaper.", "**Why:** cheapest."),
    "none": ("", ""),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("home", sorted(STORES))
def test_the_why_paragraph_comes_home_where_it_was_with_its_label(runner, tmp_path, home, edit):
    name, text = STORES[home]
    old, new = EDITS[edit]
    episode = episode_in_memfmt(runner, tmp_path, home, name, text)
    shown = episode.read_text(encoding="utf-8")
    assert "We chose X.\n\n**Why:** cheaper.\n" in shown
    episode.write_text(shown.replace(f"\n{old}\n", f"\n{new}\n", 1), encoding="utf-8")
    result = home_again(runner, tmp_path, home)
    assert (tmp_path / "back" / name).read_text(encoding="utf-8") == (text.replace(old, new) if old else text)
    # the body was edited there, not a why home never had
    assert not [line for line in result.output.splitlines() if "edited in memfmt" in line and "why" in line]
