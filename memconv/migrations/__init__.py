"""Migration ladders: one pure step from each version N to N+1, per dialect.

A ladder never guesses. A version older than the newest it knows is climbed
one step at a time; a version newer than the newest it knows, or one it cannot
read as a version at all, raises :class:`TooNew` or :class:`Unreadable`, and
the dialect's reader quarantines the file (original bytes kept, nothing
converted from it).

The ladders themselves live beside this module, a package per dialect and a
module per step (``memoir/session_v0_to_v1.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

#: One rung of a ladder: a version-N document → the version-N+1 document (pure).
LadderStep = Callable[[Any], Any]


class VersionProblem(Exception):
    """A version the ladder will not climb from. ``reason`` is one line for the user."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TooNew(VersionProblem):
    """Newer than the newest version this memconv knows: quarantine, never guess."""


class Unreadable(VersionProblem):
    """Not a version at all (``"2"``, ``1.5``, ``-1``): quarantine rather than assume."""


@dataclass(frozen=True)
class Ladder:
    """The known versions of one kind of file, and the steps between them."""

    #: What the ladder is for, in words: "memoir session.json".
    subject: str
    #: Known versions, oldest first; the last is current.
    versions: tuple[Any, ...]
    #: ``steps[v]`` takes a version-``v`` document to the next version.
    steps: Mapping[Any, LadderStep]
    #: One line per step for the report: ``describe[v]``.
    describe: Mapping[Any, str]

    @property
    def current(self) -> Any:
        return self.versions[-1]

    def check(self, version: Any) -> None:
        """Raise :class:`TooNew` unless ``version`` is one this ladder knows."""
        if version not in self.versions:
            raise TooNew(
                f"{self.subject} is version {version!r}; this memconv knows up to {self.current!r}"
                " — upgrade memconv to read it"
            )

    def climb(self, document: Any, version: Any) -> tuple[Any, list[str]]:
        """Take ``document`` from ``version`` to current. Returns it and what was done."""
        self.check(version)
        done = []
        index = self.versions.index(version)
        for v in self.versions[index:-1]:
            document = self.steps[v](document)
            done.append(self.describe[v])
        return document, done
