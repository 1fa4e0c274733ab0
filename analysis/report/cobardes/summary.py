"""The ¡Cobardes! report's opening: the findings in brief and how the battles are solved."""

from __future__ import annotations

from analysis.cobardes.model import initial_position, payoff_values
from analysis.cobardes.solvers import subgames
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.studies import balance, renewal
from analysis.report.cobardes import matchup_solve
from analysis.report.cobardes.common import (
    army_text,
    battle_spec,
    duration_text,
    load_renewal,
    villain_frame,
)
from analysis.report.cobardes.warriors import tip_rows
from analysis.report.context import ReportContext
from analysis.report.guides.cobardes import courtiers, villains
from analysis.report.markdown import pct
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
    mix = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:z.0f}%" for a, p in
                    zip(node.actions, node.strategy, strict=True) if p >= 0.005)
    lines = ["## Findings in brief\n",
             f"* **Warriors only** ({army_text(spec)}), solved exactly: a fair battle "
             f"({node.value:+z.3f}). Open with {mix}. Of the rulebook's three tips for the "
             f"learning game, {sum(h for _, _, h in tip_rows(spec))} hold."]
    tables = balance.courtier_tables()
    wars = tables["war_win"]
    if wars.notna().to_numpy().sum() >= 90:
        strength = balance.seat_neutral_strength(2 * wars - 1)
        best, worst = strength.index[0], strength.index[-1]
        lines.append(
            f"* **Courtiers kept for the whole war** (all 90 pairings, exact, war composed "
            f"over the score; a simpler model than the guide's answer below): the "
            f"{best} is the strongest (mean war win probability "
            f"{(1 + strength.iloc[0]) / 2:z.2f} over opponents, both seats), the {worst} the "
            f"weakest ({(1 + strength.iloc[-1]) / 2:z.2f}).")
    elif tables["battle"].notna().to_numpy().sum() >= 90:
        strength = balance.seat_neutral_strength(tables["battle"])
        lines.append(
            f"* **Courtiers** (all 90 pairings, one battle, exact): the {strength.index[0]} "
            f"is the strongest ({strength.iloc[0]:+z.2f} mean battle value), the "
            f"{strength.index[-1]} the weakest ({strength.iloc[-1]:+z.2f}).")
    c = courtiers.facts()
    if c["strength"] is not None:
        lines.append(
            f"* **Strongest and weakest courtier without villains** (the war with "
            f"courtiers renewed between battles, solved exactly; the guide's variant once "
            f"the war with villains is composed): the {c['best']} is the "
            f"strongest ({pct(c['wins'].iloc[0])} of wars, exact), the {c['worst']} the weakest "
            f"({pct(c['wins'].iloc[-1])}).")
    v = villains.facts()
    if v["headline"] is not None:
        spread = v["v"].source == "partial"
        lines.append(
            f"* **Strongest and weakest villain, the guide's answer** (hidden, the full "
            f"battle, {villain_basis(v)}): the {v['best']} is worth most "
            f"({villain_text(v, v['best'], spread)}), the {v['worst']} least "
            f"({villain_text(v, v['worst'], spread)}).")
    sol = load_renewal()
    if sol is not None:
        strength = balance.seat_neutral_strength(renewal.value_table(sol)).dropna()
        rate = renewal.keep_shares(sol)
        always = [c for c, r in rate.items() if r >= 0.999]
        never = [c for c, r in rate.items() if r <= 0.001]
        lines.append(
            f"* **The war with courtiers renewed between battles** (keep-or-renew solved "
            f"inside the war; memoryless court deck, no villains; residual "
            f"{sol.residual:z.0e}), the model of the answer above. An unplayed courtier is always "
            f"kept: {', '.join(always) or 'none'}; never kept: {', '.join(never) or 'none'}.")
    if subgames.hidden_villains_path().exists():
        h = read_json(subgames.hidden_villains_path())
        deals = villain_frame(h["table"])
        strength = balance.seat_neutral_strength(deals).dropna()
        lines.append(
            f"* **Villains in a reduced battle** (hidden, {h['label']}; a smaller model "
            f"than the guide's answer, shown for the method): the {strength.index[0]} comes "
            f"first there ({strength.iloc[0]:+z.2f} a battle), the {strength.index[-1]} last "
            f"({strength.iloc[-1]:+z.2f}).")
    solved = matchup_solve.facts()
    if solved is not None and solved["record"] is not None:
        s, r = solved["speed"], solved["record"]
        strength = balance.seat_neutral_strength(villain_frame(r.deals)).dropna()
        lines.append(
            f"* **A full battle with hidden villains** ({r.pairing[0]} vs {r.pairing[1]}, all 9 "
            f"villains, warriors 0-6, 7 combats), as every matchup is solved: {r.nodes:,} trunk "
            f"nodes, {duration_text(s['new_total_cpu_seconds'])} of CPU in all, "
            f"{METHOD_NAMES.get(r.method, r.method)} until its exploitability stopped "
            f"improving ({r.iterations} iterations kept), exploitability within the abstraction "
            f"{r.exploitability_lower_bound:z.1e} (a lower bound on the true one). In this one "
            f"matchup, not the guide's answer, the {strength.index[0]} comes first "
            f"({strength.iloc[0]:+z.2f} a battle), the {strength.index[-1]} last "
            f"({strength.iloc[-1]:+z.2f}).")
    return "\n".join(lines)


def villain_basis(v: dict) -> str:
    """Over what the guide's villain values are a mean, and how accurate, in words."""
    vv = v["v"]
    solved = (f"by {vv.method} on a model that forgets the order of past moves (a best "
              f"response beats it by at least {vv.exploitability_at_least:z.3f})")
    if vv.source == "battle":
        return f"one courtier matchup, {vv.pairing}, solved {solved}"
    over = (f"every courtier matchup ({vv.matchups})" if vv.source == "sweep" else
            f"the {vv.matchups} of {v['size']} courtier matchups solved")
    return f"mean over {over}, each solved {solved}"


def villain_text(v: dict, name: str, spread: bool) -> str:
    """A villain's value as the guide gives it, with its range over the matchups."""
    vv = v["v"]
    text = f"{vv.values[name]:+z.2f} a battle"
    return text + (f"; {vv.low[name]:+z.2f} to {vv.high[name]:+z.2f} over the matchups"
                   if spread else "")


def method_section(ctx: ReportContext) -> str:
    return """## How the battles are solved

* **Warriors only, and warriors + courtiers** are games of public information: every
  card is on the table except the one each player is about to reveal. The value of
  a position depends only on the position, so we solve every battle by **backward
  induction over positions** (`analysis/cobardes/solvers/exact.py`): each face-down
  confrontation is a small zero-sum matrix game (up to 7 x 7) solved by linear
  programming (a dense simplex, checked against `scipy.optimize.linprog`); every
  other decision (vanguard and rearguard courtiers, a card played face up under the
  Fortune-Teller or the Maiden, an Archer or Sentinel change) is a maximum or minimum;
  the Inquisitor's draw is an expectation. Positions are the rules engine's own
  (`games/cobardes/engine.py`, keyed by `state_key()`), so no rule is re-implemented.
  The result is exact: exploitability 0 up to floating-point rounding.
* **Checks** (`tests/cobardes/test_cobardes_analysis.py`): OpenSpiel's own best response
  against the exact strategies, played in the OpenSpiel game, finds NashConv 0
  (below 1e-9) on reduced decks, with and without courtiers and with named villains,
  and on the whole warriors-only battle (a slow test);
  the solver engine's sequence-form LP on the perfect-recall tree gives the same values
  (to 1e-7); OpenSpiel's CFR+ on the tree and the engine's CFR+ on the state graph land
  within their exploitability of them; the war
  composition matches the engine's CFR on `python_cobardes_war` and a hand-worked case.
* **Villains** named for both players are public too (both know them) and are solved
  the same way. **Hidden villains** need the state-keyed engine (an imperfect-recall
  abstraction); its loss is measured below.
* Payoffs: a battle win is worth 1, the Crown 3, a draw 0, unless said otherwise
  (the war sections use the war's own values)."""
