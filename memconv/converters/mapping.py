"""The mapping: for every concept of every dialect, its home in every other.

This table is the single source of truth. The converter reads its executable
columns (:data:`TARGET_KIND`, :data:`LIFECYCLE`), and ``docs/mapping.md`` is
generated from it (``python -m memconv.converters.mapping``), with a test that
fails when the two drift apart.

Kinds are mapped by meaning: what should a tool *do* with this record when it
loads it? Inform (fact, entity, reference), constrain style (preference,
profile, user), prevent relitigation (decision), change behaviour (lesson,
feedback, procedure), orient (goal), resume work (next_action), remember what
happened (episode, observation).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

V = TypeVar("V")

DIALECTS = ("memoir", "claude", "memspec", "memfmt")

#: Kinds a target holds only through memconv's own marker; ``--lossy`` writes them as plain
#: ``project`` memories instead, so that no memconv key is left in the files.
LOSSY_AS_DOSSIER = {"claude": ("decision", "goal", "next_action", "episode", "observation", "procedure",
                               "entity", "profile")}

#: Edge types a dialect writes natively (None: any, as relations). Others are carried.
EDGE_TYPES: dict[str, frozenset[str] | None] = {
    "memoir": frozenset({"superseded_by"}),
    "claude": frozenset({"superseded_by"}),
    "memspec": frozenset({"supersedes", "superseded_by", "conflicts_with", "refines", "supports", "depends_on"}),
    "memfmt": None,
}

#: Dialects whose index is written by hand, so what it says beyond its links is content.
#: (memfmt regenerates its MEMORY.md from the records on every write.)
INDEX_IS_CONTENT = frozenset({"claude"})

#: The Claude Code type word a model kind is written as, for file names (``feedback_testing``).
CLAUDE_WORD = {"preference": "user", "lesson": "feedback", "fact": "reference"}

class _Declared(Mapping[str, V]):
    """A table with one row per dialect, each row what the dialect's module declares (``docs/plugins.md``).

    Every dialect registered (:mod:`memconv.dialects`: the built-ins, then the
    plugins) joins by declaring the module attribute ``attribute``; one that
    does not is not a target the converter knows. Read once per registry.
    """

    def __init__(self, attribute: str, convert: Callable[[Any], V]):
        self._attribute = attribute
        self._convert = convert
        self._for: object = None
        self._rows: dict[str, V] = {}

    def _table(self) -> dict[str, V]:
        from .. import dialects

        registry = dialects.registry()
        if self._for is not registry:
            rows = {}
            for name in dialects.available():
                declared = getattr(dialects.get(name), self._attribute, None)
                if declared is not None:
                    rows[name] = self._convert(declared)
            self._rows, self._for = rows, registry
        return self._rows

    def __getitem__(self, name: str) -> V:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


#: Model kind → the model kind a dialect's writer gives it a native home as (a plugin: its ``KIND_HOMES``).
#: A kind missing from a row is carried whole (``opaque`` records always are).
TARGET_KIND: Mapping[str, dict[str, str]] = _Declared("KIND_HOMES", dict)
#: The lifecycle states a dialect can mark (a plugin: its ``LIFECYCLE_STATES``).
#: A record in any other state is kept out of the target's live set (see ``docs/mapping.md``).
LIFECYCLE: Mapping[str, frozenset[str]] = _Declared("LIFECYCLE_STATES", frozenset)


@dataclass(frozen=True)
class Concept:
    """One row of docs/mapping.md."""

    dialect: str
    name: str
    #: The model kind it reads as, or None for a store-level concept.
    kind: str | None
    meaning: str
    #: Prose for homes the kind table cannot express (store-level concepts).
    homes: dict[str, str] | None = None


CONCEPTS: tuple[Concept, ...] = (
    Concept("memoir", "fact", "fact", "inform"),
    Concept("memoir", "preference", "preference", "constrain style"),
    Concept("memoir", "decision", "decision", "prevent relitigation"),
    Concept("memoir", "lesson", "lesson", "change behaviour"),
    Concept("memoir", "goal", "goal", "orient"),
    Concept("memoir", "next_action", "next_action", "resume work"),
    Concept("memoir", "session working set", None, "resume work", {
        "memoir": "native: `session.json`",
        "claude": "a `project` memory \"Working set\" rendering every list; the exact JSON in a note",
        "memspec": "a fact claim \"Working set\" rendering every list; the exact JSON in a note",
        "memfmt": "an entity \"Working set\" whose facts are the items; the exact JSON in a note",
    }),
    Concept("claude", "user", "preference", "constrain style"),
    Concept("claude", "feedback", "lesson", "change behaviour"),
    Concept("claude", "reference", "fact", "inform"),
    Concept("claude", "project (dossier) / bare file", "opaque", "orient", {
        "memoir": "opaque entry, kept whole (a bare file stays bare, its carry in a note)", "claude": "native",
        "memspec": "a fact claim (`user`: fact, `feedback`: procedure); its frontmatter carried",
        "memfmt": "an entity (`feedback`: a procedure); its frontmatter carried",
    }),
    Concept("claude", "MEMORY.md index", None, "orient", {
        "memoir": "each inline bullet a fact entry; the index itself in a note, restored on the way back",
        "claude": "native", "memspec": "each inline bullet a fact claim; the index itself in a note",
        "memfmt": "each inline bullet an entity; the index itself in a note (memfmt's own `MEMORY.md` is regenerated)",
    }),
    Concept("memspec", "fact claim", "fact", "inform"),
    Concept("memspec", "decision claim", "decision", "prevent relitigation"),
    Concept("memspec", "procedure claim", "procedure", "change behaviour"),
    Concept("memspec", "observation", "observation", "remember what happened"),
    Concept("memspec", "lifecycle (superseded, retired)", None, "keep out of the live set", {
        "memoir": "superseded → `superseded_by`; retired → kept out of `memory/` (a note under `.memconv/notes/`)",
        "claude": "kept out of the live set (a note under `.memconv/notes/`)",
        "memspec": "native: `state`, `archive/`",
        "memfmt": "kept out of the live set (a note under `.memconv/notes/`)",
    }),
    Concept("memspec", "anchors, probes, validity, check_by, scope, ext, edges", None, "witness and time", {
        "memoir": "carried", "claude": "carried", "memspec": "native",
        "memfmt": "edges of relation kinds → relations; the rest carried",
    }),
    Concept("memfmt", "entity", "entity", "inform"),
    Concept("memfmt", "episode", "episode", "remember what happened"),
    Concept("memfmt", "procedure (steps, evolution)", "procedure", "change behaviour"),
    Concept("memfmt", "profile", "profile", "constrain style"),
    Concept("memfmt", "relations, knowledge", None, "inform", {
        "memoir": "carried (relations also as wikilinks in the body)", "claude": "carried",
        "memspec": "relations → edges where the verb is one of memspec's six; the rest carried",
        "memfmt": "native",
    }),
)


def home(kind: str, target: str) -> str:
    """How a record of model ``kind`` lives in ``target``, in words."""
    if kind == "opaque":
        if target in ("memoir", "claude"):
            return "kept whole"
        return f"as {TARGET_KIND[target]['fact']}; its frontmatter carried"
    native = TARGET_KIND[target].get(kind)
    if native is None:
        return "carried whole"
    return f"native: {native}" if native == kind else f"as {native}; what it cannot say carried"


def table() -> str:
    """docs/mapping.md, rendered from this module."""
    lines = [
        "# The mapping",
        "",
        "Generated from `memconv/converters/mapping.py` by `python -m memconv.converters.mapping`;",
        "`tests/test_mapping_table_matches_code.py` fails when this file and the code drift apart.",
        "",
        "Every record goes to its native home in the target where there is one; whatever the",
        "native rendering cannot reproduce is *carried* under the one `memconv` key of the target's",
        "extension mechanism (unknown frontmatter keys in memoir, claude and memfmt; `ext` in memspec),",
        "so converting back gives exactly what was there. `--lossy` drops the carry and lists it.",
        "",
        "The carry is never the only home of what a person wrote: a field the target's kind has no",
        "place for is also written, labelled, into the record's readable text (a body, an entity's",
        "facts, a procedure's preconditions and steps; `transforms.show`). See docs/conversion.md.",
        "",
        "| dialect | concept | meaning | " + " | ".join(DIALECTS) + " |",
        "|---|---|---|" + "---|" * len(DIALECTS),
    ]
    for c in CONCEPTS:
        cells = []
        for target in DIALECTS:
            if c.homes is not None:
                cells.append(c.homes[target])
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
    for dialect in DIALECTS:
        lines.append(f"- **{dialect}**: " + ", ".join(sorted(LIFECYCLE[dialect])))
    lines += [
        "",
        "Any other state is kept out of the target's live set: the record is written as a note",
        "under `.memconv/notes/` (`.memspec/.memconv/notes/` in memspec), a dot-folder the target's",
        "tools neither check nor show, carrying the whole record, and the report says so.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - the generator
    import sys
    from pathlib import Path

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/mapping.md")
    target.write_text(table(), encoding="utf-8")
