"""¡Cobardes!: which courtier is strongest, which weakest (in the war, courtiers renewed)?"""

from __future__ import annotations

from analysis.report import svg
from analysis.report.facts.cobardes import records as R
from analysis.report.facts.cobardes.courtiers import facts
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.markdown import pct, table
from analysis.report.templating import one_line, render

QUESTION = "Which courtier is strongest?"


def chart(table) -> str:
    """Player 0's war win probability by pairing (hover: the pairing in words)."""
    names = list(table.index)
    values = [[None if table.loc[a, b] != table.loc[a, b] else 100 * (1 + table.loc[a, b]) / 2
               for b in names] for a in names]

    def hover(i: int, j: int, v: float) -> str:
        return (f"{names[i]} (first player) against {names[j]}: the first player wins "
                f"{v:z.1f}% of wars")

    return svg.heatmap(values, names, names,
                       title="¡Cobardes!: first player's war win probability (%)",
                       xlabel="second player's courtier", ylabel="first player's courtier",
                       fmt=lambda v: f"{v:z.0f}", hover=hover, vmin=25, vmax=75, cmap="RdBu",
                       blank="never dealt: each courtier card exists once")


def reply(ctx: GuideContext) -> Reply:
    """The strongest courtier, with villains once every matchup is solved (named only
    where clear), and one table of every courtier's wars won, with and without villains."""
    f = facts()
    if f["strength"] is None and f["villain_wins"] is None:
        return Reply(QUESTION, one_line(render("cobardes/q_courtiers.md.j2", **f)))
    heads, rows = ["courtier"], []
    if f["villain_wins"] is not None:
        heads.append("wars won, with villains")
    if f["strength"] is not None:
        heads.append("without villains (exact)")
    order = f["villain_wins"] if f["villain_wins"] is not None else f["wins"]
    for name in order.index:
        row = [name]
        if f["villain_wins"] is not None:
            row.append(pct(f["villain_wins"][name]))
        if f["strength"] is not None:
            row.append(pct(f["wins"][name]))
        rows.append(row)
    model = ("The war to 3 victories, courtiers renewed between battles, solved exactly; "
             "a courtier's strength is its mean war win probability over rivals, both seats; "
             "villains left out." if f["strength"] is not None else "")
    if f["villain_wins"] is not None:
        model = (f"{R.villain_war_model(f['vw'])} A courtier's strength is its mean war win "
                 f"probability over rivals, both seats. Without villains: {model}")
    return Reply(QUESTION, one_line(render("cobardes/q_courtiers.md.j2", **f)),
                 table(heads, rows), one_line(render("cobardes/q_courtiers_more.md.j2", **f)),
                 f["headline"], model)
