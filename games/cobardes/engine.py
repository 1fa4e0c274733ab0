"""The battle engine: one ¡Cobardes! battle as pure transitions over a small position.

:func:`apply` returns a new :class:`Pos` (hands as bit masks) and never changes the one
it is given, so OpenSpiel states (:mod:`games.cobardes.battle`, :mod:`games.cobardes.war`)
share positions and a clone copies one reference. Events are logged as codes
(:mod:`games.cobardes.events`); :mod:`games.cobardes.view` writes them out.

A combat's phases (rulebook, "The Combat"): ``VANGUARD`` courtiers, quicker player first
(with the Procuress's swap ``PROC_TAKE``/``PROC_GIVE`` and the Inquisitor's draw); the
confrontation ``COMMIT``, a simultaneous reveal encoded as a face-down first card (face up
under a Fortune-Teller or Maiden); villainy (``GHOST`` replacement, ``FOLLOW`` up); and
rearguard courtiers (``REAR``, then ``ARCHER``/``SENTINEL`` changes).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cobardes import cards as C
from games.cobardes import events as EV

CHANCE = -1
TERMINAL = -4

# Phases.
DEAL, QUICK, VANGUARD, PROC_TAKE, PROC_GIVE, INQUISITOR, COMMIT, GHOST, FOLLOW, REAR, \
    ARCHER, SENTINEL, END = range(13)
PHASE_NAMES = ("deal", "quicker", "vanguard", "procuress-take", "procuress-give", "inquisitor",
               "confrontation", "ghost-replace", "follow-up", "rearguard", "archer-change",
               "sentinel-change", "end")

# Actions. 0..15 play the hand card with that id.
PASS = 16
ADVANCE = 17
SEND = 18
TAKE0 = 19   # 19..27: Procuress takes the rival's villain 7..15
GIVE0 = 28   # 28..36: Procuress gives own villain 7..15
NUM_ACTIONS = 37
MAX_CHANCE_OUTCOMES = 16

# Outcomes: (kind, winner).
VICTORY, CROWN, DRAW, PEACE, NO_CARDS = "victory", "crown", "draw", "peace", "no-cards"


@dataclass(frozen=True)
class Config:
    """Rules options of a battle (see ``docs/rules/cobardes.md``).

    Attributes
    ----------
    combats:
        Combats before the battle is a draw (rulebook: 7).
    quicker:
        Who decides first on vanguard courtiers: ``"alternate"`` (player 0 in odd
        combats, player 1 in even ones), ``"random"`` (a chance node each combat in
        which both could advance one), ``"p0"`` or ``"p1"``.
    followup_optional:
        Whether a villain's "you may play the warrior you want" can be declined.
    exchange_limit:
        Villain exchanges allowed in one combat before meeting villains are
        withdrawn under the Villain deck.
    court_deck, villain_deck:
        Bit masks of the courtiers / villains random deals draw from.
    """

    combats: int = C.MAX_COMBATS
    quicker: str = "alternate"
    followup_optional: bool = True
    exchange_limit: int = 1
    court_deck: int = (1 << 10) - 1
    villain_deck: int = C.VILLAIN_MASK

    def __deepcopy__(self, memo):  # immutable: cloning a state shares it
        return self


class Pos:
    """A battle position. Treat as immutable once built (``apply`` copies it).

    A plain ``__dict__`` object: copying it is one C-level dict copy, the cheapest
    way to take a fresh position at every move.
    """

    FIELDS = (
        "h", "court", "used", "unh", "combat", "phase", "actor", "queue", "bonus", "priv",
        "forced", "first", "open", "cards", "exch", "fw", "mods", "vil", "aux", "kv",
        "outcome", "ev", "field", "out", "pending", "quick", "seen",
    )

    def copy(self) -> Pos:
        new = Pos.__new__(Pos)
        new.__dict__ = self.__dict__.copy()
        return new

    def __deepcopy__(self, memo):
        return self


def bits(mask: int) -> list[int]:
    """The ids set in a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def new_pos(hands, courts, used=0, unharmed=0, combat=1, kv=(0, 0), pending=()) -> Pos:
    """A position before its first decision; call :func:`begin` (or deal first)."""
    pos = Pos.__new__(Pos)
    pos.h = tuple(hands)
    pos.court = tuple(courts)
    pos.used = used
    pos.unh = unharmed
    pos.combat = combat
    pos.phase = DEAL
    pos.actor = CHANCE
    pos.queue = ()
    pos.bonus = 0
    pos.priv = 0
    pos.forced = 0
    pos.first = 0
    pos.open = False
    pos.cards = (-1, -1)
    pos.exch = 0
    pos.fw = (-1, -1)
    pos.mods = (0, 0)
    pos.vil = -1
    pos.aux = -1
    pos.kv = tuple(kv)
    pos.outcome = None
    pos.ev = ()
    pos.field = ()
    pos.out = ()
    pos.pending = tuple(pending)
    pos.quick = 0
    pos.seen = ()
    return pos


def begin(cfg: Config, pos: Pos) -> Pos:
    """Start the battle's current combat (returns a new position)."""
    pos = pos.copy()
    _start_combat(cfg, pos, announce=True)
    return pos


# --------------------------------------------------------------------------- helpers

def _say(pos: Pos, event: tuple) -> None:
    # ``event`` is ``(seen_by, code, *args)`` (:mod:`games.cobardes.events`). ``ev is
    # None``: a position walked without its log (the compiler's graph walk).
    if pos.ev is not None:
        pos.ev = pos.ev + (event,)


def _set(t: tuple, i: int, v) -> tuple:
    return (v, t[1]) if i == 0 else (t[0], v)


def _end(pos: Pos, kind: str, winner: int, why: tuple) -> None:
    pos.outcome = (kind, winner)
    pos.phase = END
    pos.actor = TERMINAL
    _say(pos, why)


def _can_advance(pos: Pos, p: int) -> bool:
    c = pos.court[p]
    if c < 0 or not C.is_vanguard(c) or pos.used >> p & 1:
        return False
    # The Inquisitor needs a card to draw from the rival's hand.
    return c != C.INQUISITOR or pos.h[1 - p] != 0


def _start_combat(cfg: Config, pos: Pos, announce: bool = True) -> None:
    pos.bonus = pos.priv = pos.forced = pos.exch = 0
    pos.cards = (-1, -1)
    pos.fw = (-1, -1)
    pos.mods = (0, 0)
    pos.vil = pos.aux = -1
    if announce:
        _say(pos, (3, EV.COMBAT, pos.combat))
    if not pos.h[0] or not pos.h[1]:
        # Ruling: a combat needs a card from each player.
        _end(pos, NO_CARDS, -1, (3, EV.NO_CARDS))
        return
    both = _can_advance(pos, 0) and _can_advance(pos, 1)
    mode = cfg.quicker
    if mode == "random" and both:
        pos.phase = QUICK
        pos.actor = CHANCE
        return
    if mode == "alternate":
        pos.quick = (pos.combat - 1) % 2
    elif mode in ("p0", "p1"):
        pos.quick = int(mode[1])
    else:
        pos.quick = 0 if _can_advance(pos, 0) else 1
    _open_vanguard(cfg, pos)


def _open_vanguard(cfg: Config, pos: Pos) -> None:
    q = pos.quick
    pos.queue = (q, 1 - q)
    _next_vanguard(cfg, pos)


def _next_vanguard(cfg: Config, pos: Pos) -> None:
    queue = pos.queue
    while queue:
        p = queue[0]
        if _can_advance(pos, p):
            pos.queue = queue
            pos.phase = VANGUARD
            pos.actor = p
            return
        queue = queue[1:]
    pos.queue = ()
    _enter_confront(cfg, pos)


def _enter_confront(cfg: Config, pos: Pos) -> None:
    if not pos.h[0] or not pos.h[1]:
        _end(pos, NO_CARDS, -1, (3, EV.NO_CARDS))
        return
    priv = pos.priv
    if priv == 0:
        pos.first, pos.open = 0, False
    elif priv == 3 and C.MAIDEN not in pos.court:
        # Two Fortune-Tellers (a hypothetical mirror, ruling 22): each demands that the
        # other play first, so the demands cancel and the reveal is the usual one.
        pos.first, pos.open = 0, False
    elif priv == 3:
        # Fortune-Teller against Maiden: the Fortune-Teller's rival (the Maiden's
        # owner) plays first; the Fortune-Teller's owner then plays the forced card.
        pos.first = 0 if pos.court[0] == C.MAIDEN else 1
        pos.open = True
    else:
        pos.first = 1 if priv == 1 else 0
        pos.open = True
    pos.cards = (-1, -1)
    pos.phase = COMMIT
    pos.actor = pos.first


def _remove(pos: Pos, p: int, card: int) -> None:
    pos.h = _set(pos.h, p, pos.h[p] & ~(1 << card))


def _add(pos: Pos, p: int, card: int) -> None:
    pos.h = _set(pos.h, p, pos.h[p] | (1 << card))


def _unfield(pos: Pos, p: int, card: int) -> None:
    field = list(pos.field)
    field.remove((p, card))
    pos.field = tuple(field)


def _resolve(cfg: Config, pos: Pos) -> None:
    a0, a1 = pos.cards
    _remove(pos, 0, a0)
    _remove(pos, 1, a1)
    v0, v1 = C.is_villain(a0), C.is_villain(a1)
    if not v0 and not v1:
        pos.field = pos.field + ((0, a0), (1, a1))
        pos.fw = (a0, a1)
        _enter_fight(cfg, pos)
        return
    if v0 and v1:
        kind, who = C.villains_meet(a0, a1, pos.exch, cfg.exchange_limit)
        if kind == C.EXECUTE:
            pos.field = pos.field + ((0, a0), (1, a1))
            _end(pos, VICTORY, who, (3, EV.EXECUTE, who))
            return
        if kind == C.CAPTURE:
            victim_card = a1 if who == 0 else a0
            pos.field = pos.field + ((who, C.SEDUCTRESS),)
            _add(pos, who, victim_card)
            pos.kv = _set(pos.kv, 1 - who, pos.kv[1 - who] | (1 << victim_card))
            _say(pos, (3, EV.CAPTURE, who, victim_card))
        elif kind == C.EXCHANGE:
            _add(pos, 0, a1)
            _add(pos, 1, a0)
            pos.kv = (pos.kv[0] | (1 << a0), pos.kv[1] | (1 << a1))
            pos.exch += 1
            _say(pos, (3, EV.EXCHANGE))
        else:
            pos.out = pos.out + (a0, a1)
            _say(pos, (3, EV.WITHDRAW))
        _enter_confront(cfg, pos)
        return
    p = 0 if v0 else 1
    q = 1 - p
    villain, warrior = (a0, a1) if v0 else (a1, a0)
    pos.field = pos.field + ((0, a0), (1, a1))
    effect = C.villainy(villain, warrior, bool(pos.unh >> p & 1))
    if effect == C.CROWN:
        _end(pos, CROWN, p, (3, EV.VILLAIN_CROWN, p, villain))
    elif effect == C.VICTORY:
        _end(pos, VICTORY, p, (3, EV.VILLAIN_VICTORY, p, villain))
    elif effect == C.PEACE:
        _end(pos, PEACE, -1, (3, EV.VILLAIN_PEACE, p, villain))
    elif effect == C.FIGHT:
        pos.fw = _set(_set(pos.fw, p, villain), q, warrior)
        _say(pos, (3, EV.VILLAIN_FIGHTS, p, villain))
        _enter_fight(cfg, pos)
    elif effect == C.GHOST:
        _unfield(pos, q, warrior)
        _add(pos, q, warrior)
        others = pos.h[q] & C.WARRIOR_MASK & ~(1 << warrior)
        if others:
            pos.aux = warrior
            pos.vil = p
            pos.phase = GHOST
            pos.actor = q
            _say(pos, (3, EV.GHOST_FRIGHTENS, p, warrior))
        else:
            # Ruling: with no other warrior to send, the frightened one stays.
            _remove(pos, q, warrior)
            pos.field = pos.field + ((q, warrior),)
            pos.fw = _set(pos.fw, q, warrior)
            _say(pos, (3, EV.GHOST_STAYS, q, warrior))
            _begin_follow(cfg, pos, p)
    else:
        pos.fw = _set(pos.fw, q, warrior)
        _begin_follow(cfg, pos, p)


def _begin_follow(cfg: Config, pos: Pos, p: int) -> None:
    pos.vil = p
    if pos.h[p] & C.WARRIOR_MASK:
        pos.phase = FOLLOW
        pos.actor = p
    else:
        _say(pos, (3, EV.NO_FOLLOW, p))
        _end_combat(cfg, pos)


def _value(pos: Pos, p: int) -> int:
    return C.strength(pos.fw[p]) + (pos.bonus >> p & 1) + pos.mods[p]


def _rear_effect(pos: Pos, p: int):
    c = pos.court[p]
    if c < 0 or not C.is_rearguard(c) or pos.used >> p & 1:
        return None
    return C.rearguard(c, pos.fw[p], pos.h[p], pos.h[1 - p])


def _enter_fight(cfg: Config, pos: Pos) -> None:
    winner = C.combat_winner(_value(pos, 0), _value(pos, 1))
    if winner >= 0 and _rear_effect(pos, 1 - winner) is not None:
        pos.phase = REAR
        pos.actor = 1 - winner
        return
    _finish_fight(cfg, pos, winner)


def _finish_fight(cfg: Config, pos: Pos, winner: int) -> None:
    s0, s1 = _value(pos, 0), _value(pos, 1)
    if winner < 0:
        _say(pos, (3, EV.COMBAT_TIED, pos.combat, s0, s1))
        _end_combat(cfg, pos)
        return
    loser = 1 - winner
    if pos.fw[loser] == C.PRINCE:
        _end(pos, CROWN, winner, (3, EV.FIGHT_CROWN, s0, s1, winner))
    else:
        _end(pos, VICTORY, winner, (3, EV.FIGHT_VICTORY, s0, s1, winner))


def _end_combat(cfg: Config, pos: Pos) -> None:
    for p in (0, 1):
        if pos.fw[p] == C.PRINCE:
            pos.unh |= 1 << p
    pos.combat += 1
    if pos.combat > cfg.combats:
        _end(pos, DRAW, -1, (3, EV.DRAW, cfg.combats))
        return
    _start_combat(cfg, pos)


def _swap_villains(cfg: Config, pos: Pos, p: int, take: int, give: int) -> None:
    r = 1 - p
    _remove(pos, r, take)
    _add(pos, r, give)
    _remove(pos, p, give)
    _add(pos, p, take)
    pos.kv = _set(_set(pos.kv, p, pos.kv[p] | (1 << give)), r, pos.kv[r] | (1 << take))
    _say(pos, (1 << p, EV.SWAP_YOURS, give, take))
    _say(pos, (1 << r, EV.SWAP_THEIRS, p, take, give))
    _say(pos, (3, EV.SWAP, p))
    _next_vanguard(cfg, pos)


# --------------------------------------------------------------------------- public API

def legal_actions(cfg: Config, pos: Pos) -> list[int]:
    """The acting player's legal actions, ascending."""
    phase = pos.phase
    p = pos.actor
    if phase == COMMIT:
        hand = pos.h[p]
        if pos.forced >> p & 1 and hand & C.WARRIOR_MASK:
            return [C.strongest_warrior(hand)]
        return bits(hand)
    if phase == VANGUARD:
        return [PASS, ADVANCE]
    if phase == FOLLOW:
        moves = bits(pos.h[p] & C.WARRIOR_MASK)
        return moves + [PASS] if cfg.followup_optional else moves
    if phase in (GHOST, ARCHER, SENTINEL):
        return bits(pos.h[p] & C.WARRIOR_MASK & ~(1 << pos.aux))
    if phase == REAR:
        return [PASS, SEND]
    if phase == PROC_TAKE:
        return [PASS] + [TAKE0 + v - 7 for v in bits(pos.h[1 - p] & C.VILLAIN_MASK)]
    if phase == PROC_GIVE:
        return [GIVE0 + v - 7 for v in bits(pos.h[p] & C.VILLAIN_MASK)]
    return []


def is_legal(cfg: Config, pos: Pos, action: int) -> bool:
    """Whether ``action`` is legal for the acting player (cheaper than the list)."""
    phase = pos.phase
    if phase == COMMIT:
        hand = pos.h[pos.actor]
        if not 0 <= action < C.NUM_CARDS or not hand >> action & 1:
            return False
        if pos.forced >> pos.actor & 1 and hand & C.WARRIOR_MASK:
            return action == C.strongest_warrior(hand)
        return True
    if phase == VANGUARD:
        return action in (PASS, ADVANCE)
    if phase == REAR:
        return action in (PASS, SEND)
    return action in legal_actions(cfg, pos)


def chance_outcomes(cfg: Config, pos: Pos) -> list[tuple[int, float]]:
    """Chance outcomes at a chance node."""
    if pos.phase == QUICK:
        return [(0, 0.5), (1, 0.5)]
    if pos.phase == INQUISITOR:
        hand = bits(pos.h[1 - pos.aux])
        return [(c, 1.0 / len(hand)) for c in hand]
    if pos.phase == DEAL:
        kind, _ = pos.pending[0]
        pool = bits(deal_pool(cfg, pos, kind))
        return [(c, 1.0 / len(pool)) for c in pool]
    return []


def deal_pool(cfg: Config, pos: Pos, kind: str) -> int:
    """Cards a random deal of ``kind`` (``"court"``/``"villain"``) can give now."""
    if kind == "court":
        taken = sum(1 << c for c in pos.court if c >= 0)
        return cfg.court_deck & ~taken
    taken = (pos.h[0] | pos.h[1]) & C.VILLAIN_MASK
    return cfg.villain_deck & ~taken


def apply(cfg: Config, pos: Pos, action: int) -> Pos:
    """The position after ``action`` (a chance outcome at chance nodes)."""
    pos = pos.copy()
    phase = pos.phase
    p = pos.actor
    # Who sees this move (bit per player), for the information-state tensor: the
    # first card prepared face down and a villain dealt are private.
    if pos.seen is None:
        pass
    elif (phase == COMMIT and p == pos.first and not pos.open) or (
            phase == DEAL and pos.pending[0][0] == "villain"):
        pos.seen = pos.seen + (1 << (p if phase == COMMIT else pos.pending[0][1]),)
    else:
        pos.seen = pos.seen + (3,)
    if phase == COMMIT:
        pos.cards = _set(pos.cards, p, action)
        if p == pos.first:
            if pos.open:
                _say(pos, (3, EV.PLAYS_FIRST, p, action))
            else:
                _say(pos, (1 << p, EV.YOU_PREPARE, action))
                _say(pos, (3, EV.PREPARES, p))
            pos.actor = 1 - p
            return pos
        _say(pos, (3, EV.REVEAL) + pos.cards)
        _resolve(cfg, pos)
    elif phase == VANGUARD:
        pos.queue = pos.queue[1:]
        c = pos.court[p]
        if action == PASS:
            _say(pos, (3, EV.HOLDS_BACK, p, c))
            _next_vanguard(cfg, pos)
            return pos
        pos.used |= 1 << p
        r = 1 - p
        _say(pos, (3, EV.ADVANCES, p, c))
        if c in C.VANGUARD_EFFECTS:
            effect = C.VANGUARD_EFFECTS[c]()
            if effect["bonus"]:
                pos.bonus |= 1 << p
            if effect["rival_first"]:
                pos.priv |= 1 << p
            if effect["rival_forced"]:
                pos.forced |= 1 << r
            _next_vanguard(cfg, pos)
        elif c == C.PROCURESS:
            theirs = pos.h[r] & C.VILLAIN_MASK
            _say(pos, (1 << p, EV.SHOWS_YOU, r, theirs))
            _say(pos, (3, EV.SHOWS, r, p))
            pos.kv = _set(pos.kv, p, pos.kv[p] | theirs)
            if theirs and pos.h[p] & C.VILLAIN_MASK:
                pos.phase = PROC_TAKE
                pos.actor = p
            else:
                _next_vanguard(cfg, pos)
        else:  # Inquisitor
            pos.aux = p
            pos.phase = INQUISITOR
            pos.actor = CHANCE
    elif phase == FOLLOW:
        if action == PASS:
            _say(pos, (3, EV.DECLINES, p))
            _end_combat(cfg, pos)
            return pos
        _remove(pos, p, action)
        pos.field = pos.field + ((p, action),)
        pos.fw = _set(pos.fw, p, action)
        _say(pos, (3, EV.FOLLOWS, p, action))
        _enter_fight(cfg, pos)
    elif phase == GHOST:
        _remove(pos, p, action)
        pos.field = pos.field + ((p, action),)
        pos.fw = _set(pos.fw, p, action)
        _say(pos, (3, EV.REPLACES, p, action))
        _begin_follow(cfg, pos, 1 - p)
    elif phase == REAR:
        if action == PASS:
            _say(pos, (3, EV.KEEPS_BACK, p, pos.court[p]))
            _finish_fight(cfg, pos, 1 - p)
            return pos
        kind, amount = _rear_effect(pos, p)
        pos.used |= 1 << p
        _say(pos, (3, EV.SENDS, p, pos.court[p]))
        if kind == C.ADD:
            pos.mods = _set(pos.mods, p, pos.mods[p] + amount)
            _enter_fight(cfg, pos)
        elif kind == C.NO_WINNER:
            _say(pos, (3, EV.COMBAT_NO_WINNER, pos.combat))
            _end_combat(cfg, pos)
        else:
            changer = 1 - p if kind == C.RIVAL_CHANGES else p
            fled = pos.fw[changer]
            _unfield(pos, changer, fled)
            _add(pos, changer, fled)
            pos.aux = fled
            pos.phase = ARCHER if kind == C.RIVAL_CHANGES else SENTINEL
            pos.actor = changer
            _say(pos, (3, EV.RETURNS, changer, fled))
    elif phase in (ARCHER, SENTINEL):
        _remove(pos, p, action)
        pos.field = pos.field + ((p, action),)
        pos.fw = _set(pos.fw, p, action)
        pos.mods = _set(pos.mods, p, 0)
        pos.aux = -1
        _say(pos, (3, EV.CHANGES, p, action))
        _enter_fight(cfg, pos)
    elif phase == PROC_TAKE:
        if action == PASS:
            _say(pos, (3, EV.NO_SWAP, p))
            _next_vanguard(cfg, pos)
            return pos
        take = action - TAKE0 + 7
        own = bits(pos.h[p] & C.VILLAIN_MASK)
        if len(own) == 1:
            _swap_villains(cfg, pos, p, take, own[0])
        else:
            pos.aux = take
            pos.phase = PROC_GIVE
    elif phase == PROC_GIVE:
        _swap_villains(cfg, pos, p, pos.aux, action - GIVE0 + 7)
    elif phase == INQUISITOR:
        owner = pos.aux
        pos.aux = -1
        _say(pos, (3, EV.INQ_DRAWS, owner, action))
        if C.inquisitor(action):
            _end(pos, VICTORY, owner, (3, EV.INQ_WINS, owner))
            return pos
        if C.is_villain(action):
            pos.kv = _set(pos.kv, owner, pos.kv[owner] | (1 << action))
        _next_vanguard(cfg, pos)
    elif phase == QUICK:
        pos.quick = action
        _say(pos, (3, EV.QUICKER, action))
        _open_vanguard(cfg, pos)
    elif phase == DEAL:
        kind, who = pos.pending[0]
        pos.pending = pos.pending[1:]
        if kind == "court":
            pos.court = _set(pos.court, who, action)
            _say(pos, (3, EV.COURTIER, who, action, 0))
        else:
            _add(pos, who, action)
            _say(pos, (1 << who, EV.YOU_RECEIVE, action))
            _say(pos, (3, EV.RECEIVES, who))
        if not pos.pending:
            _start_combat(cfg, pos)
    else:
        raise ValueError(f"no action applies in phase {PHASE_NAMES[phase]}")
    return pos


def transpose(pos: Pos, a: int, b: int) -> Pos:
    """The same position with villains ``a`` and ``b`` swapped wherever they appear.

    Not a move: a relabelling of two cards, used by the solver's deal-lifted compile to
    move a position to another deal of hidden villains. Only villain ids change (every
    field that can hold a card holds it as an id or a bit mask; player indices and
    warriors are below the villain ids).
    """
    if a == b:
        return pos
    swap = {a: b, b: a}
    bit_a, bit_b = 1 << a, 1 << b

    def mask(m: int) -> int:
        return (m & ~(bit_a | bit_b)) | (bit_b if m & bit_a else 0) | (bit_a if m & bit_b else 0)

    out = pos.copy()
    out.h = (mask(pos.h[0]), mask(pos.h[1]))
    out.kv = (mask(pos.kv[0]), mask(pos.kv[1]))
    out.cards = tuple(swap.get(c, c) for c in pos.cards)
    out.fw = tuple(swap.get(c, c) for c in pos.fw)
    out.field = tuple((q, swap.get(c, c)) for q, c in pos.field)
    out.out = tuple(swap.get(c, c) for c in pos.out)
    out.aux = swap.get(pos.aux, pos.aux)  # a card id in some phases, a player in others
    return out


def card_text(card: int) -> str:
    """A card as actions and events name it: ``warrior 3``, ``warrior 0 (prince)``, a villain."""
    if C.is_villain(card):
        return C.CARD_NAMES[card]
    return "warrior 0 (prince)" if card == C.PRINCE else f"warrior {card}"


def action_name(action: int, court: int = -1) -> str:
    """Readable name of a player action (for errors and :mod:`games.cobardes.view`)."""
    if action < C.NUM_CARDS:
        return f"play {card_text(action)}" if action < 7 else f"play villain {C.CARD_NAMES[action]}"
    if action == PASS:
        return "pass"
    if action == ADVANCE:
        return f"advance {C.COURTIER_NAMES[court]}" if court >= 0 else "advance courtier"
    if action == SEND:
        return f"send {C.COURTIER_NAMES[court]}" if court >= 0 else "send courtier"
    if TAKE0 <= action < GIVE0:
        return f"take their {C.CARD_NAMES[action - TAKE0 + 7]}"
    if GIVE0 <= action < NUM_ACTIONS:
        return f"give your {C.CARD_NAMES[action - GIVE0 + 7]}"
    raise ValueError(f"no action {action}")
