"""¡Cobardes!: does the first player (quicker in combats 1, 3, 5, 7) win more wars?"""

from __future__ import annotations

from analysis.cobardes.studies import renewal
from analysis.report.facts.cobardes import records as R
from analysis.report.guides.cobardes import courtiers
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.markdown import pct
from analysis.report.separate import excludes
from analysis.report.templating import one_line, render

QUESTION = "Does the first player win more?"


def facts() -> dict:
    sol = R.renewal()
    vw = R.villain_war()
    base = {"vw": vw, "command": R.RENEWAL, "sweep": R.SWEEP, "villain_win": None}
    if vw is not None and vw.complete:
        base["villain_win"] = vw.first_player_win()
    if sol is None:
        return base | {"win": None, "headline": None}
    values = [sol.value(p) for p in sol.model.pairings]
    win = (1 + sum(values) / len(values)) / 2
    headline = pct(base["villain_win"] if base["villain_win"] is not None else win)
    return base | {"win": win, "pairings": len(values), "residual": sol.residual,
                   "headline": headline}


def reply(ctx: GuideContext) -> Reply:
    """The first player's wars won, with villains once every matchup is solved (an edge
    only where its range, ± the composition's largest miss, leaves 50% out), and the
    chart of every matchup's war."""
    f = facts()
    vw = f["vw"]
    half = None if vw is None else vw.win_error
    edge = False
    if f["villain_win"] is not None and half is not None:
        edge = excludes((f["villain_win"] - half, f["villain_win"] + half), 0.5)
    facts_ = f | {"edge": edge, "half_miss": None if half is None else 100 * half}
    model = ("The war to 3 victories with courtiers dealt at random and renewed between "
             f"battles ({f['pairings']} pairings, equally likely), solved exactly; villains "
             "left out." if f["win"] is not None else "")
    shown = ""
    if f["villain_win"] is not None:
        model = f"{R.villain_war_model(vw)} Every courtier matchup equally likely. Without villains: {model}"
        name = ctx.save_svg(courtiers.chart(vw.table), "first_player")
        shown = f"![¡Cobardes!: the first player's war win probability by courtiers, with villains]({name})"
    elif f["win"] is not None:
        sol = R.renewal()
        name = ctx.save_svg(courtiers.chart(renewal.value_table(sol)), "first_player")
        shown = f"![¡Cobardes!: the first player's war win probability by courtiers, without villains]({name})"
    return Reply(QUESTION, one_line(render("cobardes/q_first_player.md.j2", **facts_)), shown,
                 one_line(render("cobardes/q_first_player_more.md.j2", **facts_)),
                 f["headline"], model)


def caveat(ctx: GuideContext) -> str:
    """What to keep in mind of every balance answer, said once."""
    vw = R.villain_war()
    half = None if vw is None or vw.win_error is None else 100 * vw.win_error
    return render("cobardes/balance_caveat.md.j2", vw=vw, half_miss=half)
