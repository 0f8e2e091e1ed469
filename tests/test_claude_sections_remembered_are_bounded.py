"""A lesson's `**How to apply:**` section is remembered for the last bodies asked only: each body remembered is held,
and a run that lets each record go once written held 65,536 of them to its end (docs/performance.md,
"(thirty-eighth)")."""

from __future__ import annotations

import tracemalloc

from memconv.dialects.claude import body as bodies


def test_the_sections_remembered_hold_a_bounded_number_of_bodies():
    bodies.section.cache_clear()
    tracemalloc.start()
    try:
        for n in range(5000):  # 2 KB bodies, none held here once asked about
            body = f"Lesson {n}.\n\n**Why:** it broke.\n\n**How to apply:** run it {n} times " + "x" * 2000
            assert bodies.section(body, bodies.HOW_TO_APPLY).startswith(f"run it {n} times")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        bodies.section.cache_clear()
    assert held < 6_000_000, f"{held / 1e6:.1f} MB held for the sections of 5,000 bodies (about 20 MB remembered)"


def test_a_body_asked_again_soon_is_answered_from_memory():
    bodies.section.cache_clear()
    body = "Lesson.\n\n**How to apply:** twice."
    bodies.section(body, bodies.HOW_TO_APPLY)
    for n in range(500):
        bodies.section(f"other body {n}", bodies.HOW_TO_APPLY)
    hits = bodies.section.cache_info().hits
    assert bodies.section("Lesson.\n\n**How to apply:** twice.", bodies.HOW_TO_APPLY) == "twice."
    assert bodies.section.cache_info().hits == hits + 1  # an equal body, a record's file read back after its render
