"""The 2-player game from the deal: sizes, brackets and the first mover's edge."""

from __future__ import annotations

import numpy as np

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import full_game
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, solve_cells, span
from analysis.report.guides.coup.readers import (
    full_game_best,
    markov_brackets,
    plain_brackets,
    tightest,
)
from games.coup import cards as C


def _endgame_first_mover() -> list[str]:
    """What the brackets say for sure about moving first in the 1v1 endgames."""
    by_cap = plain_brackets()
    if not by_cap:
        return []
    tight = tightest(by_cap, markov_brackets())
    cell = {(r.deck, r.mover, r.other): r for r in tight.itertuples()}
    pairs = [(a, a) for a in range(7)] + [(1, 2)]
    out = ["\nIn the 1v1 endgames the brackets give the first-mover question answers that hold "
           "without a cap. At equal coins, and for the 1-coin rule's analogue (1 coin "
           "against 2, to set beside 2/2), the mover's win probability lies in (the tightest "
           "bracket of each endgame over every cap and both ways of pricing the cap, as in "
           "*Pricing the cap*):\n",
           "| deck | " + " | ".join(f"{a}/{b}" for a, b in pairs) + " |",
           "|---" * (len(pairs) + 1) + "|"]
    for deck in C.DECKS:
        if not all((deck, *p) in cell for p in pairs):
            continue
        out.append(f"| {deck} | " + " | ".join(
            f"{cell[(deck, *p)].lower_win:z.3f}-{cell[(deck, *p)].upper_win:z.3f}"
            for p in pairs) + " |")
    out.append("\nA lower end above 0.5 means the player to move is favoured for sure; "
               "where the bracket straddles 0.5 the question stays open.\n")
    return out


# With two cards each, a passive player cannot be beaten within this many turns.
PASSIVE_OPEN_CAP = 6


def section_full_game(ctx: ReportContext) -> str:
    """The full 2-player game's first-player advantage: what is reachable and why not more."""
    lines = ["## The full 2-player game: first-player advantage\n"]
    try:
        rows = full_game.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return "\n".join(lines + ["Not run yet: `farol coup full-game`."])
    lines += [
        "The first player's value in the 2-player game from the deal (two cards each, seat 0 "
        "starts), with the 1-coin rule (`two_player_setup=basic`) or both starting with 2 "
        "coins (`standard`), bracketed as above where the perfect-recall tree fits:\n",
        "| setup | deck | cap | est. histories | status | histories | compile s (nodes/s) | "
        "bracket, first player's win prob. | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r.setup, r.deck, r.turn_cap)):
        done = r.status == "bracketed"
        # Up to cap 6 the bracket is [0, 1] by the passive-player argument below.
        status = r.status if done else "not compiled"
        known = "0-1 (argument below)" if r.turn_cap <= PASSIVE_OPEN_CAP else "–"
        lines.append(
            f"| {r.setup} | {r.deck} | {r.turn_cap} | {r.estimated_tree_nodes:z.2g} | "
            f"{status} | {fmt(r.nodes, ',')} | "
            + (f"{r.compile_seconds:z.0f} ({r.nodes_per_second:z,.0f}) | "
               f"{r.lower_win:z.3f}-{r.upper_win:z.3f} | " + solve_cells(r)
               if done else f"– | {known} | – | – |"))
    est = {(r.deck, r.turn_cap): r.estimated_tree_nodes for r in rows.values()}
    rates = [r.nodes_per_second for r in rows.values() if r.status == "bracketed"]
    rate = max(rates) if rates else None
    lines.append(
        f"\n(solver: {SOLVER}; the estimates are Knuth's random probes, 400 a case.)\n")
    if rate:
        parts = []
        for (deck, cap), n in sorted(est.items()):
            if cap in (2, 7):
                hours = n / rate / 3600
                time_text = f"{hours:z.1f} h" if hours < 1e3 else f"{hours / 8766:z.1g} years"
                parts.append(f"{deck} cap {cap}: ~{n:z.1g} histories, ~{n * 140 / 1e9:z.1g} GB "
                             f"and ~{time_text} of compiling")
        lines.append(
            "**Not reachable, and why.** With two cards each, a player who only takes Income "
            "and never challenges or blocks loses cards only to an Assassinate (3 coins) or a "
            "Coup (7 coins). Beating them takes two of these, 6 coins spent from at most 2, "
            "gaining at most 3 a turn: four turns of one's own. So the first player cannot win "
            "before the 7th turn against that passive play, nor the second player before the "
            "8th, and the bracket is exactly [0, 1] (as win probabilities) for every cap up to "
            "6, whatever is solved: the cap-1 solve above confirms it. A bracket that says "
            "anything needs a cap of 7 at the very least. "
            f"The walk compiles at ~{rate:z,.0f} histories a second here and a compiled "
            "history costs ~140 bytes: "
            + "; ".join(parts) + ". The state-keyed abstraction fits larger caps but is an "
            "imperfect-recall approximation whose loss could only be measured against this "
            "same tree (see *Larger endgames*). So with the cap as a loss and as a win the "
            "full game's first-player advantage, under either setup and deck, is out of "
            "exact reach: the smallest cap-7 tree is "
            f"~10^{np.log10(min(n for (d, c), n in est.items() if c == 7) / 1e7):z.0f} times "
            "the 10^7 histories this machine can compile. Pricing the cap (next) narrows "
            "the bracket, a little.\n")
    lines += full_game_markov()
    lines += _endgame_first_mover()
    return "\n".join(lines)


def first_mover_bullet(by_cap: dict) -> list[str]:
    """The findings line on moving first at equal coins, from the tightest brackets."""
    tight = tightest(by_cap, markov_brackets())
    if tight.empty:
        return []
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[equal["lower_win"] > 0.5]
    if sure.empty:
        return []
    parts = [f"{deck}: " + ", ".join(f"{r.mover}/{r.mover} {r.lower_win:z.3f}-{r.upper_win:z.3f}"
                                     for r in g.sort_values("mover").itertuples())
             for deck, g in sure.groupby("deck")]
    rest = equal[equal["lower_win"] <= 0.5]
    straddle = bool(len(rest)) and bool((rest["upper_win"] >= 0.5).all())
    return ["- **Moving first at equal coins, without a cap**: the mover is favoured for sure "
            "(the tightest bracket's lower end above 1/2) at " + "; ".join(parts)
            + ("; at the other equal coin counts the brackets straddle 1/2" if straddle else "")
            + " (see *The full 2-player game*)."]


def full_game_bullet() -> str:
    """The findings line on the full game's first-player advantage."""
    best = full_game_best(full_game.load_markov_rows())
    if not best:
        return ("- **The full game's first-player advantage** is out of exact reach: its "
                "bracket is [0, 1] for every cap up to 6 (see *The full 2-player game*).")
    parts = [f"{lo:z.3f}-{hi:z.3f} ({deck}, {'1-coin rule' if setup == 'basic' else '2 coins each'})"
             for (setup, deck), (lo, hi, _) in sorted(best.items(), key=lambda kv: kv[0][::-1])]
    return ("- **The full game's first-player advantage**: with the cap priced by Markov "
            "guarantees, the first player's win probability lies in " + "; ".join(parts)
            + " (rigorous, wide; the plain bracket is [0, 1] up to cap 6; see *The full "
            "2-player game*).")


def full_game_markov() -> list[str]:
    """The full game's brackets with the cap priced by the whole game's Markov guarantees."""
    rows = full_game.load_markov_rows()
    if not rows:
        return ["**Pricing the cap.** Not run yet: `farol coup full-game --markov`.\n"]
    out = [
        "**Pricing the cap with Markov guarantees.** The argument above holds when the cap "
        "counts as a loss and as a win. Priced instead by what each player can guarantee "
        "from the position it stops (*Pricing the cap*: a Markov policy for the player, an "
        "opponent who sees every card), the bracket is no longer [0, 1], though with two "
        "cards each for many turns the opponent who sees the cards leaves little: the two "
        "players' guarantees at the deal add up to "
        + span(sum(r.markov["root_guarantee"]) for r in rows.values()) + ". The guarantees "
        "are solved on the position graph of the whole game (both setups' deals, one graph "
        "a deck); the first player's win probability lies in [W_0, 1 - W_1] at the deal "
        "already, and within the capped game's bracket where its tree fits:\n",
        "| setup | deck | cap | positions (edges) | guarantees s | at the deal | histories | "
        "compile s | bracket, first player's win prob. | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r.deck, r.setup, r.turn_cap)):
        m = r.markov
        lo, hi = r.root_bracket
        done = r.status == "bracketed"
        out.append(
            f"| {r.setup} | {r.deck} | {r.turn_cap} | {m['positions']:,} "
            f"({m['edges']:,}) | {m['seconds']:z.0f} | {lo:z.3f}-{hi:z.3f} | "
            + (f"{r.nodes:,} | {r.compile_seconds:z.0f} | "
               f"{r.lower_win:z.3f}-{r.upper_win:z.3f} | " + solve_cells(r)
               if done else f"– | – | {r.status} | – | – |"))
    best = full_game_best(rows)
    if best:
        parts = [f"{deck}, {'1-coin rule' if setup == 'basic' else '2 coins each'}: "
                 f"{lo:z.3f}-{hi:z.3f} (caps up to {cap})"
                 for (setup, deck), (lo, hi, cap) in sorted(best.items(), key=lambda kv: kv[0][::-1])]
        verdict = ("so the first player is favoured for sure"
                   if all(lo > 0.5 for lo, _, _ in best.values()) else
                   "so the second player is favoured for sure"
                   if all(hi < 0.5 for _, hi, _ in best.values()) else
                   "brackets that straddle 1/2: who is favoured stays open")
        out.append("\nThe tightest brackets of the first player's win probability (the "
                   "intersection over caps): "
                   + "; ".join(parts) + f"; {verdict}. (Solver: {SOLVER}, each side to "
                   "exploitability 1e-4 or 600 s; each end is a solved strategy's guarantee by "
                   "exact best response, so it holds whatever the exploitability.)\n")
    return out
