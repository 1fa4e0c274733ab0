"""The battle as text: its events, action names, the position and what a player sees.

Pure functions of an engine position (:class:`games.cobardes.engine.Pos`) and of the
event codes the engines record (:mod:`games.cobardes.events`); the OpenSpiel states, the
walkers, the war and ``farol play`` all print through them.
"""

from __future__ import annotations

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import events as EV

_N = C.CARD_NAMES
_CN = C.COURTIER_NAMES
_card = E.card_text


def _names(mask: int, sep: str) -> str:
    return sep.join(_N[c] for c in E.bits(mask))


_TEXTS = {
    EV.HAND: lambda p, mask, hidden: f"P{p} hand: {_names(mask, ' ')}" + " + a hidden villain" * hidden,
    EV.COURTIER: lambda p, c, used: f"P{p}'s courtier: {_CN[c]}" + (" (used)" if used else ""),
    EV.COMBAT: lambda n: f"combat {n}",
    EV.NO_CARDS: lambda: "a player has no card left: the battle is a draw",
    EV.DRAW: lambda n: f"no winner after {n} combats: the battle is a draw",
    EV.QUICKER: lambda p: f"P{p} is quicker",
    EV.YOU_RECEIVE: lambda c: f"you receive the {_N[c]}",
    EV.RECEIVES: lambda p: f"P{p} receives a villain",
    EV.HOLDS_BACK: lambda p, c: f"P{p} holds the {_CN[c]} back",
    EV.ADVANCES: lambda p, c: f"P{p} advances the {_CN[c]}",
    EV.SHOWS_YOU: lambda r, mask: f"P{r} shows you: {_names(mask, ', ') or 'no villain'}",
    EV.SHOWS: lambda r, p: f"P{r} shows their villain to P{p}",
    EV.NO_SWAP: lambda p: f"P{p} does not swap villains",
    EV.SWAP_YOURS: lambda give, take: f"you swap your {_N[give]} for their {_N[take]}",
    EV.SWAP_THEIRS: lambda p, take, give: f"P{p} takes your {_N[take]} and gives you the {_N[give]}",
    EV.SWAP: lambda p: f"P{p} swaps villains",
    # «Take a card at random from your rival's hand and reveal it. [...] If it is not,
    # return it to your rival's hand»: the card is only shown, it stays with its owner.
    EV.INQ_DRAWS: lambda o, c: (f"P{o}'s Inquisitor reveals {_card(c)}, drawn at random from "
                                f"P{1 - o}'s hand"),
    EV.INQ_WINS: lambda o: f"the Inquisitor surprises warrior 2: P{o} wins the battle",
    EV.PLAYS_FIRST: lambda p, c: f"P{p} plays {_card(c)} first",
    EV.YOU_PREPARE: lambda c: f"you prepare {_card(c)}",
    EV.PREPARES: lambda p: f"P{p} prepares a card",
    EV.REVEAL: lambda a0, a1: f"reveal: P0 {_card(a0)}, P1 {_card(a1)}",
    EV.EXECUTE: lambda w: f"P{w}'s Executioner catches the enemy villain: P{w} wins the battle",
    EV.CAPTURE: lambda w, v: (f"P{w}'s Seductress takes the {_N[v]} to P{w}'s hand; "
                              "the confrontation is repeated"),
    EV.EXCHANGE: lambda: "the villains are exchanged; the confrontation is repeated",
    EV.WITHDRAW: lambda: "villains exchanged again: both are withdrawn under the Villain deck",
    EV.VILLAIN_CROWN: lambda p, v: f"P{p}'s {_N[v]} defeats the enemy prince: P{p} takes the Crown",
    EV.VILLAIN_VICTORY: lambda p, v: f"P{p}'s {_N[v]} wins the battle",
    EV.VILLAIN_PEACE: lambda p, v: f"P{p}'s {_N[v]} stops the battle: nobody wins",
    EV.VILLAIN_FIGHTS: lambda p, v: f"P{p}'s {_N[v]} fights as a warrior of strength 1",
    EV.GHOST_FRIGHTENS: lambda p, w: f"P{p}'s King's Ghost frightens P{1 - p}'s warrior {w} back to hand",
    EV.GHOST_STAYS: lambda q, w: f"P{q} has no other warrior: warrior {w} stays",
    EV.NO_FOLLOW: lambda p: f"P{p} has no warrior to follow up with: the combat has no winner",
    EV.DECLINES: lambda p: f"P{p} plays no warrior after the villain: the combat has no winner",
    EV.FOLLOWS: lambda p, w: f"P{p} follows up with warrior {w}",
    EV.REPLACES: lambda p, w: f"P{p} replaces it with warrior {w}",
    EV.COMBAT_TIED: lambda n, s0, s1: f"combat {n}: {s0} against {s1}, nobody wins",
    EV.FIGHT_CROWN: lambda s0, s1, w: (f"{s0} against {s1}: P{w} defeats the enemy prince "
                                       "and takes the Crown"),
    EV.FIGHT_VICTORY: lambda s0, s1, w: f"{s0} against {s1}: P{w} wins the battle",
    EV.KEEPS_BACK: lambda p, c: f"P{p} keeps the {_CN[c]} back",
    EV.SENDS: lambda p, c: f"P{p} sends the {_CN[c]}",
    EV.COMBAT_NO_WINNER: lambda n: f"combat {n} ends with no winner",
    EV.RETURNS: lambda p, c: f"P{p}'s {_card(c)} returns to hand",
    EV.CHANGES: lambda p, w: f"P{p} changes it for warrior {w}",
    EV.WAR_SCORE: lambda t0, t1: f"war: score {t0}-{t1}",
    EV.WAR_DRAWS_YOU: lambda v: f"you draw the {_N[v]}",
    EV.WAR_DRAWS_VILLAIN: lambda p: f"P{p} draws a villain",
    EV.WAR_DRAWS_COURTIER: lambda p, c: f"P{p} draws the courtier {_CN[c]}",
    EV.WAR_BATTLE: lambda n, t0, t1: f"battle {n} (score {t0}-{t1})",
    EV.WAR_WON: lambda w, crown: f"P{w} wins the war" + (" with the Crown" if crown
                                                         else " with 3 Victory tokens"),
    EV.WAR_CAP: lambda n: f"the war reaches the cap of {n} battles undecided",
    EV.WAR_VILLAIN_UNDER: lambda v: f"the {_N[v]} goes under the villain deck",
    EV.WAR_COURTIER_UNDER: lambda p, c: f"P{p}'s {_CN[c]} goes under the court deck",
    EV.WAR_PUTS_COURTIER: lambda p, c: f"P{p} puts the {_CN[c]} under the court deck",
    EV.WAR_KEEPS_COURTIER: lambda p, c: f"P{p} keeps the {_CN[c]}",
    EV.WAR_YOU_KEEP: lambda v: f"you keep the {_N[v]}",
    EV.WAR_KEEPS_VILLAIN: lambda p: f"P{p} keeps a villain",
    EV.WAR_YOU_PUT: lambda v: f"you put the {_N[v]} under the villain deck",
    EV.WAR_PUTS_VILLAINS: lambda p, n: f"P{p} puts {n} villain(s) under the villain deck",
}
_SEEN: dict[tuple, str] = {}  # texts already made: a game repeats few distinct events


def event_text(event: tuple) -> str:
    """The English text of one recorded event ``(seen_by, code, *args)``."""
    text = _SEEN.get(event)
    if text is None:
        text = _SEEN[event] = _TEXTS[event[1]](*event[2:])
    return text


def event_texts(events, bit: int = 3, public: bool = True, private: bool = True) -> list[str]:
    """The texts of the ``events`` a player (``bit``: 1 or 2; 3 any) saw, in order;
    ``public``/``private`` keep the events both players saw / one player saw."""
    out = []
    for e in events:
        seen_by = e[0]
        if seen_by & bit and (public if seen_by == 3 else private):
            text = _SEEN.get(e)
            out.append(text if text is not None else event_text(e))
    return out


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
        "events: " + " | ".join(event_texts(s.ev)),
    ]
    return "\n".join(lines)


def info_string(s: E.Pos, player: int, public: bool = True, private: bool = True) -> str:
    """Perfect-recall information state: every event ``player`` saw, in order."""
    return f"P{player}: " + " | ".join(event_texts(s.ev, 1 << player, public, private))


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
    recent = event_texts(s.ev, 1 << seat)[-4:]
    if recent:
        lines.append("Latest: " + " | ".join(recent))
    return "\n".join(lines)
