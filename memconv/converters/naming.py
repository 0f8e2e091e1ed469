"""Link names: the name a target's users would write for a record, kept unique, and every
``[[link]]`` and edge renamed after it."""

from __future__ import annotations

import dataclasses
import re

from .. import dialects
from ..dialects.protocol import LinkNaming
from ..markdown import link_targets, renamed_target, rewrite_links
from ..model import Record
from ..text import on_one_line, slug
from .mapping import TARGET_KIND, type_word
from .mapping import name_part as stem_slug


#: One-line fields that may name other records with ``[[links]]`` too.
_LINKED_TEXT = ("description", "trigger", "how_to_apply", "why", "rejected", "outcome")


def rename_links(record: Record, rename: dict[str, str], keep: set[str] = frozenset()) -> None:
    """Point ``record``'s wikilinks and edges at renamed records; ``keep`` fields were restored whole."""
    if not rename:
        return
    if "body" not in keep:
        record.body = rewrite_links(record.body, rename)[0]
    if record.facts and "facts" not in keep:
        record.facts = [rewrite_links(f, rename)[0] for f in record.facts]
    if record.preconditions and "preconditions" not in keep:
        record.preconditions = [_renamed(p, rename) for p in record.preconditions]
    # The parts of a procedure's or an entity's sections: copies where a link changes (a record's
    # parts may be shared with the record it was made from).
    for name, texts in _LINKED_PARTS.items():
        parts = getattr(record, name)
        if parts and name not in keep:
            setattr(record, name, [_renamed_part(part, texts, rename) for part in parts])
    for name in _LINKED_TEXT:
        value = getattr(record, name)
        if value and "[[" in value and name not in keep:
            setattr(record, name, rewrite_links(value, rename)[0])
    if "edges" not in keep:
        for edge in record.edges:
            # Named as a [[link]] to the same target is: a part of a record (``Ops#Leads``) keeps its part.
            edge.target = renamed_target(edge.target, rename) or edge.target


#: Lists of parts whose texts may name other records: a procedure's steps and evolution, an entity's knowledge.
_LINKED_PARTS = {"steps": ("action", "detail"), "evolution": ("reason",), "knowledge": ("title", "content")}


def link_probe(names: list[str]) -> dict[str, str]:
    """What :func:`links_to` asks ``names`` by: made once for a run's records, not once a record (at 100,000 records
    and thousands of names, made for each it would be the run's longest step)."""
    return {name: str(i) for i, name in enumerate(names)}


def links_to(record: Record, names: list[str], probe: dict[str, str]) -> list[str]:
    """Which of ``names`` ``record`` links, in the texts and edges :func:`rename_links` renames, found by the same
    rule (:func:`renamed_target`: a link to a part, ``[[name#Setup]]``, links ``name``), in the order of ``names``.
    ``probe``: :func:`link_probe` of ``names``."""
    found: set[int] = set()

    def look(target: str) -> None:
        new = renamed_target(target, probe)
        if new is not None:
            found.add(int(new.partition("#")[0]))

    texts = [record.body, *(record.facts or ()), *(record.preconditions or ()),
             *(getattr(part, text, None) for name, of in _LINKED_PARTS.items() for part in getattr(record, name) or ()
               for text in of),
             *(getattr(record, name) for name in _LINKED_TEXT)]
    for text in texts:
        if isinstance(text, str) and "[[" in text:
            for target in link_targets(text):
                look(target)
    for edge in record.edges:
        look(edge.target)
    return [names[i] for i in sorted(found)]


def _renamed(text, rename: dict[str, str]):
    return rewrite_links(text, rename)[0] if isinstance(text, str) and "[[" in text else text


def _renamed_part(part, texts: tuple[str, ...], rename: dict[str, str]):
    changed = {name: new for name in texts
               if (new := _renamed(getattr(part, name, None), rename)) is not getattr(part, name, None)}
    return dataclasses.replace(part, **changed) if changed else part


def differs_however_renamed(before: str, after: str) -> bool:
    """Whether ``after`` differs from ``before`` whatever :func:`rename_links` makes of its links.

    Renaming changes no text before the first ``[[``: a body whose text up to there is
    not the original's cannot become it, and need not be renamed to compare them.
    """
    return before.partition("[[")[0] != after.partition("[[")[0]


def unique_link(link: str, taken: set[str], target: str = "") -> str:
    """``link``, or its second, third… form (``link-2``, or as the target numbers names: ``link (2)``
    in memfmt) when taken."""
    if link not in taken:
        return link
    n = 2
    form = (dialects.declaration(target, "LINK_NAMING") if target else LinkNaming()).numbered
    while form.format(link, n) in taken:
        n += 1
    return form.format(link, n)


#: A link that is already a file stem (memoir, claude), not a name: ``feedback_no_mocks`` (unless it is
#: a dialect's id, its ``LINK_ID``).
_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _base(record: Record) -> str:
    """The name part of a file-stem link: the stem without its type word, or the title's slug."""
    if _STEM.match(record.link) and not any(p.match(record.link) for p in _link_ids()):
        return stem_slug(record.link)
    return slug(record.title or record.link)


def _link_ids() -> list:
    """Every registered dialect's id form (its ``LINK_ID``): a link of one of them is no name."""
    return [p for p in dialects.declarations("LINK_ID").values() if p is not None]


def native_link(record: Record, kind: str, target: str) -> str:
    """A link name the target's users would write for this record, as the target declares it: its own
    ``native_link``, or its ``LINK_NAMING`` (upgrade's naming rule for memoir: ``<kind>_<slug>``)."""
    if kind == "opaque" and dialects.declaration(target, "OPAQUE_FILES"):
        return record.link  # kept whole, under its own name
    own = dialects.declaration(target, "native_link")
    if own is not None:
        return own(record, kind)
    naming = dialects.declaration(target, "LINK_NAMING")
    if naming.form == "typed":
        return f"{type_word(target, kind)}_{_base(record)}"
    if naming.form == "title":  # the name is one line (a title of two would be a heading and a paragraph)
        return on_one_line(record.title or record.link).strip() or record.link
    return record.link


def safe_link(link: object) -> bool:
    """Whether a writer may make a file of ``link`` (``<link>.md``) inside the store."""
    from ..errors import OutputError
    from ..fs import safe_relpath

    if not isinstance(link, str) or not link:
        return False
    try:
        safe_relpath(f"{link}.md")
    except OutputError:
        return False
    return True


def home_link(home: Record, owner: str) -> None:
    """The link the way back gives a record whose link was not carried (or was renamed in the target)."""
    if owner in TARGET_KIND:
        home.link = native_link(home, home.kind, owner)
