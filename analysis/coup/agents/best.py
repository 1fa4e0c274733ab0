"""``best``: the strongest Coup agent for the table.

At 2 players it is the re-solving agent (:mod:`.resolve`), which beats the belief
agent in every deck and 2-player setup and the search agent by more still
(``benchmarks/results/coup_resolve_agent.txt``), as the belief agent beats search
(``benchmarks/results/coup_belief_agent.txt``) and search the blueprint
(``benchmarks/results/coup_targets.txt``). The re-solving agent that reads every decision
from its re-solve (:mod:`.resolve_mixed`, card choices and the draft pick included) takes
its place only once a local best response measures it less exploitable; at 3 to 8 players it is
the fast search agent (:mod:`.fast`: the search agent's play with compiled
roll-outs, measured among search agents in ``benchmarks/results/coup_fast_agent_pooled.txt``).
The name it stood for is kept with every result played by ``best``.
"""

from __future__ import annotations

import json

import pyspiel

from analysis.coup.agents.fast import BUDGET, FastSearchAgent
from analysis.coup.agents.resolve import ResolveAgent
from analysis.coup.model import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from analysis.shared import store

# What ``best`` stands for, in a user's words, by the kind of agent: its name, how it
# plays, the data it reads and where its strength is measured.
BEHIND = {
    "MixedResolveAgent": ("resolve-mixed", "keeps the public beliefs over both players' hands "
                          "from every claim, block and reveal, re-solves the rest of the turn "
                          "over them at every decision (which card to lose, keep or show and "
                          "the draft pick too) and mixes its moves at the rates it finds",
                          "benchmarks/results/coup_resolve_mixed_agent.txt"),
    "ResolveAgent": ("resolve", "keeps the public beliefs over both players' hands from every "
                     "claim, block and reveal, re-solves the rest of the turn over them at "
                     "each decision and mixes its moves at the rates it finds",
                     "benchmarks/results/coup_resolve_agent.txt"),
    "BeliefSearchAgent": ("belief", "remembers every claim, block and reveal, weighs the "
                          "opponent's possible hands by Bayes' rule, then searches",
                          "benchmarks/results/coup_belief_agent.txt"),
    "SearchAgent": ("search", "deals the unseen cards from what the table showed and "
                    "compares moves with short roll-outs",
                    "benchmarks/results/coup_search_agent.txt"),
    "FastSearchAgent": ("fast", "plays as search does, with compiled roll-outs and twice "
                        "the deals at a turn action",
                        "benchmarks/results/coup_fast_agent_pooled.txt"),
    "WeighedAgent": ("weighed", "plays as fast does, dealing its worlds from beliefs weighed "
                     "by every claim and reveal", "benchmarks/results/coup_ladder.txt"),
}


# The agents ``best`` has stood for, in a sentence's words, by the kind stored with results.
AGENT_WORDS = {"MixedResolveAgent": "the re-solving agent, every decision mixed",
               "ResolveAgent": "the re-solving agent", "BeliefSearchAgent": "the belief agent",
               "SearchAgent": "information-set search", "FastSearchAgent": "information-set search, compiled",
               "WeighedAgent": "information-set search over weighed beliefs",
               "BlueprintAgent": "the blueprint"}


def agent_name(kind: str) -> str:
    """The user's name of the agent whose class is ``kind`` (as stored with results that
    ``best`` played: "BeliefSearchAgent" -> "belief")."""
    if kind == "BlueprintAgent":
        return "blueprint"
    return BEHIND[kind][0] if kind in BEHIND else kind


def best_kind(players: int) -> str:
    """The kind of agent ``best`` stands for at a table of ``players`` (its class name, as
    kept with results): the re-solving agent at 2 players, the fast search agent at 3 to 8."""
    return "ResolveAgent" if players == 2 else "FastSearchAgent"


def best_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The re-solving agent at 2 players, the fast search agent at 3 to 8."""
    if best_kind(game.num_players()) == "ResolveAgent":
        return ResolveAgent(game, seat, seed)
    return FastSearchAgent(game, seat, seed, BUDGET)


def behind_best(game: pyspiel.Game) -> dict:
    """The agent ``best`` is at this table: its name, how it plays, the data it reads
    (none: it computes as it plays), its measured strength and where it is measured."""
    return about_kind(type(best_bot(game, 0, 0)).__name__)


def about_kind(kind: str) -> dict:
    """:func:`behind_best` for the agent whose class is ``kind`` (as stored with results
    ``best`` played; the blueprint's strength is in its own summary)."""
    if kind not in BEHIND:
        return {"agent": agent_name(kind), "plays": AGENT_WORDS.get(kind, kind),
                "data": "its stored strategy", "strength": "see farol coup blueprint info",
                "strength_measured_in": "the blueprint's summary"}
    name, about, measured = BEHIND[kind]
    strength = strength_summary(measured) + exploited(name)
    return {"agent": name, "plays": about, "data": "none (it computes as it plays)",
            "strength": strength, "strength_measured_in": measured}


def measured_agent(line: dict) -> str:
    """The agent a line of ``benchmarks/results/coup_exploiter.json`` measured: its name,
    or the agent ``best`` stood for (lines stored without ``plays`` were measured when
    ``best`` was ``belief`` at 2 players)."""
    return line.get("plays", "belief") if line["agent"] == "best" else line["agent"]


def exploited(name: str) -> str:
    """What the exploiter won against the agent called ``name``, as a lower bound; empty
    where not measured."""
    path = store.REPOSITORY / "benchmarks" / "results" / "coup_exploiter.json"
    try:
        lines = json.loads(path.read_text())["lines"]
    except (OSError, ValueError, KeyError):
        return ""
    for x in lines:
        if measured_agent(x) == name:
            lo, hi = x["gain_ci95"]
            where = "(benchmarks/results/coup_exploiter.txt)"
            if x["gain"] <= 0:
                return (f"; at 2 players an exploiter that learns its play showed no gain "
                        f"against it ({x['gain']:+z.2f} of a game [{lo:+z.2f}, {hi:+z.2f}]), "
                        f"which bounds nothing: a stronger one might gain {where}")
            return (f"; at 2 players a best response gains at least {x['gain']:+z.2f} of a "
                    f"game against it [{lo:+z.2f}, {hi:+z.2f}] {where}")
    return ""


def strength_summary(measured: str) -> str:
    """The committed benchmark's result in a few words, with its 95% interval."""
    path = store.REPOSITORY / measured.replace(".txt", ".json")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return "not measured in this copy of Farol"
    if "strength" in data:
        x = data["strength"]
        lo, hi = x["ci95_over_deals"]
        return (f"wins {100 * x['win_rate']:z.1f}% [{100 * lo:z.1f}, {100 * hi:z.1f}] at a "
                f"{x['players']}-player table of search agents (fair share "
                f"{100 * x['fair_share']:z.0f}%, {x['games']:,} games of duplicate deals)")
    if "matches" in data and data["matches"] and "deck" in data["matches"][0]:
        lines = data["matches"]
        above = sum(x["above_half"] for x in lines)
        top = next((x for x in lines if x["opponent"] == "search"), lines[0])
        lo, hi = top["ci95"]
        return (f"wins {100 * top['win_rate']:z.1f}% [{100 * lo:z.1f}, {100 * hi:z.1f}] against "
                f"{top['opponent']} ({top['deck']}, {top['setup']}, {top['games']:,} games); "
                f"above 50% in {above} of {len(lines)} deck, setup and opponent lines")
    lines = data.get("matches", [])
    above = sum(x["above_fair"] for x in lines)
    return (f"above the fair share in {above} of {len(lines)} lines against the panel at "
            f"{', '.join(str(p) for p in sorted({x['players'] for x in lines}))} players")


register_bot(BotSpec("best", "the strongest Coup agent: resolve-mixed at 2 players, fast at 3-8",
                     best_bot, games=(GAME,), about=behind_best))
