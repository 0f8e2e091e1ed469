"""Errors as values a user can act on: which file, which line, what to do."""

from __future__ import annotations


class MemconvError(Exception):
    """Base of every error memconv raises on purpose. Never shown as a traceback."""

    #: Exit status the CLI uses for this error.
    exit_code = 4

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")


class ReadError(MemconvError):
    """One file could not be read. Readers turn it into a quarantine entry."""

    def __init__(self, path: str, problem: str, *, line: int | None = None, hint: str | None = None):
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}", hint=hint)
        self.path = path
        self.problem = problem
        self.line = line


class StoreError(MemconvError):
    """The store as a whole cannot be used (missing, not this dialect…)."""


class WrongDialect(StoreError):
    """IN is not the dialect named (or a command cannot tell which store to read): a usage error."""

    exit_code = 2


class OutputError(MemconvError):
    """OUT cannot be written as asked (not empty, unsafe path…)."""


class UsageError(MemconvError):
    """The command line asks for something memconv refuses to do (IN and OUT overlap, an empty path…)."""

    exit_code = 2


class Unstreamable(Exception):
    """A conversion run as its final write asks met a record that the target's writer cannot hold after all: the
    final write has already taken it among the store's records, so the run starts again, the whole store held
    (not a :class:`MemconvError`: no user sees it; the command line starts again)."""
