"""How the strongest Goat Lords agent plays: seeded games of ``best`` in every seat, each
kept whole (every draw and every move), and what its decisions show: when it duels,
when it spends a wild, what it keeps.

A run (:class:`HabitRun`) is a match of the rulebook's game (rounds until 1,000 points)
with the same agent in every seat; each finished game is appended to
``goat_lords/habits/<name>.games.jsonl`` in the data folder with its moves and the
processor seconds it took, so a stopped run resumes where it stopped, and the run's
summary (games, seed, version, commit, CPU time) is stored beside it as ``<name>.json``.
The games are read back by replaying their moves (:func:`decisions`): nothing of the
agent is needed to read them, and a new question of its play needs no new games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents import build_bot, pinned
from analysis.goat_lords.agents.greedy import greedy_choice
from analysis.play.match import Schedule, compute_seconds, play_games, read_rows
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text
from analysis.statistics.intervals import cluster_interval
from games.goat_lords import rules
from games.goat_lords.cards import IS_WILD, NUM_KINDS
from games.goat_lords.table import DUEL, PLAY, Table

SEED = 20261207
AGENT = pinned("best")  # the strongest agent at the budget it plays by default


@dataclass(frozen=True)
class HabitRun:
    """``games`` seeded games of ``agent`` in each of ``players`` seats."""

    players: int
    games: int
    scoring: str = "rounds"
    agent: str = AGENT
    seed: int = SEED

    @property
    def name(self) -> str:
        return f"{self.agent.replace(':', '')}_{self.scoring}_{self.players}p"

    def params(self) -> dict:
        return {"players": self.players, "scoring": self.scoring}

    def agents(self) -> tuple[str, ...]:
        return (self.agent,) * self.players

    def header(self) -> dict:
        """The first line of its games' file (as the match runner writes it)."""
        return {"game": GAME, "params": self.params(), "agents": list(self.agents()),
                "seed": self.seed}


# The runs the guide reads: the rulebook's game at 2 and at 4 players (about 5 and 10
# CPU-seconds a game).
RUNS = (HabitRun(2, 240), HabitRun(4, 80))


def games_path(run: HabitRun):
    return store.data("goat_lords", "habits", f"{run.name}.games.jsonl")


def summary_path(run: HabitRun):
    return store.data("goat_lords", "habits", f"{run.name}.json")


def keep_moves(state, index: int, decisions: int) -> dict:
    """What a game's row keeps: every action of the game, chance's included."""
    return {"history": [int(a) for a in state.history()], "decisions": decisions}


SCHEDULE = Schedule(finish=keep_moves)


def play(run: HabitRun, workers: int = 1, progress: bool | None = None) -> dict:
    """Play the games of ``run`` not stored yet (resumable), then store its summary;
    returns the summary."""
    path = games_path(run)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = play_games(GAME, run.agents(), run.games, run.seed, run.params(), workers=workers,
                      progress=progress, build=build_bot, record=path, clock=True,
                      schedule=SCHEDULE, chunk=5, desc=run.name)
    summary = {"game": GAME, "params": run.params(), "agent": run.agent,
               "games": len(rows), "seed": run.seed, "version": farol_version(),
               "commit": code_commit(), "cpu_seconds": compute_seconds(rows)}
    atomic_write_text(summary_path(run), json.dumps(summary, indent=1) + "\n")
    return summary


def stored(run: HabitRun) -> dict[int, dict]:
    """The games of ``run`` stored so far (game index -> row); none if no file."""
    path = games_path(run)
    if not path.exists():
        return {}
    return {i: r for i, r in read_rows(path, run.header()).items() if i < run.games}


def summary(run: HabitRun) -> dict | None:
    """The stored summary of ``run`` (None: not played to the end yet)."""
    path = summary_path(run)
    return store.read_json(path) if path.exists() else None


# ---- reading the games: what each decision shows ------------------------------------------

# The rates read from every decision, as (question, context); each question's context
# "all" counts every case. A rate is hits out of chances:
#   "duel": of the turns a duel was open, the turns it dueled ("greedy duel": the turns
#       the greedy heuristic would have dueled, at the same positions); contexts: it held
#       a spare card matching the top pile it could attack (two or more), or one only;
#   "duel won": of the duels it opened, those it won (same contexts, at the opening);
#   "wild spent": of the turns begun with a wild in hand, those it spent one (in a birth,
#       an assisted birth or to open a duel); contexts: a birth without a wild was open,
#       or none was;
#   "wild opens": of the duels it opened where a goat could have opened them, those it
#       opened with a wild; "wild answers": of its answers in a duel where a goat could
#       answer, those made with a wild;
#   "answer": of the times it could answer in a duel, those it did (by its role);
#   "keeps defence": of its discards (made only when nothing else is open) with a card
#       matching its own top pile in hand and another card to throw, those that kept
#       every such card ("greedy keeps defence": what the greedy heuristic's discard
#       would have done); "cheapest discard": of its discards, those of a card of the
#       lowest value in its hand.
Tally = dict[tuple[str, str], list[float]]  # (question, context) -> [hits, chances]
ALL = "all"
SPARE, ONE = "a spare matching card", "one matching card only"
PLAIN, NO_PLAIN = "a birth without a wild open", "no birth without a wild"


def _count(tally: Tally, question: str, context: str, hit: bool) -> None:
    cell = tally.setdefault((question, context), [0.0, 0.0])
    cell[0] += bool(hit)
    cell[1] += 1


def _wild_in(action: int) -> bool:
    """Whether a turn action plays a wild from the hand."""
    if action < rules.ASSIST0:
        return any(IS_WILD[c] for c in rules.BIRTH_PAIRS[action])
    if action < rules.DUEL0:
        return IS_WILD[action - rules.ASSIST0]
    if action < rules.ANSWER0:
        return IS_WILD[(action - rules.DUEL0) % NUM_KINDS]
    return IS_WILD[action - rules.DISCARD0]


def _matching(hand: list[int], kind: int) -> int:
    return sum(hand[c] for c in range(NUM_KINDS) if rules.matches(c, kind))


def _turn(t: Table, action: int, tally: Tally) -> dict | None:
    """Count one turn decision; returns the duel it opens (to count its outcome)."""
    p = t.to_move
    hand, values = t.hands[p], t.cfg.values
    legal = t.legal_actions()
    is_duel = rules.DUEL0 <= action < rules.ANSWER0
    if any(hand[k] for k in range(NUM_KINDS) if IS_WILD[k]):
        plain = any(a < rules.DUEL0 and not _wild_in(a) for a in legal)
        _count(tally, "wild spent", ALL, not action >= rules.DISCARD0 and _wild_in(action))
        _count(tally, "wild spent", PLAIN if plain else NO_PLAIN,
               not action >= rules.DISCARD0 and _wild_in(action))
    duels = [a for a in legal if rules.DUEL0 <= a < rules.ANSWER0]
    if duels:
        targets = {(a - rules.DUEL0) // NUM_KINDS for a in duels}
        spare = any(_matching(hand, t.herds[q][-1][0]) >= 2 for q in targets)
        greedy = rules.DUEL0 <= greedy_choice(t, p, legal) < rules.ANSWER0
        for context in (ALL, SPARE if spare else ONE):
            _count(tally, "duel", context, is_duel)
            _count(tally, "greedy duel", context, greedy)
    if is_duel:
        target, k = divmod(action - rules.DUEL0, NUM_KINDS)
        kind = t.herds[target][-1][0]
        if any(hand[c] and not IS_WILD[c] and rules.matches(c, kind) for c in range(NUM_KINDS)):
            _count(tally, "wild opens", ALL, IS_WILD[k])
        return {"spare": _matching(hand, kind) >= 2, "won": t.stats["attacker_wins"]}
    if action >= rules.DISCARD0:
        k = action - rules.DISCARD0
        held = [c for c in range(NUM_KINDS) if hand[c]]
        _count(tally, "cheapest discard", ALL, values[k] == min(values[c] for c in held))
        herd = t.herds[p]
        if rules.can_be_attacked(herd):
            mine = herd[-1][0]
            if any(rules.matches(c, mine) for c in held) and not all(
                    rules.matches(c, mine) for c in held):
                greedy = greedy_choice(t, p, legal) - rules.DISCARD0
                _count(tally, "keeps defence", ALL, not rules.matches(k, mine))
                _count(tally, "greedy keeps defence", ALL, not rules.matches(greedy, mine))
    return None


def _answer(t: Table, action: int, tally: Tally) -> None:
    d = t.duel
    role = "attacker" if t.to_move == d["attacker"] else "defender"
    cards = [a - rules.ANSWER0 for a in t.legal_actions() if a != rules.YIELD]
    _count(tally, "answer", role, action != rules.YIELD)
    if action != rules.YIELD and any(not IS_WILD[k] for k in cards):
        _count(tally, "wild answers", role, IS_WILD[action - rules.ANSWER0])
        _count(tally, "wild answers", ALL, IS_WILD[action - rules.ANSWER0])


def game_tally(run: HabitRun, history: list[int]) -> Tally:
    """Every decision of one stored game, replayed from its moves and counted."""
    state = pyspiel.load_game(GAME, run.params()).new_initial_state()
    tally: Tally = {}
    opened = None
    for action in history:
        t = state.table
        if not state.is_chance_node():
            if t.phase == PLAY:
                opened = _turn(t, action, tally) or opened
            elif t.phase == DUEL:
                _answer(t, action, tally)
        state.apply_action(action)
        if opened is not None and state.table.duel is None:
            won = state.table.stats["attacker_wins"] > opened["won"]
            _count(tally, "duel won", ALL, won)
            _count(tally, "duel won", SPARE if opened["spare"] else ONE, won)
            opened = None
    return tally


@dataclass(frozen=True)
class Rate:
    """One habit of the agent at one table size: ``hits`` of ``chances`` over ``games``
    games, and its 95% interval over games (the decisions of one game are not
    independent; the games are)."""

    players: int
    question: str
    context: str
    hits: float
    chances: float
    games: int
    rate: float
    ci95: tuple[float, float]


_RATES: dict[tuple, dict[tuple[str, str], Rate]] = {}


def rates(run: HabitRun) -> dict[tuple[str, str], Rate]:
    """Every rate of ``run``'s stored games, by (question, context); read once per
    version of the file."""
    path = games_path(run)
    if not path.exists():
        return {}
    key = (str(path), path.stat().st_mtime, path.stat().st_size, run)
    if key not in _RATES:
        rows = stored(run)
        tallies = [game_tally(run, rows[i]["history"]) for i in sorted(rows)]
        out = {}
        for name in sorted({k for t in tallies for k in t}):
            hits = [t.get(name, (0.0, 0.0))[0] for t in tallies]
            chances = [t.get(name, (0.0, 0.0))[1] for t in tallies]
            rate, lo, hi = cluster_interval(hits, chances)
            out[name] = Rate(run.players, *name, sum(hits), sum(chances), len(tallies),
                             rate, (lo, hi))
        _RATES[key] = out
    return _RATES[key]
