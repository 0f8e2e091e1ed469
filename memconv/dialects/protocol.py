"""What a dialect gives memconv: the one contract every dialect module keeps (``docs/plugins.md``).

A dialect is a module (a built-in, or a plugin registered by entry point) that
satisfies :class:`Dialect`: the members every dialect must have. Everything
else a dialect may declare is in :data:`OPTIONAL`, each with the default the
converter assumes when a dialect leaves it out; :func:`declared` is the one
way to ask for such a member, so that no caller guesses a default of its own.
:func:`problems` says what a module lacks or gets wrong, in words a plugin's
author can act on.

The converter core (``memconv/converters/``) names no dialect: every
difference between dialects it acts on is one of these declarations.
"""

from __future__ import annotations

import dataclasses
import datetime
import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from ..errors import UsageError
from ..migrations import Ladder
from ..model import KINDS, LIFECYCLE_STATES, Record, Store

if TYPE_CHECKING:
    from . import Detection
    from .evidence import Folder

#: The one key under which memconv keeps its own data in a dialect's extension mechanism.
CARRY_KEY = "memconv"


#: Inside memconv's key, when it holds a mapping (marks of the dialect's own beside the carry): the carry's key.
CARRY_BESIDE = "carry"


@dataclass(frozen=True)
class CarrySlot:
    """Where a dialect's files hold memconv's carry: the ``memconv`` key of the record's ``extra``
    (frontmatter keys the dialect does not know) or of its ``ext`` (an extension mapping of its own).

    The key holds the carry (a string), or a mapping with the carry under :data:`CARRY_BESIDE`
    beside marks of the dialect's own: ``mapping`` says the converter always writes such a mapping
    (so that the dialect's writer can add its marks); a reader may give either form back. The
    converter sets, gets and strips a carry only through these methods.
    """

    field: Literal["extra", "ext"] = "extra"
    mapping: bool = False
    #: Where that is, in words, for docs/mapping.md (``str(slot)``).
    words: str = "the record's `extra`"

    def __str__(self) -> str:
        return self.words

    def put(self, record: Record, text: str) -> None:
        """Set the carry ``text`` on ``record``."""
        value: Any = {CARRY_BESIDE: text} if self.mapping else text
        if self.field == "ext":
            record.ext = {**(record.ext or {}), CARRY_KEY: value}
        else:
            record.extra[CARRY_KEY] = value

    def get(self, record: Record) -> Any:
        """The carry ``record`` wears in this slot, or None."""
        holder = record.extra if self.field == "extra" else getattr(record, "ext", None)
        value = holder.get(CARRY_KEY) if isinstance(holder, dict) else None
        return value.get(CARRY_BESIDE) if isinstance(value, dict) else value

    def strip(self, record: Record) -> None:
        """Take the whole ``memconv`` key out of this slot (the dialect's marks beside the carry too)."""
        if self.field == "extra":
            record.extra.pop(CARRY_KEY, None)
            return
        ext = getattr(record, "ext", None)
        if isinstance(ext, dict) and CARRY_KEY in ext:
            rest = {k: v for k, v in ext.items() if k != CARRY_KEY}
            record.ext = rest or None


@dataclass(frozen=True)
class LinkNaming:
    """How a dialect names a record that comes from another dialect (the link, and so its file).

    ``form``: ``kept`` (the record's own link), ``typed`` (its file type word, ``_``, the slug of the
    record's name: ``feedback_no-mocks``; the words are ``FILE_TYPE_WORDS`` and
    ``FILE_TYPE_WORD_ELSE``), or ``title`` (the record's title, as it is). ``numbered``: the form of
    the n-th record given one name (``{}-{}``: ``name-2``).
    """

    form: Literal["kept", "typed", "title"] = "kept"
    numbered: str = "{}-{}"


#: A day as the formats write it: ``2026-07-30``.
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def is_day(value: object) -> bool:
    """Whether ``value`` is a day written YYYY-MM-DD (``--date``, ``Occasion.date``): a real day, in that form only
    (``date.fromisoformat`` alone also takes ``20260101`` and the week date ``2026-W01-1``)."""
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Occasion:
    """What a writer is told besides the store: the day it may stamp, and who hears what it says.

    A writer is pure, ``(store, occasion) → files``: it reads no clock, and it
    reports a warning (a renamed file, a record given a date it lacked) to the
    occasion instead of changing the store it writes.

    ``date`` (``YYYY-MM-DD``) is the day stamped where a format needs one and the
    records hold none (memspec's ``created`` of an undated record, memfmt's
    ``generated:``); None: the writer derives it from the records (never from the
    clock). ``warn`` is called with each warning, once per write; None: the
    warnings go on ``store.warnings``, each once, as ``write(store)`` always did.
    ``records_only``: the caller looks only at the records' own files (a format patch
    compares each with the file it was read from; the read-back reads each back), so a
    writer may leave out the files it makes of the store as a whole, such as an index, but
    not a record such a file would have replaced; one that writes them anyway is not wrong.
    ``Occasion()`` is what a writer given no occasion assumes.
    """

    date: str | None = None
    warn: Callable[[str], None] | None = None
    records_only: bool = False
    #: ``id()`` of the store's records that arrive from another dialect (a conversion's, not a record home
    #: again): a writer that keeps a hand-written index links them there, since nothing else would.
    arrived: frozenset[int] = frozenset()
    #: ``id()`` of the store's records home again from a conversion (converted into another dialect earlier, and
    #: now back), each named by its link as it was at home: a writer that names files by their links gives such a
    #: record that name as it would its own file's, a clash with another name said, not numbered, so the round
    #: trip gives IN's names back (``Names.place``'s ``own``; docs/conversion.md).
    home: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.date is None:
            return
        if not is_day(self.date):
            raise UsageError(f"the occasion's date {self.date!r} is not a day",
                             hint="give it as YYYY-MM-DD, or None to take it from the records")

    def teller(self, store: Store) -> Callable[[str], None]:
        """The function a writer of ``store`` says each warning to: ``warn`` (each warning once), or
        ``store.warnings`` (appended when not there yet: a writer may run more than once, check and
        dry run) when the occasion has no ``warn``."""
        if self.warn is None:
            warnings = store.warnings

            def to_store(warning: str) -> None:
                if warning not in warnings:
                    warnings.append(warning)
            return to_store
        warn, said = self.warn, set()

        def to_sink(warning: str) -> None:
            if warning not in said:
                said.add(warning)
                warn(warning)
        return to_sink


#: The occasion of a write given none: the date from the records, the warnings on the store.
NO_OCCASION = Occasion()


@runtime_checkable
class Dialect(Protocol):
    """The members every dialect module has (a module satisfies this structurally).

    ``NAME`` is its name on the command line. ``detect`` says, cheaply and on
    real evidence only, whether a folder holds a store of it (``seen`` is one
    listing of the folder shared by every dialect). ``read`` is files in, model
    out: it runs the dialect's migration ladder, quarantines what it cannot read
    and keeps files it does not own as ``Store.foreign``. ``read_file`` reads one
    file from bytes in memory (``ReadError`` on bad input): the converter reads
    back what the writer wrote with it. ``write`` is model in, files out, in
    memory, pure: ``(store, occasion) → files`` (an :class:`Occasion`: the date,
    where warnings go; None is ``Occasion()``); it writes ``store.foreign`` as
    they are (memconv's notes travel there). ``KIND_HOMES``: model kind → the model kind it holds it as
    natively (a kind left out is carried whole). ``LIFECYCLE_STATES``: the
    lifecycle states it can say (a record in another is kept as a note).
    """

    NAME: str
    KIND_HOMES: Mapping[str, str]
    LIFECYCLE_STATES: frozenset[str]

    def detect(self, root: Path, seen: Folder | None = None) -> Detection | None: ...

    def read(self, root: Path) -> Store: ...

    def read_file(self, path: str, raw: bytes, meta: dict) -> Record | None: ...

    def write(self, store: Store, context: Occasion | None = None) -> dict[str, bytes]: ...


@dataclass(frozen=True)
class Optional:
    """One member a dialect may leave out: what it is, and what the converter assumes without it."""

    #: What it means, for docs and error messages.
    meaning: str
    #: The kind of value: ``callable``, ``bool``, ``str``, ``names`` (strings), ``mapping``, or a class.
    kind: object
    #: The value assumed when a dialect does not declare it, made from the module (a default may
    #: follow from the dialect's other members).
    default: Callable[[ModuleType], Any]


def _always(value: Any) -> Callable[[ModuleType], Any]:
    return lambda module: value


def _says_its_states(module: ModuleType) -> Callable[[Record], bool]:
    states = frozenset(module.LIFECYCLE_STATES)
    return lambda record: record.lifecycle.state in states


#: Every member a dialect may declare besides :class:`Dialect`'s, with its default.
OPTIONAL: dict[str, Optional] = {
    # reading and writing
    "read_records": Optional("read_records(path, raw, meta) -> list[Record]: a file that holds many records, "
                             "read in memory (without it, read_file reads each file)", "callable", _always(None)),
    "iter_write": Optional("iter_write(store, render=None, context=None): the files of write, one at a time",
                           "callable", _always(None)),
    "splice": Optional("splice(rendered, marker, carry) -> rendered | None: what iter_write's render gives for "
                       "a record wearing the carry string ``carry`` in its slot (None: wearing none), from what it "
                       "gave for the same record wearing the string ``marker`` there (the read-back's); None when "
                       "it cannot tell. "
                       "A conversion then writes each record once more without rendering it again "
                       "(without it, the final write renders every record)", "callable", _always(None)),
    "SPLICED_READS": Optional("(with splice) the model fields iter_write reads of a record whose rendering it is "
                              "given: a conversion that hands its records over may let the rest of a spliced "
                              "record go before the final write (None: it keeps the whole record)", "names",
                              _always(None)),
    "PLANS_HOME_BY_CARRY": Optional("(with SPLICED_READS) what its iter_write works out at its call depends on "
                                    "the carry of a record home again (memfmt: an unchanged record keeps its "
                                    "file's path and bytes, and a profile its date): in a conversion in which a "
                                    "record comes home, every record wears its marker before the read-back's "
                                    "write is called, and the final write renders every record again",
                                    "bool", _always(False)),
    "iter_read": Optional("iter_read(root) -> (Store, Iterator[Record]): read, one record at a time: the store "
                          "without its records, whole once they are read (with write_each: runs within the "
                          "dialect hold one record at a time)", "callable", _always(None)),
    "READS_TWICE_TO_STREAM": Optional("its iter_read reads the store twice (a record's file depends on the others': "
                                      "memfmt): a run that holds the store anyway (a conversion into another "
                                      "dialect) reads it with read, once", "bool", _always(False)),
    "LAYOUT_ONLY_TO_RENDER": Optional("its writer asks a record's layout only to render it anew (an unedited record "
                                      "is written as its bytes): memconv merge reads its stores without layouts, "
                                      "each read again from its file's bytes (read_file) when a record is rendered "
                                      "anew", "bool", _always(False)),
    "read_each": Optional("read_each(root, each, hold=None) -> Store: read, whole, with each(record) done to every "
                          "record as it is read, before the next is read, and store.records holding hold(record) of "
                          "each (given: what it needs of a record is taken first): a dialect read once for a "
                          "conversion into another (READS_TWICE_TO_STREAM) then holds no two records' layouts at "
                          "once, and each record packed",
                          "callable", _always(None)),
    "write_each": Optional("write_each(store, records, context=None): iter_write for records given one at a time, "
                           "each rendered before the next is asked for: the same files in the same order",
                           "callable", _always(None)),
    "WRITES_EACH_CONVERTED": Optional("its write_each takes a conversion's records too, one at a time, with a "
                                      "``render`` map (write_each(store, records, context=None, render=None)): "
                                      "it names each from the names given before it alone, and keeps no record "
                                      "once written. A conversion into it then holds each native record packed "
                                      "until it is written, and lets it go after (docs/performance.md)", "bool",
                                      _always(False)),
    "each_facts": Optional("each_facts() -> (add, facts): (with WRITES_EACH_CONVERTED) what its iter_write works "
                           "out of every record at its call, gathered by add(record) of each record in order; "
                           "its write_each is then called with facts=facts() (memspec: the ids and the date of "
                           "the undated; memfmt: its file plan). Without it, its write_each needs nothing of the "
                           "records before them",
                           "callable", _always(None)),
    "placeholder": Optional("placeholder(path, data) -> str | None: why its writer adds ``path``, an empty file "
                            "that only keeps a folder its own tools write into (memspec's archive/.gitkeep), or "
                            "None: check counts such a file no difference, and says why it would be added",
                            "callable", _always(None)),
    "APPEND_ONLY": Optional("files of its stores its own tools only ever append to (paths from the store's "
                            "root; memoir: events.jsonl): a merge takes a copy that holds every line of the "
                            "other's as that side's appends, and keeps the lines both added, once, in order",
                            "names", _always(())),
    "read_index": Optional("read_index(raw, path, present) -> IndexFile: a hand-written index read again",
                           "callable", _always(None)),
    "relinked_index": Optional("relinked_index(index, rename) -> IndexFile | None: a hand-written index with each "
                               "link to a record renamed (old link → new) linking its new name, the rest as "
                               "written; None when none links one (without it, an index is taken as it is)",
                               "callable", _always(None)),
    "generated_index": Optional("generated_index(store) -> dict[str, bytes]: the index pages its writer "
                                "would make for these records", "callable", _always(None)),
    "GENERATED_PAGE_BYTES": Optional("(with generated_index) the most bytes a page generated_index makes holds: "
                                     "an index file larger is known to be none of them without making them (None: "
                                     "no bound)", int, _always(None)),
    "record_paths": Optional("record_paths(store) -> [path]: where its writer puts each record, in the order of "
                             "the records, known by place, not identity (a format patch tells by it a record "
                             "written at another's path, in that file's bytes, from its own file; without it, the "
                             "file at a record's path is taken for its own)",
                             "callable", _always(None)),
    "VERSIONS": Optional("(reads, writes): the versions of its stores it reads and the one it writes, in words "
                         "(memconv dialects)", "pair", _always(("", ""))),
    "LADDERS": Optional("its migration ladders (memconv.migrations.Ladder), one per kind of versioned file",
                        "ladders", _always(())),
    # the carry
    "CARRY_SLOT": Optional("where its extension mechanism holds memconv's carry (a CarrySlot)", CarrySlot,
                           _always(CarrySlot())),
    "CARRY_ORIGIN": Optional("every record crossing between it and another dialect carries the dialect it came "
                             "from, even when nothing else differs (a dialect holding every field cannot tell "
                             "its own records from others' otherwise)", "bool", _always(False)),
    "NATIVE_FIELDS": Optional("model fields it holds as they are: never carried for it", "names",
                              _always(frozenset())),
    "RIDES_AS_UNKNOWN": Optional("model fields a record from another dialect brings that its writer keeps with "
                                 "the record's unknown keys rather than as its own key", "names", _always(())),
    "UNSET_READS_AS": Optional("kind → model field → the value its tools read for that field when its file leaves "
                               "the key out, which its writer writes for the field unset (memfmt: a procedure's "
                               "version 1, counts 0): a record home again with the field unset, read back with that "
                               "value, lost nothing", "mapping", _always({})),
    "WITNESS_FIELDS": Optional("fields its own tools add to a record (a verification) that another dialect may "
                               "have no field for: a record home again elsewhere keeps them in its carry",
                               "names", _always(())),
    "refused_values": Optional("refused_values(record) -> dict: the keys and values of a record from another dialect "
                               "that its writer does not write, its own validator refusing them there (memoir: "
                               "created: last week); the carry keeps them, the conversion warns", "callable",
                               _always(lambda record: {})),
    "WITNESS_EDITS": Optional("fields its own tools change on a record: kept the same way when edited there",
                              "names", _always(())),
    # kinds, lifecycle, working set
    "kind_says_state": Optional("kind_says_state(record, kind) -> bool: whether a record of that kind can say the "
                            "record's lifecycle state (without it: any kind can say every state it declares)",
                            "callable", _always(lambda record, kind: True)),
    "marks_edited_state": Optional("marks_edited_state(record) -> bool: whether, as the record's home, it can "
                                   "mark a state the record was given elsewhere (it may put it in its own "
                                   "word); without it, a state it declares", "callable", _says_its_states),
    "OPAQUE_FILES": Optional("it keeps a record it cannot read (opaque) whole, as a file of its own; a bare "
                             "one (no frontmatter) stays bare, its carry in a sidecar note", "bool",
                             _always(False)),
    # link naming
    "LINK_NAMING": Optional("how it names a record from another dialect (a LinkNaming)", LinkNaming,
                            _always(LinkNaming())),
    "native_link": Optional("native_link(record, kind) -> str: the link a record from another dialect gets "
                            "(overrides LINK_NAMING's form)", "callable", _always(None)),
    "LINK_ID": Optional("the form of its links when they are ids, not names (a compiled pattern): such a link "
                        "is never slugged into another dialect's file name", re.Pattern, _always(None)),
    "TITLE_IS_LINK": Optional("kinds whose title is their link (a record of them is linked by name)", "names",
                              _always(frozenset())),
    "FILE_TYPE_WORDS": Optional("model kind → the word its file names start with (``feedback_testing``)", "mapping",
                                _always({})),
    "FILE_TYPE_WORD_ELSE": Optional("the word of every kind not in FILE_TYPE_WORDS, and of a record kept whole "
                                    "(without it: the kind's own name)", "str", _always(None)),
    # the mapping and the edge modules (docs/plugins.md, the last section: their meaning and defaults)
    "CONCEPTS": Optional("its concepts, the rows of docs/mapping.md: (name, kind or None, meaning[, topic]); "
                         "without it, mapping.py makes one row per kind it holds natively", "tuples", _always(None)),
    "HOLDS": Optional("how it holds each store-level concept of any dialect, in words (its column of "
                      "docs/mapping.md); a topic it leaves out, mapping_doc.holds says from its declarations",
                      "mapping", _always({})),
    "EDGE_TYPES": Optional("the edge types its files say natively (None: any type, as relations)", "names",
                           _always(None)),
    "EDGE_KINDS": Optional("the kinds whose files say its EDGE_TYPES (None: every kind); another kind says no edge",
                           "names", _always(None)),
    "INDEX_IS_CONTENT": Optional("its index is written by hand: what it says beyond its links is content", "bool",
                                 _always(False)),
    "LOSSY_AS_DOSSIER": Optional("kinds it holds only through memconv's marker, which --lossy writes as plain "
                                 "records kept whole", "names", _always(frozenset())),
    "KEPT_WHOLE_TYPES": Optional("the type words a record kept whole may say", "names", _always(None)),
    "KEPT_WHOLE_READ_AS": Optional("type word → the kind a record kept whole with it is elsewhere", "mapping",
                                   _always({})),
    "TEXT_FIELDS": Optional("kind → the text fields its files show for it", "mapping", _always({})),
    "UNKNOWN_KEYS_HIDDEN": Optional("its writer keeps a record's unknown keys where its tools neither show nor search "
                                    "them: readable.show writes them into the record's text too", "bool",
                                    _always(False)),
    "OWNED_KEYS": Optional("kind or * → the frontmatter keys its files own for a record it holds natively (its "
                           "writer writes its own value there), so that a record's unknown key of that name is "
                           "not written: readable.show writes it into the record's text too", "mapping",
                           _always({})),
    "DEFAULT_TEXT_FIELDS": Optional("the text fields its files show for a kind not in TEXT_FIELDS (an entry's)",
                                    "names", _always(frozenset({"title", "description", "body", "aliases"}))),
    "ONE_LINE_FIELDS": Optional("model fields (``extra`` for the unknown keys) its files hold on one line: a "
                                "record from another dialect gets each with its line breaks made spaces, the "
                                "exact text carried", "names", _always(frozenset())),
    "NO_EMPTY_LISTS": Optional("model list fields its files cannot say empty: a record from another dialect "
                               "gets an empty one as none, the empty list carried", "names", _always(frozenset())),
    "REQUIRED_TEXT": Optional("kind or * → the fields its tools expect a record to have", "mapping",
                              _always({})),
    "SECTION_FIELDS": Optional("kind → the text fields its tools read from a labelled section of the body "
                               "(**How to apply:**), not from a key: written there when the body has none",
                               "mapping", _always({})),
    "NOTES_ROOT": Optional("the folder of its store its .memconv/notes/ is in", "str", _always("")),
    "NOTE_SUFFIX": Optional("how its notes' file names end: .md, or another where a tool of its own reads every "
                            "Markdown file under the store, hidden folders too", "str", _always(".md")),
    "KEPT_SUFFIX": Optional("what the name of a .md file memconv keeps as IN had it (.memconv/files/, "
                            ".memconv/quarantine/) gains where a tool of its own reads every Markdown file under "
                            "the store, hidden folders too", "str", _always("")),
    "kept_root": Optional("kept_root(store) -> str: the folder of OUT its reader reads that store from, where "
                          "memconv keeps the originals it quarantined (.memconv/quarantine/) so a later run "
                          "carries them (without it: NOTES_ROOT)", "callable", _always(None)),
    "LINKS_ARE_FILE_NAMES": Optional("its writer makes a file name of a record's link", "bool", _always(True)),
    "takes_link": Optional("takes_link(link) -> bool: (with LINKS_ARE_FILE_NAMES) whether its reader reads the "
                           "file its writer makes of a record's link as that record (not in a folder, not its "
                           "index's name, its id's form): a carried link it does not take is refused "
                           "(without it: any link the path guard passes)", "callable", _always(None)),
    "writes_edge": Optional("writes_edge(type, direction) -> bool: whether its writer has a word for an edge; "
                            "a carried edge it has none for is refused (without it: its writer takes any edge, "
                            "writing what it cannot say elsewhere)", "callable", _always(None)),
    "FIELD_VALUES": Optional("model field → the values its reader takes for it (memspec's source_kind): a "
                             "carried value one such dialect does not take is refused", "mapping",
                             _always({})),
    "WORKING_SET_AS": Optional("(kind, link) of the record another dialect's working set is shown as", "pair",
                               _always(("fact", "working-set"))),
    "WORKING_SET_DESCRIPTION": Optional("(the dialect that has a working set) what it is, in words", "str",
                                        _always("What the session was doing")),
    "read_working_set": Optional("read_working_set(raw, path): its working set's file format, read; with "
                                 "write_working_set, it holds the model's working set natively (others get a "
                                 "rendering and a note)", "callable", _always(None)),
    "write_working_set": Optional("write_working_set(ws): its working set's file format, written", "callable",
                                  _always(None)),
    # merging
    "merge": Optional("merge(a, b, hints=None) -> memconv.merge.MergeResult: two of its stores merged, for "
                      "memconv merge and convert --into (the built-ins' rules are in memconv.merge; "
                      "memconv.merge.records applies a dialect's Rules); without it, merge refuses its stores",
                      "callable", _always(None)),
    # store facts
    "STORE_FACTS": Optional("store facts (Store.meta) its writer assumes when told nothing, with their values: "
                            "not worth carrying", "mapping", _always({})),
    "FOLDER_FACTS": Optional("store facts that name a folder of the store (a carried one may not leave it, and is "
                             "its STORE_FACTS value or \"\", a store read at its folder's root: what its reader "
                             "gives)",
                             "names", _always(())),
}

#: The members of :class:`Dialect`, and the kind each must be.
REQUIRED: dict[str, object] = {"NAME": "str", "KIND_HOMES": "mapping", "LIFECYCLE_STATES": "names",
                               "detect": "callable", "read": "callable", "read_file": "callable",
                               "write": "callable"}

def declared(module: ModuleType, name: str) -> Any:
    """What ``module`` declares as ``name``, or the default :data:`OPTIONAL` gives for it.

    The one way the converter asks a dialect for an optional member
    (:func:`memconv.dialects.declaration` keeps the answers, once per registry).
    A name :data:`OPTIONAL` does not list raises ``KeyError`` (a typo is a bug, not a default).
    """
    spec = OPTIONAL[name]
    value = getattr(module, name, None)
    return spec.default(module) if value is None else value


def takes_context(function: Callable[..., Any]) -> bool:
    """Whether a dialect's ``write`` or ``iter_write`` takes an occasion (a parameter ``context``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a callable Python cannot describe: asked without one
        return False
    return any(p.name == "context" and p.kind is not p.POSITIONAL_ONLY or p.kind is p.VAR_KEYWORD
               for p in parameters)


def _takes_the_store_alone(function: Callable[..., Any]) -> bool:
    try:
        inspect.signature(function).bind(None)
    except TypeError:
        return False
    except ValueError:  # no signature to ask: trusted
        return True
    return True


def write_with(module: ModuleType, store: Store, context: Occasion | None = None) -> dict[str, bytes]:
    """``module.write(store, context=context)``, for any dialect: the one way to write with an occasion.

    A plugin whose ``write`` takes the store alone (``docs/plugins.md``) is
    written as it is: the date is its own to find, and what it puts on the
    store's warnings goes to ``context.warn`` instead (it writes a copy of the
    store whose warnings list is its own, so the store is left as it was).
    """
    return dict(_told(module.write, store, context, lambda write, s, **c: write(s, **c).items()))


def iter_write_with(module: ModuleType, store: Store, render: Callable | None = None,
                    context: Occasion | None = None) -> Iterator[tuple[str, bytes]]:
    """``module.iter_write(store, render, context=context)`` (or its ``write``'s files when it has none),
    for any dialect, as :func:`write_with` writes."""
    iter_write = getattr(module, "iter_write", None)
    if iter_write is None:
        return iter(write_with(module, store, context).items())
    return _told(iter_write, store, context, lambda write, s, **c: write(s, render, **c))


def write_each_with(module: ModuleType, store: Store, records: Iterable[Record], render: Callable | None = None,
                    context: Occasion | None = None, facts: Any = None) -> Iterator[tuple[str, bytes]]:
    """``module.write_each(store, records, context=context, render=render)``, as :func:`iter_write_with` writes,
    for a dialect that declares ``WRITES_EACH_CONVERTED``; told ``facts`` too where it declares ``each_facts``."""
    told = {"render": render} if facts is None else {"render": render, "facts": facts}
    return _told(module.write_each, store, context, lambda write, s, **c: write(s, records, **told, **c))


def _told(function: Callable[..., Any], store: Store, context: Occasion | None,
          call: Callable[..., Iterable[tuple[str, bytes]]]) -> Iterator[tuple[str, bytes]]:
    if context is None:
        return iter(call(function, store))
    if takes_context(function):
        return iter(call(function, store, context=context))
    if context.warn is None:
        return iter(call(function, store))  # its warnings go where the occasion sends them: the store's
    return _relayed(function, store, context, call)


def _relayed(function, store, context, call) -> Iterator[tuple[str, bytes]]:
    own = dataclasses.replace(store, warnings=[])
    tell = context.teller(store)
    said = 0
    for item in call(function, own):
        yield item
        for warning in own.warnings[said:]:
            tell(warning)
        said = len(own.warnings)
    for warning in own.warnings[said:]:
        tell(warning)


def _ladder_problems(ladder: Ladder) -> list[str]:
    """What a migration ladder lacks: versions (a sequence, oldest first, each once: increasing where they are
    numbers; the last is current), and for every version but the last a step (a function) and its line
    (``describe``, a str). ``Ladder.current``, ``climb`` and ``memconv dialects`` ask for each of them."""
    versions = ladder.versions
    if not isinstance(versions, (tuple, list)):
        return ["versions must be a tuple, oldest first"]
    if not versions:
        return ["has no versions (the last is the one it reads as current)"]
    try:
        if len(set(versions)) != len(versions):
            return ["names a version twice"]
    except TypeError:
        return ["versions must be hashable (numbers or words)"]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in versions) \
            and any(a >= b for a, b in zip(versions, versions[1:])):
        return ["versions must be increasing (oldest first)"]
    found = []
    for member, what, fits in (("steps", "a function", callable), ("describe", "a str", lambda v: isinstance(v, str))):
        table = getattr(ladder, member)
        if not isinstance(table, Mapping):
            found.append(f"{member} must be a mapping (version → {what})")
            continue
        noun = "step" if member == "steps" else member
        for v in versions[:-1]:
            if v not in table:
                found.append(f"has no {noun} for version {v!r}")
            elif not fits(table[v]):
                found.append(f"{noun} for version {v!r} is not {what}")
    return found


def _fits(value: Any, kind: object) -> bool:
    if kind == "callable":
        return callable(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "names":
        return isinstance(value, Iterable) and not isinstance(value, (str, Mapping)) \
            and all(isinstance(v, str) for v in value)
    if kind == "mapping":
        return isinstance(value, Mapping)
    if kind == "tuples":
        return isinstance(value, tuple) and all(isinstance(v, tuple) for v in value)
    if kind == "pair":
        return isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value)
    if kind == "ladders":
        return isinstance(value, Iterable) and all(isinstance(v, Ladder) for v in value)
    return isinstance(value, kind)  # type: ignore[arg-type]


def problems(module: ModuleType, name: str | None = None) -> list[str]:
    """What ``module`` lacks or gets wrong as a dialect (registered as ``name``); empty when it is one."""
    found = []
    for member, kind in REQUIRED.items():
        if not hasattr(module, member):
            found.append(f"it has no {member} ({'a function' if kind == 'callable' else kind})")
        elif not _fits(getattr(module, member), kind):
            found.append(f"its {member} is not a {kind}")
    for member, spec in OPTIONAL.items():
        value = getattr(module, member, None)
        if value is not None and not _fits(value, spec.kind):
            kind = spec.kind if isinstance(spec.kind, str) else spec.kind.__name__  # type: ignore[attr-defined]
            found.append(f"its {member} is not a {kind}: {spec.meaning}")
    if found:
        return found
    for ladder in declared(module, "LADDERS"):
        found.extend(f"its ladder {ladder.subject!r} {wrong}" for wrong in _ladder_problems(ladder))
    for member in ("write", "iter_write"):
        function = getattr(module, member, None)
        if function is not None and not _takes_the_store_alone(function):
            found.append(f"its {member} must take the store alone ({member}(store)); it may take an occasion "
                         "too, as a parameter named context that has a default")
    if name is not None and module.NAME != name:
        found.append(f"its NAME is {module.NAME!r}, but it is registered as {name!r}")
    homes = module.KIND_HOMES
    wrong = sorted(f"{k}→{v}" for k, v in homes.items() if k not in KINDS or v not in KINDS)
    if wrong:
        found.append(f"its KIND_HOMES name kinds the model does not have ({', '.join(wrong)}; "
                     f"the model's: {', '.join(KINDS)})")
    states = set(module.LIFECYCLE_STATES)
    if "active" not in states or not states <= set(LIFECYCLE_STATES):
        found.append(f"its LIFECYCLE_STATES must hold 'active' and only the model's states "
                     f"({', '.join(LIFECYCLE_STATES)})")
    naming = declared(module, "LINK_NAMING")
    if "{}" not in naming.numbered or naming.numbered.count("{}") != 2:
        found.append("its LINK_NAMING.numbered must have two {} (the name, the number)")
    return found
