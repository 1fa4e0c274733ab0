"""The sweeps' shared runner: one task per job, in this process or in a pool, with a bar."""

from __future__ import annotations

from concurrent.futures import as_completed

from analysis.shared.distribute import local_pool
from analysis.shared.progress import bar as progress_bar


def run_all(task, jobs: list[tuple], workers: int, progress: bool, desc: str) -> None:
    """``task(*job)`` for every job, in this process (``workers <= 1``) or in a pool of
    ``workers`` processes, with a progress bar; a job's error stops the sweep."""
    bar = None
    if progress and jobs:
        bar = progress_bar(total=len(jobs), desc=desc, unit=" endgame")
    if workers <= 1:
        for job in jobs:
            task(*job)
            if bar is not None:
                bar.update(1)
    elif jobs:
        with local_pool(workers) as pool:
            futures = [pool.submit(task, *job) for job in jobs]
            for future in as_completed(futures):
                future.result()
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
