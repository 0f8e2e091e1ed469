"""The real memfmt library as a test oracle: mapping between its model and ours, and ``memfmt validate``.

Only tests import this. memconv never imports memfmt: the library is the
executable spec we check against, not code we run.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import sys
from pathlib import Path

import memfmt
from hypothesis import strategies as st
from memfmt import cli as memfmt_cli

from memconv.model import Edge, Knowledge, Record, Revision, Step, Store


# --- our model → memfmt's --------------------------------------------------------------

def to_library(store: Store) -> memfmt.Memory:
    """What ``memfmt.load`` should give for the store we read, by the mapping in docs/memfmt.md."""
    memory = memfmt.Memory()
    for r in store.records:
        if r.kind == "entity":
            memory.entities.append(memfmt.Entity(
                name=r.title, entity_type=r.category, id=r.id, facts=list(r.facts or []),
                relations=[memfmt.Relation(e.type, e.target, "incoming" if e.direction == "in" else "outgoing",
                                           e.note) for e in r.edges],
                knowledge=[memfmt.Knowledge(k.kind, k.title, k.content, k.artifact) for k in r.knowledge or []],
                extra=dict(r.extra)))
        elif r.kind == "episode":
            memory.episodes.append(memfmt.Episode(
                summary=r.title, id=r.id, happened=r.happened, outcome=r.outcome, valence=r.valence,
                importance=r.importance, participants=list(r.participants or []), context=r.body or None,
                extra=dict(r.extra)))
        elif r.kind == "procedure":
            memory.procedures.append(memfmt.Procedure(
                name=r.title, id=r.id, version=1 if r.version is None else r.version,
                success_count=r.successes or 0, fail_count=r.failures or 0, trigger=r.trigger,
                preconditions=list(r.preconditions or []),
                steps=[memfmt.Step(s.action, s.detail, s.successes, s.failures, list(s.needs or []),
                                   list(s.gives or [])) for s in r.steps or []],
                evolution=[memfmt.Revision(v.from_version, v.to_version, v.reason, v.date, v.successes, v.failures)
                           for v in r.evolution or []],
                last_failure=r.last_failure, last_failed=r.last_failed, last_succeeded=r.last_succeeded,
                extra=dict(r.extra)))
        elif r.kind == "profile":
            memory.profile = r.body or None  # memfmt keeps one profile: the last file read
    return memory


# --- memfmt's model → ours -------------------------------------------------------------

def from_library(memory: memfmt.Memory, generated: str | None = None) -> Store:
    """A store holding the same memory, with no memfmt source: what a converter would hand the writer."""
    records: list[Record] = []
    for e in memory.entities:
        records.append(Record(kind="entity", link=e.name, title=e.name, category=e.entity_type, id=e.id,
                              facts=list(e.facts),
                              edges=[Edge(r.type, r.target, r.detail, "in" if r.direction == "incoming" else "out")
                                     for r in e.relations],
                              knowledge=[Knowledge(k.type, k.title, k.content, k.artifact) for k in e.knowledge],
                              extra=dict(e.extra)))
    for e in memory.episodes:
        records.append(Record(kind="episode", link=e.summary, title=e.summary, body=e.context or "", id=e.id,
                              happened=e.happened, outcome=e.outcome, valence=e.valence, importance=e.importance,
                              participants=list(e.participants), extra=dict(e.extra)))
    for p in memory.procedures:
        records.append(Record(kind="procedure", link=p.name, title=p.name, id=p.id, version=p.version,
                              successes=p.success_count, failures=p.fail_count, trigger=p.trigger,
                              preconditions=list(p.preconditions),
                              steps=[Step(s.action, s.detail, list(s.needs), list(s.gives), s.success_count,
                                          s.fail_count) for s in p.steps],
                              evolution=[Revision(v.version_before, v.version_after, v.reason, v.date,
                                                  v.success_count, v.fail_count) for v in p.evolution],
                              last_failure=p.last_failure, last_failed=p.last_failed,
                              last_succeeded=p.last_succeeded, extra=dict(p.extra)))
    if memory.profile:
        records.append(Record(kind="profile", link="profile", title="Profile", body=memory.profile))
    meta = {"date": generated} if generated else {}
    return Store(dialect="test", records=records, meta=meta)


# --- memfmt validate -------------------------------------------------------------------

def validate(path: Path, today: str | None = None) -> tuple[int, str]:
    """``memfmt validate PATH``: (exit status, what it printed).

    memfmt validate re-serialises ``profile.md`` stamped with *today's* date,
    so a store whose profile was generated on another day fails it whatever
    wrote it (``test_memfmt_validate_passes.py`` shows memfmt failing its own
    output). ``today`` runs it as on that day — the profile's ``generated`` —
    and changes nothing else.
    """
    module = sys.modules["memfmt.serialize"]
    real_date = module.date
    if today is not None:
        fixed = datetime.date.fromisoformat(today)

        class _Day(datetime.date):
            @classmethod
            def today(cls):
                return fixed

        module.date = _Day
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = memfmt_cli.main(["validate", str(path)])
    finally:
        module.date = real_date
    return status, out.getvalue()


# --- hypothesis: memfmt memories -------------------------------------------------------

#: Characters that carry meaning somewhere in memfmt's grammar, plus any other text.
_TRICKY = list(" -:#\"\\[]|→←—()✓✗,./*_`'!?%@&{}>\t0123456789") + ["**", " — ", "- ", "```", "# ", "## "]
_char = st.sampled_from(_TRICKY) | st.characters(exclude_categories=("Cs",), exclude_characters="\r\n")
#: One line of text: no newline (memfmt's frontmatter and headings are one line each).
line = st.lists(_char, max_size=12).map("".join)
#: Text that may span lines (context, artifacts, facts memfmt collapses).
lines = st.lists(_char | st.just("\n"), max_size=30).map("".join)
maybe = lambda s: st.none() | s  # noqa: E731
count = st.integers(min_value=0, max_value=40)
date = st.dates().map(lambda d: d.isoformat())
#: Extra frontmatter keys: never one memfmt owns, never holding the ':' that ends a key.
_extra_key = st.sampled_from(["source", "tags", "owner", "aliases", "x-carry", "review_by"])
_extra_value = line.filter(lambda s: s.strip()) | st.lists(line.filter(lambda s: s.strip()), min_size=1, max_size=3)
extras = st.dictionaries(_extra_key, _extra_value, max_size=2)


def _happened(safe_filename: bool):
    text = date | line.filter(lambda s: s.strip())
    if safe_filename:  # memconv replaces these in filenames where memfmt would leave the folder
        text = text.filter(lambda s: not any(c in s for c in "/\\") and all(ord(c) >= 0x20 for c in s))
    return text


entities = st.builds(
    memfmt.Entity, name=line, entity_type=maybe(line), id=maybe(line), facts=st.lists(lines, max_size=3),
    relations=st.lists(st.builds(memfmt.Relation, type=line, target=line,
                                 direction=st.sampled_from(["outgoing", "incoming"]), detail=maybe(lines)),
                       max_size=3),
    knowledge=st.lists(st.builds(memfmt.Knowledge, type=line, title=line, content=lines, artifact=maybe(lines)),
                       max_size=2),
    extra=extras)


def episodes(safe_filename: bool = True):
    return st.builds(memfmt.Episode, summary=line, id=maybe(line), happened=maybe(_happened(safe_filename)),
                     outcome=maybe(line), valence=maybe(st.sampled_from(["positive", "negative", "neutral"]) | line),
                     importance=maybe(st.integers(-2, 10)), participants=st.lists(line, max_size=3),
                     context=maybe(lines), extra=extras)


steps = st.builds(memfmt.Step, action=lines, detail=maybe(lines), success_count=maybe(count),
                  fail_count=maybe(count), needs=st.lists(line, max_size=2), gives=st.lists(line, max_size=2))
revisions = st.builds(memfmt.Revision, version_before=count, version_after=count, reason=lines, date=maybe(date),
                      success_count=maybe(count), fail_count=maybe(count))
procedures = st.builds(memfmt.Procedure, name=line, id=maybe(line), version=st.integers(1, 9), success_count=count,
                       fail_count=count, trigger=maybe(lines), preconditions=st.lists(lines, max_size=2),
                       steps=st.lists(steps, max_size=3), evolution=st.lists(revisions, max_size=2),
                       last_failure=maybe(lines), last_failed=maybe(date), last_succeeded=maybe(date), extra=extras)


def memories(unique_names: bool = False, safe_filename: bool = True):
    names = st.lists(entities, max_size=4, unique_by=(lambda e: e.name) if unique_names else None)
    return st.builds(memfmt.Memory, entities=names, episodes=st.lists(episodes(safe_filename), max_size=3),
                     procedures=st.lists(procedures, max_size=3), profile=maybe(lines))
