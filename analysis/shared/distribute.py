"""Work spread over processes: a local pool, or a Dask cluster beyond one machine.

On a cluster every study does the same thing: submit every task, take each result as it
finishes, and close the client only if it opened it. Locally, every study's pool has
workers that stop at Ctrl-C. Both are written once here.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

# The signals that end a command as Ctrl-C does: ``kill`` (SIGTERM) and a closed terminal
# (SIGHUP). Ctrl-C reaches every process of the terminal's group; these reach only the
# process they are sent to, so it ends its workers itself.
ENDING = (signal.SIGTERM, signal.SIGHUP)
_PR_SET_PDEATHSIG = 1  # Linux prctl: a signal this process gets when its parent ends


class Stopped(KeyboardInterrupt):
    """The command was ended by ``signum`` (SIGTERM or SIGHUP); its workers are ended."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def end_workers() -> None:
    """End every worker process this process started (pools' workers included)."""
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError):
            child.terminate()


@contextlib.contextmanager
def ended_by_signals() -> Iterator[None]:
    """Within it, SIGTERM and SIGHUP end the workers and raise :class:`Stopped` (a
    ``KeyboardInterrupt``), so a command unwinds as at Ctrl-C; the handlers before are
    put back after. Outside the main thread (where no handler can be set) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        end_workers()
        raise Stopped(signum)

    before = {sig: signal.signal(sig, stop) for sig in ENDING}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end at Ctrl-C with the command. (A worker
    of Python's pool turns Ctrl-C into its task's error and takes the next task, so
    work the command no longer waits for would go on after it stopped.) Where this
    process ignores Ctrl-C (started in the background), its workers ignore it too."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    return ProcessPoolExecutor(max_workers=workers, initializer=_at_interrupt,
                               initargs=(signal.SIG_IGN if ignored else signal.SIG_DFL,))


def _at_interrupt(action) -> None:
    signal.signal(signal.SIGINT, action)
    for sig in ENDING:  # a worker ends at once when told to (not as its command does)
        signal.signal(sig, signal.SIG_DFL)
    _end_with_parent()


def _end_with_parent() -> None:
    """Have this worker ended by SIGTERM when the process that started it ends, however
    it ends (even killed outright). Linux only; elsewhere the command ends its workers."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def run_on_dask(scheduler, task: Callable, calls: Iterable[tuple],
                done: Callable[[object], None]) -> None:
    """``task(*call)`` for every call on the cluster at ``scheduler`` (an address, or a
    ``distributed.Client`` that stays open), handing each result to ``done`` as it
    finishes; a task's error is raised here."""
    from distributed import Client, as_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = [client.submit(task, *call, pure=False) for call in calls]
        for future in as_completed(futures):
            done(future.result())
    finally:
        if client is not scheduler:
            client.close()
