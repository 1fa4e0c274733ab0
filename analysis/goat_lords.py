"""Goat Lords: bots, a seeded resumable tournament runner, and the balance questions.

Bots (registered for ``farol play python_goat_lords --opponent NAME``):

``random``
    Uniformly random legal actions (:mod:`analysis.bots`).
``greedy``
    A heuristic that sees only its own hand and the public table: duel for the
    richest top pile it can attack, else bank its most valuable pair, fight a duel
    while it holds matching cards, discard its cheapest card.
``mcts``
    OpenSpiel's ``MCTSBot`` with random roll-outs **on the full state**: it sees
    every hand and the draw pile, so it cheats; a yardstick, not a fair player.
``ismcts``
    OpenSpiel's ``ISMCTSBot`` with random roll-outs; it searches worlds resampled
    from its own information state (``resample_from_infostate``), so it is fair.

The tournament runner plays :class:`Experiment` s over processes, one seed per
game, appending each finished game to a CSV so a rerun skips what is done. The
statistics functions turn those rows into the answers of the report (95%
confidence intervals throughout).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import games  # noqa: F401  (registers the games)
from analysis.bots import Bot, BotSpec, make_bot, register_bot, sample_chance
from games.goat_lords import rules
from games.goat_lords.cards import DEFAULT_VALUES, GOAT_VALUE_RANGE, IS_WILD, KINDS, NUM_KINDS
from games.goat_lords.game import VALUE_PARAMS
from games.goat_lords.table import DUEL, OVER, STARTER, Table

GAME = "python_goat_lords"


class _LazyPandas:
    """pandas, imported on first use: ``farol`` imports this module at start-up for its
    sub-command and bots, and most commands never touch a data frame."""

    def __getattr__(self, name):
        import pandas

        return getattr(pandas, name)


pd = _LazyPandas()


# --- bots --------------------------------------------------------------------------
def greedy_choice(table: Table, seat: int, legal: Sequence[int]) -> int:
    """The greedy heuristic's action for ``seat`` (it reads only its hand and public cards).

    Duels swing points twice (the attacker gains the pile, the target loses it) and
    attackers win most of them, so the heuristic duels for the richest top pile it
    can attack, then banks its most valuable pair; in a duel it answers while it
    can, goats before wilds. Its weights were tuned on a few hundred games against
    the random bot (duel weight 1 → 64% wins, 1.5 → 79%, 5 → 89%).
    """
    values = table.cfg.values
    hand = table.hands[seat]
    if table.phase == DUEL:
        cards = [a - rules.ANSWER0 for a in legal if a != rules.YIELD]
        goats = [k for k in cards if not IS_WILD[k]]
        if goats:
            return rules.ANSWER0 + goats[0]
        if cards:
            # The winner keeps every duel card, so a wild risked is not a wild spent.
            return rules.ANSWER0 + min(cards, key=lambda k: values[k])
        return rules.YIELD
    best, best_score = legal[0], -math.inf
    for action in legal:
        if action < rules.ASSIST0:
            a, b = rules.BIRTH_PAIRS[action]
            score = values[a] + values[b] - 10 * (IS_WILD[a] + IS_WILD[b])
        elif action < rules.DUEL0:
            k = action - rules.ASSIST0
            score = values[k] + values[table.discard[-1]] - 10 * IS_WILD[k] + 1
        elif action < rules.ANSWER0:
            target, k = divmod(action - rules.DUEL0, NUM_KINDS)
            kind, pile = table.herds[target][-1]
            matching = sum(hand[c] for c in range(NUM_KINDS) if rules.matches(c, kind))
            stake = sum(values[c] for c in pile)
            # A spare matching card improves the odds of outlasting the defender.
            score = 5 * stake * (1.0 if matching > 1 else 0.6) - 10 * IS_WILD[k]
        else:
            score = -values[action - rules.DISCARD0]
        if score > best_score:
            best, best_score = action, score
    return best


def greedy_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The greedy heuristic bound to ``seat`` (deterministic: the seed is unused)."""

    def act(state: pyspiel.State) -> int:
        return greedy_choice(state.table, seat, state.legal_actions(seat))

    return act


class TableRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's random roll-out evaluation, played on the rules table without the wrapper.

    Same semantics as ``mcts.RandomRolloutEvaluator`` (uniform legal actions,
    chance by its probabilities, average terminal returns), several times faster.
    """

    def __init__(self, n_rollouts: int = 1, seed: int = 0):
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state):
        n = state.table.cfg.players
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            t = state.table.copy(record=False)
            rng = self._rng
            while t.phase != OVER:
                if t.to_move < 0:
                    kinds, probs = zip(*t.chance_outcomes(), strict=True)
                    t.apply_chance(rng.choices(kinds, probs)[0])
                else:
                    legal = t.legal_actions()
                    t.apply_action(legal[rng.randrange(len(legal))])
            total += rules.returns_for(t.winning, n)
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def mcts_bot(game: pyspiel.Game, seat: int, seed: int = 0, simulations: int = 100) -> Bot:
    """OpenSpiel's MCTS on the full state (it sees every hand: a cheating yardstick)."""
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations,
        evaluator=TableRolloutEvaluator(1, seed), solve=False,
        random_state=np.random.RandomState(seed),
    )
    return bot.step


def ismcts_bot(game: pyspiel.Game, seat: int, seed: int = 0, simulations: int = 100) -> Bot:
    """OpenSpiel's ISMCTS, searching worlds resampled from the seat's information state."""
    bot = ismcts.ISMCTSBot(
        game, evaluator=TableRolloutEvaluator(1, seed), uct_c=2.0,
        max_simulations=simulations, random_state=np.random.RandomState(seed),
        use_observation_string=False,
    )
    return bot.step


register_bot(BotSpec("greedy", "heuristic: best pair, worthwhile duels, cheapest discard",
                     greedy_bot, games=(GAME,)))
register_bot(BotSpec("mcts", "OpenSpiel MCTS, 100 simulations, random roll-outs; sees all hands (cheats)",
                     mcts_bot, games=(GAME,)))
register_bot(BotSpec("ismcts", "OpenSpiel ISMCTS, 100 simulations, random roll-outs (fair)",
                     ismcts_bot, games=(GAME,)))


def build_bot(name: str, game: pyspiel.Game, seat: int, seed: int) -> Bot:
    """A bot by name; ``mcts:N`` / ``ismcts:N`` set the simulations per move."""
    if ":" in name:
        kind, sims = name.split(":", 1)
        factory = {"mcts": mcts_bot, "ismcts": ismcts_bot}[kind]
        return factory(game, seat, seed, simulations=int(sims))
    return make_bot(name, game, seat, seed)


# --- tournaments -------------------------------------------------------------------
@dataclass(frozen=True)
class Experiment:
    """A batch of seeded games with the same bots and rules.

    ``bots`` names one bot per seat; with ``rotate`` the seating shifts by one seat
    each game, so every bot sits in every seat equally often. Game ``i`` is seeded
    from ``seed`` and ``i`` only, so any subset of games can be (re)played alone.
    """

    name: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 20261130
    params: tuple[tuple[str, object], ...] = ()
    rotate: bool = False
    label: str = ""
    extra_wild: bool = False

    def treated_seat(self, index: int) -> int | None:
        """With ``extra_wild``, the seat of game ``index`` dealt one more wild (else ``None``)."""
        return index % self.players if self.extra_wild else None

    def game_params(self) -> dict:
        return {"players": self.players, "scoring": "single", **dict(self.params)}

    def key(self) -> str:
        """Identifies the games (not how many): a CSV holds rows of one key only."""
        spec = json.dumps([self.players, self.bots, self.seed, sorted(self.game_params().items()),
                           self.rotate] + (["extra_wild"] if self.extra_wild else []), default=str)
        return hashlib.sha1(spec.encode()).hexdigest()[:10]

    def seating(self, index: int) -> tuple[str, ...]:
        if not self.rotate:
            return self.bots
        shift = index % self.players
        return self.bots[-shift:] + self.bots[:-shift] if shift else self.bots


def _join(values) -> str:
    return ";".join(str(v) for v in values)


def play_one(exp: Experiment, index: int) -> dict:
    """Play game ``index`` of ``exp``; returns its CSV row."""
    seed = (exp.seed * 1_000_003 + index * 7_919) % (2**31 - 1)
    game = pyspiel.load_game(GAME, exp.game_params())
    seating = exp.seating(index)
    bots = [build_bot(name, game, seat, seed + 17 * (seat + 1)) for seat, name in enumerate(seating)]
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    decisions = 0
    treated = exp.treated_seat(index)
    while not state.is_terminal():
        if state.is_chance_node():
            if treated is not None and state.table.phase == STARTER:
                _swap_in_a_wild(state.table, treated, rng)
                treated = None
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(int(bots[state.current_player()](state)))
            decisions += 1
    t = state.table
    return {
        "key": exp.key(), "index": index, "seed": seed, "players": exp.players,
        "seating": _join(seating), "winners": _join(t.winning),
        "returns": _join(f"{r:.6g}" for r in state.returns()),
        "points": _join(t.round_points[-1]), "wilds": _join(t.stats["wilds_drawn"]),
        "turns": t.turns, "decisions": decisions,
        "attacker_wins": t.stats["attacker_wins"], "defender_wins": t.stats["defender_wins"],
        "reshuffles": t.stats["reshuffles"],
    }


def _swap_in_a_wild(table: Table, seat: int, rng: np.random.Generator) -> None:
    """The experiment's intervention: after the deal, ``seat``'s cheapest goat is swapped for a
    wild from the draw pile (Goat Lord or Goatini by their counts there).

    Everything before it (the deal) is the same as in the game without it, so
    comparing the two by game index measures what one more wild is worth.
    """
    goats = [k for k in range(NUM_KINDS) if table.hands[seat][k] and not IS_WILD[k]]
    wilds = [k for k in range(NUM_KINDS) if IS_WILD[k] and table.draw[k]]
    if not goats or not wilds:
        return
    goat = min(goats, key=lambda k: (table.cfg.values[k], k))
    counts = np.array([table.draw[k] for k in wilds], dtype=float)
    wild = wilds[int(rng.choice(len(wilds), p=counts / counts.sum()))]
    table.hands[seat][goat] -= 1
    table.draw[goat] += 1
    table.hands[seat][wild] += 1
    table.draw[wild] -= 1
    table.stats["wilds_drawn"][seat] += 1


def _play_chunk(exp: Experiment, indices: list[int]) -> list[dict]:
    return [play_one(exp, i) for i in indices]


COLUMNS = ["key", "index", "seed", "players", "seating", "winners", "returns", "points", "wilds",
           "turns", "decisions", "attacker_wins", "defender_wins", "reshuffles"]


def csv_path(exp: Experiment, data_dir: Path) -> Path:
    return Path(data_dir) / f"goat_lords_{exp.name}.csv"


def load_rows(exp: Experiment, data_dir: Path) -> pd.DataFrame:
    """The finished games of ``exp`` stored under ``data_dir`` (rows of other keys ignored)."""
    path = csv_path(exp, data_dir)
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    df = pd.read_csv(path, dtype={"winners": str, "returns": str, "points": str, "wilds": str,
                                  "seating": str, "key": str})
    return df[df["key"] == exp.key()].drop_duplicates("index").sort_values("index")


def run_experiment(
    exp: Experiment,
    data_dir: Path,
    workers: int | None = None,
    chunk: int = 25,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play the games of ``exp`` not yet in its CSV, in parallel; returns all its rows.

    Finished chunks are appended to ``<data_dir>/goat_lords_<name>.csv`` as they
    arrive, so an interrupted run resumes where it stopped.
    """
    from tqdm import tqdm

    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    done = set(load_rows(exp, data_dir)["index"].astype(int))
    todo = [i for i in range(exp.games) if i not in done]
    if todo:
        path = csv_path(exp, data_dir)
        workers = workers or min(2, os.cpu_count() or 1)
        # Small chunks for small batches (slow search games), so both workers stay busy.
        chunk = max(1, min(chunk, len(todo) // (4 * workers)))
        chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
        show = sys.stderr.isatty() if progress is None else progress
        bar = tqdm(total=len(todo), desc=exp.name, disable=not show, leave=False)

        def save(rows: list[dict]) -> None:
            frame = pd.DataFrame(rows, columns=COLUMNS)
            frame.to_csv(path, mode="a", header=not path.exists() or path.stat().st_size == 0, index=False)
            bar.update(len(rows))

        if workers <= 1 or len(chunks) == 1:
            for part in chunks:
                save(_play_chunk(exp, part))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [pool.submit(_play_chunk, exp, part) for part in chunks]
                for future in as_completed(futures):
                    save(future.result())
        bar.close()
    rows = load_rows(exp, data_dir)
    return rows[rows["index"] < exp.games]


# --- statistics ----------------------------------------------------------------------
Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float, float]:
    """A proportion and its 95% Wilson score interval (ties may count fractionally)."""
    if n == 0:
        return (float("nan"),) * 3
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """A mean and its 95% normal-approximation interval."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return (float("nan"),) * 3
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - half, m + half


def _split(series: pd.Series, cast=float) -> list[list]:
    return [[cast(v) for v in str(s).split(";") if v != ""] for s in series]


def player_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): bot, win share, herd points, wilds received."""
    out = []
    for row, winners, points, wilds, seating in zip(
        df.itertuples(), _split(df["winners"], int), _split(df["points"], int),
        _split(df["wilds"], int), _split(df["seating"], str), strict=True,
    ):
        for seat in range(row.players):
            share = 1.0 / len(winners) if seat in winners else 0.0
            out.append({"index": row.index, "players": row.players, "seat": seat,
                        "bot": seating[seat], "win": share, "points": points[seat],
                        "wilds": wilds[seat]})
    return pd.DataFrame(out)


def seat_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each seat with its 95% interval, against the fair share 1/n."""
    rows = []
    pr = player_rows(df)
    for (players, seat), group in pr.groupby(["players", "seat"]):
        p, lo, hi = wilson(group["win"].sum(), len(group))
        rows.append({"players": players, "seat": seat, "games": len(group), "win_rate": p,
                     "lo": lo, "hi": hi, "fair": 1.0 / players})
    return pd.DataFrame(rows)


def bot_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each bot over all its seats, with its 95% interval."""
    rows = []
    for bot, group in player_rows(df).groupby("bot"):
        p, lo, hi = wilson(group["win"].sum(), len(group))
        rows.append({"bot": bot, "seats_played": len(group), "win_rate": p, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def ratio_ci(num: Sequence[float], den: Sequence[float]) -> tuple[float, float, float]:
    """``sum(num) / sum(den)`` over games with a 95% interval clustered by game.

    Duels of one game are not independent (same hands, same herds), so the
    standard error comes from the per-game sums (delta method), not from the
    duel count.
    """
    a, d = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    n = len(a)
    r = float(a.sum() / d.sum())
    e = a - r * d
    se = math.sqrt(n / max(1, n - 1) * float((e * e).sum())) / float(d.sum())
    return r, max(0.0, r - Z95 * se), min(1.0, r + Z95 * se)


def duel_success(df: pd.DataFrame) -> dict:
    """Share of duels the attacker wins (95% interval clustered by game) and duels per game."""
    att, dfn = int(df["attacker_wins"].sum()), int(df["defender_wins"].sum())
    p, lo, hi = ratio_ci(df["attacker_wins"], df["attacker_wins"] + df["defender_wins"])
    per_game = mean_ci(df["attacker_wins"] + df["defender_wins"])
    return {"duels": att + dfn, "attacker_rate": p, "lo": lo, "hi": hi,
            "per_game": per_game[0], "per_game_lo": per_game[1], "per_game_hi": per_game[2]}


def wild_worth(df: pd.DataFrame) -> dict:
    """What a wild received is worth: win-rate and herd-point slopes per extra wild.

    Ordinary least squares of a seat's win share (and herd points) on the number of
    wilds it received over the round, with the player count as fixed effect: an
    observational estimate (a wild comes with the luck of the draw, nothing else is
    controlled). The seats of one game are dependent (one seat's win is the others'
    loss), so the 95% intervals use standard errors clustered by game.
    """
    pr = player_rows(df)
    if pr.empty:
        return {}
    # Demean within player count (fixed effect), then a one-regressor slope.
    x = pr["wilds"] - pr.groupby("players")["wilds"].transform("mean")
    out = {"seats": len(pr)}
    for target in ("win", "points"):
        y = pr[target] - pr.groupby("players")[target].transform("mean")
        sxx = float((x * x).sum())
        slope = float((x * y).sum()) / sxx
        resid = y - slope * x
        cluster = pr["players"].astype(str) + ":" + pr["index"].astype(str)
        scores = (x * resid).groupby(cluster).sum()
        g = len(scores)
        se = math.sqrt(g / max(1, g - 1) * float((scores * scores).sum())) / sxx
        out[target] = (slope, slope - Z95 * se, slope + Z95 * se)
    by = []
    for w, group in pr.groupby(pr["wilds"].clip(upper=3)):
        fair = float((1.0 / group["players"]).mean())
        p, lo, hi = wilson(group["win"].sum(), len(group))
        by.append({"wilds": int(w), "seats": len(group), "win_rate": p, "lo": lo, "hi": hi,
                   "fair": fair, "points": float(group["points"].mean())})
    out["by_count"] = pd.DataFrame(by)
    return out


def extra_wild_effect(treated: pd.DataFrame, control: pd.DataFrame, players: int) -> dict:
    """What one more wild in the opening hand is worth, from paired games.

    Game ``i`` of the treated experiment is game ``i`` of the control with seat
    ``i % players`` dealt one more wild (in place of its cheapest goat); the deal
    is the same. Returns the treated seat's mean win share and herd points minus
    the same seat's in the control game, with 95% intervals over the pairs.
    """
    merged = treated.merge(control, on="index", suffixes=("_t", "_c"))
    wins, points = [], []
    for row in merged.itertuples():
        seat = row.index % players
        w_t, w_c = str(row.winners_t).split(";"), str(row.winners_c).split(";")
        share_t = 1.0 / len(w_t) if str(seat) in w_t else 0.0
        share_c = 1.0 / len(w_c) if str(seat) in w_c else 0.0
        wins.append(share_t - share_c)
        points.append(int(str(row.points_t).split(";")[seat]) - int(str(row.points_c).split(";")[seat]))
    return {"pairs": len(merged), "win": mean_ci(wins), "points": mean_ci(points)}


def game_length(df: pd.DataFrame) -> dict:
    """Turns per round and decisions per game: mean (95% interval), median and 5–95%."""
    turns = df["turns"].astype(float)
    m, lo, hi = mean_ci(turns)
    p5, p50, p95 = np.percentile(turns, [5, 50, 95])
    return {"turns": m, "lo": lo, "hi": hi, "median": p50, "p5": p5, "p95": p95,
            "decisions": float(df["decisions"].mean()), "reshuffle_rate": float((df["reshuffles"] > 0).mean())}


# --- the plan -----------------------------------------------------------------------
VALUE_SETS: dict[str, tuple[int, ...]] = {
    "assumed": DEFAULT_VALUES,
    "flat": tuple(25 if w else 10 for w in IS_WILD),
    # Rarity reversed: the common kinds worth most (not proportional to any other set).
    "reversed": (25, 50, 5, 10, 10, 10, 15, 15, 15, 20, 20, 20),
    "cheap wilds": tuple(25 if w else (20 if k.copies == 8 else 15) for w, k in zip(IS_WILD, KINDS, strict=True)),
    "rich wilds": tuple(50 if w else 5 for w in IS_WILD),
    "random draw": tuple(
        random.Random(7).randint(25, 50) if w else random.Random(100 + i).randint(*GOAT_VALUE_RANGE)
        for i, w in enumerate(IS_WILD)
    ),
}


def value_params(values: Sequence[int]) -> tuple[tuple[str, int], ...]:
    return tuple(zip(VALUE_PARAMS, values, strict=True))


@dataclass
class Budget:
    """Games per experiment: the full report's defaults, or tiny ones under FAROL_QUICK."""

    seats_greedy: int
    seats_random: int
    sensitivity: int
    head_to_head: int
    search: int
    simulations: int
    extra_wild: int
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    sensitivity_players: tuple[int, ...] = (2, 4)
    extra: dict = field(default_factory=dict)


def budget(quick: bool) -> Budget:
    if quick:
        return Budget(seats_greedy=40, seats_random=30, sensitivity=30, head_to_head=20,
                      search=2, simulations=10, extra_wild=40)
    return Budget(seats_greedy=3000, seats_random=1500, sensitivity=1000, head_to_head=1000,
                  search=40, simulations=60, extra_wild=2000)


def plan(quick: bool) -> dict[str, list[Experiment]]:
    """Every experiment of the report, grouped by question."""
    b = budget(quick)
    tag = "quick_" if quick else ""
    seats = []
    for n in b.players:
        seats.append(Experiment(f"{tag}seats_greedy_{n}p", n, ("greedy",) * n, b.seats_greedy,
                                label="greedy"))
        seats.append(Experiment(f"{tag}seats_random_{n}p", n, ("random",) * n, b.seats_random,
                                label="random"))
    sensitivity = [
        Experiment(f"{tag}values_{name.replace(' ', '_')}_{n}p", n, ("greedy",) * n, b.sensitivity,
                   params=value_params(values), label=name)
        for name, values in VALUE_SETS.items() for n in b.sensitivity_players
    ]
    sims = b.simulations
    matchups = [
        Experiment(f"{tag}h2h_greedy_random", 2, ("greedy", "random"), b.head_to_head, rotate=True,
                   label="greedy vs random"),
        Experiment(f"{tag}h2h_mcts_greedy", 2, (f"mcts:{sims}", "greedy"), b.search, rotate=True,
                   label=f"MCTS ({sims} sims, cheats) vs greedy"),
        Experiment(f"{tag}h2h_ismcts_greedy", 2, (f"ismcts:{sims}", "greedy"), b.search, rotate=True,
                   label=f"ISMCTS ({sims} sims) vs greedy"),
    ]
    # The same games as the all-greedy seat experiments, one seat dealt an extra wild.
    extra = [Experiment(f"{tag}extra_wild_{n}p", n, ("greedy",) * n, b.extra_wild, label="greedy",
                        extra_wild=True) for n in b.players]
    return {"seats": seats, "sensitivity": sensitivity, "matchups": matchups, "extra_wild": extra}


def run_plan(data_dir: Path, quick: bool, workers: int | None = None,
             only: Callable[[Experiment], bool] | None = None) -> dict[str, list[tuple[Experiment, pd.DataFrame]]]:
    """Run (or load) every experiment of the plan."""
    results = {}
    for group, experiments in plan(quick).items():
        results[group] = [
            (exp, run_experiment(exp, data_dir, workers=workers))
            for exp in experiments if only is None or only(exp)
        ]
    return results


# --- report sections -------------------------------------------------------------------
_RESULTS: dict[tuple[str, bool], dict] = {}


def _results(ctx) -> dict:
    """The plan's results for this report (played once, then read from the CSVs)."""
    key = (str(ctx.outdir), ctx.quick)
    if key not in _RESULTS:
        _RESULTS[key] = run_plan(Path(ctx.outdir) / "data", ctx.quick)
    return _RESULTS[key]


def _pct(p: float, lo: float, hi: float) -> str:
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _method_section(ctx) -> str:
    b = budget(ctx.quick)
    seed = Experiment("x", 2, ("greedy",) * 2, 1).seed
    values = ", ".join(f"{k.name} {v}" for k, v in zip(KINDS, DEFAULT_VALUES, strict=True))
    return (
        "## Bots and how the numbers were measured\n\n"
        "Every game below is one round with the alternative scoring (`scoring=single`: most "
        "herd points wins; ties share the win). Bots:\n\n"
        "- **random** — uniformly random legal actions.\n"
        "- **greedy** — sees only its hand and the public table: duels for the richest top pile "
        "it can attack (duels swing points twice), otherwise banks its most valuable pair (a "
        "wild costs it 10 points of preference); in a duel it answers while it can, goats "
        "before wilds; discards its cheapest card.\n"
        f"- **MCTS** — OpenSpiel's `MCTSBot` ({b.simulations} simulations per move, UCT c=2, one "
        "random roll-out per leaf) on the **full state**: it sees every hand and the order-free "
        "draw pile, so it **cheats**. A yardstick only.\n"
        f"- **ISMCTS** — OpenSpiel's `ISMCTSBot` ({b.simulations} simulations, same evaluator), "
        "which searches worlds resampled from its own information state with the game's "
        "`resample_from_infostate` (other hands and the draw pile dealt again at random): fair.\n\n"
        f"Game *i* of an experiment is seeded from the experiment seed **{seed}** and *i*; "
        "results are cached in `reports/data/goat_lords_*.csv` and a rerun only plays missing "
        "games. Intervals are 95%: Wilson intervals for rates, normal intervals for means. "
        f"Point values (an assumption, see the rulings): {values}."
        + ("\n\n*Quick mode (`FAROL_QUICK`): tiny budgets, the numbers are noise.*" if ctx.quick else "")
    )


def _seat_section(ctx) -> str:
    import matplotlib.pyplot as plt

    res = _results(ctx)["seats"]
    lines = ["## Seat advantage: does the first player win more?\n",
             "Win rate of each seat (seat 0 moves first) with every seat played by the same bot; "
             "a fair seat wins 1/n of the games.\n",
             "| players | bots | games | seat 0 (first) | seat 1 | last seat | first − fair |",
             "|---|---|---|---|---|---|---|"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, label in zip(axes, ("greedy", "random"), strict=True):
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            rates = seat_win_rates(df)
            n = exp.players
            r = rates.set_index("seat")
            first, second, last = r.loc[0], r.loc[1], r.loc[n - 1]
            lines.append(
                f"| {n} | {label} | {len(df)} | {_pct(first.win_rate, first.lo, first.hi)} | "
                f"{_pct(second.win_rate, second.lo, second.hi)} | "
                f"{_pct(last.win_rate, last.lo, last.hi)} | {100 * (first.win_rate - 1 / n):+.1f} pp |"
            )
            x = rates["seat"] + (n - 4) * 0.06
            ratio = rates["win_rate"] * n
            ax.errorbar(x, ratio, yerr=[(rates["win_rate"] - rates["lo"]) * n, (rates["hi"] - rates["win_rate"]) * n],
                        fmt="o-", capsize=3, label=f"{n} players")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_title(f"all-{label} tables")
        ax.set_xlabel("seat (0 moves first)")
    axes[0].set_ylabel("win rate × n  (1 = fair)")
    axes[1].legend(fontsize=7)
    path = ctx.save_figure(fig, "seat_win_rates")
    plt.close(fig)
    seed = res[0][0].seed if res else ""
    lines.append(f"\nSeed {seed}. ![Seat win rates]({path})")
    return "\n".join(lines)


def _matchup_section(ctx) -> str:
    res = _results(ctx)["matchups"]
    lines = ["## How strong are the bots\n",
             "Two-player head-to-head, seats alternating game by game. Win rate of the first-named "
             "bot (ties share).\n",
             "| match | games | seed | win rate of the first bot |", "|---|---|---|---|"]
    for exp, df in res:
        if df.empty:
            continue
        rates = bot_win_rates(df).set_index("bot").loc[exp.bots[0]]
        lines.append(f"| {exp.label} | {len(df)} | {exp.seed} | "
                     f"{_pct(rates.win_rate, rates.lo, rates.hi)} |")
    lines.append("\nMCTS sees the hidden cards (it searches the true deal), so its edge over "
                 "ISMCTS is partly the value of information, not of search.")
    return "\n".join(lines)


def _all_greedy(res) -> list[tuple[Experiment, pd.DataFrame]]:
    return [(e, df) for e, df in res["seats"] if e.label == "greedy" and not df.empty]


def _wild_section(ctx) -> str:
    import matplotlib.pyplot as plt

    res = _results(ctx)
    lines = ["## What a wild is worth\n"]
    rows = []
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for label in ("greedy", "random"):
        exps = [(e, df) for e, df in res["seats"] if e.label == label and not df.empty]
        if not exps:
            continue
        df = pd.concat([d for _, d in exps])
        w = wild_worth(df)
        n_games = len(df)
        rows.append(f"| all-{label} tables, 2–6 players | {n_games} | {w['seats']} | "
                    f"{100 * w['win'][0]:+.1f} pp [{100 * w['win'][1]:+.1f}, {100 * w['win'][2]:+.1f}] | "
                    f"{w['points'][0]:+.0f} [{w['points'][1]:+.0f}, {w['points'][2]:+.0f}] |")
        for exp, part in exps:
            wn = wild_worth(part)
            rows.append(f"| all-{label}, {exp.players} players | {len(part)} | {wn['seats']} | "
                        f"{100 * wn['win'][0]:+.1f} pp [{100 * wn['win'][1]:+.1f}, {100 * wn['win'][2]:+.1f}] | "
                        f"{wn['points'][0]:+.0f} [{wn['points'][1]:+.0f}, {wn['points'][2]:+.0f}] |")
        by = w["by_count"]
        ax.errorbar(by["wilds"], by["win_rate"] / by["fair"],
                    yerr=[(by["win_rate"] - by["lo"]) / by["fair"], (by["hi"] - by["win_rate"]) / by["fair"]],
                    fmt="o-", capsize=3, label=f"{label} tables")
    lines += [
        "Each seat's win share and herd points against the number of wilds it received during the "
        "round (dealt or drawn), pooled over 2–6 players with the player count as a fixed effect. "
        "This is observational: a wild arrives with the luck of the draw.\n",
        "| tables | games | seats | win rate per extra wild | herd points per extra wild |",
        "|---|---|---|---|---|", *rows,
    ]
    causal = _extra_wild_rows(res)
    if causal:
        lines += [
            "",
            "**One more wild, as an experiment.** The all-greedy games above were replayed with one "
            "change: after the deal, seat *i* mod *n* (so every seat in turn) swaps its cheapest goat "
            "for a wild from the draw pile. The deal is identical, so each game pairs with its "
            "original; the table gives the treated seat's win share and herd points minus the same "
            "seat's in the original game (95% intervals over the pairs). It isolates the card; the "
            "slope above also carries whatever else comes with drawing many wilds over a round.\n",
            "| players | pairs | win rate, one more wild | herd points, one more wild |",
            "|---|---|---|---|",
        ]
        for n, e in causal:
            lines.append(f"| {n} | {e['pairs']} | {100 * e['win'][0]:+.1f} pp [{100 * e['win'][1]:+.1f}, "
                         f"{100 * e['win'][2]:+.1f}] | {e['points'][0]:+.0f} [{e['points'][1]:+.0f}, "
                         f"{e['points'][2]:+.0f}] |")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("wilds received in the round (3 = 3 or more)")
    ax.set_ylabel("win rate ÷ fair share")
    ax.set_xticks([0, 1, 2, 3])
    ax.legend(fontsize=8)
    ax.set_title("Wilds and winning")
    path = ctx.save_figure(fig, "wild_worth")
    plt.close(fig)
    lines.append(f"\nSeed {Experiment('x', 2, (), 1).seed}. ![Wild worth]({path})")
    return "\n".join(lines)


def _extra_wild_rows(res) -> list[tuple[int, dict]]:
    """Paired effect of one more wild per player count (treated vs all-greedy seat games)."""
    control = {e.players: df for e, df in _all_greedy(res)}
    rows = []
    for exp, df in res.get("extra_wild", []):
        if not df.empty and exp.players in control:
            rows.append((exp.players, extra_wild_effect(df, control[exp.players], exp.players)))
    return rows


def _duel_section(ctx) -> str:
    import matplotlib.pyplot as plt

    res = _results(ctx)["seats"]
    lines = ["## Duels: attacker or defender?\n",
             "Share of duels the attacker wins, and duels per game.\n",
             "| players | bots | games | duels | attacker wins | duels per game |",
             "|---|---|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for label in ("greedy", "random"):
        xs, ps, los, his = [], [], [], []
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            d = duel_success(df)
            lines.append(f"| {exp.players} | {label} | {len(df)} | {d['duels']} | "
                         f"{_pct(d['attacker_rate'], d['lo'], d['hi'])} | {d['per_game']:.1f} "
                         f"[{d['per_game_lo']:.1f}, {d['per_game_hi']:.1f}] |")
            xs.append(exp.players)
            ps.append(d["attacker_rate"])
            los.append(d["attacker_rate"] - d["lo"])
            his.append(d["hi"] - d["attacker_rate"])
        if xs:
            ax.errorbar(xs, ps, yerr=[los, his], fmt="o-", capsize=3, label=f"{label} tables")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("players")
    ax.set_ylabel("attacker win rate")
    ax.legend(fontsize=8)
    path = ctx.save_figure(fig, "duel_success")
    plt.close(fig)
    lines.append(f"\nSeed {res[0][0].seed if res else ''}. ![Duel success]({path})")
    return "\n".join(lines)


def _length_section(ctx) -> str:
    res = _results(ctx)["seats"]
    lines = ["## How long a round lasts\n",
             "Turns per round (a duel is one turn) and decisions per game (duel answers included).\n",
             "| players | bots | games | turns: mean [95%] | median (5%–95%) | decisions | rounds with a reshuffle |",
             "|---|---|---|---|---|---|---|"]
    for exp, df in res:
        if df.empty:
            continue
        g = game_length(df)
        lines.append(f"| {exp.players} | {exp.label} | {len(df)} | {g['turns']:.1f} [{g['lo']:.1f}, {g['hi']:.1f}] | "
                     f"{g['median']:.0f} ({g['p5']:.0f}–{g['p95']:.0f}) | {g['decisions']:.1f} | "
                     f"{100 * g['reshuffle_rate']:.1f}% |")
    return "\n".join(lines)


def _sensitivity_section(ctx) -> str:
    import matplotlib.pyplot as plt

    res = _results(ctx)["sensitivity"]
    names = list(VALUE_SETS)
    lines = ["## How much the answers depend on the assumed point values\n",
             "The same questions with all-greedy tables under other value sets (the greedy bot "
             "plays by the values, so its play changes too). Value sets, listed as "
             "wilds (Goat Lord/Goatini) / Goat-a-Corn / the nine other goats:\n"]
    for name in names:
        v = VALUE_SETS[name]
        lines.append(f"- **{name}**: {v[0]}/{v[1]} / {v[2]} / {', '.join(map(str, v[3:]))}")
    lines += ["", "| values | players | games | seat 0 − fair | attacker wins | win rate per extra wild | turns |",
              "|---|---|---|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for n in budget(ctx.quick).sensitivity_players:
        xs, ys, los, his = [], [], [], []
        for i, name in enumerate(names):
            found = [(e, df) for e, df in res if e.label == name and e.players == n and not df.empty]
            if not found:
                continue
            exp, df = found[0]
            rates = seat_win_rates(df).set_index("seat").loc[0]
            d = duel_success(df)
            w = wild_worth(df)
            g = game_length(df)
            fair = 1.0 / n
            lines.append(
                f"| {name} | {n} | {len(df)} | {100 * (rates.win_rate - fair):+.1f} pp "
                f"[{100 * (rates.lo - fair):+.1f}, {100 * (rates.hi - fair):+.1f}] | "
                f"{_pct(d['attacker_rate'], d['lo'], d['hi'])} | "
                f"{100 * w['win'][0]:+.1f} pp [{100 * w['win'][1]:+.1f}, {100 * w['win'][2]:+.1f}] | {g['turns']:.1f} |"
            )
            xs.append(i + (n - 3) * 0.08)
            ys.append(100 * w["win"][0])
            los.append(100 * (w["win"][0] - w["win"][1]))
            his.append(100 * (w["win"][2] - w["win"][0]))
        if xs:
            ax.errorbar(xs, ys, yerr=[los, his], fmt="o", capsize=3, label=f"{n} players")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_ylabel("win rate per extra wild (pp)")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.legend(fontsize=8)
    ax.set_title("Worth of a wild under other point values")
    path = ctx.save_figure(fig, "value_sensitivity")
    plt.close(fig)
    lines.append(f"\nSeed {res[0][0].seed if res else ''}. ![Sensitivity]({path})")
    return "\n".join(lines)


def _summary_section(ctx) -> str:
    """The answers in a few lines, computed from the same results as the sections below."""
    res = _results(ctx)
    lines = ["## The answers in brief\n"]
    greedy = _all_greedy(res)
    if greedy:
        edges = []
        for exp, df in greedy:
            r = seat_win_rates(df).set_index("seat").loc[0]
            fair = 1.0 / exp.players
            edges.append(f"{exp.players}p {100 * (r.win_rate - fair):+.1f} pp "
                         f"[{100 * (r.lo - fair):+.1f}, {100 * (r.hi - fair):+.1f}]")
        games_each = len(greedy[0][1])
        lines.append(f"- **First-player advantage** (seat 0 minus the fair 1/n, all-greedy tables, "
                     f"{games_each} games per player count): " + "; ".join(edges) + ".")
        pooled = pd.concat([df for _, df in greedy])
        w = wild_worth(pooled)
        lines.append(f"- **A wild** received is worth {100 * w['win'][0]:+.1f} pp of win rate "
                     f"[{100 * w['win'][1]:+.1f}, {100 * w['win'][2]:+.1f}] and {w['points'][0]:+.0f} herd "
                     f"points [{w['points'][1]:+.0f}, {w['points'][2]:+.0f}] (all-greedy tables, 2–6 "
                     f"players, {len(pooled)} games; observational).")
        causal = _extra_wild_rows(res)
        if causal:
            lines.append("- **One more wild in the opening hand** (paired experiment, all-greedy): "
                         + "; ".join(f"{n}p {100 * e['win'][0]:+.1f} pp [{100 * e['win'][1]:+.1f}, "
                                     f"{100 * e['win'][2]:+.1f}]" for n, e in causal)
                         + f" of win rate ({causal[0][1]['pairs']} pairs each).")
        duels = [(exp.players, duel_success(df)) for exp, df in greedy]
        lo_n, lo_d = min(duels, key=lambda t: t[1]["attacker_rate"])
        hi_n, hi_d = max(duels, key=lambda t: t[1]["attacker_rate"])
        side = ("favour the attacker" if lo_d["lo"] > 0.5 else
                "favour the defender" if hi_d["hi"] < 0.5 else "are close to even")
        lines.append(f"- **Duels** {side}: greedy attackers win "
                     f"{_pct(lo_d['attacker_rate'], lo_d['lo'], lo_d['hi'])} of duels with {lo_n} players "
                     f"up to {_pct(hi_d['attacker_rate'], hi_d['lo'], hi_d['hi'])} with {hi_n}.")
        turns = [(exp.players, game_length(df)) for exp, df in greedy]
        lines.append("- **A round lasts** " + ", ".join(f"{g['turns']:.0f} turns ({n}p)" for n, g in turns)
                     + " on average under greedy play.")
    sens = [(e, df) for e, df in res["sensitivity"] if not df.empty]
    for n in sorted({e.players for e, _ in sens}):
        at_n = [(e, df) for e, df in sens if e.players == n]
        slopes = [100 * wild_worth(df)["win"][0] for _, df in at_n]
        seat0 = [seat_win_rates(df).set_index("seat").loc[0] for _, df in at_n]
        edges = [100 * (r.win_rate - 1 / n) for r in seat0]
        fair_inside = sum(r.lo <= 1 / n <= r.hi for r in seat0)
        attack = [100 * duel_success(df)["attacker_rate"] for _, df in at_n]
        lines.append(
            f"- **Point values, {n} players** ({len(at_n)} value sets, {len(at_n[0][1])} all-greedy games "
            f"each): a wild received is worth {min(slopes):+.1f} to {max(slopes):+.1f} pp of win rate "
            "(observational slope); seat 0's edge "
            f"ranges {min(edges):+.1f} to {max(edges):+.1f} pp (the fair share is inside the 95% interval "
            f"for {fair_inside} of {len(at_n)} sets); attackers win {min(attack):.1f}–{max(attack):.1f}% "
            "of duels."
        )
    for exp, df in res["matchups"]:
        if df.empty:
            continue
        r = bot_win_rates(df).set_index("bot").loc[exp.bots[0]]
        lines.append(f"- **{exp.label}**: {_pct(r.win_rate, r.lo, r.hi)} over {len(df)} games.")
    return "\n".join(lines)


SECTIONS = ((55, _summary_section),) + tuple(enumerate(
    (_method_section, _seat_section, _matchup_section, _wild_section, _duel_section,
     _length_section, _sensitivity_section), start=60))
