"""The mapping: for every concept of every dialect, its home in every other.

Every row and every column is what a dialect declares about itself, in its
own module (``docs/plugins.md``, "What a dialect declares for the mapping"):
its concepts (:data:`CONCEPTS`), the model kind each of its kinds is held as
(``KIND_HOMES``), the states it can say (``LIFECYCLE_STATES``), how it holds
the store-level concepts of the others, in words (``HOLDS``), and the rest
below. This module assembles the tables from the registry, in the registry's
order (the built-ins, then plugins by name); the converter reads the
executable ones (:data:`TARGET_KIND`, :data:`LIFECYCLE`, :data:`EDGE_TYPES`…),
and ``docs/mapping.md`` is generated from them (``python -m
memconv.converters.mapping``), with a test that fails when the two drift
apart. A plugin dialect gets its column, and its rows, without a change here.

Kinds are mapped by meaning: what should a tool *do* with this record when it
loads it? Inform (fact, entity, reference), constrain style (preference,
profile, user), prevent relitigation (decision), change behaviour (lesson,
feedback, procedure), orient (goal), resume work (next_action), remember what
happened (episode, observation).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, TypeVar

from ..text import slug

V = TypeVar("V")

#: A missing declaration (``None`` is a value some declarations have).
_MISSING = object()


class _Declared(Mapping[str, V]):
    """A table with one row per dialect, each row what the dialect's module declares (``docs/plugins.md``).

    Every dialect registered (:mod:`memconv.dialects`: the built-ins, then the
    plugins) joins by declaring the module attribute ``attribute``. Without a
    ``default``, one that does not declare it has no row (for ``KIND_HOMES``: it
    is not a target the converter knows); with one, ``default(module)`` is its
    row. Read once per registry.
    """

    def __init__(self, attribute: str, convert: Callable[[Any], V],
                 default: Callable[[ModuleType], Any] | None = None):
        self._attribute = attribute
        self._convert = convert
        self._default = default
        self._for: object = None
        self._rows: dict[str, V] = {}

    def _table(self) -> dict[str, V]:
        from .. import dialects

        registry = dialects.registry()
        if self._for is not registry:
            rows = {}
            for name in dialects.available():
                module = dialects.get(name)
                declared = getattr(module, self._attribute, _MISSING)
                if declared is _MISSING and self._default is not None:
                    declared = self._default(module)
                if declared is not _MISSING and (declared is not None or self._default is not None):
                    rows[name] = self._convert(declared)
            self._rows, self._for = rows, registry
        return self._rows

    def __getitem__(self, name: str) -> V:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


class _Marked:
    """The names of the dialects whose module declares ``attribute`` true: ``name in INDEX_IS_CONTENT``."""

    def __init__(self, attribute: str):
        self._table = _Declared(attribute, bool, default=lambda module: False)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._table.get(name, False)

    def __iter__(self) -> Iterator[str]:
        return (name for name, marked in self._table.items() if marked)


def _same(value: V) -> V:
    return value


#: Model kind → the model kind a dialect's writer gives it a native home as (its ``KIND_HOMES``).
#: A kind missing from a row is carried whole (``opaque`` records always are).
TARGET_KIND: Mapping[str, dict[str, str]] = _Declared("KIND_HOMES", dict)
#: The lifecycle states a dialect can mark (its ``LIFECYCLE_STATES``).
#: A record in any other state is kept out of the target's live set (see ``docs/mapping.md``).
LIFECYCLE: Mapping[str, frozenset[str]] = _Declared("LIFECYCLE_STATES", frozenset)
#: Edge types a dialect writes natively (its ``EDGE_TYPES``; None, the default: any, as relations).
#: Others are carried, and shown as relation lines.
EDGE_TYPES: Mapping[str, frozenset[str] | None] = _Declared(
    "EDGE_TYPES", lambda v: None if v is None else frozenset(v), default=lambda module: None)
#: Dialects whose index is written by hand, so what it says beyond its links is content
#: (its ``INDEX_IS_CONTENT``; a regenerated index, the default, is not).
INDEX_IS_CONTENT = _Marked("INDEX_IS_CONTENT")
#: Kinds a dialect holds only through memconv's own marker; ``--lossy`` writes them as plain
#: records kept whole (its ``LOSSY_AS_DOSSIER``; default none), so that no memconv key is left in the files.
LOSSY_AS_DOSSIER: Mapping[str, frozenset[str]] = _Declared(
    "LOSSY_AS_DOSSIER", frozenset, default=lambda module: frozenset())
#: Model kind → the type word a dialect's file names start with (its ``FILE_TYPE_WORDS``;
#: ``feedback_testing``). A kind not listed is written with ``FILE_TYPE_WORD_ELSE``, or its own name.
TYPE_WORDS: Mapping[str, dict[str, str]] = _Declared("FILE_TYPE_WORDS", dict, default=lambda module: {})
_TYPE_WORD_ELSE: Mapping[str, str | None] = _Declared(
    "FILE_TYPE_WORD_ELSE", _same, default=lambda module: None)


def type_word(dialect: str, kind: str) -> str:
    """The word a ``kind`` record's file name starts with in ``dialect`` (``lesson`` → ``feedback``)."""
    return TYPE_WORDS[dialect].get(kind) or _TYPE_WORD_ELSE[dialect] or kind


@functools.lru_cache(maxsize=4)
def _type_prefix(words: frozenset[str]) -> re.Pattern[str]:
    return re.compile(r"^(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")[_-]")


_builtin_words: tuple[object, frozenset[str]] = (None, frozenset())


def _builtin_type_words() -> frozenset[str]:
    """Every file-name type word a built-in dialect declares; read once per registry."""
    global _builtin_words
    from .. import dialects

    registry = dialects.registry()
    if _builtin_words[0] is not registry:
        words: set[str] = set()
        for name in dialects.BUILTINS:
            if name in TYPE_WORDS:
                words |= set(TYPE_WORDS[name].values())
                words |= {_TYPE_WORD_ELSE[name]} - {None}
        _builtin_words = (registry, frozenset(words))
    return _builtin_words[1]


def kept_whole_kind(word: str) -> str:
    """The model kind the type word of a record kept whole means (``feedback`` → ``lesson``), as the
    built-in dialects declare it (``KEPT_WHOLE_READ_AS``; a plugin's words do not change how a store
    converts); a fact when no dialect knows the word."""
    from .. import dialects

    for name in dialects.BUILTINS:
        if name in TARGET_KIND:
            kind = getattr(dialects.get(name), "KEPT_WHOLE_READ_AS", {}).get(word)
            if kind is not None:
                return kind
    return "fact"


def name_part(stem: str) -> str:
    """The name part of a file stem: its :func:`~memconv.text.slug`, without a type word in front
    (``feedback_No_Mocks`` → ``no-mocks``).

    The type words are those the built-in dialects declare (``FILE_TYPE_WORDS``), not a
    plugin's: a name comes out the same whatever else is installed.
    """
    text = stem.lower()
    words = _builtin_type_words()
    if words:
        text = _type_prefix(words).sub("", text, count=1) or text
    return slug(text)


#: The text fields a dialect's files show, per kind (its ``TEXT_FIELDS``, kind → fields, and
#: ``DEFAULT_TEXT_FIELDS`` for the other kinds; default: an entry's title, description, body and aliases).
TEXT_FIELDS: Mapping[str, dict[str, frozenset[str]]] = _Declared("TEXT_FIELDS", lambda v: {
    kind: frozenset(fields) for kind, fields in v.items()}, default=lambda module: {})
#: The text fields of every other kind, per dialect.
ENTRY_TEXT = frozenset({"title", "description", "body", "aliases"})
DEFAULT_TEXT_FIELDS: Mapping[str, frozenset[str]] = _Declared(
    "DEFAULT_TEXT_FIELDS", frozenset, default=lambda module: ENTRY_TEXT)
#: The model fields a dialect's readers expect every record (``*``) or a kind's records to have,
#: in the order they are filled (its ``REQUIRED_TEXT``; default none).
REQUIRED_TEXT: Mapping[str, dict[str, tuple[str, ...]]] = _Declared(
    "REQUIRED_TEXT", lambda v: {kind: tuple(fields) for kind, fields in v.items()}, default=lambda module: {})
#: The type words a record kept whole may say in a dialect (its ``KEPT_WHOLE_TYPES``); another
#: word is written as its ``FILE_TYPE_WORD_ELSE``. Default: any word.
KEPT_WHOLE_TYPES: Mapping[str, frozenset[str] | None] = _Declared(
    "KEPT_WHOLE_TYPES", lambda v: None if v is None else frozenset(v), default=lambda module: None)
#: The folder a dialect's store root holds its notes folder in (its ``NOTES_ROOT``; default the root).
NOTES_ROOT: Mapping[str, str] = _Declared("NOTES_ROOT", str, default=lambda module: "")
#: Whether a dialect's writer makes a file name of a record's link (its ``LINKS_ARE_FILE_NAMES``; default yes).
LINKS_ARE_FILE_NAMES: Mapping[str, bool] = _Declared("LINKS_ARE_FILE_NAMES", bool, default=lambda module: True)
#: (model kind, link) of the one record the working set is shown as (its ``WORKING_SET_AS``;
#: default a fact, ``working-set``). ``opaque``: a record kept whole, typed ``FILE_TYPE_WORD_ELSE``.
WORKING_SET_AS: Mapping[str, tuple[str, str]] = _Declared(
    "WORKING_SET_AS", tuple, default=lambda module: ("fact", "working-set"))
#: How a dialect's extension mechanism holds memconv's carry, in words (its ``CARRY_SLOT``).
CARRY_SLOT: Mapping[str, str] = _Declared("CARRY_SLOT", str, default=lambda module: "the record's `extra`")


def working_set_dialect() -> ModuleType | None:
    """The dialect that keeps a working set of its own (it declares ``read_working_set`` and
    ``write_working_set``): where a working set's file format lives."""
    from .. import dialects

    for name in dialects.available():
        module = dialects.get(name)
        if callable(getattr(module, "write_working_set", None)) and callable(getattr(module, "read_working_set", None)):
            return module
    return None


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
    declared = getattr(module, "CONCEPTS", None)
    if declared is None:  # a dialect that says nothing more: its native kinds, by their model names
        homes = getattr(module, "KIND_HOMES", {})
        return tuple(Concept(name, kind, kind, KIND_MEANING.get(kind, "inform"))
                     for kind, held_as in homes.items() if held_as == kind)
    return tuple(Concept(name, *row) for row in declared)


def concepts() -> tuple[Concept, ...]:
    """Every row of the table: each dialect's :data:`CONCEPTS` (declared, or its native kinds), in registry order."""
    from .. import dialects

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
    from .. import dialects

    declared = getattr(dialects.get(dialect), "HOLDS", {}).get(topic)
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
    native = getattr(dialects.get(dialect), "NATIVE_FIELDS", frozenset())
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
        "facts, a procedure's preconditions and steps; `transforms.show`). See docs/conversion.md.",
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
    from .. import dialects

    return topic in getattr(dialects.get(dialect), "HOLDS", {})


if __name__ == "__main__":  # pragma: no cover - the generator
    import sys
    from pathlib import Path

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/mapping.md")
    target.write_text(table(), encoding="utf-8")
