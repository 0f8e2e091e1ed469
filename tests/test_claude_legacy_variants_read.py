"""Every legacy Claude Code shape (memoir spec Appendix A) is read as the same canonical meaning."""

from __future__ import annotations

from memconv.dialects.claude import body as bodies
from memconv.dialects.claude import entries


def read(text: str, link: str = "x"):
    return entries.read_entry(text.encode("utf-8"), f"{link}.md", link)


def test_nested_metadata_type_reads_like_top_level_type():
    top = read("---\nname: N\ndescription: D\ntype: reference\noriginSessionId: s1\n---\nBody\n")
    nested = read("---\nmetadata:\n  node_type: memory\n  type: reference\n  originSessionId: s1\n"
                  "name: N\ndescription: D\n---\nBody\n")
    assert top.kind == nested.kind == "fact", "reference is read as fact wherever its type is written"
    assert top.origin.session_id == nested.origin.session_id == "s1", "originSessionId is origin.session_id"
    assert nested.extra == {"metadata": {"node_type": "memory"}}, "metadata.node_type is kept, not dropped"
    assert top.extra == {}


def test_legacy_types_map_per_appendix_a():
    assert read("---\ntype: user\nname: u\n---\n").kind == "preference"
    assert read("---\ntype: reference\nname: r\n---\n").kind == "fact"
    project = read("---\ntype: project\nname: p\n---\n")
    assert project.opaque and project.kind == "opaque", "a project dossier has no atomic mapping"


def test_feedback_is_a_lesson_with_trigger_from_description_and_how_to_apply_from_body():
    record = read("---\nname: Tests\ndescription: \"When touching src/db: run tests\"\ntype: feedback\n---\n"
                  "Rule.\n\n**Why:** burned once.\n**How to apply:** run `make test`.\n")
    assert record.kind == "lesson"
    assert record.trigger == "When touching src/db: run tests"
    assert record.how_to_apply == "run `make test`."


def test_how_to_apply_inside_a_code_fence_is_not_the_section():
    # Verified by treating fences as paragraphs in body.outline: fails with how_to_apply
    # 'an example, not the rule\n```'.
    record = read("---\nname: T\ndescription: d\ntype: feedback\n---\n"
                  "```md\n**How to apply:** an example, not the rule\n```\n")
    assert record.how_to_apply is None, "a label inside a fence is code, not structure"


def test_how_to_apply_label_alone_takes_the_list_below_it():
    text = "Intro.\n\n**How to apply:**\n- first\n- second\n\nLater paragraph.\n"
    assert bodies.section(text, bodies.HOW_TO_APPLY) == "- first\n- second"


def test_bare_file_is_opaque_and_named_by_its_first_heading_outside_code():
    record = read("```sh\n# a shell comment\n```\n\n# Deploy notes\n\nText.\n")
    assert record.opaque and record.title == "Deploy notes"
    assert entries.write_entry(record) == b"```sh\n# a shell comment\n```\n\n# Deploy notes\n\nText.\n"


def test_quoted_scalars_and_indented_lists_are_values_not_syntax():
    record = read("---\nname: 'The Wire'\ndescription: \"The Wire as a feed at /tape — flagged\"\ntype: user\n"
                  "aliases:\n    - tiktok\n    - \"/tape\"\n---\n")
    assert record.title == "The Wire"
    assert record.description == "The Wire as a feed at /tape — flagged"
    assert record.aliases == ["tiktok", "/tape"]


def test_canonical_memoir_entry_in_a_claude_folder_reads_as_itself():
    record = read("---\ntype: lesson\nname: L\ntrigger: t\nhow_to_apply: h\nfired_count: 2\n---\nBody\n")
    assert (record.kind, record.trigger, record.how_to_apply, record.fired_count) == ("lesson", "t", "h", 2)
    assert record.source.version == "memoir"


def test_unknown_keys_are_kept_in_source_order():
    record = read("---\nzeta: 1\nname: n\ntype: user\nalpha: [a, b]\n---\n")
    assert list(record.extra) == ["zeta", "alpha"]


def test_conflicting_session_ids_are_both_kept_never_guessed():
    record = read("---\nname: n\ntype: user\norigin:\n  session_id: a\noriginSessionId: b\n---\n")
    assert record.origin.session_id == "a" and record.extra["originSessionId"] == "b"
