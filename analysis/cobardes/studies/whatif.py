"""¡Cobardes!'s what-if: the war without villains solved exactly, for a variant and for
the printed rules.

Each player draws a different courtier from the court deck and keeps it for the whole
war (the model of :mod:`analysis.cobardes.solvers.war`; the renewal war, which renews courtiers
between battles, takes half an hour and is not redone per variant). For every ordered
pairing the war is solved score by score, from the scores a battle leads to back to
0-0: the battle is solved exactly (backward induction over its public positions, matrix
games by simplex, :class:`~analysis.cobardes.solvers.fast_outcomes.OutcomeSolver`) with each
ending paid the war value of the score it leads to, a drawn battle repeating the score,
so each score's value is a fixed point found by Newton steps. How the battles end under
the solution then gives, exactly, each player's chance of winning the war, the chance it
never ends (only where a battle is drawn for sure) and the battles it lasts.

How much skill decides the war is measured the same way: the same solve also carries
how each battle ends when one player plays the solution of its score and the other picks
uniformly at random among its legal moves at every decision (the ``random`` bot, the only
other ¡Cobardes! agent that plays any variant), and the same composition of the scores
gives the solution's exact chance of winning the war against it, in either seat.

Villains: a battle with hidden villains is solved by CFR on an abstraction in minutes a
courtier matchup (``farol cobardes sweep --kind hidden``), too long to redo per variant.
A variant that changes only the war (its victories, its court deck) changes no battle:
its war with villains is composed from the stored matchups, beside the printed rules'
(:mod:`analysis.cobardes.studies.villain_whatif`); for one that changes the battle the answer
says what it would take.

Every pairing's solution is kept as one line of a record file under the data folder,
named by the rules it solved, so an interrupted what-if resumes, and the printed rules
are solved once for every variant.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import pyspiel

from analysis.cobardes.model import (
    CROWN,
    CROWN_LOSS,
    DRAW,
    LOSS,
    WIN,
    battle_params,
    outcome_totals,
    score_order,
)
from analysis.cobardes.solvers.fast_outcomes import OutcomeSolver
from analysis.cobardes.solvers.war import continuation
from analysis.cobardes.studies import villain_whatif
from analysis.play.whatif import (
    Estimate,
    Metric,
    WhatIf,
    exact,
    provenance_fields,
    significant,
    variant_name,
)
from analysis.shared import store
from analysis.shared.distribute import local_pool, run_on_dask
from analysis.shared.progress import bar as progress_bar
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import Payoffs, make_rules
from games.cobardes.war import WarRules
from games.errors import InvalidParameterError

WAR_GAME = "python_cobardes_war"
# The war's rules a battle reads (the rest are the war's own: victories, decks, kinds).
BATTLE_KEYS = ("warriors", "combats", "quicker", "followup", "exchange_limit")
TOLERANCE = 1e-10
MAX_SOLVES = 60
SOLVER = ("exact backward induction over the battle's public positions (matrix games by "
          "simplex), Newton steps on each score's fixed point")
WEAK = "a player picking uniformly at random among its legal moves"


@dataclass(frozen=True)
class PairingWar:
    """One pairing's war, solved: player 0's war value, its chances of winning and
    losing the war, the chance it never ends, the battles it lasts (expected), how the
    first battle ends, the battle solves it took, and the solution's chance of winning
    the war against a random player (:data:`WEAK`) as player 0 and as player 1."""

    pairing: tuple[str | None, str | None]
    value: float
    win: float
    loss: float
    endless: float
    battles: float
    first_battle: tuple[float, ...]
    solves: int
    skill: tuple[float, float]

    def to_json(self) -> dict:
        return {"pairing": list(self.pairing), "value": self.value, "win": self.win,
                "loss": self.loss, "endless": self.endless,
                "battles": None if math.isinf(self.battles) else self.battles,
                "first_battle": list(self.first_battle), "solves": self.solves,
                "skill": list(self.skill)}

    @classmethod
    def from_json(cls, data: dict) -> PairingWar:
        battles = data["battles"]
        return cls(tuple(data["pairing"]), float(data["value"]), float(data["win"]),
                   float(data["loss"]), float(data["endless"]),
                   math.inf if battles is None else float(battles),
                   tuple(float(x) for x in data["first_battle"]), int(data["solves"]),
                   tuple(float(x) for x in data["skill"]))


def war_rules(params: dict) -> WarRules:
    """The war's rules from game parameters, validated by the game (one line naming a bad
    parameter)."""
    return pyspiel.load_game(WAR_GAME, dict(params)).rules


def pairings(rules: WarRules) -> list[tuple[str | None, str | None]]:
    """Every ordered pairing of two different courtiers of the court deck (each equally
    likely), or the one pairing without courtiers."""
    if not rules.courtiers:
        return [(None, None)]
    names = [C.COURTIER_NAMES[i] for i in E.bits(rules.cfg.court_deck)]
    return [(a, b) for a in names for b in names if a != b]


def solve_pairing(params: dict, pairing: tuple[str | None, str | None],
                  victories: int, solvers: dict | None = None) -> PairingWar:
    """The war of one pairing solved exactly (see the module's docstring). ``solvers``,
    if given, receives each score's last battle solver: its solution is the one scored
    against a random player (to play it, :meth:`OutcomeSolver.solution_mix`)."""
    rules = make_rules(battle_params(pairing, **{k: params[k] for k in BATTLE_KEYS
                                                 if k in params}))
    values: dict[tuple[int, int], float] = {}
    ends: dict[tuple[int, int], tuple[float, ...]] = {}
    # How the battle at each score ends with the solution against a random player, the
    # solution as player 0, then as player 1.
    weak: tuple[dict, dict] = ({}, {})
    solves = 0
    guess = 0.0
    for score in score_order(victories):
        win, loss = continuation(values, score, victories)
        x = guess
        for _ in range(MAX_SOLVES):
            solver = OutcomeSolver(rules.cfg, Payoffs(win, loss, 1.0, -1.0, x),
                                   random_rival=True)
            value, endings = solver.value_and_outcomes(rules.initial)
            q = tuple(float(p) for p in outcome_totals(endings))
            solves += 1
            if abs(value - x) <= TOLERANCE:
                break
            d = q[DRAW]
            x = (value - d * x) / (1.0 - d) if d < 1.0 - 1e-12 else value
        if q[DRAW] > 1.0 - 1e-9:
            x = 0.0  # drawn for sure: the war capped in battles tends to 0 there
        values[score], ends[score] = x, q
        for seat, endings in enumerate(solver.endings_against_random(rules.initial)):
            weak[seat][score] = tuple(float(p) for p in outcome_totals(endings))
        if solvers is not None:
            solvers[score] = solver
        rest = 1.0 - q[DRAW]
        guess = ((q[WIN] * win + q[LOSS] * loss + q[CROWN] - q[CROWN_LOSS]) / rest
                 if rest > 1e-12 else 0.0)
    win_p, loss_p, battles = chain(ends, victories)
    skill = (chain(weak[0], victories)[0], chain(weak[1], victories)[1])
    return PairingWar(pairing, values[(0, 0)], win_p, loss_p, max(0.0, 1.0 - win_p - loss_p),
                      battles, ends[(0, 0)], solves, skill)


def chain(ends: dict[tuple[int, int], tuple[float, ...]], victories: int
          ) -> tuple[float, float, float]:
    """From 0-0, player 0's chance of winning the war, of losing it, and the battles
    expected, when the battle at each score ends as ``ends`` says (a draw repeats it)."""
    won: dict[tuple[int, int], float] = {}
    lost: dict[tuple[int, int], float] = {}
    length: dict[tuple[int, int], float] = {}

    def at(table, a, b, top0, top1):
        if a >= victories:
            return top0
        if b >= victories:
            return top1
        return table[(a, b)]

    for a, b in score_order(victories):
        q = ends[(a, b)]
        rest = 1.0 - q[DRAW]
        if rest <= 1e-12:
            won[(a, b)] = lost[(a, b)] = 0.0
            length[(a, b)] = math.inf
            continue
        won[(a, b)] = (q[WIN] * at(won, a + 1, b, 1.0, 0.0) + q[LOSS] * at(won, a, b + 1, 1.0, 0.0)
                       + q[CROWN]) / rest
        lost[(a, b)] = (q[WIN] * at(lost, a + 1, b, 0.0, 1.0)
                        + q[LOSS] * at(lost, a, b + 1, 0.0, 1.0) + q[CROWN_LOSS]) / rest
        length[(a, b)] = (1.0 + q[WIN] * at(length, a + 1, b, 0.0, 0.0)
                          + q[LOSS] * at(length, a, b + 1, 0.0, 0.0)) / rest
    return won[(0, 0)], lost[(0, 0)], length[(0, 0)]


def _solve_many(params: dict, todo: list, victories: int) -> list[dict]:
    return [solve_pairing(params, pairing, victories).to_json() for pairing in todo]


def record_file(params: dict) -> tuple[str, dict]:
    """Where the pairings of a rule set are kept, and the line heading the file: the
    shipped file of the data folder where there is one (the printed rules' wars), else
    the cache (a what-if writes nothing beside the code but its page)."""
    header = {"game": WAR_GAME, "params": params, "model": "courtiers kept, no villains",
              "solver": SOLVER, "skill": f"the solution against {WEAK}"}
    digest = hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()[:16]
    shipped = store.data("cobardes", "whatif", f"war_{digest}.jsonl")
    kept = shipped if shipped.exists() else store.cache("whatif", "cobardes", shipped.name)
    return str(kept), header


def solve_wars(params: dict, workers: int = 1, scheduler=None, progress: bool | None = None,
               desc: str = "pairings") -> list[PairingWar]:
    """Every pairing's war under the rules ``params`` (war parameters), resuming from the
    pairings already kept."""
    params = significant(WAR_GAME, params, keep=("kinds",))
    rules = war_rules(params)
    path, header = record_file(params)
    done = _read(path, header)
    everyone = pairings(rules)
    todo = [p for p in everyone if p not in done]
    bar = progress_bar(total=len(everyone), initial=len(everyone) - len(todo), unit=" pairings",
                       desc=desc, progress=progress, leave=False)

    def keep(results: list[dict]) -> None:
        with open(path, "a") as fh:
            for r in results:
                fh.write(json.dumps(r) + "\n")
                done[tuple(r["pairing"])] = PairingWar.from_json(r)
        bar.update(len(results))

    chunks = [todo[i:i + 3] for i in range(0, len(todo), 3)]
    try:
        if scheduler is not None:
            run_on_dask(scheduler, _solve_many, [(params, c, rules.victories) for c in chunks],
                        keep)
        elif workers <= 1 or len(chunks) <= 1:
            for c in chunks:
                keep(_solve_many(params, c, rules.victories))
        else:
            with local_pool(workers) as pool:
                futures = [pool.submit(_solve_many, params, c, rules.victories) for c in chunks]
                for future in futures:
                    keep(future.result())
    finally:
        bar.close()
    return [done[p] for p in everyone]


def _read(path: str, header: dict) -> dict:
    """The pairings a record file holds, starting it with ``header`` when it is new; a
    last line cut by an interruption is dropped (its pairing is solved again)."""
    found: dict = {}
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except FileNotFoundError:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as fh:
            fh.write(json.dumps(header) + "\n")
        return found
    try:
        first = json.loads(lines[0])
        # The last piece is empty when the file ends with its newline, else a line cut
        # by an interruption: either way only the lines before it are whole.
        kept = [PairingWar.from_json(json.loads(line)) for line in lines[1:-1] if line.strip()]
    except (ValueError, KeyError, TypeError) as exc:
        raise store.CorruptFileError(f"{path} is not a what-if's war record ({exc}); "
                                     "delete it") from None
    if first != json.loads(json.dumps(header)):
        raise store.CorruptFileError(f"{path} holds another what-if's wars; delete it")
    found = {r.pairing: r for r in kept}
    if lines[-1]:  # a line without its newline: cut it off
        with open(path, "w") as fh:
            fh.write("\n".join(lines[:-1]) + "\n")
    return found


def _mean(values) -> float:
    values = list(values)
    return math.fsum(values) / len(values)


def summary(wars: list[PairingWar]) -> dict[str, float]:
    """The balance answers over the pairings (each equally likely)."""
    out = {"seat_1": _mean(w.win for w in wars), "seat_2": _mean(w.loss for w in wars),
           "draw_rate": _mean(w.endless for w in wars),
           "length": _mean(w.battles for w in wars),
           "battle_draws": _mean(w.first_battle[DRAW] for w in wars),
           "skill_random_2p": _mean((w.skill[0] + w.skill[1]) / 2 for w in wars)}
    out["first_player_edge"] = out["seat_1"] - 0.5
    names = sorted({c for w in wars for c in w.pairing if c is not None})
    for name in names:
        mine = [w.value for w in wars if w.pairing[0] == name]
        mine += [-w.value for w in wars if w.pairing[1] == name]
        out[f"courtier_{name}"] = _mean(mine)
    return out


LABELS = {
    "seat_1": ("the first player's chance of winning the war", "share"),
    "seat_2": ("the second player's chance of winning the war", "share"),
    "first_player_edge": ("the first player's edge (seat 1 minus a half)", "share"),
    "draw_rate": ("wars that never end (a battle drawn for sure)", "share"),
    "length": ("battles a war lasts", "battles"),
    "battle_draws": ("first battles drawn", "share"),
    "skill_random_2p": ("the solved strategy's chance of winning the war against a random "
                        "player (both seats)", "share"),
}


def run_whatif(variant: dict, seed: int = 0, workers: int = 1, scheduler=None,
               progress: bool | None = None, name: str | None = None) -> WhatIf:
    """The variant's war against the printed rules' (see the module's docstring)."""
    start = time.perf_counter()
    variant = dict(variant)
    rules = war_rules(variant)
    war_rules({})
    unmodelled = villain_whatif.not_modelled(variant)
    if unmodelled:
        raise InvalidParameterError(
            f"{', '.join(unmodelled)}: the what-if solves the war from its start (no Victory "
            "tokens) with no cap on its battles, so it cannot vary these; vary victories, "
            "warriors, combats or the decks")
    notes = [f"Solved exactly: {SOLVER}"
             + ("; each player keeps one courtier for the whole war, every ordered pairing of "
                "two different courtiers equally likely." if rules.courtiers else ".")]
    notes.append("How much skill decides the war: the strong player plays the solved strategy "
                 f"of each score, the weak one is {WEAK} at every decision (the random "
                 "bot); the strong player's chance of winning is exact, averaged over both "
                 "seats and every pairing.")
    with_villains: list[Metric] = []
    if rules.villains:
        notes.append("The war above leaves villains out; the courtiers' ranking without "
                     "villains is that war's.")
        base_war, war = villain_whatif.war_for({}), villain_whatif.war_for(variant)
        if isinstance(base_war, str) or isinstance(war, str):
            notes.append(war if isinstance(war, str) else base_war)
        else:
            with_villains = villain_whatif.metrics(base_war, war)
            notes.append(villain_whatif.model_note(base_war, war))
    free = {k: v for k, v in variant.items() if k != "villain_deck"}
    free["kinds"] = "warriors+courtiers" if rules.courtiers else "warriors"
    printed = {"kinds": free["kinds"]}
    a = solve_wars(printed, workers, scheduler, progress, "printed rules")
    b = solve_wars(free, workers, scheduler, progress, "variant")
    sa, sb = summary(a), summary(b)
    metrics = []
    for key in sorted(set(sa) & set(sb), key=_order):
        label, unit = LABELS.get(key, (f"the {key[len('courtier_'):]}'s war value over its "
                                       "rivals, both seats", "value"))
        metrics.append(Metric(key, label, unit, exact(sa[key]), exact(sb[key]),
                              _exact_difference(sa[key], sb[key]),
                              solved_by(b)))
    version, commit = provenance_fields()
    games = {"printed pairings": len(a), "variant pairings": len(b),
             "battle solves": sum(w.solves for w in a + b)}
    if with_villains:
        games["matchups with villains composed"] = base_war.matchups + war.matchups
    return WhatIf("cobardes", name or variant_name(variant), variant, printed,
                  tuple(metrics + with_villains), tuple(notes), games, seed, version, commit,
                  round(time.perf_counter() - start, 1))


def solved_by(wars: list[PairingWar]) -> str:
    """Who answered: the exact solve, over how many pairings."""
    if len(wars) == 1 and wars[0].pairing == (None, None):
        return "the war without courtiers, solved exactly"
    return f"the war solved exactly for each of its {len(wars)} pairings"


def _exact_difference(a: float, b: float) -> Estimate:
    if math.isinf(a) or math.isinf(b):
        return exact(math.nan)
    return exact(b - a)


def _order(key: str) -> tuple[int, str]:
    keys = list(LABELS)
    return (keys.index(key), key) if key in keys else (len(keys), key)
