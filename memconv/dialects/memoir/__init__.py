"""The memoir dialect (spec v0.1.2): ``memory/*.md`` entries and ``session.json``.

A store is a folder holding ``memory/`` and, usually, ``session.json``. The
reference tool also keeps entries straight in the host assistant's memory
folder, so a folder of entry files with no ``memory/`` inside is read as a
*flat* store, and written back the same way.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import ReadError, StoreError
from ...fs import list_files
from ...model import ForeignFile, Quarantined, Store
from .. import Detection, Names, unportable
from . import entries, session
from .entries import TYPES, read_entry, write_entry
from .session import read_session, write_session

NAME = "memoir"
ENTRY_DIR = "memory"

#: Legacy Claude Code frontmatter (spec Appendix A), a sign the folder is not canonical memoir.
_LEGACY_TYPES = ("user", "feedback", "reference", "project")


def _layout(root: Path) -> str:
    """``nested`` (``memory/`` inside) or ``flat`` (entries in the folder itself)."""
    return "nested" if (root / ENTRY_DIR).is_dir() or (root / session.PATH).is_file() else "flat"


def _entry_dir(layout: str) -> str:
    return f"{ENTRY_DIR}/" if layout == "nested" else ""


def _is_entry_path(path: str, layout: str) -> bool:
    prefix = _entry_dir(layout)
    if not path.startswith(prefix) or not path.endswith(".md"):
        return False
    name = path[len(prefix):]
    return "/" not in name and name != "MEMORY.md"


def detect(root: Path) -> Detection | None:
    if not root.is_dir():
        return None
    layout = _layout(root)
    prefix = _entry_dir(layout)
    files = [p for p in list_files(root) if _is_entry_path(p, layout)]
    canonical = legacy = 0
    for path in files[:200]:
        head = (root / path).read_bytes()[:2048].decode("utf-8", "replace")
        if not head.startswith("---"):
            legacy += 1
            continue
        nested_legacy = False
        for line in head.split("\n")[1:]:
            if line.startswith("---"):
                legacy += nested_legacy
                break
            if line.startswith("type:"):
                value = line[5:].strip().strip("'\"")
                canonical += value in TYPES
                legacy += value in _LEGACY_TYPES
                break
            # Only a sign of legacy if no top-level type follows (an upgraded entry keeps
            # metadata.node_type as an unknown key).
            nested_legacy |= line.startswith("metadata:") or line.startswith("originSessionId:")
    has_session = (root / session.PATH).is_file()
    version = None
    if has_session:
        try:
            from ...limits import load_json

            doc = load_json((root / session.PATH).read_bytes().decode("utf-8-sig"))
            version = doc.get("version", 0) if isinstance(doc, dict) else None
        except (ValueError, UnicodeDecodeError):
            version = "unreadable"
    if not canonical and not has_session:
        return None
    sampled = canonical + legacy
    confidence = (0.5 if has_session else 0.0) + (0.5 * canonical / sampled if sampled else 0.0)
    evidence = f"{prefix or './'} with {len(files)} entry file(s) ({canonical} canonical)"
    if has_session:
        evidence += f", session.json version {version!r}"
    hint = None
    if legacy:
        hint = (f"{legacy} file(s) use legacy Claude Code frontmatter; "
                "`memconv upgrade` rewrites them as canonical memoir")
    return Detection(NAME, version if version is not None else 1, min(confidence, 1.0), evidence, hint)


def read(root: Path) -> Store:
    """Read a memoir store. Files that cannot be read are quarantined, never guessed at."""
    if not root.is_dir():
        raise StoreError(f"{root}: no such folder", hint="give the path of a memoir store")
    layout = _layout(root)
    store = Store(dialect=NAME, meta={"layout": layout})
    for path in list_files(root):
        raw = (root / path).read_bytes()
        if (why := unportable(path)) is not None:
            store.quarantined.append(Quarantined(path=path, raw=raw, reason=why))
            continue
        try:
            if _is_entry_path(path, layout):
                link = path.rsplit("/", 1)[-1][:-3]
                record = read_entry(raw, path, link)
                store.records.append(record)
                if record.opaque:
                    store.warnings.append(f"{path}: not a canonical memoir entry; kept whole as an opaque entry")
            elif path == session.PATH:
                working_set, steps = read_session(raw, path)
                store.working_set = working_set
                store.migrations.extend(steps)
                _warn_session(store, working_set.document)
            else:
                store.foreign.append(ForeignFile(path, raw))
        except ReadError as exc:
            store.quarantined.append(Quarantined.because(exc, path, raw))
    return store


def _warn_renamed(store: Store, names: Names) -> None:
    store.warnings.extend(w for w in names.warnings() if w not in store.warnings)


def _warn_session(store: Store, document: dict) -> None:
    for key in ("created_at", "updated_at"):
        if key not in document:
            store.warnings.append(f"session.json: no {key!r}; left absent rather than invented")


def write(store: Store) -> dict[str, bytes]:
    """The files of ``store`` as a memoir store: relative path → bytes."""
    layout = store.meta.get("layout", "nested")
    prefix = _entry_dir(layout)
    files: dict[str, bytes] = {}
    names = Names(reserved=lambda path: path == session.PATH)
    for record in store.records:
        source = record.source
        own = source is not None and source.dialect == NAME
        path = names.place(source.path if own else f"{prefix}{record.link}.md", own=own)
        files[path] = write_entry(record)
    _warn_renamed(store, names)
    if store.working_set is not None:
        files[session.PATH] = write_session(store.working_set)
    for foreign in store.foreign:
        files.setdefault(foreign.path, foreign.raw)
    return files


__all__ = ["NAME", "detect", "read", "write", "entries", "session"]
