"""Goat Lords' balance with the strong agent in every seat: what is measured so far.

Facts (the games played of each experiment of :func:`analysis.goat_lords.studies.plan.strong_plan`)
→ chart (the first seat's win rate by player count, both scorings) → text. Nothing is
played here: ``farol goat-lords balance`` plays the games, resumable.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.balance import BalanceTables, is_finished
from analysis.goat_lords.studies.plan import HEADROOM, SCORINGS, STRONG_BOT, aim, load_strong
from analysis.report.context import ReportContext
from analysis.report.templating import fill, render


def strong_facts(quick: bool) -> BalanceTables:
    """The strong-agent balance tables from the games stored so far."""
    return BalanceTables.from_results(load_strong(quick))


def _players_words(players) -> str:
    """``2–6`` for a run of player counts, else ``2 and 4``."""
    ps = sorted(int(p) for p in players)
    if len(ps) > 2 and ps == list(range(ps[0], ps[-1] + 1)):
        return f"{ps[0]}–{ps[-1]}"
    return ", ".join(map(str, ps[:-1])) + (" and " if len(ps) > 1 else "") + str(ps[-1])


def slope_facts(facts: BalanceTables) -> dict | None:
    """Where a table has both the observed slope and the experiment finished: in how many
    the slope's interval lies above the experiment's (``above`` of ``pairs``), with the
    smallest such table of each scoring (``examples``); None where in none (the experiment
    is the answer)."""
    received, wild = facts.wild_received, facts.wild
    slopes = received[is_finished(received)].set_index(["scoring", "players"])
    pairs = [(w, slopes.loc[(w.scoring, w.players)])
             for w in wild[is_finished(wild)].itertuples()
             if (w.scoring, w.players) in slopes.index]
    above = [(w, s) for w, s in pairs if s.lo > w.hi]
    if not above:
        return None
    smallest = {}
    for w, s in sorted(above, key=lambda p: p[0].players):
        smallest.setdefault(w.scoring, (w, s))
    return {"above": len(above), "pairs": len(pairs),
            "examples": [(sc, w, s) for sc, (w, s) in smallest.items()]}


def _slope_against_experiment(facts: BalanceTables) -> list[str]:
    """The sentence setting the observed slope against the experiment, after a blank line
    (none where the slope lies above in no table)."""
    f = slope_facts(facts)
    return [] if f is None else ["", render("goat_lords/appendix/strong_slope.md.j2", **f)]


def _progress(facts: BalanceTables) -> str:
    """How many of the planned games are played, and how to play the rest."""
    return render("goat_lords/appendix/strong_progress.md.j2", played=facts.played,
                  planned=facts.planned)


def strong_section(ctx: ReportContext) -> str:
    facts = strong_facts(ctx.quick)
    name, _, sims = STRONG_BOT.partition(":")
    measured = facts.seats.dropna(subset=["edge"])
    if not measured.empty:
        fig, ax = plt.subplots(figsize=(6, 3.4))
        for k, scoring in enumerate(SCORINGS):
            pts = measured[measured["scoring"] == scoring]
            if pts.empty:
                continue
            ax.errorbar(pts["players"] + (k - 0.5) * 0.12, 100 * pts["edge"],
                        yerr=[100 * (pts["edge"] - pts["lo"]), 100 * (pts["hi"] - pts["edge"])],
                        fmt="o", capsize=3, label=f"{scoring} scoring")
        ax.axhline(0.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("players")
        ax.set_ylabel("first seat's win rate − fair share (pp)")
        ax.set_title("First seat with the strong agent in every seat")
        ax.legend(fontsize=8)
        path = ctx.save_figure(fig, "strong_first_seat")
        plt.close(fig)
    else:
        path = ""
    return fill("goat_lords/appendix/strong.md.j2", bot=name, sims=sims, aim2=aim(2),
                aim3=aim(3), headroom=HEADROOM, played=facts.played, planned=facts.planned,
                seats=list(facts.seats.itertuples()), wild=list(facts.wild.itertuples()),
                wild_at={sc: _players_words(g["players"])
                         for sc, g in facts.wild.groupby("scoring")},
                received=list(facts.wild_received.itertuples()), slope=slope_facts(facts),
                values=list(facts.values.itertuples()), finished=facts.finished(),
                misses=facts.misses(), chart=path)
