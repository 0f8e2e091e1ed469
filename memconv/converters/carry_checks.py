"""A carry and a note are input like any other file: checked whole before any of it is used.

IN is untrusted, memconv's own marks included. :meth:`memconv.converters.carry.Carry.loads`
and the notes' reader call these checks; each raises ``ValueError`` saying what is wrong, and
the caller then converts the record from what the target shows (or ignores the note, with a
warning naming its file).
"""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..dialects import MODULES
from ..errors import MemconvError
from ..fs import safe_relpath
from ..model import KINDS, LIFECYCLE_STATES, IndexFile, Record
from ..text import unwritable
from .codec import check_json
from .format_patch import NEAR
from .native import WORDS


def check_text(doc: Any, where: str) -> None:
    """Every text of a carry's or a note's document (keys too) is text a file holds: no NUL, no lone surrogate.

    JSON says them as escapes (``\\u0000``, ``\\ud800``), and memconv's writers put carried text into the
    target's files: a surrogate cannot be written as UTF-8 (a traceback), and a file with a NUL is refused by
    every reader, so the record was lost on read-back (exit 4) or the index quarantined. No reader reads
    such text from a file, so no carry memconv wrote holds it.
    """
    if unwritable(doc):
        raise ValueError(f"{where} holds a NUL or a lone surrogate (a \\u escape): text no file holds")


def link_names_a_file(owner: str) -> bool:
    """Whether ``owner``'s writer makes a file name of a record's link, so a carried link must pass the path guard.

    The dialect declares it (``LINKS_ARE_FILE_NAMES``, default yes). memfmt names its files
    after a slug of the name, never the link itself; its links are file stems its own library
    wrote (an episode ``happened: "X:"`` is ``X:-episode``, which the guard would take for a
    Windows drive), so a memfmt carry's link is a name only.
    """
    from .mapping import LINKS_ARE_FILE_NAMES

    return LINKS_ARE_FILE_NAMES.get(owner, True)


#: The kinds a record may have (``opaque``: kept whole, type not understood).
_KINDS = frozenset(KINDS) | {"opaque"}


def check_meaning(name: str, value: Any) -> None:
    """Values whose type is right but whose meaning is not: kinds, states, directions, a value a dialect's
    reader refuses (its ``FIELD_VALUES``). Links: :func:`check_link`.

    Dates are checked as text only: every dialect's reader keeps a date field as written
    (memspec ``check_by: never``, memfmt ``happened: -``), so the way back must too.
    """
    if value is None:
        return
    if name == "kind" and value not in _KINDS:
        raise ValueError(f"the carried kind {value!r} is not a kind memconv knows")
    if name == "lifecycle":
        if value.get("state", "active") not in LIFECYCLE_STATES:
            raise ValueError(f"the carried lifecycle state {value.get('state')!r} is not one of "
                             + ", ".join(LIFECYCLE_STATES))
    if name == "edges":
        for edge in value:
            if edge.get("direction", "out") not in ("in", "out"):
                raise ValueError(f"a carried edge has direction {edge.get('direction')!r}, not 'in' or 'out'")
    for dialect, values in dialects.declarations("FIELD_VALUES").items():
        if name in values and value not in values[name]:
            # Its reader would quarantine the record written with it, and a record home from a carry has
            # no file of IN to quarantine: the run stopped as a bug (exit 4).
            raise ValueError(f"the carried {name} {str(value)[:80]!r} is not one {dialect} takes "
                             f"({', '.join(values[name])})")


def check_edges(owner: str, edges: Any) -> None:
    """Carried edges of a record of ``owner`` (a carry's, a noted record's): each one its writer has a word for, where
    it says which (``writes_edge``). Its reader makes no other, and its writer stops the run on one (exit 4)."""
    writes = dialects.declaration(owner, "writes_edge")
    if writes is None or not edges:
        return
    for edge in edges:
        if not writes(edge.get("type"), edge.get("direction", "out")):
            raise ValueError(f"a carried edge is {edge.get('type')!r} ({edge.get('direction', 'out')}), which "
                             f"{owner} has no word for")


def check_link(owner: str, link: Any) -> None:
    """A carried link of a record of ``owner`` (a carry's, a noted record's): where ``owner``'s writer makes a
    file name of it, it passes the path guard and names a file ``owner``'s reader reads as a record (its
    ``takes_link``: ``MEMORY`` may be its index's name, ``a/b`` a folder it does not read)."""
    if not link or not isinstance(link, str) or not link_names_a_file(owner):
        return
    check_path("link", link)
    takes = dialects.declaration(owner, "takes_link")
    if takes is not None and not takes(link):
        raise ValueError(f"the carried link {link[:80]!r} is not a name {owner} reads a record by: its writer "
                         "would put the record where its reader does not look (in a folder, at its index's "
                         "name, or not in its id's form)")


def check_path(name: str, value: str) -> None:
    """A carried path (a link writers make a file name of, a format patch's file): relative, inside the store."""

    try:
        safe_relpath(value)
    except MemconvError:
        raise ValueError(f"the carried {name} {value[:80]!r} is not a safe relative path: it would land outside the store") from None


def check_inline(mark: Any) -> None:
    """The mark of a rendering of an index's inline bullet: the index's path, the bullet's section heading and
    number (or ``words``: the index's own words), and the rendering's digest. A list or a mapping where text
    goes ended the run with exit 4 (kept in a set, unhashable)."""
    if not isinstance(mark, dict) or not isinstance(mark.get("path"), str) \
            or not isinstance(mark.get("digest", ""), str) or not isinstance(mark.get("section"), (str, type(None))) \
            or type(mark.get(WORDS, False)) is not bool \
            or not (type(mark.get("n")) is int or (mark.get(WORDS) is True and mark.get("n") is None)):
        raise ValueError("the carried inline mark is not one memconv writes (an index's path, and a bullet's "
                         "section and number, or its words)")


def check_format(patch: Any) -> None:
    """A format patch: ``{"path", "raw"}`` or ``{"path", "base", "ops": [[from, to, text]…]}`` in order, with
    ``"near": ["before:replaced:after"…]``, the digests of the lines around and under each op (a patch made before
    it has none)."""
    if not isinstance(patch, dict) or not isinstance(patch.get("path"), str):
        raise ValueError("the carried format is not a format patch")
    check_path("format.path", patch["path"])
    if "raw" in patch:
        check_json(patch["raw"], str, "the carried format.raw")
        return
    check_json(patch.get("base"), str, "the carried format.base")
    check_json(patch.get("ops"), list[list[Any]], "the carried format.ops")
    pos = 0
    for op in patch["ops"]:
        if len(op) != 3 or type(op[0]) is not int or type(op[1]) is not int or not isinstance(op[2], str) \
                or not pos <= op[0] <= op[1]:
            raise ValueError("the carried format.ops are not edits in order")
        pos = op[1]
    if "near" in patch:  # (a patch made before memconv wrote it has none)
        near = patch["near"]
        if not isinstance(near, list) or len(near) != len(patch["ops"]) \
                or not all(isinstance(n, str) and NEAR.fullmatch(n) for n in near):
            raise ValueError("the carried format.near does not say the lines of each of its ops")


def check_note(doc: dict[str, Any]) -> None:
    """Raise ``ValueError`` unless a note's document (``record``, ``working_set`` or ``store``) is what memconv writes.

    A note is input like a carry: a record it holds is checked field by field
    as a carried one is, before anything is built from it.
    """
    check_text(doc, "the note")
    if "record" in doc:
        record = doc["record"]
        if doc.get("from") not in MODULES:
            raise ValueError(f"the note names {doc.get('from')!r} as its dialect, which memconv does not know")
        check_json(record, Record, "the noted record")
        for name, value in record.items():
            check_meaning(name, value)
        check_edges(doc["from"], record.get("edges"))
        check_link(doc["from"], record.get("link"))
    elif "working_set" in doc:
        check_json(doc["working_set"], dict[str, Any], "the noted working set")
        _check_working_set(doc["working_set"])
    elif "store" in doc:
        store = doc["store"]
        check_json(store, dict[str, Any], "the noted store")
        if store.get("from") not in MODULES:
            raise ValueError(f"the note names {str(store.get('from'))[:80]!r} as the store's dialect, which memconv "
                             "does not know")
        _check_store_facts(store.get("meta", {}))
        check_json(store.get("indexes", []), list[IndexFile], "the noted indexes")
        check_json(store.get("raw", {}), dict[str, str], "the noted index texts")
        check_json(store.get("meta", {}), dict[str, Any], "the noted store facts")
        for path in store.get("raw", {}):
            check_path("index path", path)
        for index in store.get("indexes", []):
            check_path("index path", index["path"])
    if doc.get("format") is not None:
        check_format(doc["format"])


#: The JSON type of a store fact, by the type of the value a dialect's writer assumes for it (``STORE_FACTS``).
_FACT_TYPES = {str: str, bool: bool, tuple: list[str], list: list[str], int: int}


def _check_store_facts(meta: Any) -> None:
    """A store fact some dialect's writer assumes (its ``STORE_FACTS``) has that value's type: a folder that is
    text, operators that are a list of text (a list or a number there ended the run with exit 4)."""
    if not isinstance(meta, dict):
        return  # check_json says so
    for facts in dialects.declarations("STORE_FACTS").values():
        for key, default in facts.items():
            hint = _FACT_TYPES.get(type(default))
            if key in meta and meta[key] is not None and hint is not None:
                check_json(meta[key], hint, f"the noted store fact {key}")


def _check_working_set(document: dict[str, Any]) -> None:
    """A noted working set is one its own dialect's reader reads, as that dialect's writer writes it (decided
    2026-12-04: a crafted ``version: 99`` was written as a ``session.json`` that reader quarantines)."""
    from ..errors import ReadError
    from ..model import WorkingSet
    from .mapping import working_set_dialect

    owner = working_set_dialect()
    if owner is None:
        return
    try:
        owner.read_working_set(owner.write_working_set(WorkingSet(document=document)), "the noted working set")
    except ReadError as exc:
        raise ValueError(f"the noted working set is not one {owner.NAME} reads ({exc.problem})") from None
