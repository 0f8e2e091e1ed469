"""A record built in code is written as canonical memoir that memoir's own rules accept."""

from __future__ import annotations

from memconv.dialects import memoir
from memconv.model import Edge, Lifecycle, Origin, Record, Store, WorkingSet

from .memoir_rules import entry_errors, session_errors


def _records() -> list[Record]:
    return [
        Record(kind="fact", link="fact_a", title="A fact", description="d", source_text="runbook",
               created="2026-05-14", tags=["x"], aliases=["y: z"], origin=Origin(tool="t", extra={"k": "v"}),
               body="Body with [[decision_b]].\n"),
        Record(kind="preference", link="preference_p", title="P", scope="global", body=""),
        Record(kind="decision", link="decision_b", title="B", date="2026-05-02", why="because: reasons",
               rejected="- other", lifecycle=Lifecycle("hidden", "2026-06-01T00:00:00Z"),
               edges=[Edge("superseded_by", "decision_c")]),
        Record(kind="lesson", link="lesson_l", title="L", trigger="yes", how_to_apply="'quoted'", fired_count=0,
               last_fired="2026-07-09T14:05:00Z"),
        Record(kind="goal", link="goal_g", title="G", set_on="2026-06-01", lifecycle=Lifecycle("done", "2026-07-01")),
        Record(kind="next_action", link="next_action_n", title="N", added="2026-06-12T09:30:00Z", machine_id="m"),
    ]


def test_every_canonical_entry_passes_the_schema_and_the_validator_rules():
    files = memoir.write(Store(dialect="code", records=_records()))
    for path, raw in files.items():
        assert entry_errors(raw, path) == [], f"{path} is valid canonical memoir"


def test_canonical_entry_has_spec_key_order_and_one_blank_line_before_the_body():
    files = memoir.write(Store(dialect="code", records=_records()[:1]))
    text = files["memory/fact_a.md"].decode()
    assert text == (
        "---\ntype: fact\nname: A fact\ndescription: d\nsource: runbook\ncreated: 2026-05-14\n"
        "tags:\n  - x\naliases:\n  - \"y: z\"\norigin:\n  tool: t\n  k: v\n---\n\nBody with [[decision_b]].\n"
    )


def test_working_set_built_in_code_is_written_in_the_reference_layout_and_is_valid():
    document = {"version": 1, "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-02T00:00:00.000Z",
                "machines": {}, "current": {"goals": [], "next_actions": [], "open_questions": [],
                                            "decisions": [{"text": "t", "duration": 2.0}]}, "history": []}
    raw = memoir.write(Store(dialect="code", working_set=WorkingSet(document)))["session.json"]
    assert session_errors(raw) == []
    assert raw.startswith(b'{\n  "version": 1,\n'), "2-space JSON, as JSON.stringify(state, null, 2)"
    assert not raw.endswith(b"\n"), "no final newline, as memoir-cli writes it"
    assert b'"duration": 2\n' in raw, "integral numbers are written as JavaScript writes them"
