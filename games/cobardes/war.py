"""``python_cobardes_war``: the whole ¡Cobardes! war, battle after battle.

Won with 3 Victory tokens or the Crown. Each battle runs on the battle engine
(:mod:`games.cobardes.engine`); between battles each player, in seat order, keeps or
replaces an unplayed villain and courtier, then the missing cards are drawn. A deck is a
shuffled part (a uniform chance draw) on top of a known queue of cards placed under it.
Parameters: the battle's rules ones (:mod:`games.cobardes.options`) plus ``max_battles``
(9; a war undecided at the cap returns 0) and ``tokens0``/``tokens1`` (the starting
score). Returns: +1 to the war's winner, -1 to the loser.
"""

from __future__ import annotations

import pyspiel

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import events as EV
from games.cobardes.battle import CobardesObserver
from games.cobardes.keys import infoset_key as battle_infoset_key
from games.cobardes.keys import state_key as battle_state_key
from games.cobardes.options import BATTLE_DEFAULTS, PARAMETER_HELP, rules_config
from games.cobardes.view import describe, event_texts, info_string, render_pos
from games.errors import IllegalActionError, InvalidParameterError

TOKENS_TO_WIN = 3
KEEP_C, REPLACE_C, REPLACE_V, KEEP_V0 = 37, 38, 39, 40  # KEEP_V0 + (villain - 7)
NUM_ACTIONS = KEEP_V0 + 9

# War phases (the battle phase delegates to the engine).
SETUP, BATTLE, RENEW, DRAW, OVER = range(5)

_RULE_KEYS = ("kinds", "warriors", "combats", "court_deck", "villain_deck", "quicker",
              "followup", "exchange_limit")
WAR_DEFAULTS = {key: BATTLE_DEFAULTS[key] for key in _RULE_KEYS}
WAR_DEFAULTS.update({"max_battles": 9, "tokens0": 0, "tokens1": 0, "victories": TOKENS_TO_WIN})
MAX_VICTORIES = 9  # the most Victory tokens a variant may ask for
WAR_PARAMETER_HELP = {key: PARAMETER_HELP[key] for key in _RULE_KEYS} | {
    "max_battles": "battles before an undecided war ends (it then scores 0)",
    "tokens0": "player 0's Victory tokens at the start (3 win the war)",
    "tokens1": "player 1's Victory tokens at the start (3 win the war)",
    "victories": "Victory tokens that win the war (printed: 3)",
}

WAR_CONTRACT = (
    {},
    {"kinds": "warriors", "max_battles": 4},
    {"kinds": "warriors+courtiers", "court_deck": "Squire/Wolf/Maiden/Inquisitor"},
    {"kinds": "warriors+villains", "villain_deck": "Friar/Thug/Seductress", "tokens1": 2},
    {"warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
     "court_deck": "Squire/Maiden/Archer", "max_battles": 3},
)
WAR_SMALL = (
    ("warriors 0-1, 2 combats, at most 2 battles",
     {"kinds": "warriors", "warriors": 1, "combats": 2, "max_battles": 2}),
    ("warriors 0-2, 2 combats, at most 3 battles",
     {"kinds": "warriors", "warriors": 2, "combats": 2, "max_battles": 3}),
)

_GAME_TYPE = pyspiel.GameType(
    short_name="python_cobardes_war",
    long_name="¡Cobardes! — the war",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=dict(WAR_DEFAULTS),
)


class WarRules:
    """The shared, immutable rules of a war."""

    def __init__(self, params):
        unknown = set(params) - set(WAR_DEFAULTS)
        if unknown:
            raise InvalidParameterError(f"python_cobardes_war has no parameter {sorted(unknown)[0]!r}")
        full = dict(BATTLE_DEFAULTS)
        full.update(WAR_DEFAULTS)
        full.update(params)
        self.cfg, _, self.k, self.courtiers, self.villains = rules_config(full)
        self.max_battles = int(full["max_battles"])
        if not 1 <= self.max_battles <= 50:
            raise InvalidParameterError(f"parameter 'max_battles' takes 1 to 50, not {self.max_battles}")
        self.victories = int(full["victories"])
        if not 1 <= self.victories <= MAX_VICTORIES:
            raise InvalidParameterError(
                f"parameter 'victories' takes 1 to {MAX_VICTORIES}, not {self.victories}")
        self.tokens = (int(full["tokens0"]), int(full["tokens1"]))
        for p, t in enumerate(self.tokens):
            if not 0 <= t < self.victories:
                raise InvalidParameterError(
                    f"parameter 'tokens{p}' takes 0 to {self.victories - 1}, not {t}")
        if self.villains and len(E.bits(self.cfg.villain_deck)) < 2:
            raise InvalidParameterError("a war needs at least 2 villains in the villain deck")
        if self.courtiers and len(E.bits(self.cfg.court_deck)) < 2:
            raise InvalidParameterError("a war needs at least 2 courtiers in the court deck")
        self.initial = _initial(self)

    def __deepcopy__(self, memo):
        return self


class WarPos:
    """A war position; immutable once built, like :class:`~games.cobardes.engine.Pos`."""

    FIELDS = ("tokens", "nbattle", "phase", "actor", "b", "held", "courts", "vdeck", "cdeck",
              "queue", "draws", "ev", "outcome", "kv", "vknown")

    def copy(self) -> WarPos:
        new = WarPos.__new__(WarPos)
        new.__dict__ = self.__dict__.copy()
        return new

    def __deepcopy__(self, memo):
        return self


def _say(w: WarPos, event: tuple) -> None:
    w.ev = w.ev + (event,)


def _initial(rules: WarRules) -> WarPos:
    w = WarPos.__new__(WarPos)
    w.tokens = rules.tokens
    w.nbattle = 0
    w.phase = SETUP
    w.actor = E.CHANCE
    w.b = None
    w.held = (0, 0)
    w.courts = (-1, -1)
    # (shuffled part as a bit mask, queue of cards under it in order)
    w.vdeck = (rules.cfg.villain_deck if rules.villains else 0, ())
    # Who knows each card of the villain queue (bit per player): a villain from the
    # battlefield is public, one a player chose to replace is known to that player.
    w.vknown = ()
    w.cdeck = (rules.cfg.court_deck if rules.courtiers else 0, ())
    w.queue = ()
    w.draws = ()
    w.ev = ((3, EV.WAR_SCORE) + w.tokens,)
    w.outcome = None
    w.kv = (0, 0)
    draws = []
    if rules.courtiers:
        draws += [("court", 0), ("court", 1)]
    if rules.villains:
        draws += [("villain", 0), ("villain", 1)]
    w.draws = tuple(draws)
    w.phase = DRAW
    _next_draw(rules, w)
    return w


def _next_draw(rules: WarRules, w: WarPos) -> None:
    """Draw deterministically from the known queue while possible; stop at a chance draw."""
    while w.draws:
        kind, p = w.draws[0]
        shuffled, queue = w.vdeck if kind == "villain" else w.cdeck
        if shuffled:
            w.phase = DRAW
            w.actor = E.CHANCE
            return
        card, rest = queue[0], queue[1:]
        if kind == "villain":
            w.vdeck = (0, rest)
            w.vknown = w.vknown[1:]
        else:
            w.cdeck = (0, rest)
        _receive(w, kind, p, card)
    _start_battle(rules, w)


def _receive(w: WarPos, kind: str, p: int, card: int) -> None:
    w.draws = w.draws[1:]
    if kind == "villain":
        w.held = (w.held[0] | (1 << card), w.held[1]) if p == 0 else (w.held[0], w.held[1] | (1 << card))
        _say(w, (1 << p, EV.WAR_DRAWS_YOU, card))
        _say(w, (3, EV.WAR_DRAWS_VILLAIN, p))
    else:
        w.courts = (card, w.courts[1]) if p == 0 else (w.courts[0], card)
        _say(w, (3, EV.WAR_DRAWS_COURTIER, p, card))


def _start_battle(rules: WarRules, w: WarPos) -> None:
    w.nbattle += 1
    full = (1 << (rules.k + 1)) - 1
    hands = (full | w.held[0], full | w.held[1])
    # What each player knew of the rival's kept villain stays known.
    kv = (w.kv[0] & w.held[1], w.kv[1] & w.held[0])
    b = E.new_pos(hands, w.courts, kv=kv)
    _say(w, (3, EV.WAR_BATTLE, w.nbattle) + w.tokens)
    w.b = E.begin(rules.cfg, b)
    w.phase = BATTLE
    w.actor = w.b.actor
    _after_battle_move(rules, w)


def _after_battle_move(rules: WarRules, w: WarPos) -> None:
    b = w.b
    if b.outcome is None:
        w.actor = b.actor
        return
    kind, winner = b.outcome
    w.ev = w.ev + b.ev
    field_villains = [c for _, c in b.field if C.is_villain(c)] + list(b.out)
    stale = E.Pos.copy(b)
    stale.ev = ()
    w.b = stale
    tokens = w.tokens
    if kind == E.VICTORY:
        tokens = (tokens[0] + 1, tokens[1]) if winner == 0 else (tokens[0], tokens[1] + 1)
        w.tokens = tokens
    if kind == E.CROWN or max(tokens) >= rules.victories:
        w.outcome = winner
        w.phase = OVER
        w.actor = E.TERMINAL
        _say(w, (3, EV.WAR_WON, winner, int(kind == E.CROWN)))
        return
    if w.nbattle >= rules.max_battles:
        w.outcome = -1
        w.phase = OVER
        w.actor = E.TERMINAL
        _say(w, (3, EV.WAR_CAP, rules.max_battles))
        return
    # Renewal: the battlefield's villains and used courtiers go under their decks.
    shuffled, queue = w.vdeck
    w.vdeck = (shuffled, queue + tuple(field_villains))
    w.vknown = w.vknown + (3,) * len(field_villains)
    for v in field_villains:
        _say(w, (3, EV.WAR_VILLAIN_UNDER, v))
    held = (b.h[0] & C.VILLAIN_MASK, b.h[1] & C.VILLAIN_MASK)
    w.held = held
    w.kv = (b.kv[0], b.kv[1])
    courts = list(w.courts)
    shuffled, queue = w.cdeck
    for p in (0, 1):
        if courts[p] >= 0 and b.used >> p & 1:
            queue = queue + (courts[p],)
            _say(w, (3, EV.WAR_COURTIER_UNDER, p, courts[p]))
            courts[p] = -1
    w.cdeck = (shuffled, queue)
    w.courts = tuple(courts)
    decisions = []
    for p in (0, 1):
        if rules.villains and held[p]:
            decisions.append((p, "villain"))
        if rules.courtiers and courts[p] >= 0:
            decisions.append((p, "court"))
    w.queue = tuple(decisions)
    _next_decision(rules, w)


def _next_decision(rules: WarRules, w: WarPos) -> None:
    if w.queue:
        w.phase = RENEW
        w.actor = w.queue[0][0]
        return
    draws = []
    if rules.villains:
        draws += [("villain", p) for p in (0, 1) if not w.held[p]]
    if rules.courtiers:
        draws += [("court", p) for p in (0, 1) if w.courts[p] < 0]
    w.draws = tuple(draws)
    _next_draw(rules, w)


def legal_actions(rules: WarRules, w: WarPos) -> list[int]:
    if w.phase == BATTLE:
        return E.legal_actions(rules.cfg, w.b)
    if w.phase == RENEW:
        p, kind = w.queue[0]
        if kind == "court":
            return [KEEP_C, REPLACE_C]
        return [REPLACE_V] + [KEEP_V0 + v - 7 for v in E.bits(w.held[p])]
    return []


def chance_outcomes(rules: WarRules, w: WarPos) -> list[tuple[int, float]]:
    if w.phase == BATTLE:
        return E.chance_outcomes(rules.cfg, w.b)
    if w.phase == DRAW:
        kind, _ = w.draws[0]
        pool = E.bits((w.vdeck if kind == "villain" else w.cdeck)[0])
        return [(c, 1.0 / len(pool)) for c in pool]
    return []


def apply(rules: WarRules, w: WarPos, action: int) -> WarPos:
    w = w.copy()
    if w.phase == BATTLE:
        w.b = E.apply(rules.cfg, w.b, action)
        _after_battle_move(rules, w)
    elif w.phase == DRAW:
        kind, p = w.draws[0]
        if kind == "villain":
            w.vdeck = (w.vdeck[0] & ~(1 << action), w.vdeck[1])
        else:
            w.cdeck = (w.cdeck[0] & ~(1 << action), w.cdeck[1])
        _receive(w, kind, p, action)
        _next_draw(rules, w)
    elif w.phase == RENEW:
        p, kind = w.queue[0]
        w.queue = w.queue[1:]
        if kind == "court":
            if action == REPLACE_C:
                shuffled, queue = w.cdeck
                w.cdeck = (shuffled, queue + (w.courts[p],))
                _say(w, (3, EV.WAR_PUTS_COURTIER, p, w.courts[p]))
                w.courts = (-1, w.courts[1]) if p == 0 else (w.courts[0], -1)
            else:
                _say(w, (3, EV.WAR_KEEPS_COURTIER, p, w.courts[p]))
        else:
            held = w.held[p]
            keep = 0 if action == REPLACE_V else 1 << (action - KEEP_V0 + 7)
            under = tuple(E.bits(held & ~keep))
            shuffled, queue = w.vdeck
            w.vdeck = (shuffled, queue + under)
            w.vknown = w.vknown + (1 << p,) * len(under)
            w.held = (keep, w.held[1]) if p == 0 else (w.held[0], keep)
            if keep:
                _say(w, (1 << p, EV.WAR_YOU_KEEP, action - KEEP_V0 + 7))
                _say(w, (3, EV.WAR_KEEPS_VILLAIN, p))
            for v in under:
                _say(w, (1 << p, EV.WAR_YOU_PUT, v))
            if under:
                _say(w, (3, EV.WAR_PUTS_VILLAINS, p, len(under)))
        _next_decision(rules, w)
    else:
        raise IllegalActionError("the war is over")
    return w


def _battle_max_length(rules: WarRules) -> int:
    per_combat = 6 + 2 * (1 + rules.cfg.exchange_limit + len(C.VILLAINS)) + 6
    return rules.cfg.combats * per_combat


class CobardesWarGame(pyspiel.Game):
    """The whole war of ¡Cobardes!."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.rules = WarRules(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=E.MAX_CHANCE_OUTCOMES,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=4 + self.rules.max_battles * (_battle_max_length(self.rules) + 8),
        )
        full = dict(WAR_DEFAULTS)
        full.update(params)
        super().__init__(_GAME_TYPE, info, full)

    def new_initial_state(self):
        return CobardesWarState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _WarObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


_EMPTY = E.new_pos((0, 0), (-1, -1))


class CobardesWarState(pyspiel.State):
    """A war in progress: shared rules plus one immutable war position."""

    def __init__(self, game):
        super().__init__(game)
        self._r = game.rules
        self._w = game.rules.initial

    def current_player(self):
        return self._w.actor

    def _legal_actions(self, player):
        if player != self._w.actor:
            return []
        return legal_actions(self._r, self._w)

    def chance_outcomes(self):
        return chance_outcomes(self._r, self._w)

    def _apply_action(self, action):
        w = self._w
        if w.actor >= 0:
            if action not in legal_actions(self._r, w):
                name = (self._action_to_string(w.actor, action)
                        if 0 <= action < NUM_ACTIONS else str(action))
                raise IllegalActionError(f"{name} is not legal for P{w.actor} now")
        elif w.actor == E.CHANCE:
            if all(a != action for a, _ in chance_outcomes(self._r, w)):
                raise IllegalActionError(f"{action} is not a chance outcome here")
        else:
            raise IllegalActionError("the war is over")
        self._w = apply(self._r, w, action)

    def _action_to_string(self, player, action):
        w = self._w
        if player == E.CHANCE:
            if w.phase == DRAW:
                kind = w.draws[0][0]
                return f"draw {C.COURTIER_NAMES[action] if kind == 'court' else C.CARD_NAMES[action]}"
            if w.b.phase == E.QUICK:
                return f"P{action} is quicker"
            return f"draw {C.CARD_NAMES[action]}"
        if action == KEEP_C:
            return f"keep {C.COURTIER_NAMES[w.courts[player]]}"
        if action == REPLACE_C:
            return "replace the courtier"
        if action == REPLACE_V:
            return "replace the villain"
        if KEEP_V0 <= action < NUM_ACTIONS:
            return f"keep villain {C.CARD_NAMES[action - KEEP_V0 + 7]}"
        court = w.b.court[player] if w.b is not None else -1
        return E.action_name(action, court)

    def is_terminal(self):
        return self._w.outcome is not None

    def returns(self):
        o = self._w.outcome
        if o is None or o < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if o == 0 else [-1.0, 1.0]

    def __str__(self):
        w = self._w
        lines = [f"war: battle {w.nbattle}, score {w.tokens[0]}-{w.tokens[1]}, phase {w.phase}, "
                 f"actor {w.actor}, outcome {w.outcome}",
                 f"held villains {[C.CARD_NAMES[c] for c in E.bits(w.held[0])]} "
                 f"{[C.CARD_NAMES[c] for c in E.bits(w.held[1])]}; courtiers {w.courts}; "
                 f"villain deck {E.bits(w.vdeck[0])} then {w.vdeck[1]}; "
                 f"court deck {E.bits(w.cdeck[0])} then {w.cdeck[1]}",
                 "war events: " + " | ".join(event_texts(w.ev))]
        if w.b is not None:
            lines.append(describe(w.b))
        return "\n".join(lines)

    # ---- the observer reads these
    @property
    def position(self) -> E.Pos:
        """The current (or last) battle position."""
        return self._w.b if self._w.b is not None else _EMPTY

    @property
    def war(self) -> WarPos:
        return self._w

    def observation_prefix(self, player: int) -> str:
        w = self._w
        return f"[battle {w.nbattle} score {w.tokens[0]}-{w.tokens[1]} war-phase {w.phase}] "

    def war_history(self, player: int) -> str:
        bit = 1 << player
        return " | ".join(event_texts(self._w.ev, bit))

    # ---- Farol's solver protocol
    def state_key(self):
        w = self._w
        b = battle_state_key(w.b) if w.phase == BATTLE else None
        return (w.tokens, w.nbattle, w.phase, w.actor, w.held, w.courts, w.vdeck, w.cdeck,
                w.queue, w.draws, w.outcome, w.kv, w.vknown, b)

    def infoset_key(self, player):
        w = self._w
        b = battle_infoset_key(w.b, player) if w.phase == BATTLE else None
        return (player, w.tokens, w.nbattle, w.phase, w.actor, w.held[player],
                bin(w.held[1 - player]).count("1"), w.courts, bin(w.vdeck[0]).count("1"),
                tuple(c if m >> player & 1 else -1 for c, m in zip(w.vdeck[1], w.vknown, strict=True)),
                w.cdeck, w.queue, w.draws, w.outcome, w.kv[player] & w.held[1 - player], b)


class _WarObserver(CobardesObserver):
    """The battle observer plus the war's score and its own events."""

    def string_from(self, state, player):
        if self.perfect_recall:
            w = state.war
            bit = 1 << player
            texts = event_texts(w.ev, bit, self.public, self.private)
            battle = info_string(state.position, player, self.public, self.private) \
                if w.phase == BATTLE else f"P{player}:"
            return "war: " + " | ".join(texts) + " || " + battle
        return super().string_from(state, player)


def render(state, seat: int) -> str:
    """What ``seat`` sees of the war, for ``farol play``."""
    w = state.war
    header = f"War: battle {w.nbattle}, Victory tokens you {w.tokens[seat]} - enemy {w.tokens[1 - seat]}"
    if w.phase == RENEW:
        held = ", ".join(C.CARD_NAMES[c] for c in E.bits(w.held[seat])) or "none"
        court = C.COURTIER_NAMES[w.courts[seat]] if w.courts[seat] >= 0 else "none"
        recent = event_texts(w.ev, 1 << seat)[-6:]
        return "\n".join([header, "Renewing the armies before the next battle.",
                          f"Your unplayed villain(s): {held}; your courtier: {court}",
                          "Latest: " + " | ".join(recent)])
    if w.phase == OVER:
        recent = event_texts(w.ev, 1 << seat)[-4:]
        return "\n".join([header, "The war is over.", "Latest: " + " | ".join(recent)])
    return render_pos(state.position, seat, header=header)


pyspiel.register_game(_GAME_TYPE, CobardesWarGame)
