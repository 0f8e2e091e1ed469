"""Readable text: every piece of a record's text where the target's user reads it.

A field the target's kind has no place for (its ``TEXT_FIELDS``, ``DEFAULT_TEXT_FIELDS``) is
not written by the target's writer; :func:`show` writes its text, labelled, into the kind's
readable home (a body, an entity's facts, a procedure's steps), so that the carry is never its
only copy. :func:`unshow` takes those paragraphs out of a body again on the way home, so that an
edited body comes home once, not twice. (Saying a record of one kind in another kind's fields is
:mod:`.transforms`.)
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import json
import re
from collections import Counter
from typing import Any

from ..dialects.protocol import CARRY_KEY
from ..markdown import code_lines, code_span, code_span_text, relation_edge
from ..model import Anchor, Edge, Knowledge, Probe, Record, Revision, Step
from ..text import flat
from .mapping import (OWNED_KEYS, REFUSED_VALUES, REQUIRED_TEXT, SECTION_FIELDS, UNKNOWN_KEYS_HIDDEN, edge_types,
                      native_text)
from .native import as_line
from .store_facts import holds_anchors
from . import transforms
from .transforms import (PARAGRAPH_BREAK, join_paragraphs, numbered_items, rejoined, step_line, step_of, steps_said,
                         tags_as_text)


#: The text fields each target's files show, per kind (the kind the record has in the target),
#: are what the target declares (``TEXT_FIELDS``, ``DEFAULT_TEXT_FIELDS``; docs/plugins.md). A
#: field not listed is not written by the target's writer: :func:`show` moves its text into the
#: kind's readable home, so that the carry is never its only copy.

#: The labels a moved one-line field is written with: ``**Why:** zero dependencies``.
_LABELS = (("why", "Why"), ("rejected", "Rejected"), ("trigger", "When"), ("how_to_apply", "How to apply"),
           ("outcome", "Outcome"), ("last_failure", "Last failure"), ("scope", "Scope"), ("source_text", "Source"),
           ("project", "Project"))
#: The label of the text a record's file holds outside its format (``Record.unread``), and its report's word.
UNREAD_LABEL = "Text outside the format"
#: The line :func:`show` writes a record's tags as: ``**Tags:** staging, api``.
_TAGS_LINE = re.compile(r"\*\*Tags:\*\* (.+)")
#: The label of the line :func:`show` writes for each value a target has no key for (:func:`_value_lines`):
#: ``**Participants:** Ali, Kenji``.
VALUE_LABELS = {"category": "Entity type", "happened": "Happened", "last_failed": "Last failed",
                "last_succeeded": "Last succeeded", "valence": "Valence", "importance": "Importance",
                "participants": "Participants"}
#: Such a line: it says its value only as itself (``positive`` in a sentence is no valence).
_VALUE_LINE = re.compile(r"\*\*(?:" + "|".join(VALUE_LABELS.values()) + r"):\*\* .+")
#: A numbered or bulleted line of a body, one step of a procedure written as prose: ``2. Tag with git``.
_LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+(?P<text>\S.*)$")


def _unsaid_by_line(step: Step) -> bool:
    """Whether ``step`` holds nothing its line does not say: no runs, no needs or gives."""
    return step.successes is None and step.failures is None and not step.needs and not step.gives


def steps_kept(before: list[Step], now: list[Step]) -> list[Step]:
    """``now``, a procedure's steps as a target that shows each as its line alone holds them (a Claude ``**How to
    apply:**`` list, a ``**Steps:**`` block of a body), with what ``before`` (its steps as home has them) held beyond
    the line: a step whose line is as it was (where it was, or moved) is that step, as it was; a line edited in place
    is that step edited, keeping its runs (``12✓/0✗``) and what it needs and gives, as in memfmt's own file, where they
    stay at the end of the line a person edits (where lines were added or taken out around it, only one whose action
    is as it was); an added line is a new step, with none. ``now`` saying any of them (a target that shows them) is
    returned as it is."""
    if not before or not now or not all(map(_unsaid_by_line, now)):
        return now

    def edited(was: Step | None, _: Step, line: str) -> Step:
        step = step_of(line)
        if was is None:
            return step
        return dataclasses.replace(step, needs=was.needs, gives=was.gives, successes=was.successes,
                                   failures=was.failures)

    return _kept(before, now, step_line, lambda was, line: flat(was.action) == step_of(line).action,
                 lambda was, line: True, edited)


def _kept(before: list[Any], now: list[Any], line_of: Any, same: Any, in_place: Any, edited: Any) -> list[Any]:
    """``now``, a list a target shows a line each (``line_of``), as the items of ``before`` (home's) it holds: the
    one rule of :func:`steps_kept` and :func:`revisions_kept`. A line as it was (where it was, or moved) is its item
    of ``before``, as it was; a line edited is ``edited(was, item, line)``, ``was`` the item of ``before`` it is, or
    None (an added line): one edited in place where ``in_place(was, line)``, else the first one left that is
    ``same(was, line)``."""
    old, new = [line_of(x) for x in before], [line_of(x) for x in now]
    pairs: dict[int, int] = {}  # a line of now → the item of before it is
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs.update((j, i) for i, j in zip(range(i1, i2), range(j1, j2))
                         if tag == "equal" or in_place(before[i], new[j]))
    free = [i for i in range(len(old)) if i not in set(pairs.values())]
    for alike in (lambda i, j: old[i] == new[j], lambda i, j: same(before[i], new[j])):
        for j in range(len(new)):
            i = next((i for i in free if alike(i, j)), None) if j not in pairs else None
            if i is not None:
                pairs[j] = i
                free.remove(i)
    out = []
    for j, line in enumerate(new):
        was = before[pairs[j]] if j in pairs else None
        out.append(was if was is not None and old[pairs[j]] == line else edited(was, now[j], line))
    return out


#: A line of a procedure's evolution as :func:`revision_line` writes it, its bullet off:
#: ``v1 → v2 (2026-06-02): added the health check``.
_REVISION_LINE = re.compile(r"v(?P<before>\d+) → v(?P<after>\d+)(?: \((?P<date>[^)]*)\))?:(?: (?P<reason>.*))?")


def revision_line(revision: Revision) -> str:
    """A revision as :func:`show` writes it in a target, a line of its ``**Evolution:**`` list (its bullet off):
    its versions, its date, its reason; not its runs, which are counts, not words (:func:`revisions_kept`)."""
    date = f" ({revision.date})" if revision.date else ""
    return f"v{revision.from_version} → v{revision.to_version}{date}: {flat(revision.reason)}"


def _revision_of(line: str) -> Revision | None:
    """The revision a line :func:`revision_line` wrote says, edited or not; None for a line that says none."""
    match = _REVISION_LINE.fullmatch(flat(line))
    if match is None:
        return None
    return Revision(from_version=int(match.group("before")), to_version=int(match.group("after")),
                    reason=match.group("reason") or "", date=match.group("date") or None)


def revisions_kept(before: list[Revision], now: list[Revision]) -> list[Revision]:
    """``now``, a procedure's evolution as a target shows it (:func:`revision_line`), with the runs ``before`` (home's)
    held, by :func:`steps_kept`'s rule: a line as it was is its revision, as it was; a line edited keeps the runs of
    the one whose versions (``v2 → v3``) it says, where the line edited in place or one left says them (the runs are
    what the retiring version achieved: its versions say which line it is); a line whose versions were edited, and
    an added line, have none."""
    if not before or not now:
        return now

    def same(was: Revision, line: str) -> bool:
        said = _revision_of(line)
        return said is not None and (said.from_version, said.to_version) == (was.from_version, was.to_version)

    def edited(was: Revision | None, revision: Revision, _: str) -> Revision:
        if was is None:
            return revision
        return dataclasses.replace(revision, successes=was.successes, failures=was.failures)

    return _kept(before, now, revision_line, same, same, edited)


def _value_line(value: object) -> str | None:
    """An unknown key's value as :func:`show` writes it, on one line: a text, a number, a list of them (``Ali B.,
    ali``). None for a flag (``hidden: false``) and for a value that holds a mapping: structure a program wrote
    (Claude Code's ``metadata``), not words."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int, float)):
        return flat(str(value))
    if isinstance(value, list) and value and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(line for line in map(_value_line, value) if line) or None
    return None


#: The model's fields a target's writer may leave out, its validator refusing their values there (memoir's date and
#: count keys, each of the field's name: ``created: last week``, ``fired_count: many``): :func:`hidden_keys` names them.
_REFUSABLE_FIELDS = ("created", "updated", "fired_count", "last_fired")


def hidden_keys(record: Record, target: str, kind: str) -> list[str]:
    """The record's unknown keys (``extra``) that ``target``'s files do not show, in their order: every one where
    its writer keeps them where its tools neither show nor search them (its ``UNKNOWN_KEYS_HIDDEN``: memspec), and
    elsewhere those named like a key its files own for a record of ``kind`` (its ``OWNED_KEYS``: a memspec claim's own
    ``name:`` in Claude Code's memory, whose ``name`` is the title; a Claude memory's ``id:`` in memfmt), which its
    writer does not write, and those its own validator refuses there (its ``refused_values``: memoir's ``added:
    soon``); then the model's fields it refuses likewise (:data:`_REFUSABLE_FIELDS`: a Claude memory's ``created: last
    week``). memconv's own key aside. :func:`show` writes each as a line of the record's text (:func:`_key_value`)."""
    refused = REFUSED_VALUES[target](record if kind == record.kind else dataclasses.replace(record, kind=kind))
    fields = [key for key in _REFUSABLE_FIELDS if key in refused and key not in record.extra]
    if target in UNKNOWN_KEYS_HIDDEN:
        return [key for key in record.extra if key != CARRY_KEY] + fields
    owned = OWNED_KEYS.get(target) or {}
    mine = owned.get(kind, frozenset()) | owned.get("*", frozenset())
    return [key for key in record.extra if (key in mine or key in refused) and key != CARRY_KEY] + fields


def _key_value(record: Record, key: str) -> Any:
    """The value of a key :func:`hidden_keys` names: the unknown key's, else the model's field of that name."""
    return record.extra[key] if key in record.extra else getattr(record, key)


def _blocks(record: Record, shown: frozenset[str], edges: frozenset[str] | None = None,
            sections: frozenset[str] = frozenset(), keys: list[str] = (), witness: bool = False) -> list[str]:
    """The record's text that ``shown`` leaves out, as markdown blocks, in reading order.

    ``edges`` are the edge types the target writes natively (None: all); the others are
    written as relation lines, ``- works at → [[Mengram]] — since 2024``, under ``**Relations:**`` (in a list of
    preconditions, a memfmt procedure's, a labelled line each: ``**Relation:** supersedes → [[…]]``).
    ``sections``: the fields the target reads from a labelled section of the body (:func:`sections_wanted`); a
    how_to_apply that is the record's steps said (a memfmt procedure's) is their list, under its label, and not said
    again. ``keys``: the record's unknown keys the target does not show (:func:`hidden_keys`): each is written as a
    line of its own, labelled by its key: ``**source:** mengram export``. ``witness``: the target has no field for a
    record's anchors and probes (memspec's pins of a claim to a file and to a command's output), nor for the reason
    one claim superseded another (memspec's ``supersede_reason``, on both ends): the reason is a labelled line, and
    each anchor or probe a line under an ``**Anchors:**`` or ``**Probes:**`` label; nor for its ``ext`` (what its
    tools and people wrote beside it): a line per key under ``**Extensions:**``.
    """
    blocks: list[str] = []
    steps_say_how = "how_to_apply" in sections and "steps" not in shown and bool(record.steps) \
        and record.how_to_apply == steps_said(record.steps)
    if "description" not in shown and record.description and record.description.strip():
        blocks.append(record.description.strip())
    if "body" not in shown and record.body.strip():
        blocks.extend(p.strip() for p in PARAGRAPH_BREAK.split(record.body.strip()) if p.strip())
    for name, label in _LABELS:
        value = getattr(record, name)
        if name not in shown and isinstance(value, str) and value.strip() and not (steps_say_how
                                                                                    and name == "how_to_apply"):
            blocks.append(f"**{label}:** {flat(value)}")
    if "aliases" not in shown and record.aliases:
        blocks.append("**Also known as:** " + ", ".join(flat(a) for a in record.aliases if a.strip()))
    blocks += [f"**{label}:** {said}" for name, label, said, _ in _value_lines(record) if name not in shown]
    if "tags" not in shown and record.tags:
        blocks.append("**Tags:** " + ", ".join(flat(t) for t in record.tags if isinstance(t, str) and t.strip()))
    if "facts" not in shown and record.facts:
        blocks.append("\n".join(f"- {flat(f)}" for f in record.facts if f.strip()))
    if "preconditions" not in shown and record.preconditions:
        blocks.append("**Preconditions:**\n\n" + "\n".join(f"- {flat(p)}" for p in record.preconditions))
    if "steps" not in shown and record.steps:
        label = dict(_LABELS)["how_to_apply"] if steps_say_how else "Steps"
        blocks.append(f"**{label}:**\n\n" + "\n".join(f"{n}. {step_line(s)}" for n, s in enumerate(record.steps, 1)))
    if "knowledge" not in shown and record.knowledge:
        lines = []
        for k in record.knowledge:
            content = f" — {flat(k.content)}" if k.content else ""
            lines.append(f"- **[{k.kind or 'note'}] {flat(k.title)}**{content}")
            if k.artifact:
                lines += ["", "```", str(k.artifact).rstrip(), "```", ""]
        blocks.append("\n".join(lines).rstrip())
    relations = unsaid(record.edges, edges)
    if relations:
        blocks += _listed("Relations", "Relation", list(map(relation_line, relations)), shown)
    if "evolution" not in shown and record.evolution:
        blocks.append("**Evolution:**\n\n" + "\n".join(f"- {revision_line(r)}" for r in record.evolution))
    reason = record.lifecycle.reason
    if witness and isinstance(reason, str) and reason.strip():
        blocks.append(f"{_REASON_LABEL} {flat(reason)}")
    if witness and record.anchors:
        blocks += _listed("Anchors", "Anchor", [_anchor_line(a) for a in record.anchors], shown)
    if witness and record.probes:
        blocks += _listed("Probes", "Probe", [_probe_line(p) for p in record.probes], shown)
    if witness and isinstance(record.ext, dict):
        # What tools and people wrote in a claim's extensions (a verification's evidence, why an edge was removed):
        # a line per key, its value on one line by the working set's rule; memconv's own key is structure.
        lines = [f"- {as_line(str(key))}: {said}" for key, value in record.ext.items()
                 if key != CARRY_KEY and (said := as_line(value, within="key"))]
        if lines:
            blocks += _listed("Extensions", "Extension", lines, shown)
    for key in keys:
        line = _value_line(_key_value(record, key))
        if line:
            blocks.append(f"**{flat(key)}:** {line}")
    if "unread" not in shown:
        blocks += _unread_blocks(record, shown)
    return [b for b in blocks if b.strip()]


def _unread_blocks(record: Record, shown: frozenset[str]) -> list[str]:
    """The blocks :func:`_blocks` writes of the text ``record``'s file holds where its own dialect's reader does not
    read it (a memfmt section of another name): its own tool does not show it, the others do. A line each, as
    written."""
    lines = [f"- {said}" for line in record.unread or () if isinstance(line, str) and (said := flat(line))]
    return _listed(UNREAD_LABEL, UNREAD_LABEL, lines, shown) if lines else []


#: The name :func:`unshow` gives a claim's supersede reason (``Lifecycle.reason``) among the edited fields.
_SUPERSEDE_REASON = "supersede_reason"


#: The label of a claim's supersede reason's line (:func:`_blocks`, :func:`show_reason`).
_REASON_LABEL = "**Supersede reason:**"
#: A body split into its paragraphs and the breaks between them (each break a piece of its own): the one rule of a
#: paragraph break (``transforms.PARAGRAPH_BREAK``), kept.
_PARAGRAPHS_AND_BREAKS = re.compile(f"({PARAGRAPH_BREAK.pattern})")


def _reason_home(record: Record, target: str) -> str | None:
    """Where ``target``'s files show a line of ``record`` that is no field of its own, as :func:`show` puts the
    blocks it writes: its body, an entity's facts, a procedure's preconditions; None where none of them."""
    held = native_text(target, record.kind)
    return next((name for name in ("body", "facts", "preconditions") if name in held), None)


def shows_reason(record: Record, target: str) -> bool:
    """Whether :func:`show_reason` writes ``record``'s supersede reason on a line of its own in ``target``."""
    reason = record.lifecycle.reason
    return not record.opaque and not holds_anchors(target) and isinstance(reason, str) and bool(reason.strip()) \
        and _reason_home(record, target) is not None


def show_reason(record: Record, target: str) -> bool:
    """``record`` home again in ``target`` (a copy the caller owns) with the reason a claim superseded another, which
    memspec's ``supersede`` gave it there (``Lifecycle.reason``) and home has no key for, on the ``**Supersede
    reason:**`` line a claim arriving from memspec gets (:func:`_blocks`), last: a person's words, which home's tools
    show and search. The caller carries the reason (``forward._carry_witness``); :func:`reason_back` reads the line
    back. Whether it was written."""
    if not shows_reason(record, target):
        return False
    home, line = _reason_home(record, target), f"{_REASON_LABEL} {flat(record.lifecycle.reason)}"
    if home == "body":  # after its text as written: the way back takes the line out, and the body is as it was
        base = record.body.rstrip()
        record.body = (f"{base}\n\n" if base.strip() else "") + line + (record.body[len(base):] or "\n")
    else:
        setattr(record, home, [*(getattr(record, home) or []), line])
    return True


def reason_back(record: Record, target: str) -> None:
    """The ``**Supersede reason:**`` line :func:`show_reason` wrote in ``record``, a record of ``target`` whose carry
    gave its reason back, taken out of it (its last such line): its value, as edited there, is the reason; a line
    emptied or taken out there takes the reason out. ``record``'s lists and lifecycle are made anew, not changed."""
    home, said = _reason_home(record, target), None
    if home == "body":
        pieces = _PARAGRAPHS_AND_BREAKS.split(record.body)  # paragraph, break, paragraph…: the body as written
        at = next((n for n in range(len(pieces) - 1, -1, -2) if pieces[n].lstrip().startswith(_REASON_LABEL)), None)
        if at is not None:
            said = pieces[at].strip()
            del pieces[at - 1 if at else 0:at + 1 if at else 2]  # with the break before it (after it, if first)
            body = "".join(pieces)
            if not body.strip():
                body = ""
            elif record.body.endswith("\n") and not body.endswith("\n"):  # the line was last: its end is the body's
                body += "\n"
            record.body = body
    elif home is not None:
        items = list(getattr(record, home) or [])
        at = next((n for n in reversed(range(len(items))) if items[n].startswith(_REASON_LABEL)), None)
        if at is not None:
            said = items.pop(at)
            setattr(record, home, items or None)
    reason = flat(said[len(_REASON_LABEL):]) if said is not None else ""
    record.lifecycle = dataclasses.replace(record.lifecycle, reason=reason or None)


def _set_labelled(record: Record, name: str, value: Any) -> None:
    """The field a labelled line says (``name`` as :func:`unshow` lists it) set to ``value``; None empties it (an
    unknown key is taken out)."""
    if name.startswith("extra."):
        if value is None:
            record.extra.pop(name[len("extra."):], None)
        else:
            record.extra[name[len("extra."):]] = value
    elif name == _SUPERSEDE_REASON:
        record.lifecycle = dataclasses.replace(record.lifecycle, reason=value)
    else:
        setattr(record, name, value)


def _emptied(record: Record, name: str, edited: list[str] | None) -> None:
    """The field of a labelled line taken out in the target emptied, and said edited."""
    _set_labelled(record, name, None)
    if edited is not None and name not in edited:
        edited.append(name)


def _labelled(record: Record, target: str, kind: str) -> list[tuple[str, str, str, Any]]:
    """The one-line fields :func:`show` writes a labelled line for in ``target`` (where the target holds no key for
    them), as (field, label, the value as its line says it, how an edited line's value is read: None where it says
    no value of the field's type)."""
    labelled = [(name, label, flat(value), str.strip) for name, label in _LABELS
                if isinstance(value := getattr(record, name), str) and value.strip()]
    if record.aliases and any(isinstance(a, str) and a.strip() for a in record.aliases):
        labelled.append(("aliases", "Also known as", ", ".join(flat(a) for a in record.aliases if a.strip()), _items))
    labelled += [(name, label, said, parse) for name, label, said, parse in _value_lines(record)]
    # an unknown key's line, as _blocks writes it, is edited as a field's is
    for key in hidden_keys(record, target, kind):
        value = _key_value(record, key)
        said = _value_line(value)
        if said:
            labelled.append((f"extra.{key}" if key in record.extra else key, flat(key), said, _reading(value)))
    reason = record.lifecycle.reason
    if not holds_anchors(target) and isinstance(reason, str) and reason.strip():
        # The reason one claim superseded another (memspec's supersede_reason), a line where the target has no key.
        labelled.append((_SUPERSEDE_REASON, "Supersede reason", flat(reason), str.strip))
    return labelled


def take_deleted_out(record: Record, target: str, kind: str, then: str, there: str, original: str,
                     edited: list[str], owner: str) -> bool:
    """The fields whose labelled line (:func:`_labelled`) ``target`` showed, ``then`` (the body it showed when the
    record was converted, mapped home, as ``restore._shown_then`` rendered and checked it), and that is gone from the
    body the target holds now (``there``: as its reader read it, before :func:`unshow` took the lines it knows out),
    its label nowhere in it: deleted there, they are emptied (an unknown key taken out) and added to ``edited``, as
    :func:`unshow` does for a line whose value was taken out. A field ``edited`` already names (its line edited or
    emptied) is left be, and so is one ``owner`` (its home) requires of the record (a memoir lesson's how_to_apply).
    ``original``: the body the record had at home: a line it held is its own text, not one show wrote. Whether any
    was."""
    if record.opaque:
        return False
    shown = native_text(target, kind) - sections_wanted(record, target, kind, original)
    required = {*REQUIRED_TEXT[owner].get("*", ()), *REQUIRED_TEXT[owner].get(record.kind, ())}
    was = {flat(p) for p in PARAGRAPH_BREAK.split(then.strip()) if p.strip()} \
        - {flat(p) for p in PARAGRAPH_BREAK.split(original.strip()) if p.strip()}
    deleted = [name for name, label, said, _ in _labelled(record, target, kind)
               if name not in shown and name not in edited and name not in required
               and f"**{label}:** {said}" in was and f"**{label}:**" not in there]
    for name in deleted:
        _emptied(record, name, edited)
    # A block under its label (**Steps:**, **Relations:**…), deleted whole: likewise.
    blocks = [name for label, name in _BLOCKS if name not in shown and name not in edited and name not in required
              and f"**{label}:**" in was and f"**{label}:**" not in there]
    for name in blocks:
        if name == "edges":  # the edges the block said: those the target has no key for
            said = unsaid(record.edges, edge_types(target, kind))
            record.edges = [e for e in record.edges if e not in said]
        elif name == "ext":  # what tools and people wrote beside it; memconv's own key is structure
            record.ext = {k: v for k, v in (record.ext or {}).items() if k == CARRY_KEY} or None
        else:
            setattr(record, name, None)
        edited.append(name)
    if "knowledge" not in shown and "knowledge" not in edited and "knowledge" not in required and record.knowledge \
            and any(_KNOWLEDGE_ITEM.match(p) for p in was) and not _KNOWLEDGE_SAID.search(there):
        # An entity's knowledge, its lines (no label of their own: knowledge_back) deleted whole: likewise.
        record.knowledge = None
        edited.append("knowledge")
        blocks.append("knowledge")
    return bool(deleted or blocks)


def take_leftovers_out(record: Record, then: str, original: str) -> bool:
    """The paragraphs the target showed of ``record`` that were not its body's own (``then``, the body it showed when
    the record was converted, mapped home, less ``original``, the body it had at home), still in its body as shown
    after :func:`unshow`: the target's rendering of fields home holds elsewhere, not text of the body. They are taken
    out, and so is the bare label of such a labelled line whose value was taken out there. The case: a memspec
    procedure's steps, said again on Claude's ``**How to apply:**`` line, which came home as a paragraph of the
    memspec body when any other line was edited in Claude (docs/conversion.md). A record kept whole at home (a Claude
    ``project`` memory, whose frontmatter is its own) too: the target showed its aliases (``**Also known as:**``), which
    its kept frontmatter holds, and its description (memspec's first paragraph). Whether any was."""
    if not record.body.strip():
        return False
    own = {flat(p) for p in PARAGRAPH_BREAK.split(original.strip()) if p.strip()}
    # Only a line labelled as memconv and the targets' writers label the fields they show, whose label the body never
    # held: any other paragraph shown then and not the body's own may be the body's text read another way there (a
    # list shown as a memfmt entity's facts, an item each), and is kept.
    # A record kept whole: a value of its kept frontmatter shown as a paragraph (memspec's description, first) too.
    frontmatter = {flat(v) for v in record.extra.values() if isinstance(v, str) and v.strip()} if record.opaque \
        else set()
    was = {p for p in {flat(p) for p in PARAGRAPH_BREAK.split(then.strip()) if p.strip()} - own
           if p in frontmatter or (m := _SHOWN_LABEL.match(p)) and m.group(1) in _SHOWN_LABELS
           and f"**{m.group(1)}:**" not in original}
    if not was:
        return False
    parts = [p for p in PARAGRAPH_BREAK.split(record.body.strip()) if p.strip()]
    flats = [flat(p) for p in parts]
    labels = {m.group(1) for p in was if (m := _SHOWN_LABEL.match(p))}
    # A label left alone where its line was (its value taken out there): no text of the record's. One with text
    # below it (a list after a blank line) is the user's, kept with its label.
    bare = {f"**{label}:**" for label in labels
            if f"**{label}:**" not in own and flats.count(f"**{label}:**") == 1
            and not any(f.startswith(f"**{label}:** ") for f in flats)}
    kept = [p for n, (p, f) in enumerate(zip(parts, flats))
            if f not in was and not (f in bare and (n + 1 == len(flats) or _SHOWN_LABEL.match(flats[n + 1])))]
    if len(kept) == len(parts):
        return False
    record.body = rejoined(kept, record.body)
    return True


def take_relations_out(record: Record, target: str, kind: str) -> bool:
    """The ``**Relations:**`` block :func:`show` wrote in ``target`` for ``record``'s edges that ``target`` has no key
    for, still in its edited body as written (its links named home), taken out: home holds those edges in keys of its
    own (``restore._holds_the_relations``; a memfmt entity's relations hold every edge). Asked by
    :func:`relations_back` (which reads the block's lines home as the edges) where it finds no single block; asked
    before the body's links were named home, it was missed where the edges were carried (home's names against the
    target's), and came home as text of the body (a memspec claim's ``depends_on`` in memoir, the body edited
    there). ``kind``: the record's kind there (:func:`edge_types`). Whether it was."""
    relations = unsaid(record.edges, edge_types(target, kind))
    if record.opaque or not relations or "**Relations:**" not in record.body:
        return False
    block = _blocks(Record(kind=record.kind, link=record.link, edges=relations), frozenset({"body"}),
                    edge_types(target, kind))
    want = [flat(p) for b in block for p in PARAGRAPH_BREAK.split(b.strip()) if p.strip()]
    parts = [p for p in PARAGRAPH_BREAK.split(record.body.strip()) if p.strip()]
    flats = [flat(p) for p in parts]
    at = _run_at(flats, want)
    if not want or at is None:
        return False
    record.body = rejoined(parts[:at] + parts[at + len(want):], record.body)
    return True


def relation_line(edge: Edge) -> str:
    """An edge as a line of the ``**Relations:**`` block :func:`_blocks` writes: ``- works at → [[Mengram]] — since
    2024`` (memfmt's relation line, which :func:`relations_back` reads home by memfmt's rule)."""
    return f"- {flat(edge.type)} {'←' if edge.direction == 'in' else '→'} [[{edge.target}]]" \
        + (f" — {flat(edge.note)}" if edge.note else "")


def relations_back(record: Record, target: str, kind: str, edited: list[str], said: str,
                   held: frozenset[str] | None = None) -> list[str]:
    """The ``**Relations:**`` block :func:`show` wrote in ``target`` for the edges of ``record`` (an entity home
    again, which holds every edge in its relations; its body its facts joined, a paragraph each made one line, their
    links named home), taken out of its body, its lines the edges it says now (where the block is not told, it is
    taken out as written, :func:`take_relations_out`). ``said``: the body as ``target`` holds it, its links named
    home, where the block's lines are still lines. A line added in the block's form (``- works with → [[Bo]]``) is
    an edge, read by memfmt's rule for a relation line (``markdown.relation_edge``); a line taken out takes its edge
    out; a line as it was shown keeps its edge as it was; the edges take the block's order (lines reordered there:
    the person's order); ``edges`` is added to ``edited``. The block is the list
    under the label, and any paragraph after it of relation lines only (a line added after a blank line: one list,
    as markdown reads it). A line of it that says no relation is no edge: it stays in the body where the block was,
    a paragraph of its own without its dash (a fact of the entity); those lines are returned, for the report.
    ``held``: the edge types home has keys for (its ``EDGE_TYPES``; None: any, as an entity's relations): a line
    saying an edge home has no key for (``- supersedes (mostly) → [[…]]``, a memspec claim's) is no edge either, as
    :func:`unsaid` tells (home's writer would refuse it). The same rule reads a memspec claim's block home, its
    edges in keys (``restore._holds_the_relations``). Before, an edited block came home as facts (an entity's:
    ``- **Relations:**`` and its lines joined into one, ``- - works at → [[Ops]] - works with → [[Bo]]``, the
    edge nowhere) or as text of the body (a claim's, every edge kept from its key). ``kind``: the record's kind in
    ``target`` (a memfmt episode's block is read as a Claude memory's is: :func:`edge_types`)."""
    relations = unsaid(record.edges, edge_types(target, kind))
    if record.opaque or not relations:
        return []
    there = [p.strip() for p in PARAGRAPH_BREAK.split(said.strip()) if p.strip()]
    labels = [n for n, p in enumerate(there) if flat(p) == "**Relations:**"]
    if len(labels) != 1:
        take_relations_out(record, target, kind)  # two labels: which is the target's is not told; the block as written
        return []
    at = end = labels[0] + 1
    lines: list[str] = []
    if end < len(there) and all(line.startswith("- ") for line in there[end].split("\n")):
        lines += there[end].split("\n")
        end += 1
    while end < len(there) and all(relation_edge(line) for line in there[end].split("\n")):
        lines += there[end].split("\n")
        end += 1
    parts = [p for p in PARAGRAPH_BREAK.split(record.body.strip()) if p.strip()]
    block = _run_at([flat(p) for p in parts], [flat(p) for p in there[at - 1:end]])
    if block is None:
        take_relations_out(record, target, kind)
        return []
    shown = {relation_line(e): e for e in relations}
    edges: list[Edge] = []
    unread: list[str] = []
    for line in (line.rstrip() for line in lines):
        edge = shown.get(line) or relation_edge(line)
        if edge is not None and not unsaid([edge], held):
            edges.append(edge)
        elif line[2:].strip():
            unread.append(line[2:].strip())
    # The block's edges, in its order (a person's reorder), in the places of the edges it showed; those the target
    # held in keys of its own (memspec's) keep theirs; more than it showed (a line added): the rest last. Unedited:
    # each edge in its own place, as it was.
    told = iter(edges)
    record.edges = [e for e in (next(told, None) if e in relations else e for e in record.edges) if e is not None] \
        + list(told)
    record.body = rejoined(parts[:block] + unread + parts[block + end - at + 1:], record.body)
    if edges != relations and "edges" not in edited:
        edited.append("edges")
    return unread


def relations_listed_back(record: Record, target: str, kind: str, edited: list[str],
                          held: frozenset[str] | None = None) -> None:
    """The ``**Relation:**`` lines :func:`show` wrote among the preconditions of ``record`` as a ``kind`` of
    ``target`` (a memfmt procedure, which has no relations: a line each), read home from its preconditions as edited
    there, by the rule of :func:`relations_back`: a line taken out takes its edge out, a line edited or added in
    that form is its edge (``held``: home's edge types, as there), the edges take the lines' order; the lines are
    taken out of the preconditions. Before, an edited line came home as a precondition and its edge kept from the
    carry, and a line taken out took nothing out (forty-seventh session, docs/memfmt.md)."""
    relations = unsaid(record.edges, edge_types(target, kind))
    if record.opaque or not relations or "preconditions" not in edited:
        return
    label = "**Relation:** "
    shown = {relation_line(e): e for e in relations}
    edges: list[Edge] = []
    rest: list[str] = []
    for item in record.preconditions or ():
        line = "- " + item[len(label):].strip() if item.startswith(label) else None
        edge = (shown.get(line) or relation_edge(line)) if line else None
        if edge is not None and not unsaid([edge], held):
            edges.append(edge)
        else:
            rest.append(item)
    told = iter(edges)
    record.edges = [e for e in (next(told, None) if e in relations else e for e in record.edges) if e is not None] \
        + list(told)
    record.preconditions = rest or None
    if edges != relations and "edges" not in edited:
        edited.append("edges")


def _run_at(flats: list[str], run: list[str]) -> int | None:
    """Where the paragraphs ``run`` are, one after another, among ``flats`` first; None where they are not."""
    return next((n for n in range(len(flats) - len(run) + 1) if flats[n:n + len(run)] == run), None)


#: A labelled line as show and the target's writers write one: ``**How to apply:** …``.
_SHOWN_LABEL = re.compile(r"\*\*([^*\n]+):\*\* ")
#: The labels of the one-line fields :func:`show` writes a line for (the targets' writers write How to apply's too),
#: and of the aliases' line.
_SHOWN_LABELS = frozenset(label for _, label in _LABELS) | {"Also known as"}


def knowledge_back(record: Record, body: str, edited: list[str]) -> set[str]:
    """The ``## Knowledge`` of an entity, which :func:`show` wrote into the body of its rendering as a list of
    ``- **[kind] title** — content`` lines (an artifact in a fence under its line), read from that ``body`` as the
    target holds it now: edited there, the entries its lines say are the record's knowledge (``knowledge`` is added
    to ``edited``). Returns the block's paragraphs, flat: not facts of the entity. Before, edited lines came home as
    facts beside the old knowledge, facts of dashes (``- - **[quote] …``). The block as :func:`show` wrote it is
    taken out as it is; one this does not read (two runs of such lines apart) stays text."""
    if not record.knowledge:
        return set()
    parts = [p.strip() for p in PARAGRAPH_BREAK.split(body.strip()) if p.strip()]
    runs, run = [], []
    for n, part in enumerate(parts):
        lines = part.split("\n")
        if all(_KNOWLEDGE_ITEM.fullmatch(line) for line in lines):
            run.append(n)
            continue
        if run and run[-1] == n - 1 and len(lines) >= 2 and lines[0] == "```" and lines[-1] == "```" \
                and not parts[n - 1].startswith("```"):
            run.append(n)  # the artifact of the entry before it
            continue
        if run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    if len(runs) != 1:
        return set()
    said = [parts[n] for n in runs[0]]
    block = _blocks(Record(kind="entity", link=record.link, knowledge=record.knowledge), frozenset({"facts"}))
    if [flat(p) for p in said] == [flat(p) for p in PARAGRAPH_BREAK.split(block[0]) if p.strip()]:
        return {flat(p) for p in said}  # as show wrote it
    knowledge: list[Knowledge] = []
    for part in said:
        lines = part.split("\n")
        if lines[0] == "```":
            knowledge[-1] = dataclasses.replace(knowledge[-1], artifact="\n".join(lines[1:-1]))
            continue
        for line in lines:
            kind, title, content = _KNOWLEDGE_ITEM.fullmatch(line).groups()
            knowledge.append(Knowledge(kind=kind, title=title, content=content or ""))
    record.knowledge = knowledge
    if "knowledge" not in edited:
        edited.append("knowledge")
    return {flat(p) for p in said}


#: A line :func:`show` writes for a piece of an entity's knowledge: ``- **[snippet] deploy command** — how it ships``.
_KNOWLEDGE_ITEM = re.compile(r"- \*\*\[([^\]\n]*)\] (.*?)\*\*(?: — (.*))?")
#: Such a line anywhere in a text read flat.
_KNOWLEDGE_SAID = re.compile(r"(?:^|\s)- \*\*\[[^\]\n]*\] ")


#: The blocks :func:`_blocks` writes under a label of their own, a line each, and the field each says.
_BLOCKS = (("Preconditions", "preconditions"), ("Steps", "steps"), ("Evolution", "evolution"),
           ("Relations", "edges"), ("Anchors", "anchors"), ("Probes", "probes"), ("Extensions", "ext"))


def _unread_intact(record: Record, shown: frozenset[str], flats: list[str], intact: set[str]) -> bool:
    """Whether the body (its paragraphs, ``flats``) still holds the ``**Text outside the format:**`` block as
    :func:`show` wrote it for ``record``: a list under its label (found whole: its label in ``intact``), or, where
    the target shows a list of lines, each of its labelled lines."""
    return all(f"**{UNREAD_LABEL}:**" in intact if "\n" in block else flat(block) in flats
               for block in _unread_blocks(record, shown))


def _unread_apart(parts: list[str], flats: list[str], dropped: set[int]) -> bool:
    """The ``**Text outside the format:**`` block, edited in the target, taken apart: its label (memconv's words, no
    text of the record's) added to ``dropped``; the list under it is the target's text now. Where it was read home
    flat (an entity's facts, a paragraph each: one line), its first dash, which :func:`_unread_blocks` wrote, is taken
    off (``parts`` changed in place), so that it is not a fact of dashes (``- - ## Notes - …``). A list of lines is
    kept a list: a line alone in a paragraph (``## Notes``) could be read as markdown of another kind at home. Whether
    the label was found."""
    label = f"**{UNREAD_LABEL}:**"
    at = next((n for n, f in enumerate(flats) if f == label and n not in dropped), None)
    if at is None:
        return False
    dropped.add(at)
    after = parts[at + 1].strip() if at + 1 < len(parts) and at + 1 not in dropped else ""
    if after.startswith("- ") and "\n" not in after and after[2:].strip():
        parts[at + 1] = after[2:].strip()
    return True


def _value_lines(record: Record) -> list[tuple[str, str, str, Any]]:
    """The lines :func:`_blocks` writes for a memfmt entity's type, an episode's day, valence, importance and
    participants, and the days a procedure last failed and last succeeded, as (field, label, what the line says, how
    an edited line is read back: None where it says no value of the field's type), so that :func:`unshow` takes an
    edit of one as the field's new value."""
    out = []
    if isinstance(record.category, str) and record.category.strip():
        out.append(("category", VALUE_LABELS["category"], flat(record.category), str.strip))
    if isinstance(record.happened, str) and record.happened.strip():  # when, not when it was written down
        out.append(("happened", VALUE_LABELS["happened"], flat(record.happened), str.strip))
    for name in ("last_failed", "last_succeeded"):  # a procedure's
        value = getattr(record, name)
        if isinstance(value, str) and value.strip():
            out.append((name, VALUE_LABELS[name], flat(value), str.strip))
    if isinstance(record.valence, str) and record.valence.strip():
        out.append(("valence", VALUE_LABELS["valence"], flat(record.valence), str.strip))
    if type(record.importance) is int:
        out.append(("importance", VALUE_LABELS["importance"], str(record.importance), _integer))
    if record.participants:
        said = ", ".join(flat(p) for p in record.participants if p.strip())
        out.append(("participants", VALUE_LABELS["participants"], said, _items))
    return out


def _items(text: str) -> list[str] | None:
    """A list line's items (``Ali B., ali``), as :func:`unshow` reads an edit of it: None when it says none."""
    return [item.strip() for item in text.split(",") if item.strip()] or None


def _reading(value: object) -> Any:
    """How an edited line of an unknown key holding ``value`` is read: text as text, a list of texts as items; None
    (the line stays a paragraph of the body, the key as it was) where its type cannot be told from the line's words
    (a number, which may have been a text; a list holding numbers)."""
    if isinstance(value, str):
        return str.strip
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return _items
    return lambda text: None


def _integer(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"[+-]?\d{1,18}", text) else None


def _clear(record: Record, shown: frozenset[str]) -> None:
    for name in ("aliases", "last_failure", "description", "why", "rejected", "trigger", "how_to_apply", "outcome",
                 "facts", "preconditions", "steps", "knowledge", "evolution"):
        if name not in shown:
            setattr(record, name, None)
    if "body" not in shown:
        record.body = ""


def _home_text(record: Record, shown: frozenset[str]) -> str:
    """The record's text where ``shown`` puts it, flat: what is there need not be written again."""
    kept = {"body": [record.body], "facts": record.facts or [], "preconditions": record.preconditions or [],
            "steps": [step_line(s) for s in record.steps or ()], "description": [record.description or ""],
            "trigger": [record.trigger or ""], "how_to_apply": [record.how_to_apply or ""]}
    return " ".join(flat(t) for name, texts in kept.items() if name in shown for t in texts if t)


def _within(text: str, home: str) -> bool:
    """Whether ``text`` is in ``home`` as whole words: a word of it cut out of a longer one is not
    (``go`` is not in ``going``, ``db`` not in ``dbx``)."""
    if not text:
        return False
    # Each place it occurs, its ends looked at (a pattern made per text would be compiled per text: a fifth
    # of a conversion's instructions). A word character is what ``\w`` matches: alphanumeric, or ``_``.
    open_start, open_end = not _word(text[0]), not _word(text[-1])
    at, size = home.find(text), len(text)
    while at >= 0:
        end = at + size
        if (open_start or at == 0 or not _word(home[at - 1])) and (open_end or end == len(home)
                                                                    or not _word(home[end])):
            return True
        at = home.find(text, at + 1)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


#: The bold label a block of text opens with, and the space or line break after it: ``**How to apply:**``.
_LEAD_LABEL = re.compile(r"^\*\*[^*\n]+(?::\*\*|\*\*:)(?:[ \t]|\n)")


def _there(text: str, home: str) -> bool:
    """Whether ``text`` (its label aside, on its line or alone above the text; a numbered list's numbers
    aside) is in ``home`` already, as whole words. A tags line is there only as a tags line: a tag's word
    in prose (``go`` in ``we go now``) does not show it as a tag."""
    if _within(flat(text), home):
        return True
    bare = _LEAD_LABEL.sub("", text.strip(), count=1)
    items = numbered_items(bare)
    if items is None and bare != text.strip():
        # A labelled list of one numbered item (``**Steps:**``, ``1. run the tests``): its number aside too.
        # (A lesson's how_to_apply is its one step, and its body's **How to apply:** line may say it.)
        one = _NUMBERED.match(bare.strip())
        items = [one.group("rest")[1:].strip()] if one and "\n" not in bare.strip() else None
    return _TAGS_LINE.fullmatch(flat(text)) is None and _VALUE_LINE.fullmatch(flat(text)) is None \
        and (_within(flat(bare), home) or (items is not None and _within(" ".join(items), home)))


def _new_blocks(record: Record, blocks: list[str], shown: frozenset[str]) -> list[str]:
    """The ``blocks`` whose text is not already where ``shown`` puts the record's text (label aside), nor the
    whole text of an unlabelled block before it: a Claude feedback memory's trigger, which its reader takes from
    the description, is not shown a second time as a ``**When:**`` line under the description's paragraph. (Two
    labelled lines of one text both stay: ``**When:** deploy`` and ``**How to apply:** deploy`` say two things.)"""
    home = _home_text(record, shown)
    new: list[str] = []
    plain: set[str] = set()  # the unlabelled blocks written so far, flat
    for block in blocks:
        if _there(block, home):
            continue
        bare = _LEAD_LABEL.sub("", block.strip(), count=1)
        if flat(bare) in plain:
            continue
        new.append(block)
        if bare == block.strip():
            plain.add(flat(block))
    return new


#: The fields :func:`show` may move into a readable home.
_MOVED = ("description", "why", "rejected", "trigger", "how_to_apply", "outcome", "last_failure", "source_text",
          "project", "aliases", "tags", "facts", "preconditions", "steps", "knowledge", "evolution", *VALUE_LABELS)


#: A numbered line of a body: ``2. Tag with git``, its number and what follows it apart.
_NUMBERED = re.compile(r"^(?P<lead>\s*)(?P<n>\d+)(?P<rest>[.)]\s.*)$")


#: A bullet's marker at the start of a line: ``- ``, ``* ``, ``+ `` (a numbered line keeps its number: its order
#: is part of what it says).
_BULLET = re.compile(r"^[ \t]*[-*+][ \t]+(?=\S)")


def _precondition(line: str, code: bool = False) -> str:
    """A line of a body as the precondition :func:`show` makes of it: a bullet's marker aside (memfmt writes
    each precondition as a bullet of its own: ``- - first point`` was a bullet in a bullet); a line of code
    (``code``: inside a fence, an indented block or raw HTML, as markdown-it reads the body) as inline code, its
    fence's lines too, so that memfmt shows it as code and its ``[[links]]``, which are no links, are not renamed
    (``naming.rename_links`` skips code spans)."""
    return code_span(flat(line)) if code else flat(_BULLET.sub("", line, count=1))


def _code_paragraphs(body: str) -> dict[str, list[bool]]:
    """The paragraphs of ``body`` that hold code, as :func:`_blocks` cuts them (at blank lines, stripped), each with
    which of its lines are code (:func:`_precondition`); empty for a body that holds none (not parsed)."""
    code = code_lines(body)  # (parsed only where there may be code: ``may_hold_code``)
    if not code:
        return {}
    found: dict[str, list[bool]] = {}
    lines = body.split("\n")
    run: list[int] = []
    for n, line in enumerate([*lines, ""]):
        if line.strip():
            run.append(n)
            continue
        if run and not code.isdisjoint(run):
            found.setdefault("\n".join(lines[i] for i in run).strip(), [i in code for i in run])
        run = []
    return found


def _item_at(line: str, name: str, code: bool = False) -> str | None:
    """The text ``line`` of a body gave an item of ``name`` when :func:`show` made the list (None: none);
    ``code``: the line is code (:func:`_precondition`)."""
    if name == "steps":
        match = _LIST_ITEM.match(line)
        return flat(match.group("text")) if match else None
    return _precondition(line, code) or None


def _land(record: Record, name: str, before: list, how: str | None = None) -> None:
    """The items of ``name`` (steps, preconditions) edited in the target, put back on the lines of the body
    :func:`show` made them of (``before``: the items as the target showed them then): an edited item
    replaces its line, a deleted one takes it out, an added step goes next to the line of its neighbour;
    a step that was the record's ``how_to_apply`` edits that field. What has no such place stays in
    ``name``, for :func:`fold_in` to write as it writes any edit. ``how``: the record's how_to_apply then."""
    values = getattr(record, name) or []
    old = [step_line(v) if isinstance(v, Step) else flat(v) for v in before]
    new = [step_line(v) if isinstance(v, Step) else flat(v) for v in values]
    lines = record.body.split("\n")
    code = code_lines(record.body) if name == "preconditions" else set()
    at: list[int | None] = []
    start = 0
    for text in old:
        line = next((n for n in range(start, len(lines)) if _item_at(lines[n], name, n in code) == text), None)
        at.append(line)
        start = start if line is None else line + 1
    joined = steps_said([v for v in values if isinstance(v, Step)])
    if name == "steps" and how and numbered_items(how) == old and record.how_to_apply in (how, joined):
        # The steps were the lesson's how_to_apply, a numbered list (a Claude **How to apply:** section): the
        # list is edited as the body's is, so that it still says what the body's section says.
        listed = Record(kind=record.kind, link=record.link, body=how, steps=list(values))
        _land(listed, name, before)
        record.how_to_apply = how if listed.steps else listed.body.strip("\n") or None
    if name == "steps" and how and flat(how) in old and record.how_to_apply in (how, joined):
        record.how_to_apply = how  # what the steps said of it joined: the step it made is read below
        how = flat(how)
    else:
        how = ""
    changed: dict[int, str | None] = {}
    added: dict[int, list[str]] = {}
    first: dict[int, list[str]] = {}
    placed: set[int] = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            placed.update(range(j1, j2))
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i = i1 + k if k < i2 - i1 else None
            j = j1 + k if k < j2 - j1 else None
            if i is not None and at[i] is not None:
                changed[at[i]] = None if j is None else new[j]
            elif i is not None and how and old[i] == how and j is not None:
                record.how_to_apply = new[j]  # the step the lesson's how_to_apply made
            elif i is None and name == "steps":  # added: after the step before it, or before the next one
                # (an added precondition has no line of its own to go to: fold_in labels it)
                after = max((at[x] for x in range(i2) if at[x] is not None), default=None)
                ahead = min((at[x] for x in range(i2, len(old)) if at[x] is not None), default=None)
                if after is not None:
                    added.setdefault(after, []).append(new[j])
                elif ahead is not None:
                    first.setdefault(ahead, []).append(new[j])
                else:
                    continue
            else:
                continue
            if j is not None:
                placed.add(j)
    setattr(record, name, [v for j, v in enumerate(values) if j not in placed] or None)
    if not (changed or added or first):
        return
    out: list[str] = []
    moved: set[int] = set()  # where a line was added or taken out: its numbered list is numbered again
    for n, line in enumerate(lines):
        if name == "steps":
            match = _LIST_ITEM.match(line)
            marker = line[:match.start("text")] if match else ""
        elif n in code:  # an edited line of code keeps its indent, and is code again, not a code span
            marker = line[:len(line) - len(line.lstrip())]
            if n in changed and changed[n] is not None:
                changed[n] = code_span_text(changed[n]) or changed[n]
        else:  # an edited precondition keeps its line's bullet
            bullet = _BULLET.match(line)
            marker = bullet.group(0) if bullet else ""
        for text in first.get(n, ()):
            moved.add(len(out))
            out.append(marker + text)
        if changed.get(n, line) is None:
            moved.update((len(out) - 1, len(out)))
        else:
            out.append(marker + changed[n] if n in changed else line)
        for text in added.get(n, ()):
            moved.add(len(out))
            out.append(marker + text)
    runs: list[list[int]] = []
    for n, line in enumerate(out):
        if _NUMBERED.match(line) is None:
            continue
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    for run in runs if name == "steps" else ():
        if moved & set(run):
            start = int(_NUMBERED.match(out[run[0]]).group("n"))
            for number, n in enumerate(run, start):
                match = _NUMBERED.match(out[n])
                out[n] = f"{match.group('lead')}{number}{match.group('rest')}"
    record.body = re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", "\n".join(out)).strip("\n") + "\n"


#: The label a lesson's how_to_apply has on a line of its body: ``**How to apply:** run the tests`` (the label
#: :func:`show` writes it with, from ``_LABELS``; ``**How to apply**:`` too, as Claude Code reads it), and the
#: space after it.
_SECTION_LABEL = {name: re.compile(rf"^\*\*{re.escape(label)}:?\*\*:?[ \t]*", re.I | re.M) for name, label in _LABELS}
HOW_TO_APPLY = _SECTION_LABEL["how_to_apply"]
#: A line the text of a labelled section does not go on to: a blank line, another bold label, a list item, a
#: heading, a fence, a quote (where Claude Code's reader ends the paragraph it takes the section from).
_SECTION_ENDS = re.compile(r"^\s*$|^\*\*[^*\n]+\*\*|^\s*(?:\d{1,9}[.)]|[-*+])(?:\s|$)"
                           r"|^\s{0,3}(?:#{1,6}(?:\s|$)|```|~~~|>)")


def _labelled_lines(lines: list[str], code: set[int] | frozenset, label: re.Pattern = HOW_TO_APPLY) -> list[int]:
    """The lines of a body (outside its fenced ``code``) that begin a section under ``label`` (one of
    ``_SECTION_LABEL``)."""
    return [n for n, line in enumerate(lines) if n not in code and label.match(line)]


def _how_to_apply_at(lines: list[str], code: set[int] | frozenset = frozenset()) -> tuple[int, int, int] | None:
    """Where the one ``**How to apply:**`` section of ``lines`` (outside ``code``) is: its label's line, the
    line its text begins on (the label's own; the next one, the label alone on its line) and the line after
    its text. None: no such label, more than one, or no text of its own (a list below the label)."""
    hits = _labelled_lines(lines, code)
    if len(hits) != 1:
        return None
    n = hits[0]
    first = n if lines[n][HOW_TO_APPLY.match(lines[n]).end():].strip() else n + 1
    if first == len(lines) or (first > n and _SECTION_ENDS.match(lines[first])):
        return None
    end = next((m for m in range(first + 1, len(lines)) if _SECTION_ENDS.match(lines[m]) or m in code), len(lines))
    return n, first, end


def said_how_to_apply(body: str) -> str | None:
    """What the one ``**How to apply:**`` section of ``body`` says, as Claude Code reads a feedback memory's
    how_to_apply from it: the text on the label's line and the lines that go on from it; the label alone on
    its line, the lines below it, or the numbered list below it. None: no such section, more than one, or
    one of another shape (a bulleted list, a list after a blank line)."""
    if "**" not in body:
        return None
    lines = body.split("\n")
    code = code_lines(body)
    at = _how_to_apply_at(lines, code)
    if at is not None:
        n, first, end = at
        said = [lines[n][HOW_TO_APPLY.match(lines[n]).end():]] + lines[n + 1:end] if first == n else lines[first:end]
        return "\n".join(said).strip() or None
    hits = _labelled_lines(lines, code)
    if len(hits) != 1 or lines[hits[0]][HOW_TO_APPLY.match(lines[hits[0]]).end():].strip():
        return None
    listed = []
    for n in range(hits[0] + 1, len(lines)):
        if not lines[n].strip() or n in code:
            break
        listed.append(lines[n])
    return "\n".join(listed).strip() if listed and all(_NUMBERED.match(line) for line in listed) else None


def _how_to_apply_follows(record: Record, original: str, owner: str | None, edited: list[str]) -> None:
    """A how_to_apply that the record's body said at home (``original``: that body; a Claude feedback
    memory's reader takes it from its ``**How to apply:**`` section), the body edited in a target that
    showed it only there: it says what the edited section says, and is among the ``edited`` fields.
    Before, the carried copy came home beside the edited section, and Claude Code read the old text from
    the ``how_to_apply`` key it was written in. The section taken out, the field goes too, unless
    ``owner`` requires it of the record's kind (``REQUIRED_TEXT``: memoir's lessons) and reads it from a key,
    where the carried text stays; a section left in a shape this does not read (two labels) keeps the carried text too."""
    how = record.how_to_apply
    if not isinstance(how, str) or "how_to_apply" in edited or said_how_to_apply(original) != how:
        return
    now = said_how_to_apply(record.body)
    if now == how:
        return
    if now is None:
        if _labelled_lines(record.body.split("\n"), code_lines(record.body)) \
                or owner is None or ("how_to_apply" in REQUIRED_TEXT[owner].get(record.kind, ())
                                     and "how_to_apply" not in SECTION_FIELDS[owner].get(record.kind, ())):
            return  # (where its tools read it from the section, as Claude Code does, the section was its place)
    record.how_to_apply = now
    edited.append("how_to_apply")


def land_how_to_apply(record: Record, dialect: str, read: Record, target: str) -> bool:
    """A lesson's how_to_apply, edited in ``target`` as the step it made there (a memfmt procedure's), put
    in the ``**How to apply:**`` section of its body that said it (Claude Code keeps it there, and reads it
    from there); returns whether it did. ``read``: the record as ``target`` has it.

    Before, the body came home unchanged and the edit beside it, in a ``how_to_apply`` key. A section
    that said something else than the step (the target then showed it among the preconditions) stays.
    The section's text is on the label's line and the lines that go on from it, or, the label alone on
    its line, on the lines below it; the edit replaces that text, on one line, where it began.
    """
    how = record.how_to_apply
    if record.opaque or not how or not record.body or HOW_TO_APPLY.search(record.body) is None \
            or "how_to_apply" not in native_text(dialect, record.kind) \
            or "steps" not in native_text(target, read.kind) or "how_to_apply" in native_text(target, read.kind):
        return False
    lines = record.body.split("\n")
    at = _how_to_apply_at(lines, code_lines(record.body))
    if at is None:
        return False
    n, first, end = at
    label = HOW_TO_APPLY.match(lines[n]).end()
    said = flat(" ".join([lines[n][label:]] + lines[n + 1:end]))
    if not said or said == flat(how) or flat(how) not in [step_line(s) for s in read.steps or ()] \
            or flat(lines[n]) in [flat(p) for p in read.preconditions or ()]:
        return False
    text = flat(how)
    lines[first:end] = [lines[n][:label].rstrip() + " " + text] if first == n else [text]
    record.body = "\n".join(lines)
    return True


def _tags_back(record: Record, before: list, edited: list[str]) -> None:
    """The ``**Tags:**`` line :func:`show` made one of a procedure's preconditions (``before``: the preconditions
    the target showed), edited there: the edit sets the record's tags, and the line is what it was (it is not
    a precondition to write into the body); taken out there, the tags go (:func:`take_tags_out`)."""
    def tags_lines(items: list) -> list[str]:
        return [p for p in items if isinstance(p, str) and _TAGS_LINE.fullmatch(flat(p))]

    old, now = tags_lines(before), tags_lines(record.preconditions or [])
    gone, came = [p for p in old if p not in now], [p for p in now if p not in old]
    if len(old) != 1 or len(gone) != 1 or len(came) > 1:
        return
    if not came:
        take_tags_out(record, edited)
        return
    line = _TAGS_LINE.fullmatch(flat(came[0]))
    record.tags = [t.strip() for t in line.group(1).split(",") if t.strip()] or None
    record.extra = {k: v for k, v in record.extra.items() if k != "tags"}
    record.preconditions = [gone[0] if p is came[0] else p for p in record.preconditions]
    if "tags" not in edited:
        edited.append("tags")


def shows_tags(record: Record, target: str) -> bool:
    """Whether ``record``, a record of ``target`` (its kind there), shows a ``**Tags:**`` line where ``target``
    shows its text (a memfmt entity's facts, a procedure's preconditions, a body's paragraphs)."""
    shown = native_text(target, record.kind)
    texts = [t for name in ("facts", "preconditions") if name in shown for t in getattr(record, name) or ()]
    if "body" in shown and "**Tags:**" in record.body:
        texts += PARAGRAPH_BREAK.split(record.body)
    return any(isinstance(t, str) and _TAGS_LINE.fullmatch(flat(t)) for t in texts)


def take_tags_out(record: Record, edited: list[str]) -> None:
    """The ``**Tags:**`` line that was the target's one place for the record's tags, taken out there: the user
    took the tags out, as written (``tags``) or kept as written (an unknown key ``tags``, ``[2024, true]``)."""
    record.tags = None
    record.extra = {k: v for k, v in record.extra.items() if k != "tags"}
    if "tags" not in edited:
        edited.append("tags")


def unsaid(edges: list[Edge], held: frozenset[str] | None) -> list[Edge]:
    """The ``edges`` a dialect's files do not say, when they say the edge types ``held`` (its ``EDGE_TYPES``;
    None: any type, as relations), an outgoing edge each: what :func:`show` writes as relation lines."""
    return [] if held is None else [e for e in edges if (e.type not in held or e.direction != "out") and e.target]


#: The text fields an edit in another dialect may add to a record, which :func:`fold_in` writes whole into its
#: readable home where its own dialect has no key for them: an alias added in memoir to a memspec claim, an outcome
#: or a precondition added in memfmt to a memoir decision or lesson, a memfmt entity's ``## Knowledge`` entry, the
#: outcome written in memfmt on a memspec decision or observation (its description home: the first paragraph, where
#: :func:`show` writes one), participants or a valence set in memfmt on a memoir decision (a line each,
#: :data:`VALUE_LABELS`). (A step's counts or an evolution line would lose their numbers in a line: they are counted
#: dropped instead.)
ADDED_TEXT = ("description", "aliases", "why", "rejected", "trigger", "how_to_apply", "outcome", "last_failure",
              "facts", "preconditions", "knowledge", *VALUE_LABELS)


def unsaid_text(record: Record, dialect: str) -> list[str]:
    """The fields of :data:`ADDED_TEXT` that ``record`` has and its kind in ``dialect`` has no place for (its text
    fields leave them out). A record of ``dialect`` that has them (built in code) carries them, so that the way home
    tells them from text the target added, which :func:`fold_in` writes into its body."""
    shown = native_text(dialect, record.kind)
    return [n for n in ADDED_TEXT if n not in shown and getattr(record, n)]


def fold_in_relations(record: Record, dialect: str) -> bool:
    """The edges of ``record`` that ``dialect`` does not write (its ``EDGE_TYPES``) written into its body as
    :func:`show` writes them (``**Relations:**``, a line each; a line already there not again), and taken off
    the record; whether any was. A record home again that the target related to another (memspec's ``relate``,
    a relation added with the memfmt library) lost the edge: its own writer has no key for it, and the report
    said nothing. A memfmt procedure or episode, which says no edge (:func:`edge_types`), shows them as its
    preconditions or body do (forty-seventh session)."""
    shown = native_text(dialect, record.kind)
    held = edge_types(dialect, record.kind)
    relations = unsaid(record.edges, held)
    if not relations or not _place(record, shown, _blocks(Record(kind=record.kind, link=record.link,
                                                                  edges=relations), shown, held)):
        return False
    record.edges = [e for e in record.edges if e not in relations]
    return True


def _anchor_line(anchor: Anchor) -> str:
    """An anchor as a line of its block: ``- src/app.py @ 7d4290a1…``, its repo and any other sub-key after it."""
    text = flat(anchor.file) + (f" @ {flat(anchor.sha)}" if anchor.sha else "")
    if anchor.repo:
        text += f" (repo: {flat(anchor.repo)})"
    for key, value in anchor.extra.items():
        said = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        text += f"; {flat(key)}: {flat(said)}"
    return f"- {text}"


def _listed(label: str, one: str, lines: list[str], shown: frozenset[str]) -> list[str]:
    """``lines`` (``- …`` each) as blocks where ``shown`` puts a record's text: a body shows them as a list under one
    label (``**Anchors:**``); a list of facts or preconditions, a line each, labelled (``**Anchor:** …``)."""
    if "body" in shown:
        return [f"**{label}:**\n\n" + "\n".join(lines)]
    return [f"**{one}:** {line.removeprefix('- ')}" for line in lines]


def _probe_line(probe: Probe) -> str:
    """A probe as a line of its block: ``- node --version``, any sub-key but its output's digest after it (the
    digest is a program's, not words)."""
    text = flat(probe.command or "")
    for key, value in probe.extra.items():
        said = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        text += f"; {flat(key)}: {flat(said)}"
    return f"- {text}"


def fold_in_anchors(record: Record, dialect: str) -> bool:
    """The anchors of ``record`` (memspec's ``anchor``: a file and the git blob sha it was pinned to), which
    ``dialect``, its home, has no key for, written into its readable home as an ``**Anchors:**`` block, a line each
    (a line already there not again), and taken off the record; whether they were. False, the anchors left on it,
    where home has no place that shows text (an entry kept whole): they are then dropped, and counted so.
    Before, they were lost on the way home while the report said "0 dropped"."""
    if not record.anchors:
        return False
    shown = native_text(dialect, record.kind)
    if not _place(record, shown, _listed("Anchors", "Anchor", [_anchor_line(a) for a in record.anchors], shown)):
        return False
    record.anchors = None
    return True


def fold_in_unread(record: Record, dialect: str) -> bool:
    """The text ``record``'s file held where its reader does not read it (``Record.unread``), which a writer that
    renders the record anew does not write, put into its readable home in ``dialect`` as :func:`show` writes it (a
    line each, under ``**Text outside the format:**``; a line already there not again), and taken off the record;
    whether it was. False, the lines left on it, where home has no place that shows text (an entry kept whole)."""
    if not record.unread:
        return False
    shown = native_text(dialect, record.kind)
    if not _place(record, shown, _unread_blocks(record, shown)):
        return False
    record.unread = None
    return True


def _place(record: Record, shown: frozenset[str], blocks: list[str], lead: str | None = None) -> bool:
    """``blocks`` (what :func:`_blocks` makes) written where ``shown`` puts the record's text, those already there
    not again: its body, else a memfmt entity's facts, else a procedure's preconditions, each line one, as
    :func:`show` writes them. ``lead``: the block that opens a body, before its text (a description's, as
    :func:`show` writes it). False where it has none of these, or is kept whole (opaque)."""
    if record.opaque or not ("body" in shown or "facts" in shown or {"steps", "preconditions"} <= shown):
        return False
    blocks = _new_blocks(record, blocks, shown)
    if blocks and "body" in shown:
        first = [blocks.pop(0)] if lead is not None and blocks[0] == lead else []
        record.body = join_paragraphs(first + ([record.body.strip()] if record.body.strip() else []) + blocks)
    elif blocks:
        lines = [flat(line.removeprefix("- ")) for b in blocks for line in b.split("\n") if line.strip()]
        if "facts" in shown:
            record.facts = (record.facts or []) + lines
        else:
            record.preconditions = (record.preconditions or []) + lines
    return True


def uncounted(record: Record) -> list[str]:
    """The lists of ``record`` whose items hold what :func:`show`'s lines do not say: a step's runs (``4✓/1✗``),
    what it needs and gives, a revision's runs. Written into a readable home by :func:`fold_in`, that is lost."""
    steps = any(s.successes is not None or s.failures is not None or s.needs or s.gives for s in record.steps or ())
    revisions = any(r.successes is not None or r.failures is not None for r in record.evolution or ())
    return [n for n, lost in (("steps", steps), ("evolution", revisions)) if lost]


def fold_in(record: Record, dialect: str, edited: list[str], before: dict | None = None) -> list[str]:
    """Fields ``edited`` in another dialect that ``dialect``'s kind has no place for, written into the
    record's readable home as :func:`show` writes them (its body, else a memfmt entity's facts or a
    procedure's preconditions; what is already there not again); returns their names.

    A record home again whose edit came in a field its own writer does not write (a memfmt procedure's
    preconditions or steps, home as a memoir lesson; a tag added in memspec to a memfmt entity) lost the
    edit while the report said it won. Tags home kept in an unknown key of their own (a memfmt file's
    ``tags:``, which the target showed as its tags) are edited there. ``before``: the steps and
    preconditions the target showed before the edit, when known: an item :func:`show` made of a line of
    the body is edited on that line, not written again beside it.
    """
    shown = native_text(dialect, record.kind)
    if record.opaque:
        return []
    folded = []
    if "tags" in edited and "tags" not in shown and isinstance(record.extra.get("tags"), list):
        # The target's tags were this key (transforms.tags_as_text): the edit lands in it, removals too.
        if record.tags:
            record.extra["tags"] = list(record.tags)
        else:
            record.extra.pop("tags")
        record.tags = None
        folded.append("tags")
    if "preconditions" in edited and "tags" in shown and before and before.get("preconditions") is not None:
        _tags_back(record, before["preconditions"], edited)
    if "preconditions" in edited and "description" in shown and before and before.get("preconditions"):
        before = _description_back(record, before, edited)
    for name in ("steps", "preconditions"):
        if name in edited and name not in shown and before and before.get(name) is not None and "body" in shown:
            # Every item taken out there too: its lines of the body go (the list empty, nothing is left to write).
            _land(record, name, before[name], before.get("how_to_apply"))
            if not getattr(record, name):
                setattr(record, name, None)
                folded.append(name)
    names = [n for n in edited if n in _MOVED and n not in shown and getattr(record, n)]
    if not names or not ("body" in shown or "facts" in shown or {"steps", "preconditions"} <= shown):
        return folded
    probe = Record(kind=record.kind, link=record.link)
    home = _home_text(record, shown)
    for name in names:
        value = getattr(record, name)
        if isinstance(value, list):  # only the items not already said: an added precondition, an edited step
            value = [v for v in value if not (isinstance(v, (str, Step))
                                              and _there(v if isinstance(v, str) else step_line(v), home))] or None
        setattr(probe, name, value)
        setattr(record, name, None)
    _place(record, shown, _blocks(probe, shown), (probe.description or "").strip() or None)
    return folded + names


def _description_back(record: Record, before: dict, edited: list[str]) -> dict:
    """The description :func:`show` wrote as a procedure's first precondition (a memoir lesson's: memfmt's procedure
    has no field for it), edited there in place: the edit is the description's. Told by the first item shown
    (``before``) being the description, and the first item now being new, the list as long as it was. Returns
    ``before`` without that item, for the rest of the list to land on the body's lines. (Before, the edit came
    home as a ``**Preconditions:**`` list at the end of the body, beside the old description.)"""
    said = flat(record.description) if isinstance(record.description, str) else ""
    old = [flat(v) for v in before["preconditions"]]
    new = [flat(v) for v in record.preconditions or []]
    if not said or old[0] != said or len(new) != len(old) or not new[0] or new[0] in old:
        return before
    record.description = new[0]
    record.preconditions = (record.preconditions or [])[1:]
    if "description" not in edited:
        edited.append("description")
    return {**before, "preconditions": before["preconditions"][1:]}


def _own_paragraphs(flats: list[str], original: str | None) -> set[int]:
    """Which of ``flats`` (an edited body's paragraphs, flat, in order) are the body's own: a paragraph its body at
    home (``original``) held, however like a line :func:`show` writes it is (``**Tags:** infra``, written by hand).
    :func:`show` does not write a line again where the body says it (:func:`_new_blocks`), and writes its lines after
    the body's, so the first as many of each as the body held are its own: kept, and never read as an edit of a
    field. Before, such a paragraph was taken out as :func:`show`'s, or read as the field's new value."""
    if not isinstance(original, str):
        return set()
    left = Counter(transforms.paragraphs(original))
    users = set()
    for n, f in enumerate(flats):
        if left[f] > 0:
            left[f] -= 1
            users.add(n)
    return users


def sections_wanted(record: Record, target: str, kind: str, body: str) -> frozenset[str]:
    """The fields of ``record`` (a ``kind`` of ``target``) that ``target``'s tools read from a labelled section
    of the body (its ``SECTION_FIELDS``: a Claude Code feedback memory's ``**How to apply:**``) and that
    ``body`` has no section for: :func:`show` writes them there, not in a key (memoir-cli's ``validate``
    warned of every feedback memory memconv wrote from memfmt or memspec). A body with a section of its own
    keeps it as written, and a how_to_apply it does not say stays in its key."""
    wanted = SECTION_FIELDS[target].get(kind, frozenset())
    if record.opaque or not wanted:
        return frozenset()
    code = code_lines(body) if "**" in body else frozenset()
    lines = body.split("\n")
    out = set()
    for name in wanted:
        value = getattr(record, name, None)
        if isinstance(value, str) and value.strip() and not _labelled_lines(lines, code, _SECTION_LABEL[name]):
            out.add(name)
    return frozenset(out)


def show(record: Record, target: str) -> Record:
    """``record`` (a copy the caller owns) with every piece of its text where ``target`` shows it.

    A field the target's kind has no place for is written into the kind's
    readable home, labelled: a body (memoir, claude, memspec, memfmt episodes
    and profiles), an entity's facts, a procedure's preconditions and steps:
    which, follows from the fields the target declares its kind shows.
    Text already there is not repeated. The caller carries the exact fields,
    so the way back is unchanged; this only decides what the target's user sees.
    """
    if record.opaque:
        return record
    sections = sections_wanted(record, target, record.kind, record.body)
    shown = native_text(target, record.kind) - sections
    every = _blocks(record, shown, edge_types(target, record.kind), sections, hidden_keys(record, target, record.kind),
                    not holds_anchors(target))
    blocks = _new_blocks(record, every, shown)
    if sections:
        # The section is written even where the body says its words: the target's tools read it under its label.
        labels = tuple(f"**{dict(_LABELS)[name]}:**" for name in sections)
        blocks = [b for b in every if b in blocks or b.startswith(labels)]
    if "body" not in shown and {"steps", "preconditions"} <= shown:
        # No body, but steps and preconditions (a memfmt procedure): list items are steps. Beside the steps the
        # record has (a lesson's how_to_apply), only the numbered list of its **How to apply:** section is: a
        # lesson's body is its evidence (memoir 3.3.4), and another list there (the cases it holds in) is not
        # something to run. The section the steps say is not written again, nor the label over its list.
        steps, rest = [], []
        home = _home_text(record, shown)
        coded = _code_paragraphs(record.body) if "body" not in shown else {}
        under = False  # the block is the list under a **How to apply:** label alone
        for block in blocks:
            how, under = under, False
            lines = [line for line in block.split("\n") if line.strip()]
            at = _how_to_apply_at(lines)
            if at is not None and _there("\n".join(lines[at[0]:at[2]]), home):
                # The section said on lines of a paragraph that says more (``**Why:** …`` above it): not twice.
                lines = lines[:at[0]] + lines[at[2]:]
                if not lines:
                    continue
                block = "\n".join(lines)
            label = HOW_TO_APPLY.match(lines[0])
            if label and all(_NUMBERED.match(line) for line in lines[1:]):
                said = lines[0][label.end():].strip()
                n = every.index(block) + 1 if block in every else len(every)  # the label alone, over the list
                below = [line for line in every[n].split("\n") if line.strip()] if n < len(every) else []
                if len(lines) == 1 and not said and below and all(_NUMBERED.match(line) for line in below):
                    under = every[n] in blocks
                    continue
                if len(lines) > 1:
                    how = True
                    if said and not _there(said, home):
                        rest.append(flat(lines[0]))
                    block = "\n".join(lines[1:])
            code = coded.get(block) if coded else None
            items = [_LIST_ITEM.match(line) for line in block.split("\n") if line.strip()]
            if items and all(items) and not code \
                    and (record.steps is None or how and all(_NUMBERED.match(m.group(0)) for m in items)):
                steps += [step_of(m.group("text").strip()) for m in items]  # as memfmt reads each line
            elif code:
                rest += [_precondition(line, c) for line, c in zip([x for x in block.split("\n") if x.strip()], code)]
            else:
                rest += [_precondition(line) for line in block.split("\n") if line.strip()]
        _clear(record, shown)
        record.steps = (record.steps or []) + steps or None
        record.preconditions = (record.preconditions or []) + rest or None
        return record
    if "body" not in shown and "facts" in shown:
        # No body, but a list of facts (a memfmt entity): every line is a fact.
        _clear(record, shown)
        facts = [flat(line.removeprefix("- ")) for b in blocks for line in b.split("\n") if line.strip()]
        record.facts = (record.facts or []) + facts or None
        return record
    lead = bool(blocks) and "description" not in shown and blocks[0] == (record.description or "").strip()
    body = record.body
    _clear(record, shown)
    if blocks and "body" in shown:
        parts = ([blocks.pop(0)] if lead else []) + ([body.strip()] if body.strip() else []) + blocks
        record.body = join_paragraphs(parts)
    return record


def _lead_edited(record: Record, flats: list[str], rendered: set[str], original: str, edited: list[str]) -> None:
    """The description :func:`show` wrote as the body's first paragraph (in a target with no field for it:
    memspec), edited there: the edit is the description's, not a paragraph of the body beside the old
    description. Told by the description's paragraph being gone and the first paragraph being new: in
    neither the body the record had at home (``original``) nor what :func:`show` wrote. Anything else (the
    paragraph deleted, or moved) keeps the carried description. (Before, an edited description came home
    as a new first paragraph of the body, and Claude Code's index kept the old one.) An episode, which has no
    description, was shown its outcome there (``transforms.from_episode``): the edit is the outcome's."""
    name = "outcome" if record.kind == "episode" and not record.description else "description"
    value = getattr(record, name)
    said = flat(value) if isinstance(value, str) else ""
    if not said or said not in rendered or said in flats or not flats or name in edited:
        return
    first = flats[0]
    if first in rendered or first in {flat(p) for p in PARAGRAPH_BREAK.split(original) if p.strip()}:
        return
    setattr(record, name, first)
    rendered.add(first)
    edited.append(name)


def _steps_back(record: Record, target: str, kind: str, parts: list[str], flats: list[str], dropped: set[int],
                users: set[int], edited: list[str]) -> None:
    """The steps of a procedure that ``target`` (``kind`` there) showed in its body as a numbered list under their
    label (``**Steps:**``; Claude's ``**How to apply:**``), not as :func:`show` wrote them (``dropped``: the
    paragraphs taken out already; ``users``: the body's own): edited there, the list is the steps now, each step
    whose line is as it was keeping its runs and what it needs and gives (:func:`steps_kept`), and both paragraphs
    are taken out (added to ``dropped``); ``steps`` is added to ``edited``. Before, the block stayed a paragraph of
    the body, which home (a memfmt procedure) has no place for: the edit was said dropped, and the steps came home
    unchanged. Steps the target read already (Claude's, from its section; ``steps`` in ``edited``) are the list's:
    the block is taken out where it says them, and left, said dropped, where it says other steps."""
    labels = {"**Steps:**"}
    if "how_to_apply" in SECTION_FIELDS[target].get(kind, ()):
        labels.add(f"**{dict(_LABELS)['how_to_apply']}:**")
    found = _list_under(labels, parts, flats, dropped | users, _NUMBERED)
    if found is None:
        return
    at, items = found
    steps = steps_kept(record.steps, [step_of(item) for item in items])
    _list_taken(record, "steps", steps, steps == record.steps, at, dropped, edited)


def _preconditions_back(record: Record, parts: list[str], flats: list[str], dropped: set[int], users: set[int],
                        edited: list[str]) -> None:
    """The preconditions of a procedure that the target showed in its body as a list under ``**Preconditions:**``
    (:func:`show`), edited there: the list is the preconditions now, and both paragraphs are taken out (added to
    ``dropped``), as :func:`_steps_back` does for the steps. Before, the block stayed a paragraph of the body, which
    home (a memfmt procedure) has no place for: the edit was said dropped, and the preconditions came home as they
    were."""
    found = _list_under({"**Preconditions:**"}, parts, flats, dropped | users, _BULLET)
    if found is None:
        return
    at, items = found
    _list_taken(record, "preconditions", items, items == [flat(p) for p in record.preconditions or ()], at, dropped,
                edited)


def _evolution_back(record: Record, parts: list[str], flats: list[str], dropped: set[int], users: set[int],
                    edited: list[str]) -> None:
    """The evolution of a procedure that the target showed in its body as a list under ``**Evolution:**``
    (:func:`show`), edited there: the list is the evolution now, each line keeping the runs it may
    (:func:`revisions_kept`), and both paragraphs are taken out (added to ``dropped``), as :func:`_steps_back` does
    for the steps. A list with a line that says no revision (``v2 → v3: …``) is left in the body, said dropped.
    Before, the block stayed a paragraph of the body, which home (a memfmt procedure) has no place for: the edit
    was said dropped, and the evolution came home as it was."""
    found = _list_under({"**Evolution:**"}, parts, flats, dropped | users, _BULLET)
    if found is None:
        return
    at, items = found
    now = [_revision_of(item) for item in items]
    if None in now:
        return
    evolution = revisions_kept(record.evolution, now)
    _list_taken(record, "evolution", evolution, evolution == record.evolution, at, dropped, edited)


def _list_taken(record: Record, name: str, value: list[Any], unchanged: bool, at: int, dropped: set[int],
                edited: list[str]) -> None:
    """The list under its label at ``at`` (:func:`_list_under`) read back as ``record``'s field ``name``
    (``value``): the field is ``value`` unless ``unchanged``, and both paragraphs are taken out (added to
    ``dropped``); a field the target edited already (in ``edited``) keeps that edit, and the list stays in the body,
    said dropped. The one rule of :func:`_steps_back`, :func:`_preconditions_back` and :func:`_evolution_back`."""
    if not unchanged:
        if name in edited:
            return
        setattr(record, name, value)
        edited.append(name)
    dropped.update((at, at + 1))


def _list_under(labels: set[str], parts: list[str], flats: list[str], taken: set[int],
                marker: re.Pattern[str]) -> tuple[int, list[str]] | None:
    """The one paragraph of ``flats`` that is one of ``labels`` alone, none of ``taken``, followed by a list whose
    every line ``marker`` matches: its place and the list's items, each read flat. None where there is no such one
    list, or more than one."""
    at = [n for n, f in enumerate(flats[:-1]) if f in labels and n not in taken and n + 1 not in taken]
    if len(at) != 1:
        return None
    lines = [line for line in parts[at[0] + 1].split("\n") if line.strip()]
    items = [_LIST_ITEM.match(line) for line in lines if marker.match(line)]
    if not items or len(items) != len(lines) or not all(items):
        return None
    return at[0], [flat(m.group("text")) for m in items]


def unshow(record: Record, target: str, kind: str, edited: list[str] | None = None, original: str | None = None,
           owner: str | None = None) -> Record:
    """``record``, mapped home from ``target`` with its fields restored, without the paragraphs
    :func:`show` wrote into its body for those fields: an edited body comes home once, not twice.

    A labelled line :func:`show` wrote for a one-line field (``**Why:** zero dependencies``) that was
    edited in the target gives the field its new text (its name is added to ``edited``), instead of
    coming home as a paragraph beside the field's old text. ``original``, the body the record had at
    home (``owner``): a how_to_apply its ``**How to apply:**`` section said follows that section's edit.
    The ``**Relations:**`` lines ``target`` wrote for the edges it has no key for are left: whether they are the
    body's own text depends on home's keys, and they are found by their links named home
    (:func:`relations_back`, once the body's links are).

    The ``**Text outside the format:**`` block, no longer in the body as :func:`show` wrote it (edited, or taken
    out), takes the record's ``unread`` with it: the lines are the target's text now, or gone, and the way home
    must not put them back from the format patch (``restore``, :func:`memconv.converters.format_patch.without`)."""
    if record.opaque:
        return record
    if not record.body.strip():
        if record.unread and "unread" not in native_text(target, kind):
            record.unread = None  # its block went with the rest of the body
        return record
    sections = sections_wanted(record, target, kind, original if isinstance(original, str) else record.body)
    shown = native_text(target, kind) - sections
    if isinstance(original, str) and edited is not None and "body" in shown and "how_to_apply" not in shown:
        _how_to_apply_follows(record, original, owner, edited)
    # What the target showed was written of the record in the target's kind: by the kind's transform (a
    # decision's why, a **Why:** paragraph of a memfmt episode) and by show (a lesson's how_to_apply, a memspec
    # procedure's **Steps:** block); not of the record in its home kind (a Claude lesson's own **How to apply:**).
    probe = copy.copy(record)
    probe.body = ""
    # tags kept as written ([2024, true]) were shown as text
    probe = tags_as_text(transforms.to_kind(probe, kind, target))
    written = [p for p in PARAGRAPH_BREAK.split(probe.body.strip()) if p.strip()]
    probe.body = ""
    blocks = [[flat(p)] for p in written] \
        + [[flat(p) for p in PARAGRAPH_BREAK.split(b.strip())]
           for b in _blocks(probe, shown, None, sections,
                            hidden_keys(probe, target, kind),
                            not holds_anchors(target))]
    rendered = {" ".join(b) for b in blocks}
    # A block of more than one paragraph (``**Steps:**``, a blank line, its list) is taken out where it is whole.
    runs = [b for b in blocks if len(b) > 1]
    parts = [p for p in PARAGRAPH_BREAK.split(record.body.strip()) if p.strip()]
    flats = [flat(p) for p in parts]
    users = _own_paragraphs(flats, original)
    for name, label, said, parse in _labelled(record, target, kind):
        if name in shown:
            continue
        prefix = f"**{label}:** "
        if f"{prefix}{said}" not in rendered:
            continue  # not a line the target was given (a Claude lesson's how_to_apply is its body's own)
        if f"{prefix}{said}" in flats:
            continue  # shown as it was: not edited
        # Its line edited in the target (the one line with its label that show did not write): the edit wins.
        lines = [f for n, f in enumerate(flats)
                 if f.startswith(prefix) and f not in rendered and f[len(prefix):].strip() and n not in users]
        emptied = [f for n, f in enumerate(flats) if f == prefix.rstrip() and f not in rendered and n not in users]
        if not lines and len(emptied) == 1:
            # Its label left alone, the value taken out: the field is emptied (before, the bare label came home as
            # a paragraph, or an entity's fact, and the old value stayed).
            _emptied(record, name, edited)
            rendered.add(emptied[0])
            continue
        new = parse(lines[0][len(prefix):]) if len(lines) == 1 else None
        if new is None:
            continue  # none, two, or one that says no value of the field's type: a paragraph of the body
        _set_labelled(record, name, new)
        rendered.add(lines[0])
        if edited is not None and name not in edited:
            edited.append(name)
    if edited is not None and "description" not in shown and "body" in shown and isinstance(original, str):
        _lead_edited(record, flats, rendered, original, edited)
    if "tags" not in shown:
        # The target's one place for the tags is this line: edited there, the edit wins.
        for n, part in enumerate(parts):
            line = _TAGS_LINE.fullmatch(flat(part))
            if line is not None and flat(part) not in rendered and n not in users:
                record.tags = [t.strip() for t in line.group(1).split(",") if t.strip()] or None
                record.extra = {k: v for k, v in record.extra.items() if k != "tags"}
                rendered.add(flat(part))
                if edited is not None and "tags" not in edited:
                    edited.append("tags")
    if not rendered:
        return record
    dropped = {n for n, f in enumerate(flats) if f in rendered and n not in users}
    intact = set()  # the labels of the blocks found as show wrote them
    for run in runs:
        at = _run_at(flats, run)
        if at is not None:
            dropped.update(range(at, at + len(run)))
            intact.add(run[0])
    if edited is not None and owner is not None and "steps" not in shown and record.steps \
            and "steps" in native_text(owner, record.kind):
        _steps_back(record, target, kind, parts, flats, dropped, users, edited)
    if edited is not None and owner is not None and "preconditions" not in shown and record.preconditions \
            and "preconditions" in native_text(owner, record.kind):
        _preconditions_back(record, parts, flats, dropped, users, edited)
    if edited is not None and owner is not None and "evolution" not in shown and record.evolution \
            and "evolution" in native_text(owner, record.kind):
        _evolution_back(record, parts, flats, dropped, users, edited)
    apart = False
    if record.unread and "unread" not in shown and not _unread_intact(record, shown, flats, intact):
        record.unread = None
        apart = _unread_apart(parts, flats, dropped)
    kept = [p for n, p in enumerate(parts) if n not in dropped]
    if len(kept) != len(parts) or apart:
        record.body = rejoined(kept, record.body)  # its ending kept
    return record
