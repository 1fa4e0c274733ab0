"""How ``best`` plays at 3 to 6 players: its bluffs, challenges, blocks, targets and
Coups, counted over its games against itself.

At each table (:data:`PLAYERS`) ``best`` sits in every seat of seeded games. At every
decision the truth is read (who holds what), so each claim is known true or a bluff:

- ``bluff|C``: its turn claims of character C (Tax, Steal, Assassinate, Exchange) made
  without C; ``bluff|all`` every such claim. ``block bluff|C``: its blocks with C made
  without C.
- ``block|K``: the chances it had to block an action of kind K (Foreign Aid,
  Assassinate, Steal) that it took.
- ``challenge|C|...``: the claims of C it was asked about that it challenged, overall
  (``any``) and by what the claimer had shown (``caught before``: caught bluffing in a
  challenge earlier in the game; ``never caught``; ``claimed before``: it had claimed C
  earlier; ``first claim``), and by whom the claim was aimed at: ``at it`` (an action
  against it, or a block of its own action), ``at another`` (an action against another
  player, or a block of another's action), ``at nobody`` (Tax, Exchange, a block of
  Foreign Aid).
- ``target|K|F``: its Coups, assassinations and steals with two or more opponents to
  choose from (Steal: opponents with coins), whose target had feature F (``coin
  leader``: the most coins among them; ``two cards``: two face-down cards where some
  other had one; ``last attacker``: the last player to have aimed an action at it);
  ``chance|K|F`` the same share were the target drawn at random among them (the
  yardstick).
- ``coup|N``: its turns starting with N coins (7 to 9: a Coup is allowed, not forced)
  on which it Couped.

Each count is kept per game (numerator and denominator), so a rate's 95% interval is the
cluster-robust one over games (:func:`analysis.statistics.intervals.cluster_interval`).
Games are kept in the cache as they finish (a stopped run resumes); a table's record
goes under the data store with the version, the commit and the seed.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pyspiel

import analysis.coup.agents  # noqa: F401  (registers every Coup agent)
from analysis.coup.agents.best import best_kind
from analysis.coup.agents.search import Memory
from analysis.play.bots import make_bot, sample_chance
from analysis.shared import store
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text, read_record
from analysis.statistics.intervals import cluster_interval
from games.coup import cards as C
from games.coup import engine as E

GAME = "python_coup"
AGENT = "best"
PLAYERS = (3, 4, 6)
GAMES = {3: 1000, 4: 1000, 6: 600}
SEED = 20261208
ACTIONS = {C.TAX: C.DUKE, C.STEAL: C.CAPTAIN, C.ASSASSINATE: C.ASSASSIN, C.EXCHANGE: C.EXCHANGER}
KIND = {C.FOREIGN_AID: "Foreign Aid", C.ASSASSINATE: "Assassinate", C.STEAL: "Steal",
        C.COUP: "Coup"}
FEATURES = ("coin leader", "two cards", "last attacker")


class Counts:
    """Per-game counts: key -> [events, chances]."""

    def __init__(self) -> None:
        self.c: dict[str, list[float]] = {}

    def add(self, key: str, hit: float, chances: float = 1.0) -> None:
        cell = self.c.setdefault(key, [0.0, 0.0])
        cell[0] += hit
        cell[1] += chances


def _name(c: int) -> str:
    return C.card_name(c, "ambassador")


class Watcher:
    """Reads one game decision by decision, counting ``best``'s habits."""

    def __init__(self, players: int):
        self.counts = Counts()
        self.memory = Memory(players, 0)  # public events only: caught and proven counts
        self.claimed: set[tuple[int, int]] = set()  # (player, character) claimed so far
        self.last_attacker = [-1] * players
        self.repeat = False  # whether the claim now open was claimed before by its claimer

    def see(self, state: pyspiel.State, action: int) -> None:
        core = state.core
        self.memory.read(core)
        p = core.cur
        step = core.queue[0]
        hand = core.hands[p]
        add = self.counts.add
        legal = state.legal_actions()
        if step[0] == E.S_ACTION:
            kind, target = C.decode_turn_action(action)
            self._turn(core, p, hand, kind, target, legal)
        elif step[0] == E.S_BLOCK and len(legal) > 1:
            kind = core.kind
            add(f"block|{KIND.get(kind, kind)}", action != C.A_NO_BLOCK)
            if action != C.A_NO_BLOCK:
                c = action - C.A_BLOCK
                add(f"block bluff|{_name(c)}", c not in hand)
                self._claim(p, c)
        elif step[0] == E.S_CHAL and len(legal) > 1:
            self._challenge(core, p, step, action)

    def _turn(self, core: E.Core, p: int, hand, kind: int, target: int, legal) -> None:
        add = self.counts.add
        coins = core.coins[p]
        if C.COUP_COST <= coins < C.FORCED_COUP_COINS:
            add(f"coup|{coins}", kind == C.COUP)
            add("coup|7-9", kind == C.COUP)
        if kind in ACTIONS:
            c = ACTIONS[kind]
            add(f"bluff|{_name(c)}", c not in hand)
            add("bluff|all", c not in hand)
            self._claim(p, c)
        if kind in (C.COUP, C.ASSASSINATE, C.STEAL):
            base = C.encode_turn_action(kind, 0)
            options = [a - base for a in legal if base <= a < base + C.MAX_PLAYERS]
            if kind == C.STEAL:
                options = [q for q in options if core.coins[q] > 0]
            if len(options) >= 2 and target in options:
                self._target(core, p, kind, target, options)
            self.last_attacker[target] = p

    def _claim(self, p: int, c: int) -> None:
        self.repeat = (p, c) in self.claimed
        self.claimed.add((p, c))

    def _target(self, core: E.Core, p: int, kind: int, target: int, options) -> None:
        add = self.counts.add
        cards = [len(core.hands[q]) for q in options]
        most = max(core.coins[q] for q in options)
        feats = {
            "coin leader": (lambda q: core.coins[q] == most) if any(
                core.coins[q] < most for q in options) else None,
            "two cards": (lambda q: len(core.hands[q]) == 2) if min(cards) < max(cards) else None,
            "last attacker": (lambda q: q == self.last_attacker[p])
            if self.last_attacker[p] in options else None,
        }
        for f, test in feats.items():
            if test is None:
                continue
            add(f"target|{KIND[kind]}|{f}", test(target))
            add(f"chance|{KIND[kind]}|{f}", sum(test(q) for q in options) / len(options))
            add(f"target|any|{f}", test(target))
            add(f"chance|any|{f}", sum(test(q) for q in options) / len(options))

    def _challenge(self, core: E.Core, p: int, step, action: int) -> None:
        _, claimant, claim, _, is_block = step
        hit = action == C.A_CHALLENGE
        aimed = core.actor if is_block else core.target
        if is_block and core.kind == C.FOREIGN_AID:
            aimed = -1
        at = "at it" if aimed == p else ("at nobody" if aimed < 0 else "at another")
        shown = "caught before" if self.memory.caught[claimant] else "never caught"
        before = "claimed before" if self.repeat else "first claim"
        for c in (_name(claim), "all"):
            for ctx in ("any", at, shown, before):
                self.counts.add(f"challenge|{c}|{ctx}", hit)


def play_one(players: int, index: int, seed: int) -> dict:
    """Game ``index`` of the table, played and counted: its row."""
    game = pyspiel.load_game(GAME, {"players": players})
    seeds = np.random.SeedSequence([seed, players, index]).generate_state(players + 1)
    bots = [make_bot(AGENT, game, p, int(seeds[p + 1])) for p in range(players)]
    rng = np.random.default_rng(int(seeds[0]))
    state = game.new_initial_state()
    watcher = Watcher(players)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        action = int(bots[state.current_player()](state))
        watcher.see(state, action)
        state.apply_action(action)
    return {"index": index, "counts": watcher.counts.c}


def games_path(players: int, seed: int) -> Path:
    return store.cache("coup", "table-play", f"{players}p-{AGENT}-{seed}.jsonl")


def play_table(players: int, games: int, seed: int = SEED, progress: bool = False) -> dict[int, dict]:
    """``games`` games at the table (resuming its record); rows by game index."""
    path = games_path(players, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows: dict[int, dict] = {}
    if path.exists():
        text = path.read_text()
        if not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]
            path.write_text(text)
        for line in text.splitlines():
            row = json.loads(line)
            rows[int(row["index"])] = row
    todo = [i for i in range(games) if i not in rows]
    bar = progress_bar(total=games, initial=games - len(todo), unit=" games",
                       desc=f"best at {players} players", progress=progress)
    try:
        with open(path, "a") as fh:
            for i in todo:
                row = play_one(players, i, seed)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                rows[i] = row
                bar.update(1)
    finally:
        bar.close()
    return {i: rows[i] for i in range(games)}


@dataclasses.dataclass(frozen=True)
class Rate:
    key: str
    events: float
    chances: float
    rate: float
    ci95: tuple[float, float]

    def to_json(self) -> dict:
        return {"key": self.key, "events": self.events, "chances": self.chances,
                "rate": self.rate, "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, d: dict) -> Rate:
        return cls(d["key"], float(d["events"]), float(d["chances"]), float(d["rate"]),
                   tuple(d["ci95"]))


@dataclasses.dataclass(frozen=True)
class PlayRecord:
    """One table's counts: each key's rate with its 95% interval over games."""

    players: int
    agent: str
    plays: str
    games: int
    rates: tuple[Rate, ...]
    version: str
    commit: str
    seed: int

    def rate(self, key: str) -> Rate | None:
        return next((r for r in self.rates if r.key == key), None)

    def to_json(self) -> dict:
        return {"players": self.players, "agent": self.agent, "plays": self.plays,
                "games": self.games, "rates": [r.to_json() for r in self.rates],
                "version": self.version, "commit": self.commit, "seed": self.seed}

    @classmethod
    def from_json(cls, d: dict) -> PlayRecord:
        return cls(int(d["players"]), d["agent"], d["plays"], int(d["games"]),
                   tuple(Rate.from_json(r) for r in d["rates"]), d["version"], d["commit"],
                   int(d["seed"]))


def rates_of(rows: list[dict]) -> tuple[Rate, ...]:
    """Each key's rate over the games' rows, the interval clustered by game."""
    keys = sorted({k for r in rows for k in r["counts"]})
    out = []
    for key in keys:
        hits = [r["counts"].get(key, [0.0, 0.0])[0] for r in rows]
        chances = [r["counts"].get(key, [0.0, 0.0])[1] for r in rows]
        total = sum(chances)
        if total <= 0:
            continue
        rate, lo, hi = cluster_interval(hits, chances)
        out.append(Rate(key, round(sum(hits), 6), round(total, 6), rate, (lo, hi)))
    return tuple(out)


def run_table(players: int, games: int | None = None, seed: int = SEED,
              progress: bool = False) -> PlayRecord:
    """Play (or resume) the table's games; save and return its record."""
    games = GAMES.get(players, 1000) if games is None else games
    rows = play_table(players, games, seed, progress)
    record = PlayRecord(players, AGENT, best_kind(players), games, rates_of(list(rows.values())),
                        farol_version(), code_commit(), seed)
    path = record_path(players)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(record.to_json(), indent=1) + "\n")
    return record


def record_path(players: int) -> Path:
    return store.data("coup", "table-play", f"{players}p.json")


def load_record(players: int) -> PlayRecord | None:
    path = record_path(players)
    return PlayRecord.from_json(read_record(path)) if path.exists() else None
