"""Kind conversion: how a record of one kind is said in another kind's words.

Each transform is a pair. ``forward`` puts what a record means into the
fields the target kind has (a lesson's how-to into a procedure's steps, a
decision's why into an episode's context); ``backward`` reads those fields
back. The pair is exact for what the forward side writes, so a record that
goes out and comes back carries nothing for these fields; for a record
native to the target, ``backward`` is simply the most natural reading. What a
pair cannot reproduce is carried by the caller (``carry.py``), never lost.
:func:`to_kind` picks the pair; :func:`fill_required` fills what the target's tools
require. Writing a field the target's kind does not show into its readable
text is :mod:`.readable`.
"""

from __future__ import annotations

import copy
import difflib
import re
from typing import Any, Callable

from ..markdown import blocks, code_lines, code_span
from ..model import Record, Step
from ..text import flat, has_line_break
from ..text import on_one_line as one_line_text
from .mapping import (KEPT_WHOLE_TYPES, NO_EMPTY_LISTS, ONE_LINE_FIELDS, REQUIRED_TEXT, kept_whole_kind, native_text,
                      type_word)

#: A blank-line-separated block of a body: ``First paragraph.\n\nSecond.``
PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
#: The labelled paragraphs a decision's why and rejected become in an episode's context:
#: ``**Why:** zero dependencies``.
_WHY = "**Why:** "
_REJECTED = "**Rejected:** "

Transform = Callable[[Record], Record]


def paragraphs(body: str) -> list[str]:
    """The body's paragraphs, each collapsed to one line (memfmt bullets are one line)."""
    return [flat(p) for p in PARAGRAPH_BREAK.split(body.strip()) if p.strip()]


#: A list item's marker on its first line: ``- ``, ``* ``, ``+ ``, ``1. ``, ``1) ``.
_ITEM_MARKER = re.compile(r"[ \t]*(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]+|$)")


def facts_of(body: str) -> list[str]:
    """The body as facts, one line each (memfmt's bullets), block by block as markdown reads it: a
    paragraph is one fact, each item of a list is one (without its marker), and each line of a code
    block is one, as inline code. Collapsed by blank lines alone, a list was one fact of dashes and a
    fence one line of code run together (docs/conversion.md, "Facts from a body's blocks")."""
    lines = body.split("\n")
    return [fact for block in blocks(body) for fact in _facts_of_block(lines, *block)]


def _facts_of_block(lines: list[str], kind: str, start: int, end: int, code: str | None) -> list[str]:
    """The facts one block of a body (``lines``) gives (:func:`facts_of`)."""
    if kind == "code":
        return [code_span(line.strip()) for line in (code or "").split("\n") if line.strip()]
    text = lines[start] if end == start + 1 else "\n".join(lines[start:end])
    if kind == "item":
        # An item with nothing after its marker (a body that is "-", a fact "-" written as a paragraph)
        # keeps its marker as its text: dropped, the character was nowhere in the target.
        text = (text[2:] if text[:2] == "- " else _ITEM_MARKER.sub("", text, count=1)).strip() or text
    text = flat(text)
    return [text] if text else []


def paragraphs_back(body: str, before: str) -> str:
    """``body``, a record's body read home from an episode's context (a paragraph a line), with each paragraph that
    is one of ``before`` (the body it had at home) so read written as it was: a fence's lines in their fence, a
    list's items on their lines, a line :func:`as_context` moved in from the margin back at it.

    An edit of one line of a decision's context in memfmt made the whole body come home so read: a code block the
    user did not touch came home run together on one line, no longer code (docs/conversion.md, "An episode's
    context keeps its lines elsewhere"). A paragraph that is no paragraph of ``before`` stays as read."""
    kept = [p.rstrip() for p in PARAGRAPH_BREAK.split(before.strip("\n")) if p.strip()]  # an indented block's margin
    shown = [p.rstrip() for p in PARAGRAPH_BREAK.split(as_context(before)) if p.strip()]
    was = {flat(s): p for s, p in zip(shown, kept)} if len(shown) == len(kept) else {}
    was.update((flat(p), p) for p in kept)
    parts = [p.strip() for p in PARAGRAPH_BREAK.split(body.strip()) if p.strip()]
    if not parts or not any(was.get(part, part) != part for part in parts):
        return body
    back = join_paragraphs([was.get(part, part) for part in parts])
    return back if body.endswith("\n") else back.rstrip("\n")


def blocks_back(body: str, before: str) -> str:
    """``body``, a record's body read home from an entity's facts (a paragraph each), with each run of paragraphs
    that are the facts of whole blocks of ``before`` (the body it had at home), in their order, written as those
    blocks were: a list's items under their markers, a fence's lines in their fence, the blank lines between them
    as they were.

    An edit of one fact in memfmt made the whole body come home a paragraph a fact: a list's markers and a code
    block's fence were lost with it (docs/conversion.md, "Facts from a body's blocks"). A paragraph that is no fact
    of ``before``, or one of part of a code block, stays a paragraph. An item of a list edited there (one fact for
    one, on one line) is written on its line, under its marker: its list stays one list."""
    lines = before.split("\n")
    facts: list[str] = []
    owner: list[int] = []  # the block each fact came from
    spans: list[tuple[int, int, int, int]] = []  # each block: its first line, its end line, its first and end fact
    found = blocks(before)
    for block in found:
        said = _facts_of_block(lines, *block)
        spans.append((block[1], block[2], len(facts), len(facts) + len(said)))
        owner += [len(spans) - 1] * len(said)
        facts += said
    parts = [p.strip() for p in PARAGRAPH_BREAK.split(body.strip()) if p.strip()]
    if not facts or parts == facts and join_paragraphs(parts) == before:
        return body
    ops = difflib.SequenceMatcher(None, parts, facts, autojunk=False).get_opcodes()
    as_read = _blocks_back(parts, ops, owner, spans, lines, body, {})
    # Each item edited one for one: its line, its marker kept, the new text after it (``written``: line → text).
    written: dict[int, str] = {}
    for tag, i1, i2, j1, j2 in ops:
        if tag == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2)):
                kind, start, end, _ = found[owner[j]]
                marker = _ITEM_MARKER.match(lines[start]) if kind == "item" and end == start + 1 else None
                if marker is not None and lines[start][marker.end():].strip() and "\n" not in parts[i]:
                    written[start] = lines[start][:marker.end()] + parts[i]
    if not written:
        return as_read
    kept = _blocks_back(parts, ops, owner, spans, lines, body, written)
    # Read as facts again, it must say what the body read home says: else (a text that reads as another block under
    # a marker) the item is a paragraph, as read.
    return kept if facts_of(kept) == facts_of(as_read) else as_read


def _blocks_back(parts: list[str], ops: list[tuple[str, int, int, int, int]], owner: list[int],
                 spans: list[tuple[int, int, int, int]], lines: list[str], body: str, written: dict[int, str]) -> str:
    """:func:`blocks_back`'s body (``ops``: the opcodes that turn the paragraphs ``parts`` into the facts), the items
    of ``written`` (their first line → their line now) taken as their block's facts: an edited item is then written
    in its list."""
    out: list[str] = []
    for tag, i1, i2, j1, j2 in _aligned(ops, owner, spans, written):
        if tag != "equal":
            out += parts[i1:i2]
            continue
        run: list[int] = []  # the whole blocks of ``before`` being written, one after another
        n = j1
        while n < j2:
            _, _, first_fact, end_fact = spans[owner[n]]
            if n == first_fact and end_fact <= j2:
                run.append(owner[n])
                n = end_fact
                continue
            if run:
                out.append(_lines_of(lines, spans[run[0]][0], spans[run[-1]][1], written))
                run = []
            out.append(parts[i1 + n - j1])  # part of a code block: a paragraph, as read
            n += 1
        if run:
            out.append(_lines_of(lines, spans[run[0]][0], spans[run[-1]][1], written))
    return rejoined(out, body)


def _lines_of(lines: list[str], start: int, end: int, written: dict[int, str]) -> str:
    """``lines[start:end]`` as one text, each line of ``written`` as it says."""
    return "\n".join(written.get(n, lines[n]) for n in range(start, end)).strip("\n")


def _aligned(ops: list[tuple[str, int, int, int, int]], owner: list[int], spans: list[tuple[int, int, int, int]],
             written: dict[int, str]) -> list[tuple[str, int, int, int, int]]:
    """``ops``, an item of ``written`` edited one for one counted equal, and runs of equal ones made one."""
    out: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "replace" and i2 - i1 == j2 - j1 and all(spans[owner[j]][0] in written for j in range(j1, j2)):
            tag = "equal"
        if tag == "equal" and out and out[-1][0] == "equal":
            out[-1] = ("equal", out[-1][1], i2, out[-1][3], j2)
            continue
        out.append((tag, i1, i2, j1, j2))
    return out


def facts_read_alike(body: str) -> bool:
    """Whether ``body`` gives the same facts read block by block (:func:`facts_of`: a record converted into an
    entity) as paragraph by paragraph (:func:`paragraphs`: a record read back home, :func:`to_entity`). A
    paragraph that is a list item (``- b``), a fence's line or a marker alone reads two ways."""
    return facts_of(body) == paragraphs(body)


def join_paragraphs(parts: list[str]) -> str:
    """Paragraphs as a body: blank-line separated, one newline at the end ("" for none)."""
    return "\n\n".join(parts) + "\n" if parts else ""


def rejoined(parts: list[str], like: str) -> str:
    """``parts`` as a body (:func:`join_paragraphs`) that ends as ``like``, the body they were taken from, does: with
    its line break or without. An episode's context has none at its end (:func:`to_episode`); given one, it differed
    from what memfmt's reader gives back, and the body was counted dropped."""
    body = join_paragraphs([p.strip() for p in parts])
    return body if like.endswith("\n") else body.rstrip("\n")


# --- into the structured kinds (entity, episode, procedure: memfmt's) ----------------


def to_entity(r: Record, by_blocks: bool = True) -> Record:
    """A fact-like record as an entity: its description and the blocks of its body become facts.

    ``by_blocks`` False: its paragraphs, each one fact, as a record read back home is read (:func:`backward`):
    the digests carried by every conversion so far were made of that reading, and an edit is told by them.
    """
    if r.facts is None:
        facts = ([r.description] if r.description else []) + (facts_of(r.body) if by_blocks else paragraphs(r.body))
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
        r.body = join_paragraphs(facts)
    r.facts = None
    return r


#: The lines an episode's context may not start with, in memfmt's reading: ``## `` ends the context
#: (all after it went to a section memfmt has no field for), ``# `` is taken for the title and
#: ``**Outcome**`` for the outcome, and both are skipped.
_NOT_CONTEXT = ("# ", "## ", "**Outcome**")


def as_context(body: str) -> str:
    """``body`` as an episode's context, line for line: memfmt keeps the lines of its context as written, so
    a list, a fence and a paragraph's line breaks stay what they are. A line memfmt would not read as context
    is changed as little as shows: escaped in text (``\\## Context``: Markdown shows the ``#``s as written,
    memfmt reads the line as context), one space in from the margin in code (``␠# a comment``), where an
    escape would be shown as part of the code. Each paragraph was collapsed to one line before (docs/conversion.md,
    "Facts from a body's blocks")."""
    lines = body.strip().split("\n")
    code = code_lines("\n".join(lines)) if any(line.startswith(_NOT_CONTEXT) for line in lines) else ()
    return "\n".join((" " if n in code else "\\") + line if line.startswith(_NOT_CONTEXT) else line
                     for n, line in enumerate(lines))


def to_episode(r: Record) -> Record:
    """A decision (or anything that happened) as an episode: the choice is its outcome, the why its context."""
    if r.kind == "episode":
        return r
    extra = []
    if r.why:
        extra.append(_WHY + flat(r.why))
        r.why = None
    if r.rejected:
        extra.append(_REJECTED + flat(r.rejected))
        r.rejected = None
    r.body = join_paragraphs(([as_context(r.body)] if r.body.strip() else []) + extra).strip()
    if r.outcome is None and r.description:
        r.outcome, r.description = r.description, None
    if r.happened is None and r.date:
        r.happened, r.date = r.date, None
    return r


def from_episode(r: Record, kind: str, keep_lines: bool = False, own: tuple[str, ...] = ()) -> Record:
    """An episode as a fact-like record: labelled why/rejected paragraphs back to a decision's fields.

    ``keep_lines``: its context's paragraphs keep their lines (a list stays a list: an episode converted into
    another dialect). Without it each is collapsed to one line, as an episode read home is read: the digests that
    tell an edit, in every store converted so far, were made of that reading (as :func:`to_entity`'s).
    ``own``: the fields (``why``, ``rejected``) whose labelled paragraphs are the body's own text (:func:`own_labels`):
    they stay paragraphs of the body, where they are, with their labels."""
    parts = [p.strip() for p in PARAGRAPH_BREAK.split(r.body.strip()) if p.strip()] if keep_lines \
        else paragraphs(r.body)
    if kind == "decision":
        # The last labelled paragraphs: what to_episode wrote after the context, or, where text was added after them
        # (memfmt's own tools add to an episode's context there), before that text, which stays the body's. Before,
        # only labels at the very end were read, and an edit there lost the why and the rejected at home.
        # A label left with no text after it (``**Rejected:**``, its value taken out in the target) empties its field
        # (docs/conversion.md, "An emptied labelled line empties its field").
        end = len(parts)
        while end and not _decision_label(parts[end - 1]):
            end -= 1
        after = parts[end:]
        del parts[end:]
        kept = []  # the body's own labelled paragraphs, last first
        while parts and _decision_label(parts[-1]):
            part = parts.pop()
            last = flat(part) + " "
            if ("why" if last.startswith(_WHY) else "rejected") in own:
                kept.append(part)
            elif last.startswith(_WHY):
                r.why = last[len(_WHY):].strip() or None
            else:
                r.rejected = last[len(_REJECTED):].strip() or None
        parts += kept[::-1] + after
        if r.date is None and r.happened:
            r.date, r.happened = r.happened, None
    if r.description is None and r.outcome:
        r.description, r.outcome = r.outcome, None
    r.body = join_paragraphs(parts) if r.body.strip() else ""
    return r


def own_labels(record: Record, carried: dict[str, Any]) -> tuple[str, ...]:
    """The fields :func:`from_episode` read of ``record`` (a decision read home from an episode) that home had none
    of (``carried``: a carry's fields, which say so): :func:`to_episode` wrote no paragraph for them, so the labelled
    paragraphs they were read of are the body's own text (``**Why:** cheaper.``, written by its person). Before, such a
    paragraph, once another line of the episode was edited, came home as the body's first paragraph, unlabelled."""
    if record.kind != "decision":
        return ()
    return tuple(name for name in ("why", "rejected") if name in carried and carried[name] in (None, "")
                 and isinstance(value := getattr(record, name), str) and value.strip())


def _decision_label(part: str) -> bool:
    """Whether a paragraph is a decision's why or rejected, as :func:`to_episode` labels them."""
    return (flat(part) + " ").startswith((_WHY, _REJECTED))


#: A numbered item on a line of its own: ``2. Run the tests``.
_NUMBERED_ITEM = re.compile(r"^\s*\d{1,9}[.)]\s+(?P<text>\S.*)$")


def numbered_items(text: str) -> list[str] | None:
    """The items of ``text`` when it is a numbered list of two or more items, one a line (else None)."""
    items = [_NUMBERED_ITEM.match(line) for line in text.split("\n") if line.strip()]
    return [flat(m.group("text")) for m in items] if len(items) > 1 and all(items) else None


#: What stands between a step's action and its detail on its line (memfmt's own, and :func:`readable.show`'s).
STEP_DASH = " — "


#: The closing bracket of a step line's tail memfmt reads as the step's own (``[canary → prod]``: what it needs and
#: gives; ``(1✓/0✗)``: its runs), and the character reference :func:`step_of` writes it as in the step's text
#: (``&#93;``; one ``amp;`` more for each a person wrote: ``&amp;#93;`` is a written ``&#93;``).
_REFERENCE_OF = {"]": "#93;", ")": "#41;"}
_BRACKET_OF = {code: bracket for bracket, code in _REFERENCE_OF.items()}
_REFERENCE = re.compile(r"&(?P<amps>(?:amp;)*)(?P<code>#93;|#41;)")
#: A step's runs up to their closing bracket: ``(1✓/0✗``.
_RUNS_OPEN = re.compile(r"\(\d+✓/\d+✗")


def _tail(text: str) -> tuple[int, int, str] | None:
    """Where the closing bracket of a tail memfmt reads as a step's own begins in ``text`` (the last of a step
    line's action and detail), how many ``amp;`` its reference has (-1: the bracket itself) and the reference;
    None when its end is text to memfmt. Linear: each tail can open at one place only (as memfmt's syntax.py)."""
    if text.endswith(("]", ")")):
        at, amps, code = len(text) - 1, -1, _REFERENCE_OF[text[-1]]
    elif text.endswith(";") and (found := _REFERENCE.fullmatch(text, max(text.rfind("&"), 0))):
        at, amps, code = found.start(), len(found.group("amps")) // 4, found.group("code")
    else:
        return None
    head = text[:at]
    if code == "#93;":  # what it needs and gives: ``[``, a ``→``, and no ``]`` to the end
        opens = head.find("[", head.rfind("]") + 1)
        said = opens >= 0 and "→" in head[opens:]
    else:  # its runs
        opens = head.rfind("(")
        said = opens >= 0 and _RUNS_OPEN.fullmatch(head, opens) is not None
    return (at, amps, code) if said else None


def _as_text(text: str) -> str:
    """``text``, the last of a step's line, with a tail memfmt would take for the step's own written as text to
    memfmt: its closing bracket as a character reference (Markdown shows the bracket)."""
    tail = _tail(text)
    if tail is None:
        return text
    at, amps, code = tail
    return f"{text[:at]}&{'amp;' * (amps + 1)}{code}"


def step_line(step: Step) -> str:
    """The line a step says, as the person wrote it (:func:`step_of` reads it back): its action, `` — `` and its
    detail, with the closing bracket :func:`step_of` wrote as a character reference the bracket again."""
    text = flat(step.action)
    if step.detail:
        text = f"{text}{STEP_DASH}{flat(step.detail)}" if text else flat(step.detail)
    return _as_written(text)


def _as_written(text: str) -> str:
    """:func:`_as_text` undone: the closing bracket a character reference at the end of ``text`` stands for."""
    tail = _tail(text) if text.endswith(";") else None
    if tail is None or tail[1] < 0:
        return text
    at, amps, code = tail
    return text[:at] + (_BRACKET_OF[code] if amps == 0 else f"&{'amp;' * (amps - 1)}{code}")


def steps_said(steps: list[Step]) -> str:
    """The how_to_apply a procedure's steps say as a lesson's: their actions in order, ``; `` between, an action
    that ends its line (a step with no detail) as :func:`step_line` says it."""
    return "; ".join(s.action if s.detail else _as_written(s.action) for s in steps)


def step_of(line: str) -> Step:
    """The step a line of one step says: its action, and the detail after the first dash (as memfmt reads its own
    lines: ``Check the canary — look at p99`` is the action ``Check the canary``, the detail ``look at p99``).
    The line's end is text: a tail memfmt would read as what the step needs and gives (``[canary → prod]``)
    or as its runs (``(1✓/0✗)``) has its closing bracket as a character reference (``[canary → prod&#93;``),
    which :func:`step_line` reads back."""
    action, dash, detail = line.partition(STEP_DASH)
    if not action.strip() or not (dash and detail.strip()):
        return Step(action=_as_text(line.strip()))
    return Step(action=action.strip(), detail=_as_text(detail.strip()))


def to_procedure(r: Record, by_lines: bool = True) -> Record:
    """A lesson as a procedure: trigger is its **When**, how_to_apply its one step (written as a numbered
    list, a Claude ``**How to apply:**`` section of ``1.``, ``2.``, …: a step each), each the step memfmt reads
    of its line (:func:`step_of`), so that the way home works out the steps memfmt gave. ``by_lines`` False (a
    record read home from a target): each item its action alone, as the digests every carry holds were made."""
    if r.steps is None and r.how_to_apply:
        items = numbered_items(r.how_to_apply) or [flat(r.how_to_apply)]
        r.steps = [step_of(item) if by_lines else Step(action=item) for item in items]
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
        r.how_to_apply = steps_said(r.steps)
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


def heading_is_title(r: Record) -> bool:
    """Whether :func:`from_opaque` takes ``r``'s first line, a ``# Title`` line, as its title (the target then
    shows that line as the record's name, not in its text)."""
    first = r.body.lstrip("\n").partition("\n")[0]
    return r.opaque and first.startswith("# ") and r.title is not None and first[2:].strip() == r.title.strip()


def heading_back(r: Record, original_body: object) -> None:
    """Undo :func:`from_opaque`'s heading on an opaque record whose body or title was edited in the target:
    the ``# Title`` line ``original_body`` (the carried body) began with, written above the edited body again,
    with the record's title (the name the target showed, which may have been edited there). The body
    unedited (``r.body`` is ``original_body``), only that line takes the title."""
    if not isinstance(original_body, str):
        return
    first, newline, rest = original_body.lstrip("\n").partition("\n")
    if not first.startswith("# "):
        return
    title = (r.title or "").strip()
    line = first if not title or first[2:].strip() == title else f"# {title}"
    if r.body == original_body:
        r.body = original_body[:len(original_body) - len(original_body.lstrip("\n"))] + line + newline + rest
        return
    if r.body.lstrip("\n").startswith("# "):
        return
    between = newline + rest[:len(rest) - len(rest.lstrip("\n"))]  # the blank lines after it, as they were
    body = r.body.lstrip("\n")
    r.body = f"{line}{between}{body}" if body.strip() else f"{line}\n"


def to_kind(record: Record, kind: str, dialect: str | None = None, *, home: bool = False,
            own: tuple[str, ...] = ()) -> Record:
    """``record`` (a copy the caller owns) said in ``kind``'s fields.

    Into a structured kind from another kind: ``to_*``. Out of a structured kind into
    another: ``from_*``. Otherwise the fields already mean the same: relabel.
    ``dialect`` is where the record is going, when known: what its records can say.
    ``home``: a record read from a target, going home (:func:`backward`); ``own``: as :func:`from_episode`'s.
    """
    from_kind, to = record.kind, kind
    if from_kind == to:
        return record
    if from_kind == "opaque" and to != "opaque":
        record = from_opaque(record)
        from_kind = record.kind
        if from_kind == to:
            return record
    if to in _TO and from_kind not in _STRUCTURED_KINDS:
        record = to_entity(record, by_blocks=not home) if to == "entity" \
            else to_procedure(record, by_lines=not home) if to == "procedure" else _TO[to](record)
    elif from_kind in _STRUCTURED_KINDS and to not in _STRUCTURED_KINDS:
        if from_kind == "entity":
            record = from_entity(record, describe=dialect is None or "description" in native_text(dialect, to))
        elif from_kind == "episode":
            record = from_episode(record, to, keep_lines=not home, own=own)
        else:
            record = from_procedure(record)
    record.kind = to
    return record


def backward(record: Record, from_kind: str, kind: str, dialect: str | None = None,
             own: tuple[str, ...] = ()) -> Record:
    """A record of ``from_kind`` (read from a target) read as ``kind`` of ``dialect``: the same conversion. ``own``:
    as :func:`from_episode`'s."""
    record = copy.copy(record)
    record.kind = from_kind
    return to_kind(record, kind, dialect, home=True, own=own)


#: ``**How to apply:**`` at the start of a paragraph, the lesson convention of memoir and claude.
_HOW_TO_APPLY = re.compile(r"^\*\*How to apply:?\*\*:?\s*(.+)$", re.M)
_LINE_LIMIT = 160


#: The Markdown that opens a line, never the words after it: a heading's ``#``s, a quote's ``>``, a
#: bullet, a step's ``1.`` or ``1)``, each followed by a space (``#123``, ``2FA``, ``*.pyc`` are words).
_LINE_MARKUP = re.compile(r"^(?:(?:#{1,6}|[-*+]|\d{1,9}[.)])(?:\s+|$)|>\s*)+")


def filled_description(text: str) -> str | None:
    """The description :func:`fill_required` gives a record that has none, of its body (``text``): its first block
    of words as markdown reads it, on one line. A list is one block: its items, each without its marker, one after
    the other (``a; b``, or ``a. b.`` where an item ends a sentence). A code block gives none. (Taken by blank
    lines, a procedure's steps were one description with the first marker dropped and the others kept:
    ``Check the logs 2. Restart``.)"""
    lines = text.split("\n")
    items: list[str] = []
    for kind, start, end, code in blocks(text):
        if kind == "item":
            said = _facts_of_block(lines, kind, start, end, code)
            item = _LINE_MARKUP.sub("", said[0], count=1).strip() if said else ""
            if any(ch.isalnum() for ch in item):
                items.append(item)
            continue
        if items:
            break  # the list's end
        if kind == "code":
            continue
        line = _LINE_MARKUP.sub("", flat("\n".join(lines[start:end])), count=1).strip()
        if any(ch.isalnum() for ch in line):  # a rule (``---``) or a bare marker says nothing
            return _within_limit(line)
    if not items:
        return None
    return _within_limit("".join(item + ("" if n == len(items) - 1 else " " if item[-1] in _ENDS_SENTENCE else "; ")
                                 for n, item in enumerate(items)))


#: What ends a list item that reads as a sentence: the next is written after a space, not a ``;``.
_ENDS_SENTENCE = frozenset(".!?:;…")


def _within_limit(line: str) -> str:
    return line if len(line) <= _LINE_LIMIT else line[: _LINE_LIMIT - 1].rstrip() + "…"


def _on_one_line(value):
    """``value`` with its texts on one line: the same object when none has a line break (the common case)."""
    if isinstance(value, str):
        return one_line_text(value)
    if isinstance(value, list):
        if any(isinstance(v, str) and has_line_break(v) for v in value):
            return [one_line_text(v) if isinstance(v, str) else v for v in value]
    elif isinstance(value, dict):
        if any(isinstance(v, str) and has_line_break(v) for v in value.values()):
            return {k: one_line_text(v) if isinstance(v, str) else v for k, v in value.items()}
    return value


def on_one_line(record: Record, target: str) -> Record:
    """The fields ``target`` holds on one line (its ``ONE_LINE_FIELDS``: memoir's frontmatter, the ``# ``
    title line of memspec and memfmt), each text with a line break written on one line, its whitespace
    runs made one space.

    memoir-cli reads frontmatter without escapes: a description of two lines, written ``"a\\nb"``,
    showed a literal ``\\n``, and the spec wants a description on one line. Every word stays shown;
    the read-back differs from the source, so the exact text is carried. A record kept whole keeps
    its frontmatter as it was.
    """
    if record.opaque:
        return record
    for name in ONE_LINE_FIELDS.get(target, ()):
        value = getattr(record, name)
        if value:
            fixed = _on_one_line(value)
            if fixed is not value:
                setattr(record, name, fixed)
    return record


def no_empty_lists(record: Record, target: str) -> Record:
    """The list fields ``target`` cannot say empty (its ``NO_EMPTY_LISTS``: memoir's tags and aliases) made none
    where empty: memspec's ``tags: []``, written into memoir, was the text ``[]`` to memoir-cli, and a tag once its
    own list edit wrote the tags it read again. The read-back differs from the source, so the empty list is carried.
    A record kept whole keeps its frontmatter as it was."""
    if not record.opaque:
        for name in NO_EMPTY_LISTS.get(target, ()):
            if getattr(record, name) == []:
                setattr(record, name, None)
    return record


def tags_as_text(record: Record) -> Record:
    """A record whose tags its reader kept as written (``tags: [2024, deploy, true]``: not all text, so in
    ``extra``) gets them as text (``2024``, ``deploy``, ``true``): another dialect's tags are text, and
    kept aside they reached no tool of the target (memspec showed ``tags: []``). The caller carries the
    exact list for the way home."""
    tags = record.extra.get("tags") if record.tags is None and record.extra else None
    if not isinstance(tags, list) or not tags or not all(isinstance(t, (str, int, float)) for t in tags):
        return record
    record.tags = [("true" if t else "false") if isinstance(t, bool) else str(t) for t in tags]
    record.extra = {k: v for k, v in record.extra.items() if k != "tags"}
    return record


def fill_required(record: Record, target: str) -> Record:
    """What the target's own tools expect of every record, filled from what the record says.

    The target declares it (``REQUIRED_TEXT``: memoir and claude want every entry to have a
    name and a description, and a lesson a trigger; memoir a how_to_apply too). What is filled
    here is carried as absent by the caller, so it goes away again on the way home. A record
    kept whole whose type word the target does not know (``KEPT_WHOLE_TYPES``) is written with
    the target's catch-all word (``FILE_TYPE_WORD_ELSE``: a Claude Code ``project`` memory).
    """
    known = KEPT_WHOLE_TYPES[target]
    if known is not None and record.opaque and isinstance(record.extra.get("type"), str) \
            and record.extra["type"] not in known:
        record.extra = {**record.extra, "type": type_word(target, "opaque")}
    required = REQUIRED_TEXT[target]
    if record.opaque or not required:
        return record
    wanted = required.get("*", ()) + required.get(record.kind, ())
    if "title" in wanted and not (record.title or "").strip():
        record.title = record.link.strip() or record.kind  # a name is required, and may not be blank
    if "description" in wanted and not (record.description or "").strip():
        record.description = filled_description(record.body) or record.title
    if "trigger" in wanted and record.trigger is None:
        record.trigger = record.description or record.title
    if "how_to_apply" in wanted and record.how_to_apply is None:
        m = _HOW_TO_APPLY.search(record.body)
        record.how_to_apply = (flat(m.group(1)) if m else None) or record.description \
            or record.title
    return record
