"""docs/mapping.md, rendered from what the registered dialects declare (``python -m
memconv.converters.mapping``; ``tests/test_mapping_table_matches_code.py`` fails when the two drift).

The executable tables are :mod:`.mapping`'s; this module says them in words: a row per concept
of every dialect (its ``CONCEPTS``, or its native kinds), a column per dialect, each cell how
that dialect holds the concept (what it declares in ``HOLDS``, or what follows from its kinds
and states).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .. import dialects
from ..dialects import protocol
from .mapping import CARRY_SLOT, EDGE_TYPES, LIFECYCLE, NOTES_ROOT, TARGET_KIND, WORKING_SET_AS


#: What a record of each model kind is for, when a dialect names its own concept only by its kind.
KIND_MEANING = {
    "fact": "inform", "entity": "inform", "preference": "constrain style", "profile": "constrain style",
    "decision": "prevent relitigation", "lesson": "change behaviour", "procedure": "change behaviour",
    "goal": "orient", "next_action": "resume work", "episode": "remember what happened",
    "observation": "remember what happened", "opaque": "orient",
}


#: The store-level concepts a dialect may have, which every other holds in its own words (its ``HOLDS``).
TOPICS = ("working set", "kept whole", "index", "lifecycle", "witness", "relations")


@dataclass(frozen=True)
class Concept:
    """One row of docs/mapping.md: a concept of ``dialect`` (its ``CONCEPTS``)."""

    dialect: str
    name: str
    #: The model kind it reads as, or None for a store-level concept.
    kind: str | None
    meaning: str
    #: The store-level concept (one of :data:`TOPICS`) whose homes every dialect says in words, if any.
    topic: str | None = None


def _concepts(module: ModuleType) -> tuple[Concept, ...]:
    name = module.NAME
    declared = protocol.declared(module, "CONCEPTS")
    if declared is None:  # a dialect that says nothing more: its native kinds, by their model names
        homes = module.KIND_HOMES
        return tuple(Concept(name, kind, kind, KIND_MEANING.get(kind, "inform"))
                     for kind, held_as in homes.items() if held_as == kind)
    return tuple(Concept(name, *row) for row in declared)


def concepts() -> tuple[Concept, ...]:
    """Every row of the table: each dialect's :data:`CONCEPTS` (declared, or its native kinds), in registry order."""
    return tuple(c for name in dialects.available() if name in TARGET_KIND for c in _concepts(dialects.get(name)))


def dialect_names() -> tuple[str, ...]:
    """The table's columns: every dialect the converter can write, in registry order."""
    return tuple(TARGET_KIND)


def _notes_dir(dialect: str) -> str:
    from .notes import NOTES_DIR

    return f"{NOTES_ROOT[dialect]}{NOTES_DIR}/"


def holds(dialect: str, topic: str) -> str:
    """How ``dialect`` holds the store-level concept ``topic`` of any dialect, in words: what it
    declares in ``HOLDS``, or what follows from its declared kinds and states."""
    declared = dialects.declaration(dialect, "HOLDS").get(topic)
    if declared is not None:
        return declared
    fact = TARGET_KIND[dialect].get("fact", "fact")
    if topic == "working set":
        return f"a {WORKING_SET_AS[dialect][0]} \"Working set\" rendering every list; the exact JSON in a note"
    if topic == "kept whole":
        return f"as {fact}; its frontmatter carried"
    if topic == "index":
        return f"each inline bullet a {fact}; the index itself in a note"
    if topic == "lifecycle":
        states = sorted(LIFECYCLE[dialect] - {"active"})
        return (f"native: {', '.join(states)}; any other state" if states else "any state but active") \
            + f" kept out of the live set (a note under `{_notes_dir(dialect)}`)"
    native = dialects.declaration(dialect, "NATIVE_FIELDS")
    if topic == "witness":
        return "native" if {"anchors", "probes", "scope", "edges"} <= native else "carried"
    if topic == "relations":
        return "native" if EDGE_TYPES[dialect] is None and {"edges", "knowledge"} <= native else "carried"
    raise KeyError(topic)


def home(kind: str, target: str) -> str:
    """How a record of model ``kind`` lives in ``target``, in words."""
    if kind == "opaque":
        return holds(target, "kept whole")
    native = TARGET_KIND[target].get(kind)
    if native is None:
        return "carried whole"
    return f"native: {native}" if native == kind else f"as {native}; what it cannot say carried"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def table() -> str:
    """docs/mapping.md, rendered from what the registered dialects declare."""
    columns = dialect_names()
    slots: dict[str, list[str]] = {}
    for name in columns:
        slots.setdefault(CARRY_SLOT[name], []).append(name)
    lines = [
        "# The mapping",
        "",
        "Generated from `memconv/converters/mapping.py` by `python -m memconv.converters.mapping`;",
        "`tests/test_mapping_table_matches_code.py` fails when this file and the code drift apart.",
        "",
        "Every record goes to its native home in the target where there is one; whatever the",
        "native rendering cannot reproduce is *carried* under the one `memconv` key of the target's",
        "extension mechanism (" + "; ".join(f"{slot} in {_names(names)}" for slot, names in slots.items()) + "),",
        "so converting back gives exactly what was there. `--lossy` drops the carry and lists it.",
        "",
        "The carry is never the only home of what a person wrote: a field the target's kind has no",
        "place for is also written, labelled, into the record's readable text (a body, an entity's",
        "facts, a procedure's preconditions and steps; `readable.show`). See docs/conversion.md.",
        "",
        "What a store says outside its records is shown too, as a record the target's tools load and",
        "search (a rendering: the way back drops it, and the exact source comes home from its note).",
        "The working set shows every list under `current`: the seven its spec names, then any",
        "other under its key (`blockers` as `## Blockers`), an item as its text or else its values;",
        "an item's keys the spec does not name after its line (`— owner: Kenji`), and a key beside",
        "`current` under its key, as an unknown list is.",
        "An index written by hand shows, in one record \"MEMORY.md's own words\", what it says that its",
        "records do not: its title and headings (not those every index has), a link's title or hook its",
        "memory's name or description does not say, a link to no memory, and any other text",
        "(`native.index_words`).",
        "",
        "| dialect | concept | meaning | " + " | ".join(columns) + " |",
        "|---|---|---|" + "---|" * len(columns),
    ]
    for c in concepts():
        cells = []
        for target in columns:
            if c.topic is not None:
                cells.append(holds(target, c.topic) if target != c.dialect or _declares(target, c.topic)
                             else "native")
            elif target == c.dialect:
                cells.append("native")
            else:
                cells.append(home(c.kind or "opaque", target))
        lines.append(f"| {c.dialect} | {c.name} | {c.meaning} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Lifecycle",
        "",
        "A record that is not live (hidden, superseded, retired, done) is never presented as live",
        "by the target's tools. States each dialect can say natively:",
        "",
    ]
    for dialect in columns:
        lines.append(f"- **{dialect}**: " + ", ".join(sorted(LIFECYCLE[dialect])))
    elsewhere = [f"`{_notes_dir(d)}` in {d}" for d in columns if NOTES_ROOT[d]]
    lines += [
        "",
        "Any other state is kept out of the target's live set: the record is written as a note",
        "under `.memconv/notes/`" + (f" ({'; '.join(elsewhere)})" if elsewhere else "")
        + ", a dot-folder the target's",
        "tools neither check nor show, carrying the whole record, and the report says so.",
        "",
    ]
    return "\n".join(lines)


def _declares(dialect: str, topic: str) -> bool:
    return topic in dialects.declaration(dialect, "HOLDS")


def main() -> None:
    """Write docs/mapping.md (or the file named on the command line)."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/mapping.md")
    target.write_text(table(), encoding="utf-8")
