"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?"""

from __future__ import annotations

from analysis.report.facts.cobardes.villains import facts
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.markdown import table
from analysis.report.templating import one_line, render
from analysis.shared.numbers import signed

QUESTION = "Which villain is worth most?"


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
                 None if v is None else f"{v.values[f['best']]:+z.2f}",
                 one_line(render("cobardes/villains_model.md.j2", **f)) if v is not None else "")
