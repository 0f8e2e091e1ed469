"""What a conversion gives: the converted store and what happened to every record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..model import Store
from ..report import FileReport


@dataclass
class Conversion:
    """A converted store and what happened to every record."""

    store: Store
    #: One entry per record: where it came from and went, what went native, carried or dropped.
    records: list[FileReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: id(record) → the dialect a restored record belongs to, its owner (it keeps its link and kind there).
    owners: dict[int, str] = field(default_factory=dict)
    #: id(record) → the fields of a restored record edited in the dialect read (the edit won).
    edited: dict[int, list[str]] = field(default_factory=dict)
    #: id(record) → (its file as read, the dialect read, the fields edited there): the warning
    #: :func:`edits_said` made of them is said anew when home's writer cannot hold one (forward._count_unwritten).
    edits_warned: dict[int, tuple[str, str, list[str]]] = field(default_factory=dict)
    #: A warning said when the conversion was planned → what it says once the records are written (a streamed
    #: run's report took the first already: the pipeline says the second in its place).
    restated: dict[str, str] = field(default_factory=dict)
    #: id(record) → fields a restored record brought from the dialect read that its home can neither hold nor
    #: show (anchors on an entry kept whole): its report counts them dropped.
    lost: dict[int, list[str]] = field(default_factory=dict)
    #: id(record) of restored records whose lifecycle state was changed in the dialect read
    #: (retracted, retired…) → the file it was read from: that edit wins over the state they had at home.
    state_edited: dict[int, str] = field(default_factory=dict)
    #: id(record) of the converted store's records that arrive from another dialect (not home again): a
    #: writer keeping a hand-written index links them there (Occasion.arrived).
    arrived: set[int] = field(default_factory=set)
    #: id(record) of the converted store's records home again (their owner is the target): named by their link
    #: as at home, they keep that name there (Occasion.home).
    home: set[int] = field(default_factory=set)
    #: id(record) of restored records that were a rendering (an inline bullet, an index's words) edited in
    #: the dialect read: they come home as entries of their own, new to their folder, so they arrive too.
    split_off: set[int] = field(default_factory=set)
    #: Links of the records of a store whose hand-written index travels in a store note (a Claude folder's
    #: entries), as the note lists them: home again, a record of one of these links is not new to the
    #: folder, carry or none (a canonical entry carries nothing), so it does not arrive.
    members: set[str] = field(default_factory=set)
    #: The link of a record read that is no memory in the target → where it is instead (the working set's rendering,
    #: restored as the working set): a written record linking it is said (``forward._say_links_to_notes``).
    elsewhere: dict[str, str] = field(default_factory=dict)
    #: id(record) of the converted store's records → what the target's writer renders for it, made from
    #: the read-back's rendering (the target's ``splice``): the final write takes it instead of rendering
    #: the record again, and lets it go once written (docs/performance.md, "the splice").
    rendered: dict[int, Any] = field(default_factory=dict)
    #: id(record) of the converted store's records let go but for what the writer reads of a spliced record
    #: (its ``SPLICED_READS``): only their ``rendered`` entry can write them, so the files are read once.
    let_go: set[int] = field(default_factory=set)
    #: The link a record that wears a carry was read by → the record as read, what a line of the index read beside
    #: it says of it (a memory home is named otherwise, Claude's ``user_commit-style`` memoir's
    #: ``preference_commit-style``, and may have no key for its hook; the working set's rendering and a rendering its
    #: index says again are no record home). Asked whether an index says more than its memories
    #: (``store_facts.carried_indexes``), and by the records of its words; let go once the indexes are read.
    read_as: dict[str, Any] = field(default_factory=dict)
    #: Restored records the conversion does not keep (a rendering its index says again, a carry claiming an owner
    #: that cannot hold it), which the tables above may name by id(): held to its end, so that no record made after
    #: one is let go takes its identity. (One did: a memory written by hand in the target, linking a restored one,
    #: came home with the owner of a rendering let go before it, and kept a name that was not its target's.)
    identities: list[Any] = field(default_factory=list)
    #: The rest of a conversion run as the final write asks for it (``lazy``): advanced to ``i``, the native
    #: record ``out.records[i]`` is read back and carried, its ``rendered`` entry made; once it is exhausted, the
    #: notes, the working set's and the store's are in the store and the report is whole. None: all done.
    pending: Iterator[int] | None = None
    #: With ``pending``, for a target whose writer takes a conversion's records one at a time: the native records
    #: (:class:`~memconv.converters.read_back.Natives`), held packed until the read-back asks for each; the final
    #: store's records are these, in order, then ``store.records`` (the working set's). None: ``store.records``.
    natives: Any = None


def edits_said(where: str, dialect: str, won: list[str], dropped: list[str] = (), home: str = "") -> str:
    """The one warning of a record home again with fields edited in ``dialect``: those ``won``, and those
    ``dropped`` because ``home``'s files have no place for them (a tag added to a bare Claude memory). One thing
    said of each field: the report said the edit won, and then that the same field was dropped."""
    said = []
    if won:
        said.append(", ".join(won) + " — the edit wins, the carried copies were dropped")
    if dropped:
        said.append(", ".join(dropped) + f" — {home}'s files have no place for them: the edit is dropped")
    return f"{where}: edited in {dialect}: " + "; ".join(said)
