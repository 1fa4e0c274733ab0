"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?"""

from __future__ import annotations

from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import GuideContext, Reply, one_line, render
from analysis.report.markdown import table

QUESTION = "Which villain is worth most?"


def facts() -> dict:
    v = R.villain_values()
    swept = len(R.hidden_sweep())
    base = {"v": v, "swept": swept, "size": R.sweep_size(), "command": R.SWEEP}
    if v is None:
        return base | {"headline": None}
    best, worst = v.values.index[0], v.values.index[-1]
    return base | {"best": best, "worst": worst, "most_in": most_in(v, best),
                   "headline": f"{best} {v.values.iloc[0]:+z.2f}"}


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
        heads = ["villain", "a battle, to its holder"] + (
            ["least, over the matchups", "greatest"] if spread else [])
        rows = [[name, f"{x:+z.2f}"] + ([f"{v.low[name]:+z.2f}", f"{v.high[name]:+z.2f}"]
                                       if spread else [])
                for name, x in v.values.items()]
        shown = table(heads, rows)
    return Reply(QUESTION, one_line(render("cobardes/q_villains.md.j2", **f)), shown,
                 one_line(render("cobardes/q_villains_more.md.j2", **f)),
                 None if v is None else f"{v.values[f['best']]:+z.2f}",
                 one_line(render("cobardes/villains_model.md.j2", **f)) if v is not None else "")
