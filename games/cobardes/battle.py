"""``python_cobardes_battle``: one ¡Cobardes! battle, two players, zero-sum.

The simultaneous reveal is encoded sequentially with the first choice hidden (player 1's
information state does not contain player 0's face-down card). Parameters:
:mod:`games.cobardes.options`; rulings: ``docs/rules/cobardes.md``. The state holds one
immutable engine position (:class:`~games.cobardes.engine.Pos`, carrying the shared
rules), so cloning copies a reference; keys come from :mod:`games.cobardes.keys`, texts
from :mod:`games.cobardes.view`.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.hidden import LiftedBattleWalker
from games.cobardes.keys import infoset_key, state_key
from games.cobardes.options import BATTLE_DEFAULTS, Rules, make_rules
from games.cobardes.view import (  # noqa: F401  (names other modules import from here)
    action_string,
    describe,
    info_string,
    observation_string,
    render,
    render_pos,
)
from games.cobardes.walker import BattleWalker
from games.errors import IllegalActionError

_GAME_TYPE = pyspiel.GameType(
    short_name="python_cobardes_battle",
    long_name="¡Cobardes! — one battle",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=dict(BATTLE_DEFAULTS),
)


def max_length(rules: Rules) -> int:
    """An upper bound on the number of moves (chance included) in a battle."""
    per_confrontation = 2
    confrontations = 1 + rules.cfg.exchange_limit + len(C.VILLAINS)
    per_combat = 1 + 2 + 2 + 1 + per_confrontation * confrontations + 6
    return 4 + rules.cfg.combats * per_combat


class CobardesBattleGame(pyspiel.Game):
    """One battle of ¡Cobardes!."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.rules = make_rules(params)
        lo, hi = self.rules.pay.bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=E.NUM_ACTIONS,
            max_chance_outcomes=E.MAX_CHANCE_OUTCOMES,
            num_players=2,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=max_length(self.rules),
        )
        full = dict(BATTLE_DEFAULTS)
        full.update(params)
        super().__init__(_GAME_TYPE, info, full)

    def new_initial_state(self):
        return CobardesBattleState(self)

    def solver_walker(self, history: bool = True):
        """The battle's pure rule functions for the compiler (:class:`games.keys.Walker`)."""
        return BattleWalker(self.rules, history)

    def lifted_walker(self):
        """The walker of the deal-lifted compile (:mod:`games.cobardes.hidden`)."""
        return LiftedBattleWalker(self.rules)

    def make_py_observer(self, iig_obs_type=None, params=None):
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        steps = max_length(self.rules) if iig_obs_type.perfect_recall else 0
        return CobardesObserver(iig_obs_type, params, history_steps=steps)


class CobardesBattleState(pyspiel.State):
    """A battle in progress: the shared rules plus one immutable position."""

    def __init__(self, game):
        super().__init__(game)
        # The only attribute: OpenSpiel's clone deep-copies each one, and a position
        # (immutable, carrying its shared rules) copies as itself.
        self._s = game.rules.initial

    @property
    def _r(self) -> Rules:
        return self._s.rules

    # ---- OpenSpiel API
    def current_player(self):
        return self._s.actor

    def _legal_actions(self, player):
        s = self._s
        if player != s.actor:
            return []
        return E.legal_actions(s.rules.cfg, s)

    def chance_outcomes(self):
        return E.chance_outcomes(self._r.cfg, self._s)

    def _apply_action(self, action):
        s = self._s
        cfg = s.rules.cfg
        if s.actor >= 0:
            if not E.is_legal(cfg, s, action):
                raise IllegalActionError(
                    f"{E.action_name(action) if 0 <= action < E.NUM_ACTIONS else action} "
                    f"is not legal for P{s.actor} now ({E.PHASE_NAMES[s.phase]})")
        elif s.actor == E.CHANCE:
            if all(a != action for a, _ in E.chance_outcomes(cfg, s)):
                raise IllegalActionError(f"{action} is not a chance outcome here")
        else:
            raise IllegalActionError("the battle is over")
        self._s = E.apply(cfg, s, action)

    def _action_to_string(self, player, action):
        return action_string(self._s, player, action)

    def is_terminal(self):
        return self._s.outcome is not None

    def returns(self):
        if self._s.outcome is None:
            return [0.0, 0.0]
        v = self._r.pay.value(self._s.outcome)
        return [v, -v]

    def __str__(self):
        return describe(self._s)

    # ---- Farol's solver protocol (games.keys)
    def state_key(self):
        """The whole position up to the order of past events."""
        return state_key(self._s)

    def infoset_key(self, player):
        """``player``'s private cards plus the public position."""
        return infoset_key(self._s, player)

    # ---- helpers for analysis and tests
    @property
    def position(self) -> E.Pos:
        """The engine position (read-only)."""
        return self._s

    @property
    def outcome(self):
        """``None`` while playing, else ``(kind, winner)``."""
        return self._s.outcome


class CobardesObserver:
    """Observation strings and tensors for both ¡Cobardes! games.

    With ``perfect_recall`` the string lists every event the player saw, in order
    (own and public); otherwise it is a snapshot of what the player sees now.
    ``public_info`` / ``private_info`` select the public and private parts.

    The tensor is the snapshot (``observation``); with ``history_steps`` (the
    battle's information-state tensor) it adds the move history as the player saw
    it (``history``): per move, who moved (P0, P1, chance), whether the player saw
    the move, and the move itself if seen. Together with the game's parameters
    this determines everything the player knows (perfect recall).
    """

    TENSOR_SIZE = 16 * 7 + 2 * 11 + C.MAX_COMBATS + 13 + 12
    STEP_SIZE = 3 + 1 + E.NUM_ACTIONS

    def __init__(self, iig_obs_type, params, history_steps: int = 0):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.steps = history_steps
        self.tensor = np.zeros(self.TENSOR_SIZE + history_steps * self.STEP_SIZE, np.float32)
        self.dict = {"observation": self.tensor[:self.TENSOR_SIZE]}
        if history_steps:
            self.dict["history"] = self.tensor[self.TENSOR_SIZE:].reshape(
                history_steps, self.STEP_SIZE)

    def _set_history(self, state, s: E.Pos, player: int) -> None:
        grid = self.dict["history"]
        bit = 1 << player
        for i, (step, mask) in enumerate(zip(state.full_history(), s.seen, strict=False)):
            if i >= self.steps:
                break
            grid[i, step.player if step.player >= 0 else 2] = 1
            if mask & bit and ((mask == 3 and self.public) or (mask != 3 and self.private)):
                grid[i, 3] = 1
                grid[i, 4 + step.action] = 1

    def set_from(self, state, player):
        s = _pos_of(state)
        t = self.tensor
        t.fill(0)
        if self.steps:
            self._set_history(state, s, player)
        r = 1 - player
        off = 0

        def put_mask(mask):
            nonlocal off
            for c in E.bits(mask):
                t[off + c] = 1
            off += 16

        if self.private:
            put_mask(s.h[player])
            put_mask(s.kv[player] & s.h[r])
        else:
            off += 32
        put_mask(s.h[r] & C.WARRIOR_MASK if self.public else 0)
        put_mask(sum(1 << c for q, c in s.field if q == player) if self.public else 0)
        put_mask(sum(1 << c for q, c in s.field if q == r) if self.public else 0)
        own = s.cards[player] if self.private and s.phase == E.COMMIT else -1
        put_mask(1 << own if own >= 0 else 0)
        theirs = s.cards[r] if self.public and s.phase == E.COMMIT and s.open else -1
        put_mask(1 << theirs if theirs >= 0 else 0)
        if self.public:
            for p in (player, r):
                if s.court[p] >= 0:
                    t[off + s.court[p]] = 1
                t[off + 10] = s.used >> p & 1
                off += 11
            if 1 <= s.combat <= C.MAX_COMBATS:
                t[off + s.combat - 1] = 1
            off += C.MAX_COMBATS
            t[off + s.phase] = 1
            off += 13
            t[off] = s.actor == player
            t[off + 1] = bin(s.h[r] & C.VILLAIN_MASK).count("1")
            t[off + 2] = s.unh >> player & 1
            t[off + 3] = s.unh >> r & 1
            t[off + 4] = s.bonus >> player & 1
            t[off + 5] = s.bonus >> r & 1
            t[off + 6] = s.forced >> player & 1
            t[off + 7] = s.forced >> r & 1
            t[off + 8] = s.mods[player]
            t[off + 9] = s.mods[r]
            t[off + 10] = s.exch
            t[off + 11] = s.phase == E.COMMIT and s.cards[r] >= 0

    def string_from(self, state, player):
        s = _pos_of(state)
        prefix = _prefix_of(state, player)
        if self.perfect_recall:
            return prefix + info_string(s, player, self.public, self.private)
        return prefix + observation_string(s, player, self.public, self.private)


def _pos_of(state) -> E.Pos:
    return state.position


def _prefix_of(state, player) -> str:
    prefix = getattr(state, "observation_prefix", None)
    return prefix(player) if prefix else ""


pyspiel.register_game(_GAME_TYPE, CobardesBattleGame)
