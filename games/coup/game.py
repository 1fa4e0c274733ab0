"""``python_coup``: Coup (2–8 players, Ambassador or Inquisitor) as an OpenSpiel game.

The rules live in :mod:`games.coup.cards` (data) and :mod:`games.coup.rules`
(pure functions); :mod:`games.coup.engine` steps a small immutable-field core.
This module declares the OpenSpiel game, its state wrapper and its observer.
Rulings on the ambiguous points are in ``docs/rules/coup.md``.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from games.coup import cards as C
from games.coup import engine as E
from games.coup.positions import parse_position
from games.coup.view import (
    action_name,
    event_text,
    events,
    hand_text,
    information_state_text,
    infoset_key,
    observation_text,
    public_log,
    returns,
    state_key,
    step_text,
)
from games.coup.walker import CoupWalker
from games.errors import IllegalActionError, InvalidParameterError
from games.words import count

_DEFAULTS = {
    "players": 2,
    "deck": "ambassador",
    "two_player_setup": "basic",
    "starting_player": 0,
    "challenge_order": "turn",
    "block_order": "turn",
    "refund_challenged_assassination": True,
    "refund_blocked_assassination": False,
    "turn_cap": 200,
    "cap_payoff": 0.0,
    "total_coins": 50,
    "position": "",
    **{name: getattr(C.PRINTED, name) for name in C.NUMBER_PARAMS},
}

# What each parameter does, one line each (``farol games``; docs/rules/coup.md has more).
PARAMETER_HELP = {
    "players": "2 to 8 players",
    "deck": "the fifth character: ambassador or inquisitor",
    "two_player_setup": "with 2 players: basic (the starting player gets 1 coin), standard "
                        "(2 coins each) or draft",
    "starting_player": "the seat that plays first; -1: chosen at random",
    "challenge_order": "who challenges when several would: turn (in turn order) or chance",
    "block_order": "who blocks Foreign Aid when several would: turn or chance",
    "refund_challenged_assassination": "a successfully challenged assassination gives the 3 "
                                       "coins back (the official FAQ)",
    "refund_blocked_assassination": "a blocked assassination gives the 3 coins back (not "
                                    "official)",
    "turn_cap": "the game stops after this many turns (see cap_payoff)",
    "cap_payoff": "player 0's payoff when the turn cap stops the game, -1 to 1",
    "total_coins": "coins in the game (the treasury holds what the players do not)",
    "position": "an endgame to start from, e.g. duke/contessa/3;?/contessa/0;move:0 "
                "(empty: a new game)",
    **C.NUMBER_HELP,
}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_coup",
    long_name="Python Coup",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=C.MAX_PLAYERS,
    min_num_players=C.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def make_config(params: dict) -> E.Config:
    """Validate flat game parameters into a :class:`~games.coup.engine.Config`.

    Raises
    ------
    InvalidParameterError
        For an unknown parameter or an unusable value (message names it).
    """
    unknown = set(params) - set(_DEFAULTS)
    if unknown:
        raise InvalidParameterError(
            f"python_coup has no parameter {sorted(unknown)[0]!r}; its parameters: {', '.join(sorted(_DEFAULTS))}"
        )
    p = {**_DEFAULTS, **params}

    def choice(key, options):
        if p[key] not in options:
            raise InvalidParameterError(f"parameter {key!r} must be one of {', '.join(options)}, not {p[key]!r}")
        return p[key]

    deck = choice("deck", C.DECKS)
    setup = choice("two_player_setup", C.SETUPS)
    challenge = choice("challenge_order", ("turn", "chance"))
    block = choice("block_order", ("turn", "chance"))
    turn_cap = int(p["turn_cap"])
    if turn_cap < 1:
        raise InvalidParameterError(f"parameter 'turn_cap' must be at least 1, not {turn_cap}")
    cap_payoff = float(p["cap_payoff"])
    if not -1.0 <= cap_payoff <= 1.0:
        raise InvalidParameterError(f"parameter 'cap_payoff' must be between -1 and 1, not {cap_payoff:zg}")
    total = int(p["total_coins"])
    position = None
    if p["position"]:
        position = parse_position(str(p["position"]), deck, total)
        n = position.num_players
        if int(p["players"]) != n:
            raise InvalidParameterError(
                f"the position has {n} players but players={p['players']}; pass players={n}"
            )
    n = int(p["players"])
    if n not in C.PLAYER_COUNTS:
        raise InvalidParameterError(
            f"parameter 'players' must be {C.MIN_PLAYERS} to {C.MAX_PLAYERS}, not {n}")
    start = int(p["starting_player"])
    if not -1 <= start < n:
        raise InvalidParameterError(f"parameter 'starting_player' must be -1 (chance) or 0 to {n - 1}, not {start}")
    if setup == "draft" and n != 2:
        setup = "standard"  # the draft exists only for two players; ignored otherwise
    if total < 2 * n:
        raise InvalidParameterError(f"parameter 'total_coins' must be at least {2 * n}, not {total}")
    numbers = make_numbers(p, n, total, setup, position is not None)
    return E.Config(
        num_players=n, deck=deck, setup=setup, starting_player=start, numbers=numbers,
        challenge_chance=challenge == "chance", block_chance=block == "chance",
        refund=bool(p["refund_challenged_assassination"]),
        refund_blocked=bool(p["refund_blocked_assassination"]), turn_cap=turn_cap,
        total_coins=total, position=position, cap_payoff=cap_payoff,
    )


def make_numbers(p: dict, n: int, total: int, setup: str, endgame: bool) -> C.Numbers:
    """The rules' numbers (:class:`~games.coup.cards.Numbers`) from the parameters,
    validated: no negative count, a forced Coup one can pay for, hands and a court the
    deck can hold."""
    values = {}
    for name in C.NUMBER_PARAMS:
        text = p[name]
        try:
            value = int(text)
        except (TypeError, ValueError):
            raise InvalidParameterError(f"parameter {name!r} must be a whole number, not {text!r}") from None
        if isinstance(text, float) and text != value:
            raise InvalidParameterError(f"parameter {name!r} must be a whole number, not {text!r}")
        if value < 0:
            raise InvalidParameterError(f"parameter {name!r} cannot be negative ({value})")
        values[name] = value
    numbers = C.Numbers(**values)
    if numbers.coup_cost < 1:
        raise InvalidParameterError("parameter 'coup_cost' must be at least 1 (a free Coup "
                                    "could be played with no coins at all)")
    if numbers.forced_coup_coins < numbers.coup_cost:
        raise InvalidParameterError(
            f"parameter 'forced_coup_coins' ({numbers.forced_coup_coins}) must be at least "
            f"coup_cost ({numbers.coup_cost}): a player forced to Coup must be able to pay")
    if not 1 <= numbers.hand_size <= C.MAX_HAND:
        raise InvalidParameterError(
            f"parameter 'hand_size' must be 1 or {C.MAX_HAND}, not {numbers.hand_size}")
    if numbers.copies > C.MAX_COPIES:
        raise InvalidParameterError(
            f"parameter 'copies' must be 0 (the rules' count) to {C.MAX_COPIES}, not {numbers.copies}")
    copies = numbers.copies or C.copies_per_character(n)
    court = copies * C.NUM_CHARACTERS - n * numbers.hand_size
    if not endgame and court < C.AMBASSADOR_DRAW:
        raise InvalidParameterError(
            f"{n} hands of {numbers.hand_size} cards leave {max(court, 0)} of the deck's "
            f"{copies * C.NUM_CHARACTERS} cards in the court; it needs {C.AMBASSADOR_DRAW} "
            f"(raise copies or lower hand_size)")
    if n * numbers.starting_coins > total:
        raise InvalidParameterError(
            f"parameter 'starting_coins' ({numbers.starting_coins}) for {n} players needs "
            f"{n * numbers.starting_coins} coins; the game has total_coins={total}")
    if setup == "draft" and (numbers.copies or numbers.hand_size != C.PRINTED.hand_size):
        raise InvalidParameterError("the 2-player draft deals its own piles: it takes the "
                                    "rules' copies and hand_size only")
    return numbers


def _max_game_length(cfg: E.Config) -> int:
    n = cfg.num_players
    setup = 2 * n + 4
    # Per turn: the action, three reaction windows of at most n-1 answers, two
    # losses, a few draws and choices.
    return setup + cfg.turn_cap * (3 * n + 12)


class CoupGame(pyspiel.Game):
    """Coup, with the parameters of :data:`_DEFAULTS` (see ``docs/rules/coup.md``).

    ``turn_cap`` stops the game after that many turns; ``cap_payoff`` (default 0,
    in [-1, 1]) is then player 0's payoff, every other player getting
    −cap_payoff/(n−1). Solving a capped endgame with ``cap_payoff`` −1 and +1
    brackets the value of the uncapped game (``docs/coup_analysis.md``).
    """

    def __init__(self, params=None):
        params = dict(params or {})
        self.config = make_config(params)
        cfg = self.config
        info = pyspiel.GameInfo(
            num_distinct_actions=C.NUM_ACTIONS,
            max_chance_outcomes=max(len(C.KEEP_OPTIONS), cfg.num_players),
            num_players=cfg.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(cfg),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return CoupState(self)

    def solver_walker(self, history: bool = True):
        """The rule functions over bare positions, for the compiler's fast walk
        (:class:`games.coup.walker.CoupWalker`, protocol :class:`games.keys.Walker`)."""
        return CoupWalker(self.config, history)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CoupObserver(
            self.config,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class CoupState(pyspiel.State):
    """An OpenSpiel state wrapping an :class:`~games.coup.engine.Core`.

    OpenSpiel clones a Python state by deep-copying its ``__dict__``; the only
    entry is the core, whose ``__deepcopy__`` is a shallow copy of immutable
    fields, so cloning stays cheap.
    """

    def __init__(self, game, core: E.Core | None = None):
        super().__init__(game)
        # OpenSpiel's clone() also runs this constructor before it replaces the
        # __dict__, so the initial core is built once per game and copied.
        if core is None:
            initial = game.__dict__.get("_initial_core")
            if initial is None:
                initial = game._initial_core = E.Core(game.config)
            core = initial.copy()
        self._c = core

    @property
    def core(self) -> E.Core:
        return self._c

    def current_player(self):
        return self._c.cur

    def _legal_actions(self, player):
        if player != self._c.cur:
            return []
        return self._c.legal_actions()

    def chance_outcomes(self):
        return self._c.chance_outcomes()

    def _apply_action(self, action):
        c = self._c
        if c.over:
            raise IllegalActionError("the game is over")
        legal = [a for a, _ in c.chance_outcomes()] if c.cur == E.CHANCE else c.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {action} ({self._action_to_string(c.cur, action)}) is not legal now"
            )
        c.apply(action)

    def is_terminal(self):
        return self._c.over

    def returns(self):
        return returns(self._c)

    def _action_to_string(self, player, action):
        return action_name(self._c, player, action)

    def __str__(self):
        c = self._c
        deck = c.cfg.deck
        players = " | ".join(
            f"P{p}:{hand_text(c.hands[p], deck)}/{hand_text(c.revealed[p], deck)}/{c.coins[p]}"
            for p in range(c.cfg.num_players)
        )
        court = ",".join(str(k) for k in c.court)
        return (
            f"turn {c.turn} actor P{c.actor} | {players} | court {court} | "
            f"drawn {hand_text(c.drawn, deck)} | queue {c.queue}"
            + (f" | over winner {c.winner}" if c.over else "")
        )

    # ---- keys for the solvers (games.keys) ---------------------------------
    def state_key(self):
        """The whole position up to the order of past events (see :mod:`games.keys`)."""
        return state_key(self._c)

    def infoset_key(self, player):
        """``player``'s own cards plus the public position (imperfect recall)."""
        return infoset_key(self._c, player)


class CoupObserver:
    """Observation strings and tensors; perfect-recall strings replay the visible log."""

    def __init__(self, cfg: E.Config, iig_obs_type, params):
        if params:
            raise InvalidParameterError(f"python_coup observers take no parameters; got {params}")
        self.cfg = cfg
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        n = cfg.num_players
        k = C.NUM_CHARACTERS
        pieces = [
            ("player", n), ("hand", k), ("drawn", k), ("revealed", n * k), ("coins", n),
            ("alive", n), ("to_move", n), ("step", E.NUM_STEPS), ("actor", n),
            ("target", n), ("kind", C.NUM_KINDS), ("turn", 1),
        ]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict = {}
        i = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[i:i + size]
            i += size

    def set_from(self, state, player):
        core = state.core
        d = self.dict
        self.tensor.fill(0)
        n = self.cfg.num_players
        d["player"][player] = 1
        if self.private:
            for c in core.hands[player]:
                d["hand"][c] += 1
            if player == core.actor:
                for c in core.drawn:
                    d["drawn"][c] += 1
        if self.public:
            for p in range(n):
                for c in core.revealed[p]:
                    d["revealed"][p * C.NUM_CHARACTERS + c] += 1
                d["coins"][p] = core.coins[p] / 10.0
                d["alive"][p] = 1.0 if core.hands[p] else 0.0
            if core.cur >= 0:
                d["to_move"][core.cur] = 1
            if core.queue and not core.over:
                d["step"][core.queue[0][0]] = 1
            if core.actor >= 0:
                d["actor"][core.actor] = 1
            if core.target >= 0:
                d["target"][core.target] = 1
            if core.kind >= 0:
                d["kind"][core.kind] = 1
            d["turn"][0] = core.turn / self.cfg.turn_cap

    def string_from(self, state, player):
        core = state.core
        viewer = player if self.private else -1
        if self.perfect_recall:
            if self.public and viewer == player:
                return information_state_text(core, player)
            lines = public_log(core, viewer) if self.public else [
                event_text(ev, viewer, self.cfg.deck) for ev in events(core)
                if ev[0] != E.PUBLIC and viewer >= 0 and ev[0] & (1 << viewer)
            ]
            return f"P{player}\n" + "\n".join(lines)
        return observation_text(core, viewer)


def render(state, seat: int) -> str:
    """What ``seat`` sees, for ``farol play``: cards, coins, the pending step and the log."""
    core = state.core
    deck = core.cfg.deck
    n = core.cfg.num_players
    lines = [f"Coup ({deck} deck), you are P{seat}; turn {core.turn + 1}"]
    for p in range(n):
        you = " (you)" if p == seat else ""
        hidden = hand_text(core.hands[p], deck) if p == seat else f"{len(core.hands[p])} face-down"
        status = "" if core.hands[p] else "  OUT"
        lines.append(
            f"  P{p}{you}: {hidden}; revealed {hand_text(core.revealed[p], deck)}; "
            f"{count(core.coins[p], 'coin')}{status}"
        )
    lines.append(f"  treasury {count(core.treasury, 'coin')}; court "
                 f"{count(sum(core.court), 'card')}")
    if seat == core.actor and core.drawn:
        lines.append(f"  you drew {hand_text(core.drawn, deck)}")
    log = public_log(core, seat)
    if log:
        lines.append("Recent events:")
        lines += [f"  {line}" for line in log[-12:]]
    lines.append(f"Now: {step_text(core, seat)}")
    return "\n".join(lines)


pyspiel.register_game(_GAME_TYPE, CoupGame)
