"""What a seat sees happen in Goat Lords, in words: the table's log read as events.

``farol play`` prints each event as it happens (a birth, a duel and how it ends, a
capture, a wild played, a card drawn by you), so that no card moves without a word. Only
what the seat may see is told: the others' draws are not.
"""

from __future__ import annotations

from games.goat_lords.cards import IS_WILD, KINDS

_BY_KEY = {k.key: i for i, k in enumerate(KINDS)}


def _card(key: str) -> str:
    kind = _BY_KEY[key]
    return f"a {KINDS[kind].name}" + (" (a wild)" if IS_WILD[kind] else "")


def _who(token: str, seat: int) -> str:
    p = int(token[1:])
    return "you" if p == seat else f"seat {p}"


def event_text(owner: int, token: str, seat: int) -> str | None:
    """One log entry as ``seat`` reads it; ``None`` for entries it does not see or that
    say nothing to a player."""
    if owner >= 0 and owner != seat:
        return None
    if token.startswith("round"):
        return f"Round {token[5:]} begins."
    if token.startswith("start:"):
        return f"The discard pile starts with {_card(token[6:])}."
    if token.startswith("+"):
        return f"You draw {_card(token[1:])}."
    if token == "reshuffle":
        return "The discard pile is shuffled into a new draw pile."
    parts = token.split(":")
    if not parts[0].startswith("p") or len(parts) < 2:
        return None  # positions given, worlds resampled by a bot's search
    who, what = _who(parts[0], seat), parts[1]
    subject = who[0].upper() + who[1:]
    if what == "birth":
        a, b = parts[2].split("/")
        return f"{subject} breed {_card(a)} and {_card(b)} into a new pile." if who == "you" \
            else f"{subject} breeds {_card(a)} and {_card(b)} into a new pile."
    if what == "assisted":
        verb = "breed" if who == "you" else "breeds"
        return f"{subject} {verb} {_card(parts[2])} with the top card of the discard pile."
    if what == "duel":
        target = _who(parts[2], seat)
        verb = "challenge" if who == "you" else "challenges"
        owner_text = "your" if target == "you" else f"{target}'s"
        return f"{subject} {verb} {owner_text} top pile, playing {_card(parts[3])}."
    if what == "answer":
        return f"{subject} {'answer' if who == 'you' else 'answers'} with {_card(parts[2])}."
    if what == "yield":
        return f"{subject} {'yield' if who == 'you' else 'yields'}."
    if what == "takes":
        return (f"{subject} {'win' if who == 'you' else 'wins'} the duel and "
                f"{'take' if who == 'you' else 'takes'} the pile: {parts[2]} cards, with the "
                "duel's, as a new pile.")
    if what == "defends":
        return (f"{subject} {'defend' if who == 'you' else 'defends'}: the duel's cards join "
                f"the top pile ({parts[2]} cards).")
    if what == "discard":
        return f"{subject} {'discard' if who == 'you' else 'discards'} {_card(parts[2])}."
    return None


def event_lines(state, seat: int, start: int = 0) -> tuple[list[str], int]:
    """The events ``seat`` sees in ``state``'s log from entry ``start`` on, in words, and
    where the next call starts."""
    log = state.table.log
    lines = [text for owner, token in log[start:]
             if (text := event_text(owner, token, seat)) is not None]
    return lines, len(log)
