"""The state core of Coup: a small value object stepped by the rule functions.

:class:`Core` holds the whole position in a few immutable fields (tuples and
ints) so that copying it is a shallow copy, and the OpenSpiel state
(:mod:`games.coup.game`) is a thin wrapper around it. A turn is a queue of
*steps* (small tuples): the head step says who acts next (a player, chance, or
nobody: automatic steps run at once). The log of events is an immutable linked
list, shared between copies, from which the information-state strings are built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.coup import cards as C
from games.coup import rules as R
from games.coup.positions import UNKNOWN, Position

CHANCE = -1
TERMINAL = -4

# Step codes. Chance steps: DEAL, START, ORDER, REDRAW, XDRAW, IREDRAW.
(
    S_DEAL, S_PICK, S_START, S_BEGIN, S_ACTION, S_ORDER, S_CHAL, S_BLOCKWIN, S_BLOCK,
    S_LOSE, S_REDRAW, S_EFFECT, S_XDRAW, S_KEEP, S_IRETURN, S_SHOW, S_IDECIDE, S_IREDRAW,
    S_XDRAW2,
) = range(19)
NUM_STEPS = 19
STEP_NAMES = (
    "deal", "draft pick", "choose starting player", "begin", "action", "asking order",
    "challenge?", "block window", "block?", "lose a card", "replacement draw", "effect",
    "exchange draw", "keep cards", "return a card", "show a card", "examine decision",
    "replacement draw", "exchange draw",
)
_CHANCE_STEPS = frozenset((S_DEAL, S_START, S_ORDER, S_REDRAW, S_XDRAW, S_IREDRAW, S_XDRAW2))

# Event codes of the log; an event is (visibility bitmask, code, *args).
(
    E_DEAL, E_PICK, E_START, E_ACT, E_NOCHAL, E_CHAL, E_PROVEN, E_BLUFF, E_LOSE, E_OUT,
    E_REDRAW, E_BLOCK, E_NOBLOCK, E_GAIN, E_STEAL, E_XDRAW, E_KEEP, E_IRETURN, E_SHOW,
    E_IKEEP, E_IFORCE, E_ORDER, E_REFUND, E_CAP, E_HOLD, E_WIN, E_BLOCKED, E_XDRAW2,
) = range(28)
PUBLIC = -1


@dataclass(frozen=True)
class Config:
    """The game's parameters, validated (shared by every state of a game)."""

    num_players: int
    deck: C.Deck
    setup: C.Setup  # one of cards.SETUPS
    starting_player: int  # -1: a chance node
    challenge_chance: bool
    block_chance: bool
    refund: bool  # a successfully challenged assassination gives the 3 coins back
    refund_blocked: bool  # a blocked assassination gives the 3 coins back (not official)
    turn_cap: int
    total_coins: int
    position: Position | None
    cap_payoff: float = 0.0  # player 0's payoff when the turn cap stops the game
    numbers: C.Numbers = C.PRINTED  # costs, gains, starting coins, copies, hand size

    @property
    def copies(self) -> int:
        return self.numbers.copies or C.copies_per_character(self.num_players)


class Core:
    """A Coup position plus the pending steps of the current turn."""

    def __init__(self, cfg: Config):
        n = cfg.num_players
        self.cfg = cfg
        self.unused = (0,) * C.NUM_CHARACTERS
        self.revealed = ((),) * n
        self.turn = 0
        self.actor = cfg.starting_player
        self.kind = -1
        self.target = -1
        self.drawn = ()
        self.log = None
        self.over = False
        self.winner = -1
        pos = cfg.position
        if pos is not None:
            self._init_position(pos)
        else:
            self.coins = (cfg.numbers.starting_coins,) * n
            if cfg.setup == "draft":
                # One pile of one of each character is shuffled: it deals one card to
                # each player and its other three cards are the court; the two other
                # piles are where the players pick their second character from.
                self.court = (1,) * C.NUM_CHARACTERS
                self.unused = (2,) * C.NUM_CHARACTERS
                queue = [(S_DEAL, 0), (S_DEAL, 1), (S_PICK, 0), (S_PICK, 1)]
            else:
                self.court = (cfg.copies,) * C.NUM_CHARACTERS
                queue = [(S_DEAL, p) for _ in range(cfg.numbers.hand_size) for p in range(n)]
            self.hands = ((),) * n
            if cfg.starting_player < 0:
                queue.append((S_START,))
            else:
                self._basic_coins(cfg.starting_player)
            queue.append((S_BEGIN,))
            self.queue = tuple(queue)
        self.cur = CHANCE
        self._settle()

    def _init_position(self, pos: Position) -> None:
        court = [self.cfg.copies] * C.NUM_CHARACTERS
        hands, queue = [], []
        for seat, hidden in enumerate(pos.hidden):
            known = tuple(sorted(c for c in hidden if c != UNKNOWN))
            hands.append(known)
            for c in known:
                court[c] -= 1
            for c in pos.revealed[seat]:
                court[c] -= 1
            queue += [(S_DEAL, seat)] * hidden.count(UNKNOWN)
            if known:
                self.log = (self.log, (1 << seat, E_HOLD, seat, known))
        self.hands = tuple(hands)
        self.revealed = tuple(tuple(sorted(r)) for r in pos.revealed)
        self.coins = tuple(pos.coins)
        self.court = tuple(court)
        self.actor = pos.to_move
        queue.append((S_BEGIN,))
        self.queue = tuple(queue)

    def _basic_coins(self, start: int) -> None:
        # Basic rules: "Con dos jugadores, quien empieza recibe solo una moneda".
        # (With other starting coins, the starting player gets one coin less.)
        if self.cfg.num_players == 2 and self.cfg.setup == "basic":
            coins = self.cfg.numbers.starting_coins
            self.coins = tuple(max(0, coins - 1) if p == start else coins for p in range(2))

    def copy(self) -> Core:
        """A copy sharing every (immutable) field."""
        new = Core.__new__(Core)
        new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo) -> Core:
        # OpenSpiel clones a Python state with copy.deepcopy of its __dict__; the
        # fields are immutable, so a shallow copy is a deep one.
        return self.copy()

    # ---- queries -----------------------------------------------------------
    @property
    def living(self) -> tuple[bool, ...]:
        return tuple(bool(h) for h in self.hands)

    @property
    def treasury(self) -> int:
        return self.cfg.total_coins - sum(self.coins)

    def current_player(self) -> int:
        return self.cur

    def _head_player(self) -> int:
        step = self.queue[0]
        code = step[0]
        if code in _CHANCE_STEPS:
            return CHANCE
        if code in (S_PICK, S_LOSE, S_SHOW):
            return step[1]
        if code == S_CHAL:
            return step[3][0]
        if code == S_BLOCK:
            return step[1][0]
        return self.actor  # ACTION, KEEP, IRETURN, IDECIDE

    def legal_actions(self) -> list[int]:
        if self.over or self.cur == CHANCE:
            return []
        step = self.queue[0]
        code = step[0]
        if code == S_ACTION:
            return list(R.turn_action_ids(self.actor, self.coins[self.actor], self.living,
                                          self.cfg.deck, self.cfg.numbers))
        if code == S_CHAL:
            return [C.A_CHALLENGE, C.A_NO_CHALLENGE]
        if code == S_BLOCK:
            return [C.A_BLOCK + c for c in step[2]] + [C.A_NO_BLOCK]
        if code == S_LOSE:
            return [C.A_LOSE + c for c in R.lose_options(self.hands[step[1]])]
        if code == S_KEEP:
            return [C.A_KEEP + i for i in R.exchange_options(self.hands[self.actor], self.drawn)]
        if code == S_IRETURN:
            return [C.A_RETURN + c for c in R.inquisitor_return_options(self.hands[self.actor], self.drawn)]
        if code == S_SHOW:
            return [C.A_SHOW + c for c in R.lose_options(self.hands[step[1]])]
        if code == S_IDECIDE:
            return [C.A_EXAMINE_KEEP, C.A_EXAMINE_FORCE]
        if code == S_PICK:
            return [C.A_PICK + c for c in range(C.NUM_CHARACTERS) if self.unused[c]]
        raise AssertionError(f"no decision at step {step}")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self.queue[0]
        code = step[0]
        if code == S_START:
            n = self.cfg.num_players
            return [(p, 1.0 / n) for p in range(n)]
        if code == S_ORDER:
            askers = step[1][3] if step[1][0] == S_CHAL else step[1][1]
            return [(p, 1.0 / len(askers)) for p in sorted(askers)]
        if code in (S_REDRAW, S_IREDRAW):
            return list(R.draw_probabilities(R.pile_add(self.court, step[2])))
        if code == S_XDRAW2:
            return list(_pair_outcomes(self.court))
        return list(R.draw_probabilities(self.court))

    # ---- stepping ----------------------------------------------------------
    def _emit(self, vis: int, *event) -> None:
        self.log = (self.log, (vis,) + event)

    def apply(self, action: int) -> None:
        """Apply a legal decision or chance outcome (the caller checked legality)."""
        step = self.queue[0]
        rest = self.queue[1:]
        handler = _HANDLERS[step[0]]
        handler(self, step, rest, action)
        self._settle()

    def _settle(self) -> None:
        """Run automatic steps until a player or chance must act, or the game ends."""
        while not self.over:
            if not self.queue:
                self._end_turn()
                continue
            step = self.queue[0]
            code = step[0]
            rest = self.queue[1:]
            if code == S_BEGIN:
                self.queue = ((S_ACTION,),) + rest
            elif code == S_EFFECT:
                self._effect(rest)
            elif code == S_BLOCKWIN:
                askers = R.who_may_block(self.kind, self.actor, self.target, self.living)
                if askers:
                    win = (S_BLOCK, askers, R.block_characters(self.kind))
                    self.queue = (self._ordered(win, self.cfg.block_chance, askers),) + rest
                else:
                    self.queue = rest
            elif code == S_LOSE and len(R.lose_options(self.hands[step[1]])) <= 1:
                if self.hands[step[1]]:
                    self._lose(step[1], self.hands[step[1]][0], rest)
                else:
                    self.queue = rest
            elif code == S_SHOW and len(R.lose_options(self.hands[step[1]])) == 1:
                self._show(step, rest, self.hands[step[1]][0])
            elif code in _CHANCE_STEPS:
                outcomes = self.chance_outcomes()
                if len(outcomes) != 1:
                    break
                _HANDLERS[code](self, step, rest, outcomes[0][0])
            else:
                break
        self.cur = TERMINAL if self.over else self._head_player()

    def _ordered(self, window: tuple, chance: bool, askers: tuple[int, ...]) -> tuple:
        """Wrap a reaction window in a chance step choosing who is asked first."""
        if chance and len(askers) >= 2:
            return (S_ORDER, window)
        return window

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn >= self.cfg.turn_cap:
            self.over = True
            self.winner = -1
            self._emit(PUBLIC, E_CAP, self.turn)
            return
        self.actor = R.next_living(self.actor, self.living)
        self.kind = -1
        self.target = -1
        self.drawn = ()
        self.queue = ((S_ACTION,),)

    def _lose(self, p: int, card: int, rest: tuple) -> None:
        hands = list(self.hands)
        hands[p] = R.hand_remove(hands[p], card)
        self.hands = tuple(hands)
        revealed = list(self.revealed)
        revealed[p] = R.hand_add(revealed[p], card)
        self.revealed = tuple(revealed)
        self._emit(PUBLIC, E_LOSE, p, card)
        self.queue = rest
        if not hands[p]:
            # "queda fuera de la partida y deja sus monedas en el tesoro"
            coins = list(self.coins)
            coins[p] = 0
            self.coins = tuple(coins)
            self._emit(PUBLIC, E_OUT, p)
            alive = [q for q, h in enumerate(hands) if h]
            if len(alive) == 1:
                self.over = True
                self.winner = alive[0]
                self.queue = ()
                self._emit(PUBLIC, E_WIN, alive[0])

    def _blocked(self) -> None:
        self._emit(PUBLIC, E_BLOCKED, self.actor)
        if self.kind == C.ASSASSINATE and self.cfg.refund_blocked:
            got = self._gain(self.actor, self.cfg.numbers.assassination_cost)
            self._emit(PUBLIC, E_REFUND, self.actor, got)

    def _gain(self, p: int, amount: int) -> int:
        got = R.treasury_gain(amount, self.treasury)
        coins = list(self.coins)
        coins[p] += got
        self.coins = tuple(coins)
        return got

    def _effect(self, rest: tuple) -> None:
        kind, actor, target = self.kind, self.actor, self.target
        alive = self.hands[target] if target >= 0 else True
        self.queue = rest
        if kind in (C.INCOME, C.FOREIGN_AID, C.TAX):
            got = self._gain(actor, self.cfg.numbers.gain(kind))
            self._emit(PUBLIC, E_GAIN, actor, got)
        elif kind == C.STEAL:
            if alive:
                amount = R.steal_amount(self.coins[target], self.cfg.numbers.steal)
                coins = list(self.coins)
                coins[target] -= amount
                coins[actor] += amount
                self.coins = tuple(coins)
                self._emit(PUBLIC, E_STEAL, actor, target, amount)
        elif kind in (C.ASSASSINATE, C.COUP):
            if alive:
                self.queue = ((S_LOSE, target),) + rest
        elif kind == C.EXCHANGE:
            if self.cfg.deck == "ambassador":
                # Both cards in one chance node over the pairs the court can give: the
                # order of the two draws tells nothing, and the tree stays smaller.
                if sum(self.court) >= C.AMBASSADOR_DRAW:
                    self.queue = ((S_XDRAW2,), (S_KEEP,)) + rest
                else:
                    self.queue = ((S_XDRAW,),) * sum(self.court) + ((S_KEEP,),) + rest
            else:
                self.queue = ((S_XDRAW,), (S_IRETURN,)) + rest
        elif kind == C.EXAMINE and alive:
            self.queue = ((S_SHOW, target),) + rest

    def _show(self, step: tuple, rest: tuple, card: int) -> None:
        t = step[1]
        self._emit((1 << t) | (1 << self.actor), E_SHOW, t, self.actor, card)
        self.queue = ((S_IDECIDE, t, card),) + rest


@lru_cache(maxsize=4096)
def _pair_outcomes(court: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    # A pair of drawn cards is a chance outcome numbered by its KEEP_OPTIONS index.
    return tuple((_PAIR_INDEX[pair], p) for pair, p in R.draw_pair_probabilities(court))


_PAIR_INDEX = {pair: i for i, pair in enumerate(C.KEEP_OPTIONS)}


# ---- step handlers: (core, step, rest of the queue, action) -----------------
def _h_deal(s: Core, step, rest, card):
    p = step[1]
    s.court = R.pile_add(s.court, card, -1)
    hands = list(s.hands)
    hands[p] = R.hand_add(hands[p], card)
    s.hands = tuple(hands)
    s._emit(1 << p, E_DEAL, p, card)
    s.queue = rest


def _h_pick(s: Core, step, rest, action):
    p, card = step[1], action - C.A_PICK
    s.unused = R.pile_add(s.unused, card, -1)
    hands = list(s.hands)
    hands[p] = R.hand_add(hands[p], card)
    s.hands = tuple(hands)
    s._emit(1 << p, E_PICK, p, card)
    s.queue = rest


def _h_start(s: Core, step, rest, seat):
    s.actor = seat
    s._basic_coins(seat)
    s._emit(PUBLIC, E_START, seat)
    s.queue = rest


def _h_order(s: Core, step, rest, seat):
    window = step[1]
    idx = 3 if window[0] == S_CHAL else 1
    askers = window[idx]
    i = askers.index(seat)
    window = window[:idx] + (askers[i:] + askers[:i],) + window[idx + 1:]
    s._emit(PUBLIC, E_ORDER, seat)
    s.queue = (window,) + rest


def _h_action(s: Core, step, rest, action):
    kind, target = C.decode_turn_action(action)
    actor = s.actor
    s.kind, s.target = kind, target
    cost = R.action_cost(kind, s.cfg.numbers)
    if cost:
        coins = list(s.coins)
        coins[actor] -= cost
        s.coins = tuple(coins)
    s._emit(PUBLIC, E_ACT, actor, kind, target)
    claim = C.KIND_CLAIM[kind]
    queue = []
    if claim is not None:
        askers = R.who_may_challenge(actor, s.living)
        queue.append(s._ordered((S_CHAL, actor, claim, askers, False), s.cfg.challenge_chance, askers))
    if kind in C.BLOCKERS:
        queue.append((S_BLOCKWIN,))
    queue.append((S_EFFECT,))
    s.queue = tuple(queue) + rest


def _h_chal(s: Core, step, rest, action):
    _, claimant, claim, askers, is_block = step
    asker = askers[0]
    if action == C.A_NO_CHALLENGE:
        s._emit(PUBLIC, E_NOCHAL, asker)
        if len(askers) > 1:
            s.queue = ((S_CHAL, claimant, claim, askers[1:], is_block),) + rest
        elif is_block:
            # Nobody challenged the block: it stands and the action is not done.
            s._blocked()
            s.queue = ()
        else:
            s.queue = rest
        return
    s._emit(PUBLIC, E_CHAL, asker, claimant, claim)
    if R.resolve_challenge(s.hands[claimant], claim):
        # "quien desafió pierde una carta; tú devuelves la carta enseñada al mazo de
        # la corte, barajas y robas otra, y tu acción se hace"
        s._emit(PUBLIC, E_PROVEN, claimant, claim)
        follow = ((S_LOSE, asker), (S_REDRAW, claimant, claim))
        if is_block:
            s._blocked()
            s.queue = follow
        else:
            s.queue = follow + rest
    else:
        # "Si no la tenías, pierdes una carta y la acción no se hace."
        s._emit(PUBLIC, E_BLUFF, claimant, claim)
        if is_block:
            s.queue = ((S_LOSE, claimant),) + rest
        else:
            if s.kind == C.ASSASSINATE and s.cfg.refund:
                got = s._gain(claimant, s.cfg.numbers.assassination_cost)
                s._emit(PUBLIC, E_REFUND, claimant, got)
            s.queue = ((S_LOSE, claimant),)


def _h_block(s: Core, step, rest, action):
    _, askers, chars = step
    asker = askers[0]
    if action == C.A_NO_BLOCK:
        s._emit(PUBLIC, E_NOBLOCK, asker)
        s.queue = (((S_BLOCK, askers[1:], chars),) if len(askers) > 1 else ()) + rest
        return
    claim = action - C.A_BLOCK
    s._emit(PUBLIC, E_BLOCK, asker, claim)
    challengers = R.who_may_challenge(asker, s.living, first=s.actor)
    window = (S_CHAL, asker, claim, challengers, True)
    s.queue = (s._ordered(window, s.cfg.challenge_chance, challengers),) + rest


def _h_lose(s: Core, step, rest, action):
    s._lose(step[1], action - C.A_LOSE, rest)


def _h_redraw(s: Core, step, rest, card):
    _, p, shown = step
    hands = list(s.hands)
    hands[p], s.court = R.swap_with_court(hands[p], s.court, shown, card)
    s.hands = tuple(hands)
    s._emit(1 << p, E_REDRAW, p, shown, card)
    s.queue = rest


def _h_xdraw(s: Core, step, rest, card):
    s.court = R.pile_add(s.court, card, -1)
    s.drawn = tuple(sorted(s.drawn + (card,)))
    s._emit(1 << s.actor, E_XDRAW, s.actor, card)
    s.queue = rest


def _h_xdraw2(s: Core, step, rest, outcome):
    pair = C.KEEP_OPTIONS[outcome]
    for card in pair:
        s.court = R.pile_add(s.court, card, -1)
    s.drawn = pair
    s._emit(1 << s.actor, E_XDRAW2, s.actor, pair)
    s.queue = rest


def _h_keep(s: Core, step, rest, action):
    keep = C.KEEP_OPTIONS[action - C.A_KEEP]
    p = s.actor
    back = R.exchange_returned(s.hands[p], s.drawn, keep)
    hands = list(s.hands)
    hands[p] = keep
    s.hands = tuple(hands)
    for c in back:
        s.court = R.pile_add(s.court, c)
    s.drawn = ()
    s._emit(1 << p, E_KEEP, p, keep, back)
    s.queue = rest


def _h_ireturn(s: Core, step, rest, action):
    card = action - C.A_RETURN
    p = s.actor
    pool = list(s.hands[p] + s.drawn)
    pool.remove(card)
    hands = list(s.hands)
    hands[p] = tuple(sorted(pool))
    s.hands = tuple(hands)
    s.court = R.pile_add(s.court, card)
    s.drawn = ()
    s._emit(1 << p, E_IRETURN, p, card)
    s.queue = rest


def _h_show(s: Core, step, rest, action):
    s._show(step, rest, action - C.A_SHOW)


def _h_idecide(s: Core, step, rest, action):
    _, t, card = step
    if action == C.A_EXAMINE_KEEP:
        s._emit(PUBLIC, E_IKEEP, s.actor, t)
        s.queue = rest
    else:
        s._emit(PUBLIC, E_IFORCE, s.actor, t)
        s.queue = ((S_IREDRAW, t, card),) + rest


_HANDLERS = {
    S_DEAL: _h_deal, S_PICK: _h_pick, S_START: _h_start, S_ORDER: _h_order,
    S_ACTION: _h_action, S_CHAL: _h_chal, S_BLOCK: _h_block, S_LOSE: _h_lose,
    S_REDRAW: _h_redraw, S_XDRAW: _h_xdraw, S_KEEP: _h_keep, S_IRETURN: _h_ireturn,
    S_SHOW: _h_show, S_IDECIDE: _h_idecide, S_IREDRAW: _h_redraw, S_XDRAW2: _h_xdraw2,
}
