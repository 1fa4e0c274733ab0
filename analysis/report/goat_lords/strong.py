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
from analysis.report.markdown import pct_ci, pp


def strong_facts(quick: bool) -> BalanceTables:
    """The strong-agent balance tables from the games stored so far."""
    return BalanceTables.from_results(load_strong(quick))


def _nan(x: float) -> bool:
    return x != x


def _edge(edge: float, lo: float, hi: float) -> str:
    return "—" if _nan(edge) else pp(edge, (lo, hi))


def _pct(rate: float, lo: float, hi: float) -> str:
    return "—" if _nan(rate) else pct_ci(rate, (lo, hi))


def _games(row) -> str:
    return f"{row.games:,} of {row.planned:,}"


def _players_words(players) -> str:
    """``2–6`` for a run of player counts, else ``2 and 4``."""
    ps = sorted(int(p) for p in players)
    if len(ps) > 2 and ps == list(range(ps[0], ps[-1] + 1)):
        return f"{ps[0]}–{ps[-1]}"
    return ", ".join(map(str, ps[:-1])) + (" and " if len(ps) > 1 else "") + str(ps[-1])


def _slope_against_experiment(facts: BalanceTables) -> list[str]:
    """Where a table has both the observed slope and the experiment finished: in how many the
    slope's interval lies above the experiment's, with the smallest table of each scoring as
    the example (the experiment is the answer)."""
    received, wild = facts.wild_received, facts.wild
    slopes = received[is_finished(received)].set_index(["scoring", "players"])
    pairs = [(w, slopes.loc[(w.scoring, w.players)])
             for w in wild[is_finished(wild)].itertuples()
             if (w.scoring, w.players) in slopes.index]
    above = [(w, s) for w, s in pairs if s.lo > w.hi]
    if not above:
        return []
    smallest = {}
    for w, s in sorted(above, key=lambda p: p[0].players):
        smallest.setdefault(w.scoring, (w, s))
    examples = "; ".join(f"{sc} scoring at {w.players} players, {_edge(s.slope, s.lo, s.hi)} "
                         f"against {_edge(w.gain, w.lo, w.hi)}"
                         for sc, (w, s) in smallest.items())
    where = ("In the one table where both are measured" if len(pairs) == 1 else
             f"In {len(above)} of the {len(pairs)} tables where both are measured")
    return ["", f"{where}, the observed slope lies above the experiment's interval ({examples}). "
            "The slope mixes the card with what comes with receiving it, so the experiment is "
            "the answer and the slope only a description."]


def _progress(facts: BalanceTables) -> str:
    """How many of the planned games are played, and how to play the rest."""
    if facts.played >= facts.planned:
        return (f"All {facts.planned:,} planned games are played; "
                "`farol goat-lords balance --status` lists each table.")
    return (f"Games played so far: {facts.played:,} of {facts.planned:,}; "
            "`farol goat-lords balance` plays the rest (resumable) and this section shows "
            "each answer as its games come in.")


def strong_section(ctx: ReportContext) -> str:
    facts = strong_facts(ctx.quick)
    name, _, sims = STRONG_BOT.partition(":")
    bot = f"`{name}` at {sims} simulations a move"
    lines = ["## Balance with the strong agent\n",
             f"The same questions with {bot} in every seat (the search agent that beats the "
             "greedy bot; see *Bot strength*), for both scorings: `single` (one round, most "
             "points wins) and `rounds` (rounds to 1,000 points). Each table is sized for a "
             f"95% interval of ±{100 * aim(2):zg} points at 2 players and ±{100 * aim(3):zg} "
             f"beyond, for a seat winning up to {100 * HEADROOM:zg} points more than its fair "
             "share. "
             + _progress(facts) + "\n",
             "| scoring | players | games | first seat − fair | attacker wins a duel |",
             "|---|---|---|---|---|"]
    for r in facts.seats.itertuples():
        lines.append(f"| {r.scoring} | {r.players} | {_games(r)} | {_edge(r.edge, r.lo, r.hi)} | "
                     f"{_pct(r.attacker, r.attacker_lo, r.attacker_hi)} |")
    at = {sc: _players_words(g["players"]) for sc, g in facts.wild.groupby("scoring")}
    lines += ["", f"One more wild in the opening hand, in one round at {at.get('single', '–')} "
              f"players and in the rulebook's game at {at.get('rounds', '–')} (the hand of its "
              "first round; a game of rounds costs several times a round). "
              "Game *i* of the seat table is dealt again "
              "with seat *i* mod *n* (every seat in turn) swapping its cheapest goat for a wild. "
              "The answer is that seat's win rate minus its fair share: without the wild, a seat "
              "taken in turn wins exactly its fair share on average, because the win shares of a "
              "game add up to one. The last column checks it against the same deal played "
              "without the wild, a noisier comparison since the two games soon part ways.\n",
              "| scoring | players | games | win rate with the wild | gained over the fair share | "
              "gained over the same deal without it |", "|---|---|---|---|---|---|"]
    for r in facts.wild.itertuples():
        lines.append(f"| {r.scoring} | {r.players} | {_games(r)} | "
                     f"{_pct(r.win_rate, r.win_rate - r.half, r.win_rate + r.half)} | "
                     f"{_edge(r.gain, r.lo, r.hi)} | {_edge(r.paired, r.paired_lo, r.paired_hi)} |")
    lines += ["", "Each wild a seat receives over a game (dealt or drawn), in both scorings: the "
              "slope of its win share on the wilds it received, from the seat games above. This is "
              "observational (a wild comes with the luck of the draw); intervals are clustered by "
              "game.\n",
              "| scoring | players | games | win rate per wild received |", "|---|---|---|---|"]
    for r in facts.wild_received.itertuples():
        lines.append(f"| {r.scoring} | {r.players} | {_games(r)} | {_edge(r.slope, r.lo, r.hi)} |")
    lines += _slope_against_experiment(facts)
    lines += ["", "Other point values (single scoring; the agent plays by the values):\n",
              "| values | players | games | first seat − fair |", "|---|---|---|---|"]
    for r in facts.values.itertuples():
        lines.append(f"| {r.values} | {r.players} | {_games(r)} | {_edge(r.edge, r.lo, r.hi)} |")
    misses = facts.misses()
    finished = facts.finished()
    if finished:
        lines.append("\n" + (f"Every finished table ({finished}) has its intervals within the aim."
                             if not misses else
                             f"{finished - len(misses)} of {finished} finished tables have their "
                             "intervals within the aim; wider: " + ", ".join(misses) + "."))
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
        lines.append(f"\n![First seat with the strong agent]({path})")
    return "\n".join(lines)
