"""The ¡Cobardes! report's opening: the findings in brief and how the battles are solved."""

from __future__ import annotations

from analysis.cobardes.model import initial_position, payoff_values
from analysis.cobardes.solvers import subgames
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.studies import balance, renewal
from analysis.report.cobardes import matchup_solve
from analysis.report.cobardes.common import army_text, battle_spec, duration_text
from analysis.report.cobardes.warriors import tip_facts
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes import courtiers, villains
from analysis.report.facts.cobardes.stored import load_renewal, villain_frame
from analysis.report.templating import fill, render
from analysis.shared.store import read_json
from analysis.solve.cfr import METHOD_NAMES
from games.cobardes import cards as C


def summary_section(ctx: ReportContext) -> str:
    """The findings in a few plain sentences (details and provenance follow)."""
    spec = battle_spec(ctx)
    cfg, pos, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    solver.value(pos)
    node = solver.node(pos)
    tables = balance.courtier_tables()
    wars = tables["war_win"]
    kept_war = one_battle = None
    if wars.notna().to_numpy().sum() >= 90:
        kept_war = balance.seat_neutral_strength(2 * wars - 1)
    elif tables["battle"].notna().to_numpy().sum() >= 90:
        one_battle = balance.seat_neutral_strength(tables["battle"])
    v = villains.facts()
    sol = load_renewal()
    renewed = None
    if sol is not None:
        rate = renewal.keep_shares(sol)
        renewed = {"residual": sol.residual,
                   "always": [c for c, r in rate.items() if r >= 0.999],
                   "never": [c for c, r in rate.items() if r <= 0.001]}
    reduced = None
    if subgames.hidden_villains_path().exists():
        h = read_json(subgames.hidden_villains_path())
        reduced = {"label": h["label"],
                   "strength": balance.seat_neutral_strength(villain_frame(h["table"])).dropna()}
    solved = matchup_solve.facts()
    if solved is not None and solved["record"] is not None:
        r = solved["record"]
        solved = {"record": r, "cpu": duration_text(solved["speed"]["new_total_cpu_seconds"]),
                  "method": METHOD_NAMES.get(r.method, r.method),
                  "strength": balance.seat_neutral_strength(villain_frame(r.deals)).dropna()}
    else:
        solved = None
    return fill("cobardes/appendix/summary.md.j2", army=army_text(spec), value=node.value,
                opening=[(C.CARD_NAMES[a], p) for a, p in
                         zip(node.actions, node.strategy, strict=True) if p >= 0.005],
                tips_hold=sum(tip_facts(spec)["holds"]), kept_war=kept_war,
                one_battle=one_battle, c=courtiers.facts(), v=v,
                villain_basis=villain_basis(v) if v["headline"] is not None else "",
                renewed=renewed, reduced=reduced, solved=solved)


def villain_basis(v: dict) -> str:
    """Over what the guide's villain values are a mean, and how accurate, in words."""
    return render("cobardes/appendix/villain_basis.md.j2", vv=v["v"], size=v["size"])


def method_section(ctx: ReportContext) -> str:
    return fill("cobardes/appendix/method.md.j2")
