"""The explorer's messages in the page's words.

``farol advise`` words its messages for the command line ("--history ends inside a
turn", "use --cap-pricing draw"); the page offers those things as controls, so it names
the controls instead (:func:`page_words`). And no message the page gets repeats what the
user sent: a quoted piece of the request is left out of it (:func:`unechoed`), unless it
is one of the explorer's own names (a card, a parameter, a game).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# (command-line words, the page's words), in the order they are replaced.
PAGE_WORDS = (
    ("--history ends inside a turn", "the moves played end inside a turn"),
    ("--history: ", ""),
    ("end the history at a decision", "pick its outcome first"),
    ("use --cap-pricing draw", "choose the cap pricing draw under Advanced"),
    ("give villains with --my-villain/--their-villain",
     "choose the villains in their own lists"),
    ("add --solve to solve it once now",
     "tick Solve the whole battle under Advanced to solve it once"),
    ("add --solve to solve it now",
     "tick Solve the whole battle under Advanced to solve it now"),
    ("--score needs", "a war score needs"),
    ("--mine", "your hand"),
    ("--theirs", "the rival's hand"),
)


def page_words(message: str) -> str:
    """``message`` with the command line's flags named as the page's controls."""
    for flag, words in PAGE_WORDS:
        message = message.replace(flag, words)
    return message


_QUOTED = re.compile(r"""(,?\s*\bnot\s+)?(['"])(.*?)\2""")
_NUMBER = re.compile(r",?\s*\bnot\s+(-?[0-9][0-9.e+-]*)\b")


def sent_texts(value: Any, out: set[str] | None = None) -> set[str]:
    """Every text in a request's JSON ``value``, and the pieces of ``k=v,k=v`` and
    ``a;b`` texts (the messages quote those pieces)."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
        for piece in re.split(r"[,;]", value):
            out.update({piece, piece.strip(), *(p.strip() for p in piece.split("=", 1))})
    elif isinstance(value, dict):
        for k, v in value.items():
            sent_texts(k, out)
            sent_texts(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            sent_texts(v, out)
    elif value is not None:
        out.add(str(value))
    out.discard("")
    return out


def unechoed(message: str, sent: Iterable[str], ours: Iterable[str] = ()) -> str:
    """``message`` without the quoted pieces that repeat what the user sent (with the
    ``not`` before one), unless the piece is one of ``ours``."""
    sent, ours = set(sent), {o.casefold() for o in ours}

    def echo(text: str) -> bool:
        """Whether ``text`` repeats what was sent: a piece of it, or holding one (of a
        few letters at least: a message may well hold a digit the user sent too)."""
        return text.casefold() not in ours and any(
            text in s or (len(s) >= 3 and s in text) for s in sent)

    def cut(match: re.Match) -> str:
        return "" if echo(match.group(3)) else match.group(0)

    out = _QUOTED.sub(cut, message)
    out = _NUMBER.sub(lambda m: "" if m.group(1) in sent else m.group(0), out)
    out = re.sub(r"\s+([;:,)])", r"\1", out)
    out = re.sub(r"has no parameter(?=[;,]|$)", "has no such parameter", out)
    return " ".join(out.split())
