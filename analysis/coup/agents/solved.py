"""``solved``: the solved equilibrium of a 2-player Coup endgame, as an agent.

``farol play python_coup --param position=... --opponent solved`` plays against it. It
solves the endgame the game starts from (:mod:`analysis.coup.solvers.position_endgames`):
exactly for a cap of up to two turns, otherwise two turns with the cap priced by Markov
guarantees and the Markov policy after them, a guaranteed win rate.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.coup.model import GAME, printed_rules_only
from analysis.coup.solvers.position_endgames import (
    DEFAULT_CAP,
    can_price_cap,
    priced_endgame,
    solved_endgame,
)
from analysis.play.bots import BotSpec, register_bot
from games.coup.positions import UNKNOWN
from games.coup.walker import DecisiveCoupWalker
from games.errors import InvalidParameterError


def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """A bot playing the solved endgame ``game`` starts from.

    The game must be a two-player ``python_coup`` endgame (``position`` parameter). With
    a turn cap of at most :data:`DEFAULT_CAP` turns the bot plays the exact equilibrium
    of that capped game. With a larger cap (the default 200: a real endgame) it plays the
    equilibrium of the first :data:`DEFAULT_CAP` turns with the cap priced by Markov
    guarantees (:func:`priced_endgame`, the side that secures its own seat the most) and
    its Markov policy afterwards, so that it wins at least the bracket's end on its side
    whatever its opponent does. Either way it solves the all-hidden version of the
    position and maps each state to it by replaying the deal and the moves.
    """
    cfg = game.config
    if cfg.position is None or cfg.num_players != 2:
        raise InvalidParameterError(
            "the solved opponent plays two-player endgames only: pass "
            "--param position=... (e.g. '?/duke/3;?/captain/2;move:0')")
    printed_rules_only(cfg.numbers, "the solved opponent (its endgames are solved and stored "
                       "for the printed rules)")
    guarantees = None
    if cfg.turn_cap <= DEFAULT_CAP:
        solved_game, result = solved_endgame(cfg.position, cfg.deck, cfg.turn_cap)
    elif not can_price_cap(cfg.position):
        raise InvalidParameterError(
            "the solved opponent plays past 2 turns from 1v1, 2v1 and 1v2 positions only; "
            "from a 2v2 position pass --param turn_cap=1 (the exact capped game)")
    else:
        priced = priced_endgame(cfg.position, cfg.deck, DEFAULT_CAP)
        solved_game, result, guarantees = priced.game, priced.sides[seat], priced.guarantees
        walker = DecisiveCoupWalker(cfg, history=False)
    table = {k: i for i, k in enumerate(result.infoset_keys)}
    own_deals = sum(h.count(UNKNOWN) for h in cfg.position.hidden)
    rng = np.random.default_rng(seed)

    def mirror(state: pyspiel.State) -> pyspiel.State | None:
        # The solved game's state for ``state``; None once play passes the solved turns.
        history = state.history()
        start = game.new_initial_state()
        for a in history[:own_deals]:
            start.apply_action(a)
        general = solved_game.new_initial_state()
        for hand in start.core.hands:
            for card in hand:
                general.apply_action(card)
        for a in history[own_deals:]:
            if general.is_terminal():
                return None
            general.apply_action(a)
        return None if general.is_terminal() else general

    def sample(actions, probs) -> int:
        probs = np.maximum(np.asarray(probs, dtype=float), 0.0)
        return int(actions[rng.choice(len(actions), p=probs / probs.sum())])

    def act(state: pyspiel.State) -> int:
        general = mirror(state)
        i = None if general is None else table.get(general.information_state_string(seat))
        if i is not None:
            lo, hi = result.infoset_offset[i], result.infoset_offset[i + 1]
            return sample(result.infoset_actions[lo:hi], result.strategy[lo:hi])
        if guarantees is not None:
            mix = guarantees.mix(state.core, seat)
            if mix is not None:
                return sample(walker.legal_actions(state.core), mix)
        # A history the solved profile never reaches: play uniformly.
        legal = state.legal_actions(seat)
        return int(legal[rng.integers(len(legal))])

    return act


register_bot(BotSpec("solved", "the solved equilibrium of a 2-player Coup endgame: exact for "
                     "a cap of up to 2 turns; otherwise 2 turns priced by Markov guarantees, "
                     "then the Markov policy (a guaranteed win rate)",
                     solved_bot, games=(GAME,)))
