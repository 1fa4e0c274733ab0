"""¡Cobardes!: which courtier is strongest, which weakest (in the war, courtiers renewed)?"""

from __future__ import annotations

from analysis.cobardes import balance
from analysis.report import svg
from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.markdown import pct

QUESTION = "Strongest and weakest courtier"


def facts() -> dict:
    sol = R.renewal()
    if sol is None:
        return {"strength": None, "headline": None, "command": R.RENEWAL}
    table = R.renewal_table(sol)
    strength = balance.seat_neutral_strength(table).dropna()
    wins = ((1 + strength) / 2).round(6)
    return {"table": table, "wins": wins, "best": wins.index[0], "worst": wins.index[-1],
            "strength": strength, "headline": f"{wins.index[0]} {pct(wins.iloc[0])}",
            "command": R.RENEWAL}


def chart(table) -> str:
    """Player 0's war win probability by pairing (hover: the pairing in words)."""
    names = list(table.index)
    values = [[None if table.loc[a, b] != table.loc[a, b] else 100 * (1 + table.loc[a, b]) / 2
               for b in names] for a in names]

    def hover(i: int, j: int, v: float) -> str:
        return (f"{names[i]} (first player) against {names[j]}: the first player wins "
                f"{v:.1f}% of wars")

    return svg.heatmap(values, names, names,
                       title="¡Cobardes!: first player's war win probability (%)",
                       xlabel="second player's courtier", ylabel="first player's courtier",
                       fmt=lambda v: f"{v:.0f}", hover=hover, vmin=25, vmax=75, cmap="RdBu",
                       blank="never dealt: each courtier card exists once")


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    if f["strength"] is None:
        return Answer(QUESTION, one_line(render("cobardes/courtiers.md.j2", **f)),
                      "The war with courtiers renewed.", None)
    name = ctx.save_svg(chart(f["table"]), "courtiers")
    detail = (f"![¡Cobardes!: the first player's war win probability by courtiers]({name})")
    model = ("The war to 3 victories, courtiers renewed between battles, solved exactly; "
             "a courtier's strength is its mean war win probability over rivals, both seats; "
             "villains left out.")
    return Answer(QUESTION, one_line(render("cobardes/courtiers.md.j2", **f)), model,
                  f["headline"], detail)
