"""Progress of long work on standard error, the same on a terminal or not.

Every step that can take more than a couple of seconds (compiling a game, CFR
iterations, a sweep) shows its progress through :func:`bar`, so that no command works
silently. On a terminal that is a tqdm bar (it appears after :data:`DELAY` seconds); off
a terminal (a log file, a pipe, a notebook's captured stream) it is one plain line every
:data:`EVERY` seconds, such as ``farol: CFR+: 120/300 it (40%), 12 s so far, about 18 s
left``, with no carriage returns, and a last line when the work ends. ``FAROL_PROGRESS=0``
silences it; ``FAROL_PROGRESS_EVERY`` sets the seconds between plain lines.

:func:`expect` is what a command says before work that takes long: how long it should
take and the faster way when there is one.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from tqdm import tqdm

ENV = "FAROL_PROGRESS"
EVERY_ENV = "FAROL_PROGRESS_EVERY"
DELAY = 2.0  # seconds before the first sign of progress (quick work shows none)
# A terminal bar: what, how far, the bar, the count, the time so far and left (the rate,
# which the time left is told from, is not shown: it is this run's pace, counted down).
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt}{unit} [{elapsed}<{remaining}{postfix}]"
EVERY = 5.0  # seconds between plain lines off a terminal


def shown(progress: bool | None = None) -> bool:
    """Whether to show progress: ``progress`` when given, else unless ``FAROL_PROGRESS=0``."""
    if progress is not None:
        return bool(progress)
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "no", "off", "false")


def every() -> float:
    """Seconds between plain lines (``FAROL_PROGRESS_EVERY``, default :data:`EVERY`)."""
    try:
        return max(0.1, float(os.environ.get(EVERY_ENV, EVERY)))
    except ValueError:
        return EVERY


def _on_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def duration(seconds: float) -> str:
    """``seconds`` in words a reader takes in at once: ``8 s``, ``3 min 5 s``, ``2 h 10 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def _count(n: float, scale: bool) -> str:
    if scale and n >= 10_000:
        for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if n >= size:
                return f"{n / size:z.1f}{suffix}"
    return f"{n:z,.0f}" if float(n).is_integer() else f"{n:z,.1f}"


def time_left(d: dict, last: float | None = None) -> float | None:
    """Seconds left, from tqdm's ``format_dict``: this run's pace up to the last step
    (``last``: the elapsed seconds when the count last moved; default now), counted down
    since, so the figure falls between steps and settles as steps come. ``None`` before
    the first step or without a total."""
    n, total, elapsed = d["n"], d.get("total"), d["elapsed"]
    # The pace is this run's: steps kept from a stopped run (tqdm's ``initial``) took no
    # time now.
    here = n - (d.get("initial") or 0)
    if not total or here <= 0 or n >= total:
        return None
    at = elapsed if last is None else min(last, elapsed)
    return max(at * (total - n) / here - (elapsed - at), 0.0)


class _Paced:
    """Keeps when a bar's count last moved, for :func:`time_left`."""

    _moved_at: float | None = None

    def update(self, n=1):  # noqa: D102
        if n and not self.disable:
            self._moved_at = self._time() - self.start_t  # before tqdm draws the step
        return super().update(n)


def plain_line(d: dict, done: bool = False, limit: float | None = None,
               last: float | None = None) -> str:
    """One line of progress from tqdm's ``format_dict``: what, how far, how long so far
    and (when the total is known and the rate measured) about how long is left; at most
    what is left of ``limit`` seconds, when the work stops then."""
    n, total, elapsed = d["n"], d.get("total"), d["elapsed"]
    unit = (d.get("unit") or "").strip() or "steps"
    scale = bool(d.get("unit_scale"))
    what = (d.get("prefix") or "working").rstrip(": ")
    if unit.startswith("%") and total == 100:  # a bar counting percent of something
        counted = f"{n:z.0f}{unit}"
    elif total:
        counted = f"{_count(n, scale)}/{_count(total, scale)} {unit} ({100 * n / total:z.0f}%)"
    else:
        counted = f"{_count(n, scale)} {unit}"
    postfix = d.get("postfix")
    line = f"farol: {what}: {counted}" + (f", {postfix}" if postfix else "")
    if done:
        return f"{line}, ended after {duration(elapsed)}"
    line += f", {duration(elapsed)} so far"
    left = time_left(d, last)
    if limit is not None:
        left = max(limit - elapsed, 0.0) if left is None else min(left, max(limit - elapsed, 0.0))
    if left is not None:
        line += f", about {duration(left)} left"
    elif not total:
        line += " (total not known ahead)"
    return line


class _Discard:
    """Where a plain bar sends tqdm's own drawing (carriage returns): nowhere."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class PlainBar(_Paced, tqdm):
    """A tqdm bar drawn as one plain line every few seconds (first after :data:`DELAY`),
    from a watcher thread, so a long single step still shows that work goes on; and a
    last line when it closes, if any was drawn."""

    def __init__(self, *args, file=None, limit: float | None = None, **kwargs):
        self._out = file if file is not None else sys.stderr
        self._limit = limit
        self._every = every()
        self._drawn = False
        self._born = time.monotonic()
        self._stop = threading.Event()
        self._drawing = threading.Lock()
        kwargs.pop("delay", None)
        super().__init__(*args, file=_Discard(), **kwargs)
        if not self.disable:
            self._watcher = threading.Thread(target=self._watch, daemon=True,
                                             name="farol-progress")
            self._watcher.start()

    def _watch(self) -> None:
        if self._stop.wait(DELAY):
            return
        while True:
            self._draw(done=False)
            if self._stop.wait(self._every):
                return

    def _draw(self, done: bool) -> None:
        with self._drawing:
            if self._stop.is_set() and not done:
                return  # closed meanwhile: its last line is drawn by close
            self._write(done)

    def _write(self, done: bool) -> None:
        try:
            line = plain_line(self.format_dict, done, self._limit, self._moved_at)
            self._out.write(line + "\n")
            self._out.flush()
            self._drawn = True
        except (ValueError, OSError, AttributeError):
            self._stop.set()  # the stream is closed: stop drawing

    def display(self, msg=None, pos=None):  # noqa: D102 (tqdm's hook): the watcher draws
        return True

    def close(self):  # noqa: D102
        if getattr(self, "disable", True):  # disabled, or never fully made
            return
        stop = getattr(self, "_stop", None)
        if stop is not None and not stop.is_set():
            with self._drawing:
                stop.set()
                # Stopped by Ctrl-C: the command's one line says so, not this bar.
                lived = time.monotonic() - self._born
                if (self._drawn or lived >= DELAY) and not abandoned():
                    self._write(done=True)
        super().close()


class TerminalBar(_Paced, tqdm):
    """tqdm's bar on a terminal, drawn again every second from a watcher thread once
    :data:`DELAY` has passed, so work whose first step is long shows at once that it goes
    on; the time left is :func:`time_left`'s, which counts down between steps and settles
    as they come, rather than tqdm's smoothed rate, which jumps."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("delay", DELAY)
        kwargs.setdefault("bar_format", BAR_FORMAT)
        self._stop = threading.Event()
        super().__init__(*args, **kwargs)
        if not self.disable:
            threading.Thread(target=self._watch, daemon=True, name="farol-bar").start()

    def _watch(self) -> None:
        if self._stop.wait(DELAY):
            return
        while not self._stop.is_set():
            try:
                self.refresh()
            except (ValueError, OSError, AttributeError):
                return  # the stream is closed
            if self._stop.wait(1.0):
                return

    @property
    def format_dict(self):  # noqa: D102 (tqdm's): the time left as time_left tells it
        d = super().format_dict
        left = time_left(d, self._moved_at)
        if left is not None:
            d["rate"] = (d["total"] - d["n"]) / left if left > 0 else None
        return d

    def close(self):  # noqa: D102
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
        super().close()


def abandoned() -> bool:
    """Whether the work is being stopped by Ctrl-C (a ``KeyboardInterrupt`` on its way
    out, or a solver's own interrupt flag raised through :func:`interrupt`)."""
    return sys.exc_info()[0] is KeyboardInterrupt or _interrupted.is_set()


_interrupted = threading.Event()


def interrupt(on: bool = True) -> None:
    """Note that Ctrl-C stops the work (bars closing now draw no last line); ``on=False``
    once the work has stopped and its ``KeyboardInterrupt`` is raised."""
    if on:
        _interrupted.set()
    else:
        _interrupted.clear()


def bar(iterable=None, *, progress: bool | None = None, file=None, limit: float | None = None,
        **kwargs) -> tqdm:
    """A progress bar (tqdm's arguments: ``desc``, ``total``, ``unit``, ``initial``...)
    on standard error: tqdm's on a terminal, :class:`PlainBar` otherwise; a silent one
    when ``progress`` is false or ``FAROL_PROGRESS=0``. ``limit``: the seconds after
    which the work stops whatever its count (the time left is at most what remains).
    Use it as tqdm is used (a context manager, ``update``, ``set_postfix_str``,
    ``close``)."""
    stream = file if file is not None else sys.stderr
    kwargs.pop("disable", None)
    kwargs.pop("file", None)
    if not shown(progress):
        return tqdm(iterable, disable=True, **kwargs)
    if _on_terminal(stream):
        return TerminalBar(iterable, file=stream, **kwargs)
    return PlainBar(iterable, file=stream, limit=limit, **kwargs)


def say(text: str, file=None) -> None:
    """One line on standard error (``farol: <text>``), for what the user should know
    before a wait: what is being done and how long it takes."""
    stream = file if file is not None else sys.stderr
    print(f"farol: {text}", file=stream, flush=True)


def expect(what: str, seconds: float, faster: str | None = None, file=None) -> None:
    """Say before work expected to take ``seconds`` what it is, about how long it takes
    and, when there is one, the faster way (``faster``); silent under :data:`DELAY` s."""
    if seconds < DELAY:
        return
    text = f"{what}: expect about {duration(seconds)}"
    say(text + (f"; faster: {faster}" if faster else ""), file)
