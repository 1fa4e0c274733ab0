"""The 2-player game from the deal: sizes, brackets and the first mover's edge."""

from __future__ import annotations

import numpy as np

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import full_game
from analysis.report.context import ReportContext
from analysis.report.facts.coup.readers import (
    full_game_best,
    markov_brackets,
    plain_brackets,
    tightest,
)
from analysis.report.templating import fill, render
from games.coup import cards as C


def _endgame_first_mover() -> list[str]:
    """What the brackets say for sure about moving first in the 1v1 endgames."""
    by_cap = plain_brackets()
    if not by_cap:
        return []
    tight = tightest(by_cap, markov_brackets())
    cell = {(r.deck, r.mover, r.other): r for r in tight.itertuples()}
    pairs = [(a, a) for a in range(7)] + [(1, 2)]
    decks = [(deck, [cell[(deck, *p)] for p in pairs]) for deck in C.DECKS
             if all((deck, *p) in cell for p in pairs)]
    return [fill("coup/appendix/endgame_first_mover.md.j2", pairs=pairs, decks=decks)]


# With two cards each, a passive player cannot be beaten within this many turns.
PASSIVE_OPEN_CAP = 6


def section_full_game(ctx: ReportContext) -> str:
    """The full 2-player game's first-player advantage: what is reachable and why not more."""
    try:
        rows = full_game.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return fill("coup/appendix/full_game.md.j2", rows=None)
    est = {(r.deck, r.turn_cap): r.estimated_tree_nodes for r in rows.values()}
    rates = [r.nodes_per_second for r in rows.values() if r.status == "bracketed"]
    rate = max(rates) if rates else None
    reach, smallest_power = [], None
    if rate:
        reach = [(deck, cap, n, n / rate / 3600) for (deck, cap), n in sorted(est.items())
                 if cap in (2, 7)]
        smallest_power = np.log10(min(n for (d, c), n in est.items() if c == 7) / 1e7)
    return fill("coup/appendix/full_game.md.j2",
                rows=sorted(rows.values(), key=lambda r: (r.setup, r.deck, r.turn_cap)),
                passive_open_cap=PASSIVE_OPEN_CAP, solver=SOLVER, rate=rate, reach=reach,
                smallest_power=smallest_power, markov="\n".join(full_game_markov()),
                endgames="\n".join(_endgame_first_mover()))


def first_mover_bullet(by_cap: dict) -> list[str]:
    """The findings line on moving first at equal coins, from the tightest brackets."""
    tight = tightest(by_cap, markov_brackets())
    if tight.empty:
        return []
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[equal["lower_win"] > 0.5]
    if sure.empty:
        return []
    rest = equal[equal["lower_win"] <= 0.5]
    return [render("coup/appendix/first_mover_bullet.md.j2",
                   sure=[(deck, list(g.sort_values("mover").itertuples()))
                         for deck, g in sure.groupby("deck")],
                   straddle=bool(len(rest)) and bool((rest["upper_win"] >= 0.5).all()))]


def full_game_bullet() -> str:
    """The findings line on the full game's first-player advantage."""
    best = full_game_best(full_game.load_markov_rows())
    return render("coup/appendix/full_game_bullet.md.j2",
                  best=sorted(best.items(), key=lambda kv: kv[0][::-1]) if best else [])


def full_game_markov() -> list[str]:
    """The full game's brackets with the cap priced by the whole game's Markov guarantees."""
    rows = full_game.load_markov_rows()
    best = full_game_best(rows) if rows else {}
    verdict = ("so the first player is favoured for sure"
               if all(lo > 0.5 for lo, _, _ in best.values()) else
               "so the second player is favoured for sure"
               if all(hi < 0.5 for _, hi, _ in best.values()) else
               "brackets that straddle 1/2: who is favoured stays open")
    text = fill("coup/appendix/full_game_markov.md.j2",
                rows=sorted(rows.values(), key=lambda r: (r.deck, r.setup, r.turn_cap)),
                guarantee_sums=[sum(r.markov["root_guarantee"]) for r in rows.values()],
                best=sorted(best.items(), key=lambda kv: kv[0][::-1]), verdict=verdict,
                solver=SOLVER)
    return [text.rstrip("\n") + ("\n" if best or not rows else "")]
