"""Native renderings: how a record of one kind is said in another kind's words.

Each transform is a pair. ``forward`` puts what a record means into the
fields the target kind has (a lesson's how-to into a procedure's steps, a
decision's why into an episode's context); ``backward`` reads those fields
back. The pair is exact for what the forward side writes, so a record that
goes out and comes back carries nothing for these fields; for a record
native to the target, ``backward`` is simply the most natural reading. What a
pair cannot reproduce is carried by the caller (``carry.py``), never lost.
"""

from __future__ import annotations

import copy
import re
from typing import Callable

from ..model import Record, Step
from .mapping import DEFAULT_TEXT_FIELDS, EDGE_TYPES, KEPT_WHOLE_TYPES, REQUIRED_TEXT, TEXT_FIELDS, \
    kept_whole_kind, type_word

#: A blank-line-separated block of a body: ``First paragraph.\n\nSecond.``
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
#: The labelled paragraphs a decision's why and rejected become in an episode's context:
#: ``**Why:** zero dependencies``.
_WHY = "**Why:** "
_REJECTED = "**Rejected:** "

Transform = Callable[[Record], Record]


def paragraphs(body: str) -> list[str]:
    """The body's paragraphs, each collapsed to one line (memfmt bullets are one line)."""
    return [" ".join(p.split()) for p in _PARAGRAPH_BREAK.split(body.strip()) if p.strip()]


def _join(parts: list[str]) -> str:
    return "\n\n".join(parts) + "\n" if parts else ""


# --- into the structured kinds (entity, episode, procedure: memfmt's) ----------------


def to_entity(r: Record) -> Record:
    """A fact-like record as an entity: its description and paragraphs become facts."""
    if r.facts is None:
        facts = ([r.description] if r.description else []) + paragraphs(r.body)
        r.facts = facts or None
        r.description = None
        r.body = ""
    return r


def from_entity(r: Record, describe: bool = True) -> Record:
    """An entity as a fact-like record: the first fact describes it, the rest are its body.

    Without ``describe`` (a dialect whose records have no description: memspec) every fact
    is a paragraph of the body, so that an edit of the body there keeps the first fact.
    """
    facts = r.facts or []
    if describe and r.description is None and facts:
        r.description = facts[0]
        facts = facts[1:]
    if not r.body.strip():
        r.body = _join(facts)
    r.facts = None
    return r


def to_episode(r: Record) -> Record:
    """A decision (or anything that happened) as an episode: the choice is its outcome, the why its context."""
    if r.kind == "episode":
        return r
    extra = []
    if r.why:
        extra.append(_WHY + " ".join(r.why.split()))
        r.why = None
    if r.rejected:
        extra.append(_REJECTED + " ".join(r.rejected.split()))
        r.rejected = None
    r.body = _join(paragraphs(r.body) + extra).strip()
    if r.outcome is None and r.description:
        r.outcome, r.description = r.description, None
    if r.happened is None and r.date:
        r.happened, r.date = r.date, None
    return r


def from_episode(r: Record, kind: str) -> Record:
    """An episode read home: labelled why/rejected paragraphs back to a decision's fields."""
    parts = paragraphs(r.body)
    if kind == "decision":
        while parts and (parts[-1].startswith(_WHY) or parts[-1].startswith(_REJECTED)):
            last = parts.pop()
            if last.startswith(_WHY):
                r.why = last[len(_WHY):]
            else:
                r.rejected = last[len(_REJECTED):]
        if r.date is None and r.happened:
            r.date, r.happened = r.happened, None
    if r.description is None and r.outcome:
        r.description, r.outcome = r.outcome, None
    r.body = _join(parts) if r.body.strip() else ""
    return r


def to_procedure(r: Record) -> Record:
    """A lesson as a procedure: trigger is its **When**, how_to_apply its one step."""
    if r.steps is None and r.how_to_apply:
        r.steps = [Step(action=" ".join(r.how_to_apply.split()))]
        r.how_to_apply = None
    return r


def from_procedure(r: Record) -> Record:
    """A procedure as a lesson: its steps, in order, are how to apply it.

    A procedure nobody has run yet says ``v1``, ``0✓/0✗``; a lesson that never
    had a record should not gain one, so those defaults are not kept.
    """
    if r.version == 1 and not r.successes and not r.failures and not r.evolution:
        r.version = r.successes = r.failures = None
    if r.how_to_apply is None and r.steps:
        r.how_to_apply = "; ".join(s.action for s in r.steps)
        if len(r.steps) == 1 and r.steps[0].detail is None and r.steps[0].successes is None \
                and r.steps[0].needs is None and r.steps[0].gives is None:
            r.steps = None
    if r.trigger is None and r.kind == "lesson":
        r.trigger = r.title
    return r


_TO: dict[str, Transform] = {"entity": to_entity, "episode": to_episode, "procedure": to_procedure}
#: The model kinds whose text is structured (facts; an outcome; steps), not an entry's prose.
_STRUCTURED_KINDS = ("entity", "episode", "procedure")


def legacy_kind(record: Record) -> str:
    """What an opaque record (a legacy type, a bare file) is read as in a dialect that has no opaque
    entries: the kind its legacy type word means (what the built-in dialects declare in
    ``KEPT_WHOLE_READ_AS``: Claude Code's ``feedback`` is a lesson), a fact by default."""
    word = record.extra.get("type")
    meta = record.extra.get("metadata")
    if not isinstance(word, str) and isinstance(meta, dict):
        word = meta.get("type")
    return kept_whole_kind(word) if isinstance(word, str) else "fact"


def from_opaque(r: Record) -> Record:
    """An opaque record as a record of its :func:`legacy_kind`: its name, description and body are its text.

    Its frontmatter stays behind (the caller carries it); a leading ``# Title`` that only
    repeats the name is not written twice.
    """
    r.kind = legacy_kind(r)
    r.opaque = False
    aliases = r.extra.get("aliases")
    if r.aliases is None and isinstance(aliases, list) and aliases and all(isinstance(a, str) for a in aliases):
        r.aliases = list(aliases)
    r.extra = {}
    body = r.body.lstrip("\n")
    first, _, rest = body.partition("\n")
    if first.startswith("# "):
        heading = first[2:].strip()
        if r.title is None or heading == (r.title or "").strip():
            r.title = r.title or heading
            r.body = rest.lstrip("\n")
    return r


def convert(record: Record, to_kind: str, dialect: str | None = None) -> Record:
    """``record`` (a copy the caller owns) said in ``to_kind``'s fields.

    Into a structured kind from another kind: ``to_*``. Out of a structured kind into
    another: ``from_*``. Otherwise the fields already mean the same: relabel.
    ``dialect`` is where the record is going, when known: what its records can say.
    """
    from_kind = record.kind
    if from_kind == to_kind:
        return record
    if from_kind == "opaque" and to_kind != "opaque":
        record = from_opaque(record)
        from_kind = record.kind
        if from_kind == to_kind:
            return record
    if to_kind in _TO and from_kind not in _STRUCTURED_KINDS:
        record = _TO[to_kind](record)
    elif from_kind in _STRUCTURED_KINDS and to_kind not in _STRUCTURED_KINDS:
        if from_kind == "entity":
            record = from_entity(record, describe=dialect is None or "description" in native_text(dialect, to_kind))
        elif from_kind == "episode":
            record = from_episode(record, to_kind)
        else:
            record = from_procedure(record)
    record.kind = to_kind
    return record


def backward(record: Record, from_kind: str, to_kind: str, dialect: str | None = None) -> Record:
    """A record of ``from_kind`` (read from a target) read as ``to_kind`` of ``dialect``: the same conversion."""
    record = copy.copy(record)
    record.kind = from_kind
    return convert(record, to_kind, dialect)


def unshow(record: Record, target: str, kind: str) -> Record:
    """``record``, mapped home from ``target`` with its fields restored, without the paragraphs
    :func:`show` wrote into its body for those fields: an edited body comes home once, not twice."""
    if record.opaque or not record.body.strip():
        return record
    shown = native_text(target, kind)
    if "body" not in shown:
        return record
    probe = copy.copy(record)
    probe.body = ""
    rendered = {_flat(b) for b in _blocks(probe, shown)}
    if not rendered:
        return record
    parts = [p for p in _PARAGRAPH_BREAK.split(record.body.strip()) if p.strip()]
    kept = [p for p in parts if _flat(p) not in rendered]
    if len(kept) != len(parts):
        record.body = _join([p.strip() for p in kept])
    return record


#: ``**How to apply:**`` at the start of a paragraph, the lesson convention of memoir and claude.
_HOW_TO_APPLY = re.compile(r"^\*\*How to apply:?\*\*:?\s*(.+)$", re.M)
_LINE_LIMIT = 160


def _first_line(text: str) -> str | None:
    for paragraph in paragraphs(text):
        line = paragraph.lstrip("#>-*0123456789. ").strip()
        if line:
            return line if len(line) <= _LINE_LIMIT else line[: _LINE_LIMIT - 1].rstrip() + "…"
    return None


def finish(record: Record, target: str) -> Record:
    """What the target's own tools expect of every record, filled from what the record says.

    The target declares it (``REQUIRED_TEXT``: memoir and claude want every entry to have a
    name and a description, and a lesson a trigger; memoir a how_to_apply too). What is filled
    here is carried as absent by the caller, so it goes away again on the way home. A record
    kept whole whose type word the target does not know (``KEPT_WHOLE_TYPES``) is written with
    the target's catch-all word (``FILE_TYPE_WORD_ELSE``: a Claude Code ``project`` memory).
    """
    known = KEPT_WHOLE_TYPES.get(target)
    if known is not None and record.opaque and isinstance(record.extra.get("type"), str) \
            and record.extra["type"] not in known:
        record.extra = {**record.extra, "type": type_word(target, "opaque")}
    required = REQUIRED_TEXT.get(target, {})
    if record.opaque or not required:
        return record
    wanted = required.get("*", ()) + required.get(record.kind, ())
    if "title" in wanted and not (record.title or "").strip():
        record.title = record.link.strip() or record.kind  # a name is required, and may not be blank
    if "description" in wanted and not (record.description or "").strip():
        record.description = _first_line(record.body) or record.title
    if "trigger" in wanted and record.trigger is None:
        record.trigger = record.description or record.title
    if "how_to_apply" in wanted and record.how_to_apply is None:
        m = _HOW_TO_APPLY.search(record.body)
        record.how_to_apply = (" ".join(m.group(1).split()) if m else None) or record.description \
            or record.title
    return record


# --- native first: every piece of text where the target's user reads it -------------------

#: The text fields each target's files show, per kind (the kind the record has in the target),
#: are what the target declares (``TEXT_FIELDS``, ``DEFAULT_TEXT_FIELDS``; docs/plugins.md). A
#: field not listed is not written by the target's writer: :func:`show` moves its text into the
#: kind's readable home, so that the carry is never its only copy.

#: The labels a moved one-line field is written with: ``**Why:** zero dependencies``.
_LABELS = (("why", "Why"), ("rejected", "Rejected"), ("trigger", "When"), ("how_to_apply", "How to apply"),
           ("outcome", "Outcome"), ("last_failure", "Last failure"))
#: A numbered or bulleted line of a body, one step of a procedure written as prose: ``2. Tag with git``.
_LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+(?P<text>\S.*)$")


def native_text(target: str, kind: str) -> frozenset[str]:
    """The text fields a ``kind`` record shows in ``target``'s files (what ``target`` declares)."""
    return TEXT_FIELDS[target].get(kind, DEFAULT_TEXT_FIELDS[target])


def _flat(text: str) -> str:
    return " ".join(text.split())


def _step_line(step: Step) -> str:
    text = _flat(step.action)
    if step.detail:
        text = f"{text} — {_flat(step.detail)}" if text else _flat(step.detail)
    return text


def _blocks(record: Record, shown: frozenset[str], edges: frozenset[str] | None = None) -> list[str]:
    """The record's text that ``shown`` leaves out, as markdown blocks, in reading order.

    ``edges`` are the edge types the target writes natively (None: all); the others are
    written as relation lines, ``- works at → [[Mengram]] — since 2024``.
    """
    blocks: list[str] = []
    if "description" not in shown and record.description and record.description.strip():
        blocks.append(record.description.strip())
    if "body" not in shown and record.body.strip():
        blocks.extend(p.strip() for p in _PARAGRAPH_BREAK.split(record.body.strip()) if p.strip())
    for name, label in _LABELS:
        value = getattr(record, name)
        if name not in shown and isinstance(value, str) and value.strip():
            blocks.append(f"**{label}:** {_flat(value)}")
    if "aliases" not in shown and record.aliases:
        blocks.append("**Also known as:** " + ", ".join(_flat(a) for a in record.aliases if a.strip()))
    if "facts" not in shown and record.facts:
        blocks.append("\n".join(f"- {_flat(f)}" for f in record.facts if f.strip()))
    if "preconditions" not in shown and record.preconditions:
        blocks.append("**Preconditions:**\n\n" + "\n".join(f"- {_flat(p)}" for p in record.preconditions))
    if "steps" not in shown and record.steps:
        blocks.append("**Steps:**\n\n" + "\n".join(f"{n}. {_step_line(s)}" for n, s in enumerate(record.steps, 1)))
    if "knowledge" not in shown and record.knowledge:
        lines = []
        for k in record.knowledge:
            content = f" — {_flat(k.content)}" if k.content else ""
            lines.append(f"- **[{k.kind or 'note'}] {_flat(k.title)}**{content}")
            if k.artifact:
                lines += ["", "```", str(k.artifact).rstrip(), "```", ""]
        blocks.append("\n".join(lines).rstrip())
    relations = [e for e in record.edges
                 if edges is not None and (e.type not in edges or e.direction != "out") and e.target]
    if relations:
        blocks.append("**Relations:**\n\n" + "\n".join(
            f"- {_flat(e.type)} {'←' if e.direction == 'in' else '→'} [[{e.target}]]"
            + (f" — {_flat(e.note)}" if e.note else "") for e in relations))
    if "evolution" not in shown and record.evolution:
        blocks.append("**Evolution:**\n\n" + "\n".join(
            f"- v{r.from_version} → v{r.to_version}" + (f" ({r.date})" if r.date else "") + f": {_flat(r.reason)}"
            for r in record.evolution))
    return [b for b in blocks if b.strip()]


def _clear(record: Record, shown: frozenset[str]) -> None:
    for name in ("aliases", "last_failure", "description", "why", "rejected", "trigger", "how_to_apply", "outcome",
                 "facts", "preconditions", "steps", "knowledge", "evolution"):
        if name not in shown:
            setattr(record, name, None)
    if "body" not in shown:
        record.body = ""


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
    shown = native_text(target, record.kind)
    kept = {"body": [record.body], "facts": record.facts or [], "preconditions": record.preconditions or [],
            "steps": [_step_line(s) for s in record.steps or ()], "description": [record.description or ""],
            "trigger": [record.trigger or ""], "how_to_apply": [record.how_to_apply or ""]}
    home = " ".join(_flat(t) for name, texts in kept.items() if name in shown for t in texts if t)
    blocks = [b for b in _blocks(record, shown, EDGE_TYPES.get(target)) if _flat(b) not in home
              and _flat(re.sub(r"^\*\*[^*]+:\*\* ", "", b)) not in home]
    if "body" not in shown and {"steps", "preconditions"} <= shown:
        # No body, but steps and preconditions (a memfmt procedure): list items are steps.
        steps, rest = [], []
        for block in blocks:
            items = [_LIST_ITEM.match(line) for line in block.split("\n") if line.strip()]
            if record.steps is None and items and all(items):
                steps += [Step(action=m.group("text").strip()) for m in items]
            else:
                rest += [_flat(line) for line in block.split("\n") if line.strip()]
        _clear(record, shown)
        record.steps = (record.steps or []) + steps or None
        record.preconditions = (record.preconditions or []) + rest or None
        return record
    if "body" not in shown and "facts" in shown:
        # No body, but a list of facts (a memfmt entity): every line is a fact.
        _clear(record, shown)
        facts = [_flat(line.removeprefix("- ")) for b in blocks for line in b.split("\n") if line.strip()]
        record.facts = (record.facts or []) + facts or None
        return record
    lead = bool(blocks) and "description" not in shown and blocks[0] == (record.description or "").strip()
    body = record.body
    _clear(record, shown)
    if blocks and "body" in shown:
        parts = ([blocks.pop(0)] if lead else []) + ([body.strip()] if body.strip() else []) + blocks
        record.body = _join(parts)
    return record
