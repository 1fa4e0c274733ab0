"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?
The answer's facts, read once for the guide and the methods appendix alike."""

from __future__ import annotations

from analysis.report import separate
from analysis.report.facts.cobardes import records as R


def facts() -> dict:
    v = R.villain_values()
    swept = len(R.hidden_sweep())
    base = {"v": v, "swept": swept, "size": R.sweep_size(), "command": R.SWEEP}
    if v is None:
        return base | {"headline": None}
    best, worst = v.values.index[0], v.values.index[-1]
    places = ranks(v)
    return base | {"best": best, "worst": worst, "most_in": most_in(v, best),
                   "ranks": places, "error": v.exploitability_at_least,
                   "clear_best": places[best] == "1",
                   "clear_worst": places[worst] == str(len(places)),
                   "headline": f"{best} {v.values.iloc[0]:+z.2f}"}


def ranks(v: R.VillainValues) -> dict[str, str]:
    """Each villain's place as the solutions' accuracy allows (:mod:`separate`'s rule on
    the values widened by the error the solutions are known to have at least, the
    largest lower bound over the matchups, as printed to two decimals): "1"
    where it is clearly above every other, "4–8" where it cannot be told from the
    villains in those places."""
    error = v.exploitability_at_least
    spans = {name: (x - error, x + error) for name, x in v.values.items()}
    out = {}
    for name, span in spans.items():
        above = sum(separate.above(o, span, 0) for n, o in spans.items() if n != name)
        below = sum(separate.above(span, o, 0) for n, o in spans.items() if n != name)
        first, last = above + 1, len(spans) - below
        out[name] = str(first) if first == last else f"{first}–{last}"
    return out


def most_in(v: R.VillainValues, best: str) -> int | None:
    """In how many solved matchups ``best`` is worth the most to its holder (both seats
    averaged), or None with fewer than two matchups."""
    per = v.per_matchup
    return None if per is None else int((per.idxmax(axis=1) == best).sum())
