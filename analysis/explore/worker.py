"""The explorer's solves, each in a process of its own: stopped at a time limit, or as soon
as the page that asked for it goes away, while the server answers other requests.

Why processes, and how a page that went away is noticed:

- A solve is Python and numba code that holds the processor for seconds to minutes and
  never looks at a flag. Python cannot stop a thread from outside, so a solve in a thread
  pool would run to its end after its page had gone, holding its place meanwhile. A
  process can be ended at once. Each solve is forked from a ``forkserver`` that imported
  the explorer's modules already, so it starts in milliseconds; its caches are ``farol
  advise``'s files on disk, so a fresh process loses nothing. (The server's own threads
  are never forked: a child forked from them would inherit its listening socket and any
  lock held at that moment. Where there is no forkserver, Windows, a solve is spawned.)
- Werkzeug's threaded server, which ``farol explore`` runs, gives every request a thread
  of its own, so a request that waits for its solve holds up no other. WSGI has no signal
  for "the client went away", but Werkzeug's server hands the app the request's
  connection (``environ["werkzeug.socket"]``): once the request's body is read, a
  connection that turns readable with nothing to read was closed by the page (a reload,
  another spot, the Stop button). The waiting thread looks every tenth of a second.
- As with any use of ``multiprocessing``, a script that serves the app itself keeps its
  serving under ``if __name__ == "__main__":`` (a solve imports the main script again;
  ``farol``'s own is guarded).
- Two pages asking for the same spot share one solve, ended only when both have gone;
  at most ``workers`` solves run at once, and the others wait their turn inside the same
  time limit.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import select
import socket
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import pyspiel

from analysis.shared import store
from games.errors import FarolError

POLL = 0.1  # seconds between looks at a solve and at its page's connection


class Stopped(Exception):
    """A solve that gave no answer: ``status`` and one line saying why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Refused(FarolError):
    """Bad input found by the solve (its one line, as the solve said it)."""


class Failed(Exception):
    """The solve itself failed; ``details`` is its traceback, for the server's log."""

    def __init__(self, message: str, details: str):
        super().__init__(message)
        self.details = details


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    # Only the first forkserver started in a process reads this list.
    ctx.set_forkserver_preload(["analysis.explore.spots"])
    return ctx


def _solve(conn, where: tuple[dict, str], fn: Callable, args: tuple) -> None:
    """In the worker: ``fn(*args)`` with the server's environment and data folder, and
    its answer (or its error) sent back on ``conn``."""
    env, data = where
    os.environ.clear()
    os.environ.update(env)
    try:
        with store.use(data):
            answer = ("ok", fn(*args))
    except (FarolError, pyspiel.SpielError) as exc:
        answer = ("bad", str(exc))
    except BaseException as exc:  # noqa: BLE001  (the server logs it; the page gets a line)
        answer = ("failed", type(exc).__name__, traceback.format_exc())
    try:
        conn.send(answer)
    finally:
        conn.close()


def connection_closed(sock: socket.socket | None) -> bool:
    """Whether the client closed ``sock`` (a request whose body is read already: anything
    readable now is the end of the connection, or the client's next request)."""
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or closed already
        return True


def minutes(seconds: float) -> str:
    """``seconds`` as the page says a time limit."""
    if seconds < 90:
        return f"{seconds:zg} seconds"
    return f"{seconds / 60:z.0f} minutes"


class _Job:
    """One solve and the requests waiting for it."""

    def __init__(self, pool: Solves, key: str, fn: Callable, args: tuple):
        self.pool, self.key, self.fn, self.args = pool, key, fn, args
        self.waiting = 1
        self.stop = threading.Event()
        self.done = threading.Event()
        self.deadline = time.monotonic() + pool.limit
        self.answer: tuple = ("stopped",)
        self.process = None
        threading.Thread(target=self._watch, daemon=True, name="farol-solve").start()

    def _watch(self) -> None:
        try:
            while not self.pool.slots.acquire(timeout=POLL):
                if self.stop.is_set() or time.monotonic() > self.deadline:
                    self.answer = ("stopped",) if self.stop.is_set() else ("late",)
                    return
            try:
                self.answer = self._run()
            finally:
                self.pool.slots.release()
        finally:
            with self.pool.lock:
                if self.pool.jobs.get(self.key) is self:
                    del self.pool.jobs[self.key]
            self.done.set()

    def _run(self) -> tuple:
        ctx = self.pool.context
        receive, send = ctx.Pipe(duplex=False)
        where = (dict(os.environ), str(store.data_root().resolve()))
        where[0][store.CACHE_ENV] = str(store.cache_root().resolve())
        self.process = ctx.Process(target=_solve, args=(send, where, self.fn, self.args),
                                   name="farol-explore-solve")
        try:
            self.process.start()
            send.close()
            while True:
                if receive.poll(POLL):
                    try:
                        return receive.recv()
                    except EOFError:  # the process ended without a word
                        self.process.join(5)
                        code = self.process.exitcode
                        return ("failed", "its process ended", f"the solve's process "
                                f"ended without an answer (exit status {code}: out of "
                                "memory, or a main script that cannot be imported again)")
                if self.stop.is_set():
                    return ("stopped",)
                if time.monotonic() > self.deadline:
                    return ("late",)
        finally:
            receive.close()
            self.end()

    def end(self) -> None:
        """End the solve's process, if it runs."""
        process = self.process
        if process is None or process.pid is None:
            return
        if process.is_alive():
            process.terminate()
            process.join(2)
        if process.is_alive():
            process.kill()
        process.join(2)


class Solves:
    """Runs ``fn(*args)`` in worker processes, at most ``workers`` at once, each stopped
    after ``limit`` seconds or when every page that asked for it has gone."""

    def __init__(self, limit: float = 600.0, workers: int = 2):
        self.limit = float(limit)
        self.context = _context()
        self.slots = threading.BoundedSemaphore(max(1, workers))
        self.lock = threading.Lock()
        self.jobs: dict[str, _Job] = {}
        # Before multiprocessing's own exit handler (which waits for every child): the
        # server stops at once on Ctrl-C, and the solves with it.
        atexit.register(self.close)

    def run(self, fn: Callable, args: tuple, gone: Callable[[], bool] = lambda: False) -> Any:
        """``fn(*args)``'s answer. Raises :class:`Refused` (bad input, the solve's line),
        :class:`Failed` (a failure of the solve) or :class:`Stopped` (time limit, page
        gone, server stopping)."""
        key = f"{fn.__module__}.{fn.__qualname__}{args!r}"
        with self.lock:
            job = self.jobs.get(key)
            if job is None or job.stop.is_set():
                job = self.jobs[key] = _Job(self, key, fn, args)
            else:
                job.waiting += 1
        while not job.done.wait(POLL):
            if gone():
                with self.lock:
                    job.waiting -= 1
                    if job.waiting == 0:
                        job.stop.set()
                raise Stopped(503, "the page that asked for this solve went away, so it "
                              "was stopped")
        kind, *rest = job.answer
        if kind == "ok":
            return rest[0]
        if kind == "bad":
            raise Refused(rest[0])
        if kind == "failed":
            raise Failed(f"the solve failed ({rest[0]})", rest[-1])
        if kind == "late":
            raise Stopped(504, f"this solve takes longer than the explorer's limit of "
                          f"{minutes(self.limit)}, so it was stopped (the command line, "
                          "farol advise, has no limit)")
        raise Stopped(503, "the solve was stopped")

    def running(self) -> int:
        """How many solves run now (their processes alive)."""
        with self.lock:
            jobs = list(self.jobs.values())
        return sum(1 for j in jobs if j.process is not None and j.process.is_alive())

    def close(self) -> None:
        """Stop every solve (the server is stopping)."""
        with self.lock:
            jobs = list(self.jobs.values())
        for job in jobs:
            job.stop.set()
            job.end()
