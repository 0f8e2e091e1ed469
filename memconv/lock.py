"""A lock on a folder memconv rewrites in place, so two runs never interleave their read-modify-write.

The lock is an ``flock`` on ``.<name>.memconv-lock`` beside the folder. The
kernel releases it when its process dies, however it dies, so a lock left by a
killed run is never in the way (the file is merely reused). A second run does
not wait: it stops at once, exit 4, naming the pid that holds the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from .errors import OutputError
from .fs import display

_OPEN = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def lock_path(folder: Path) -> Path:
    """Where the lock of ``folder`` lives: beside the real folder (a symbolic link to it shares its lock)."""
    real = Path(os.path.realpath(folder))
    return real.parent / f".{real.name}.memconv-lock"


@contextlib.contextmanager
def held(folder: Path):
    """Hold the lock of ``folder`` for the block; an :class:`OutputError` at once if another run holds it."""
    path = lock_path(folder)
    while True:
        fd = os.open(path, _OPEN, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise OutputError(f"{display(str(folder))}: another memconv (pid {holder}) is rewriting it now",
                              hint="wait for that run to finish, then run again; nothing was changed") from None
        # The run that held it may have removed the file just before we locked it: lock the one at the path.
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield path
    finally:
        try:
            os.unlink(path)
        finally:
            os.close(fd)
