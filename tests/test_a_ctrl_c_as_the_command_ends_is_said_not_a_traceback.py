"""A Ctrl-C that arrives as the command ends, before the program ignores signals for its way out, exits 130 with
its one line, not a traceback.

Found on a loaded host (forty-fifth session): the README's test command failed once in
``test_ctrl_c_while_starting_exits_130_not_by_the_signal`` with a traceback from ``__main__.py``'s ``main()``: the
signal came between the command's end and the ``finally`` that ignores signals. Made certain here by raising the
interrupt where the first signal is set to be ignored.
"""
import signal

import pytest

from memconv import _entry


def test_an_interrupt_in_the_way_out_is_exit_130(monkeypatch, capsys):
    def set_signal(signum, handler):
        if handler is signal.SIG_IGN:
            raise KeyboardInterrupt  # the Ctrl-C, at the very line that would have ignored it
        return None

    monkeypatch.setattr(_entry.signal, "signal", set_signal)
    monkeypatch.setattr(_entry.signal, "getsignal", lambda signum: signal.default_int_handler
                        if signum == signal.SIGINT else signal.SIG_DFL)
    monkeypatch.setattr(_entry, "_map_large_blocks", lambda: False)
    monkeypatch.setattr("gc.set_threshold", lambda *a: None)
    monkeypatch.setattr("gc.freeze", lambda: None)
    monkeypatch.setattr("memconv.cli.main", lambda **kw: (_ for _ in ()).throw(SystemExit(0)))
    monkeypatch.setattr(_entry, "_loaded", False)
    with pytest.raises(SystemExit) as stopped:
        _entry.main()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == ("memconv: stopped: interrupted (Ctrl-C) as the command ended; the report above "
                                       "says what was done\n")
