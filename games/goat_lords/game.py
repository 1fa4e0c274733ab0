"""Goat Lords (simple version) as the OpenSpiel game ``python_goat_lords``.

Chance deals and draws one card at a time (outcome = the kind drawn, with the
probability of drawing it from the shuffled draw pile). Decisions: the four
actions of a turn (birth, assisted birth, duel, discard) and, inside a duel,
answering with a card or yielding. The rules live in :mod:`games.goat_lords.rules`
and the position in a :class:`games.goat_lords.table.Table`.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from games.errors import InvalidParameterError
from games.goat_lords import rules
from games.goat_lords.cards import DECK_COUNTS, DEFAULT_VALUES, KINDS, NUM_KINDS, WILDS, kind_name
from games.goat_lords.table import CHANCE, OVER, Config, Table
from games.words import count

VALUE_PARAMS = tuple(f"value_{k.key}" for k in KINDS)
WILD_PARAMS = tuple(f"copies_{KINDS[k].key}" for k in WILDS)

_DEFAULTS = {
    "players": 2,
    "scoring": "rounds",
    "target_score": 1000,
    "duel_answer": "pile",
    "max_turns": 600,
    "max_rounds": 30,
    **{name: value for name, value in zip(VALUE_PARAMS, DEFAULT_VALUES, strict=True)},
    **{name: DECK_COUNTS[k] for name, k in zip(WILD_PARAMS, WILDS, strict=True)},
    "hand_size": 0,
}

# What each parameter does, one line each (``farol games``).
PARAMETER_HELP = {
    "players": "2 to 6 players",
    "scoring": "rounds (rounds until target_score) or single (one round, most points wins)",
    "target_score": "with scoring=rounds: the points that end the game",
    "duel_answer": "a duel is answered with cards matching the duelled pile's goat (pile) or "
                   "the last card played (last)",
    "max_turns": "turns before a round is stopped (a safety cap)",
    "max_rounds": "rounds before the game is stopped (a safety cap)",
    **{name: f"points a {kind_name(i)} card is worth"
       for i, name in enumerate(VALUE_PARAMS)},
    **{name: f"copies of the wild {kind_name(k)} in the deck (published: {DECK_COUNTS[k]})"
       for name, k in zip(WILD_PARAMS, WILDS, strict=True)},
    "hand_size": "cards dealt to each player; 0: the rules' 5 with 2-3 players, 4 with 4-6",
}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_goat_lords",
    long_name="Goat Lords (simple version)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=rules.MAX_PLAYERS,
    min_num_players=rules.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def config_from_params(params: dict) -> Config:
    """Build the rules variant from OpenSpiel's flat parameters (errors name the problem)."""
    unknown = set(params) - set(_DEFAULTS)
    if unknown:
        raise InvalidParameterError(
            f"python_goat_lords has no parameter {sorted(unknown)[0]!r}; "
            f"its parameters: {', '.join(sorted(_DEFAULTS))}"
        )
    merged = {**_DEFAULTS, **params}
    for name in VALUE_PARAMS:
        if not 0 <= int(merged[name]) <= 1000:
            raise InvalidParameterError(f"{name} must be a point value from 0 to 1000, not {merged[name]}")
    return Config(
        players=int(merged["players"]),
        values=tuple(int(merged[name]) for name in VALUE_PARAMS),
        scoring=str(merged["scoring"]),
        target_score=int(merged["target_score"]),
        duel_answer=str(merged["duel_answer"]),
        max_turns=int(merged["max_turns"]),
        max_rounds=int(merged["max_rounds"]),
        wilds=tuple(int(merged[name]) for name in WILD_PARAMS),
        hand=int(merged["hand_size"]),
    )


def action_label(action: int) -> str:
    """Human name of a decision action."""
    if action < rules.ASSIST0:
        a, b = rules.BIRTH_PAIRS[action]
        return f"Birth: {KINDS[a].name} + {KINDS[b].name}"
    if action < rules.DUEL0:
        return f"Assisted birth with {KINDS[action - rules.ASSIST0].name}"
    if action < rules.ANSWER0:
        target, k = divmod(action - rules.DUEL0, NUM_KINDS)
        return f"Duel seat {target} with {KINDS[k].name}"
    if action < rules.YIELD:
        return f"Play {KINDS[action - rules.ANSWER0].name} in the duel"
    if action == rules.YIELD:
        return "Stop dueling"
    if action < rules.NUM_ACTIONS:
        return f"Discard {KINDS[action - rules.DISCARD0].name}"
    return f"unknown action {action}"


class GoatLordsGame(pyspiel.Game):
    """Goat Lords, simple version: 2–6 players, the published 110-card deck."""

    def __init__(self, params=None):
        self.config = config_from_params(dict(params or {}))
        n = self.config.players
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.NUM_ACTIONS,
            max_chance_outcomes=NUM_KINDS,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.config.max_game_length(),
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self):
        return GoatLordsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return GoatLordsObserver(self.config, perfect_recall)


class GoatLordsState(pyspiel.State):
    """A Goat Lords position: a thin wrapper over a :class:`Table`."""

    def __init__(self, game, table: Table | None = None):
        super().__init__(game)
        self.table = table if table is not None else Table(game.config)

    # OpenSpiel API -----------------------------------------------------------------
    def current_player(self):
        t = self.table
        if t.phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if t.to_move == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return t.to_move

    def _legal_actions(self, player):
        return self.table.legal_actions()

    def chance_outcomes(self):
        return self.table.chance_outcomes()

    def _apply_action(self, action):
        if self.table.to_move == CHANCE:
            self.table.apply_chance(action)
        else:
            self.table.apply_action(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"Draw {KINDS[action].name}" if 0 <= action < NUM_KINDS else f"chance {action}"
        return action_label(action)

    def is_terminal(self):
        return self.table.phase == OVER

    def returns(self):
        t = self.table
        if t.phase != OVER:
            return [0.0] * t.cfg.players
        return rules.returns_for(t.winning, t.cfg.players)

    def __str__(self):
        t = self.table
        parts = [f"round {t.round_no + 1} turn {t.turns} phase {t.phase} to_move {t.to_move}"]
        for p in range(t.cfg.players):
            parts.append(f"p{p} hand {_hand_text(t.hands[p])} herd {_herd_text(t.herds[p])}")
        parts.append(f"draw {t.draw} discard {[KINDS[k].key for k in t.discard]}")
        parts.append(f"totals {t.totals} duel {t.duel} pending {t.pending}")
        return "\n".join(parts)

    # ISMCTS support ----------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, hidden cards dealt anew.

        ``probability_sampler()`` seeds the shuffle, so OpenSpiel's samplers drive it.
        The history of the returned state is this state's (the resampled world has
        a different past that is never replayed); use it for search, not for replay.
        """
        rng = random.Random(int(probability_sampler() * 2**52))
        clone = self.clone()
        clone.table = self.table.resample(player_id, rng)
        return clone

    # Farol helpers -----------------------------------------------------------------
    def state_key(self):
        t = self.table
        return (
            t.phase, t.to_move, t.turn_player, t.round_no, t.turns,
            tuple(map(tuple, t.hands)), tuple(t.herds), tuple(t.draw), tuple(t.discard),
            tuple(t.totals), tuple(t.pending),
            None if t.duel is None else (t.duel["attacker"], t.duel["defender"], tuple(t.duel["cards"])),
        )

    def infoset_key(self, player):
        t = self.table
        return (player, _observation_string(t, player))


def _hand_text(hand) -> str:
    return ", ".join(f"{KINDS[k].name} x{c}" if c > 1 else KINDS[k].name for k, c in enumerate(hand) if c) or "(empty)"


def _herd_text(herd) -> str:
    if not herd:
        return "(no goats)"
    def pile(kind, cards):
        # Wilds inside a pile score as wilds: name them.
        wilds = [KINDS[c].name for c in cards if KINDS[c].wild and c != kind]
        return f"{kind_name(kind)} [{len(cards)}" + (f", with {', '.join(wilds)}]" if wilds else "]")

    return " | ".join(pile(kind, cards) for kind, cards in herd)


def _observation_string(t: Table, player: int) -> str:
    """What ``player`` sees now: own hand, every herd, the discard pile, sizes, scores."""
    parts = [f"p{player} round {t.round_no + 1} turn {t.turns}"]
    parts.append("hand " + ",".join(str(c) for c in t.hands[player]))
    for p in range(t.cfg.players):
        piles = ";".join(f"{kind}:" + ",".join(map(str, cards)) for kind, cards in t.herds[p])
        parts.append(f"p{p} cards {sum(t.hands[p])} herd {piles}")
    parts.append("discard " + ",".join(map(str, t.discard)))
    parts.append(f"draw {sum(t.draw)} totals {','.join(map(str, t.totals))}")
    if t.duel is not None:
        d = t.duel
        parts.append(f"duel p{d['attacker']}>p{d['defender']} " + ",".join(map(str, d["cards"])))
    parts.append(f"to_move {t.to_move}")
    return " | ".join(parts)


def _information_state_string(t: Table, player: int) -> str:
    """Everything ``player`` has seen, in order: public events and its own draws."""
    return f"p{player} " + " ".join(tok for owner, tok in t.log if owner < 0 or owner == player)


class GoatLordsObserver:
    """Observation strings and tensor; with perfect recall, the whole record of the seat."""

    def __init__(self, cfg: Config, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        n = cfg.players
        pieces = [] if perfect_recall else [
            ("hand", NUM_KINDS),
            ("hand_sizes", n),
            ("pile_counts", n),
            ("herd_points", n),
            ("top_piles", n * (NUM_KINDS + 1)),
            ("discard_top", NUM_KINDS),
            ("discard_counts", NUM_KINDS),
            ("draw_size", 1),
            ("duel", 2 + NUM_KINDS + 1),
            ("totals", n),
        ]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size
        self.cfg = cfg

    def set_from(self, state, player):
        self.tensor.fill(0)
        if self.perfect_recall:
            return
        t, n, d = state.table, self.cfg.players, self.dict
        values = self.cfg.values
        d["hand"][:] = t.hands[player]
        for rel in range(n):
            p = (player + rel) % n
            d["hand_sizes"][rel] = sum(t.hands[p])
            d["pile_counts"][rel] = len(t.herds[p])
            d["herd_points"][rel] = rules.herd_points(t.herds[p], values) / 100.0
            if t.herds[p]:
                d["top_piles"][rel * (NUM_KINDS + 1) + t.herds[p][-1][0]] = 1
            d["totals"][rel] = t.totals[p] / 1000.0
        if t.discard:
            d["discard_top"][t.discard[-1]] = 1
        for k in t.discard:
            d["discard_counts"][k] += 1
        d["draw_size"][0] = sum(t.draw) / 110.0
        if t.duel is not None:
            duel = t.duel
            d["duel"][0] = player == duel["attacker"]
            d["duel"][1] = player == duel["defender"]
            d["duel"][2 + duel["kind"]] = 1
            d["duel"][2 + NUM_KINDS] = len(duel["cards"])

    def string_from(self, state, player):
        if self.perfect_recall:
            return _information_state_string(state.table, player)
        return _observation_string(state.table, player)


def render(state: GoatLordsState, seat: int) -> str:
    """The table as ``seat`` sees it, for ``farol play``."""
    t = state.table
    cfg = t.cfg
    lines = [f"Goat Lords — round {t.round_no + 1}, turn {t.turns + 1} (you are seat {seat})"]
    if cfg.scoring == "rounds":
        lines.append(f"Totals so far (target {cfg.target_score}): "
                     + ", ".join(f"seat {p}: {s}" for p, s in enumerate(t.totals)))
    for p in range(cfg.players):
        who = "you" if p == seat else f"seat {p}"
        points = rules.herd_points(t.herds[p], cfg.values)
        lines.append(f"  {who}: {count(sum(t.hands[p]), 'card')} in hand; herd ({points} pts): "
                     f"{_herd_text(t.herds[p])}")
    top = t.discard_top()
    lines.append(f"Discard pile: {count(len(t.discard), 'card')}, top: "
                 f"{KINDS[top].name if top is not None else '(empty)'}")
    lines.append(f"Draw pile: {count(t.draw_size(), 'card')}")
    if t.duel is not None:
        d = t.duel
        played = ", ".join(KINDS[k].name for k in d["cards"])
        lines.append(f"DUEL: seat {d['attacker']} attacks seat {d['defender']}'s top pile "
                     f"({kind_name(d['kind'])}); cards played: {played}")
    lines.append(f"Your hand: {_hand_text(t.hands[seat])}")
    if t.phase == OVER:
        lines.append("Round points: " + "; ".join(
            ", ".join(f"seat {p}: {s}" for p, s in enumerate(r)) for r in t.round_points))
        lines.append("Winner(s): " + ", ".join(f"seat {p}" for p in t.winning))
    return "\n".join(lines)


__all__ = ["GoatLordsGame", "GoatLordsState", "render", "config_from_params", "action_label",
           "VALUE_PARAMS"]

pyspiel.register_game(_GAME_TYPE, GoatLordsGame)
