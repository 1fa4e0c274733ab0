"""How the 2-player blueprint bluffs from the deal: how often it claims a character it
does not hold, challenges a claim and blocks (truly or not), by character, by the cards
the player has left and by coins.

Blueprint self-play games are played from the deal (seeded); at every decision the
blueprint's whole mix is counted, not only the move drawn, which lowers the noise. A
rate is a ratio of these expected counts over the games; its 95% interval comes from a
jackknife over batches of games.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import numpy as np
import pyspiel

from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.model import GAME
from analysis.coup.solvers.blueprint import Blueprint
from analysis.play.bots import sample_chance
from analysis.shared import store
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import provenance
from analysis.shared.store import atomic_write_text, read_record
from analysis.statistics.intervals import wilson
from games.coup import cards as C
from games.coup import engine as E

BATCHES = 20
# What a rate is about: the event counted (numerator) among the decisions (denominator).
QUESTIONS = {
    "bluff": "claims the character without holding it, on its turn",
    "claim": "of the claims of the character, the share that are bluffs: P(bluff | claim)",
    "challenge": "challenges a claim of the character (an action)",
    "block": "blocks with the character when it may",
    "block bluff": "of its blocks with the character, the share that are bluffs",
    "challenge block": "challenges a block with the character",
}


def coin_band(coins: int) -> str:
    return "0-2" if coins <= 2 else ("3-6" if coins <= 6 else "7+")


def action_kind(action: int) -> int:
    """The turn action kind (``cards.INCOME``...) of a turn action id."""
    if action < C.A_COUP:
        return (C.INCOME, C.FOREIGN_AID, C.TAX, C.EXCHANGE)[action]
    return (C.COUP, C.ASSASSINATE, C.STEAL, C.EXAMINE)[(action - C.A_COUP) // C.MAX_PLAYERS]


def tally_decision(view: View, mix: dict[int, float], add) -> None:
    """Add one decision's expected counts: ``add(question, card, num, den)`` per rate."""
    hand = view.hand
    code = view.step[0]
    if code == E.S_ACTION:
        claimed: dict[int, float] = {}
        for action, p in mix.items():
            claim = C.KIND_CLAIM[action_kind(action)]
            if claim is not None:
                claimed[claim] = claimed.get(claim, 0.0) + p
        for card, p in claimed.items():
            add("claim", card, 0.0 if card in hand else p, p)
            if card not in hand:
                add("bluff", card, p, 1.0)
    elif code == E.S_CHAL:
        claim, is_block = view.step[2], view.step[4]
        add("challenge block" if is_block else "challenge", claim, mix.get(C.A_CHALLENGE, 0.0),
            1.0)
    elif code == E.S_BLOCK:
        for card in view.step[2]:
            p = mix.get(C.A_BLOCK + card, 0.0)
            add("block", card, p, 1.0)
            add("block bluff", card, 0.0 if card in hand else p, p)


def turn_kinds(deck: str) -> tuple[int, ...]:
    """The turn actions of ``deck`` (only the Inquisitor examines)."""
    return tuple(k for k in range(C.NUM_KINDS) if k != C.EXAMINE or deck == "inquisitor")


def grid_decision(view: View, mix: dict[int, float], add, kinds: tuple[int, ...]) -> None:
    """Add one decision to the range grid: ``add(situation, move, num, den)`` per move
    (the hand held is the caller's row). On a turn every action of ``kinds`` is counted,
    those not allowed now as not played, so a hand's row adds up to 1."""
    code = view.step[0]
    if code == E.S_ACTION:
        shares = dict.fromkeys(kinds, 0.0)
        for action, p in mix.items():
            kind = action_kind(action)
            shares[kind] += p
        for kind, p in shares.items():
            add("your turn", C.KIND_NAMES[kind], p, 1.0)
    elif code == E.S_CHAL:
        claim, is_block = view.step[2], view.step[4]
        situation = ("a block claiming {card}" if is_block else "a claim of {card}")
        add(situation, "Challenge", mix.get(C.A_CHALLENGE, 0.0), 1.0, card=claim)
    elif code == E.S_BLOCK:
        blocked = sum(p for a, p in mix.items() if a != C.A_NO_BLOCK)
        add(f"{C.KIND_NAMES[view.kind]} you may block", "Block", blocked, 1.0)


@dataclasses.dataclass(frozen=True)
class GridRow:
    """One cell of the range grid: holding ``hand`` in ``situation``, how often the
    blueprint makes ``move`` (with a 95% interval), over ``decisions`` counted."""

    situation: str
    hand: str
    move: str
    decisions: float
    rate: float
    ci95: tuple[float, float]

    def to_json(self) -> dict:
        return dataclasses.asdict(self) | {"ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, d: dict) -> GridRow:
        return cls(str(d["situation"]), str(d["hand"]), str(d["move"]), float(d["decisions"]),
                   float(d["rate"]), tuple(d["ci95"]))


@dataclasses.dataclass(frozen=True)
class BluffRow:
    """One rate: ``question`` (a key of :data:`QUESTIONS`) about ``card`` for a player
    with ``influence`` cards left (0: any) and ``coins`` in a band ("any": all), with
    ``decisions`` counted and a 95% interval."""

    question: str
    card: str
    influence: int
    coins: str
    decisions: float
    rate: float
    ci95: tuple[float, float]
    context: str = "any"  # what the opponent had shown (see CONTEXTS); "any": all

    def to_json(self) -> dict:
        out = dataclasses.asdict(self) | {"ci95": list(self.ci95)}
        if self.context == "any":
            del out["context"]  # files written before contexts existed stay the same
        return out

    @classmethod
    def from_json(cls, d: dict) -> BluffRow:
        return cls(str(d["question"]), str(d["card"]), int(d["influence"]), str(d["coins"]),
                   float(d["decisions"]), float(d["rate"]), tuple(d["ci95"]),
                   str(d.get("context", "any")))


@dataclasses.dataclass(frozen=True)
class BluffTable:
    """An agent's rates for one deck and setup, from ``games`` self-play games (the
    blueprint's unless ``agent`` names another)."""

    deck: str
    setup: str
    games: int
    rows: tuple[BluffRow, ...]
    provenance: dict
    grid: tuple[GridRow, ...] = ()
    agent: str = "blueprint"

    def frame(self):
        """The rows as a pandas DataFrame (one row per rate), to filter."""
        import pandas as pd

        return pd.DataFrame([dataclasses.asdict(r) for r in self.rows])

    def grid_frame(self):
        """The range grid as a pandas DataFrame: situation, hand held, move, rate."""
        import pandas as pd

        return pd.DataFrame([r.to_json() for r in self.grid])

    def to_json(self) -> dict:
        out = {"deck": self.deck, "setup": self.setup, "games": self.games,
               "rows": [r.to_json() for r in self.rows],
               "grid": [r.to_json() for r in self.grid], "provenance": self.provenance}
        return out | ({"agent": self.agent} if self.agent != "blueprint" else {})

    @classmethod
    def from_json(cls, d: dict) -> BluffTable:
        return cls(str(d["deck"]), str(d["setup"]), int(d["games"]),
                   tuple(BluffRow.from_json(r) for r in d["rows"]), dict(d["provenance"]),
                   tuple(GridRow.from_json(r) for r in d.get("grid", [])),
                   str(d.get("agent", "blueprint")))


def ratio_interval(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """The ratio of the sums and its 95% jackknife interval over the batches (clipped to
    [0, 1]; NaN where a batch leaves nothing to divide)."""
    total_num, total_den = float(num.sum()), float(den.sum())
    if total_den <= 0:
        return math.nan, math.nan, math.nan
    rate = total_num / total_den
    rest = total_den - den
    if np.any(rest <= 0):
        return rate, 0.0, 1.0
    leave_one = (total_num - num) / rest
    b = len(num)
    half = _T95[b - 1] * math.sqrt((b - 1) / b * float(((leave_one - leave_one.mean()) ** 2).sum()))
    return rate, max(0.0, rate - half), min(1.0, rate + half)


def counted_interval(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """:func:`ratio_interval` widened to take in the Wilson interval of the counts (for
    rates of moves counted 0 or 1)."""
    rate, lo, hi = ratio_interval(num, den)
    if math.isnan(rate):
        return rate, lo, hi
    _, wlo, whi = wilson(float(num.sum()), int(round(float(den.sum()))))
    return rate, min(lo, wlo), max(hi, whi)


# Student's t 97.5% quantile for 19 degrees of freedom (20 batches), and a few others.
_T95 = {4: 2.776, 9: 2.262, 19: 2.093, 39: 2.023}


def play_and_tally(bp: Blueprint, setup: str, games: int, seed: int,
                   progress: bool = False, params: dict | None = None) -> BluffTable:
    """Play ``games`` blueprint self-play games of ``setup`` and tally every rate
    (``params``: more game parameters, e.g. a position to start from)."""
    game = pyspiel.load_game(GAME, {"players": 2, "deck": bp.deck, "two_player_setup": setup}
                             | (params or {}))
    return tally_play(game, games, seed, lambda _i: bp.action_probabilities,
                      f"bluff tables {bp.deck} {setup}", progress)


Mixes = Callable[[int], Callable[[pyspiel.State], dict[int, float]]]


@dataclasses.dataclass
class Tally:
    """Counts over some games, the table's raw material: each cell's ``[counted, out
    of]`` by batch of games (a ``(2, BATCHES)`` array), for the rates and for the grid.
    Tallies of disjoint games add up (:meth:`add`), so games can be played in chunks,
    on several processes, and a stopped run kept."""

    counts: dict[tuple, np.ndarray] = dataclasses.field(default_factory=dict)
    grid: dict[tuple, np.ndarray] = dataclasses.field(default_factory=dict)

    def add(self, other: Tally) -> Tally:
        for mine, theirs in ((self.counts, other.counts), (self.grid, other.grid)):
            for key, cell in theirs.items():
                mine[key] = mine[key] + cell if key in mine else cell.copy()
        return self

    def to_json(self) -> dict:
        return {name: [[list(key), cell.tolist()] for key, cell in table.items()]
                for name, table in (("counts", self.counts), ("grid", self.grid))}

    @classmethod
    def from_json(cls, d: dict) -> Tally:
        return cls(*({tuple(key): np.asarray(cell, dtype=float) for key, cell in d[name]}
                     for name in ("counts", "grid")))


def tally_play(game: pyspiel.Game, games: int, seed: int, mixes: Mixes, desc: str,
               progress: bool = False, agent: str = "blueprint",
               contexts: bool = False) -> BluffTable:
    """Play ``games`` seeded games and tally every rate. ``mixes(i)`` gives game ``i``'s
    player: a function of the state giving the mix of the player to move (an agent that
    picks one move gives it probability 1); the move is drawn from the mix. With
    ``contexts``, the rates are tallied by what the opponent had shown too
    (:func:`tally_context`)."""
    if games % BATCHES:
        raise ValueError(f"games must be a multiple of {BATCHES}")
    bar = progress_bar(total=games, desc=desc, unit=" games", progress=progress, leave=False)
    try:
        tally = tally_games(game, games, seed, mixes, range(games), contexts,
                            lambda: bar.update(1))
    finally:
        bar.close()
    return table_of(game, games, seed, tally, agent)


def tally_games(game: pyspiel.Game, games: int, seed: int, mixes: Mixes, indices: Iterable[int],
                contexts: bool = False, done: Callable[[], None] | None = None) -> Tally:
    """The tally of games ``indices`` of ``games`` seeded ones (see :func:`tally_play`):
    game ``i`` draws from its own seed and counts in batch ``i * BATCHES // games``, so
    the same game gives the same counts whichever chunk plays it."""
    deck = game.config.deck
    tally = Tally()
    batch = 0

    def bump(table: dict, key: tuple, num: float, den: float) -> None:
        # One cell's counts for the current batch: [counted, out of].
        cell = table.setdefault(key, np.zeros((2, BATCHES)))
        cell[0, batch] += num
        cell[1, batch] += den

    def add(question, card, num, den, *, influence, coins):
        for key in ((question, card, influence, coins), (question, card, 0, "any"),
                    (question, card, influence, "any"), (question, card, 0, coins)):
            bump(tally.counts, key + ("any",), num, den)

    def add_context(question, card, num, den, *, influence, context):
        # Each character, and every character together (card -1: "all").
        for c in (card, -1):
            for inf in (0, influence):
                bump(tally.counts, (question, c, inf, "any", context), num, den)

    kinds = turn_kinds(deck)

    def add_grid(situation, move, num, den, *, hand, card=None):
        if card is not None:
            situation = situation.format(card=C.card_name(card, deck))
        bump(tally.grid, (situation, hand, move), num, den)

    seeds = np.random.SeedSequence(seed).generate_state(games)
    for i in indices:
        batch = i * BATCHES // games
        rng = np.random.default_rng(seeds[i])
        mix_of = mixes(i)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            mix = mix_of(state)
            view = View.of(state, seat)
            influence, band = view.cards[seat], coin_band(view.coins[seat])
            tally_decision(view, mix, partial(add, influence=influence, coins=band))
            if contexts:
                tally_context(view, mix, Shown.of(state.core, seat),
                              partial(add_context, influence=influence))
            held = "+".join(sorted(C.card_name(c, deck) for c in view.hand))
            grid_decision(view, mix, partial(add_grid, hand=held), kinds)
            actions, probs = zip(*mix.items(), strict=True)
            probs = np.asarray(probs)
            state.apply_action(int(actions[rng.choice(len(actions), p=probs / probs.sum())]))
        if done is not None:
            done()
    return tally


def table_of(game: pyspiel.Game, games: int, seed: int, tally: Tally,
             agent: str = "blueprint", provenance_extra: dict | None = None) -> BluffTable:
    """The table of a tally of all ``games`` games: every rate with its interval."""
    deck = game.config.deck
    # An agent's moves are counts of 0 or 1: its interval also takes in Wilson's, so a
    # rate seen as 0 in a few decisions is not given as exactly 0.
    interval = ratio_interval if agent == "blueprint" else counted_interval
    rows = []
    for (question, card, influence, coins, context), (num, den) in sorted(tally.counts.items()):
        rate, lo, hi = interval(num, den)
        if math.isnan(rate):
            continue
        name = ALL if card < 0 else C.card_name(card, deck)
        rows.append(BluffRow(question, name, influence, coins, round(float(den.sum()), 6),
                             rate, (lo, hi), context))
    cells = []
    for (situation, hand, move), (num, den) in sorted(tally.grid.items()):
        rate, lo, hi = interval(num, den)
        if not math.isnan(rate):
            cells.append(GridRow(situation, hand, move, round(float(den.sum()), 6), rate,
                                 (lo, hi)))
    setup = game.config.setup
    return BluffTable(deck, setup, games, tuple(rows), provenance(seed) | (provenance_extra or {}),
                      tuple(cells), agent)


# What the opponent had shown, for the rates by context; ALL names every character together.
ALL = "all"
CONTEXTS = {
    "all": "every such decision, whatever had been shown (for the rates of all characters)",
    "first claim": "the player had not claimed this character before in the game",
    "claimed before": "the player had claimed this character before in the game",
    "never caught": "the claimer had not been caught bluffing in the game",
    "caught before": "the claimer had been caught bluffing at least once in the game",
}


@dataclasses.dataclass(frozen=True)
class Shown:
    """What the table has seen each player do so far: the characters each claimed (by an
    action or a block, before the pending claim) and how often each was caught bluffing."""

    claimed: tuple[frozenset[int], ...]
    caught: tuple[int, ...]

    @classmethod
    def of(cls, core: E.Core, seat: int) -> Shown:
        events, node = [], core.log
        while node is not None:
            node, event = node
            if event[0] == E.PUBLIC:
                events.append(event)
        events.reverse()
        n = core.cfg.num_players
        claimed = [set() for _ in range(n)]
        caught = [0] * n
        pending = None  # the newest claim: not "before" while it is being challenged
        for event in events:
            code = event[1]
            if code == E.E_ACT and C.KIND_CLAIM[event[3]] is not None:
                claim = (event[2], C.KIND_CLAIM[event[3]])
            elif code == E.E_BLOCK:
                claim = (event[2], event[3])
            else:
                if code == E.E_BLUFF:
                    caught[event[2]] += 1
                continue
            if pending is not None:
                claimed[pending[0]].add(pending[1])
            pending = claim
        if pending is not None and core.queue and core.queue[0][0] != E.S_CHAL:
            claimed[pending[0]].add(pending[1])
        return cls(tuple(frozenset(c) for c in claimed), tuple(caught))


def tally_context(view: View, mix: dict[int, float], shown: Shown, add) -> None:
    """Add one decision's counts by context: ``add(question, card, num, den, context=)``.
    A claim on the seat's turn by whether it claimed that character before; a challenge of
    a claim (an action) by whether the claimer was caught bluffing before, and by whether
    it had claimed that character before."""
    code = view.step[0]
    if code == E.S_ACTION:
        for action, p in mix.items():
            claim = C.KIND_CLAIM[action_kind(action)]
            if claim is None:
                continue
            context = "claimed before" if claim in shown.claimed[view.seat] else "first claim"
            bluffed = 0.0 if claim in view.hand else p
            add("claim", claim, bluffed, p, context=context)
            add("claim", claim, bluffed, p, context="all")
    elif code == E.S_CHAL and not view.step[4]:
        claimer, claim = view.step[1], view.step[2]
        p = mix.get(C.A_CHALLENGE, 0.0)
        add("challenge", claim, p, 1.0,
            context="caught before" if shown.caught[claimer] else "never caught")
        add("challenge", claim, p, 1.0,
            context="claimed before" if claim in shown.claimed[claimer] else "first claim")
        add("challenge", claim, p, 1.0, context="all")


def table_path(deck: str, setup: str) -> Path:
    return store.data("coup", "blueprint", f"{deck}-{setup}-bluffs.json")


def save_table(table: BluffTable, path_of: Callable[[str, str], Path] = table_path) -> None:
    """Store ``table`` where ``path_of(deck, setup)`` says (the blueprint's by default)."""
    path = path_of(table.deck, table.setup)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(table.to_json(), indent=1, sort_keys=True) + "\n")


def load_tables(deck: str, setups: Iterable[str],
                path_of: Callable[[str, str], Path] = table_path) -> dict[str, BluffTable]:
    """The stored tables of ``deck`` for those of ``setups`` measured (at ``path_of``)."""
    return {s: BluffTable.from_json(read_record(path_of(deck, s)))
            for s in setups if path_of(deck, s).exists()}
