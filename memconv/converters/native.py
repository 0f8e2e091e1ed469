"""Records made for the target's user from what the source keeps outside its records.

Two things a source says are not records of its own: memoir's working set
(``session.json``) and the inline bullets of a Claude ``MEMORY.md`` (old
stores keep their memory that way). A target that has no home for them as
such still shows them natively, as records its tools load and search:

* the working set becomes one record, "Working set": a Claude ``project``
  memory, a memspec fact claim, a memfmt entity whose facts are its items;
* every inline bullet becomes a fact (a memfmt entity), titled by its words;
* what an index says beyond its bullets and what its memories say (a
  paragraph, a fenced block, a Claude index's title and headings, a link's
  hook its memory's description does not say) becomes one fact, "MEMORY.md's
  own words".

These records are renderings. The exact source (the working set's JSON, the
index file) travels in a note, and each rendering carries a marker saying
what it renders, so the way back drops it again instead of adding a record:
an unedited rendering goes, an edited one is reported (the working set) or
kept as a record of its own (an inline bullet, now an entry). The working
set's readable text (:func:`render_working_set`) is made here, for its
rendering and for the body of the note that holds its exact JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..dialects.protocol import declared, is_day
from ..merge.identity import instant, is_hidden, item_key
from ..model import IndexFile, Record, WorkingSet
from ..text import flat, printable, short_digest, slug, title_of
from .mapping import (INDEX_IS_CONTENT, TARGET_KIND, TYPE_WORDS, WORKING_SET_AS, native_text, type_word,
                      working_set_dialect)
from .naming import native_link

#: The working set's lists, in reading order: (key, heading, the key of an item's date, the keys the memoir spec
#: gives an item beside ``text``, ``machine_id`` and its date).
_LISTS = (
    ("goals", "Goals", "set_on", ()),
    ("next_actions", "Next actions", "added", ()),
    ("parked_actions", "Parked actions", "added", ("parked_at",)),
    ("open_questions", "Open questions", "asked", ()),
    ("decisions", "Recent decisions", "date", ("why", "rejected", "hidden", "hidden_at", "text_hash")),
    ("completed_actions", "Completed actions", "done_at", ()),
    ("completed_goals", "Completed goals", "done_at", ()),
)
#: The keys the spec gives a ``history`` row, and ``session.json`` itself: the others are shown as unknown.
_HISTORY_KEYS = frozenset({"date", "machine_id", "summary", "files_touched", "duration_min", "session_id"})
_SESSION_KEYS = frozenset({"version", "created_at", "updated_at", "machines", "current", "history"})
#: What an item of a list the spec does not name is known by: its text, and whether it is hidden.
_TEXT_KEYS = frozenset({"text", "hidden"})
#: A live list → the list of its completion tombstones (spec §5.3.2; a parked action is a next action, §5.2).
_DONE_IN = {"goals": "completed_goals", "next_actions": "completed_actions", "parked_actions": "completed_actions"}


def _completed(ws: WorkingSet, name: str, item: dict[str, Any], date_key: str) -> bool:
    """Whether ``item`` of the live list ``name`` is done: a tombstone of its identity whose ``done_at`` is not
    before its date (spec §5.3.2, the rule a merge applies: ``merge.session._suppress``). A later copy is a re-add."""
    stones = ws.current(_DONE_IN[name]) if name in _DONE_IN else None
    key = item_key(item)
    return any(isinstance(stone, dict) and item_key(stone) == key
               and instant(item.get(date_key)) <= instant(stone.get("done_at")) for stone in stones or ())


def _not_live(ws: WorkingSet, name: str, item: dict[str, Any], date_key: str, stones: frozenset[str]) -> bool:
    """Whether ``item`` of the list ``name`` is not shown as live: a hidden or purged decision (``stones``: the
    list's :func:`_tombstoned`), a completed action or goal (spec §8). The one rule the rendering
    (:func:`working_set_items`) and what it leaves out (:func:`working_set_unshown`) ask."""
    return is_hidden(item) or _completed(ws, name, item, date_key) or bool(stones and item_key(item) in stones)


def _tombstoned(items: Any) -> frozenset[str]:
    """The identities a hidden item of ``items`` holds: a hidden copy hides every copy of its text, and a purged
    tombstone every one whose text hashes to its ``text_hash`` (spec §5.3.1, keyed as ``merge.session`` keys them:
    :func:`item_key`). A stale live copy beside its tombstone is what a merge by hand or by git leaves."""
    return frozenset(item_key(item) for item in items if is_hidden(item)) if isinstance(items, list) else frozenset()


def working_set_items(ws: WorkingSet) -> list[tuple[str, list[str]]]:
    """The working set's lists as (heading, one line per item), in reading order. Hidden decisions, those a
    tombstone's identity holds (:func:`_tombstoned`), and completed actions and goals (:func:`_completed`) are not
    shown.

    Every key the spec does not name is shown too (:func:`as_line`, one rule): an item's, after its line
    (``— owner: Kenji; due: 2026-07-01``); one under ``current`` and one beside it, under its key
    (``## Blockers``), a list an item a line, any other value one line; in the file's order."""
    out: list[tuple[str, list[str]]] = []
    for name, heading, date_key, keys in _LISTS:
        known = frozenset({"text", "machine_id", date_key, *keys})
        lines = []
        items = ws.current(name) or ()
        stones = _tombstoned(items)
        for item in items:
            if not isinstance(item, dict):  # a bare value (memoir validate rejects it) is still someone's words
                if said := as_line(item):
                    lines.append(said)
                continue
            if _not_live(ws, name, item, date_key, stones):
                continue
            when = as_line(item.get(date_key), within="key")
            extra = f" ({date_key} {when})" if when else ""
            for label in ("why", "rejected") if name == "decisions" else ():
                if said := as_line(item.get(label), within="key"):
                    extra += f" — {label}: {said}"
            if rest := _unknown_keys(item, known):
                extra += f" — {rest}"
            if line := f"{as_line(item.get('text'), within='key')}{extra}".strip():
                lines.append(line)
        if lines:
            out.append((heading, lines))
    named = {name for name, _, _, _ in _LISTS}
    current = ws.document.get("current") if isinstance(ws.document, dict) else None
    # A key the spec does not name (memoir-cli keeps unknown ``current.*`` and top-level keys): shown under it.
    unknown = [(f"current.{key}", heading, lines) for key, heading, lines in _unknown_values(current, named)]
    unknown += _unknown_values(ws.document, _SESSION_KEYS)
    history = []
    for row in ws.history or ():
        if isinstance(row, dict):
            rest = _unknown_keys(row, _HISTORY_KEYS)
            line = f"{as_line(row.get('date'), within='key') or '?'}: {as_line(row.get('summary'), within='key')}"
            if files := as_line(row.get("files_touched"), within="key"):
                line = f"{line.rstrip()} — files touched: {files}"
            history.append(line.rstrip() + (f" — {rest}" if rest else ""))
        elif said := as_line(row):  # a bare row, as a bare item above
            history.append(said)
    # One heading, one list: an unknown key named like a list shown above it (a top-level ``goals`` beside
    # ``current.goals``, a ``current.history``) is headed by its key too (docs/conversion.md).
    taken = {heading for heading, _ in out} | ({"History"} if history else set())
    for key, heading, lines in unknown:
        if heading in taken:
            heading = f"{heading} (session.json key {_line(key)})"
        taken.add(heading)
        out.append((heading, lines))
    if history:
        out.append(("History", history))
    return out


def working_set_unshown(ws: WorkingSet, shown: Record | None) -> list[str]:
    """What of the working set its rendering ``shown`` (None: none) does not show, as report field names: the
    spec's structure (``machines``, an item's ``machine_id``, a history row's ``session_id``...; docs/conversion.md)
    and an item not shown at all (hidden, or done), by its list (``current.decisions``). Without ``--lossy`` they
    travel in the note; with it they are what the conversion drops. Asked once a run, of a store with a working
    set."""
    document = ws.document if isinstance(ws.document, dict) else {}
    created = document.get("created_at")
    out = [key for key in ("created_at", "updated_at", "machines")
           if _says(document.get(key)) and not (key == "created_at" and shown is not None and shown.created == created)]
    # A key the spec does not name, shown by :func:`as_line`, which leaves a hidden object out as it does a hidden
    # decision (a hidden ``blockers`` item): that object is in no file without the note.
    named = frozenset(name for name, _, _, _ in _LISTS)
    unknown = [f"current.{key}" for key, value in _items(document.get("current")) if key not in named and _hides(value)]
    unknown += [str(key) for key, value in _items(document) if key not in _SESSION_KEYS and _hides(value)]
    if shown is None:
        out += [f"current.{name}" for name, _, _, _ in _LISTS if ws.current(name)]
        out += ["history"] if ws.history else []
        return out + unknown
    for name, _, date_key, keys in _LISTS:
        items = ws.current(name) or ()
        stones = _tombstoned(items)
        unshown = ("machine_id", *(k for k in keys if k not in ("why", "rejected")))
        for item in items:
            if not isinstance(item, dict):
                continue
            if _not_live(ws, name, item, date_key, stones):
                out.append(f"current.{name}")
            else:
                out += [f"current.{name}.{key}" for key in unshown if _says(item.get(key))]
    for row in ws.history or ():
        if isinstance(row, dict):
            out += [f"history.{key}" for key in ("machine_id", "duration_min", "session_id") if _says(row.get(key))]
    return list(dict.fromkeys(out + unknown))


def _items(value: Any) -> list[tuple[Any, Any]]:
    """The keys and values of ``value`` when it is a JSON object, else none."""
    return list(value.items()) if isinstance(value, dict) else []


def _hides(value: Any) -> bool:
    """Whether ``value`` holds, at any depth, an object :func:`as_line` does not show: a hidden one."""
    if isinstance(value, dict):
        return is_hidden(value) or any(_hides(v) for v in value.values())
    return isinstance(value, list) and any(_hides(v) for v in value)


def _says(value: Any) -> bool:
    """Whether a value of the spec's structure says something (not null, empty or false)."""
    return value is not None and value is not False and value not in ("", [], {})


def _unknown_values(document: Any, known: frozenset[str] | set[str]) -> list[tuple[str, str, list[str]]]:
    """The keys of ``document`` (a JSON object, else nothing) not in ``known``, each as (key, heading, lines)."""
    out = []
    for name, value in (document.items() if isinstance(document, dict) else ()):
        if name in known:
            continue
        lines = [line for item in (value if isinstance(value, list) else [value]) if (line := as_line(item))]
        if lines:
            out.append((str(name), _line(str(name).replace("_", " ")).capitalize() or "Other", lines))
    return out


def _unknown_keys(item: dict[str, Any], known: frozenset[str]) -> str:
    """The keys of ``item`` not in ``known``, on one line: ``owner: Kenji; due: 2026-07-01``."""
    return "; ".join(f"{_line(str(key))}: {said}" for key, value in item.items()
                     if key not in known and (said := as_line(value, within="key")))


def as_line(value: Any, *, within: str = "") -> str:
    """Any JSON value on one line a person reads, "" when it says nothing (null, an empty text, a hidden item).

    A text as it reads (:func:`_line`); a number or a flag as JSON writes it; a list its values (``a, b``); an
    object its text and then its other keys (``Waiting on the vendor — since: 2026-03-02``), or only its keys
    (``owner: Kenji; note: …``), and not at all when hidden, as a hidden decision is not. ``within``: where the
    value stands, ``"key"`` (a key's value) or ``"list"`` (an element); an object there, and a list in a list, is
    in parentheses, so that its keys are not read as its parent's."""
    if isinstance(value, dict):
        if is_hidden(value):
            return ""
        text = as_line(value.get("text"), within="key")
        rest = _unknown_keys(value, _TEXT_KEYS)
        said = f"{text} — {rest}" if text and rest else text or rest
        return f"({said})" if said and within else said
    if isinstance(value, list):
        said = ", ".join(s for v in value if (s := as_line(v, within="list")))
        return f"({said})" if said and within == "list" else said
    if isinstance(value, str):
        return _line(value)
    if value is None:
        return ""
    if isinstance(value, (bool, int, float)):
        return json.dumps(value)
    return _line(str(value))


def _line(text: str) -> str:
    """``text`` on one line, safe in any line of a target's file: no control character (``text.printable``: a NUL
    would make the file a binary one), every run of whitespace one space (``text.flat``), no lone surrogate (a
    file is UTF-8)."""
    return flat(printable(text)).encode("utf-8", "replace").decode("utf-8")


def render_working_set(ws: WorkingSet, *, title: bool = True) -> str:
    """The working set as markdown a person (or an agent) can read. Hidden decisions are not shown."""
    lines = ["# Working set", ""] if title else []
    for heading, items in working_set_items(ws):
        lines += [f"## {heading}", ""] + [f"- {item}" for item in items] + [""]
    return "\n".join(lines)


#: Carry payload keys that mark a rendering: the way back drops the record.
WORKING_SET = "working_set_rendering"
INLINE = "inline"


def digest(record: Record) -> str:
    """What a rendering says, whitespace aside: an edit in the target changes it."""
    # (an empty title or body says nothing; an empty fact is an empty item)
    text = " ".join([t for t in (flat(record.title or ""), flat(record.body)) if t]
                    + [flat(f) for f in record.facts or ()])
    return short_digest(text)


def working_set_record(ws: WorkingSet, target: str) -> Record | None:
    """The working set as one native record of ``target`` (None when it has nothing to show).

    What record, the target declares (``WORKING_SET_AS``: its kind and link): kept whole
    (``opaque``), it is a memory of the target's catch-all type word; of a kind whose text is a
    list of facts, the items are its facts; otherwise every list is rendered in its body.
    """
    items = working_set_items(ws)
    if not items:
        return None
    document: dict[str, Any] = ws.document if isinstance(ws.document, dict) else {}
    created = document.get("created_at") if isinstance(document.get("created_at"), str) else None
    if not _dated(created):
        # None (memoir's reader invents none): the newest date the session holds, as a target's writer dates a record
        # with no date of its own by the newest in the store (memspec put 2000-01-01 "as the store holds no date").
        created = max((d for d in _session_dates(ws, document) if _dated(d)), key=instant, default=created)
    owner = working_set_dialect()
    description = declared(owner, "WORKING_SET_DESCRIPTION")  # (owner None: the default)
    kind, link = WORKING_SET_AS[target]
    if kind == "opaque":
        return Record(kind="opaque", link=link, title="Working set", description=description,
                      body=render_working_set(ws, title=False), opaque=True,
                      extra={"name": "Working set", "description": description, "type": type_word(target, kind)})
    shown = native_text(target, kind)
    if "facts" in shown and "body" not in shown:
        facts = [f"{heading}: {item}" for heading, lines in items for item in lines]
        return Record(kind=kind, link=link, title="Working set", facts=facts)
    return Record(kind=kind, link=link, title="Working set", created=created,
                  body=f"{description}.\n\n" + render_working_set(ws, title=False).rstrip("\n") + "\n")


def _dated(value: Any) -> bool:
    """Whether ``value`` is a date a target's writer takes: a text that opens with a day and reads as an instant."""
    return isinstance(value, str) and is_day(value[:10]) and instant(value) != 0


def _session_dates(ws: WorkingSet, document: dict[str, Any]) -> list[Any]:
    """The dates the session holds: its ``updated_at``, each item's date (its list's key), each history row's."""
    dates = [document.get("updated_at")]
    for name, _, date_key, _ in _LISTS:
        dates += [item.get(date_key) for item in ws.current(name) or () if isinstance(item, dict)]
    return dates + [row.get("date") for row in ws.history or () if isinstance(row, dict)]


def index_dialect(index: IndexFile) -> str:
    """The dialect whose index ``index`` is: the one it was read by, else the first that keeps its index as
    content."""
    source = index.source
    if source is not None and source.dialect in TARGET_KIND:
        return source.dialect
    return next(d for d in TARGET_KIND if d in INDEX_IS_CONTENT)


def _fact_word(index: IndexFile) -> str:
    """The type word a fact's file name starts with in the dialect whose index this is (``reference``)."""
    dialect = index_dialect(index)
    return type_word(dialect, "fact") if dialect in TYPE_WORDS else "fact"


def _fact_kind(index: IndexFile) -> str:
    """The kind a fact is in the dialect whose index this is (memfmt: an entity), so that it can be its own."""
    return TARGET_KIND.get(index_dialect(index), {}).get("fact") or "fact"


def index_words(index: IndexFile, records: dict[str, Record], pages: frozenset[str] = frozenset()) -> str:
    """What ``index`` says that no record of the store shows: its own words (``IndexFile.words``) and each
    link whose title or hook its memory does not say (``- Title — hook``), or that has no memory behind it.

    ``records``: the store's records by their links (a link's target is the file ``<link>.md``). A link is said
    when its title is the memory's name and its hook, if any, the memory's description or trigger, whitespace and
    case aside: Claude Code writes them there. ``pages``: the paths of the store's index files; a link to one
    (a split index's next page, ``MEMORY-2.md``) names no memory, and the page travels as the index does.
    """
    lines = [line for section in index.sections for link in section.links
             if (line := _unsaid(link, records, pages)) is not None]
    # The links first (under the index's title, when its words begin with one): after the words they read
    # as if under the last heading, which holds none of them.
    words = index.words.strip()
    title, rest = ("", words)
    if words.startswith("# "):
        title, _, rest = words.partition("\n\n")
    return "\n\n".join(part for part in (title, "\n".join(lines), rest) if part)


def links_unsaid(index: IndexFile, records: dict[str, Record], pages: frozenset[str] = frozenset()) -> bool:
    """Whether a link of ``index`` says what its memory does not (a hook edited on its line), as
    :func:`index_words` tells it: asked a link at a time, until one does."""
    return any(_unsaid(link, records, pages) is not None for section in index.sections for link in section.links)


def _unsaid(link, records: dict[str, Record], pages: frozenset[str]) -> str | None:
    """The line ``- Title — hook`` of ``link`` (an :class:`IndexLink`) for :func:`index_words`, or None when its
    memory says it (or it links a page of the index, or a record by name)."""
    target = link.target
    if link.resolved and target in pages:
        return None
    record = records.get(target[:-3]) if link.resolved and target.endswith(".md") else None
    hook = flat(link.hook) if link.hook else ""
    if record is not None and _said(flat(link.title), (record.title,)) \
            and (not hook or _said(hook, (record.description, record.trigger))):
        return None
    if link.resolved and record is None and not hook:
        return None  # a link the target links by name (memfmt's ``[[stem]]``): its record shows it
    return f"- {flat(link.title)}" + (f" — {hook}" if hook else "")


def _said(text: str, fields: tuple[str | None, ...]) -> bool:
    """Whether one of ``fields`` says ``text`` (one line), case aside; or begins so, where ``text`` ends in the
    ellipsis that marks a cut: an index line holds so much of a long name or description (Claude's, 150 bytes)."""
    text = text.casefold()
    cut = text[:-1].rstrip() if text.endswith("…") else None
    for field in fields:
        if field:
            said = flat(printable(field)).casefold()
            if text == said or cut and said.startswith(cut):
                return True
    return False


def linked_by(dialect: str, records: Iterable[Record], by_link: dict[str, Record]) -> dict[str, Record]:
    """``by_link`` (records by their links), and each of ``records`` by the link ``dialect`` gives it besides
    (:func:`naming.native_link`, as the forward step names it: memoir's ``preference_style`` is Claude's
    ``user_style``): an index of ``dialect`` carried beside another dialect's memories links them so. ``by_link``
    wins where both name one."""
    kinds = TARGET_KIND.get(dialect, {})
    return {**{native_link(r, kinds[r.kind], dialect): r for r in records if r.kind in kinds}, **by_link}


def linked_home(index: IndexFile, records: dict[str, Record], pages: frozenset[str]) -> IndexFile:
    """``index`` with each link resolved as the store has it: to one of ``records`` (by link) or a page of the
    index. An index from a store note was read beside the other dialect's files (``restore._restore_store``),
    whose names are not its dialect's: every link was unresolved there, and so taken for a word of the index's
    own."""
    sections = [replace(section, links=[replace(link, resolved=link.target in pages
                                                or link.target.removesuffix(".md") in records)
                                        for link in section.links])
                for section in index.sections]
    return replace(index, sections=sections)


def resolved_in(index: IndexFile, by_link: dict[str, Record], records: Iterable[Record], pages: frozenset[str],
                made: dict[str, dict[str, Record]]) -> tuple[IndexFile, dict[str, Record]]:
    """``index`` carried beside another dialect's memories, its links resolved against the store's records
    (:func:`linked_home`), and the records by the links it names them by: ``by_link``, and, when a link names none of
    them so, each of ``records`` by the link the index's dialect gives it too (:func:`linked_by`, about 13 µs a
    record, made once for each dialect and kept in ``made``). For :func:`index_words`."""
    linked = by_link
    if any(link.target not in pages and link.target.removesuffix(".md") not in by_link
           for section in index.sections for link in section.links):
        there = index_dialect(index)
        if there not in made:
            made[there] = linked_by(there, records, by_link)
        linked = made[there]
    return linked_home(index, linked, pages), linked


def inline_records(indexes: list[IndexFile], records: list[Record],
                   read_as: dict[str, Record] | None = None,
                   folder: str | None = None) -> list[tuple[Record, dict[str, Any]]]:
    """Each inline bullet of ``indexes`` as a fact, with the marker its carry gets.

    ``read_as``: restored records as read, by the link they were read by: an index read beside them links them so,
    and says what they said there (a memory named home otherwise, a hook its home has no key for).
    ``folder``: the dialect the store was read from; an index of another (carried in its store note) links the
    records by the names its own dialect gives them (:func:`linked_by`).

    Its link is the file name the index's own dialect would give such a memory (its type word
    for a fact and the title's slug: ``reference_<slug>``), numbered when one of ``links`` (the
    store's own) or another bullet's has it: a link is a file name in the dialects that keep
    entries as files, and an edited bullet comes home as that file.
    """
    # A bullet's link begins with its index's type word (folded, so does every folded link it could clash with): only
    # the store's links that begin so are held folded, and the records by link, not by a file name made for each
    # (at 100,000 entries, both made for every record rose the peak by 18 MB; docs/performance.md, "(thirty-third)").
    begins = tuple({f"{_fact_word(index)}_".casefold() for index in indexes})
    taken = {folded for record in records if (folded := record.link.casefold()).startswith(begins)}
    by_link = {record.link: record for record in records}
    by_link.update(read_as or {})
    pages = frozenset(index.path for index in indexes)
    by_dialect: dict[str, dict[str, Record]] = {}  # an index's dialect → the records by the links it gives them
    out = []
    for index in indexes:
        kind = _fact_kind(index)
        for section in index.sections:
            for n, bullet in enumerate(section.inline):
                text = bullet.strip()
                if not text:
                    continue
                link = _numbered(f"{_fact_word(index)}_{slug(title_of(text))}", taken)
                record = Record(kind=kind, link=link, title=title_of(text), body=text + "\n")
                out.append((record, {"path": index.path, "section": section.heading, "n": n}))
        if folder is None or index_dialect(index) == folder:
            words = index_words(index, by_link, pages)
        else:
            # Carried beside another dialect's memories (claude → memoir → memspec): its links name them as its own
            # dialect does, and were resolved against the other's files.
            words = index_words(*resolved_in(index, by_link, records, pages, by_dialect), pages)
        if words:
            # What the index says beyond its bullets and what its memories say (a paragraph, its title): one fact.
            name = index.path.rpartition("/")[2]
            link = _numbered(f"{_fact_word(index)}_{slug(name.removesuffix('.md'))}-words", taken)
            record = Record(kind=kind, link=link, title=f"{name}'s own words", body=words + "\n")
            out.append((record, {"path": index.path, WORDS: True}))
    return out


def _numbered(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``-3``… when one of ``taken`` (folded) has it; taken from now on."""
    link, k = wanted, 2
    while link.casefold() in taken:
        link, k = f"{wanted}-{k}", k + 1
    taken.add(link.casefold())
    return link


#: The marker of the record that shows an index's own words (not one bullet): ``{"path": …, "words": true}``.
WORDS = "words"


