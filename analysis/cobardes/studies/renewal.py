"""The war with courtiers renewed between battles: a stochastic game over (score, pairing).

After a battle a used courtier is replaced by a random one; an unused one may be kept
or renewed, player 0 deciding first, then player 1 knowing it. Each battle is compiled
once with 20 terminal kinds (outcome x courtiers used, :class:`RenewalGraph`) and
re-solved exactly for the values of the states it leads to; the war's fixed point is
found score by score with Newton steps (:func:`solve_renewal`), checkpointed and
resumable (:func:`run_renewal`). Approximations, stated in the report: a memoryless
court deck, no villains, the quicker player alternating by combat.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cobardes.model import (
    CROWN,
    CROWN_LOSS,
    DRAW,
    ENDINGS,
    LOSS,
    OUTCOME_NAMES,
    TOKENS_TO_WIN,
    USED,
    WIN,
    BattleSpec,
    ending_index,
    initial_position,
    outcome_kind,
    outcome_totals,
    score_order,
)
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.studies import sweep
from analysis.shared import store
from analysis.shared.store import atomic_write_text, read_record
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidParameterError

RENEWAL_VERSION = 1
# Terminal kinds: the endings (outcome x used bits, :data:`analysis.cobardes.model.USED`).
TERMINALS = ENDINGS
KEEP, RENEW = "keep", "renew"


def renewal_dir() -> Path:
    """Where renewal solutions are stored: the data folder's ``cobardes/renewal``."""
    return store.data("cobardes", "renewal")


# --------------------------------------------------------------------------- battles
@dataclass(frozen=True)
class RenewalBattle:
    """One battle solved for a terminal payoff vector."""

    value: float
    reach: np.ndarray   # probability of each of the 20 terminal kinds under the solution


class RenewalGraph(BattleGraph):
    """A pairing's battle compiled with one terminal per (outcome, used bits).

    :class:`analysis.cobardes.solvers.graph.BattleGraph` merges every finished battle into five
    outcome nodes; here a finished battle also says which courtiers were played:
    terminal class :func:`ending_index`, so :meth:`solve` takes 20 payoffs and gives
    the 20 terminals' probabilities under the solved strategies (ties spread evenly).

    The used bits of a terminal are those of the first position compiled into each node:
    positions share a node when their keys agree (:func:`analysis.cobardes.model.canonical_key`
    forgets a used courtier's identity), and within one pairing a player's courtier is
    forgotten exactly when it was used, so every position of a node has the same bits.
    """

    TERMINALS = TERMINALS

    def terminal(self, pos: E.Pos) -> int:
        return ending_index(outcome_kind(pos), pos.used)

    def solve(self, payoffs) -> RenewalBattle:
        sol = super().solve(payoffs)
        return RenewalBattle(sol.value, sol.outcome_probs)


def compile_pairing(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS
                    ) -> RenewalGraph:
    """The renewal graph of one courtier pairing (names)."""
    cfg, pos, _ = initial_position(BattleSpec(warriors, combats, tuple(pairing)).params())
    return RenewalGraph(cfg, pos)


# --------------------------------------------------------------------------- the model
@dataclass
class RenewalModel:
    """The states of the renewal war and the renewal step.

    Parameters
    ----------
    courtiers
        The court deck (names); at least 4, so that two can be drawn from the courtiers
        not in the finished battle.
    warriors, combats
        The armies (warriors ``0..warriors``) and combats per battle.
    victories
        The Victory tokens that win the war (the war game's ``victories``; printed 3):
        the scores run from 0 to ``victories - 1`` each.
    """

    courtiers: tuple[str, ...] = tuple(C.COURTIER_NAMES)
    warriors: int = C.MAX_WARRIOR
    combats: int = C.MAX_COMBATS
    victories: int = TOKENS_TO_WIN

    def __post_init__(self):
        names = tuple(C.COURTIER_NAMES[C.courtier_id(c)] for c in self.courtiers)
        if len(set(names)) != len(names):
            raise InvalidParameterError("the renewal court deck names a courtier twice")
        if len(names) < 4:
            raise InvalidParameterError(
                f"the renewal model needs at least 4 courtiers (two held, two to draw), "
                f"not {len(names)}")
        if self.victories < 1:
            raise InvalidParameterError(
                f"a war is won with at least 1 Victory token, not {self.victories}")
        self.courtiers = names
        self.scores = [(a, b) for a in range(self.victories) for b in range(self.victories)]
        self.pairings = [(a, b) for a in names for b in names if a != b]
        self.states = [(s, p) for s in self.scores for p in self.pairings]
        self.index = {state: i for i, state in enumerate(self.states)}

    @property
    def size(self) -> int:
        return len(self.states)

    def draws(self, pairing: tuple[str, str], renew0: bool, renew1: bool
              ) -> list[tuple[str, str]]:
        """The equally likely pairings after renewing: new courtiers drawn from those not
        in the finished battle, without replacement (see the module's approximations)."""
        c0, c1 = pairing
        pool = [c for c in self.courtiers if c not in pairing]
        if renew0 and renew1:
            return [(x, y) for x in pool for y in pool if x != y]
        if renew0:
            return [(x, c1) for x in pool]
        if renew1:
            return [(c0, y) for y in pool]
        return [pairing]

    def renewal(self, values: np.ndarray, score: tuple[int, int], pairing: tuple[str, str],
                used: int) -> Renewal:
        """The renewal into ``score`` after a battle of ``pairing`` that ended with the
        ``used`` bits: player 0 keeps or renews (if unused), then player 1 knowing it."""
        options = [[KEEP, RENEW] if not used >> p & 1 else [RENEW] for p in (0, 1)]
        table: dict[tuple[str, str], tuple[float, list[tuple[str, str]]]] = {}
        for d0 in options[0]:
            for d1 in options[1]:
                pairs = self.draws(pairing, d0 == RENEW, d1 == RENEW)
                v = float(np.mean([values[self.index[(score, q)]] for q in pairs]))
                table[(d0, d1)] = (v, pairs)
        # Ties: keeping (no draw) is preferred, by both players.
        reply = {d0: min(options[1], key=lambda d1, d0=d0: (table[(d0, d1)][0],
                                                              d1 != KEEP))
                 for d0 in options[0]}
        choice0 = max(options[0], key=lambda d0: (table[(d0, reply[d0])][0], d0 == KEEP))
        value, pairs = table[(choice0, reply[choice0])]
        return Renewal(value, choice0, reply, {k: v for k, (v, _) in table.items()}, pairs)

    def payoffs(self, values: np.ndarray, state: tuple[tuple[int, int], tuple[str, str]]
                ) -> tuple[np.ndarray, list]:
        """The 20 terminal payoffs of a state's battle, and for each terminal its
        continuation: ``("end", value)`` or ``("renew", score, Renewal)``."""
        (a, b), pairing = state
        pay = np.zeros(TERMINALS)
        how: list = [None] * TERMINALS
        for used in USED:
            nexts = {WIN: (a + 1, b), LOSS: (a, b + 1), DRAW: (a, b)}
            for kind in range(len(OUTCOME_NAMES)):
                t = ending_index(kind, used)
                if kind == CROWN or (kind == WIN and a + 1 >= self.victories):
                    pay[t], how[t] = 1.0, ("end", 1.0)
                elif kind == CROWN_LOSS or (kind == LOSS and b + 1 >= self.victories):
                    pay[t], how[t] = -1.0, ("end", -1.0)
                else:
                    r = self.renewal(values, nexts[kind], pairing, used)
                    pay[t], how[t] = r.value, ("renew", nexts[kind], r)
        return pay, how

    def linearise(self, values: np.ndarray, reach: np.ndarray, rows=None
                  ) -> tuple[np.ndarray, np.ndarray]:
        """``(M, c)`` with ``F(V) = M V + c`` for the battles' strategies (``reach``:
        one row of 20 terminal probabilities per state) and the keep/renew choices at
        ``values`` held fixed (only the states ``rows`` filled in, if given)."""
        n = self.size
        m = np.zeros((n, n))
        c = np.zeros(n)
        for i in (range(n) if rows is None else rows):
            state = self.states[i]
            _, how = self.payoffs(values, state)
            for t, h in enumerate(how):
                q = reach[i, t]
                if q <= 0.0:
                    continue
                if h[0] == "end":
                    c[i] += q * h[1]
                else:
                    score, r = h[1], h[2]
                    for pair in r.pairs:
                        m[i, self.index[(score, pair)]] += q / len(r.pairs)
        return m, c


@dataclass(frozen=True)
class Renewal:
    """One renewal solved: its value (player 0's), player 0's choice, player 1's reply to
    each choice of player 0, every combination's value, and the resulting pairings."""

    value: float
    choice0: str
    reply1: dict[str, str]
    table: dict[tuple[str, str], float]
    pairs: list[tuple[str, str]]


# --------------------------------------------------------------------------- solving
def _solve_group(graphs: dict, model_args: tuple, todo: dict) -> dict:
    """Solve the battles of ``todo`` (``{pairing: [(score index, payoffs), ...]}``),
    compiling (and keeping in ``graphs``) each pairing's graph on first use."""
    warriors, combats = model_args
    out = {}
    for pairing, rows in todo.items():
        graph = graphs.get(pairing)
        if graph is None:
            graph = graphs[pairing] = compile_pairing(pairing, warriors, combats)
        out[pairing] = [(s, graph.solve(pay)) for s, pay in rows]
    return out


def _worker(conn, model_args) -> None:
    """A process keeping its pairings' compiled graphs between iterations."""
    graphs: dict = {}
    while True:
        todo = conn.recv()
        if todo is None:
            conn.close()
            return
        result = _solve_group(graphs, model_args, todo)
        conn.send({p: [(s, r.value, r.reach) for s, r in rows] for p, rows in result.items()})


class _Pool:
    """Battles solved in ``workers`` long-lived processes, each owning a fixed share of
    the pairings (so every graph is compiled once); ``workers <= 1`` solves in-process."""

    def __init__(self, model: RenewalModel, workers: int, graphs: dict | None = None):
        self.model = model
        self.args = (model.warriors, model.combats)
        self.workers = 1 if graphs is not None else max(1, min(workers, len(model.pairings)))
        self.graphs: dict = {} if graphs is None else graphs
        self.procs = []
        if self.workers > 1:
            ctx = mp.get_context("spawn")
            for _ in range(self.workers):
                here, there = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(there, self.args), daemon=True)
                proc.start()
                self.procs.append((proc, here))

    def solve(self, jobs: dict) -> dict:
        if not self.procs:
            res = _solve_group(self.graphs, self.args, jobs)
            return {p: [(s, r.value, r.reach) for s, r in rows] for p, rows in res.items()}
        shares = [{} for _ in self.procs]
        for i, pairing in enumerate(self.model.pairings):
            if pairing in jobs:
                shares[i % len(self.procs)][pairing] = jobs[pairing]
        for (_, conn), share in zip(self.procs, shares, strict=True):
            conn.send(share)
        out = {}
        for _, conn in self.procs:
            out.update(conn.recv())
        return out

    def close(self) -> None:
        for proc, conn in self.procs:
            conn.send(None)
            proc.join(timeout=30)
        self.procs = []


@dataclass(frozen=True)
class RenewalSolution:
    """The renewal war solved: values of every state and how they were obtained (frozen:
    built whole by :func:`solve_renewal` or :meth:`from_json`)."""

    model: RenewalModel
    values: np.ndarray                  # F(V) at the last iterate: exact battle values
    iterate: np.ndarray                 # V, the last iterate (residual = |values - iterate|)
    reach: np.ndarray                   # [state, terminal] probabilities at the last solve
    history: list[dict] = field(default_factory=list)
    spectral_radius: float = float("nan")
    positions: dict = field(default_factory=dict)

    @property
    def residual(self) -> float:
        return float(np.max(np.abs(self.values - self.iterate)))

    @property
    def battle_solves(self) -> int:
        return len(self.model.pairings) * len(self.history)

    def value(self, pairing: tuple[str, str], score: tuple[int, int] = (0, 0)) -> float:
        """Player 0's war value (P(win) - P(lose)) at ``score`` with ``pairing``."""
        return float(self.values[self.model.index[(score, tuple(pairing))]])

    def renewal(self, score: tuple[int, int], pairing: tuple[str, str], used: int) -> Renewal:
        """The keep/renew decisions of one renewal, at the solution."""
        return self.model.renewal(self.values, score, tuple(pairing), used)

    def outcome_probs(self, pairing: tuple[str, str], score: tuple[int, int] = (0, 0)
                      ) -> dict[str, float]:
        """How the battle at ``score`` with ``pairing`` ends (outcome kinds)."""
        row = self.reach[self.model.index[(score, tuple(pairing))]]
        return dict(zip(OUTCOME_NAMES, outcome_totals(row).tolist(), strict=True))

    def to_json(self) -> dict:
        m = self.model
        return {
            "version": RENEWAL_VERSION, "courtiers": list(m.courtiers),
            "warriors": m.warriors, "combats": m.combats, "victories": m.victories,
            "states": [f"{a}-{b}|{p[0]}|{p[1]}" for (a, b), p in m.states],
            "values": self.values.tolist(), "iterate": self.iterate.tolist(),
            "reach": np.round(self.reach, 12).tolist(), "residual": self.residual,
            "spectral_radius": self.spectral_radius, "history": self.history,
            "positions": self.positions,
            "solver": "exact backward induction per battle (matrix games by simplex), "
                      "Newton steps on the war's fixed point",
        }

    @classmethod
    def from_json(cls, data: dict) -> RenewalSolution:
        # Records written before the victories were a parameter are wars to 3.
        model = RenewalModel(tuple(data["courtiers"]), data["warriors"], data["combats"],
                             data.get("victories", TOKENS_TO_WIN))
        return cls(model, np.asarray(data["values"]), np.asarray(data["iterate"]),
                   np.asarray(data["reach"]), data["history"], data["spectral_radius"],
                   data.get("positions", {}))


def spectral_radius(m: np.ndarray) -> float:
    """Largest modulus of ``m``'s eigenvalues."""
    return float(np.max(np.abs(np.linalg.eigvals(m)))) if m.size else 0.0


def cache_path(model: RenewalModel, directory: str | Path | None = None) -> Path:
    """The checkpoint/result file of one model (in :func:`renewal_dir` by default)."""
    directory = renewal_dir() if directory is None else directory
    slug = "all" if set(model.courtiers) == set(C.COURTIER_NAMES) else "_".join(
        c.replace("-", "").replace(" ", "").lower() for c in model.courtiers)
    won = "" if model.victories == TOKENS_TO_WIN else f"v{model.victories}"
    return Path(directory) / f"renewal_{slug}__w{model.warriors}c{model.combats}{won}.json"


def solve_renewal(model: RenewalModel, guess: np.ndarray | None = None, tol: float = 1e-9,
                  max_iterations: int = 30, workers: int = 1, checkpoint: Path | None = None,
                  history: list[dict] | None = None, log=None, graphs: dict | None = None,
                  done: list | None = None) -> RenewalSolution:
    """Solve the renewal war from ``guess`` (zeros if ``None``), score by score.

    A battle at score ``(a, b)`` leads to later scores or, when drawn, to the same
    score (with other courtiers), so the scores are solved in the order of
    :func:`analysis.cobardes.model.score_order`, each a block of one state per pairing
    coupled only through draws. Each iteration on a block solves its battles exactly
    at the current iterate ``V`` (giving ``F(V)`` and the terminals' reach), then moves
    to the Newton point (the fixed point of the affine map with the battles'
    strategies and the keep/renew choices held), or to ``F(V)`` when the previous
    Newton step did not lower the residual. A block is done when
    ``max |F(V) - V| <= tol`` on it (at most ``max_iterations`` iterations a block).

    With ``checkpoint`` the iterate, the blocks ``done`` and the history are written
    after every iteration (see :func:`run_renewal` for resuming). ``graphs``
    (``{pairing: graph}``, solved in this process) replaces the compiled battles, e.g.
    by hand-made ones in tests: anything with ``solve(payoffs)`` returning a
    :class:`RenewalBattle`.
    """
    n = model.size
    v = np.zeros(n) if guess is None else np.clip(np.asarray(guess, dtype=float), -1, 1)
    history = list(history or [])
    done = [tuple(s) for s in (done or [])]
    pool = _Pool(model, workers, graphs)
    reach = np.zeros((n, TERMINALS))
    f = v.copy()

    def save(status):
        if checkpoint is not None:
            data = RenewalSolution(model, f.copy(), v.copy(), reach.copy(), history).to_json()
            data.update(status=status, done=[list(s) for s in done])
            atomic_write_text(Path(checkpoint), json.dumps(data))

    try:
        for score in score_order(model.victories):
            if score in done:
                continue
            rows = np.array([model.index[(score, p)] for p in model.pairings])
            residuals: list[float] = []
            for _ in range(max_iterations):
                start = time.perf_counter()
                jobs = {model.states[i][1]: [(i, model.payoffs(v, model.states[i])[0])]
                        for i in rows}
                for out in pool.solve(jobs).values():
                    for i, value, r in out:
                        f[i] = value
                        reach[i] = r
                residual = float(np.max(np.abs(f[rows] - v[rows])))
                step = {"score": f"{score[0]}-{score[1]}", "iteration": len(residuals) + 1,
                        "residual": residual, "seconds": time.perf_counter() - start}
                history.append(step)
                if log:
                    log(f"score {step['score']} iteration {step['iteration']}: residual "
                        f"{residual:z.3e} ({step['seconds']:z.0f} s)")
                if residual <= tol:
                    break
                newton = not residuals or residual < residuals[-1]
                residuals.append(residual)
                nxt = _newton_block(model, v, reach, rows) if newton else None
                step["next"] = "newton" if nxt is not None else "value iteration"
                v[rows] = nxt if nxt is not None else f[rows]
                save("running")
            done.append(score)
            save("running")
        m, _ = model.linearise(v, reach)
        positions = {f"{a}|{b}": g.num_positions for (a, b), g in pool.graphs.items()
                     if hasattr(g, "num_positions")}
        return RenewalSolution(model, f.copy(), v.copy(), reach.copy(), history,
                               spectral_radius(m), positions)
    finally:
        pool.close()


def _newton_block(model: RenewalModel, v: np.ndarray, reach: np.ndarray, rows: np.ndarray
                  ) -> np.ndarray | None:
    """The Newton point of one score's block: ``V_B = M_BB V_B + M_B,rest V_rest + c_B``
    solved for ``V_B``; ``None`` if singular or out of [-1, 1]."""
    m, c = model.linearise(v, reach, rows)
    rest = np.ones(model.size, dtype=bool)
    rest[rows] = False
    a = np.eye(len(rows)) - m[np.ix_(rows, rows)]
    b = c[rows] + m[np.ix_(rows, rest)] @ v[rest]
    try:
        x = np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(x)) or np.max(np.abs(x)) > 1 + 1e-9:
        return None
    return np.clip(x, -1, 1)


def capped_values(model: RenewalModel, max_battles: int, graphs: dict | None = None
                  ) -> np.ndarray:
    """Every state's value in the war limited to ``max_battles`` battles (worth 0 at
    the cap), by backward induction over the battles left: ``V_k = F(V_{k-1})``,
    ``V_0 = 0`` — the model of ``python_cobardes_war`` with ``max_battles``, for
    checking against it."""
    pool = _Pool(model, 1, graphs)
    v = np.zeros(model.size)
    for _ in range(max_battles):
        jobs: dict = {}
        for i, state in enumerate(model.states):
            pay, _ = model.payoffs(v, state)
            jobs.setdefault(state[1], []).append((i, pay))
        nxt = np.zeros(model.size)
        for rows in pool.solve(jobs).values():
            for i, value, _ in rows:
                nxt[i] = value
        v = nxt
    return v


def fixed_pairing_guess(model: RenewalModel, directory=None) -> np.ndarray | None:
    """The fixed-pairing war values of every state from the pairing sweep's cache, a good
    first iterate; ``None`` if a pairing is missing (or the war is not won with 3
    Victory tokens, the sweep's)."""
    if model.victories != TOKENS_TO_WIN:
        return None
    results = sweep.load_results(model.pairings, model.warriors, model.combats,
                                 directory, war=True)
    if len(results) < len(model.pairings):
        return None
    return np.array([results[p].war["scores"][f"{a}-{b}"]["value"]
                     for (a, b), p in model.states])


def run_renewal(model: RenewalModel | None = None, directory: str | Path | None = None,
                workers: int = 2, tol: float = 1e-9, max_iterations: int = 30,
                log=print, graphs: dict | None = None) -> RenewalSolution:
    """Solve (or load) the renewal war, resuming from the cached iterate if a previous
    run was interrupted; writes the result to :func:`cache_path`. ``graphs`` as in
    :func:`solve_renewal`."""
    model = model or RenewalModel()
    path = cache_path(model, directory)
    guess, history, done = None, [], []
    cached = load_renewal(path)
    if cached is not None:
        sol, status = cached
        if status == "done" and sol.residual <= tol:
            return sol
        guess, history = sol.iterate, sol.history
        done = json.loads(path.read_text()).get("done", []) if status == "running" else []
        if log:
            log(f"resuming after {len(history)} iterations, scores done: {done}")
    if guess is None:
        guess = fixed_pairing_guess(model)
    start = time.perf_counter()
    sol = solve_renewal(model, guess, tol, max_iterations, workers, path, history, log,
                        graphs=graphs, done=done)
    data = sol.to_json()
    # "stopped": out of iterations before the tolerance; the next run resumes.
    data["status"] = "done" if sol.residual <= tol else "stopped"
    data["seconds"] = time.perf_counter() - start + sum(
        h["seconds"] for h in history)
    atomic_write_text(path, json.dumps(data))
    return sol


def load_renewal(path: str | Path) -> tuple[RenewalSolution, str] | None:
    """A cached renewal solution and its status (``running``, ``stopped`` or ``done``),
    or ``None``."""
    data = read_record(path)
    if data is None or data.get("version") != RENEWAL_VERSION:
        return None
    return RenewalSolution.from_json(data), data.get("status", "done")


# --------------------------------------------------------------------------- summaries
def keep_gain(sol: RenewalSolution, score: tuple[int, int] = (0, 0), rival_used: bool = True
              ) -> dict[tuple[str, str], float]:
    """Player 0's gain from keeping an unused courtier rather than renewing it, in the
    renewal into ``score``, against each rival courtier (used: the rival must renew;
    unused: the rival then decides): ``{(mine, theirs): keep value - renew value}``,
    each side followed by player 1's best reply."""
    used = 2 if rival_used else 0
    out = {}
    for pairing in sol.model.pairings:
        r = sol.renewal(score, pairing, used)
        keep = r.table[(KEEP, r.reply1[KEEP])]
        renew = r.table[(RENEW, r.reply1[RENEW])]
        out[pairing] = keep - renew
    return out


def value_table(sol: RenewalSolution) -> pd.DataFrame:
    """Player 0's war value at 0-0 by pairing (rows: player 0's courtier; NaN where no
    pairing, as on the diagonal)."""
    names = list(sol.model.courtiers)
    table = pd.DataFrame(float("nan"), index=names, columns=names)
    for a, b in sol.model.pairings:
        table.loc[a, b] = sol.value((a, b))
    return table


def keep_shares(sol: RenewalSolution) -> dict[str, float]:
    """Each courtier's share of the renewal situations in which its holder keeps it
    unplayed, both seats together (:func:`keep_counts`)."""
    return {c: (k["p0_keep"] + k["p1_keep"]) / max(1, k["p0_total"] + k["p1_total"])
            for c, k in keep_counts(sol).items()}


def keep_counts(sol: RenewalSolution) -> dict[str, dict[str, int]]:
    """For each courtier, in how many renewal situations (score after the battle, rival
    courtier, rival's courtier used or not) its holder keeps it when unused, as player
    0 and as player 1 (player 1's reply to player 0's actual choice)."""
    model = sol.model
    out = {c: {"p0_keep": 0, "p0_total": 0, "p1_keep": 0, "p1_total": 0}
           for c in model.courtiers}
    for score in model.scores:
        for pairing in model.pairings:
            for used in USED:
                r = sol.renewal(score, pairing, used)
                if not used & 1:
                    out[pairing[0]]["p0_total"] += 1
                    out[pairing[0]]["p0_keep"] += r.choice0 == KEEP
                if not used & 2:
                    out[pairing[1]]["p1_total"] += 1
                    out[pairing[1]]["p1_keep"] += r.reply1[r.choice0] == KEEP
    return out
