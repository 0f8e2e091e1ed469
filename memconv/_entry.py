"""The program's entry point: signals are handled from its first line, before the slow imports.

A Ctrl-C or SIGTERM while Python imports memconv (a few tenths of a second)
would otherwise end in a traceback. Once :mod:`memconv.cli` is loaded, its
``main`` takes over (exit statuses in docs/cli.md).
"""

from __future__ import annotations

import signal
import sys


#: Whether memconv.cli is loaded: from then on its own handlers speak while a command runs.
_loaded = False


def _stop(code: int, what: str) -> None:
    message = f"{what} as the command ended; the report above says what was done" if _loaded else \
        f"{what} while starting; nothing was read or written"
    if "--json" in sys.argv[1:]:
        from .report import Report  # small and quick: the report keeps its one shape (docs/report.md)

        report = Report(command="memconv", input="", exit_code=code, errors=[message],
                        error={"kind": "interrupted", "message": message, "hint": None, "path": None, "line": None})
        sys.stdout.write(report.to_json() + "\n")
    sys.stderr.write(f"memconv: stopped: {message}\n")
    sys.exit(code)


def _terminated(signum, frame) -> None:
    _stop(143, "terminated (SIGTERM)")


#: The cyclic collector's thresholds for a run (Python's are 700, 10, 10). A conversion holds the
#: whole store as records, which hold no reference cycles: each collection of the older generations
#: walks all of them for nothing. Collecting the youngest every 50,000 allocations instead of 700
#: saved 2.4% of the instructions of a 10,000-entry conversion; peak memory was the same
#: (docs/performance.md). Set here, for the program only: the library leaves a caller's alone.
GC_THRESHOLDS = (50_000, 50, 10)


#: Blocks of this many bytes and more are mapped on their own (glibc's ``M_MMAP_THRESHOLD``), for the program
#: only. Left to glibc, the threshold rises to 32 MB once a large block is freed (the bytes of a large
#: ``MEMORY.md`` read again): a file's bytes growing to tens of MB (a store note) were then made in the heap,
#: copied out when they outgrew it, and the heap kept the space. 488 MB peak instead of 543 for claude ->
#: memspec at 100,000 entries, with the same time (docs/performance.md).
MAPPED_FROM = 1 << 20


def _map_large_blocks() -> bool:
    """Have the C library map each block of ``MAPPED_FROM`` bytes or more on its own; whether it could."""
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt  # glibc and musl (where it does nothing); not macOS or Windows
    except (OSError, AttributeError, ImportError):
        return False
    return mallopt(-3, MAPPED_FROM) == 1  # M_MMAP_THRESHOLD


def main() -> None:
    # While the modules are imported, a signal is only noted, and acted on once they are in. Raised inside
    # an import, a KeyboardInterrupt could surface as another error (a dataclass's ``__set_name__`` wraps it
    # in a RuntimeError: exit 1 and a traceback), or leave Python's mark of an unhandled Ctrl-C, and then
    # the interpreter killed itself with SIGINT on its way out instead of exiting 130. A signal ignored
    # when the run started stays ignored.
    noted: list[tuple[int, str]] = []
    interrupt = signal.getsignal(signal.SIGINT)
    if interrupt is signal.default_int_handler:
        signal.signal(signal.SIGINT, lambda signum, frame: noted.append((130, "interrupted (Ctrl-C)")))
    terminate = signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if terminate:
        signal.signal(signal.SIGTERM, lambda signum, frame: noted.append((143, "terminated (SIGTERM)")))
    import gc

    gc.set_threshold(*GC_THRESHOLDS)
    _map_large_blocks()
    from .cli import main as cli

    if noted:
        _stop(*noted[0])
    global _loaded
    try:
        if interrupt is signal.default_int_handler:
            signal.signal(signal.SIGINT, interrupt)
        if terminate:
            signal.signal(signal.SIGTERM, _terminated)
        gc.freeze()  # the modules just imported live as long as the program: no collection need walk them
        _loaded = True
        try:
            cli(prog_name="memconv")
        finally:
            # The command is over: its report is printed and OUT is complete or absent. A signal now
            # (while the interpreter shuts down) would only print a traceback from a finaliser, or
            # claim that nothing was written: it is ignored.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:
        # A Ctrl-C outside the command's own try (before it, or between its end and the lines above) came out as a
        # traceback (a README test run on a loaded host, forty-fifth session): it is the user's, said as one (130).
        _stop(130, "interrupted (Ctrl-C)")
