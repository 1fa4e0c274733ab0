"""Larger endgames: 2v1, 1v2 and 2v2, as far as they fit."""

from __future__ import annotations

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import larger
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, solve_cells, span
from analysis.report.guides.coup.readers import markov_tightest


def larger_bullet() -> list[str]:
    """The findings line on two cards against one, from the 2v1/1v2 Markov brackets."""
    rows = larger.load_markov_rows()
    if not rows:
        return []
    tight = markov_tightest(rows, lambda r: (r.case, r.deck, r.position))
    two = [v for (case, _, _), v in tight.items() if case == "2v1"]
    one = [v for (case, _, _), v in tight.items() if case == "1v2"]
    if not two or not one:
        return []
    return [f"- **Two cards against one, without a cap** (2v1/1v2 at 1 and 3 coins each): the "
            f"mover with two cards wins with probability at least {min(lo for lo, _, _ in two):z.2f}, "
            f"the mover with one at most {max(hi for _, hi, _ in one):z.2f} (rigorous brackets "
            "with the cap priced by Markov guarantees; see *Larger endgames*)."]


def section_larger(ctx: ReportContext) -> str:
    lines = ["## Larger endgames\n"]
    try:
        rows = larger.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return "\n".join(lines + ["Not run yet: `farol coup larger`."])
    lines += [
        "2v1 (the mover has two face-down cards), 1v2 and 2v2, small coin counts, turn caps "
        "1-3. Where the perfect-recall tree fits (budget 1.5 million estimated histories) it "
        "is solved exactly (CFR+, target exploitability 1e-3); the state-keyed abstraction "
        "(graph mode, `infoset_key`: own cards plus the public position, forgetting the order "
        "of past events) is solved too, and its strategy's exploitability *in the "
        "perfect-recall game* is its loss. Where the two are close the abstraction loses "
        "little; where the loss is far above the exploitability within the abstraction "
        "(e.g. 1v2 with 3 coins each at cap 2), forgetting past claims costs real value.",
        "",
        "| case | position | deck | cap | est. histories | tree nodes | tree s | tree expl. | "
        "graph nodes | graph s | expl. in abstraction | loss in full game | value |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r.deck, r.position, r.turn_cap)):
        solved = r.status == "solved"
        tree_s = ((r.tree_compile_seconds or 0) + (r.tree_solve_seconds or 0)) \
            if solved else None
        graph_s = ((r.graph_compile_seconds or 0) + (r.graph_solve_seconds or 0)) \
            if r.graph_nodes is not None else None
        value = fmt(r.tree_value, "+.4f") if solved else (
            f"{r.graph_value:+z.4f} (abstraction)" if r.graph_value is not None else "–")
        lines.append(
            f"| {r.case} | `{r.position}` | {r.deck} | {r.turn_cap} | "
            f"{r.estimated_tree_nodes:z.3g} | {fmt(r.tree_nodes, ',')} | "
            f"{fmt(tree_s, '.1f')} | {fmt(r.tree_exploitability, '.1e')} | "
            f"{fmt(r.graph_nodes, ',')} | {fmt(graph_s, '.1f')} | "
            f"{fmt(r.graph_exploitability_in_abstraction, '.1e')} | "
            f"{fmt(r.abstraction_loss, '.1e')} | {value} |")
    lines.append("\n(solver: CFR+, Farol engine. Rows without a tree solve are over the tree "
                 "budget; where the abstraction alone fits it is solved for at most "
                 "120 s and its exploitability is measured within the abstraction only.)\n")
    lines += larger_markov()
    return "\n".join(lines)


def larger_markov() -> list[str]:
    """The 2v1 and 1v2 uncapped values, bracketed with the cap priced by Markov guarantees."""
    rows = larger.load_markov_rows()
    if not rows:
        return ["**Without a cap.** Not run yet: `farol coup larger --markov`.\n"]
    out = [
        "**Without a cap.** The values above are those of the capped games. The uncapped "
        "values of the 2v1 and 1v2 cases are bracketed as the 1v1 endgames are, the cap "
        "priced by each player's Markov guarantee (*Pricing the cap*), on the position graph "
        "of these four deals (one a deck). *At the deal* is `[W_0, 1 - W_1]` from the "
        "guarantees alone; the bracket is the mover's win probability:\n",
        "| case | position | deck | cap | positions | guarantees s | at the deal | histories | "
        "s | bracket | width | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r.deck, r.position, r.turn_cap)):
        m = r.markov
        lo, hi = r.root_bracket
        head = (f"| {r.case} | `{r.position}` | {r.deck} | {r.turn_cap} | "
                f"{m['positions']:,} | {m['seconds']:z.0f} | {lo:z.3f}-{hi:z.3f} | ")
        if r.status != "bracketed":
            out.append(head + f"– | – | {r.status} | – | – | – |")
            continue
        seconds = r.compile_seconds + r.low["seconds"] + r.high["seconds"]
        out.append(head + f"{r.nodes:,} | {seconds:z.0f} | {r.lower_win:z.4f}-"
                   f"{r.upper_win:z.4f} | {r.width:z.4f} | " + solve_cells(r))
    tight = {k: (lo, hi) for k, (lo, hi, _) in markov_tightest(
        rows, lambda r: (r.deck, r.case, r.position)).items()}
    parts = [f"{case} `{position}` ({deck}) {lo:z.3f}-{hi:z.3f}"
             for (deck, case, position), (lo, hi) in sorted(tight.items())]
    out.append("\nTightest bracket per case (over the caps and the deal): " + "; ".join(parts)
               + ". " + ("Two cards against one is favoured for sure whoever moves; "
                         if all(lo > 0.5 if case == "2v1" else hi < 0.5
                                for (_, case, _), (lo, hi) in tight.items()) else "")
               + f"the brackets stay {span(hi - lo for lo, hi in tight.values())} wide in "
               "win probability.")
    out.append(f"\n(solver: {SOLVER}, each side to exploitability 1e-4; each end is a solved "
               "strategy's guarantee by exact best response.)\n")
    return out
