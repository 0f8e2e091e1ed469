"""Format patches: how a file differed from what its own dialect would write.

A record read from a hand-written file (quoted values, no blank line after
the frontmatter, a comment) means the same as its canonical rendering but is
not the same bytes. So that converting there and back gives the user their
file, the conversion carries a *format patch*: the line edits that turn the
canonical rendering of the record into the original file. On the way back the
record is rendered canonically again; if that rendering is the one the patch
was made against (the record was not edited on the way), the patch rebuilds
the original bytes, and the record's own reader gives it its source again, so
its writer reuses the file. An edited record gets the layout of the file the
patch rebuilds on its new rendering, and its writer writes it in that layout
(:func:`rebuild_after_edit`; docs/conversion.md, "One formatting mechanism").

Patches are small for the usual quirks; the carried data is the difference,
not a copy of the file.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import re
from collections.abc import Sequence
from typing import Any, Iterator

from .. import dialects
from ..dialects import fold
from ..dialects.protocol import Occasion, iter_write_with
from ..errors import StoreError
from ..model import Packed, Record, Source, Store, unpacked
from ..text import short_digest
from .mapping import working_set_dialect

#: Index files a writer adds beside a record: ``MEMORY.md``, ``MEMORY-2.md``, ``memory/MEMORY.md``.
_INDEX = re.compile(r"(?:^|/)MEMORY(?:-\d+)?\.md$")


def _digest(data: bytes) -> str:
    return short_digest(data, 16)


def anew(record: Record) -> Record:
    """``record`` without its source, so that its writer renders it anew (writers change no record)."""
    copied = copy.copy(record)  # shallow: far cheaper than dataclasses.replace, which runs __init__
    copied.source = None
    return copied


@contextlib.contextmanager
def sources_aside(records: list[Record | Packed]) -> Iterator[list[Source | None]]:
    """``records`` with no source while the block runs, so that a writer renders them anew; each
    record's source is given back after, however the block ends (a writer changes no record).
    The block is given the sources set aside, in the order of ``records``. A record held packed is
    left as it is: :class:`Anew` makes it again with no source.

    The whole store's worth of :func:`anew` copies cost a kilobyte per record at the peak of a
    conversion (docs/performance.md).
    """
    sources = [record.source for record in records]
    for record in records:
        if record.__class__ is not Packed:
            record.source = None
    try:
        yield sources
    finally:
        for record, source in zip(records, sources):
            if record.__class__ is not Packed:
                record.source = source


class Anew(Sequence):
    """``records`` as a writer renders them anew, inside :func:`sources_aside`: a record as it is (its source set
    aside), a record held packed made again with no source each time it is asked for, and let go by the writer once
    rendered. Making every packed record at once would hold the store whole again (docs/performance.md,
    "(thirty-ninth)"; memfmt's were, to "(forty-third)"). A writer knows them by place, never by identity."""

    __slots__ = ("records",)

    def __init__(self, records: list[Record | Packed]):
        self.records = records

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [_without_source(r) for r in self.records[i]]
        return _without_source(self.records[i])

    def __iter__(self) -> Iterator[Record]:
        return map(_without_source, self.records)


def _without_source(record: Record | Packed) -> Record:
    if record.__class__ is not Packed:
        return record
    made = record.record()
    made.source = None
    return made


def render_alone(dialect: str, record: Record) -> tuple[str, bytes] | None:
    """(path, bytes) the dialect's writer gives ``record`` with no source, or None if not one file."""
    try:
        files = dialects.get(dialect).write(Store(dialect="probe", records=[anew(record)]))
    except StoreError:
        return None
    # An empty file is structure, not the record (memspec keeps archive/ with one).
    own = [(p, b) for p, b in files.items() if b and not _INDEX.search(p)]
    return own[0] if len(own) == 1 else None


def written_anew(dialect: str, record: Record) -> bool:
    """Whether ``record``'s file is what ``dialect``'s writer gives it alone, anew, at its path (so it needs no patch).

    For one record at a time (:func:`patches` tells a whole group's at once)."""
    source = record.source
    alone = render_alone(dialect, record)
    return source is not None and alone is not None and alone[0] == source.path and source.holds(alone[1])


def make(canonical: tuple[str, bytes] | None, path: str, raw: bytes) -> dict[str, Any]:
    """The patch from ``canonical`` (path, bytes) to the original file ``raw`` at ``path``."""
    if canonical is None:
        return {"path": path, "raw": raw.decode("utf-8")}
    base = canonical[1].decode("utf-8").splitlines(keepends=True)
    want = raw.decode("utf-8").splitlines(keepends=True)
    ops = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, want, autojunk=False).get_opcodes():
        if tag == "delete":
            # A line each: where an edit puts a line among them (a key added), each is still found (rebuild_near).
            ops += [[i, i + 1, ""] for i in range(i1, i2)]
        elif tag != "equal":
            ops.append([i1, i2, "".join(want[j1:j2])])
    # What each change replaced of the rendering, and the lines before and after it, as digests (a copy of the lines
    # more than doubled the patches of the golden stores): where an edit the carry cannot undo moved the lines, the
    # change is found by them (rebuild_near).
    near = [f"{_near(base[i1 - 1]) if i1 else '-'}:{_near(''.join(base[i1:i2]))}:"
            f"{_near(base[i2]) if i2 < len(base) else '-'}" for i1, i2, _ in ops]
    return {"path": path, "base": _digest(canonical[1]), "ops": ops, "near": near}


def _near(text: str) -> str:
    """The short digest a format patch's ``near`` names lines by: enough to tell the lines of one file apart."""
    return short_digest(text, 6)


#: One entry of a format patch's ``near``: the digests of the line before a change (``-``: the file's start), of the
#: lines it replaced, and of the line after it (``-``: the file's end).
NEAR = re.compile(r"(-|[0-9a-f]{6}):([0-9a-f]{6}):(-|[0-9a-f]{6})")


def without(patch: dict[str, Any], lines: list[str]) -> dict[str, Any] | None:
    """``patch`` without the changes that write any of ``lines`` (text the original file held outside its format,
    taken out or edited in the target since): the rest of the original's layout still comes home, and those lines
    do not come back. None for a patch that is the whole file (nothing of it can be told apart)."""
    gone = {line.strip() for line in lines if isinstance(line, str) and line.strip()}
    if "ops" not in patch:
        return None
    kept = [n for n, op in enumerate(patch["ops"])
            if not (isinstance(op, list) and len(op) == 3 and isinstance(op[2], str)
                    and gone & {line.strip() for line in op[2].splitlines()})]
    trimmed = {**patch, "ops": [patch["ops"][n] for n in kept]}
    if isinstance(patch.get("near"), list):
        trimmed["near"] = [patch["near"][n] for n in kept if n < len(patch["near"])]
    return trimmed


def rebuild(canonical: tuple[str, bytes] | None, patch: dict[str, Any]) -> bytes | None:
    """The original file, or None when ``canonical`` is not what the patch was made against (an edit)."""
    if "raw" in patch:
        return patch["raw"].encode("utf-8")
    if canonical is None or _digest(canonical[1]) != patch.get("base"):
        return None
    return _apply_ops(canonical[1].decode("utf-8").splitlines(keepends=True), patch["ops"]).encode("utf-8")


def rebuild_moved(canonical: tuple[str, bytes] | None, before: tuple[str, bytes] | None,
                  patch: dict[str, Any]) -> bytes | None:
    """The patch applied to an edited record's canonical rendering where the edit moved its lines (a key taken out
    or added, a value now on more lines), or None.

    ``before`` is the canonical rendering of the record as it was before the edit; when it is the one the patch was
    made against, each change of the patch is moved to where its lines are in ``canonical`` (the lines both
    renderings hold alike, matched as a diff matches them). A change that touches lines the edit changed is left
    out: those lines are rendered as the writer renders them. None when ``before`` is not the patch's base, the
    edit moved no line, or the patch is one change over the whole file (a CRLF file's) that the edit moved lines
    inside: left out, nothing of the layout would come home.

    Like :func:`rebuild_after_edit`'s, the file is the layout the owner's writer renders the edited record in, not
    the record: its reader reads it, and the writer keeps the lines of every key whose value did not change.
    """
    if canonical is None or before is None or "ops" not in patch or _digest(before[1]) != patch.get("base"):
        return None
    old = before[1].decode("utf-8").splitlines(keepends=True)
    new = canonical[1].decode("utf-8").splitlines(keepends=True)
    if len(old) == len(new):
        return None  # nothing moved: the patch fits where it is (rebuild_after_edit)
    same = difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks()
    ops = []
    last = False  # the patch's last change placed
    for i1, i2, text in patch["ops"]:
        # The block of lines both hold that holds the change's lines; for an insertion, the line before it, else the
        # line after.
        block = next((b for b in same if b.a <= i1 and i2 <= b.a + b.size), None) if i1 < i2 \
            else next((b for b in same if b.a < i1 <= b.a + b.size), None) \
            or next((b for b in same if b.size and b.a == i1), None)
        last = block is not None
        if last:
            shift = block.b - block.a
            ops.append([i1 + shift, i2 + shift, text])
    if not ops and len(patch["ops"]) == 1 and patch["ops"][0][:2] == [0, len(old)]:
        # The file was one change (every line differs from its rendering: CRLF), and the edit moved lines inside it:
        # left out, not a line of its layout would come home (rebuild_after_edit places it where it was).
        return None
    return _apply_ops(new, ops, ended=last and patch["ops"][-1][1] == len(old)).encode("utf-8")


def rebuild_after_edit(canonical: tuple[str, bytes] | None, patch: dict[str, Any]) -> bytes | None:
    """The patch applied at the same lines of an edited record's canonical rendering, or None.

    This is not the record: it is a file in the original's layout (its key
    order, quoting, comments, blank lines, line ends), which the owner's reader
    reads so that its writer renders the edited record in that layout, keeping
    the lines of every key whose value did not change and rendering the rest.
    None when the patch does not fit the rendering (it has fewer lines).
    """
    if canonical is None or "ops" not in patch:
        return None
    lines = canonical[1].decode("utf-8").splitlines(keepends=True)
    ops = patch["ops"]
    if ops and ops[-1][1] > len(lines):
        return None
    return _apply_ops(lines, ops, ended=_ended(patch)).encode("utf-8")


def rebuild_near(canonical: tuple[str, bytes] | None, patch: dict[str, Any]) -> bytes | None:
    """The patch applied to an edited record's canonical rendering whose lines the edit moved, each change where the
    lines it replaced are found, between the lines that were before and after them (the patch's ``near``), or None.

    For an edit the carry holds no old value of (a description edited in memoir, which Claude holds too), so that the
    rendering as it was cannot be made (:func:`rebuild_moved`): a key added above (a Claude feedback memory's
    ``trigger``, no longer its description) put every change of the patch a line off, and the file came home
    canonical. A change is placed where its lines are once, told apart by the lines around it where they are more
    than once. A change that replaces lines, where the line after it does not follow it (its own lines edited, or
    lines added at their end), covers the lines between the line before it (found once) and the next line that is
    the line after it. Like :func:`rebuild_after_edit`'s, the file is a layout for the owner's writer, not the
    record. None where there is no ``near`` (a patch made before it was), where a change is found neither way (a
    change at the file's edge whose lines were edited: a file whose every line differs from its rendering, CRLF, is
    one change), or where nothing moved."""
    if canonical is None or "ops" not in patch or not isinstance(patch.get("near"), list):
        return None
    lines = canonical[1].decode("utf-8").splitlines(keepends=True)
    ops, near = patch["ops"], patch["near"]
    if len(near) != len(ops):
        return None
    placed: list[list[Any]] = []
    for (i1, i2, text), said in zip(ops, near):
        before, replaced, after = (None if d == "-" else d for d in NEAR.fullmatch(said).groups())
        at = _found(lines, i2 - i1, replaced, before, after)
        if i2 > i1 and (at is None or not _follows(lines, at + (i2 - i1), after)):
            # Its own lines edited (a key added among the unknown keys it wrote back), or lines added at their end (a
            # key added last), so that the line after them does not follow them, between two lines found once: it is
            # what stands between them, for the writer to render the edit in (rebuild_after_edit's rule).
            span = _between(lines, before, after)
            if span is not None and at in (None, span[0]):
                placed.append([*span, text])
                continue
        if at is None:
            return None  # (a change the edit touched: rebuild_after_edit places each where it was)
        placed.append([at, at + (i2 - i1), text])
    if any(placed[n - 1][1] > op[0] for n, op in enumerate(placed) if n) \
            or [op[:2] for op in placed] == [op[:2] for op in ops]:
        return None  # out of order, or nothing moved: the patch fits where it is (rebuild_after_edit)
    return _apply_ops(lines, placed, ended=_ended(patch)).encode("utf-8")


def _found(lines: list[str], size: int, replaced: str, before: str | None, after: str | None) -> int | None:
    """Where the ``size`` lines whose digest is ``replaced`` (none: the place of an insertion) are in ``lines`` once,
    told apart by the digests of the line ``before`` them and the line ``after`` them (None: the start, or the end,
    of the file); or None."""
    at = [n for n in range(len(lines) - size + 1) if _near("".join(lines[n:n + size])) == replaced]

    def fits(line: str | None, edge: int, beside: int) -> bool:
        return beside == edge if line is None else 0 <= beside < len(lines) and _near(lines[beside]) == line

    for keep in (lambda n: fits(before, -1, n - 1) and fits(after, len(lines), n + size),
                 lambda n: fits(before, -1, n - 1), lambda n: fits(after, len(lines), n + size)):
        found = [n for n in at if keep(n)]
        if len(found) == 1:
            return found[0]
    return at[0] if len(at) == 1 and size else None


def _follows(lines: list[str], n: int, after: str | None) -> bool:
    """Whether line ``n`` of ``lines`` is the one whose digest is ``after`` (None: ``n`` is the end of the file)."""
    return n == len(lines) if after is None else n < len(lines) and _near(lines[n]) == after


def _between(lines: list[str], before: str | None, after: str | None) -> tuple[int, int] | None:
    """The lines strictly between the one line whose digest is ``before`` and the first after it whose digest is
    ``after``, or None (either is the file's edge, ``before`` is not there once, or nothing follows it)."""
    if before is None or after is None:
        return None
    starts = [n for n, line in enumerate(lines) if _near(line) == before]
    if len(starts) != 1:
        return None
    end = next((n for n in range(starts[0] + 1, len(lines)) if _near(lines[n]) == after), None)
    return None if end is None else (starts[0] + 1, end)


def _ended(patch: dict[str, Any]) -> bool:
    """Whether the patch's last change reached the end of the original file (its ``near`` says so)."""
    near = patch.get("near")
    return isinstance(near, list) and len(near) == len(patch["ops"]) > 0 and str(near[-1]).endswith(":-")


def _apply_ops(lines: list[str], ops: list[list[Any]], ended: bool = False) -> str:
    """``ops`` applied to ``lines``. ``ended``: the last change reached the end of the original file, so the lines
    after it are lines the original did not have (added in the target, after an edit): they end as its last line
    does (a CRLF file's), not as the rendering does (LF), or the writer, reading its layout from here, keeps them so
    and the file comes home mixing both."""
    out: list[str] = []
    pos = 0
    for i1, i2, text in ops:
        out.extend(lines[pos:i1])
        out.append(text)
        pos = i2
    tail = lines[pos:]
    if ended and tail and ops[-1][2].endswith("\r\n"):
        tail = [line[:-1] + "\r\n" if line.endswith("\n") and not line.endswith("\r\n") else line for line in tail]
    out.extend(tail)
    return "".join(out)


def patches(groups: dict[str, list[Record]], every: list[Record] = ()) -> dict[int, dict[str, Any]]:
    """id(record) → its format patch, for every record whose file is not its canonical rendering.

    ``groups`` maps a dialect to records read from it (with their source).
    The whole group is rendered once; only records whose file differs are
    rendered alone to make their patch, and those whose name is the writer's
    numbering of another file's name (``every``: the records converted, in
    the groups or not).
    """
    found: dict[int, dict[str, Any]] = {}
    for dialect, group in groups.items():
        canonical = _canonical(dialect, group)
        numbered = _numbered_stem(dialect)
        stems: set[str] | None = None
        for record in group:
            source = record.source
            if id(record) in canonical:
                # Its name may be the writer's numbering (``Redis (2).md``, the second of one name): the way
                # back numbers in the order the target reads its records, so it names its path. Only a stem
                # whose unnumbered name another file of the dialect has can be: ``token-10057`` alone is a name.
                m = numbered.match(_stem(source.path))
                if m is None:
                    continue
                if stems is None:
                    stems = {fold(_stem(r.source.path)) for r in [*group, *every]
                             if r.source is not None and r.source.dialect == dialect}
                if fold(m.group("name")) not in stems:
                    continue
                alone = render_alone(dialect, unpacked(record))
                if alone is None or alone[0] == source.path:
                    continue
                found[id(record)] = make(alone, source.path, source.raw)
                continue
            found[id(record)] = make(render_alone(dialect, unpacked(record)), source.path, source.raw)
    return found


def _numbered_stem(dialect: str) -> re.Pattern[str]:
    """A file stem in the dialect's numbered form (``name (2)``, ``name-2``; its ``LINK_NAMING``)."""
    before, middle, after = dialects.declaration(dialect, "LINK_NAMING").numbered.split("{}")
    return re.compile(rf"{re.escape(before)}(?P<name>.+){re.escape(middle)}\d+{re.escape(after)}$")


def stem_of(dialect: str, path: str) -> str:
    """The folded stem of ``path``, unnumbered (``Redis (2).md``: ``redis``): the name it was made of."""
    stem = _stem(path)
    m = _numbered_stem(dialect).match(stem)
    return fold(m.group("name") if m else stem)


def _stem(path: str) -> str:
    return path.rpartition("/")[2].rpartition(".")[0]


def _canonical(dialect: str, group: list[Record]) -> set[int]:
    """id() of the records of ``group`` whose file is what their writer renders anew.

    The writer's files are compared one at a time as they are rendered: the whole
    group's rendering is never held (docs/performance.md). Nor is a copy of the
    group: for the rendering, each record's source is set aside and given back
    after (a writer changes no record), where a copy of every record without its
    source cost a kilobyte per record at the peak of a conversion.
    """
    module = dialects.get(dialect)
    same: set[int] = set()
    try:
        with sources_aside(group) as sources:  # rendered anew, as a record with no file of its own is
            at: dict[str, int | list[int]] = {}  # path → the index in ``group`` of its record (or indexes)
            for i, source in enumerate(sources):
                held = at.setdefault(source.path, i)
                if held != i:
                    at[source.path] = [*(held if isinstance(held, list) else [held]), i]
            probe = Store(dialect="probe", records=Anew(group))
            files = iter_write_with(module, probe, None, Occasion(records_only=True))  # no index: none is compared
            moved = False
            for path, data in files:
                found = at.get(path)
                if found is None:
                    moved = moved or bool(data)  # where no record was read (not a folder's empty placeholder)
                    continue
                for i in found if isinstance(found, list) else (found,):
                    if sources[i].holds(data):
                        same.add(i)
            if moved and same:
                same = _at_their_own_paths(dialect, probe, sources, same)
    except StoreError:
        return set()
    return {id(group[i]) for i in same}


def _at_their_own_paths(dialect: str, probe: Store, sources: list[Source], same: set[int]) -> set[int]:
    """The indexes of ``same`` whose record the writer put at its own source path.

    A file is matched to the record read from its path; once a record is named anew, another may be
    written at its path, in its very bytes (memfmt: an episode with no summary, ``episode.md``, reads
    as ``# untitled`` and is written ``untitled.md``; a blank one, ``unnamed.md``, is written
    ``episode.md`` as ``# untitled``). The first is then no file its writer gives back as it was: its
    path must be carried, or it comes home under another name, another link. Asked only when a record
    was written where none was read; the dialect's ``record_paths`` says which record went where
    (without it, the path is trusted: docs/conversion.md, "Left alone").
    """
    paths = dialects.declaration(dialect, "record_paths")
    if paths is None:
        return same
    where = paths(probe)
    return {i for i in same if where[i] == sources[i].path}


def working_set_patch(working_set) -> dict[str, Any] | None:
    """The format patch of a ``session.json`` read from disk, or None when it is in the reference layout."""
    from ..model import WorkingSet

    source = working_set.source
    if source is None or not source.has_raw:
        return None
    owner = working_set_dialect()
    if owner is None:
        return None
    canonical = owner.write_working_set(WorkingSet(document=working_set.document))
    if canonical == source.raw:
        return None
    return make((source.path, canonical), source.path, source.raw)


def restore_working_set(document: dict[str, Any], patch: dict[str, Any] | None):
    """The working set of ``document``, with its original ``session.json`` back where the patch applies."""
    from ..model import WorkingSet

    working_set = WorkingSet(document=document)
    if patch is None:
        return working_set
    owner = working_set_dialect()
    if owner is None:
        return working_set
    raw = rebuild((patch["path"], owner.write_working_set(working_set)), patch)
    if raw is None:
        return working_set
    try:
        again, _ = owner.read_working_set(raw, patch["path"])
    except Exception:  # noqa: BLE001 - a patch that no longer reads is simply not used
        return working_set
    return again if again.document == document else working_set
