"""Link names: the name a target's users would write for a record, kept unique, and every
``[[link]]`` and edge renamed after it."""

from __future__ import annotations

import re

from .. import dialects
from ..migrations.memspec.fields import ID as _MEMSPEC_ID  # a memspec id: ms_01JQ8Z6Y…, the one pattern
from ..model import Record
from ..text import slug
from . import links
from .mapping import TARGET_KIND, type_word
from .mapping import name_part as stem_slug


#: One-line fields that may name other records with ``[[links]]`` too.
_LINKED_TEXT = ("description", "trigger", "how_to_apply", "why", "rejected", "outcome")


def rename_links(record: Record, rename: dict[str, str], keep: set[str] = frozenset()) -> None:
    """Point ``record``'s wikilinks and edges at renamed records; ``keep`` fields were restored whole."""
    if not rename:
        return
    if "body" not in keep:
        record.body = links.rewrite(record.body, rename)
    if record.facts and "facts" not in keep:
        record.facts = [links.rewrite(f, rename) for f in record.facts]
    for name in _LINKED_TEXT:
        value = getattr(record, name)
        if value and "[[" in value and name not in keep:
            setattr(record, name, links.rewrite(value, rename))
    if "edges" not in keep:
        for edge in record.edges:
            edge.target = rename.get(edge.target, edge.target)


def unique_link(link: str, taken: set[str], target: str = "") -> str:
    """``link``, or ``link-2``… (``link (2)``… in memfmt, as it numbers names) when taken."""
    if link not in taken:
        return link
    n = 2
    form = "{} ({})" if target == "memfmt" else "{}-{}"
    while form.format(link, n) in taken:
        n += 1
    return form.format(link, n)


#: A link that is already a file stem (memoir, claude), not a name or an id: ``feedback_no_mocks``.
_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _base(record: Record) -> str:
    """The name part of a file-stem link: the stem without its type word, or the title's slug."""
    if _STEM.match(record.link) and not _MEMSPEC_ID.match(record.link):
        return stem_slug(record.link)
    return slug(record.title or record.link)


def native_link(record: Record, kind: str, target: str) -> str:
    """A link name the target's users would write for this record (upgrade's naming rule for memoir)."""
    if kind == "opaque" and target in ("memoir", "claude"):
        return record.link
    if target == "memoir":
        return f"{kind}_{_base(record)}"
    if target == "claude":
        return f"{type_word(target, kind)}_{_base(record)}"
    if target == "memfmt":
        return (record.title or record.link).strip() or record.link
    own = getattr(dialects.get(target), "native_link", None)  # a plugin dialect names its own (docs/plugins.md)
    if own is not None:
        return own(record, kind)
    # memspec: the id its writer derives from the record (created + identity), so it is stable.
    return dialects.get("memspec").records.memspec_id(record)


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


def home_link(home: Record, origin: str) -> None:
    """The link the way back gives a record whose link was not carried (or was renamed in the target)."""
    if origin in TARGET_KIND:
        home.link = native_link(home, home.kind, origin)
