"""Progress on a terminal: a bar with counts and an ETA, for runs long enough to need one.

A no-op unless the CLI turns it on (:func:`enabled`), which it does only when
stderr is a terminal and neither ``--json`` nor ``--quiet`` was given. The
code that does the work says what it is doing and how far it got, and nothing
else::

    with progress.task("reading", total=len(paths)):
        for path in paths:
            ...
            progress.advance()

``total`` may be left out and given later by :func:`expect` (the listing of a
store knows how many files it holds before the reader reads them). A bar
appears only once its task has run for ``delay`` seconds (1 by default;
``MEMCONV_PROGRESS_DELAY`` overrides it), so quick runs print nothing, and it
is cleared when its task ends: the closing line of the report says the rest.

The bar is drawn by ``tqdm`` (docs/cli.md says why). The state lives in
context variables, so a test or a library caller running memconv in-process
never sees a bar it did not ask for. Work done in other threads reports
through the thread that waits for it (``advance`` there is a no-op unless the
context was copied).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import time
from typing import IO, Iterator

#: Seconds a task runs before its bar appears.
DEFAULT_DELAY = 1.0

_display: contextvars.ContextVar["_Display | None"] = contextvars.ContextVar("memconv_progress", default=None)
_bar: contextvars.ContextVar["object | None"] = contextvars.ContextVar("memconv_progress_bar", default=None)


class _Display:
    def __init__(self, stream: IO[str], delay: float):
        self.stream = stream
        self.delay = delay


def delay_from_env() -> float:
    """``MEMCONV_PROGRESS_DELAY`` (seconds, 0 shows the bar at once), else :data:`DEFAULT_DELAY`."""
    raw = os.environ.get("MEMCONV_PROGRESS_DELAY", "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_DELAY
    return value if value >= 0 else DEFAULT_DELAY


@contextlib.contextmanager
def enabled(stream: IO[str], delay: float | None = None) -> Iterator[None]:
    """Show bars on ``stream`` for the tasks started inside this block."""
    token = _display.set(_Display(stream, delay_from_env() if delay is None else delay))
    try:
        yield
    finally:
        _display.reset(token)


def show(stream: IO[str], delay: float | None = None) -> contextvars.Token:
    """Turn progress on for the rest of this context (the CLI's run); :func:`restore` undoes it."""
    return _display.set(_Display(stream, delay_from_env() if delay is None else delay))


def hide() -> contextvars.Token:
    """Turn progress off for the rest of this context; :func:`restore` undoes it."""
    return _display.set(None)


def restore(token: contextvars.Token) -> None:
    _display.reset(token)


def wanted(stream: IO[str], *, as_json: bool, quiet: bool) -> bool:
    """Whether a run should show progress: on a terminal, and neither ``--json`` nor ``--quiet``."""
    if as_json or quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def task(what: str, total: int | None = None, unit: str = "file", *, ticking: bool = False) -> Iterator[None]:
    """A unit of work with ``total`` steps (or unknown until :func:`expect`); a bar if progress is on.

    ``ticking``: a phase that may have no steps to count: the line shows how long it has run,
    redrawn every half second, so a long phase is never a silent terminal; once the work says how
    many steps it has (:func:`expect`: the converter counts its records), it is a bar with counts and
    an ETA.
    """
    display = _display.get()
    if display is None:
        yield
        return
    from tqdm import tqdm

    # A terminal that reports no size (a new pty: 0×0) gets 80×24; tqdm would draw nothing in 0 rows.
    sized = _sized(display.stream)
    bar = tqdm(total=total, desc=what, unit=unit, file=display.stream, delay=display.delay, leave=False,
               dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24,
               mininterval=0.2, smoothing=0.1, bar_format="{desc}… {elapsed}" if ticking else None)
    token = _bar.set(bar)
    stop = threading.Event()
    ticker = threading.Thread(target=_tick, args=(bar, display.delay, stop), daemon=True) if ticking else None
    if ticker is not None:
        ticker.start()
    try:
        yield
    finally:
        stop.set()
        if ticker is not None:
            ticker.join()
        _bar.reset(token)
        bar.close()


def _tick(bar, delay: float, stop: threading.Event) -> None:
    """Redraw ``bar`` every half second once ``delay`` has passed, until ``stop``."""
    if stop.wait(delay):
        return
    while True:
        bar.refresh()
        if stop.wait(0.5):
            return


def _sized(stream: IO[str]) -> bool:
    """Whether the terminal says how large it is (then tqdm follows its width)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return size.columns > 0 and size.lines > 0


def advance(n: int = 1) -> None:
    """``n`` more steps of the task under way done; nothing when there is no bar."""
    bar = _bar.get()
    if bar is not None:
        bar.update(n)


def expect(total: int) -> None:
    """The task under way has ``total`` steps, if it did not know yet (the first listing says; the
    converter says how many records it converts). A ticking line becomes a bar with counts and an ETA."""
    bar = _bar.get()
    if bar is not None and bar.total is None:
        bar.total = total
        if bar.bar_format is not None:  # a ticking line: redrawn now as a bar, if its delay has passed
            bar.bar_format = None
            if time.time() >= bar.start_t + bar.delay:  # tqdm's clock (start_t is a time.time())
                bar.refresh()
