"""What happened in a ¡Cobardes! battle or war, as small integer codes.

The engines record events as tuples ``(seen_by, code, *args)``: ``seen_by`` is a bit per
player (3: public), ``code`` one of the constants below and ``args`` a few ints (players,
card or courtier ids, strengths). The English text of each code is in
:mod:`games.cobardes.view`; the transitions themselves never build text.
"""

from __future__ import annotations

# Battle: set-up and combats.
HAND, COURTIER, COMBAT, NO_CARDS, DRAW = range(0, 5)
# Chance.
QUICKER, YOU_RECEIVE, RECEIVES = range(5, 8)
# Vanguard courtiers.
HOLDS_BACK, ADVANCES, SHOWS_YOU, SHOWS, NO_SWAP, SWAP_YOURS, SWAP_THEIRS, SWAP, \
    INQ_DRAWS, INQ_WINS = range(8, 18)
# The confrontation.
PLAYS_FIRST, YOU_PREPARE, PREPARES, REVEAL = range(18, 22)
# Villains.
EXECUTE, CAPTURE, EXCHANGE, WITHDRAW, VILLAIN_CROWN, VILLAIN_VICTORY, VILLAIN_PEACE, \
    VILLAIN_FIGHTS, GHOST_FRIGHTENS, GHOST_STAYS, NO_FOLLOW, DECLINES, FOLLOWS, \
    REPLACES = range(22, 36)
# The fight and rearguard courtiers.
COMBAT_TIED, FIGHT_CROWN, FIGHT_VICTORY, KEEPS_BACK, SENDS, COMBAT_NO_WINNER, RETURNS, \
    CHANGES = range(36, 44)
# The war.
WAR_SCORE, WAR_DRAWS_YOU, WAR_DRAWS_VILLAIN, WAR_DRAWS_COURTIER, WAR_BATTLE, WAR_WON, \
    WAR_CAP, WAR_VILLAIN_UNDER, WAR_COURTIER_UNDER, WAR_PUTS_COURTIER, WAR_KEEPS_COURTIER, \
    WAR_YOU_KEEP, WAR_KEEPS_VILLAIN, WAR_YOU_PUT, WAR_PUTS_VILLAINS = range(44, 59)
NUM_CODES = 59
