"""Parameters of the ¡Cobardes! games, and the starting-position string.

Battle parameters (``python_cobardes_battle``; the war takes the same rules ones)
----------------------------------------------------------------------------------
``kinds``
    Which cards are in play: ``all`` (default), ``warriors`` (the rulebook's
    learning game), ``warriors+courtiers``, ``warriors+villains``.
``warriors``
    Highest warrior of each army: warriors ``0..warriors`` (default 6; smaller for
    validation decks).
``combats``
    Combats before the battle is a draw (default 7).
``courtier0``, ``courtier1``
    ``random`` (dealt from the court deck, face up), ``none``, or a courtier name.
``villain0``, ``villain1``
    ``random`` (dealt from the villain deck, hidden from the rival), ``none``, or a
    villain name (then known to both players).
``allow_mirror``
    ``false`` (default) or ``true``: allow both players the same named courtier, a
    hypothetical battle for analysis (each courtier card exists once, so a real deal
    never gives one). Random deals still draw distinct courtiers.
``court_deck``, ``villain_deck``
    ``all`` or the cards random deals draw from, separated by ``/``
    (e.g. ``Thug/Beggar/Sheep``).
``quicker``
    Who decides first on vanguard courtiers: ``alternate`` (default), ``random``,
    ``p0``, ``p1``.
``followup``
    ``optional`` (default: a villain's follow-up warrior may be declined, and the
    combat then has no winner) or ``mandatory``.
``exchange_limit``
    Villain exchanges allowed in one combat before meeting villains are withdrawn
    under the Villain deck (default 1).
``win_value``, ``loss_value``, ``crown_value``, ``crown_loss_value``, ``draw_value``
    Player 0's payoff when player 0 wins the battle, loses it, takes the crown,
    loses the crown, or draws (player 1 gets the negative). Defaults 1, -1, 3, -3, 0.
``position``
    A starting position (empty: a new battle), see :func:`parse_position`.

Position string
---------------
Fields ``key:value`` separated by ``;``, any subset, in any order::

    hand0:1.2.3.5.Beggar;hand1:0.1.2.4.?;court0:Squire*;court1:Archer;combat:4;unharmed:0

``hand0`` / ``hand1``
    The cards in hand, separated by ``.``: warriors ``0``-``6`` (``Prince`` = 0),
    villain names (known to both players), ``?`` (a villain dealt at random from
    the villain deck, known only to its holder). Default: a full army plus the
    ``villainN`` parameter.
``court0`` / ``court1``
    A courtier name, with ``*`` if it was already used this battle; ``none``; or
    ``random``. Default: the ``courtierN`` parameter.
``combat``
    The number of the combat about to start (default 1).
``unharmed``
    The players whose prince already got out of a combat unharmed this battle
    (``0``, ``1``, ``0.1``; default none) — what the Troubadour needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import events as EV
from games.cobardes.reachable import position_problem
from games.errors import InvalidParameterError, InvalidPositionError

KINDS = ("all", "warriors", "warriors+courtiers", "warriors+villains")

# What each battle parameter does, one line each (``farol games``; the module docstring
# has the details).
PARAMETER_HELP = {
    "kinds": "cards in play: all, warriors, warriors+courtiers or warriors+villains",
    "warriors": "highest warrior of each army (warriors 0 to this; the 0 is the prince)",
    "combats": "combats before the battle is a draw",
    "courtier0": "player 0's courtier: random (dealt face up), none, or a courtier's name",
    "courtier1": "player 1's courtier: random (dealt face up), none, or a courtier's name",
    "villain0": "player 0's villain: random (dealt hidden), none, or a name (known to both)",
    "villain1": "player 1's villain: random (dealt hidden), none, or a name (known to both)",
    "allow_mirror": "true: both players may hold the same named courtier (a hypothetical battle)",
    "court_deck": "the courtiers random deals draw from: all, or names separated by /",
    "villain_deck": "the villains random deals draw from: all, or names separated by /",
    "quicker": "who decides first on vanguard courtiers: alternate, random, p0 or p1",
    "followup": "optional: a villain's follow-up warrior may be declined; or mandatory",
    "exchange_limit": "villain exchanges allowed in one combat (0 to 9)",
    "win_value": "player 0's payoff for winning the battle (player 1 gets the negative)",
    "loss_value": "player 0's payoff for losing the battle",
    "crown_value": "player 0's payoff for taking the crown (beating the rival's prince)",
    "crown_loss_value": "player 0's payoff for losing the crown",
    "draw_value": "player 0's payoff for a drawn battle",
    "position": "a starting position, e.g. hand0:0.1.2;hand1:0.3.4;combat:5 (empty: a new battle)",
}

BATTLE_DEFAULTS = {
    "kinds": "all",
    "warriors": C.MAX_WARRIOR,
    "combats": C.MAX_COMBATS,
    "courtier0": "random",
    "courtier1": "random",
    "villain0": "random",
    "villain1": "random",
    "allow_mirror": False,
    "court_deck": "all",
    "villain_deck": "all",
    "quicker": "alternate",
    "followup": "optional",
    "exchange_limit": 1,
    "win_value": 1.0,
    "loss_value": -1.0,
    "crown_value": 3.0,
    "crown_loss_value": -3.0,
    "draw_value": 0.0,
    "position": "",
}


@dataclass(frozen=True)
class Payoffs:
    """Player 0's payoff for each way a battle ends (player 1 gets the negative)."""

    win: float = 1.0
    loss: float = -1.0
    crown: float = 3.0
    crown_loss: float = -3.0
    draw: float = 0.0

    def value(self, outcome: tuple[str, int]) -> float:
        kind, winner = outcome
        if kind == E.VICTORY:
            return self.win if winner == 0 else self.loss
        if kind == E.CROWN:
            return self.crown if winner == 0 else self.crown_loss
        return self.draw

    def bounds(self) -> tuple[float, float]:
        values = (self.win, self.loss, self.crown, self.crown_loss, self.draw)
        both = values + tuple(-v for v in values)
        return min(both), max(both)


@dataclass(frozen=True)
class Rules:
    """Everything a battle state needs besides its position; shared, never copied."""

    cfg: E.Config
    pay: Payoffs
    warriors: int
    courtiers: bool
    villains: bool
    initial: E.Pos

    def __deepcopy__(self, memo):
        return self


def _choice(params, key, allowed):
    value = str(params[key]).strip().lower()
    if value not in allowed:
        raise InvalidParameterError(f"parameter {key!r} takes one of {', '.join(allowed)}, not {params[key]!r}")
    return value


def _flag(params, key) -> bool:
    value = params[key]
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false", "1", "0"):
        raise InvalidParameterError(f"parameter {key!r} takes true or false, not {value!r}")
    return text in ("true", "1")


def _deck(text: str, kind: str) -> int:
    text = str(text).strip()
    if text.lower() == "all":
        return (1 << 10) - 1 if kind == "court" else C.VILLAIN_MASK
    mask = 0
    for name in filter(None, (t.strip() for t in text.split("/"))):
        ident = C.courtier_id(name) if kind == "court" else C.villain_id(name)
        mask |= 1 << ident
    if not mask:
        raise InvalidParameterError(f"the {kind} deck {text!r} names no card")
    return mask


def rules_config(params) -> tuple[E.Config, Payoffs, int, bool, bool]:
    """Validate the rules parameters; returns ``(config, payoffs, k, courtiers, villains)``."""
    kinds = _choice(params, "kinds", KINDS)
    courtiers = kinds in ("all", "warriors+courtiers")
    villains = kinds in ("all", "warriors+villains")
    k = int(params["warriors"])
    if not 0 <= k <= C.MAX_WARRIOR:
        raise InvalidParameterError(f"parameter 'warriors' takes 0 to {C.MAX_WARRIOR}, not {k}")
    combats = int(params["combats"])
    if not 1 <= combats <= C.MAX_COMBATS:
        raise InvalidParameterError(
            f"parameter 'combats' takes 1 to {C.MAX_COMBATS}, not {combats}")
    quicker = _choice(params, "quicker", ("alternate", "random", "p0", "p1"))
    followup = _choice(params, "followup", ("optional", "mandatory"))
    limit = int(params["exchange_limit"])
    if not 0 <= limit <= 9:
        raise InvalidParameterError(f"parameter 'exchange_limit' takes 0 to 9, not {limit}")
    cfg = E.Config(
        combats=combats, quicker=quicker, followup_optional=followup == "optional",
        exchange_limit=limit, court_deck=_deck(params["court_deck"], "court"),
        villain_deck=_deck(params["villain_deck"], "villain"),
    )
    pay = Payoffs(float(params["win_value"]), float(params["loss_value"]),
                  float(params["crown_value"]), float(params["crown_loss_value"]),
                  float(params["draw_value"]))
    return cfg, pay, k, courtiers, villains


def _court_spec(text: str, enabled: bool, who: str) -> tuple[int, bool]:
    """``(courtier id or -1 none or -2 random, used)``."""
    text = str(text).strip()
    if text.lower() in ("none", "-", ""):
        return -1, False
    if not enabled:
        raise InvalidPositionError(f"{who}: courtiers are not in play with these kinds")
    if text.lower() == "random":
        return -2, False
    used = text.endswith("*")
    return C.courtier_id(text.rstrip("*")), used


def parse_position(text: str, params, k: int, courtiers: bool, villains: bool, cfg: E.Config
                   ) -> E.Pos:
    """The starting position of a battle: parameters plus the ``position`` string.

    Raises
    ------
    UnknownCardError
        A card or courtier name that does not exist.
    InvalidPositionError
        A card in two places, a warrior above ``warriors``, a combat out of range,
        an unharmed prince still in hand, a card kind not in play, or hands that
        legal play cannot bring to this combat (:mod:`games.cobardes.reachable`).
    """
    fields: dict[str, str] = {}
    for item in filter(None, (t.strip() for t in str(text).split(";"))):
        key, sep, value = item.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("hand0", "hand1", "court0", "court1", "combat", "unharmed"):
            raise InvalidPositionError(
                f"position field {item!r} is not one of hand0:, hand1:, court0:, court1:, combat:, unharmed:")
        if key in fields:
            raise InvalidPositionError(f"position field {key!r} is given twice")
        fields[key] = value.strip()
    full = (1 << (k + 1)) - 1
    hands = [0, 0]
    hidden = [0, 0]
    named = [0, 0]
    for p in (0, 1):
        spec = fields.get(f"hand{p}")
        if spec is None:
            hands[p] = full
            v = str(params[f"villain{p}"]).strip()
            if villains and v.lower() == "random":
                hidden[p] = 1
            elif villains and v.lower() not in ("none", "-", ""):
                named[p] |= 1 << C.villain_id(v)
            elif not villains and v.lower() not in ("random", "none", "-", ""):
                raise InvalidPositionError(f"villain{p}={v!r}: villains are not in play with these kinds")
            continue
        for token in filter(None, (t.strip() for t in spec.split("."))):
            if token == "?":
                if not villains:
                    raise InvalidPositionError(f"hand{p}: villains are not in play with these kinds")
                hidden[p] += 1
                continue
            card = C.card_id(token)
            if C.is_villain(card):
                if not villains:
                    raise InvalidPositionError(f"hand{p}: villains are not in play with these kinds")
                if named[p] >> card & 1:
                    raise InvalidPositionError(f"hand{p}: the {C.CARD_NAMES[card]} is listed twice")
                named[p] |= 1 << card
            else:
                if card > k:
                    raise InvalidPositionError(f"hand{p}: warrior {card} is not in play (warriors 0-{k})")
                if hands[p] >> card & 1:
                    raise InvalidPositionError(f"hand{p}: warrior {card} is listed twice")
                hands[p] |= 1 << card
    if named[0] & named[1]:
        card = E.bits(named[0] & named[1])[0]
        raise InvalidPositionError(f"the {C.CARD_NAMES[card]} cannot be in both hands")
    courts = [-1, -1]
    used = 0
    pending = []
    for p in (0, 1):
        spec = fields.get(f"court{p}", str(params[f"courtier{p}"]) if courtiers else "none")
        ident, was_used = _court_spec(spec, courtiers, f"court{p}")
        if ident == -2:
            pending.append(("court", p))
        else:
            courts[p] = ident
        used |= was_used << p
    if courts[0] >= 0 and courts[0] == courts[1] and not _flag(params, "allow_mirror"):
        raise InvalidPositionError(
            f"the {C.COURTIER_NAMES[courts[0]]} cannot be with both players "
            "(allow_mirror=true for a hypothetical mirror battle)")
    if pending and len(E.bits(cfg.court_deck & ~sum(1 << c for c in courts if c >= 0))) < len(pending):
        raise InvalidParameterError("the court deck has too few courtiers for the random deals")
    for p in (0, 1):
        pending.extend([("villain", p)] * hidden[p])
    free = cfg.villain_deck & ~(named[0] | named[1])
    if sum(hidden) > len(E.bits(free)):
        raise InvalidParameterError("the villain deck has too few villains for the random deals")
    try:
        combat = int(fields.get("combat", "1"))
    except ValueError:
        raise InvalidPositionError(f"combat {fields['combat']!r} is not a number") from None
    if not 1 <= combat <= cfg.combats:
        raise InvalidPositionError(f"combat {combat} does not exist: a battle has combats 1 to {cfg.combats}")
    unharmed = 0
    spec = fields.get("unharmed", "")
    for token in filter(None, (t.strip() for t in spec.replace("-", "").split("."))):
        if token not in ("0", "1"):
            raise InvalidPositionError(f"unharmed {spec!r} must list players 0 and/or 1")
        unharmed |= 1 << int(token)
    for p in (0, 1):
        if unharmed >> p & 1 and hands[p] & 1:
            raise InvalidPositionError(
                f"player {p}'s prince cannot have left a combat unharmed while still in hand")
    problem = position_problem(
        k, combat, (hands[0], hands[1]),
        (len(E.bits(named[0])) + hidden[0], len(E.bits(named[1])) + hidden[1]), villains,
        unharmed, (courts[0], courts[1]), used)
    if problem:
        raise InvalidPositionError(problem)
    hands = [hands[p] | named[p] for p in (0, 1)]
    kv = (named[1], named[0])
    pos = E.new_pos(hands, courts, used=used, unharmed=unharmed, combat=combat, kv=kv,
                    pending=tuple(pending))
    ev = []
    for p in (0, 1):
        ev.append((3, EV.HAND, p, hands[p], hidden[p]))
        if courts[p] >= 0:
            ev.append((3, EV.COURTIER, p, courts[p], used >> p & 1))
    pos.ev = tuple(ev)
    return pos


def make_rules(params) -> Rules:
    """Validate every battle parameter and build the shared :class:`Rules`."""
    unknown = set(params) - set(BATTLE_DEFAULTS)
    if unknown:
        raise InvalidParameterError(f"python_cobardes_battle has no parameter {sorted(unknown)[0]!r}")
    full = dict(BATTLE_DEFAULTS)
    full.update(params)
    cfg, pay, k, courtiers, villains = rules_config(full)
    pos = parse_position(full["position"], full, k, courtiers, villains, cfg)
    if not pos.pending:
        pos = E.begin(cfg, pos)
    rules = Rules(cfg=cfg, pay=pay, warriors=k, courtiers=courtiers, villains=villains, initial=pos)
    # Every position of the game carries its rules, so an OpenSpiel clone has a
    # single attribute to copy (see CobardesBattleState).
    pos.rules = rules
    return rules


def format_position(pos: E.Pos, hide: bool = False) -> str:
    """The position string of ``pos`` at the start of a combat (villains written by name;
    with ``hide``, a villain its owner's rival does not know is written ``?``: dealt
    at random when the string is parsed).

    The inverse of :func:`parse_position` for the fields it reads: hands, courtiers
    (``*`` when used), the combat and the unharmed princes.
    """
    fields = []
    for p in (0, 1):
        cards = ".".join(
            ("?" if hide and not pos.kv[1 - p] >> c & 1 else C.CARD_NAMES[c])
            if C.is_villain(c) else str(c) for c in E.bits(pos.h[p]))
        fields.append(f"hand{p}:{cards}")
    for p in (0, 1):
        c = pos.court[p]
        fields.append(f"court{p}:" + ("none" if c < 0 else C.COURTIER_NAMES[c]
                                      + "*" * (pos.used >> p & 1)))
    fields.append(f"combat:{pos.combat}")
    unharmed = [str(p) for p in (0, 1) if pos.unh >> p & 1]
    if unharmed:
        fields.append("unharmed:" + ".".join(unharmed))
    return ";".join(fields)
