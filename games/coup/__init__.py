"""Coup (Rikki Tahta, 2012): 2–8 players, Ambassador or Inquisitor deck, endgame positions.

Importing this package registers ``python_coup`` with OpenSpiel and the ``coup``
family in Farol's catalog. Rulings: ``docs/rules/coup.md``.
"""

from __future__ import annotations

from games.catalog import GameEntry, GameFamily, register_family
from games.coup.game import PARAMETER_HELP, CoupGame, CoupState, render  # noqa: F401  (registers python_coup)
from games.coup.positions import Position, endgame_game, format_position, parse_position  # noqa: F401

SUMMARY = """\
Each player starts with two face-down character cards (their *influence*) and two
coins; the rest of the deck is the *court*. On your turn you take one action:
**Income** (+1 coin), **Foreign Aid** (+2, any player may block it claiming the
Duke), **Coup** (pay 7, a player of your choice loses a card; forced at 10 coins),
or a character action that you may claim whether or not you hold the card:
**Tax** (Duke, +3), **Assassinate** (Assassin, pay 3, the target loses a card;
the Contessa blocks it), **Steal** (Captain, take 2 coins from a player; the
Captain and the Ambassador/Inquisitor block it), **Exchange** (Ambassador: draw 2
from the court and keep as many as you had; Inquisitor: draw 1 and return 1) or,
with the Inquisitor, **Examine** (see a card of the target's choice and maybe make
them swap it for a new one). Any player may challenge a claim: if the claimant
shows the card, the challenger loses a card and the claimant swaps the shown
card for a new one from the court; otherwise the claimant loses a card and the
action (or block) fails. Lost cards are turned face up; a player with none face
down is out. The last player with influence wins (+1; the others share −1).

Deck: 3 copies of each of five characters (4 with 7–8 players). With two
players, the basic rules give the starting player one coin only; the 2–8 player
rules offer a draft setup instead. Games can also start from an endgame
position (`position` parameter)."""

_SMALL = (
    ("1v1 endgame, Duke vs Captain, 7/7 coins, cap 2",
     {"position": "duke/assassin/7;captain/contessa/7;move:0", "turn_cap": 2}),
    ("1v1 endgame, Inquisitor, hidden cards dealt, 1/1 coins, cap 2",
     {"position": "?/assassin/1;?/contessa/1;move:0", "turn_cap": 2, "deck": "inquisitor"}),
    ("1v1 endgame, hidden cards dealt, 3/0 coins, cap 1",
     {"position": "?/duke/3;?/captain/0;move:0", "turn_cap": 1}),
    ("1v1 endgame, Inquisitor, hidden cards dealt, 3/2 coins, cap 2",
     {"position": "?/duke/3;?/captain/2;move:1", "turn_cap": 2, "deck": "inquisitor"}),
)

register_family(GameFamily(
    key="coup",
    title="Coup",
    summary=SUMMARY,
    rules_doc="docs/rules/coup.md",
    games=(
        GameEntry(
            name="python_coup",
            title="Coup — 2 to 8 players, Ambassador or Inquisitor, endgame positions",
            contract_params=(
                {},
                {"players": 2, "two_player_setup": "draft", "starting_player": -1},
                {"players": 2, "two_player_setup": "standard", "deck": "inquisitor"},
                {"players": 3},
                {"players": 4, "deck": "inquisitor", "challenge_order": "chance", "block_order": "chance"},
                {"players": 6, "refund_challenged_assassination": False, "refund_blocked_assassination": True},
                {"players": 7, "deck": "inquisitor"},
                {"players": 8, "starting_player": -1},
                {"position": "?/duke/3;captain/assassin/4;move:1", "turn_cap": 12},
                {"players": 3, "position": "duke+?/-/2;-/captain+contessa/0;?/assassin/5;move:2",
                 "deck": "inquisitor", "turn_cap": 20},
            ),
            small_variants=_SMALL,
            render=render,
            parameter_help=PARAMETER_HELP,
        ),
    ),
))
