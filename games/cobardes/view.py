"""The battle as text: action names, the position's description and what a player sees.

Pure functions of an engine position (:class:`games.cobardes.engine.Pos`); the OpenSpiel
state, the walkers, the war and ``farol play`` all print through them.
"""

from __future__ import annotations

from games.cobardes import cards as C
from games.cobardes import engine as E


def action_string(s: E.Pos, player: int, action: int) -> str:
    """The name of ``player``'s (or chance's) ``action`` at position ``s``."""
    if player == E.CHANCE:
        if s.phase == E.DEAL and s.pending and s.pending[0][0] == "court":
            return f"deal {C.COURTIER_NAMES[action]}"
        if s.phase == E.QUICK:
            return f"P{action} is quicker"
        return f"draw {C.CARD_NAMES[action]}"
    court = s.court[player] if 0 <= player < 2 else -1
    return E.action_name(action, court)


def _cards(mask: int) -> str:
    return " ".join(C.CARD_NAMES[c] for c in E.bits(mask)) or "-"


def _court(s: E.Pos, p: int) -> str:
    c = s.court[p]
    if c < 0:
        return "none"
    return C.COURTIER_NAMES[c] + (" (used)" if s.used >> p & 1 else "")


def _field(s: E.Pos, p: int) -> str:
    return " ".join(C.CARD_NAMES[c] for q, c in s.field if q == p) or "-"


def _status(s: E.Pos) -> str:
    if s.outcome is not None:
        kind, winner = s.outcome
        return f"over: {kind}" + (f" for P{winner}" if winner >= 0 else "")
    who = "chance" if s.actor == E.CHANCE else f"P{s.actor}"
    return f"combat {s.combat}, {E.PHASE_NAMES[s.phase]}, {who} to act"


def describe(s: E.Pos) -> str:
    """Everything about a position (debug string; shows hidden cards)."""
    lines = [
        _status(s),
        f"P0 hand: {_cards(s.h[0])} | courtier {_court(s, 0)} | field {_field(s, 0)}",
        f"P1 hand: {_cards(s.h[1])} | courtier {_court(s, 1)} | field {_field(s, 1)}",
        f"prepared {s.cards} fighting {s.fw} unharmed {s.unh:02b} bonus {s.bonus:02b} "
        f"mods {s.mods} exchanges {s.exch}",
        "events: " + " | ".join(text for _, text in s.ev),
    ]
    return "\n".join(lines)


def info_string(s: E.Pos, player: int, public: bool = True, private: bool = True) -> str:
    """Perfect-recall information state: every event ``player`` saw, in order."""
    bit = 1 << player
    texts = [text for mask, text in s.ev
             if (mask & bit) and ((mask == 3 and public) or (mask != 3 and private))]
    return f"P{player}: " + " | ".join(texts)


def observation_string(s: E.Pos, player: int, public: bool = True, private: bool = True) -> str:
    """What ``player`` sees now (no memory of the order of past events)."""
    r = 1 - player
    parts = [f"P{player}", _status(s)]
    if private:
        parts.append(f"hand: {_cards(s.h[player])}")
        known = s.kv[player] & s.h[r]
        if known:
            parts.append(f"P{r} holds: {_cards(known)}")
        if s.phase == E.COMMIT and s.cards[player] >= 0:
            parts.append(f"you prepared {C.CARD_NAMES[s.cards[player]]}")
    if public:
        hidden = bin(s.h[r] & C.VILLAIN_MASK).count("1")
        parts.append(f"P{r} warriors: {_cards(s.h[r] & C.WARRIOR_MASK)}, villains: {hidden}")
        parts.append(f"courtiers: P0 {_court(s, 0)}, P1 {_court(s, 1)}")
        parts.append(f"field: P0 {_field(s, 0)} / P1 {_field(s, 1)}")
        if s.phase == E.COMMIT and s.cards[r] >= 0:
            parts.append(f"P{r} played {C.CARD_NAMES[s.cards[r]]}" if s.open else f"P{r} prepared a card")
        if s.fw != (-1, -1):
            parts.append(f"fighting: {s.fw} bonus {s.bonus:02b} mods {s.mods}")
        parts.append(f"unharmed {s.unh:02b} exchanges {s.exch}")
    return " | ".join(parts)


def render(state, seat: int) -> str:
    """What ``seat`` sees, for ``farol play``."""
    s = state.position
    return render_pos(s, seat, getattr(state, "_r", None))


def render_pos(s: E.Pos, seat: int, rules=None, header: str = "") -> str:
    r = 1 - seat
    lines = []
    if header:
        lines.append(header)
    lines.append(f"You are P{seat}. " + _status(s).replace(f"P{seat} to act", "your move"))
    lines.append(f"Your hand: {_cards(s.h[seat])}")
    lines.append(f"Your courtier: {_court(s, seat)}   Enemy courtier: {_court(s, r)}")
    hidden = bin(s.h[r] & C.VILLAIN_MASK).count("1")
    known = s.kv[seat] & s.h[r]
    rival = f"Enemy hand: warriors {_cards(s.h[r] & C.WARRIOR_MASK)}, {hidden} villain(s)"
    if known:
        rival += f" (you know: {_cards(known)})"
    lines.append(rival)
    lines.append(f"Battlefield: you {_field(s, seat)} | enemy {_field(s, r)}")
    if s.unh >> seat & 1:
        lines.append("Your prince has got out of a combat unharmed (Troubadour ready).")
    if s.phase == E.COMMIT:
        if s.cards[seat] >= 0:
            lines.append(f"You prepared {C.CARD_NAMES[s.cards[seat]]}.")
        if s.cards[r] >= 0:
            lines.append(f"The enemy played {C.CARD_NAMES[s.cards[r]]} first." if s.open
                         else "The enemy has prepared a card face down.")
        if s.forced >> seat & 1:
            lines.append("The Maiden forces you to play your strongest warrior.")
    if s.fw != (-1, -1) and s.phase in (E.FOLLOW, E.REAR, E.GHOST, E.ARCHER, E.SENTINEL):
        mine = C.CARD_NAMES[s.fw[seat]] if s.fw[seat] >= 0 else "-"
        theirs = C.CARD_NAMES[s.fw[r]] if s.fw[r] >= 0 else "-"
        lines.append(f"Fighting now: your {mine} against their {theirs}")
    recent = [text for mask, text in s.ev if mask & (1 << seat)][-4:]
    if recent:
        lines.append("Latest: " + " | ".join(recent))
    return "\n".join(lines)
