"""Work spread over a Dask cluster, for every study that can run beyond one machine.

The studies keep their own local process pools; on a cluster they all do the same
thing: submit every task, take each result as it finishes, and close the client only
if they opened it. That is written once here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


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
