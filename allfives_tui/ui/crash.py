"""What a crash leaves behind: one line, a crash log, status 1, and a process that ends.

No Textual here: the command line imports this module too. An app that
crashes calls :func:`crash_line` (the traceback goes to a crash log) and,
once the terminal is given back, :func:`end_soon`: a thread still at work (a
computer thinking, a hint worked out) must not keep the crashed process
alive. When the command has returned, :func:`finish` ends the process at
once (the exit functions run, the busy threads are not waited for); should
the process be stuck before that, a daemon timer prints the crash's line and
ends it with status 1 after :data:`EXIT_GRACE` seconds.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
import traceback

from allfives_tui.locale import _
from allfives_tui.store.folder import write_crash_log

EXIT_GRACE = 0.5
"""Seconds a crashed process may take to end on its own before it is ended."""

_lock = threading.Lock()
_unprinted: str | None = None
"""The crash's line while no command has printed it."""
_timer: threading.Timer | None = None


def describe(error: BaseException) -> str:
    """``Kind: message`` of ``error``, on one line of at most 120 characters."""
    kind = type(error).__name__
    what = f"{kind}: {error}" if str(error) else kind
    return what.splitlines()[0][:120] if what else kind


def crash_log(error: BaseException) -> str:
    """Write ``error``'s traceback to a crash log; where it went, in words."""
    text = "".join(traceback.format_exception(error))
    try:
        return _("the crash log with the traceback is {path}").format(path=write_crash_log(text))
    except OSError as err:
        return _("no crash log could be written ({reason})").format(reason=err.strerror or err)


def crash_line(prog: str, error: BaseException, game: str | None = None) -> str:
    """One line for a crash, in the current language: what crashed, what became of the
    game (``game``, a clause, when there is one to speak of) and where the crash log is
    (written now)."""
    log = crash_log(error)
    if game:
        return _("{prog} crashed ({error}): {game}; {log}").format(
            prog=prog, error=describe(error), game=game, log=log
        )
    return _("{prog} crashed ({error}): {log}").format(prog=prog, error=describe(error), log=log)


def end_soon(line: str, grace: float = EXIT_GRACE) -> None:
    """After a crash: end the process with status 1 unless it ends within ``grace``
    seconds, printing ``line`` on stderr first when no command printed it."""
    global _unprinted, _timer
    with _lock:
        _unprinted = line
        if _timer is not None:
            return
        _timer = threading.Timer(grace, _end_now)
        _timer.daemon = True
        _timer.name = "allfives-crash-exit"
        _timer.start()


def finish(status: int) -> None:
    """The command returned ``status`` (it printed the crash's line): after a crash
    (:func:`end_soon`), end the process now; else do nothing."""
    global _unprinted
    with _lock:
        if _timer is None:
            return
        _unprinted = None
    _end(status or 1)


def _end_now() -> None:
    _end(1)


def _end(status: int) -> None:
    with _lock:  # held to the end: whoever comes second waits, then the process is gone
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        if _unprinted is not None:
            with contextlib.suppress(OSError):
                os.write(2, f"{_unprinted}\n".encode(errors="replace"))
        with contextlib.suppress(Exception):
            atexit._run_exitfuncs()  # e.g. multiprocessing's clean-up of its semaphores
        os._exit(status)
