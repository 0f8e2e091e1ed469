"""The native-first metric: how much of a source's own words a target's user can find.

A *word* is a run of at least three letters or digits starting with a letter,
lower-cased. The source's words are taken from the human-written text of its
model (titles, descriptions, bodies, facts, steps, the working set, inline index
bullets, what an index that travels says itself: its words, title, headings, hooks…), never from structural headings or frontmatter keys, and only from
what the target may show as live (a hidden decision is deliberately not shown).
The target's words are taken from its files *outside* the carry: memconv's notes
folder is skipped and every ``memconv:`` key (with its continuation lines) is cut
out of the text before counting.
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from typing import Any, Iterable

from memconv.converters import holds_state
from memconv.converters.mapping import INDEX_IS_CONTENT, LIFECYCLE, TARGET_KIND
from memconv.converters.store_facts import carried_indexes
from memconv.merge.identity import is_hidden
from memconv.model import Record, Store

WORD = re.compile(r"[^\W\d_][^\W_]{2,}")

#: Record fields that hold human-written text.
TEXT_FIELDS = ("title", "description", "body", "aliases", "tags", "why", "rejected", "trigger", "how_to_apply", "outcome",
               "last_failure", "facts", "preconditions", "steps", "knowledge", "evolution", "edges", "participants",
               "category", "valence")
#: Keys of a record's frontmatter (its unknown keys; an opaque record's whole frontmatter) that are structure,
#: not text.
_STRUCTURAL_KEYS = frozenset({"type", "metadata", "originSessionId", "node_type"})
#: Keys of working-set items that hold text.
_WS_TEXT = ("text", "why", "rejected", "summary")
#: The working set's lists the memoir spec names; any other key under ``current`` is counted whole.
_WS_LISTS = frozenset({"goals", "next_actions", "parked_actions", "open_questions", "decisions", "completed_actions",
                       "completed_goals"})
#: The keys the memoir spec gives an item of those lists, a ``history`` row and ``session.json`` itself, that are
#: structure (ids, dates, hashes); any other key's texts are counted (an item's ``owner``, a top-level ``team``).
_WS_ITEM_KEYS = frozenset({"text", "why", "rejected", "machine_id", "set_on", "added", "asked", "date", "done_at",
                           "parked_at", "hidden", "hidden_at", "text_hash"})
#: (A row's ``files_touched`` is counted: the paths a session touched are shown, docs/conversion.md.)
_WS_HISTORY_KEYS = frozenset({"date", "machine_id", "summary", "duration_min", "session_id"})
_WS_KEYS = frozenset({"version", "created_at", "updated_at", "machines", "current", "history"})


#: What is structure or identity in a source text, not its words: a ``[[link]]`` names a record
#: (renamed to the target's link on purpose), a ``**Why:**`` label is the dialect's convention.
_NOT_WORDS = re.compile(r"\[\[[^\]\n]*\]\]|^\*\*[^*\n]{1,30}\*\*:?", re.M)


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def source_text_words(text: str) -> set[str]:
    return words(_NOT_WORDS.sub(" ", text))


#: The fields of the model's parts (a step, a knowledge item, a revision…) that hold text.
_PART_FIELDS = frozenset({"action", "detail", "title", "content", "artifact", "reason", "note"})


def strings(value: Any, *, parts: frozenset[str] | None = _PART_FIELDS, skip_key: str | None = None) -> Iterable[str]:
    """Every text in ``value``: itself, its items, a dict's values (but ``skip_key``'s), a dataclass's
    fields named in ``parts`` (None: all of them)."""
    if value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v, parts=parts, skip_key=skip_key)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != skip_key:
                yield from strings(v, parts=parts, skip_key=skip_key)
    elif is_dataclass(value):
        for f in fields(value):
            if parts is None or f.name in parts:
                yield from strings(getattr(value, f.name), parts=parts, skip_key=skip_key)


def record_text(record: Record) -> Iterable[str]:
    for name in TEXT_FIELDS:
        yield from strings(getattr(record, name))
    # A record's unknown keys are text someone wrote too (a memfmt entity's ``source: mengram export``), whatever
    # its kind: before 2026-12-04 only an opaque record's were counted, and memspec kept every other record's
    # out of its tools' sight (under ``ext.memconv.fields``) unmeasured.
    for key, value in record.extra.items():
        if key not in _STRUCTURAL_KEYS and key != "memconv":
            yield from strings(value)


def source_words(store: Store, target: str) -> set[str]:
    out: set[str] = set()
    for record in store.records:
        if record.lifecycle.state not in LIFECYCLE[target] \
                or not holds_state(target, TARGET_KIND[target].get(record.kind, record.kind), record):
            continue
        for text in record_text(record):
            out |= source_text_words(text)
    ws = store.working_set
    if ws is not None:
        current = ws.document.get("current") if isinstance(ws.document, dict) else None
        unknown = {k: v for k, v in ws.document.items() if k not in _WS_KEYS} if isinstance(ws.document, dict) else {}
        for name, items in [*(current if isinstance(current, dict) else {}).items(), *unknown.items()]:
            if name in _WS_LISTS and not isinstance(items, list):
                continue
            for item in items if isinstance(items, list) else [items]:
                if is_hidden(item):  # memoir-cli's rule: any truthy value
                    continue
                if name not in _WS_LISTS:
                    # A key the spec does not name (under ``current`` or beside it): every text in it.
                    for text in strings(item):
                        out |= source_text_words(text)
                elif isinstance(item, dict):
                    for key in _WS_TEXT:
                        out |= source_text_words(str(item.get(key) or ""))
                    for text in strings({k: v for k, v in item.items() if k not in _WS_ITEM_KEYS}):
                        out |= source_text_words(text)
        for row in ws.history or ():
            if isinstance(row, dict):
                out |= source_text_words(str(row.get("summary") or ""))
                for text in strings({k: v for k, v in row.items() if k not in _WS_HISTORY_KEYS}):
                    out |= source_text_words(text)
    for index in store.indexes:
        for section in index.sections:
            for bullet in section.inline:
                out |= source_text_words(bullet)
    return out | index_words(store)


def index_words(store: Store) -> set[str]:
    """The words of what the store's indexes say themselves, where an index travels (it is not only a
    rendering of the records): its own text, its links' titles and hooks, and, where the index is
    written by hand (a Claude ``MEMORY.md``), its title and headings, but those every index may have
    (``# Memory Index``, ``## Feedback``: ``claude.index.generated_heading``)."""
    from memconv.dialects.claude.index import generated_heading

    out: set[str] = set()
    for index in carried_indexes(store, own=True):
        by_hand = (index.source.dialect if index.source is not None else store.dialect) in INDEX_IS_CONTENT
        said = [f"# {index.title}"] if index.title is not None else []
        said += [f"## {s.heading}" for s in index.sections if s.heading is not None]
        texts = [index.words] + ([line for line in said if not generated_heading(line)] if by_hand else [])
        texts += [text for s in index.sections for link in s.links for text in (link.title, link.hook or "")]
        for text in texts:
            out |= source_text_words(text)
    return out


#: ``memconv:`` as a key, at any indentation (memspec nests it under ``ext:``).
_CARRY_KEY = re.compile(r"^(?P<indent>[ \t]*)memconv:")


def strip_carry(text: str) -> str:
    """``text`` without any ``memconv:`` key and the lines that continue its value."""
    out: list[str] = []
    cutting: int | None = None
    for line in text.split("\n"):
        if cutting is not None:
            indent = len(line) - len(line.lstrip(" \t"))
            if line.strip() and indent > cutting:
                continue
            cutting = None
        m = _CARRY_KEY.match(line)
        if m:
            cutting = len(m.group("indent"))
            continue
        out.append(line)
    return "\n".join(out)


def is_carry_file(path: str) -> bool:
    """memconv's own folder (notes, sidecars, set-aside files): the carry, not the target's view."""
    return any(part == ".memconv" or part == "memconv" for part in path.split("/")[:-1])


def target_words(files: dict[str, bytes]) -> set[str]:
    out: set[str] = set()
    for path, data in files.items():
        if is_carry_file(path):
            continue
        out |= words(strip_carry(data.decode("utf-8", "replace")))
    return out


def share(store: Store, target: str, files: dict[str, bytes]) -> tuple[int, int, set[str]]:
    """(words found, source words, the words missing)."""
    wanted = source_words(store, target)
    found = target_words(files)
    missing = wanted - found
    return len(wanted) - len(missing), len(wanted), missing
