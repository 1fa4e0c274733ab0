"""What a Coup position shows: the solvers' keys, the returns, and every text a player reads.

Pure functions of an :class:`~games.coup.engine.Core`, shared by the OpenSpiel state
(:mod:`games.coup.game`) and the solver's walker (:mod:`games.coup.walker`), so the
two never hold a second copy of them.
"""

from __future__ import annotations

import pyspiel

from games.coup import cards as C
from games.coup import engine as E
from games.coup import rules as R
from games.words import count


def state_key(c: E.Core) -> tuple:
    """The whole position of ``c`` up to the order of past events (see :mod:`games.keys`)."""
    return (c.turn, c.actor, c.kind, c.target, c.hands, c.revealed, c.coins, c.court,
            c.unused, c.drawn, c.queue, c.over, c.winner)


def infoset_key(c: E.Core, player: int) -> tuple:
    """``player``'s own cards plus the public position of ``c`` (imperfect recall)."""
    drawn = c.drawn if player == c.actor else len(c.drawn)
    queue = tuple(_public_step(step, player, c.actor) for step in c.queue)
    return (player, c.hands[player], c.turn, c.actor, c.kind, c.target,
            tuple(len(h) for h in c.hands), c.revealed, c.coins, drawn, queue, c.over)


def public_key(c: E.Core) -> tuple:
    """The public position of ``c``: what every player sees of it (2 players or more)."""
    queue = tuple(_public_step(step, -1, c.actor) for step in c.queue)
    return (c.turn, c.actor, c.kind, c.target, tuple(len(h) for h in c.hands), c.revealed,
            c.coins, len(c.drawn), queue, c.over)


def returns(c: E.Core) -> list[float]:
    """Every player's return at ``c`` (0 for all before the end)."""
    if not c.over:
        return [0.0] * c.cfg.num_players
    return R.terminal_returns(c.winner, c.cfg.num_players, c.cfg.cap_payoff)


def _public_step(step: tuple, viewer: int, actor: int) -> tuple:
    # The card shown to an Inquisitor is known to them and the examined player
    # only; every other field of a pending step is public.
    if step[0] in (E.S_IDECIDE, E.S_IREDRAW) and viewer not in (step[1], actor):
        return (step[0], step[1])
    return step


def hand_text(hand, deck) -> str:
    """The cards of ``hand`` joined by ``+`` (``-`` for none)."""
    return "+".join(C.card_name(c, deck) for c in hand) if hand else "-"


def turn_action_label(kind: int, target: int, deck: str) -> str:
    """A turn action as players say it, e.g. ``"Steal from P1 (claims Captain)"``."""
    label = {
        C.INCOME: "Income", C.FOREIGN_AID: "Foreign Aid", C.TAX: "Tax",
        C.EXCHANGE: "Exchange" if deck == "ambassador" else "Exchange one card",
        C.COUP: f"Coup P{target}", C.ASSASSINATE: f"Assassinate P{target}",
        C.STEAL: f"Steal from P{target}", C.EXAMINE: f"Examine P{target}",
    }[kind]
    claim = C.KIND_CLAIM[kind]
    return f"{label} (claims {C.card_name(claim, deck)})" if claim is not None else label


def action_name(core: E.Core, player: int, action: int) -> str:
    """A readable name of ``action`` for ``player`` at ``core``'s position."""
    deck = core.cfg.deck
    name = lambda c: C.card_name(c, deck)  # noqa: E731
    if player == E.CHANCE or player == pyspiel.PlayerId.CHANCE:
        code = core.queue[0][0] if core.queue else -1
        if code == E.S_START:
            return f"P{action} starts"
        if code == E.S_ORDER:
            return f"P{action} is asked first"
        if code == E.S_XDRAW2:
            return "Draw " + "+".join(name(c) for c in C.KEEP_OPTIONS[action])
        return f"Draw {name(action)}" if 0 <= action < C.NUM_CHARACTERS else f"Chance {action}"
    if action < C.A_CHALLENGE:
        return turn_action_label(*C.decode_turn_action(action), deck)
    if action == C.A_CHALLENGE:
        return "Challenge"
    if action == C.A_NO_CHALLENGE:
        return "No challenge"
    if C.A_BLOCK <= action < C.A_NO_BLOCK:
        return f"Block with {name(action - C.A_BLOCK)}"
    if action == C.A_NO_BLOCK:
        return "No block"
    if C.A_LOSE <= action < C.A_KEEP:
        return f"Lose {name(action - C.A_LOSE)}"
    if C.A_KEEP <= action < C.A_RETURN:
        return "Keep " + "+".join(name(c) for c in C.KEEP_OPTIONS[action - C.A_KEEP])
    if C.A_RETURN <= action < C.A_SHOW:
        return f"Return {name(action - C.A_RETURN)}"
    if C.A_SHOW <= action < C.A_EXAMINE_KEEP:
        return f"Show {name(action - C.A_SHOW)}"
    if action == C.A_EXAMINE_KEEP:
        return "Give the card back"
    if action == C.A_EXAMINE_FORCE:
        return "Force an exchange"
    if C.A_PICK <= action < C.NUM_ACTIONS:
        return f"Pick {name(action - C.A_PICK)}"
    return f"action {action}"


# ---- events as text ---------------------------------------------------------
def event_text(event: tuple, viewer: int, deck: str) -> str | None:
    """The line ``viewer`` sees for a log event (``None``: nothing to see).

    ``viewer=-1`` is a spectator who sees only public information.
    """
    vis, code, *a = event
    full = viewer >= 0 and bool(vis & (1 << viewer))
    name = lambda c: C.card_name(c, deck)  # noqa: E731
    if code == E.E_DEAL:
        return f"P{a[0]} is dealt {name(a[1])}" if full else f"P{a[0]} is dealt a card"
    if code == E.E_PICK:
        return f"P{a[0]} picks {name(a[1])}" if full else f"P{a[0]} picks a card"
    if code == E.E_HOLD:
        return f"P{a[0]} holds {hand_text(a[1], deck)}" if full else None
    if code == E.E_START:
        return f"P{a[0]} starts"
    if code == E.E_ACT:
        return f"P{a[0]}: {turn_action_label(a[1], a[2], deck)}"
    if code == E.E_NOCHAL:
        return f"P{a[0]}: no challenge"
    if code == E.E_CHAL:
        return f"P{a[0]} challenges P{a[1]}'s {name(a[2])}"
    if code == E.E_PROVEN:
        return f"P{a[0]} shows {name(a[1])}"
    if code == E.E_BLUFF:
        return f"P{a[0]} has no {name(a[1])}"
    if code == E.E_LOSE:
        return f"P{a[0]} loses {name(a[1])}"
    if code == E.E_OUT:
        return f"P{a[0]} is out"
    if code == E.E_WIN:
        return f"P{a[0]} wins"
    if code == E.E_REDRAW:
        base = f"P{a[0]} shuffles {name(a[1])} into the court and draws "
        return base + (name(a[2]) if full else "a card")
    if code == E.E_BLOCK:
        return f"P{a[0]} blocks with {name(a[1])}"
    if code == E.E_NOBLOCK:
        return f"P{a[0]}: no block"
    if code == E.E_BLOCKED:
        return f"P{a[0]}'s action is blocked"
    if code == E.E_GAIN:
        return f"P{a[0]} takes {a[1]} coin{'s' if a[1] != 1 else ''}"
    if code == E.E_STEAL:
        return f"P{a[0]} steals {a[2]} from P{a[1]}"
    if code == E.E_XDRAW:
        return f"P{a[0]} draws {name(a[1])}" if full else f"P{a[0]} draws a card"
    if code == E.E_XDRAW2:
        return f"P{a[0]} draws {hand_text(a[1], deck)}" if full else f"P{a[0]} draws two cards"
    if code == E.E_KEEP:
        if full:
            return f"P{a[0]} keeps {hand_text(a[1], deck)} and returns {hand_text(a[2], deck)}"
        return f"P{a[0]} returns {len(a[2])} cards"
    if code == E.E_IRETURN:
        return f"P{a[0]} returns {name(a[1])}" if full else f"P{a[0]} returns a card"
    if code == E.E_SHOW:
        return f"P{a[0]} shows {name(a[2])} to P{a[1]}" if full else f"P{a[0]} shows a card to P{a[1]}"
    if code == E.E_IKEEP:
        return f"P{a[0]} gives the card back to P{a[1]}"
    if code == E.E_IFORCE:
        return f"P{a[0]} makes P{a[1]} shuffle the card into the court and draw a new one"
    if code == E.E_ORDER:
        return f"chance: P{a[0]} is asked first"
    if code == E.E_REFUND:
        return f"P{a[0]} gets {count(a[1], 'coin')} back"
    if code == E.E_CAP:
        return f"turn cap reached after {a[0]} turns: nobody wins"
    raise AssertionError(f"unknown event {event}")


def events(core: E.Core) -> list[tuple]:
    """The log of ``core`` in order."""
    out = []
    node = core.log
    while node is not None:
        node, event = node
        out.append(event)
    out.reverse()
    return out


def public_log(core: E.Core, viewer: int) -> list[str]:
    """The lines of the log that ``viewer`` sees."""
    deck = core.cfg.deck
    lines = (event_text(ev, viewer, deck) for ev in events(core))
    return [line for line in lines if line is not None]


def information_state_text(core: E.Core, player: int) -> str:
    """``player``'s perfect-recall information state: every log line they saw, in order."""
    return f"P{player}\n" + "\n".join(public_log(core, player))


def step_text(core: E.Core, viewer: int) -> str:
    """What the game waits for, as ``viewer`` may see it."""
    if core.over:
        return "game over" + (f", P{core.winner} wins" if core.winner >= 0 else ", nobody wins")
    deck = core.cfg.deck
    step = core.queue[0]
    code = step[0]
    if code == E.S_ACTION:
        return f"P{core.actor} to act"
    if code == E.S_CHAL:
        _, claimant, claim, askers, is_block = step
        what = "block" if is_block else "claim"
        return f"P{askers[0]} may challenge P{claimant}'s {what} of {C.card_name(claim, deck)}"
    if code == E.S_BLOCK:
        chars = "/".join(C.card_name(c, deck) for c in step[2])
        return f"P{step[1][0]} may block with {chars}"
    if code == E.S_LOSE:
        return f"P{step[1]} loses a card"
    if code == E.S_KEEP:
        if viewer == core.actor:
            return f"P{core.actor} keeps cards from {hand_text(core.hands[viewer] + core.drawn, deck)}"
        return f"P{core.actor} keeps cards"
    if code == E.S_IRETURN:
        if viewer == core.actor:
            return f"P{core.actor} returns one of {hand_text(core.hands[viewer] + core.drawn, deck)}"
        return f"P{core.actor} returns a card"
    if code == E.S_SHOW:
        return f"P{step[1]} shows a card to P{core.actor}"
    if code == E.S_IDECIDE:
        if viewer in (step[1], core.actor):
            return f"P{core.actor} decides on P{step[1]}'s {C.card_name(step[2], deck)}"
        return f"P{core.actor} decides on P{step[1]}'s card"
    if code == E.S_PICK:
        return f"P{step[1]} picks a card"
    return f"chance ({E.STEP_NAMES[code]})"


def observation_text(core: E.Core, viewer: int) -> str:
    """A snapshot of what ``viewer`` sees now (no memory of past events)."""
    deck = core.cfg.deck
    n = core.cfg.num_players
    parts = [f"P{viewer}" if viewer >= 0 else "public"]
    if viewer >= 0:
        parts.append(f"hand {hand_text(core.hands[viewer], deck)}")
    parts.append("coins " + " ".join(str(k) for k in core.coins))
    parts.append("revealed " + " ".join(hand_text(core.revealed[p], deck) for p in range(n)))
    parts.append("cards " + " ".join(str(len(h)) for h in core.hands))
    parts.append(f"turn {core.turn}")
    if core.kind >= 0 and not core.over:
        tgt = f" P{core.target}" if core.target >= 0 else ""
        parts.append(f"pending P{core.actor} {C.KIND_NAMES[core.kind]}{tgt}")
    parts.append(step_text(core, viewer))
    return " | ".join(parts)
