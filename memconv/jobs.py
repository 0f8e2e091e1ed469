"""``--jobs N``: per-record work spread over N processes, results in the order of the records.

Only work that depends on one record alone is spread, so the output is the same bytes as with one process: each
result lands at its record's place, whatever process made it, and the stream is written in the same order.

- :func:`renderer`: a writer's rendering of each record to bytes. The workers are forked from the running process,
  so they already hold the store: only record numbers go to them and only bytes come back (sending records out would
  cost about what rendering them does; docs/performance.md has the figures).
- :class:`Spread`: a conversion's read-back (converters/read_back.py). The writer renders each record here, as the
  read-back asks for it; its file goes to a worker, forked once the native records are made, which reads it as the
  target's reader does and makes the record's carry, and only the carry and a few names come back.
- :class:`Later`: one piece of work on the whole store (a conversion's format patches), in a worker forked before
  this process goes on with the next piece, which changes what the first would read.

A record whose work fails in a worker of the first two is done again here, in this process, so an error is raised
exactly as with ``--jobs 1``; what a :class:`Later` worker raises is raised here.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import itertools
import os
import signal
import weakref
from typing import Any, Callable, Iterator, Sequence

from .errors import StoreError

#: ``--jobs`` of the command running now; None means every core.
_jobs: contextvars.ContextVar[int | None] = contextvars.ContextVar("memconv_jobs", default=None)


def set_jobs(value: int | None) -> None:
    """The number of processes later renderings use (None: every core)."""
    _jobs.set(value)


@contextlib.contextmanager
def using(value: int | None):
    """``--jobs`` is ``value`` inside the block (None: as it was)."""
    if value is None:
        yield
        return
    token = _jobs.set(value)
    try:
        yield
    finally:
        _jobs.reset(token)


def current() -> int:
    """The number of processes to use now: ``--jobs``, or every core."""
    value = _jobs.get()
    return value if value is not None else default_jobs()


#: Records per task sent to a worker.
CHUNK = 64


def worth_spreading(count: int) -> bool:
    """Whether work on ``count`` records is spread over workers at all: fewer than two tasks' worth is done here."""
    return count >= 2 * CHUNK


def default_jobs() -> int:
    """The number of cores this process may use."""
    count = os.process_cpu_count() if hasattr(os, "process_cpu_count") else None
    if count is None:
        try:
            count = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            count = os.cpu_count()
    return max(1, count or 1)


def _can_fork() -> bool:
    """Whether workers can be forked: every POSIX system's ``multiprocessing`` has the ``fork`` start
    method, and none other has ``os.fork``. (``multiprocessing`` itself is imported only when workers
    start: with ``concurrent.futures``, a tenth of memconv's start-up, for a run that may need none.)"""
    return hasattr(os, "fork")


def renderer(jobs: int | None):
    """A ``map(fn, items)`` for the writers: ``None`` (the builtin, here) for one job, else a parallel one.

    The workers are started when the map is first read, and stopped when it ends or is dropped.
    """
    if jobs is None:
        jobs = current()
    if jobs <= 1 or not _can_fork():
        return None
    return _Parallel(jobs).map


def _worker_start(parent: int) -> None:
    """A worker renders and gives bytes back, nothing else: it never outlives the run, never prints, and
    leaves Ctrl-C and SIGTERM to the parent (which stops it on its way out)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:  # Linux: die with the parent, even when it is killed outright (SIGKILL leaves it no way out)
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(0)  # the parent is already gone
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # not the parent's pipes: whoever waits for its output must not wait for a worker
        os.dup2(devnull, fd)
    os.close(devnull)


@contextlib.contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM held back while the workers are forked, and raised again after.

    A signal whose handler runs inside one of ``os.fork``'s at-fork hooks (logging has one) raises
    there, where Python prints the exception and drops it: the run went on as if never stopped,
    with a traceback on stderr. Held back, it stops the run the usual way once the fork is over.
    """
    caught: list[int] = []
    saved = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum))
             for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(caught):
            signal.raise_signal(sig)


class _Parallel:
    def __init__(self, jobs: int):
        self.jobs = jobs

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """``fn`` over ``items`` in ``jobs`` processes; results in order, at most a few chunks ahead.

        Should a worker die, what it had not given back is done here: the same results, later.
        """
        items = items if isinstance(items, Sequence) else list(items)
        if not worth_spreading(len(items)):
            yield from map(fn, items)
            return
        # The workers are forked here, at the map's first read, and so hold the items: only their numbers go out.
        yield from Spread(lambda i: fn(items[i]), iter(range(len(items))), self.jobs)


#: The function the forked workers of :class:`Spread` run over each item sent them; set just before the fork.
_spread_fn: Callable[[Any], Any] | None = None


def _run_sent(items: list[Any]) -> list[tuple[bool, Any]]:
    return _run_here(_spread_fn, items)


def _run_here(fn: Callable[[Any], Any], items: list[Any]) -> list[tuple[bool, Any]]:
    out = []
    for item in items:
        try:
            out.append((True, fn(item)))
        except Exception:  # noqa: BLE001 — done again in its turn, where it raises as with one process
            out.append((False, None))
    return out


class Spread:
    """``fn`` over ``items`` in ``workers`` worker processes, results in order, ``CHUNK`` items a task. Each item is
    sent to a worker and its result sent back, so ``fn`` must take and give little (bytes in, a few strings out;
    or a number, for items the workers hold). The workers are forked when this is made, and so hold everything else
    as it is then: the items may be made as they are asked for (a writer's files, rendered here).

    An item whose ``fn`` fails in a worker, or that no worker is left to do, is given to ``here`` (by default
    ``fn``) in this process, in its turn. With no worker, or where workers cannot be forked, it is ``map`` with
    ``here``. The workers go once the last results are in hand, or at :meth:`close`.
    """

    def __init__(self, fn: Callable[[Any], Any], items: Iterator[Any], workers: int,
                 here: Callable[[Any], Any] | None = None):
        global _spread_fn
        self.fn, self.items, self.pool = fn, iter(items), None
        _live.add(self)
        self.here = here or fn  # what is done here with an item no worker did
        self.ahead = 4 * workers  # chunks under way: bounded, so items and results never pile up in memory
        if workers < 1 or not _can_fork():
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _spread_fn = fn
        try:
            self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                            initializer=_worker_start, initargs=(os.getpid(),))
            with _signals_held():  # the first submit forks every worker: now, while they may copy what is held
                self.pool.submit(int).result()
        except Exception:  # noqa: BLE001 — no worker to be had: every item is done here
            self.close()
        except BaseException:  # a Ctrl-C held over the fork, raised once it is over: the run stops, its workers too
            self.close()
            raise
        finally:
            _spread_fn = None

    def __iter__(self) -> Iterator[Any]:
        if self.pool is None:
            yield from map(self.here, self.items)
            return
        from concurrent.futures.process import BrokenProcessPool

        pending: collections.deque = collections.deque()
        done = False
        try:
            while True:
                while not done and len(pending) < self.ahead:
                    chunk = list(itertools.islice(self.items, CHUNK))
                    if not chunk:
                        done = True
                        break
                    future = None
                    if self.pool is not None:
                        try:
                            future = self.pool.submit(_run_sent, chunk)
                        except (BrokenProcessPool, RuntimeError):
                            self.close()
                    pending.append((chunk, future))
                if not pending:
                    break
                chunk, future = pending.popleft()
                results = None
                if future is not None:
                    try:
                        results = future.result()
                    except BrokenProcessPool:
                        self.close()
                    except Exception:  # noqa: BLE001 — cancelled (closed), or a result that cannot travel: done here
                        pass
                if done and not pending:
                    # Every result is in hand: the workers go now, not when the consumer lets go of this generator
                    # (zip stops one short of its end, and a finally run by the garbage collector turns a signal in
                    # that join into a printed traceback and a lost stop).
                    self.close()
                for offset, item in enumerate(chunk):
                    ok, value = results[offset] if results is not None else (False, None)
                    yield value if ok else self.here(item)
        finally:
            self.close()

    def close(self) -> None:
        """The workers stopped; what is left is done here."""
        pool, self.pool = self.pool, None
        if pool is not None:
            try:
                pool.shutdown(wait=True, cancel_futures=True)
            except OSError:  # at the interpreter's exit, its exit handler may have closed the pool's pipes first
                pass


#: Every :class:`Spread` not yet let go: a run stopped half-way (Ctrl-C in the main process's own work) leaves one
#: waiting at a ``yield``, held by a cycle until the garbage collector closes it, which at the interpreter's exit
#: printed a traceback. :func:`stop_all` closes them when a command ends.
_live: weakref.WeakSet = weakref.WeakSet()


def stop_all() -> None:
    """The workers of every spread still open stopped: for a command's end, whatever its status."""
    for spread in list(_live):
        spread.close()


class Later:
    """``fn()`` in a worker forked now, while this process goes on: :meth:`result` gives what it returned (or raises
    what it raised). The worker holds what this process holds now, so this process may change or let go of it
    meanwhile: ``fn`` is not held here once the worker has it. Only the result comes back (pickled, through a
    pipe), so ``fn`` should give little. With one job, or where workers cannot be forked, ``fn`` is run here, now.

    The worker is a bare fork, not a pool: a run stopped meanwhile (Ctrl-C) does not wait for it, and it dies with
    this process (:func:`_worker_start`).
    """

    def __init__(self, fn: Callable[[], Any], jobs: int):
        self.pid: int | None = None
        self.pipe: int | None = None
        self.value: Any = None
        if jobs > 1 and _can_fork():
            parent = os.getpid()
            read, write = os.pipe()
            with _signals_held():  # forked now, with what is held now
                pid = os.fork()
                if pid == 0:  # the worker, which never leaves this block: a signal held is not raised in it
                    try:
                        os.close(read)
                        _worker_start(parent)
                        _send(write, fn)
                    finally:
                        os._exit(0)
            os.close(write)
            self.pid, self.pipe = pid, read
            return
        self.value = fn()

    def result(self) -> Any:
        """What ``fn()`` returned, once the worker has given it."""
        if self.pid is None:
            value, self.value = self.value, None
            return value
        import pickle

        with os.fdopen(self.pipe, "rb") as given:
            self.pipe = None
            try:
                ok, value = pickle.load(given)
            except Exception:  # noqa: BLE001 — nothing, or half of it: the worker died
                ok, value = None, None
        self.close()
        if ok is None:
            raise StoreError("a --jobs worker stopped before it was done (killed, or out of memory?)",
                             hint="run again with --jobs 1")
        if not ok:
            raise value
        return value

    def close(self) -> None:
        """The worker stopped, its result or not."""
        pid, self.pid = self.pid, None
        if self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)


def _send(fd: int, fn: Callable[[], Any]) -> None:
    """``fn()``'s result, or what it raised, pickled into ``fd``: in a :class:`Later` worker."""
    import pickle

    try:
        try:
            given = pickle.dumps((True, fn()))
        except Exception as exc:  # noqa: BLE001 — raised in the parent instead
            try:
                given = pickle.dumps((False, exc))
            except Exception:  # noqa: BLE001 — an error that cannot travel: said as what it was
                given = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        with os.fdopen(fd, "wb") as out:
            out.write(given)
    except BaseException:  # noqa: BLE001 — the parent sees a pipe closed early, and says so
        pass
