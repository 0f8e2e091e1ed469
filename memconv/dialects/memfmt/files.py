"""memfmt files ↔ records: entities, episodes, procedures and the profile.

Reading follows the format as memfmt's library reads it, so a record here
means what ``memfmt.load`` says the file means (the interop tests hold the two
together). Where the library guesses (``version: two`` read as 1), this reader
refuses instead, and the file is quarantined with the reason.

Rendering is the other half: a record → the exact text memfmt's serialiser
writes for it, derived heading and all. A file memfmt regenerates as a whole
has no "source formatting" worth patching, so an edited record is rendered
anew; an unedited one is never rendered (the dialect writes its bytes back).
"""

from __future__ import annotations

from typing import Any

from ...errors import ReadError
from ...markdown import relation_edge
from ...model import Knowledge, Record, Revision, Step
from . import syntax as sx
from .syntax import DASH, MemfmtFrontmatter

#: Kinds of memory file and the frontmatter each is responsible for, in written order.
KNOWN_KEYS = {
    "entity": ("entity_type", "id"),
    "episode": ("id", "happened", "outcome", "valence", "importance", "participants"),
    "procedure": ("id", "version", "success_count", "fail_count", "last_failure", "last_failed",
                  "last_succeeded"),
    "profile": ("generated",),
    "index": ("generated",),
}
#: What memfmt reads for a procedure's key its file leaves out (its library's ``parse.py``: ``version`` 1, a count 0),
#: by model field: so what :func:`render_procedure` writes for a field unset. The reader keeps such a field unset
#: (docs/memfmt.md); to memfmt the two are one value, and a record home again is compared so (UNSET_READS_AS).
UNSET_PROCEDURE = {"version": 1, "successes": 0, "failures": 0}
#: Known keys whose value is an integer for that kind; anything else there is refused.
_INT_FIELDS = {"episode": ("importance",), "procedure": ("version", "success_count", "fail_count")}
#: Known keys whose value is a list.
_LIST_FIELDS = {"episode": ("participants",)}


# --- reading ---------------------------------------------------------------------------

def check_fields(kind: str, fm: MemfmtFrontmatter, path: str) -> None:
    """Refuse values memfmt would silently misread or drop. Raises :class:`ReadError`."""
    values = fm.values
    for key in _INT_FIELDS.get(kind, ()):
        value = values.get(key)
        if key in values and value != [] and type(value) is not int:
            shown = value if not isinstance(value, list) else f"a list ({', '.join(value)})"
            read_as = "1" if key == "version" else "0" if kind == "procedure" else "nothing (it drops it)"
            raise ReadError(path, f"{kind} {key} is {shown!r}, not a whole number", line=fm.lines.get(key),
                            hint=f"memfmt would read it as {read_as}; write the number it should be, "
                                 f"e.g. '{key}: 2'")
    for key in KNOWN_KEYS[kind]:
        if key not in values or key in _INT_FIELDS.get(kind, ()):
            continue
        value = values[key]
        if key in _LIST_FIELDS.get(kind, ()):
            if not isinstance(value, list):
                raise ReadError(path, f"{kind} {key} is {value!r}, not a list", line=fm.lines.get(key),
                                hint=f"memfmt would drop it; write it as '{key}:' then '  - {value}' lines")
        elif isinstance(value, list) and value:
            raise ReadError(path, f"{kind} {key} is a list ({', '.join(value)}), not one value",
                            line=fm.lines.get(key), hint=f"write it as '{key}: value' on one line")


def _text(values: dict[str, Any], key: str) -> str | None:
    value = values.get(key)
    return value if isinstance(value, str) and value else None


def owned(kind: str) -> frozenset[str]:
    """The frontmatter keys a kind's file owns: its known keys and both type keys."""
    return frozenset(KNOWN_KEYS[kind]) | {sx.TYPE_KEY, sx.LEGACY_TYPE_KEY}


def extra(values: dict[str, Any], kind: str) -> dict[str, Any]:
    """Frontmatter the kind does not own, in source order."""
    mine = owned(kind)
    return {k: v for k, v in values.items() if k not in mine}


def _writable(key: str, kind: str) -> bool:
    """Whether an unknown key of a record may be written in a ``kind`` file and read back as itself: not a key the
    kind owns (which the reader takes as the file's own: from another dialect, ``memfmt_type`` or ``id: [1]``
    made a file of another kind, or one refused), not one that ends the frontmatter (``---``, a line break).
    What is not written is the converter's to carry. A record read from memfmt has none of them."""
    return key not in owned(kind) and not key.startswith("---") and "\n" not in key


def title(body: str) -> str:
    match = sx.H1.search(body)
    return match.group(1).strip() if match else ""


def sections(body: str) -> dict[str, list[str]]:
    """Body lines by ``## `` heading; before the first one, under ``""``. Repeated headings merge."""
    out: dict[str, list[str]] = {"": []}
    current = ""
    for line in body.split("\n"):
        if line.startswith("## "):
            current = line[3:].strip()
            out.setdefault(current, [])
        else:
            out[current].append(line)
    return out


def _bullets(lines: list[str]) -> list[str]:
    return [line[2:].strip() for line in lines if line.startswith("- ")]


def _after_dash(rest: str) -> str | None:
    return rest[len(DASH):].strip() if rest.startswith(DASH) else None


def read_entity(values: dict[str, Any], body: str) -> Record:
    parts = sections(body)
    name = title(body)
    record = Record(kind="entity", link=name, title=name, id=_text(values, "id"),
                    category=_text(values, "entity_type"), extra=extra(values, "entity"))
    if "Facts" in parts:
        record.facts = _bullets(parts["Facts"])
    record.edges = [edge for edge in map(relation_edge, parts.get("Relations", ())) if edge is not None]
    if "Knowledge" in parts:
        record.knowledge = _knowledge(parts["Knowledge"])
    return record


def _knowledge(lines: list[str]) -> list[Knowledge]:
    found = []
    i = 0
    while i < len(lines):
        match = sx.KNOWLEDGE.match(lines[i])
        i += 1
        if match is None:
            continue
        artifact = None
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and lines[j].strip() == "```":  # the fenced block belongs to the entry above
            end = j + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            artifact = "\n".join(lines[j + 1:end])
            i = end + 1
        found.append(Knowledge(kind=match.group("kind") or "note", title=match.group("title").strip(),
                               content=_after_dash(match.group("rest")) or "", artifact=artifact))
    return found


def read_episode(values: dict[str, Any], body: str, link: str) -> Record:
    context: list[str] = []
    seen_title = False
    for line in sections(body)[""]:
        if line.startswith("# "):
            seen_title = True
        elif line.startswith("**Outcome**"):
            continue  # a rendering of the frontmatter field, not a second source of truth
        elif seen_title:
            context.append(line)
    participants = values.get("participants")
    return Record(kind="episode", link=link, title=title(body), body="\n".join(context).strip(),
                  id=_text(values, "id"), happened=_text(values, "happened"), outcome=_text(values, "outcome"),
                  valence=_text(values, "valence"),
                  importance=values.get("importance") if type(values.get("importance")) is int else None,
                  participants=list(participants) if participants else None,
                  extra=extra(values, "episode"))


def read_procedure(values: dict[str, Any], body: str, link: str) -> Record:
    parts = sections(body)
    record = Record(kind="procedure", link=link, title=sx.without_reliability(title(body)).strip(),
                    id=_text(values, "id"), extra=extra(values, "procedure"),
                    last_failure=_text(values, "last_failure"), last_failed=_text(values, "last_failed"),
                    last_succeeded=_text(values, "last_succeeded"))
    for key, attr in (("version", "version"), ("success_count", "successes"), ("fail_count", "failures")):
        if type(values.get(key)) is int:
            setattr(record, attr, values[key])
    in_preconditions = False
    for line in parts[""]:
        if line.startswith("**When**"):
            rest = line[len("**When**"):]
            when = _after_dash(rest)
            record.trigger = (when if when is not None else rest.strip()) or None
        elif line.startswith("**Preconditions**"):
            in_preconditions = True
            if record.preconditions is None:
                record.preconditions = []
        elif line.startswith("**Last failure**") or line.startswith("**Last success**"):
            in_preconditions = False  # renderings of the frontmatter, never read back
        elif in_preconditions:
            if line.startswith("- "):
                record.preconditions.append(line[2:].strip())
            elif line.strip():
                in_preconditions = False
    if "Steps" in parts:
        record.steps = [_step(m.group("text")) for m in map(sx.STEP.match, parts["Steps"]) if m]
    if "Evolution" in parts:
        record.evolution = [_revision(m) for m in map(sx.REVISION.match, parts["Evolution"]) if m]
    return record


def _step(text: str) -> Step:
    # The record comes off first, then the slots: both are anchored to the end,
    # so a dash or a bracket inside free text is never mistaken for either.
    record = sx.step_record(text)
    if record:
        text = text[:record.start()]
    slots = sx.step_slots(text)
    if slots:
        text = text[:slots.start()]
    action, dash, detail = text.partition(DASH)

    def names(part: str) -> list[str]:
        return [n.strip() for n in part.split(",") if n.strip()]

    return Step(action=action.strip(), detail=detail.strip() if dash else None,
                needs=names(slots.group("needs")) if slots else None,
                gives=names(slots.group("gives")) if slots else None,
                successes=int(record.group("successes")) if record else None,
                failures=int(record.group("failures")) if record else None)


def _revision(match) -> Revision:
    date = counts = None
    for part in (match.group("meta") or "").split(","):
        part = part.strip()
        if not part:
            continue
        found = sx.RECORD.match(part)
        if found:
            counts = (int(found.group("successes")), int(found.group("failures")))
        else:
            date = part
    return Revision(from_version=int(match.group("before")), to_version=int(match.group("after")),
                    reason=match.group("reason").strip(), date=date,
                    successes=counts[0] if counts else None, failures=counts[1] if counts else None)


def read_profile(values: dict[str, Any], body: str) -> Record:
    # memfmt takes everything after the first "# Profile" (wherever it is), stripped.
    text = body.split("# Profile", 1)[-1].strip()
    return Record(kind="profile", link="profile", title="Profile", body=text,
                  updated=_text(values, "generated"), extra=extra(values, "profile"))


# --- rendering -------------------------------------------------------------------------

def render(record: Record, stems: dict[str, str], generated: str | None = None) -> str:
    """The text memfmt's serialiser writes for ``record`` (``stems``: entity name → file stem)."""
    if record.kind == "entity":
        return render_entity(record, stems)
    if record.kind == "episode":
        return render_episode(record)
    if record.kind == "procedure":
        return render_procedure(record)
    if record.kind == "profile":
        return render_profile(record, generated)
    raise ValueError(f"memfmt has no file for a {record.kind!r} record")


def _finish(lines: list[str]) -> str:
    """``"\\n".join(lines).rstrip() + "\\n"``, joined once: the last lines trimmed first (a 50 MB entity's text was
    joined, then copied to end it with a line break; docs/performance.md, "(seventeenth)"). ``lines`` is used up."""
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return "\n"
    lines[-1] = lines[-1].rstrip()
    lines.append("")
    return "\n".join(lines)


def _front(kind: str, known: dict[str, Any], extra_keys: dict[str, Any]) -> str:
    pairs: dict[str, Any] = {sx.TYPE_KEY: kind, **known}
    for key, value in extra_keys.items():
        if _writable(key, kind):
            pairs[key] = value  # memfmt merges extra last
    return sx.render_frontmatter(pairs)


def render_entity(record: Record, stems: dict[str, str]) -> str:
    lines = [_front("entity", {"entity_type": record.category, "id": record.id}, record.extra), "",
             f"# {record.title if record.title is not None else record.link}"]
    facts = [f"- {f}" for f in map(sx.one_line, record.facts or ()) if f]  # each a bullet at once: one list
    if facts:
        lines += ["", "## Facts", ""]
        lines += facts
    relations = [e for e in record.edges if e.target]
    if relations:
        lines += ["", "## Relations", ""]
        for edge in relations:
            arrow = "←" if edge.direction == "in" else "→"
            note = f"{DASH}{sx.one_line(edge.note)}" if edge.note else ""
            lines.append(f"- {sx.one_line(edge.type) or 'related to'} {arrow} {sx.wikilink(edge.target, stems)}{note}")
    knowledge = [k for k in record.knowledge or () if k.content or k.title]
    if knowledge:
        lines += ["", "## Knowledge", ""]
        for k in knowledge:
            lines.append(f"**[{k.kind or 'note'}] {sx.one_line(k.title)}**{DASH}{sx.one_line(k.content)}".rstrip(" —"))
            if k.artifact:
                lines += ["", "```", str(k.artifact).rstrip(), "```"]
    return _finish(lines)


def render_episode(record: Record) -> str:
    known = {"id": record.id, "happened": record.happened, "outcome": record.outcome,
             "valence": record.valence, "importance": record.importance,
             "participants": list(record.participants or [])}
    lines = [_front("episode", known, record.extra), "", f"# {record.title or 'untitled'}"]
    if record.body:
        lines += ["", record.body.strip()]
    if record.outcome:
        lines += ["", f"**Outcome**{DASH}{sx.one_line(record.outcome)}"]
    return _finish(lines)


def meant(record: Record, name: str) -> int:
    """A procedure's ``version``, ``successes`` or ``failures`` as memfmt means it: unwritten is
    :data:`UNSET_PROCEDURE`'s."""
    value = getattr(record, name)
    return UNSET_PROCEDURE[name] if value is None else value


def version_of(record: Record) -> int:
    """A procedure's version as memfmt means it: unwritten is 1."""
    return meant(record, "version")


def heading_suffix(record: Record) -> str:
    """The derived ``(v3 · 86% reliable)`` of a procedure heading, from its record and lineage."""
    prior = sx.lineage_prior([(r.successes, r.failures) for r in record.evolution or ()])
    trust = sx.reliability(meant(record, "successes"), meant(record, "failures"), prior)
    return f"(v{version_of(record)} · {trust})"


def render_procedure(record: Record) -> str:
    last_failure = sx.one_line(record.last_failure)
    known = {"id": record.id, "version": version_of(record), "success_count": meant(record, "successes"),
             "fail_count": meant(record, "failures"), "last_failure": last_failure or None,
             "last_failed": record.last_failed, "last_succeeded": record.last_succeeded}
    lines = [_front("procedure", known, record.extra), "", f"# {record.title or ''} {heading_suffix(record)}"]
    if record.trigger:
        lines += ["", f"**When**{DASH}{sx.one_line(record.trigger)}"]
    preconditions = [p for p in map(sx.one_line, record.preconditions or ()) if p]
    if preconditions:
        lines += ["", "**Preconditions**", ""] + [f"- {p}" for p in preconditions]
    if last_failure:
        when = f"{record.last_failed}: " if record.last_failed else ""
        lines += ["", f"**Last failure**{DASH}{when}{last_failure}"]
    if record.last_succeeded:
        lines += ["", f"**Last success**{DASH}{record.last_succeeded}"]
    if record.steps:
        lines += ["", "## Steps", ""]
        for number, step in enumerate(record.steps, 1):
            lines.append(f"{number}. {_step_text(step)}")
    if record.evolution:
        lines += ["", "## Evolution", ""]
        for rev in record.evolution:
            meta = [rev.date] if rev.date else []
            if rev.successes is not None or rev.failures is not None:
                meta.append(f"{rev.successes or 0}✓/{rev.failures or 0}✗")
            stamp = f" ({', '.join(meta)})" if meta else ""
            lines.append(f"- v{rev.from_version} → v{rev.to_version}{stamp}: {sx.one_line(rev.reason)}")
    return _finish(lines)


def _step_text(step: Step) -> str:
    text = sx.one_line(step.action)
    if step.detail:
        detail = sx.one_line(step.detail)
        text = f"{text}{DASH}{detail}" if text else detail
    if step.needs or step.gives:
        slots = f"{', '.join(step.needs or ())} → {', '.join(step.gives or ())}"
        text = f"{text} [{slots.strip()}]"
    if step.successes is not None or step.failures is not None:
        text = f"{text} ({step.successes or 0}✓/{step.failures or 0}✗)"
    return text


def render_profile(record: Record, generated: str | None) -> str:
    """profile.md; its ``generated:`` is when the file is written (memfmt's rule), not ``record.updated``."""
    date = generated
    return "\n".join([_front("profile", {"generated": date}, record.extra), "", "# Profile", "",
                      record.body.strip()]) + "\n"


def render_index(counts: dict[str, int], entity_stems: list[str], generated: str | None,
                 extra_keys: dict[str, Any] | None = None) -> str:
    """``MEMORY.md``: what is in the store. Regenerated, never authored."""
    lines = [_front("index", {"generated": generated}, extra_keys or {}), "", "# Memory", ""]
    if not any(counts.values()):
        lines += ["This memory is empty — nothing has been remembered yet.", "",
                  "Facts, events and the workflows an agent learns will appear here", "as files you own."]
        return "\n".join(lines) + "\n"
    lines += [f"- {counts['entity']} entities", f"- {counts['episode']} episodes",
              f"- {counts['procedure']} procedures"]
    if entity_stems:
        lines += ["", "## Entities", ""] + [f"- [[{s}]]" for s in sorted(entity_stems)]
    return _finish(lines)
