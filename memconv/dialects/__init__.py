"""The dialects memconv reads and writes, one module (or package) each.

Each is registered by an entry point of the group ``memconv.dialects``, the
built-ins too (``pyproject.toml``); a plugin is another distribution that
declares one (``docs/plugins.md``). :func:`registry` reads them once.

The contract a dialect module keeps is :mod:`memconv.dialects.protocol`: the
typed ``Protocol`` :class:`~memconv.dialects.protocol.Dialect` (what every
dialect has) and its optional declarations, each with its default
(:func:`declaration`, :func:`declarations`). In short, every dialect module
provides:

``NAME``
    The dialect's name on the command line (``memoir``).
``detect(root: Path, seen: evidence.Folder | None = None) -> Detection | None``
    Whether ``root`` holds a store of this dialect, cheaply, on real evidence
    only (see :mod:`memconv.dialects.evidence`). ``seen`` lets every dialect
    share one listing of the folder.
``read(root: Path) -> Store``
    Files in, model out. Runs the dialect's migration ladder. Files it cannot
    read become ``Store.quarantined`` entries; it raises ``StoreError`` only
    when ``root`` is not a store of this dialect at all.
``write(store: Store, context: Occasion | None = None) -> dict[str, bytes]``
    Model in, files out, in memory: POSIX relative path → bytes. Pure, so the
    CLI can compare (``check``), plan (``--dry-run``) or write atomically: the
    occasion (:class:`~memconv.dialects.protocol.Occasion`) gives the day it
    may stamp and hears its warnings (None: from the records, on ``store.warnings``).
    Store-level facts a writer needs (memoir ``layout``, memspec ``prefix``,
    memfmt ``root``…) come from ``store.meta`` whatever the store's dialect:
    a converted store carries only the facts of its target's own dialect.
``iter_write(store, render=None, context=None) -> Iterator[tuple[str, bytes]]`` (optional)
    The same files one at a time, each rendered when the stream reaches it,
    so a run never holds the whole output (``pipeline.Plan``). Names are
    chosen when it is called. ``render`` is a ``map(fn, records)`` that may
    run in other processes (``--jobs``, :mod:`memconv.jobs`); ``write`` is
    ``dict(iter_write(store, context=context))``.

A dialect knows nothing of the others: a dialect package
(``dialects/<d>/`` and its ladder ``migrations/<d>/``) imports no other
dialect's package, no private name of another module, and nothing above it
(converters, CLI, pipeline). What two dialects share lives in a shared module
beside them: the memoir spec §3 frontmatter ↔ record mapping that memoir and
claude both read and write with is :mod:`memconv.dialects.entry_frontmatter`.
``tests/test_dialect_packages_stand_alone.py`` holds this line (see
``docs/plugins.md``).
"""

from __future__ import annotations

import importlib
import itertools
import unicodedata
import warnings
from collections import deque
from collections.abc import Iterator, Mapping
from importlib import metadata
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Protocol

from ..errors import StoreError
from ..fs import QUARANTINE_DIR, no_folder

#: The entry point group a dialect registers in (``pyproject.toml``; ``docs/plugins.md``).
GROUP = "memconv.dialects"
#: The built-in dialects, in the order every list of dialects shows them; plugins follow, by name.
BUILTINS = {
    "memoir": "memconv.dialects.memoir",
    "claude": "memconv.dialects.claude",
    "memspec": "memconv.dialects.memspec",
    "memfmt": "memconv.dialects.memfmt",
}

_registry: dict[str, str] | None = None


def _load() -> dict[str, str]:
    """Dialect name → module, from the ``memconv.dialects`` entry points of every installed distribution.

    The built-ins come first, in :data:`BUILTINS` order, then plugins sorted by
    name. A built-in whose own entry point is missing (memconv run from a
    source tree that was never installed) is still registered: its module is
    known. A plugin may not take a built-in's name, nor a name another plugin
    took first (distributions in name order), and its value must be a module
    (``pkg.mod``, not ``pkg.mod:attr``): each refusal is a warning naming the
    distribution, and the rest load.
    """
    plugins: dict[str, str] = {}
    points = sorted(metadata.entry_points(group=GROUP),
                    key=lambda ep: (ep.name, ep.dist.name if ep.dist else "", ep.value))
    for ep in points:
        source = f"the distribution {ep.dist.name!r}" if ep.dist else "an installed distribution"
        if ep.name in BUILTINS:
            if ep.value != BUILTINS[ep.name]:
                warnings.warn(f"memconv: ignoring the dialect plugin {ep.name} = {ep.value!r} of {source}: "
                              f"{ep.name!r} is a built-in dialect, and a plugin may not replace it; "
                              "rename the plugin's entry point", RuntimeWarning, stacklevel=3)
        elif ":" in ep.value or not ep.value:
            warnings.warn(f"memconv: ignoring the dialect plugin {ep.name} = {ep.value!r} of {source}: "
                          "the entry point must name a module (pkg.module), not an attribute", RuntimeWarning,
                          stacklevel=3)
        elif ep.name in plugins:
            if plugins[ep.name] != ep.value:
                warnings.warn(f"memconv: ignoring the dialect plugin {ep.name} = {ep.value!r} of {source}: "
                              f"another plugin already registered {ep.name!r} ({plugins[ep.name]})",
                              RuntimeWarning, stacklevel=3)
        else:
            plugins[ep.name] = ep.value
    return {**BUILTINS, **dict(sorted(plugins.items()))}


def registry() -> dict[str, str]:
    """Dialect name → module: the built-ins, then the installed plugins. Looked up once, then cached."""
    global _registry
    if _registry is None:
        _registry = _load()
    return _registry


def clear_registry() -> None:
    """Forget the cached registry: the next look-up reads the installed entry points again (tests)."""
    global _registry
    _registry = None


class _Modules(Mapping[str, str]):
    """:func:`registry` as a read-only mapping, looked up when first used (``import memconv`` stays cheap)."""

    def __getitem__(self, name: str) -> str:
        return registry()[name]

    def __contains__(self, name: object) -> bool:
        # Asked of values read from IN (a carry's or a note's "from"): a list or a mapping is no dialect's name,
        # not a TypeError (unhashable) that ended the run as a bug.
        return isinstance(name, str) and name in registry()

    def __iter__(self) -> Iterator[str]:
        return iter(registry())

    def __len__(self) -> int:
        return len(registry())

    def __repr__(self) -> str:
        return f"MODULES({registry()!r})"


#: Dialect name → module that implements it: the built-ins, then the plugins (:func:`registry`).
MODULES: Mapping[str, str] = _Modules()


@dataclass
class Detection:
    """What a dialect's ``detect`` says of a folder."""

    dialect: str
    #: The dialect's version (or generation) of what was found, if known.
    version: str | int | None
    #: 0..1: how sure. Several dialects may claim a folder; the surest wins.
    confidence: float
    #: What was seen, for the user: "memory/ with 12 entries, session.json v1".
    evidence: str
    #: A suggestion when the folder looks like something else too.
    hint: str | None = None
    #: Where the store's root really is, if not the folder given.
    root: Path | None = None
    #: Where in the folder the store's files are: ``./``, ``memory/``, ``.memspec/``.
    #: Two confident detections at different places are two stores side by side.
    where: str = "./"

    def elsewhere(self, given: Path) -> bool:
        """Whether the store is not the folder given but one inside it (a Claude project's ``memory/``)."""
        return self.root is not None and self.root != given


#: A detection at least this sure is a store of its own (``several stores`` needs two of them).
STRONG = 0.5
#: A detection this sure outweighs a weak one (below :data:`STRONG`) of another dialect on the same files.
CONFIDENT = 0.8


@dataclass
class Survey:
    """What ``detect`` concludes of a folder: every dialect's opinion, and the finding."""

    root: Path
    #: Every detection, surest first.
    found: list[Detection]
    #: How many files the folder holds (VCS folders skipped).
    files: int

    @property
    def stores(self) -> list[Detection]:
        """The surest strong detection at each place in the folder, surest first."""
        best: dict[str, Detection] = {}
        for d in self.found:
            if d.confidence >= STRONG and d.where not in best:
                best[d.where] = d
        return list(best.values())

    @property
    def finding(self) -> str:
        """``nothing``, ``one store`` or ``several stores``."""
        if not self.found:
            return "nothing"
        return "several stores" if len(self.stores) > 1 else "one store"

    def describe(self) -> str:
        """The finding in one sentence, for messages."""
        why = no_folder(self.root)
        if why is not None:
            return why
        if not self.files:
            return "the folder is empty"
        if not self.found:
            return (f"no memory store here: {self.files} file(s), none with a mark of "
                    + ", ".join(available()) + " (a Markdown file alone is not a memory)")
        if self.finding == "several stores":
            return "several stores here: " + "; ".join(f"{d.dialect} at {d.where} ({d.evidence})" for d in self.stores)
        best = self.found[0]
        return f"this is a {best.dialect} store ({best.evidence})"


def available() -> list[str]:
    """Names of the dialects whose module is present in this install (and imports, and keeps the contract)."""
    names = []
    for name in MODULES:
        try:
            _import(name)
        except _Absent:
            continue
        except StoreError:
            pass  # a plugin that fails to import: _broken says why, once
        if _broken(name) is None:
            names.append(name)
    return names


def _broken(name: str) -> str | None:
    """Why the module of dialect ``name`` is not a dialect (a warning, once), or None when it is one."""
    try:
        get(name)
    except StoreError as exc:
        if name not in _warned:
            _warned.add(name)
            warnings.warn(f"memconv: ignoring {exc.message}", RuntimeWarning, stacklevel=3)
        return exc.message
    return None


_warned: set[str] = set()


def get(name: str) -> ModuleType:
    """The module of dialect ``name``; a clear error when there is none, or when a plugin's module is
    not a dialect (:func:`memconv.dialects.protocol.problems`: what it lacks, for its author)."""
    if name not in MODULES:
        raise StoreError(f"unknown dialect {name!r}", hint="choose one of " + ", ".join(MODULES))
    module = _import(name)
    if module not in _kept:
        from .protocol import problems

        wrong = problems(module, name)
        if wrong:
            raise StoreError(f"the dialect plugin {name} ({MODULES[name]}) does not keep memconv's dialect "
                             "contract: " + "; ".join(wrong), hint="see docs/plugins.md, 'The contract'")
        _kept.add(module)
    return module


#: Dialect modules :func:`get` has checked against the contract (each once per process).
_kept: set[ModuleType] = set()


class _Absent(StoreError):
    """A dialect whose module is not there at all (a built-in this version lacks, a plugin uninstalled)."""


def _import(name: str) -> ModuleType:
    """The module of dialect ``name``, imported. A plugin's module that fails to import (a dependency missing,
    an error in its code) is a :class:`StoreError` saying why, remembered so that it is tried once per registry:
    the plugin is refused as one that breaks the contract is, and the rest load. A built-in's failure is
    memconv's own bug, raised as it is."""
    module = MODULES[name]
    now = registry()
    if _unimportable[0] is not now:
        _unimportable[:] = [now, {}]
    failed = _unimportable[1].get(name)
    if failed is not None:
        raise StoreError(failed, hint=_REINSTALL)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise _Absent(f"the {name} dialect is not implemented in this version of memconv") from None
        if name in BUILTINS:
            raise
        why: Exception = exc
    except Exception as exc:  # anything a plugin's code raises as it is imported
        if name in BUILTINS:
            raise
        why = exc
    failed = f"the dialect plugin {name} ({module}) could not be imported: {type(why).__name__}: {why}"
    _unimportable[1][name] = failed
    raise StoreError(failed, hint=_REINSTALL) from None


_REINSTALL = "install what the plugin needs, or uninstall its distribution: the other dialects work without it"
#: The plugins that failed to import, by name, for the registry they were tried in: ``[registry, {name: why}]``.
_unimportable: list[Any] = [None, {}]


def declaration(name: str, member: str) -> Any:
    """What dialect ``name`` declares as ``member`` (an optional member of the contract), or its default."""
    table = declarations(member)
    if name in table:
        return table[name]
    from .protocol import declared

    return declared(get(name), member)  # not available: get says why


def declarations(member: str) -> dict[str, Any]:
    """Every available dialect's ``member`` (declared, or its default), in the registry's order."""
    global _declarations
    registry_now = registry()
    if _declarations[0] is not registry_now:
        _declarations = (registry_now, {})
    table = _declarations[1]
    if member not in table:
        from .protocol import declared

        table[member] = {name: declared(get(name), member) for name in available()}
    return table[member]


_declarations: tuple[object, dict[str, dict[str, Any]]] = (None, {})


def detect_all(root: Path) -> list[Detection]:
    """Every dialect's opinion of ``root``, surest first."""
    return survey(root).found


def survey(root: Path) -> Survey:
    """Every dialect's opinion of ``root`` from one listing of it, and what they add up to."""
    from .evidence import Folder

    seen = Folder(root)
    found = []
    for name in available():
        try:
            detection = get(name).detect(root, seen)
            if detection is not None and not isinstance(detection, Detection) and name not in BUILTINS:
                raise TypeError(f"detect returned {type(detection).__name__}, not a Detection or None")
        except Exception as exc:  # a plugin's code: not this dialect, said once; a built-in's is memconv's bug
            if name in BUILTINS:
                raise
            if name not in _detect_failed:
                _detect_failed.add(name)
                warnings.warn(f"memconv: the dialect plugin {name} ({MODULES[name]}) failed to detect: "
                              f"{type(exc).__name__}: {exc}; taken as not a {name} store (report it to the "
                              "plugin's author)", RuntimeWarning, stacklevel=2)
            continue
        if detection is not None:
            found.append(detection)
    found.sort(key=lambda d: -d.confidence)
    result = Survey(root, found, len(seen.files))
    if result.finding == "several stores":
        # Each store is surely there, but which one the folder "is" nobody can say.
        for d in found:
            d.confidence = min(d.confidence, STRONG)
    return result


#: The plugins whose ``detect`` raised, each said once per process (:func:`survey`).
_detect_failed: set[str] = set()


def failed_plugin(exc: BaseException) -> StoreError | None:
    """The error to say for ``exc``, an exception memconv did not expect, when a dialect plugin's own code raised
    it: its ``read``, ``write``, ``iter_write``, a ladder step, anything it runs once chosen (docs/plugins.md, "The
    contract"). The innermost frame of the traceback that is memconv's or a plugin's decides (a frame of the
    standard library, ``json.loads`` in a plugin's reader, does not): a plugin's, and it is that plugin's failure,
    said with its name, its module and the exception, for its author; memconv's (a built-in dialect, or memconv
    code a plugin called), and it stays memconv's own bug: None. Asked once, when the command has failed, so a
    conversion pays nothing for it."""
    if _registry is None:  # no dialect was looked up: no plugin's code ran
        return None
    plugins = {module: name for name, module in _registry.items() if name not in BUILTINS}
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_globals.get("__name__") or "")
        tb = tb.tb_next
    for module in reversed(frames):
        owner = module
        while owner and owner not in plugins:
            owner = owner.rpartition(".")[0]
        if owner:
            name = plugins[owner]
            return StoreError(f"the dialect plugin {name} ({owner}) failed: {type(exc).__name__}: {exc}",
                              hint="this is a bug in the plugin, not in memconv: report it to the plugin's author "
                                   "(nothing half-written was left)")
        if module == "memconv" or module.startswith("memconv."):
            return None
    return None


# --- names every dialect's reader and writer share ---------------------------------------------------


def unportable(path: str) -> str | None:
    """Why a file of IN at ``path`` cannot be converted for its name alone; None when it can.

    A ``\\`` is a folder separator on Windows: such a file cannot be written
    under its own name everywhere, so every reader quarantines it (check,
    convert, migrate and upgrade alike), and the rest of the store converts.
    """
    if "\\" in path:
        return ("its name holds a '\\', a folder separator on Windows; rename the file "
                "(memconv keeps it in quarantine, unconverted)")
    return None


def fold(path: str) -> str:
    """The name a case-insensitive, normalising file system (macOS, Windows) sees for ``path``: ``path`` itself when
    it is already that name (a writer keeps the folded name of every file it places, and most are their own)."""
    folded = unicodedata.normalize("NFC", path).casefold()
    return path if folded == path else folded


def index_line_shares(link: Any, record: Any) -> None:
    """``link`` (an :class:`~memconv.model.IndexLink`), an index's line for ``record``'s file, made to hold the
    record's own strings where it says the same: its file name, its title (Claude Code writes a memory's name there,
    memfmt an entity's H1) and its hook (Claude Code's: the description). A store read held each twice, to the end
    of a conversion (about 250 bytes an entry; docs/performance.md, "(thirty-fifth)"). The same text, one copy:
    nothing read or written changes. For a reader that reads its index before the files it links."""
    if record.source is not None and link.target == record.source.path:
        link.target = record.source.path
    if link.title == record.title:
        link.title = record.title
    if link.hook is not None and link.hook == record.description:
        link.hook = record.description


def kept_folder(name: str, store: Any) -> str:
    """The folder of a ``name`` store's folder (``store``) its reader reads, where memconv keeps its own files for a
    later run to read (quarantined originals, an import record): its ``kept_root``, else its ``NOTES_ROOT``."""
    root = declaration(name, "kept_root")
    return root(store) if root is not None else declaration(name, "NOTES_ROOT")


def quarantine_folder(name: str, store: Any) -> str:
    """Where in OUT a ``name`` store (``store``, the one written) keeps quarantined originals: ``.memconv/quarantine``
    in its :func:`kept_folder`, so that a later run reads and carries them. memspec's reader reads only
    ``.memspec/``: a copy beside it was lost by the next conversion."""
    return f"{kept_folder(name, store)}{QUARANTINE_DIR}"


def in_quarantine(path: str) -> bool:
    """Whether ``path`` is where :func:`quarantine_folder` keeps a copy, for some dialect."""
    return any(path.startswith(f"{root}{QUARANTINE_DIR}/") for root in {"", *declarations("NOTES_ROOT").values()})


def passed_through(store: Any, written: WrittenNames, suffix: str = "",
                   quarantine: str = QUARANTINE_DIR) -> Iterator[tuple[str, bytes]]:
    """The files of ``store`` no dialect reads (``store.foreign``), after a writer's own: each path
    once, and never over a file the writer wrote (``written``, which gains their paths: a set, or the
    writer's :class:`Names`). ``suffix``: what the name of a ``.md`` file memconv keeps gains (the dialect's
    ``KEPT_SUFFIX``; claude: ``.md.kept``; :func:`fs.kept_name`). ``quarantine``: the folder a file set aside goes
    in (its :func:`quarantine_folder`).

    A file whose name is taken (one the writer wrote, or that folds to one, or memconv's manifest) is
    kept aside, at ``.memconv/quarantine/<path>``, and a warning on ``store.warnings`` says where: a
    file carried from IN (``.memconv/files/<dialect>/MEMORY.md``, crafted or not) was dropped in
    silence (docs/limits.md). So is one whose name, given ``suffix``, would pass the file-name limit (a
    251-255-byte ``.md`` name of IN): it stopped the whole run, exit 4. The same path twice is one file, passed once.
    """
    from ..fs import MANIFEST, kept_name, kept_too_long, quarantine_path

    def named(path: str) -> str:
        return kept_name(path, suffix)

    passed: set[str] = set()
    folded: set[str] | None = None
    for foreign in store.foreign:
        path = foreign.path
        if path in passed:
            continue
        passed.add(path)
        if folded is None:
            # The names written that fold as a file passed through does, found in one pass: a table of every name
            # written, folded, took 4 MB at 100,000 records at the run's end, its peak (docs/performance.md).
            passing = {fold(f.path) for f in store.foreign}
            folded = {q for p in written if (q := fold(p)) in passing} | {fold(MANIFEST)}
        too_long = kept_too_long(path, suffix)
        if too_long or fold(path) in folded:
            # (set aside under a name no file written takes, folded: every one is asked of, as seldom as this is)
            aside = quarantine_path(path, _Folded(folded.union(map(fold, written))), quarantine, suffix)
            why = too_long or "a file carried from IN has the name of a file written here"
            said = (f"{path}: {why}; " +
                    (f"kept aside at {named(aside)}" if aside is not None
                     else "its name is not safe to write, so no copy was kept"))
            if said not in store.warnings:
                store.warnings.append(said)
            if aside is None:
                continue
            store.aside[path] = aside
            path = aside
        written.add(path)
        folded.add(fold(path))
        yield named(path), foreign.to_write  # a store note written a piece at a time (model.Pieces)


def rendered_as_named(records: Iterator[Any], name: Callable[[Any], Any], render: Callable | None,
                      function: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
    """(``name(record)``, what ``render`` gives of ``function`` for it) for each of ``records``, in order: a
    ``write_each``'s records, each named as the render map (``--jobs``, the splice; by default ``map``) asks for
    it, so that a name depends only on the names given before it, whatever the map reads ahead."""
    named: deque[Any] = deque()

    def naming() -> Iterator[Any]:
        for record in records:
            named.append(name(record))
            yield record

    for made in (render or map)(function, naming()):
        yield named.popleft(), made


class WrittenNames(Protocol):
    """The files a writer wrote, by name, as :func:`passed_through` asks of them: a set, :class:`Names`, or the
    writer's own table."""

    def __iter__(self) -> Iterator[str]: ...

    def add(self, path: str) -> None: ...


class _Folded:
    """Names given out, as :func:`fs.quarantine_path` asks whether one is taken: a name is, when its folded form is."""

    def __init__(self, folded: set[str]):
        self.folded = folded

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and fold(path) in self.folded


class Names:
    """File names a writer has given out, so that no two land on one file anywhere.

    Two names that differ only in case or Unicode normalisation (``Abc``,
    ``abc``; NFC ``é``, NFD ``é``) are one file on macOS and Windows. A name
    already taken that way gets a numbered suffix (``fact_abc-2.md``), and a
    warning says so.
    """

    def __init__(self, reserved: Callable[[str], bool] = lambda path: False):
        #: Every name given out, folded (:func:`fold`) → the name as it was given out (the same string where a name
        #: is its own folded form, as most are): one table a name a record, where a set of each held them twice,
        #: 8 MB of a 100,000-entry conversion's peak (docs/performance.md). A name given out that folds to one
        #: given before (a record's own file, kept: :attr:`clashes`) is there.
        self._given: dict[str, str] = {}
        self._reserved = reserved
        #: (wanted, given, why): "index" (a name the dialect keeps), "same" (given out as written), or "fold".
        self.renamed: list[tuple[str, str, str]] = []
        self.clashes: list[str] = []

    def place(self, path: str, own: bool = False) -> str:
        """``path``, or a numbered variant no name given out so far folds to.

        ``own``: the file is the record's own, read from this dialect (or home
        again, named by its link as it was there): it keeps its name (it is
        already so in IN, and the round trip is byte for byte), and a clash is
        only reported. A name the dialect keeps for itself (its index) is never
        kept so, nor one already given out as it is written (two records claiming
        one file: a crafted carry's format patch can name another record's file;
        before, both were written there and the run ended with exit 4): only a
        crafted carry can bring one home.
        """
        wanted, folded = path, fold(path)
        given = self._given.get(folded) == path or path in self.clashes  # given out as it is written
        why = "index" if self._reserved(path) else "same" if given else "fold"
        if own and why == "fold":  # neither the dialect's own name nor one given out: it is kept
            if folded in self._given:
                self.clashes.append(path)
            else:
                self._given[folded] = path
            return path
        stem, dot, ext = wanted.rpartition(".")
        if not dot or "/" in ext:
            stem, ext = wanted, ""
        # ``-2``, or ``_2`` where ``-2`` is reserved too (``MEMORY-2.md`` is an index page's name).
        candidates = (f"{stem}{sep}{n}{'.' + ext if ext else ''}" for n in itertools.count(2) for sep in "-_")
        while folded in self._given or self._reserved(path):
            path = next(candidates)
            folded = fold(path)
        self._given[folded] = path
        if path != wanted:
            self.renamed.append((wanted, path, why))
        return path

    def add(self, path: str) -> None:
        """``path``, written as it is beside the names :meth:`place` gave (a file of the writer's own, such as an index,
        or one passed through): it is one of the names given out from now on."""
        if self._given.setdefault(fold(path), path) != path:
            self.clashes.append(path)

    def __len__(self) -> int:
        return len(self._given) + len(self.clashes)

    def __iter__(self) -> Iterator[str]:
        """Every name given out, as given: a writer's files, by name, without a table of their own."""
        yield from self._given.values()
        yield from self.clashes

    def warnings(self) -> list[str]:
        return [written_as(wanted, path, why) for wanted, path, why in self.renamed] + [
                kept_clash(path) for path in self.clashes]


def written_as(wanted: str, given: str, why: str) -> str:
    """What is said of a name numbered (:attr:`Names.renamed`'s ``why``): a file's, or a link the conversion numbered
    because a record home again keeps it (``converters.forward``), in the one rule's words."""
    return f"{wanted} is written as {given}: " + (
        "that name is the dialect's own (its index)" if why == "index" else
        "another record is written under that very name" if why == "same" else
        "another file has that name but for case or Unicode normalisation, and the two would be "
        "one file on macOS and Windows")


def kept_clash(path: str) -> str:
    """What a writer says of a file it keeps under a name that folds to another's (:meth:`Names.place`, ``own``)."""
    return (f"{path} differs from another file only in case or Unicode normalisation: kept as it is, "
            "but the two are one file on macOS and Windows")
