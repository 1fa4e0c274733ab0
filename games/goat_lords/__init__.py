"""Goat Lords (simple version): registers ``python_goat_lords`` and the ``goat_lords`` family."""

from __future__ import annotations

from games.catalog import GameEntry, GameFamily, register_family
from games.goat_lords import game  # noqa: F401  (registers the OpenSpiel game)
from games.goat_lords.events import event_lines
from games.goat_lords.game import render

SUMMARY = """
Goat Lords is a card game for 2–6 players about building the biggest herd of goats.
The deck holds 110 goat cards of twelve kinds: ten goat kinds and two kinds of wild
(Goat Lord ×4, Magical Goatini ×8). Each player is dealt 4 cards (5 with 2–3 players)
and the top card of the draw pile starts the face-up discard pile (never a wild).

On a turn a player does exactly one thing:

- **Birth**: put a pair from hand in front of them as a new pile of their herd: two
  identical goats, or any card with a wild. The first pile is protected forever.
- **Assisted birth**: pair the discard pile's top card with a matching card from hand.
- **Duel**: attack an opponent's *top* pile with a matching goat (or a wild). The
  attacker needs a pile of their own, the target at least two. The defender answers
  with a matching goat or a wild, then the attacker, and so on until someone cannot
  or will not play: the last to play wins. A winning attacker takes the pile and
  every duel card as a new pile; a winning defender adds the duel cards to the pile.
- **Discard** one card, only when none of the above is possible.

At the end of every turn hands are refilled, the player who moved first. When the
draw pile runs out the discard pile is reshuffled into it if it holds 5 or more
cards; otherwise play goes on until the hands are empty. Herds score the points of
their cards. The text's game is several rounds to 1,000 points (`scoring=rounds`);
the alternative is one round, most points wins (`scoring=single`). Point values per
kind are not published: the defaults are an assumption and every value is a
parameter (`value_<kind>`).
"""

register_family(
    GameFamily(
        key="goat_lords",
        title="Goat Lords",
        summary=SUMMARY,
        rules_doc="docs/rules/goat_lords.md",
        games=(
            GameEntry(
                name="python_goat_lords",
                title="Goat Lords (simple version)",
                contract_params=(
                    {},
                    {"players": 3, "scoring": "single"},
                    {"players": 4, "scoring": "single", "duel_answer": "last"},
                    {"players": 6, "scoring": "single"},
                    {"players": 2, "scoring": "rounds", "target_score": 300},
                ),
                small_variants=(),
                render=render,
                events=event_lines,
                parameter_help=game.PARAMETER_HELP,
            ),
        ),
    )
)
