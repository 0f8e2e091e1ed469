"""The mapping: for every concept of every dialect, its home in every other.

Every row and every column is what a dialect declares about itself, in its
own module (``docs/plugins.md``, "What a dialect declares for the mapping"):
its concepts (``CONCEPTS``), the model kind each of its kinds is held as
(``KIND_HOMES``), the states it can say (``LIFECYCLE_STATES``), how it holds
the store-level concepts of the others, in words (``HOLDS``), and the rest
below. This module assembles the tables from the registry, in the registry's
order (the built-ins, then plugins by name); the converter reads the
executable ones (:data:`TARGET_KIND`, :data:`LIFECYCLE`, :data:`EDGE_TYPES`…),
and ``docs/mapping.md`` is generated from them by :mod:`.mapping_doc` (``python -m
memconv.converters.mapping``), with a test that fails when the two drift
apart. A dialect that leaves a member out gets the contract's one default
(:data:`memconv.dialects.protocol.OPTIONAL`), never one written here. A
plugin dialect gets its column, and its rows, without a change here.

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
from types import ModuleType
from typing import Any, Callable, TypeVar

from .. import dialects
from ..dialects import protocol
from ..model import Record
from ..text import slug

V = TypeVar("V")


class _PerDialect(Mapping[str, V]):
    """A table with one row per registered dialect: what its module declares as ``member``.

    An optional member of the contract is read through :func:`memconv.dialects.declarations`, so a
    dialect that leaves it out gets the one default :data:`memconv.dialects.protocol.OPTIONAL`
    gives (no default is written here); a required one (``KIND_HOMES``, ``LIFECYCLE_STATES``) is
    read from the module. ``normalise`` turns the declared value into the table's (a set, a dict…).
    Rows are in the registry's order, made once per registry.
    """

    def __init__(self, member: str, normalise: Callable[[Any], V]):
        if member not in protocol.OPTIONAL and member not in protocol.REQUIRED:
            raise KeyError(f"{member} is not a member of the dialect contract")
        self.member = member
        self.normalise = normalise
        self._for: object = None
        self._rows: dict[str, V] = {}

    def _table(self) -> dict[str, V]:
        registry = dialects.registry()
        if self._for is not registry:
            if self.member in protocol.REQUIRED:
                declared = {name: getattr(dialects.get(name), self.member) for name in dialects.available()}
            else:
                declared = dialects.declarations(self.member)
            self._rows, self._for = {name: self.normalise(value) for name, value in declared.items()}, registry
        return self._rows

    def __getitem__(self, name: str) -> V:
        return self._table()[name]

    # Looked up for every record (``target in INDEX_IS_CONTENT``, ``TARGET_KIND.get``): the Mapping
    # defaults would go through __getitem__ and, for a name not there, a KeyError raised and caught.
    def __contains__(self, name: object) -> bool:
        return name in self._table()

    def get(self, name: str, default: Any = None) -> Any:
        return self._table().get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


class _Marked:
    """The names of the dialects that declare ``member`` true: ``name in INDEX_IS_CONTENT``."""

    def __init__(self, member: str):
        self.table = _PerDialect(member, bool)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.table.get(name, False)

    def __iter__(self) -> Iterator[str]:
        return (name for name, marked in self.table.items() if marked)


def _same(value: V) -> V:
    return value


def _names_or_any(value: Any) -> frozenset[str] | None:
    return None if value is None else frozenset(value)


#: Model kind → the model kind a dialect's writer gives it a native home as (its ``KIND_HOMES``).
#: A kind missing from a row is carried whole (``opaque`` records always are).
TARGET_KIND: Mapping[str, dict[str, str]] = _PerDialect("KIND_HOMES", dict)
#: The lifecycle states a dialect can mark (its ``LIFECYCLE_STATES``).
#: A record in any other state is kept out of the target's live set (see ``docs/mapping.md``).
LIFECYCLE: Mapping[str, frozenset[str]] = _PerDialect("LIFECYCLE_STATES", frozenset)
#: Edge types a dialect writes natively (its ``EDGE_TYPES``; None: any, as relations).
#: Others are carried, and shown as relation lines.
EDGE_TYPES: Mapping[str, frozenset[str] | None] = _PerDialect("EDGE_TYPES", _names_or_any)
#: The kinds whose files say a dialect's edges (its ``EDGE_KINDS``; None: every kind): a record of another kind says
#: none natively (a memfmt procedure or episode has no relations), and each of its edges is shown as a relation line.
EDGE_KINDS: Mapping[str, frozenset[str] | None] = _PerDialect("EDGE_KINDS", _names_or_any)


def edge_types(target: str, kind: str) -> frozenset[str] | None:
    """The edge types a ``kind`` record's file says natively in ``target`` (:data:`EDGE_TYPES`, :data:`EDGE_KINDS`)."""
    kinds = EDGE_KINDS[target]
    return EDGE_TYPES[target] if kinds is None or kind in kinds else frozenset()


#: What a dialect's writer leaves out of a record from another dialect, its own validator refusing the values there
#: (its ``refused_values``: memoir's ``created: last week``): a record → those keys and values.
REFUSED_VALUES: Mapping[str, Callable[[Record], dict[str, Any]]] = _PerDialect("refused_values", lambda f: f)
#: Dialects whose index is written by hand, so what it says beyond its links is content
#: (its ``INDEX_IS_CONTENT``; a regenerated index is not).
INDEX_IS_CONTENT = _Marked("INDEX_IS_CONTENT")
#: Dialects whose writer keeps a record's unknown keys where their tools neither show nor search them
#: (its ``UNKNOWN_KEYS_HIDDEN``; memspec: under ``ext.memconv.fields``): ``readable.show`` writes them
#: into the record's text too.
UNKNOWN_KEYS_HIDDEN = _Marked("UNKNOWN_KEYS_HIDDEN")
#: Kind (or ``*``, every kind) → the frontmatter keys a dialect's files own (its ``OWNED_KEYS``): a record's unknown
#: key of such a name is not written there, and ``readable.show`` writes it into the record's text too.
OWNED_KEYS: Mapping[str, dict[str, frozenset[str]]] = _PerDialect("OWNED_KEYS", lambda v: {
    kind: frozenset(keys) for kind, keys in v.items()})
#: Kinds a dialect holds only through memconv's own marker; ``--lossy`` writes them as plain
#: records kept whole (its ``LOSSY_AS_DOSSIER``), so that no memconv key is left in the files.
LOSSY_AS_DOSSIER: Mapping[str, frozenset[str]] = _PerDialect("LOSSY_AS_DOSSIER", frozenset)
#: Model kind → the type word a dialect's file names start with (its ``FILE_TYPE_WORDS``;
#: ``feedback_testing``). A kind not listed is written with ``FILE_TYPE_WORD_ELSE``, or its own name.
TYPE_WORDS: Mapping[str, dict[str, str]] = _PerDialect("FILE_TYPE_WORDS", dict)
TYPE_WORD_ELSE: Mapping[str, str | None] = _PerDialect("FILE_TYPE_WORD_ELSE", _same)


def type_word(dialect: str, kind: str) -> str:
    """The word a ``kind`` record's file name starts with in ``dialect`` (``lesson`` → ``feedback``)."""
    return TYPE_WORDS[dialect].get(kind) or TYPE_WORD_ELSE[dialect] or kind


@functools.lru_cache(maxsize=4)
def _type_prefix(words: frozenset[str]) -> re.Pattern[str]:
    return re.compile(r"^(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")[_-]")


_builtin_words: tuple[object, frozenset[str]] = (None, frozenset())


def _builtin_type_words() -> frozenset[str]:
    """Every file-name type word a built-in dialect declares; read once per registry."""
    global _builtin_words
    registry = dialects.registry()
    if _builtin_words[0] is not registry:
        words: set[str] = set()
        for name in dialects.BUILTINS:
            if name in TYPE_WORDS:
                words |= set(TYPE_WORDS[name].values())
                words |= {TYPE_WORD_ELSE[name]} - {None}
        _builtin_words = (registry, frozenset(words))
    return _builtin_words[1]


def kept_whole_kind(word: str) -> str:
    """The model kind the type word of a record kept whole means (``feedback`` → ``lesson``), as the
    built-in dialects declare it (``KEPT_WHOLE_READ_AS``; a plugin's words do not change how a store
    converts); a fact when no dialect knows the word."""
    for name in dialects.BUILTINS:
        if name in TARGET_KIND:
            kind = dialects.declaration(name, "KEPT_WHOLE_READ_AS").get(word)
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
#: ``DEFAULT_TEXT_FIELDS`` for the other kinds).
TEXT_FIELDS: Mapping[str, dict[str, frozenset[str]]] = _PerDialect("TEXT_FIELDS", lambda v: {
    kind: frozenset(fields) for kind, fields in v.items()})
#: The text fields of every other kind, per dialect.
DEFAULT_TEXT_FIELDS: Mapping[str, frozenset[str]] = _PerDialect("DEFAULT_TEXT_FIELDS", frozenset)
#: The model fields (``extra``: the unknown keys) a dialect's files hold on one line (its ``ONE_LINE_FIELDS``).
ONE_LINE_FIELDS: Mapping[str, frozenset[str]] = _PerDialect("ONE_LINE_FIELDS", frozenset)
#: The model list fields a dialect's files cannot say empty (its ``NO_EMPTY_LISTS``).
NO_EMPTY_LISTS: Mapping[str, frozenset[str]] = _PerDialect("NO_EMPTY_LISTS", frozenset)
#: The model fields a dialect's readers expect every record (``*``) or a kind's records to have,
#: in the order they are filled (its ``REQUIRED_TEXT``).
REQUIRED_TEXT: Mapping[str, dict[str, tuple[str, ...]]] = _PerDialect(
    "REQUIRED_TEXT", lambda v: {kind: tuple(fields) for kind, fields in v.items()})
#: The text fields a dialect's tools read from a labelled section of a record's body, per kind (its
#: ``SECTION_FIELDS``): a Claude Code feedback memory's ``**How to apply:**``.
SECTION_FIELDS: Mapping[str, dict[str, frozenset[str]]] = _PerDialect("SECTION_FIELDS", lambda v: {
    kind: frozenset(fields) for kind, fields in v.items()})


def native_text(target: str, kind: str) -> frozenset[str]:
    """The text fields a ``kind`` record shows in ``target``'s files (what ``target`` declares)."""
    return TEXT_FIELDS[target].get(kind, DEFAULT_TEXT_FIELDS[target])


#: The type words a record kept whole may say in a dialect (its ``KEPT_WHOLE_TYPES``); another
#: word is written as its ``FILE_TYPE_WORD_ELSE``. None: any word.
KEPT_WHOLE_TYPES: Mapping[str, frozenset[str] | None] = _PerDialect("KEPT_WHOLE_TYPES", _names_or_any)
#: The folder a dialect's store root holds its notes folder in (its ``NOTES_ROOT``; "" the root).
NOTES_ROOT: Mapping[str, str] = _PerDialect("NOTES_ROOT", str)
#: How a dialect's notes' file names end (its ``NOTE_SUFFIX``; ``.md`` by default).
NOTE_SUFFIX: Mapping[str, str] = _PerDialect("NOTE_SUFFIX", str)
#: Whether a dialect's writer makes a file name of a record's link (its ``LINKS_ARE_FILE_NAMES``).
LINKS_ARE_FILE_NAMES: Mapping[str, bool] = _PerDialect("LINKS_ARE_FILE_NAMES", bool)
#: (model kind, link) of the one record the working set is shown as (its ``WORKING_SET_AS``).
#: ``opaque``: a record kept whole, typed ``FILE_TYPE_WORD_ELSE``.
WORKING_SET_AS: Mapping[str, tuple[str, str]] = _PerDialect("WORKING_SET_AS", tuple)
#: How a dialect's extension mechanism holds memconv's carry, in words (its ``CARRY_SLOT``).
CARRY_SLOT: Mapping[str, str] = _PerDialect("CARRY_SLOT", str)


def working_set_dialect() -> ModuleType | None:
    """The dialect that keeps a working set of its own (it declares ``read_working_set`` and
    ``write_working_set``): where a working set's file format lives."""
    for name in dialects.available():
        if dialects.declaration(name, "write_working_set") and dialects.declaration(name, "read_working_set"):
            return dialects.get(name)
    return None


if __name__ == "__main__":  # pragma: no cover - the generator (docs/mapping.md says to run it so)
    from memconv.converters.mapping_doc import main

    main()
