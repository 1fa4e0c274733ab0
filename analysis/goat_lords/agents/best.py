"""``best``: the strongest Goat Lords agent, whatever :data:`~.by_name.STRONGEST` names,
at its default budget, with what it is and where its strength is measured.
"""

from __future__ import annotations

import json

import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents.by_name import STRONGEST, pinned
from analysis.goat_lords.agents.lord import DEFAULT
from analysis.play.bots import Bot, BotSpec, make_bot, register_bot
from analysis.shared import store
from analysis.statistics.intervals import wilson


def best_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """Whatever agent :data:`STRONGEST` names, at its default budget."""
    return make_bot(STRONGEST, game, seat, seed)


def behind_best(game: pyspiel.Game) -> dict:
    """What ``best`` is: :data:`STRONGEST`, how it plays, the data it reads and where its
    strength is measured."""
    return {"agent": STRONGEST,
            "plays": f"searches {DEFAULT.simulations} simulations a move over worlds that "
                     "agree with play, with greedy roll-outs",
            "data": "none (it computes as it plays)",
            "strength": strength_summary(),
            "strength_measured_in": f"{store.shown(store.data('goat_lords', 'matches'))} "
                                    "(the guide's strongest agent answer)"}


def strength_summary() -> str:
    """The stored 2-player match of the default agent against greedy, in a few words."""
    pinned_name = pinned(STRONGEST)  # the stored match names the budget that played
    budget = pinned_name.replace(":", "")
    path = store.data("goat_lords", "matches", f"{budget}_vs_greedy_2p.json")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return "not measured in this copy of Farol"
    mine = [r for r in data["seats"] if r["agent"] == pinned_name]
    played = sum(r["games"] for r in mine)
    if not played:
        return "not measured in this copy of Farol"
    rate, lo, hi = wilson(sum(r["wins"] for r in mine), played)
    return (f"wins {100 * rate:z.1f}% [{100 * lo:z.1f}, {100 * hi:z.1f}] against greedy at 2 "
            f"players ({played:,} games)")


register_bot(BotSpec("best", f"the strongest Goat Lords agent (now {STRONGEST})", best_bot,
                     games=(GAME,), about=behind_best))
