"""What ``detect`` may count as evidence of a dialect, read once per file.

A folder is a store of a dialect only when something in it is that
dialect's own mark; a Markdown file by itself is nobody's (a README, a
``docs/`` page). The marks, in the words of the formats:

* memoir — ``session.json`` holding a session object, or an entry whose
  frontmatter ``type`` is one of the six memoir types;
* claude — a ``MEMORY.md`` index (not memfmt's), or an entry with Claude
  Code's frontmatter: ``type`` (top level or under ``metadata``) one of
  ``user``, ``feedback``, ``project``, ``reference``, or an
  ``originSessionId``;
* memspec — a ``.memspec/`` folder (or the folder itself);
* memfmt — a file whose frontmatter carries ``memfmt_type`` (or
  ``mengram_type``).

Bare files (no frontmatter) are legacy Claude entries only in a folder that
already shows one of the marks above; alone they prove nothing.

:class:`Folder` lists a folder and reads each file's first bytes at most
once, however many dialects ask: ``detect_all`` hands the same one to all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import MemconvError
from ..fs import list_files, read_bytes

#: How much of a file ``detect`` reads: enough for any real frontmatter's type line.
HEAD_BYTES = 2048
#: How many entry files one dialect samples (the rest are counted, not read).
SAMPLE = 200

_KEY = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*:(.*)$")
_NESTED_KEY = re.compile(r"^[ \t]+([A-Za-z_][\w.-]*)[ \t]*:(.*)$")


@dataclass(frozen=True)
class Head:
    """The frontmatter at the top of a file, as far as ``detect`` needs it."""

    #: Whether the file opens with a ``---`` frontmatter fence (after a byte-order mark).
    frontmatter: bool
    #: Top-level ``key: scalar`` pairs, quotes taken off; a block value is ``""``.
    keys: dict[str, str] = field(default_factory=dict)
    #: ``key: scalar`` pairs nested under ``metadata:``.
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def type_word(self) -> str | None:
        """``type`` at the top level, else under ``metadata``."""
        return self.keys.get("type") or self.metadata.get("type") or None


def _scalar(text: str) -> str:
    value = text.strip()
    if " #" in value and not value.startswith(("'", '"')):
        value = value.split(" #", 1)[0].rstrip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value


def parse_head(raw: bytes) -> Head:
    """The frontmatter keys in the first bytes of a file (``raw`` may be cut anywhere)."""
    text = raw[:HEAD_BYTES].decode("utf-8", "replace").lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return Head(False)
    keys: dict[str, str] = {}
    metadata: dict[str, str] = {}
    block = None
    for line in lines[1:]:
        if line.rstrip() in ("---", "..."):
            break
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        top = _KEY.match(line)
        if top:
            block = top.group(1)
            keys.setdefault(block, _scalar(top.group(2)))
            continue
        nested = _NESTED_KEY.match(line)
        if nested and block == "metadata":
            metadata.setdefault(nested.group(1), _scalar(nested.group(2)))
    return Head(True, keys, metadata)


class Folder:
    """One folder as ``detect`` sees it: its files listed once, each file's head read once."""

    def __init__(self, root: Path):
        self.root = root
        self._files: list[str] | None = None
        self._raw: dict[str, bytes] = {}
        self._heads: dict[str, Head] = {}
        #: path → whether ``memconv upgrade`` rewrites it (memoir and claude both ask, in a flat folder).
        self.upgradable: dict[str, bool] = {}

    @property
    def files(self) -> list[str]:
        """Every file under the folder (VCS folders skipped), sorted."""
        if self._files is None:
            self._files = list_files(self.root) if self.root.is_dir() else []
        return self._files

    def raw_head(self, path: str) -> bytes:
        if path not in self._raw:
            try:  # read like every reader: no link out of the folder, no FIFO, no device
                self._raw[path] = read_bytes(self.root, path, head=HEAD_BYTES)
            except (MemconvError, OSError):
                self._raw[path] = b""  # unreadable: no evidence of anything (the reader refuses it by name)
        return self._raw[path]

    def head(self, path: str) -> Head:
        if path not in self._heads:
            self._heads[path] = parse_head(self.raw_head(path))
        return self._heads[path]

    def sub(self, prefix: str) -> list[str]:
        """The files under ``prefix`` (``"memory/"``), relative to it."""
        return [p[len(prefix):] for p in self.files if p.startswith(prefix)] if prefix else list(self.files)


# --- memoir and Claude Code entries: the same files, two readings ---------------------

@cache
def _words() -> tuple[frozenset[str], frozenset[str]]:
    """(memoir's six types, Claude Code's four), from the dialects that own them."""
    from .claude.entries import CLAUDE_TYPES
    from .entry_frontmatter import TYPES

    return frozenset(TYPES), frozenset(CLAUDE_TYPES)


@dataclass
class Entries:
    """What the Markdown entry files of one folder say about themselves (a sample of them)."""

    #: Entry files in the folder (all of them, not only the sample).
    total: int = 0
    #: Frontmatter ``type`` one of memoir's six: a canonical memoir entry.
    memoir: int = 0
    #: Claude Code's frontmatter (its type words, or ``originSessionId``).
    claude: int = 0
    #: … of which in a legacy shape: ``type`` under ``metadata``, or an ``originSessionId``.
    claude_legacy_shape: int = 0
    #: … of which ``memconv upgrade`` turns into a canonical memoir entry (by its own rule).
    upgradable: int = 0
    #: No frontmatter at all: a legacy entry where the folder is a memory folder, else just a page.
    bare: int = 0
    #: Frontmatter with none of the marks above.
    other: int = 0

    @property
    def typed(self) -> int:
        return self.memoir + self.claude


def entries(where: Folder, paths: list[str]) -> Entries:
    """Count the memoir and Claude Code marks on ``paths`` (files of ``where``), sampling the first :data:`SAMPLE`."""
    memoir_types, claude_types = _words()
    found = Entries(total=len(paths))
    for path in paths[:SAMPLE]:
        head = where.head(path)
        if not head.frontmatter:
            found.bare += 1
            continue
        top = head.keys.get("type")
        word = head.type_word
        if top in memoir_types:
            found.memoir += 1
        elif word in claude_types or (word is None and "originSessionId" in head.keys):
            found.claude += 1
            legacy_shape = not top or "originSessionId" in head.keys or "originSessionId" in head.metadata
            found.claude_legacy_shape += legacy_shape
            if path not in where.upgradable:
                where.upgradable[path] = _upgradable(where, path, word)
            found.upgradable += where.upgradable[path]
        elif word is None and "originSessionId" in head.metadata:
            found.claude += 1
            found.claude_legacy_shape += 1
        else:
            found.other += 1
    return found


def _upgradable(where: Folder, path: str, word: str | None) -> bool:
    """Whether ``memconv upgrade`` rewrites this Claude entry as a canonical memoir one.

    Asked of the upgrade's own rule (read as Appendix A says, then the memoir
    schema's checks), not guessed: it keeps dossiers, broken frontmatter and
    lessons without **How to apply:** as written, and a second upgrade changes
    nothing, so detect must not send the user back to it for those.
    """
    if word not in ("user", "feedback", "reference"):
        return False
    from .claude.entries import read_entry
    from .entry_frontmatter import canonical_problems

    try:
        record = read_entry(read_bytes(where.root, path), path, path.rsplit("/", 1)[-1][:-3])
    except (MemconvError, OSError):
        return False
    return not record.opaque and not canonical_problems(record)


def is_claude_index(where: Folder, path: str) -> bool:
    """``MEMORY.md`` that is Claude Code's index, not memfmt's generated one."""
    head = where.head(path)
    return "memfmt_type" not in head.keys and "mengram_type" not in head.keys


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
