"""CFR+, discounted CFR, linear CFR and their predictive forms (PCFR+, PDCFR+) over a
compiled game, with checkpoints.

One iteration updates player 0, then player 1 (alternating updates), each with one
top-down pass for reaches and one bottom-up pass for values and regrets, all inside
numba (:mod:`analysis.solve.kernels`); a whole chunk of iterations runs in one call.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import NamedTuple

import numpy as np

from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import interrupt, shown
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve import kernels
from analysis.solve.best_response import Exploitability, exploitability
from analysis.solve.cache import check_checkpoint_file
from analysis.solve.compiled import CompiledGame
from analysis.solve.errors import SolveError
from analysis.solve.factored import factor, run_iterations_public
from analysis.solve.mapped import atomic_savez

# Method name -> (CFR+?, alpha, beta, gamma); DCFR's defaults are Brown & Sandholm's,
# PDCFR+'s (alpha 2.3, gamma 5; beta unused) Xu et al.'s (IJCAI 2024).
METHODS: dict[str, tuple[bool, float, float, float]] = {
    "cfr+": (True, 0.0, 0.0, 0.0),
    "dcfr": (False, 1.5, 0.0, 2.0),
    "lcfr": (False, 1.0, 1.0, 1.0),
    "pcfr+": (True, 0.0, 0.0, 0.0),
    "pdcfr+": (False, 2.3, 0.0, 5.0),
}
# The methods whose strategy is regret matching on the regrets plus a prediction (the
# last instantaneous regrets, kept in one more float64 per row).
PREDICTIVE = frozenset({"pcfr+", "pdcfr+"})


# Each method as a reader knows it.
METHOD_NAMES: dict[str, str] = {
    "cfr+": "CFR+", "dcfr": "Discounted CFR", "lcfr": "Linear CFR",
    "pcfr+": "Predictive CFR+", "pdcfr+": "Predictive Discounted CFR+",
}


class Discount(NamedTuple):
    """A method's weighting, as the iteration kernels take it (after the iteration count):
    regret matching+ or not (``plus``), DCFR's ``alpha`` (positive regrets kept
    ``t^alpha / (t^alpha + 1)``), ``beta`` (negative ones, likewise), ``gamma`` (the
    strategy sum kept ``(t / (t + 1))^gamma``), and whether the strategy played is
    predicted (:data:`PREDICTIVE`)."""

    plus: bool
    alpha: float
    beta: float
    gamma: float
    predictive: bool


@dataclass(frozen=True)
class Checkpoint:
    """A solver's state as :meth:`CFRSolver.save_checkpoint` wrote it: the solve's
    ``identity`` (game, mode, sizes, method and its parameters, ``|``-separated), the
    arrays, the iterations and seconds, and the predictive methods' last instantaneous
    regrets (``None`` unless read)."""

    identity: str
    regret: np.ndarray
    strategy_sum: np.ndarray
    iteration: int
    seconds: float
    prediction: np.ndarray | None = None


def read_checkpoint(path: str | Path, unreadable: str,
                    prediction_of: str | None = None) -> Checkpoint:
    """The checkpoint at ``path``: what resuming and warm starting both read.

    ``prediction_of``: the identity of a predictive solve, whose own checkpoint must hold
    the prediction (read then). A file that is not a checkpoint, or whose arrays cannot
    be read, raises :class:`CorruptFileError` with ``unreadable`` formatted with the
    ``path`` and the ``reason``.
    """
    check_checkpoint_file(path)
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            identity = data["identity"].tobytes().decode()
            return Checkpoint(
                identity, data["regret"], data["strategy_sum"], int(data["iteration"]),
                float(data["seconds"]),
                data["prediction"] if prediction_of is not None and identity == prediction_of
                else None)
    except READ_ERRORS as exc:  # a zip's CRC-32 catches changed bytes
        text = str(exc).strip()
        reason = text.splitlines()[0] if text else type(exc).__name__
        raise CorruptFileError(unreadable.format(path=path, reason=reason),
                               reason=reason) from None


class CFRSolver:
    """Iterates a regret-minimisation method on a :class:`CompiledGame`.

    Parameters
    ----------
    compiled
        The compiled game.
    method
        ``"cfr+"`` (regret matching+, linear averaging), ``"dcfr"`` (discounted CFR,
        alpha=1.5, beta=0, gamma=2 unless given), ``"lcfr"`` (linear CFR), ``"pcfr+"``
        or ``"pdcfr+"`` (below).
    engine
        ``"auto"`` (the public-tree engine when the game factors and it pays),
        ``"history"`` or ``"public"``; every method runs on both.

    Predictive methods
    ------------------
    With ``r^t`` a player's instantaneous counterfactual regrets at iteration ``t`` and
    ``R`` the cumulative regrets kept (all updates alternating, as for the other
    methods):

    ``"pcfr+"``, Predictive CFR+ (Farina, Kroer & Sandholm, AAAI 2021):
    ``R^t = max(R^{t-1} + r^t, 0)``; the strategy played at iteration ``t + 1`` is
    regret matching on ``max(R^t + m^{t+1}, 0)`` with the prediction
    ``m^{t+1} = r^t``; the average strategy weights iteration ``t`` by ``t^2``
    (quadratic averaging, as in the paper's experiments). No parameters.

    ``"pdcfr+"``, Predictive Discounted CFR+ (Xu et al., IJCAI 2024, "Minimizing Weighted
    Counterfactual Regret with Optimistic Online Mirror Descent"):
    ``R^t = max(R^{t-1} + r^t, 0) * t^alpha / (t^alpha + 1)`` (the regrets kept are
    never negative, so all of them are the positive ones DCFR discounts); the strategy
    at ``t + 1`` is regret matching on ``max(R^t + r^t, 0)``; the average strategy
    weights iteration ``t`` by ``t^gamma`` (the strategy sum is multiplied by
    ``(t / (t + 1))^gamma`` after iteration ``t``, as DCFR's). Defaults
    ``alpha = 2.3, gamma = 5``: the paper's, as in its authors' code (github.com/
    rpSebastian/PDCFRPlus: ``PDCFRPlus --gamma=5 --alpha=2.3``); ``beta`` is unused.
    This is the paper's update with the discount of the next iteration applied at the
    end of this one: its ``R^t = max(R^{t-1} d_{t-1} + r^t, 0)``, ``d_t = t^alpha /
    (t^alpha + 1)``, prediction ``max(R^t d_t + r^t, 0)``.

    Both keep ``r^t`` in :attr:`prediction` (one float64 per row; the other methods
    keep none) and save it in checkpoints.
    """

    def __init__(
        self,
        compiled: CompiledGame,
        method: str = "cfr+",
        alpha: float | None = None,
        beta: float | None = None,
        gamma: float | None = None,
        engine: str = "auto",
    ):
        if method not in METHODS:
            raise SolveError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
        plus, a, b, g = METHODS[method]
        self.compiled = compiled
        self.method = method
        self.plus = plus
        self.alpha = float(a if alpha is None else alpha)
        self.beta = float(b if beta is None else beta)
        self.gamma = float(g if gamma is None else gamma)
        if engine not in ("auto", "history", "public"):
            raise SolveError(f"unknown engine {engine!r}; choose auto, history or public")
        self.public = None
        if engine != "history" and compiled.mode == "tree":
            public = factor(compiled)
            # The public passes stream dense vectors: worth it up to ~2x the multiply-adds.
            if public is not None and (
                engine == "public" or public.work() < 2 * (compiled.num_nodes + compiled.num_edges)
            ):
                self.public = public
        if engine == "public" and self.public is None:
            raise SolveError(f"{compiled.game} does not factor into a public tree")
        self.engine = "public" if self.public is not None else "history"
        rows = self.public.num_rows if self.public is not None else compiled.num_actions
        # Public-tree scratch rows (private states impossible at a node) follow the real ones.
        self._regret_rows = np.zeros(rows)
        self._strategy_rows = np.zeros(rows)
        self.regret = self._regret_rows[: compiled.num_actions]
        self.strategy_sum = self._strategy_rows[: compiled.num_actions]
        self.predictive = method in PREDICTIVE
        # The last instantaneous regrets (predictive methods only: the others keep none).
        self._prediction_rows = np.zeros(rows if self.predictive else 0)
        self.prediction = self._prediction_rows[: compiled.num_actions]
        self.iteration = 0
        self.seconds = 0.0
        self._sigma = np.zeros(rows)
        if self.public is not None:
            k = max(self.public.num_states)
            size = self.public.num_internal + self.public.payoff.shape[0]
            self._public_reach = np.zeros((size, k))
            self._public_cfv = np.zeros((size, k))
            self._payoff_t = np.ascontiguousarray(-self.public.payoff.transpose(0, 2, 1))
        self._tree = compiled.mode == "tree" and compiled.perfect_recall_rows
        self._row_owner = np.repeat(
            np.arange(compiled.num_infosets, dtype=np.int64), np.diff(compiled.infoset_offset)
        )
        self._infos = [np.flatnonzero(compiled.infoset_player == p) for p in (0, 1)]
        self._reach = np.empty(compiled.num_internal)
        self._value = np.empty(compiled.num_internal)
        self._own = np.empty(compiled.num_infosets)
        self._kernel = self._kernel_call()
        self._interrupted = False

    @property
    def method_parameters(self) -> dict[str, float]:
        if self.plus:
            return {}
        if self.predictive:
            return {"alpha": self.alpha, "gamma": self.gamma}
        return {"alpha": self.alpha, "beta": self.beta, "gamma": self.gamma}

    # ------------------------------------------------------------------ iterating
    def iterate(self, count: int = 1) -> None:
        """Run ``count`` more iterations."""
        start = time.perf_counter()
        self._kernel(self.iteration, int(count), *self.discount)
        self.iteration += int(count)
        self.seconds += time.perf_counter() - start

    @property
    def discount(self) -> Discount:
        """The method's weighting, as the kernels take it."""
        return Discount(self.plus, self.alpha, self.beta, self.gamma, self.predictive)

    def _kernel_call(self) -> Callable[..., None]:
        # The engine's iteration kernel with every array it takes bound, in its order: the
        # graph's, the information sets', then the rows and scratch it writes in place;
        # called with the first iteration's number, the count and the method's Discount.
        cg = self.compiled
        infosets = (cg.infoset_offset, cg.infoset_player, self._infos[0], self._infos[1],
                    cg.infoset_parent_row, self._row_owner)
        if self.public is not None:
            pt = self.public
            return partial(
                run_iterations_public,
                pt.kind, pt.start, pt.child, pt.base, pt.rowmap, pt.payoff, self._payoff_t,
                *infosets,
                self._regret_rows, self._strategy_rows, self._sigma, self._public_reach,
                self._public_cfv, self._own, self._prediction_rows)
        return partial(
            kernels.run_iterations,
            cg.kind, cg.infoset, cg.edge_start, cg.edge_child, cg.edge_prob, cg.utility,
            *infosets, self._tree,
            self._regret_rows, self._strategy_rows, self._sigma, self._reach, self._value,
            self._own, self._prediction_rows)

    def average_strategy(self) -> np.ndarray:
        """The average strategy, one row of probabilities per information set."""
        out = np.empty(self.compiled.num_actions)
        kernels.normalize_rows(self.strategy_sum, self.compiled.infoset_offset, out)
        return out

    def current_strategy(self) -> np.ndarray:
        """The current (regret-matching) strategy: the one the next iteration plays
        (for the predictive methods, regret matching on regrets plus prediction)."""
        out = np.empty(self.compiled.num_actions)
        cg = self.compiled
        if self.predictive:
            kernels.predictive_matching(
                self.regret, self.prediction, cg.infoset_offset, cg.infoset_player, -1, out
            )
        else:
            kernels.regret_matching(self.regret, cg.infoset_offset, cg.infoset_player, -1, out)
        return out

    def exploitability(self) -> Exploitability:
        """Exploitability report of the average strategy."""
        return exploitability(self.compiled, self.average_strategy())

    # ------------------------------------------------------------------ checkpoints
    def _identity(self) -> str:
        cg = self.compiled
        return (
            f"{cg.game}|{cg.mode}|{cg.num_nodes}|{cg.num_actions}|{self.method}|"
            f"{self.alpha}|{self.beta}|{self.gamma}"
        )

    def save_checkpoint(self, path: str | Path) -> None:
        """Write the solver's state to ``path`` atomically (the predictive methods' last
        instantaneous regrets too, as ``prediction``)."""
        extra = {"prediction": self.prediction} if self.predictive else {}
        atomic_savez(
            Path(path),
            regret=self.regret,
            strategy_sum=self.strategy_sum,
            iteration=np.int64(self.iteration),
            seconds=np.float64(self.seconds),
            identity=np.frombuffer(self._identity().encode(), dtype=np.uint8),
            **extra,
        )

    def load_checkpoint(self, path: str | Path) -> None:
        """Continue from a checkpoint written by :meth:`save_checkpoint`.

        Raises
        ------
        CorruptFileError
            If the file is unreadable, not a checkpoint, or belongs to another game or method.
        """
        saved = read_checkpoint(
            path, "checkpoint {path} is unreadable ({reason}); delete it to start afresh",
            prediction_of=self._identity() if self.predictive else None)
        if saved.identity != self._identity():
            raise CorruptFileError(
                f"checkpoint {path} belongs to another solve "
                f"({saved.identity.split('|')[0]}, {saved.identity.split('|')[4]}); "
                "delete it or choose another path",
                reason="it belongs to another solve",
            )
        arrays = [saved.regret, saved.strategy_sum] + (
            [saved.prediction] if self.predictive else [])
        if any(a.shape != self.regret.shape or not np.isfinite(a).all() for a in arrays):
            raise CorruptFileError(f"checkpoint {path} holds damaged arrays; delete it",
                                   reason="its arrays do not fit this solve")
        self.regret[:] = saved.regret
        self.strategy_sum[:] = saved.strategy_sum
        if self.predictive:
            self.prediction[:] = saved.prediction
        self.iteration = saved.iteration
        self.seconds = saved.seconds

    def warm_start(self, path: str | Path, keep_average: bool = False) -> None:
        """Start from the checkpoint of a solve of another game with the same graph: a
        variant whose payoffs differ (strategy-based warm starting, Brown & Sandholm, AAAI
        2016; regrets carry over between games whose payoffs differ by parameters, AAAI
        2014). Its regrets make the first strategies played the old solution's; the
        average starts afresh from this game's iterations, or with ``keep_average`` goes on
        from the old one as if its iterations had been played here.

        Raises
        ------
        CorruptFileError
            If the file is unreadable or not a checkpoint of a game with this graph and
            method (the game's name and parameters may differ).
        """
        saved = read_checkpoint(path, "warm start {path} is unreadable ({reason})")
        if saved.identity.split("|")[1:] != self._identity().split("|")[1:] or any(
                a.shape != self.regret.shape or not np.isfinite(a).all()
                for a in (saved.regret, saved.strategy_sum)):
            raise CorruptFileError(
                f"warm start {path} is a solve of another graph or method "
                f"({saved.identity.split('|')[0]}); a warm start needs the same game tree "
                "with other payoffs", reason="another graph")
        self.regret[:] = saved.regret
        if keep_average:
            self.strategy_sum[:] = saved.strategy_sum
            self.iteration = saved.iteration
        else:
            self.strategy_sum[:] = 0.0
            self.iteration = 0

    # ------------------------------------------------------------------ running
    def run(
        self,
        target_exploitability: float | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        checkpoint: str | Path | None = None,
        checkpoint_every: float = 60.0,
        progress: bool | None = None,
    ) -> Exploitability:
        """Iterate until a stopping rule holds; returns the final exploitability report.

        Parameters
        ----------
        target_exploitability
            Stop once the average strategy's exploitability is at most this.
        iterations
            Stop at this total number of iterations (counting resumed ones).
        seconds
            Stop after this many seconds of this call.
        checkpoint
            Path saved every ``checkpoint_every`` seconds, at the end and on Ctrl-C
            (after the iteration in progress completes, then ``KeyboardInterrupt`` is
            raised again): resuming from it loses no iteration.
        progress
            progress on standard error (:func:`analysis.shared.progress.bar`: iterations, the
            time left and the last exploitability); default: shown unless
            ``FAROL_PROGRESS=0``.

        With no stopping rule, 1000 iterations are run.
        """
        iterations = _iterations_to_run(target_exploitability, iterations, seconds)
        checkpoints = _Checkpoints(self, checkpoint, checkpoint_every)
        with _Progress(self, iterations, seconds, progress) as bar, self._ctrl_c():
            report = self._iterate_until(target_exploitability, iterations, seconds, bar,
                                         checkpoints)
            if not self._interrupted:
                report = bar.finish(report, self.exploitability)
        checkpoints.save()
        self._raise_if_interrupted()
        return report if report is not None else self.exploitability()

    def _iterate_until(self, target: float | None, iterations: int | None,
                       seconds: float | None, bar: _Progress,
                       checkpoints: _Checkpoints) -> Exploitability | None:
        # Iterate in chunks until a stopping rule holds or Ctrl-C; the last
        # exploitability report measured, if any.
        start = time.perf_counter()
        report: Exploitability | None = None
        if target is not None and self.iteration > 0:
            report = self.exploitability()  # a resumed solve may be done already
            if report.exploitability <= target:
                return report
        chunk = 1
        while not (
            (iterations is not None and self.iteration >= iterations)
            or (seconds is not None and time.perf_counter() - start >= seconds)
            or self._interrupted
        ):
            count = chunk if iterations is None else min(chunk, iterations - self.iteration)
            tick = time.perf_counter()
            self.iterate(count)
            per_iteration = (time.perf_counter() - tick) / count
            report = None
            check_cost = 0.0
            if target is not None or bar.wants_report():
                tick = time.perf_counter()
                report = self.exploitability()
                check_cost = time.perf_counter() - tick
            bar.update(count, report)
            if target is not None and report.exploitability <= target:
                break
            time_left = None if seconds is None else seconds - (time.perf_counter() - start)
            chunk = _next_chunk(count, per_iteration, check_cost, time_left)
            checkpoints.save_if_due()
        return report

    # ------------------------------------------------------------------ Ctrl-C
    @contextmanager
    def _ctrl_c(self):
        # Within: Ctrl-C lets the iteration in progress finish, then the run stops
        # (:meth:`_raise_if_interrupted` raises it once the checkpoint is saved).
        previous = self._install_interrupt_handler()
        try:
            yield
        finally:
            self._restore_interrupt_handler(previous)

    def _raise_if_interrupted(self) -> None:
        if self._interrupted:
            self._interrupted = False
            interrupt(False)  # from here the KeyboardInterrupt itself says so
            raise KeyboardInterrupt

    def _install_interrupt_handler(self):
        if threading.current_thread() is not threading.main_thread():
            return None
        previous = signal.getsignal(signal.SIGINT)

        def handler(signum, frame):
            # Finish the iteration in progress, checkpoint, then stop; a second Ctrl-C
            # stops at once (the checkpoint file is written atomically either way).
            self._interrupted = True
            interrupt()
            signal.signal(signal.SIGINT, previous)

        signal.signal(signal.SIGINT, handler)
        return previous

    @staticmethod
    def _restore_interrupt_handler(previous) -> None:
        if previous is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, previous)


# ---------------------------------------------------------------------- run's helpers
def _iterations_to_run(target: float | None, iterations: int | None,
                       seconds: float | None) -> int | None:
    """The iteration limit of a run (1000 with no stopping rule), its stopping rules
    checked: each a non-negative number."""
    if target is None and iterations is None and seconds is None:
        iterations = 1000
    for name, value in (
        ("target exploitability", target),
        ("seconds", seconds),
        ("iterations", iterations),
    ):
        if value is not None and not value >= 0:
            raise SolveError(f"{name} must be a non-negative number, not {value}")
    return iterations


def _next_chunk(count: int, per_iteration: float, check_cost: float,
                time_left: float | None) -> int:
    """How many iterations the next kernel call runs, after ``count`` that took
    ``per_iteration`` seconds each and a check of ``check_cost`` seconds: long enough
    that checks cost at most ~20% and the bar moves ~4x/s, within the time left, and at
    most twice the last (growing geometrically so a target is not overshot by much)."""
    span = min(max(0.25, 4.0 * check_cost), 5.0)
    if time_left is not None:
        span = min(span, max(time_left, 0.0))
    return max(1, min(int(span / max(per_iteration, 1e-9)), 2 * count, 1 << 20))


class _Progress:
    """A run's progress bar (nothing when not shown): the iterations, the time left and
    the last exploitability, refreshed every couple of seconds at most."""

    def __init__(self, solver: CFRSolver, iterations: int | None, seconds: float | None,
                 progress: bool | None):
        self.bar = None
        if shown(progress):
            self.bar = progress_bar(
                total=iterations,
                limit=seconds,
                initial=solver.iteration,
                unit=" it",
                desc=f"{solver.method} {solver.compiled.game}"[:60],
                mininterval=0.5,
            )
        self.last_shown = -float("inf")

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()

    def wants_report(self) -> bool:
        """Whether the bar's exploitability is due for a refresh."""
        return self.bar is not None and time.perf_counter() - self.last_shown >= 2.0

    def update(self, count: int, report: Exploitability | None) -> None:
        if self.bar is None:
            return
        self.bar.update(count)
        if report is not None:
            self.last_shown = time.perf_counter()
            self.bar.set_postfix_str(f"exploitability {report.exploitability:z.3g}")

    def finish(self, report: Exploitability | None,
               measure: Callable[[], Exploitability]) -> Exploitability | None:
        """The bar's last line: the final figure (measured when not yet)."""
        if self.bar is None:
            return report
        report = report if report is not None else measure()
        self.bar.set_postfix_str(f"exploitability {report.exploitability:z.3g}")
        return report


class _Checkpoints:
    """A run's checkpoint file (none when ``path`` is ``None``): saved every ``every``
    seconds and at the end."""

    def __init__(self, solver: CFRSolver, path: str | Path | None, every: float):
        self.solver, self.path, self.every = solver, path, every
        self.last = time.perf_counter()

    def save_if_due(self) -> None:
        if self.path is not None and time.perf_counter() - self.last >= self.every:
            self.save()
            self.last = time.perf_counter()

    def save(self) -> None:
        if self.path is not None:
            self.solver.save_checkpoint(self.path)
