"""Generated stores for the benchmark: one per dialect, any size, same bytes every time.

Each store is shaped like what the dialect's own tool leaves on disk (the golden
inputs under `golden/<dialect>/canonical/input` are the pattern): every record
kind of the dialect, links between records, tags, and a few files formatted by
hand (keys out of the writer's order, a comment, extra blank lines, a CRLF file)
so that the "kept as written" paths run too. The memfmt store is written by the
memfmt library itself (`memfmt.serialise` + `memfmt.write_dir`).

Nothing here reads the clock or a random source: `make(dialect, root, n)` gives
the same bytes on every run.
"""

from __future__ import annotations

import json
from pathlib import Path

DIALECTS = ("memoir", "claude", "memspec", "memfmt")

_WORDS = ("deploy", "cache", "schema", "review", "retry", "token", "queue", "index", "build",
          "staging", "backup", "latency", "rollout", "flag", "release", "probe", "client")


def _title(i: int) -> str:
    a, b, c = _WORDS[i % 17], _WORDS[(i * 7 + 3) % 17], _WORDS[(i * 11 + 5) % 17]
    return f"The {a} {b} note {i} about {c}"


def _slug(i: int) -> str:
    return f"{_WORDS[i % 17]}-{_WORDS[(i * 7 + 3) % 17]}-{i}"


def _body(i: int, link: str) -> str:
    return (f"Paragraph one of record {i}: the {_WORDS[i % 17]} runs before the "
            f"{_WORDS[(i + 4) % 17]}, and `make {_WORDS[(i + 9) % 17]}` checks it.\n\n"
            f"- first point about {_WORDS[(i + 1) % 17]}\n- second point, see {link}\n\n"
            f"**Why:** measured on record {i % 97}.\n")


def _day(i: int) -> str:
    return f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"


# ---------------------------------------------------------------- memoir

_MEMOIR_KINDS = ("fact", "preference", "decision", "lesson", "goal", "next_action")


def _memoir_name(i: int) -> str:
    return f"{_MEMOIR_KINDS[i % 6]}_{_slug(i)}"


def make_memoir(root: Path, n: int) -> None:
    """`memory/<type>_<slug>.md` entries of all six types, plus `session.json`."""
    mem = root / "memory"
    mem.mkdir(parents=True)
    for i in range(n):
        kind = _MEMOIR_KINDS[i % 6]
        extra = {
            "fact": "source: generated for the benchmark\n",
            "preference": "scope: global\n",
            "decision": f"date: {_day(i)}\nwhy: because it was measured\nrejected: the other thing\n",
            "lesson": "trigger: before a deploy\nhow_to_apply: run the smoke tests first\nfired_count: 3\n",
            "goal": f"set_on: {_day(i)}\n",
            "next_action": f"added: {_day(i)}T09:30:00Z\n",
        }[kind]
        link = f"[[{_memoir_name((i * 7 + 1) % n)}]]"
        text = (f"---\ntype: {kind}\nname: {_title(i)}\ndescription: A generated {kind} for the benchmark\n"
                f"{extra}created: {_day(i)}\nproject: acme-api\ntags:\n  - bench\n  - t{i % 17}\n---\n\n"
                f"{_body(i, link)}")
        if i % 50 == 7:  # by hand: keys out of order, a comment, trailing blank lines
            text = (f"---\nname: {_title(i)}\n# written by hand\ntype: {kind}\n"
                    f"description: A hand-edited {kind}\n{extra}created: {_day(i)}\n---\n\n\n"
                    f"{_body(i, link)}\n\n")
        data = text.encode()
        if i % 200 == 13:
            data = data.replace(b"\n", b"\r\n")
        (mem / f"{_memoir_name(i)}.md").write_bytes(data)
    goals = [{"text": _title(i), "set_on": f"{_day(i)}T09:00:00.000Z"} for i in range(0, min(n, 60), 6)]
    machine = "7b1e9c52-0a43-4f8e-b1d2-6c3a9e8f4d21"
    session = {"version": 1, "created_at": "2026-04-18T08:22:36.703Z",
               "updated_at": "2026-08-06T21:10:03.001Z",
               "machines": {machine: {"label": "bench", "last_seen": "2026-08-06T21:10:03.001Z", "os": "linux"}},
               "current": {"goals": goals, "next_actions": [], "parked_actions": [], "completed_actions": [],
                           "completed_goals": [], "open_questions": [], "decisions": [],
                           "focus_mode": {"enabled": False}},
               "history": [{"date": "2026-08-06T21:10:03.001Z", "summary": "Generated", "files_touched": [],
                            "duration_min": 5}]}
    (root / "session.json").write_text(json.dumps(session, indent=2))


# ---------------------------------------------------------------- claude

_CLAUDE_TYPES = ("user", "feedback", "project", "reference")


def _claude_name(i: int) -> str:
    return f"{_CLAUDE_TYPES[i % 4]}_{_slug(i)}"


def make_claude(root: Path, n: int) -> None:
    """Claude Code memory: `<type>_<slug>.md` entries of the four types and `MEMORY.md`."""
    root.mkdir(parents=True)
    sections: dict[str, list[str]] = {t: [] for t in _CLAUDE_TYPES}
    for i in range(n):
        kind = _CLAUDE_TYPES[i % 4]
        name, desc = _title(i), f"A generated {kind} memory, number {i}"
        link = f"[[{_claude_name((i * 7 + 1) % n)}]]"
        body = _body(i, link)
        if kind == "feedback":
            body += "\n**How to apply:** run the check before saying it is done.\n"
        text = f"---\nname: {name}\ndescription: {desc}\ntype: {kind}\n---\n\n{body}"
        if i % 50 == 7:  # by hand: type first, extra blank lines
            text = f"---\ntype: {kind}\nname: {name}\ndescription: {desc}\n---\n\n\n{body}\n"
        data = text.encode()
        if i % 200 == 13:
            data = data.replace(b"\n", b"\r\n")
        (root / f"{_claude_name(i)}.md").write_bytes(data)
        sections[kind].append(f"- [{name}]({_claude_name(i)}.md) — {desc}")
    index = ["# Memory Index", ""]
    for kind in _CLAUDE_TYPES:
        index += [f"## {kind.capitalize()}", *sections[kind], ""]
    (root / "MEMORY.md").write_text("\n".join(index).rstrip("\n") + "\n")


# ---------------------------------------------------------------- memspec

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _ulid(i: int) -> str:
    """A fixed 26-character ULID for record i: a time part, then i spread over the rest."""
    t = 1_780_000_000_000 + i * 1000
    head = "".join(_CROCKFORD[(t >> (5 * k)) & 31] for k in range(9, -1, -1))
    x = i * 2654435761 + 12345
    tail = "".join(_CROCKFORD[(x >> (5 * k)) & 31] for k in range(15, -1, -1))
    return head + tail


def _ms_id(i: int) -> str:
    return "ms_" + _ulid(i)


# (kind, type, folder) in the mix memspec's own stores show
_MEMSPEC_SHAPES = (
    ("claim", "fact", "memory/facts"),
    ("claim", "decision", "memory/decisions"),
    ("claim", "procedure", "memory/procedures"),
    ("claim", "fact", "memory/operator/facts"),
    ("observation", None, "observations"),
    ("claim", "fact", "archive"),
    ("claim", "decision", "memory/decisions"),
    ("claim", "fact", "memory/facts"),
)

_MEMSPEC_CONFIG = """# Memspec configuration
# Files are canonical. Derived indexes are disposable.

classification:
  llm: false
  fallback: rules

decay:
  fact: 90d
  decision: 180d
  procedure: 90d
  observation: 7d
"""


def make_memspec(root: Path, n: int) -> None:
    """A `.memspec/` folder: claims of every type (operator ones too), observations,
    archived (superseded) records, edges between ids, probes, `ext`."""
    ms = root / ".memspec"
    for sub in ("memory/facts", "memory/decisions", "memory/procedures", "memory/operator/facts",
                "observations", "archive"):
        (ms / sub).mkdir(parents=True, exist_ok=True)
    (ms / "config.yaml").write_text(_MEMSPEC_CONFIG)
    (ms / ".gitignore").write_text("# Derived search index — rebuildable from files\n*.db\n.fts.db\n"
                                   ".reconcile.json\nusage.jsonl\n")
    for i in range(n):
        kind, typ, folder = _MEMSPEC_SHAPES[i % 8]
        created = f"'{_day(i)}T10:30:00.000Z'"
        operator = folder.startswith("memory/operator")
        lines = ["---", f"id: {_ms_id(i)}", f"kind: {kind}"]
        if typ:
            lines.append(f"type: {typ}")
        state = "superseded" if folder == "archive" else "active"
        lines += [f"state: {state}", f"created: {created}",
                  "source: 'human:ana'" if operator else "source: claude-code",
                  f"source_kind: {'operator' if operator else 'agent'}",
                  "tags:" if kind == "claim" else "tags: []"]
        if kind == "claim":
            lines += ["  - bench", f"  - t{i % 17}"]
        if kind == "observation":
            lines += [f"check_by: '{_day(i)}T10:30:00.000Z'", f"expires: '{_day(i)}T10:30:00.000Z'"]
        else:
            lines += ["check_by: never" if operator else f"check_by: '2027-{1 + i % 12:02d}-01T10:30:00.000Z'",
                      f"verified_with: {'operator' if operator else 'assertion'}"]
            if folder == "archive":
                lines += [f"superseded_by: {_ms_id((i + 1) % n)}",
                          "supersede_reason: replaced by a newer claim in the benchmark"]  # as memspec writes it
            elif i % 3 == 0 and n > 1:
                lines += ["depends_on:", f"  - {_ms_id((i * 7 + 1) % n)}"]
            if typ == "fact" and i % 5 == 0:
                lines += ["probes:", "  - command: node --version",
                          "    sha256: 4f7c1b5f4d1b0c2f0f6d8a3a1c5e9b7d2e4f6a8c0b1d3e5f7a9c2e4b6d8f0a1c"]
            if i % 4 == 0:
                lines += ["ext:", "  store_layer: global", "  edge_sources: {}"]
        lines.append("---")
        title = _title(i)
        body = "" if kind == "observation" else "\n" + _body(i, f"`{_ms_id((i + 3) % n)}`")
        text = "\n".join(lines) + f"\n# {title}\n{body}"
        if i % 50 == 7 and kind == "claim":  # by hand: flow lists, unquoted date, a comment
            text = (f"---\nid: {_ms_id(i)}\nkind: claim\ntype: {typ}\nstate: {state}\ncreated: {_day(i)}\n"
                    f"source: user\ntags: [bench, hand]\n# edited by hand\ncheck_by: never\n---\n\n"
                    f"# {title}\n{body}")
        (ms / folder / f"{_ms_id(i)}.md").write_text(text)


# ---------------------------------------------------------------- memfmt

def memfmt_memory(n: int):
    """A memfmt `Memory` of n records: entities (facts, relations, knowledge),
    episodes and procedures (steps), and a profile."""
    from memfmt import Entity, Episode, Knowledge, Memory, Procedure, Relation, Step

    entities, episodes, procedures = [], [], []
    for i in range(n):
        title = _title(i)
        if i % 4 in (0, 1):
            rel = [Relation(type="depends_on", target=_title((i * 7 + 4) % n if n > 4 else i))]
            know = [Knowledge(type="note", title=f"how {_WORDS[i % 17]} works",
                              content=f"Runs before the {_WORDS[(i + 4) % 17]}.")] if i % 8 == 0 else []
            entities.append(Entity(name=title, entity_type="project" if i % 2 else "tool",
                                   facts=[f"fact {i} one: the {_WORDS[i % 17]} is fast",
                                          f"see {_title((i + 1) % n)}"],
                                   relations=rel, knowledge=know))
        elif i % 4 == 2:
            episodes.append(Episode(summary=title, happened=_day(i), outcome="it worked",
                                    importance=1 + i % 5, participants=["ana"],
                                    context=f"Context of episode {i}."))
        else:
            procedures.append(Procedure(name=title, trigger=f"before the {_WORDS[i % 17]}",
                                        steps=[Step(action=f"run make {_WORDS[(i + 2) % 17]}"),
                                               Step(action="check the output", detail="all green")]))
    return Memory(entities=entities, episodes=episodes, procedures=procedures,
                  profile="Prefers terse answers.\n\nWorks in UTC.")


def make_memfmt(root: Path, n: int) -> None:
    """`memory/` written by the memfmt library itself."""
    import memfmt

    root.mkdir(parents=True, exist_ok=True)
    tree = memfmt.serialise(memfmt_memory(n), generated="2026-08-02")
    for k, path in enumerate(sorted(p for p in tree if "/entities/" in p)):
        if k % 50 == 7:  # by hand: a blank line more after the heading, no final newline
            tree[path] = tree[path].replace("\n\n## Facts", "\n\n\n## Facts", 1).rstrip("\n")
    memfmt.write_dir(tree, root)


MAKERS = {"memoir": make_memoir, "claude": make_claude, "memspec": make_memspec, "memfmt": make_memfmt}


def make(dialect: str, root: Path, n: int) -> Path:
    """Write an n-record store of `dialect` at root (which must not exist); return root."""
    MAKERS[dialect](Path(root), n)
    return Path(root)


# ---------------------------------------------------------------- one long memory

#: The file of each dialect's 20-entry store that :func:`grow` makes long: its first fact (memfmt's: its first
#: entity, grown by the memfmt library itself).
_GROWN = {"memoir": "memory/fact_*.md", "claude": "project_*.md", "memspec": ".memspec/memory/*/*/*.md"}


def _paragraphs(megabytes: int) -> list[str]:
    """About ``megabytes`` million characters of paragraphs, each a line of 60 words, numbered."""
    out, size, k = [], 0, 0
    while size < megabytes * 1_000_000:
        words = " ".join(f"`make {_WORDS[(k + j) % 17]}`" if j % 10 == 9 else _WORDS[(k * 13 + j * 7) % 17]
                         for j in range(60))
        out.append(f"Paragraph {k}: {words}.")
        size += len(out[-1]) + 2
        k += 1
    return out


def grow(dialect: str, root: Path, megabytes: int) -> Path:
    """The 20-entry store of `dialect` at root with one memory grown to about `megabytes` MB of paragraphs (memfmt:
    one entity's facts): the single long file of issue 12. Same bytes every time; return root."""
    paragraphs = _paragraphs(megabytes)
    if dialect == "memfmt":
        import memfmt

        memory = memfmt_memory(20)
        memory.entities[0].facts.extend(paragraphs)
        Path(root).mkdir(parents=True)
        memfmt.write_dir(memfmt.serialise(memory, generated="2026-08-02"), root)
        return Path(root)
    make(dialect, root, 20)
    path = sorted(Path(root).glob(_GROWN[dialect]))[0]
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + "\n\n".join(paragraphs) + "\n",
                    encoding="utf-8")
    return Path(root)
