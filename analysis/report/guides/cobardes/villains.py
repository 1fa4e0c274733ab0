"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?"""

from __future__ import annotations

from analysis.report.guides import separate
from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import GuideContext, Reply, one_line, render
from analysis.report.markdown import table
from analysis.shared.numbers import signed

QUESTION = "Which villain is worth most?"


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
                   "headline": f"{best} {v.values.iloc[0]:+.2f}"}


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


def reply(ctx: GuideContext) -> Reply:
    """The villain worth most to its holder, and one table of every villain's value with
    its least and greatest over the matchups solved."""
    f = facts()
    v = f["v"]
    shown = ""
    if v is not None:
        spread = v.low is not None
        heads = ["villain", "a battle, to its holder", "place, within the error"] + (
            ["least, over the matchups", "greatest"] if spread else [])
        rows = [[name, signed(x, 2), f["ranks"][name]]
                + ([signed(v.low[name], 2), signed(v.high[name], 2)] if spread else [])
                for name, x in v.values.items()]
        shown = table(heads, rows)
    return Reply(QUESTION, one_line(render("cobardes/q_villains.md.j2", **f)), shown,
                 one_line(render("cobardes/q_villains_more.md.j2", **f)),
                 None if v is None else f"{v.values[f['best']]:+.2f}",
                 one_line(render("cobardes/villains_model.md.j2", **f)) if v is not None else "")
