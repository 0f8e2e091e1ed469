"""``memconv upgrade``: a legacy Claude Code memory folder → a canonical memoir v0.1.2 store.

The claude reader has already applied memoir spec Appendix A's "read as"
table to every file (``metadata.type`` → ``type``, ``originSessionId`` →
``origin.session_id``, ``user`` → ``preference``, ``feedback`` → ``lesson``
with ``trigger`` ← ``description`` and ``how_to_apply`` ← the
``**How to apply:**`` section, ``reference`` → ``fact``; ``project`` dossiers
and bare files opaque). This module decides, per record, what the upgrade
writes, knowing only the model:

* **converted** — the record can be a canonical memoir entry: it gets a
  type-prefixed link name (``feedback_testing`` → ``lesson_testing``) and is
  rendered by the memoir writer;
* **kept** — it already is a canonical memoir entry: its bytes stay, only its
  name (if unprefixed) and links change;
* **opaque** — Appendix A has no canonical form for it (a dossier, a bare
  file), or it lacks what the memoir schema requires (a ``feedback`` entry
  with no ``**How to apply:**``): it is kept as written under its own name,
  with a warning that says why.

Every wikilink, body link, ``superseded_by`` and index link that named an
old link name is rewritten to the new one, so no link breaks. Names are
chosen so that upgrading the result again changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import frontmatter as fmx
from .converters.mapping import name_part
from .dialects import claude, memoir, unportable
from .dialects.claude import body as bodies
from .dialects.memoir import entries as memoir_entries
from .dialects.entry_frontmatter import canonical_problems
from .errors import ReadError
from .fs import QUARANTINE_DIR, kept_name, kept_too_long, quarantine_path
from .markdown import link_targets, renamed_link_target, rewrite_links
from .model import Edge, ForeignFile, IndexLink, Record, Source, Store
from .report import FileReport
from .text import MARKDOWN_LINK, decode, encode, flat, on_one_line, slug, title_of

#: What the upgrade writes: the memoir spec's version and the entry directory.
TARGET = "memoir v0.1.2"



@dataclass
class Upgrade:
    """The memoir store to write, and what became of every file."""

    store: Store
    files: list[FileReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Old link name → new link name, for every entry whose name changed.
    renamed: dict[str, str] = field(default_factory=dict)


def _source_kind(record: Record) -> str:
    layout = record.source.layout if record.source is not None else None
    if layout is None or layout.frontmatter is None:
        return "bare"
    return layout.type_word or "untyped"


def _plan(record: Record) -> tuple[str, list[str], list[str]]:
    """``(status, changes, problems)`` for one claude record, before renaming."""
    layout = record.source.layout
    if record.opaque:
        if layout.frontmatter is None:
            return "opaque", [], ["this old-style file has no frontmatter, so no type"]
        if layout.type_word == "project":
            return "opaque", [], ["this old-style `project` file gathers many facts, and no one memoir type fits it"]
        if not layout.type_word:
            return "opaque", [], ["this old-style file has no type"]
        return "opaque", [], [f"its type {layout.type_word!r} is neither a Claude Code nor a memoir type"]
    problems = canonical_problems(record)
    if problems:
        return "opaque", [], problems
    return ("kept" if not layout.changes else "converted"), list(layout.changes), []


def upgrade(source: Store, shape: str = "nested", reserved: Iterable[str] = ()) -> Upgrade:
    """The memoir store a claude store upgrades to; ``shape`` (memoir's ``layout`` store fact) is ``nested``
    (``memory/``) or ``flat``. ``reserved``: link names no entry may be renamed to (what else the folder keeps
    under an entry's name: an in-place upgrade's symbolic links)."""
    prefix = "memory/" if shape == "nested" else ""
    out = Store(dialect="memoir", meta={"layout": shape})
    result = Upgrade(out)
    plans = {}
    for record in source.records:
        plans[record.link] = _plan(record)
    # Names: a record keeps its name when it is opaque or already canonical;
    # those are reserved first so a second upgrade finds every name taken by itself.
    names: dict[str, str] = {}
    taken: set[str] = {name.lower() for name in reserved}
    wanted: dict[str, str] = {}
    for record in source.records:
        status = plans[record.link][0]
        wanted[record.link] = record.link if status == "opaque" else f"{record.kind}_{name_part(record.link)}"
    for record in source.records:
        if wanted[record.link] == record.link:
            names[record.link] = record.link
            taken.add(record.link.lower())
    for record in source.records:
        if record.link in names:
            continue
        name, n = wanted[record.link], 2
        while name.lower() in taken:
            name, n = f"{wanted[record.link]}-{n}", n + 1
        names[record.link] = name
        taken.add(name.lower())
    result.renamed = {old: new for old, new in names.items() if old != new}
    # Every name a link may name, each to itself: the rename rule (renamed_link_target) then tells whether an edge
    # names one at all, in any form it follows.
    known = {name: name for name in (*names, *names.values(), *(idx.path[:-3] for idx in source.indexes))}

    for record in source.records:
        status, changes, problems = plans[record.link]
        new = names[record.link]
        path = f"{prefix}{new}.md"
        report = FileReport(source=record.source.path, source_kind=_source_kind(record), target=path,
                            target_kind="opaque" if status == "opaque" else record.kind, status=status,
                            changes=list(changes), warnings=[])
        if new != record.link:
            report.changes.insert(0, f"renamed {record.link}.md → {new}.md")
        for target in link_targets(record.body):
            if target not in known:
                report.warnings.append(f"links to [[{target}]], which names no entry in the store (left as written)")
        for edge in record.edges:
            # An edge to nothing is said as a body link to nothing is: a decision replaced by nothing is news.
            if renamed_link_target(edge.target, known, file_links=True) is None:
                report.warnings.append(
                    f"{edge.type} links to {edge.target}, which names no entry in the store (left as written)")
        try:
            if status == "opaque":
                entry = _kept_as_written(record, path, new, result.renamed, report)
                report.warnings[:0] = [f"kept as written: {p}" for p in problems]
            elif status == "kept":
                entry = _kept_canonical(record, path, new, result.renamed, report)
            else:
                entry = _converted(record, path, new, result.renamed, report)
        except ReadError as exc:  # e.g. a schema_version memoir will not read: carried, untouched
            out.foreign.append(ForeignFile(f"{prefix}{record.link}.md", record.source.raw, why=exc.problem))
            report.status, report.target = "quarantined", f"{prefix}{record.link}.md"
            report.warnings.append(f"{exc.problem}; carried unchanged")
            result.files.append(report)
            continue
        out.records.append(entry)
        result.files.append(report)

    for idx in source.indexes:
        relinked = dataclasses.replace(idx, sections=[dataclasses.replace(
            s, links=[dataclasses.replace(link) for link in s.links], inline=list(s.inline)) for s in idx.sections])
        report = FileReport(source=idx.path, source_kind="index", target=f"{prefix}{idx.path}", target_kind="index",
                            status="kept", changes=[])
        inline = 0
        #: (section, inline position) → position of the link that replaces the bullet, in place.
        moved: dict[tuple[int, int], int] = {}
        for s_no, section in enumerate(relinked.sections):
            inline += len(section.inline)
            for i, bullet in enumerate(section.inline):
                entry, link = _inline_entry(bullet, prefix, taken)
                out.records.append(entry)
                moved[(s_no, i)] = len(section.links)
                section.links.append(link)
                fact = FileReport(source=f"{idx.path} (inline bullet)", source_kind="inline",
                                  target=f"{prefix}{entry.link}.md", target_kind="fact", status="converted",
                                  changes=["an inline bullet of the index → a fact entry"])
                entry.body, changed = rewrite_links(entry.body, result.renamed, file_links=True)
                fact.changes.extend(f"link {c}" for c in changed)
                result.files.append(fact)
            section.inline = []
            for link in section.links:
                stem = link.target[:-3]
                if stem in result.renamed:
                    report.changes.append(f"link ({link.target}) → ({result.renamed[stem]}.md)")
                    link.target = f"{result.renamed[stem]}.md"
        layout = relinked.source.layout if (moved or result.renamed) and relinked.source is not None else None
        text_changed = _relink_text(layout.items, result.renamed, report) if layout is not None else None
        if layout is not None and (moved or text_changed):
            items = []
            for item in text_changed or layout.items:
                if item[0] == "inline" and (item[1], item[2]) in moved:
                    j = moved[(item[1], item[2])]
                    # The bullet's own marker and indent: a nested bullet's link stays nested (forty-sixth session).
                    bullet = claude.index.BULLET_LINE.match(item[3][0]).group("bullet")
                    line = bullet + claude.index.link_line(relinked.sections[item[1]].links[j])[2:]
                    items.append(("link", item[1], j, line))
                else:
                    items.append(item)
            # (No fingerprint: an index whose links are all as read is written again, its text lines changed.)
            relinked.source = relinked.source.replaced(layout=dataclasses.replace(layout, items=items),
                                                       fingerprint=None)
        for line, target in claude.index.broken_links(idx):
            report.warn(f"line {line} links to {target}, which is not in the folder (kept as written)")
        if report.changes:
            report.status = "converted"
        if inline:
            report.status = "converted"
            report.changes.append(f"{inline} inline memory bullet(s) → fact entries, linked from the index")
        data = claude.index.write_index(relinked)
        if idx.path == claude.index.PATH and (over := claude.index.past_limits(data)):
            # Not reflowed (a hand-kept index), but not silently: the bullets' link lines and the renamed targets
            # are longer, and an index Claude Code loaded whole grew past what it reads.
            raw = idx.source.raw if idx.source is not None else None
            grew = " once upgraded" if raw is not None and claude.index.past_limits(raw) is None else ""
            report.warn(f"{over}{grew}: what is past the limit is not read by Claude Code; move some "
                        "of it into a topic file")
        out.foreign.append(ForeignFile(f"{prefix}{idx.path}", data,
                                       why="Claude Code's MEMORY.md index, kept beside the entries"))
        result.files.append(report)
    carried = {foreign.path for foreign in source.foreign}
    for foreign in source.foreign:
        # A file memconv kept (``.memconv/files/``, ``.memconv/quarantine/``) keeps the name that hides a ``.md``
        # from Claude Code, which loads every Markdown file of the folder, hidden ones too: the reader gave it
        # back its own name, and an upgrade in place is still a Claude folder (``a.md.kept``, not ``a.md``).
        path, said = foreign.path, []
        if (too_long := kept_too_long(path, claude.KEPT_SUFFIX)) is not None:
            # (a 251-255-byte .md name, from an output written before .kept was: 256-260 bytes refused the whole
            # upgrade, exit 4; set aside as a conversion sets it aside, dialects.passed_through)
            aside = quarantine_path(path, carried, QUARANTINE_DIR, claude.KEPT_SUFFIX)
            if aside is not None:
                carried.add(aside)
                path = aside
                said.append(f"{too_long}; kept aside at {prefix}{kept_name(aside, claude.KEPT_SUFFIX)}")
        kept_at = f"{prefix}{kept_name(path, claude.KEPT_SUFFIX)}"
        out.foreign.append(ForeignFile(kept_at, foreign.raw, why=foreign.why))
        result.files.append(FileReport(source=foreign.path, target=kept_at, status="foreign", warnings=said))
    taken = {f"{prefix}{path}" for path in carried}  # the names the kept copies above have as their own
    for q in source.quarantined:
        # Carried where it was, untouched: an upgrade never drops or rewrites what it cannot read.
        # A name no file may have everywhere ('\\') goes to the quarantine folder, spelled as there, never over a
        # copy kept above, and named as every kept copy is (a.md.kept: Claude Code and recall read a.md).
        kept_at = f"{prefix}{kept_name(q.path, claude.KEPT_SUFFIX)}"
        if unportable(q.path) is not None:
            aside = quarantine_path(q.path, taken, QUARANTINE_DIR, claude.KEPT_SUFFIX)
            taken.add(aside)
            kept_at = kept_name(aside, claude.KEPT_SUFFIX)
        out.foreign.append(ForeignFile(kept_at, q.raw, why=f"could not be read: {q.reason}"))
        where = f"line {q.line}: " if q.line else ""
        result.files.append(FileReport(source=q.path, target=kept_at, status="quarantined",
                                       warnings=[f"{where}{q.reason}; carried unchanged"]))
    # The reader's warnings (broken index links) are already in the index's own report above.
    return result


def _relink_text(items: list[tuple], renamed: dict[str, str], report: FileReport) -> list[tuple] | None:
    """An index's layout ``items`` with the links its own lines write (a paragraph, a numbered list, a table: its
    ``text`` items) renamed as a memory's body links are, outside code; None when none names a renamed memory.

    Claude Code loads those lines as it loads the link lines: one that still named ``feedback_x.md`` pointed at
    nothing once the upgrade named the file ``lesson_x.md``. Code is found in the index as a whole (a fence spans
    lines), so the rule is asked of all its lines at once, and only the text lines are taken from its answer.
    """
    if not renamed or not any(item[0] == "text" and ("[[" in item[1] or ".md" in item[1]) for item in items):
        return None
    lines = [line for item in items for line in (item[-1] if item[0] == "inline" else [item[-1]])]
    text, changed = rewrite_links("\n".join(lines), renamed, file_links=True)
    if not changed:
        return None
    new, n, out, said = text.split("\n"), 0, [], False
    for item in items:
        if item[0] == "text" and new[n] != item[1]:
            report.changes.extend(f"line {n + 1}: link {c}"
                                  for c in rewrite_links(item[1], renamed, file_links=True)[1])
            item, said = ("text", new[n]), True
        out.append(item)
        n += len(item[-1]) if item[0] == "inline" else 1
    return out if said else None


def _inline_entry(bullet: str, prefix: str, taken: set[str]) -> tuple[Record, IndexLink]:
    """An inline bullet of the index as a canonical memoir fact, and the index line that links it.

    Its name and description are its words (markdown links reduced to their text), its body
    the bullet as written; its file name is ``fact_<slug>``, numbered when taken.
    """
    plain = flat(MARKDOWN_LINK.sub(r"\1", bullet)).replace("`", "")
    title = title_of(plain)
    wanted = f"fact_{slug(title)}"
    name, n = wanted, 2
    while name.lower() in taken:
        name, n = f"{wanted}-{n}", n + 1
    taken.add(name.lower())
    entry = Record(kind="fact", link=name, title=title.replace("\n", " "), description=plain,
                   body=bullet.strip() + "\n")
    link = IndexLink(title=title.replace("\n", " "), target=f"{name}.md")
    return entry, link


#: Text fields that may quote the body (``how_to_apply`` ← its section), so may hold links too.
_LINKED_TEXT = ("description", "trigger", "how_to_apply", "why", "rejected")


def _relink_record(record: Record, renamed: dict[str, str], report: FileReport) -> None:
    record.body, changed = rewrite_links(record.body, renamed, file_links=True)
    report.changes.extend(f"link {c}" for c in changed)
    for name in _LINKED_TEXT:
        value = getattr(record, name)
        if value is not None:
            new, changed = rewrite_links(value, renamed, file_links=True)
            if changed:
                setattr(record, name, new)
                report.changes.extend(f"link in {name} {c}" for c in changed)
    edges = []
    for edge in record.edges:
        # Followed as the body's links are, in the form written: `x`, `x#part`, `x.md`, `./x.md`, `x.md#part`.
        new = renamed_link_target(edge.target, renamed, file_links=True)
        if new is not None and new != edge.target:
            report.changes.append(f"{edge.type} {edge.target} → {new}")
            edge = Edge(edge.type, new, edge.note, edge.direction)
        edges.append(edge)
    record.edges = edges


def _converted(record: Record, path: str, new: str, renamed: dict[str, str], report: FileReport) -> Record:
    """A canonical memoir record, written over the file's own frontmatter lines.

    The memoir writer keeps every line of a key whose value did not change
    (quotes, list indentation, line endings), so the upgrade's diff is the
    keys Appendix A moves and nothing else.
    """
    layout = record.source.layout
    source = Source(dialect="memoir", path=path, version=1, raw=None,
                    layout=memoir_entries.MemoirEntryLayout(_read_alike(layout.frontmatter, report), layout.text))
    entry = dataclasses.replace(record, link=new, source=source, extra=dict(record.extra),
                                edges=list(record.edges), lifecycle=dataclasses.replace(record.lifecycle))
    for name in layout.derived:  # a key the upgrade adds (a lesson's rule from its body): one line, as memoir reads it
        value = getattr(entry, name)
        if name in memoir.ONE_LINE_FIELDS and isinstance(value, str):
            setattr(entry, name, on_one_line(value))
    if entry.title is None:
        entry.title = bodies.first_title(entry.body) or record.link
        report.changes.append(f"name ← {'first # heading' if bodies.first_title(entry.body) else 'file name'}")
    if entry.description is None:
        report.warnings.append("no description: indexes and pickers will not show this entry well")
    _relink_record(entry, renamed, report)
    return entry


def _read_alike(fm: fmx.Frontmatter | None, report: FileReport) -> fmx.Frontmatter | None:
    """``fm`` without the value of each text key whose own line memoir-cli reads otherwise than YAML
    (``name: "Use \\"x\\""``: it reads no escape) where memconv's quoting (``frontmatter.scalar``) is read alike
    by both: the memoir writer then writes that key anew, in its place (``frontmatter.patch``). Every other line
    stays as the person wrote it, a text no quoting says alike (a line break; both ``'`` and ``"``) too."""
    if fm is None or fm.chunks is None:
        return fm
    misread = list(dict.fromkeys(chunk.key for chunk in fm.chunks if chunk.key is not None
                                 and isinstance(value := fm.values.get(chunk.key), str)
                                 and fmx.memoir_cli_reads(chunk.lines[0]) != value
                                 and fmx.memoir_cli_reads(f"{chunk.key}: {fmx.scalar(value)}") == value))
    if not misread:
        return fm
    report.changes.extend(f"{key}: quoted as memoir-cli reads it (it reads no escape)" for key in misread)
    return fmx.Frontmatter({k: v for k, v in fm.values.items() if k not in misread}, fm.chunks, fm.open_line,
                           fm.close_line, fm.close_newline, fm.gap)


def _kept_canonical(record: Record, path: str, new: str, renamed: dict[str, str], report: FileReport) -> Record:
    entry = memoir_entries.read_entry(record.source.raw, path, new)
    _relink_record(entry, renamed, report)
    return entry


def _kept_as_written(record: Record, path: str, new: str, renamed: dict[str, str], report: FileReport) -> Record:
    """The file's own bytes, with only its links renamed, read back as a memoir (opaque) entry."""
    raw = record.source.raw
    relinked, changed = rewrite_links(record.body, renamed, file_links=True)
    if changed:
        text, text_layout = decode(raw, record.source.path)
        head = text[: len(text) - len(record.body)]
        raw = encode(head + relinked, text_layout)
        report.changes.extend(f"link {c}" for c in changed)
    return memoir_entries.read_entry(raw, path, new)


__all__ = ["TARGET", "Upgrade", "upgrade", "canonical_problems"]
