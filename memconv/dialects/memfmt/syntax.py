"""memfmt's on-disk grammar: its frontmatter subset, its line patterns, its slugs.

memfmt is defined by what its library reads and writes (FORMATS.md §4), not
by YAML or CommonMark. Its frontmatter is a hand-rolled subset (``key: scalar``
and ``key:`` + ``  - item``) that PyYAML reads differently in places (``yes``,
``1.0``, ``#``), so this module reads and writes that subset itself, by the
rules the format states, and the interop tests hold it to the library.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ...text import flat

#: Frontmatter key that marks a file as memfmt's, and the key Mengram wrote before.
TYPE_KEY = "memfmt_type"
LEGACY_TYPE_KEY = "mengram_type"

#: Separates a value from its note: ``works at → [[Acme]] — since 2019``.
DASH = " — "

#: Frontmatter values the format holds as integers, whatever file they are in.
INT_KEYS = frozenset({"importance", "version", "success_count", "fail_count"})

#: The frontmatter block: ``---\nkey: value\n---\n`` at the very start of a file.
FRONTMATTER = re.compile(r"\A---\n(.*?)\n---\n?", re.S)
#: A list item under the key above it: ``  - Ali``.
LIST_ITEM_PREFIX = "  - "
#: The first level-one heading anywhere in a body: ``# Ali``.
H1 = re.compile(r"^# (.*)$", re.M)
#: The derived suffix of a procedure heading: ``# deploy (v3 · 86% reliable)``. Use :func:`without_reliability`.
RELIABILITY_SUFFIX = re.compile(r"\s*\(v\d+ · [^)]*\)\s*$")
_RELIABILITY_OPEN = re.compile(r"\(v\d+ · ")
#: A knowledge entry: ``**[snippet] deploy command** — how the service ships``.
KNOWLEDGE = re.compile(r"^\*\*\[(?P<kind>[^\]]*)\] (?P<title>.*?)\*\*(?P<rest>.*)$")
#: A numbered step: ``3. verify /health — expect 200 [deploy →] (9✓/3✗)``.
STEP = re.compile(r"^\d+\. (?P<text>.*)$")
#: A step's record at the end of its line: `` (9✓/3✗)``. Use :func:`step_record`.
STEP_RECORD = re.compile(r"\s*\((?P<successes>\d+)✓/(?P<failures>\d+)✗\)$")
#: A step's slots, before the record: `` [commit → deploy]``. Use :func:`step_slots`.
STEP_SLOTS = re.compile(r"\s*\[(?P<needs>[^\]]*)→(?P<gives>[^\]]*)\]$")
#: An Evolution line: ``- v1 → v2 (2026-06-02, 4✓/2✗): added the health check``.
REVISION = re.compile(r"^- v(?P<before>\d+) → v(?P<after>\d+)(?: \((?P<meta>[^)]*)\))?: (?P<reason>.*)$")
#: A record inside an Evolution parenthetical: ``4✓/2✗``.
RECORD = re.compile(r"^(?P<successes>\d+)✓/(?P<failures>\d+)✗$")

#: Characters no filename may hold on some filesystem: ``cloud/api.py`` → ``cloud-api.py``.
UNSAFE_IN_FILENAME = re.compile(r'[\\/:*?"<>|\x00-\x1f]')
#: Any run of whitespace, collapsed to one space in one-line values: ``a \n b`` → ``a b``.
WHITESPACE = re.compile(r"\s+")
#: Longest stem memfmt gives a file; the full name stays in the ``# H1``.
MAX_STEM = 80
#: First characters that make a scalar need quotes: ``"- x"``, ``"#tag"``.
_QUOTE_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`")


# The three patterns above end at the end of the line, and a plain search for
# them tries every start: quadratic on a long run of spaces or brackets. Each
# can only open at one place, found from the end; matching there alone gives
# the same answer as the search, in linear time.

def _back_over_space(text: str, i: int) -> int:
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i


def step_record(text: str) -> re.Match[str] | None:
    """``STEP_RECORD.search(text)``: only the last ``(`` can open it."""
    i = text.rfind("(")
    return STEP_RECORD.match(text, _back_over_space(text, i)) if i >= 0 else None


def step_slots(text: str) -> re.Match[str] | None:
    """``STEP_SLOTS.search(text)``: only the first ``[`` after the last inner ``]`` can open it."""
    i = text.find("[", text.rfind("]", 0, len(text) - 1) + 1)
    return STEP_SLOTS.match(text, _back_over_space(text, i)) if i >= 0 else None


def without_reliability(title: str) -> str:
    """``RELIABILITY_SUFFIX.sub("", title)``: only the first ``(vN · `` after the last inner ``)`` can open it."""
    close = title.rfind(")")
    if close < 0:
        return title
    opening = _RELIABILITY_OPEN.search(title, title.rfind(")", 0, close) + 1, close)
    if opening is None:
        return title
    m = RELIABILITY_SUFFIX.match(title, _back_over_space(title, opening.start()))
    return title if m is None else title[:m.start()]


# --- frontmatter -----------------------------------------------------------------

@dataclass
class MemfmtFrontmatter:
    """A memfmt frontmatter block read the way memfmt reads it (its own line subset, not YAML).

    Not :class:`memconv.frontmatter.Frontmatter`, the YAML block the other dialects keep formatting of.
    """

    values: dict[str, Any]
    #: Key → 1-based line of the file it was last set on (for errors).
    lines: dict[str, int]
    #: Whether the key's value came from list items / an empty ``key:`` line.
    listed: set[str]


def unquote(text: str) -> str:
    """A scalar as memfmt reads it: ``"a \\"b\\""`` → ``a "b"``; anything else as written."""
    text = text.strip()
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        inner = text[1:-1]
        # memfmt undoes \" before \\ — kept in that order so we read what it reads.
        return inner.replace('\\"', '"').replace("\\\\", "\\")
    return text


def split(text: str) -> tuple[MemfmtFrontmatter | None, str]:
    """``text`` → (frontmatter or None, body). Never fails: memfmt's subset has no syntax errors."""
    match = FRONTMATTER.match(text)
    if match is None:
        return None, text
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    listed: set[str] = set()
    key: str | None = None
    for number, line in enumerate(match.group(1).split("\n"), start=2):
        if key is not None and line.startswith(LIST_ITEM_PREFIX):
            if not isinstance(values.get(key), list):
                values[key] = []
            values[key].append(unquote(line[len(LIST_ITEM_PREFIX):]))
            listed.add(key)
            continue
        name, colon, value = line.partition(":")
        if not colon:
            continue  # not a key line: memfmt skips it
        key = name.strip()
        lines[key] = number
        value = value.strip()
        if not value:
            values[key] = []  # a list header; items may follow
            listed.add(key)
            continue
        listed.discard(key)
        value = unquote(value)
        if key in INT_KEYS:
            try:
                value = int(value)
            except ValueError:
                pass
        values[key] = value
    return MemfmtFrontmatter(values, lines, listed), text[match.end():]


def file_type(values: dict[str, Any]) -> tuple[Any, str | None]:
    """(the file's memfmt type, the key it came from), or (None, None) for a file that is not memfmt's."""
    if values.get(TYPE_KEY):
        return values[TYPE_KEY], TYPE_KEY
    if values.get(LEGACY_TYPE_KEY):
        return values[LEGACY_TYPE_KEY], LEGACY_TYPE_KEY
    return None, None


def scalar(value: Any) -> str:
    """One scalar as memfmt writes it: quoted with ``"`` only where it would be misread."""
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (dict, list)):
        value = json.dumps(value, ensure_ascii=False)  # not in memfmt's subset: kept as text
    text = str(value)
    if "\n" in text or "\r" in text:
        # memfmt reads frontmatter line by line (and a lone CR is a line end to its read_text): its own
        # serialiser writes such a value as a quoted scalar broken over lines, of which its parser keeps
        # the first line, quote and all. On one line, every word is shown; the carry holds the exact text.
        text = one_line(text)
    if text == "" or text != text.strip() or text[0] in _QUOTE_FIRST or ":" in text:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def render_frontmatter(pairs: dict[str, Any]) -> str:
    """The ``---`` block for ``pairs`` in order; empty values are left out, as memfmt does."""
    out = ["---"]
    for key, value in pairs.items():
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, list):
            out.append(f"{key}:")
            out.extend(f"  - {scalar(item)}" for item in value)
        else:
            out.append(f"{key}: {scalar(value)}")
    out.append("---")
    return "\n".join(out)


# --- one-line values, names and trust --------------------------------------------------

def one_line(text: str | None) -> str:
    """A value as a bullet holds it: stripped, whitespace runs collapsed to a space."""
    return flat(text or "")  # (the same whitespace: ``\s`` is what ``str.split`` splits on; four times as fast)


def file_stem(name: str | None) -> str:
    """The file stem memfmt gives ``name``: unsafe characters → ``-``, trimmed, ≤ 80 chars.

    memfmt's own rule (its library calls it a slug), which its files must follow; not
    memconv's one slug (:func:`memconv.text.slug`), which names files memconv chooses.

    Never empty, never ``.``/``..``, never holds a path separator: leading and
    trailing dots go, and ``/`` and ``\\`` are unsafe characters.
    """
    stem = WHITESPACE.sub(" ", UNSAFE_IN_FILENAME.sub("-", name or "")).strip(" .")
    if len(stem) > MAX_STEM:
        stem = stem[:MAX_STEM].rstrip(" .-")
    return stem or "unnamed"


def numbered(stem: str, taken: set[str]) -> str:
    """``stem``, or ``stem (2)``, ``stem (3)``… — the first not in ``taken``; then taken.

    ``taken`` holds folded names (:func:`memconv.dialects.fold`): two names that
    differ only in case or Unicode normalisation are one file on macOS and Windows.
    """
    from .. import fold

    candidate, n = stem, 2
    folded = fold(candidate)
    while folded in taken:
        candidate = f"{stem} ({n})"
        folded = fold(candidate)
        n += 1
    taken.add(folded)
    return candidate


def wikilink(name: str, stems: dict[str, str]) -> str:
    """``[[stem]]``, or ``[[stem|Real name]]`` when the file had to be named otherwise."""
    stem = stems.get(name)
    if stem is None:
        stem = file_stem(name)  # a target outside the store: still a link
    return f"[[{stem}]]" if stem == name else f"[[{stem}|{name}]]"


#: Weight of a predecessor's record in its successor's prior (README: "discounted by half").
LINEAGE_WEIGHT = 0.5


def reliability(successes: int, failures: int, prior: tuple[float, float]) -> str:
    """The heading's trust words: ``untested``, ``81% expected`` or ``86% reliable``.

    A Beta(prior) estimate: with no runs and no lineage, ``untested``; with no
    runs but a lineage, what the lineage suggests; else the smoothed record.
    """
    a, b = prior
    runs = successes + failures
    if runs == 0 and prior == (1.0, 1.0):
        return "untested"
    estimate = (successes + a) / (runs + a + b)
    return f"{round(100 * estimate)}% {'reliable' if runs else 'expected'}"


def lineage_prior(evolution: list[tuple[int | None, int | None]]) -> tuple[float, float]:
    """The prior from the newest Evolution line that carries a record, else no opinion (1, 1)."""
    for successes, failures in reversed(evolution):
        if successes is not None or failures is not None:
            return (1.0 + LINEAGE_WEIGHT * (successes or 0), 1.0 + LINEAGE_WEIGHT * (failures or 0))
    return (1.0, 1.0)
