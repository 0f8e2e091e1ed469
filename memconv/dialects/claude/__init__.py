"""The claude dialect: a Claude Code memory folder (``~/.claude/projects/<slug>/memory/``).

The store root is the memory folder itself: ``MEMORY.md`` (the index Claude
Code loads) beside one markdown file per memory, in any of the legacy shapes
of memoir spec Appendix A or Claude Code's current one. Files in subfolders,
and anything that is not markdown, are carried byte for byte.

A folder read and written back is byte-identical, ``MEMORY.md`` included. A
store from elsewhere is written in Claude Code's current format with a
generated ``MEMORY.md`` linking every entry (see ``docs/claude.md``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import ReadError, StoreError
from ...fs import list_files
from ...model import ForeignFile, IndexSection, Quarantined, Record, Store
from .. import Detection, Names, fold, unportable
from . import body, entries, index
from .entries import CLAUDE_TYPES, READ_AS, read_entry, write_entry
from .index import PATH as INDEX_PATH
from .index import is_index_path, read_index, write_index

NAME = "claude"


def is_entry_path(path: str) -> bool:
    """A memory file: markdown at the top of the folder that is not an index."""
    return path.endswith(".md") and "/" not in path and not is_index_path(path)


def _marks(head: str) -> tuple[bool, bool, bool]:
    """(claude-looking, legacy shape, memoir-canonical-looking) for the first bytes of a file.

    Claude Code's current shape is top-level ``type`` in its four words; the
    legacy shapes are a bare file and ``type``/``originSessionId`` nested
    under ``metadata``.
    """
    if not head.startswith("---"):
        return True, True, False  # a bare file: a legacy claude memory
    for line in head.split("\n")[1:]:
        if line.startswith("---"):
            break
        if line.startswith("type:"):
            value = line[5:].strip().strip("'\"")
            return value in CLAUDE_TYPES, False, value not in CLAUDE_TYPES
        if line.startswith("metadata:") or line.startswith("originSessionId:"):
            return True, True, False
    return False, False, False


def detect(root: Path) -> Detection | None:
    if not root.is_dir():
        return None
    files = list_files(root)
    names = [p for p in files if is_entry_path(p)]
    has_index = INDEX_PATH in files
    claude_like = legacy = other = 0
    for path in names[:200]:
        head = (root / path).read_bytes()[:2048].decode("utf-8", "replace").lstrip("\ufeff")
        looks, old, canonical = _marks(head)
        claude_like += looks
        legacy += old
        other += canonical
    if not has_index and not claude_like:
        return None
    sampled = claude_like + other
    confidence = (0.6 if has_index else 0.3) + (0.35 * claude_like / sampled if sampled else 0.0)
    evidence = f"{len(names)} memory file(s)" + (", MEMORY.md index" if has_index else ", no MEMORY.md")
    hint = None
    if legacy:
        hint = f"{legacy} file(s) in a legacy Claude Code shape; `memconv upgrade` turns the folder into canonical memoir"
    elif claude_like:
        hint = "`memconv upgrade` turns this folder into a canonical memoir store"
    return Detection(NAME, "legacy" if legacy else "current", min(confidence, 1.0), evidence, hint)


def read(root: Path) -> Store:
    """Read a Claude Code memory folder. Unreadable files are quarantined, never guessed at."""
    if not root.is_dir():
        raise StoreError(f"{root}: no such folder", hint="give the path of a Claude Code memory folder")
    files = list_files(root)
    present = set(files)
    store = Store(dialect=NAME)
    for path in files:
        raw = (root / path).read_bytes()
        if (why := unportable(path)) is not None:
            store.quarantined.append(Quarantined(path=path, raw=raw, reason=why))
            continue
        try:
            if is_entry_path(path):
                store.records.append(read_entry(raw, path, path[:-3]))
            elif "/" not in path and is_index_path(path):
                idx = read_index(raw, path, present)
                store.indexes.append(idx)
                _warn_broken(store, idx)
            else:
                store.foreign.append(ForeignFile(path, raw))
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))
    return store


def _warn_broken(store: Store, idx) -> None:
    for line, target in index.broken_links(idx):
        store.warnings.append(f"{idx.path}:{line}: links to {target}, which is not in the folder (kept as written)")


def written_type(record: Record) -> str | None:
    """The Claude Code ``type`` word ``record`` is (or would be) written with."""
    source = record.source
    layout = source.layout if source is not None and source.dialect == NAME else None
    pairs = entries.frontmatter_pairs(record, layout)
    word = pairs.get("type")
    meta = pairs.get("metadata")
    if not isinstance(word, str) and isinstance(meta, dict):
        word = meta.get("type")
    return word if isinstance(word, str) else None


#: An index's name as a case-insensitive file system sees it: ``memory.md``, ``memory-2.md``.
_INDEX_NAME = re.compile(r"memory(?:-[0-9]+)?\.md")


def write(store: Store) -> dict[str, bytes]:
    """The files of ``store`` as a Claude Code memory folder: relative path → bytes."""
    files: dict[str, bytes] = {}
    placed: list[tuple[str, Record]] = []
    # MEMORY.md and its pages are the index's names: a record never takes one.
    names = Names(reserved=lambda path: is_index_path(path) or _INDEX_NAME.fullmatch(fold(path)) is not None)
    for record in store.records:
        source = record.source
        own = source is not None and source.dialect == NAME
        path = names.place(source.path if own else f"{record.link}.md", own=own)
        files[path] = write_entry(record)
        placed.append((path, record))
    store.warnings.extend(w for w in names.warnings() if w not in store.warnings)
    own = [i for i in store.indexes if i.source is not None and i.source.dialect == NAME]
    if own:
        for idx in own:
            files[idx.path] = write_index(idx)
    elif placed or store.indexes:
        pages, warnings = index.generate([(path, record, written_type(record)) for path, record in placed])
        for other in store.indexes:  # inline memory from an index of another dialect: content, keep it
            for section in other.sections:
                if section.inline:
                    pages[0].sections.append(IndexSection(heading=section.heading or "Notes",
                                                          inline=list(section.inline)))
        for page in pages:
            files[page.path] = write_index(page)
        store.warnings.extend(w for w in warnings if w not in store.warnings)
    for foreign in store.foreign:
        files.setdefault(foreign.path, foreign.raw)
    return files


__all__ = ["NAME", "detect", "read", "write", "body", "entries", "index", "READ_AS", "written_type"]
