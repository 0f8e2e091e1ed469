"""Merging two Claude Code memory folders (the moved-project rescue, among others).

* A memory file is one record, identified by its link name (the file stem).
  Identical bytes are unchanged; otherwise the newer by ``updated``, then
  ``created``, wins. Copies with nothing to order them that say different
  things are a conflict: the canonical choice stays, the other is kept beside
  it as ``<link>.conflict-<hash>.md``, its ``name`` marked ``(conflict copy)``.
* ``MEMORY.md`` is regenerated from both sides' indexes (pages included):
  sections matched by heading, their lines unioned in the order both give
  (hand-written prose, inline bullets by normalised text, links by target),
  then every kept file no index links is linked under its type's heading, and
  conflict copies under ``## Conflicts`` (Claude Code loads only what the
  index links). Past 200 lines or 25 KB it is split into linked pages
  ``MEMORY-2.md``… rather than cut.
* Any other file is unioned by path, as for memoir.
"""

from __future__ import annotations

import re

from ..dialects.claude import entries as claude_entries
from ..dialects.claude import index as claude_index
from ..dialects.claude import KEPT_SUFFIX, page_named, written_type
from ..errors import ReadError
from ..model import IndexFile, IndexLink, Record, Store, clone, fingerprint, unedited
from ..fs import fitting
from ..text import flat, short_digest
from .memoir import MergeResult, Tree, finish
from .records import Hints, Rules, merge_records, merge_sequences
from .report import Outcome

#: Claude Code's limits and the paging rule are the claude dialect's (``claude_index.paginate``).
LOADED_BYTES = claude_index.LOADED_BYTES
#: The heading conflict copies are linked under, and the line that says what they are.
CONFLICTS = "Conflicts"
CONFLICTS_NOTE = ("Copies kept by `memconv merge` where both folders changed one memory differently: "
                  "keep the one you want, then delete the other file and its line here.")
MORE = claude_index.MORE
#: A conflict copy's stem: ``<link>.conflict-<hash>``.
COPY_STEM = re.compile(r"\.conflict-[0-9a-f]{8,}$")


def _path(record: Record) -> str:
    source = record.source
    return source.path if source is not None and source.dialect == "claude" else f"{record.link}.md"


def _raw(record: Record) -> bytes:
    if unedited(record, "claude"):
        return record.source.raw
    return claude_entries.write_entry(record)


def _dates(record: Record) -> list[tuple[str, object]]:
    for name in ("updated", "created"):
        value = getattr(record, name) if not record.opaque else record.extra.get(name)
        if isinstance(value, str):
            return [(name, value)]
    return []


def _conflict_copy(record: Record, raw: bytes) -> Record:
    copy = clone(record, keep_source=True)
    tail = f".conflict-{short_digest(raw, 8)}"
    copy.link = fitting(record.link, tail + ".md") + tail  # a long name stays a name a disk takes
    if copy.source is not None:
        # A new Source: the loser's own is shared with the store it was read from, which must not change.
        copy.source = copy.source.replaced(path=f"{copy.link}.md") \
            if copy.source.dialect == "claude" else None
    if not record.opaque and isinstance(record.title, str):
        copy.title = f"{record.title} (conflict copy)"
    return copy


RULES = Rules(
    dialect="claude",
    identity=lambda r: r.link,
    raw=_raw,
    dates=_dates,
    substance=fingerprint,
    combine=lambda winner, loser, tied: (winner, []),
    conflict_copy=_conflict_copy,
    kind="entry",
    where=_path,
)


# --- MEMORY.md --------------------------------------------------------------------


def _norm(text: str) -> str:
    return flat(text).lower()


def _page_number(path: str) -> int:
    m = claude_index.PAGE_FILE.match(path)
    return int(m.group("n")) if m else 1


def _parse(indexes: list[IndexFile], moved: list[str] | None = None
           ) -> tuple[str | None, list[tuple[str | None, str | None, list]]]:
    """A store's index pages, flattened: its title line and ``[(heading key, heading line, items)]``.

    An item is ``(kind, payload, lines)``: ``link`` (payload the target), ``inline``
    (its normalised text), ``text`` (the stripped line). Page titles, the links
    between pages and an emptied ``More memory`` section are generated, so left out.
    What a page holds before its first heading but its title (a person's paragraph) is
    the index's own words, as MEMORY.md's are: it joins them, a blank line before it
    (none when it is right under the generated title: a preamble paged on), and the page's
    path is added to ``moved``.
    """
    title: str | None = None
    sections: dict[str | None, tuple[str | None, list]] = {}
    for idx in sorted(indexes, key=lambda i: _page_number(i.path)):
        layout = idx.source.layout if idx.source is not None and idx.source.dialect == "claude" else None
        if layout is None:
            continue
        page = idx.path != claude_index.PATH
        heading_key: str | None = None
        heading_line: str | None = None
        words = False  # whether a line of the page's own preamble was kept
        follows = False  # whether the line before is the page's generated title
        for item in layout.items:
            kind = item[0]
            if kind == "title" and (not page or claude_index.page_title(item[1])):
                if not page:
                    title = item[1]
                follows = page
                continue
            glued, follows = follows, False
            if kind == "section":
                heading_line = item[2]
                heading_key = _norm(claude_index.heading_text(item[2], 2) or "")
                sections.setdefault(heading_key, (heading_line, []))
                continue
            if page and heading_key is None:
                if kind == "title":
                    item = ("text", item[1])  # a title of the page's own: someone's words
                if not words:
                    if kind == "text" and not item[1].strip():
                        continue  # the blank line under the generated title
                    words = True
                    if moved is not None:
                        moved.append(idx.path)
                    if None not in sections:  # the preamble comes first, as on MEMORY.md
                        sections = {None: (None, []), **sections}
                    preamble = sections[None][1]
                    # Words right under the generated title go on from the page before (claude_index.paginate
                    # pages a long preamble so): no blank line between.
                    if not glued and (not preamble or preamble[-1][:2] != ("text", "")):
                        preamble.append(("text", "", [""]))
            items = sections.setdefault(heading_key, (heading_line, []))[1]
            if kind == "link":
                m = claude_index.LINK_LINE.match(item[3])
                target = m.group("target")
                if claude_index.PAGE_FILE.match(target) or target == claude_index.PATH:
                    continue
                items.append(("link", target, [item[3]]))
            elif kind == "inline":
                text = claude_index.BULLET_LINE.match(item[3][0]).group("text")
                text += "".join(" " + line.strip() for line in item[3][1:])
                items.append(("inline", _norm(text), list(item[3])))
            else:
                items.append(("text", item[1].strip(), [item[1]]))
    more = sections.get(_norm(MORE))
    if more is not None and not any(i[1] for i in more[1]):
        del sections[_norm(MORE)]
    return title, [(key, line, items) for key, (line, items) in sections.items()]


def _keyed(items: list) -> dict[tuple, list[str]]:
    """Items by key: a text line is keyed by its text, a link line by its target and its words (whitespace
    collapsed: two lines for one target with different hooks are two items), each with how many times it came
    before in its section."""
    seen: dict[tuple, int] = {}
    out: dict[tuple, list[str]] = {}
    for kind, payload, lines in items:
        if kind == "link":
            line = _undotted(lines[0])
            words = flat(line)
            base = (kind, payload, line if words == line else words)  # (the line as held, when it is flat)
        else:
            base = (kind, payload)
        n = seen.get(base, 0) if kind != "inline" else 0
        seen[base] = n + 1
        key = (*base, n)
        if key in out:
            continue
        out[key] = lines
    return out


def _undotted(line: str) -> str:
    """A link line without the ``./`` of its destination: how the file is spelled, not words (the reader takes
    ``./x.md`` and ``x.md`` for one target), so two lines that differ only there are one line."""
    m = claude_index.LINK_LINE.match(line)
    return line[:m.start("dot")] + line[m.end("dot"):] if m and m.group("dot") else line


def _key(value) -> str:
    return repr(value)


def _times_linked(heads: dict, key: tuple) -> int:
    """How many times one side's index has the link line ``key`` (its target and words), all sections."""
    n = 0
    for _, items in heads.values():
        k = 0
        while (*key[:3], k) in items:
            k += 1
        n += k
    return n


def _unordered_lines(heads_a: dict, heads_b: dict, targets: set[str]) -> list[tuple[str, str]]:
    """Of ``targets`` (linked with more than one line's words), each both indexes link with words neither holds all
    of (nothing orders two index lines: no date is on them), and the side whose line sorts last (the canonical
    choice): a conflict, both sides' lines kept."""
    words: tuple[dict[str, set[str]], dict[str, set[str]]] = ({}, {})
    for heads, found in zip((heads_a, heads_b), words):
        for _, items in heads.values():
            for k in items:
                if k[0] == "link" and k[1] in targets:
                    found.setdefault(k[1], set()).add(k[2])
    out = []
    for target in sorted(words[0].keys() & words[1].keys()):
        wa, wb = words[0][target], words[1][target]
        if not (wa <= wb or wb <= wa):
            out.append((target, "A" if max(wa) > max(wb) else "B"))
    return out


def _outdated(a: list[Record], b: list[Record], rules: Rules) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """Per side, the link lines an import's record of what changed outdates, as ``(target, words)``: where one copy
    of a memory wins because it changed since the last import and the other did not (:attr:`.records.Hints.prefer`),
    the line an index generates for the unchanged copy (:func:`claude_index.generated_link`), which is the line the
    last import wrote for it, not a person's words."""
    by_id: dict[str, list[list[Record]]] = {}
    for side, records in ((0, a), (1, b)):
        for record in records:
            by_id.setdefault(rules.identity(record), [[], []])[side].append(record)
    out: tuple[set[tuple[str, str]], set[tuple[str, str]]] = (set(), set())
    for ra, rb in by_id.values():
        if len(ra) != 1 or len(rb) != 1 or (rules.prefer(ra[0]) is None) == (rules.prefer(rb[0]) is None):
            continue
        side, loser = (0, ra[0]) if rules.prefer(ra[0]) is None else (1, rb[0])
        path = _path(loser)
        out[side].add((path, flat(claude_index.link_line(claude_index.generated_link(path, loser)))))
    return out


def _without_outdated(sections: list, other: list, outdated: set[tuple[str, str]]) -> list:
    """One side's sections without its ``outdated`` lines (:func:`_outdated`) for a target the other side links."""
    linked = {i[1].removeprefix("./") for _, _, items in other for i in items if i[0] == "link"}
    return [(key, line, [i for i in items if i[0] != "link" or i[1].removeprefix("./") not in linked
                         or (i[1].removeprefix("./"), flat(_undotted(i[2][0]))) not in outdated])
            for key, line, items in sections]


def merge_indexes(pa: list[IndexFile], pb: list[IndexFile], entries: list[tuple[str, Record]],
                  copies: set[str], gone: frozenset[str] = frozenset(),
                  conflicts: list[tuple[str, str]] | None = None,
                  outdated: tuple[set[tuple[str, str]], set[tuple[str, str]]] | None = None
                  ) -> tuple[dict[str, bytes], list[str]]:
    """Both sides' index pages → the merged index pages (path → bytes), and warnings.

    ``entries`` are the kept files (path, record); ``copies`` the paths of conflict copies; ``gone`` the names of
    files kept under a conflict name because another file's name folds to theirs (:attr:`Tree.folded`): a line
    linking such a name is left out (on macOS and Windows it would open the other file), and the copy is linked
    with the other conflict copies. Every link line with words of its own is kept: a line both sides have, or one
    moved to another section, once (as often as the side that has it most); ``conflicts`` gets each target both
    sides link with words neither holds all of, and the side whose line is the canonical choice. ``outdated``: per
    side, the lines the last import wrote for a memory the other side alone changed since (:func:`_outdated`): left
    out where the other side links that memory, so its line is the one kept.
    """
    moved: list[str] = []
    ta, sa = _parse(pa, moved)
    tb, sb = _parse(pb, moved)
    if gone:
        sa, sb = ([(key, line, [i for i in items if i[0] != "link" or i[1].removeprefix("./") not in gone])
                   for key, line, items in sections] for sections in (sa, sb))
    if outdated is not None and any(outdated):
        sa, sb = _without_outdated(sa, sb, outdated[0]), _without_outdated(sb, sa, outdated[1])
    warnings: list[str] = [f"{path}: its text before its first heading is kept at the top of {claude_index.PATH}"
                           for path in dict.fromkeys(moved)]
    titles = {t for t in (ta, tb) if t is not None}
    title = max(titles) if titles else "# Memory Index"
    if len(titles) > 1:
        warnings.append(f"MEMORY.md: the two indexes have different titles ({' / '.join(sorted(titles))}); "
                        f"kept {title!r}")
    heads_a = {k: (line, _keyed(items)) for k, line, items in sa}
    heads_b = {k: (line, _keyed(items)) for k, line, items in sb}
    order = merge_sequences([k for k, _, _ in sa], [k for k, _, _ in sb], key=_key)
    sections: list[tuple[str | None, str | None, dict[tuple, list[str]]]] = []
    linked: dict[str, str] = {}  # target → the words of its first line kept
    written: dict[str, int] = {}  # link lines kept so far, by their words (which hold the target)
    several: set[str] = set()  # targets linked with more than one line's words
    for key in order:
        la, ia = heads_a.get(key, (None, {}))
        lb, ib = heads_b.get(key, (None, {}))
        lines = {k: max(v for v in (ia.get(k), ib.get(k)) if v is not None)
                 for k in merge_sequences(list(ia), list(ib), key=_key)}
        kept: dict[tuple, list[str]] = {}
        for k, v in lines.items():
            if k[0] == "link":
                times = written.get(k[2], 0)
                if times and times >= max(_times_linked(heads_a, k), _times_linked(heads_b, k)):
                    continue  # the same line in an earlier section already (moved there by one side)
                written[k[2]] = times + 1
                if linked.setdefault(k[1], k[2]) != k[2]:
                    several.add(k[1])
            kept[k] = v
        heading = max(x for x in (la, lb) if x is not None) if key is not None else None
        sections.append((key, heading, kept))
    if several and conflicts is not None:
        conflicts.extend(_unordered_lines(heads_a, heads_b, several))
    # Every kept file is linked: Claude Code loads nothing the index does not link.
    missing = [(path, record) for path, record in sorted(entries, key=lambda e: e[0]) if path not in linked
               and path.removeprefix("./") not in linked]
    added: dict[str, list[tuple[str, str]]] = {}
    for path, record in missing:
        is_copy = path in copies or COPY_STEM.search(path[:-3]) is not None
        if is_copy:
            heading = CONFLICTS
        else:
            groups = dict(claude_index.GROUPS)
            word = written_type(record)
            heading = groups[word] if word in groups else "Other"
        hook = record.description or record.trigger
        hook = hook.replace("\n", " ").strip() if isinstance(hook, str) and hook.strip() else None
        name = record.title if isinstance(record.title, str) and record.title.strip() else record.link
        line = claude_index.link_line(IndexLink(title=name.replace("\n", " "),
                                                target=path, hook=hook))
        added.setdefault(heading, []).append((path, line))
    by_key = {s[0]: s for s in sections}
    for heading, links in added.items():
        section = by_key.get(_norm(heading))
        if section is None:
            if sections and sections[-1][2]:
                last = sections[-1][2]
                if next(reversed(last))[:2] != ("text", ""):
                    n = sum(1 for k in last if k[:2] == ("text", ""))
                    last[("text", "", n)] = [""]
            section = (_norm(heading), f"## {heading}", {})
            if heading == CONFLICTS:
                section[2][("text", CONFLICTS_NOTE, 0)] = [CONFLICTS_NOTE]
                section[2][("text", "", 0)] = [""]
            sections.append(section)
            by_key[section[0]] = section
        items = section[2]
        # new links go before the section's trailing blank line, if it has one
        tail = next(reversed(items)) if items and next(reversed(items))[:2] == ("text", "") else None
        saved = items.pop(tail) if tail is not None else None
        for path, line in links:
            items[("link", path, 0)] = [line]
        if tail is not None:
            items[tail] = saved
    return _pages(title, sections, warnings), warnings


def _blocks(sections) -> tuple[list[str], list[tuple[str | None, list[str]]]]:
    """The preamble's lines, and each section's item lines as ``(heading line, lines of one item)``."""
    preamble: list[str] = []
    units: list[tuple[str | None, list[str]]] = []
    # Conflicts first, on MEMORY.md itself: they are what a person must look at.
    sections = sorted(sections, key=lambda s: s[0] != _norm(CONFLICTS))
    for key, heading, items in sections:
        if key is None:
            for lines in items.values():
                preamble.extend(lines)
            continue
        if not items:
            units.append((heading, []))
        for lines in items.values():
            units.append((heading, lines))
    return preamble, units


#: Page links one index page holds in its ``More memory`` section.
LINKS_PER_PAGE = claude_index.LINKS_PER_PAGE


def _pages(title_line: str, sections, warnings: list[str]) -> dict[str, bytes]:
    """The merged index as files Claude Code loads whole: split into linked pages past its limits."""
    preamble, units = _blocks(sections)
    files, warning = claude_index.paginate(title_line, preamble, units)
    if warning:
        warnings.append(warning)
    return dict(files)


def _memories_named_as_pages(store: Store) -> tuple[list[IndexFile], list[Record]]:
    """The store's index pages, and its memories the reader took for pages: a ``MEMORY-2.md`` with front matter is
    a memory file (Claude Code reads it as one where the index links it; a page memconv writes begins with its
    title), so it is merged as a record, and kept beside the page of that name, not dropped with the pages."""
    pages, memories = [], []
    for idx in store.indexes:
        raw = idx.source.raw if idx.path != claude_index.PATH and idx.source is not None else b""
        if raw.startswith(b"---"):
            try:
                memories.append(claude_entries.read_entry(raw, idx.path, idx.path[:-3]))
                continue
            except ReadError:
                pass  # not a memory file either: read as the page its name says
        pages.append(idx)
    return pages, memories


def merge(a: Store, b: Store, hints: Hints | None = None) -> MergeResult:
    """Two Claude Code memory folders → the merged folder's files and the outcome of every record."""
    pa, more_a = _memories_named_as_pages(a)
    pb, more_b = _memories_named_as_pages(b)
    rules = hints.apply(RULES) if hints else RULES
    merged = merge_records([*a.records, *more_a] if more_a else a.records,
                           [*b.records, *more_b] if more_b else b.records, rules)
    tree = Tree(KEPT_SUFFIX)  # (a kept .md file is written .md.kept: finish)
    outcomes: list[Outcome] = list(merged.outcomes)
    warnings: list[str] = []
    placed: list[tuple[str, Record]] = []
    tree.files[claude_index.PATH] = b""  # the index's name, taken first: a memory.md is kept beside it (written below)
    for record in merged.records:
        path = _path(record)
        # A split index writes its pages at such a name: the memory is kept beside the page.
        moved = tree.put(path, _raw(record), page_named(path))
        placed.append((moved or path, record))
    copies = {_path(c) for c in merged.copies.values()}
    unordered: list[tuple[str, str]] = []
    pages, notes = merge_indexes(pa, pb, placed, copies, frozenset(wanted for wanted, _, _ in tree.folded),
                                 unordered, _outdated(a.records, b.records, rules) if hints else None)
    warnings.extend(notes)
    for path, data in pages.items():
        tree.files[path] = data
    before = {side: {i.path: i.source.raw for i in idx if i.source is not None} for side, idx in (("A", pa), ("B", pb))}
    if before["A"] == pages and before["B"] == pages:
        outcomes.append(Outcome("index", claude_index.PATH, claude_index.PATH, "unchanged"))
    else:
        won = "A" if before["A"] == pages else "B" if before["B"] == pages else None
        outcomes.append(Outcome("index", claude_index.PATH, claude_index.PATH,
                                "added" if not pa or not pb else "updated", won,
                                f"regenerated from both indexes: {len(pages)} page(s), every kept file linked"))
    for target, won in unordered:
        outcomes.append(Outcome("index", claude_index.PATH, target, "conflict", won,
                                "the two indexes link it with different words, and nothing orders index lines: "
                                "every line kept, one beside the other", claude_index.PATH, target))
    return finish("claude", a, b, tree, outcomes, warnings, hints=hints)


__all__ = ["RULES", "merge", "merge_indexes"]
