"""Work spread over processes: a local pool, or a Dask cluster beyond one machine.

On a cluster every study does the same thing: submit every task, take each result as it
finishes, and close the client only if it opened it. Locally, every study's pool has
workers that stop at Ctrl-C. Both are written once here.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor


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
