"""Benchmark: a 2-player agent (``belief`` by default, or ``resolve``) against the
reference panel and the search agent, in every deck and 2-player setup, and how long it
takes to decide.

For each deck (ambassador, inquisitor), setup (basic, standard, draft) and opponent
(``honest``, ``bluffer``, ``bluffer-bold``, ``search``; ``blueprint`` too where its
tables are built on this machine), a match of ``--games`` seeded games with the seats
rotated, each deal played from both seats (duplicate deals: ``farol coup match --agents
belief,X --duplicate``). Each line gives the agent's win rate with its 95% interval over
deals and whether the interval lies wholly above 50%. Every
decision of the agent with a choice is timed on one core: the median and the 95th
percentile.

``--agent resolve`` measures the re-solving agent, with ``belief`` added to its
opponents; ``--agent resolve-blueprint`` the re-solving agent whose re-solves stop on the
blueprint's values (dealt setups only: ``--setups basic,standard``), with ``resolve``
added; ``--opponents``, ``--decks`` and ``--setups`` measure only some lines.
Finished games are kept under the cache folder (one folder per commit), so a stopped
run resumes. A run of some lines keeps the other lines of the results file as they were,
each with the commit and games it was measured with, so the panel can be filled in over
several runs. Run: ``.venv/bin/python benchmarks/coup_belief_agent.py [--games 1000]
[--agent resolve]``; writes ``benchmarks/results/coup_<agent>_agent.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cli import bots
from analysis.coup.agents.blueprint import load_deck_blueprint
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.match import play_match
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version
from games.coup import cards as C
from games.errors import InvalidParameterError

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"
AGENT = "belief"
PANEL = ("honest", "bluffer", "bluffer-bold", "search")
# Each agent's opponents: the panel, and for a challenger the agent it would replace.
OPPONENTS = {"belief": PANEL, "resolve": ("belief",) + PANEL,
             "resolve-blueprint": ("resolve",) + PANEL}
SETUPS = ("basic", "standard", "draft")
_TIMES: list[float] = []


def timed_build(name: str, game: pyspiel.Game, seat: int, seed: int):
    """The named bot; the measured agent's decisions with a choice are timed."""
    bot = bots.build(name, game, seat, seed)
    if name != AGENT:
        return bot

    def act(state):
        several = len(state.legal_actions(seat)) > 1
        start = time.perf_counter()
        action = bot(state)
        if several:
            _TIMES.append(time.perf_counter() - start)
        return action

    return act


def blueprint_built(deck: str) -> bool:
    try:
        load_deck_blueprint(deck, str(store.cache_root()))
    except InvalidParameterError:
        return False
    return True


def line(deck: str, setup: str, opponent: str, games_n: int, seed: int, folder: Path) -> dict:
    params = {"deck": deck, "two_player_setup": setup}
    start = time.perf_counter()
    result = play_match(GAME, (AGENT, opponent), games_n, seed, params, build=timed_build,
                        record=folder / f"{deck}_{setup}_{opponent}.jsonl", deal=deal_chance)
    total = next(r for r in result.totals() if r.agent == AGENT)
    return {"deck": deck, "setup": setup, "opponent": opponent, "games": games_n,
            "commit": code_commit(), "wins": total.wins, "win_rate": total.win_rate, "ci95": list(total.ci95),
            "above_half": total.ci95[0] > 0.5, "seconds": time.perf_counter() - start}


def describe(x: dict, now: str = "") -> str:
    lo, hi = x["ci95"]
    verdict = "above 50%" if x["above_half"] else "NOT above 50%"
    made = "" if x.get("commit", now) == now else f"  (commit {x['commit'][:12]})"
    return (f"{x['deck']:<10} {x['setup']:<8} vs {x['opponent']:<12} {x['games']:>5} games  "
            f"{x['win_rate']:6.1%} [{lo:.1%}, {hi:.1%}]  {verdict}{made}")


def kept_lines(out: Path, run: list[dict]) -> tuple[list[dict], dict | None]:
    """The lines of the stored results not measured in this run, and its stored timing."""
    path = out / f"coup_{AGENT}_agent.json"
    if not path.exists():
        return [], None
    stored = json.loads(path.read_text())
    ran = {(x["deck"], x["setup"], x["opponent"]) for x in run}
    kept = [x | {"commit": x.get("commit", stored["commit"])} for x in stored["matches"]
            if (x["deck"], x["setup"], x["opponent"]) not in ran]
    return kept, stored.get("decision_ms")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games a line (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--agent", default="belief", choices=sorted(OPPONENTS),
                        help="the agent measured (default belief)")
    parser.add_argument("--opponents", default=None, help="comma list (default: all)")
    parser.add_argument("--decks", default=",".join(C.DECKS), help="comma list")
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma list")
    args = results_file.parse_args(parser, argv)
    global AGENT
    AGENT = args.agent
    commit = code_commit().replace("+changes", "_changed")[:20]
    folder = store.cache(f"coup_{AGENT}_agent",
                         f"duplicate_seed{args.seed}_games{args.games}_{commit}")
    folder.mkdir(parents=True, exist_ok=True)
    header = [
        f"machine: {machine(load=False)}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        f"the {AGENT} agent in one seat, the opponent in the other, each deal played from "
        "both seats (duplicate deals); win rate [95% interval over deals]",
    ]
    print("\n".join(header), flush=True)
    lines = []
    chosen = OPPONENTS[AGENT] if args.opponents is None else tuple(args.opponents.split(","))
    for deck in args.decks.split(","):
        extra = ("blueprint",) if "blueprint" not in chosen and blueprint_built(deck) else ()
        opponents = chosen + extra
        for setup in args.setups.split(","):
            for opponent in opponents:
                x = line(deck, setup, opponent, args.games, args.seed, folder)
                lines.append(x)
                print(describe(x), flush=True)
    kept, stored_ms = kept_lines(args.out, lines)
    order = {(d, s_, o): i for i, (d, s_, o) in enumerate(
        (d, s_, o) for d in C.DECKS for s_ in SETUPS for o in OPPONENTS[AGENT] + ("blueprint",))}
    lines = sorted(kept + lines, key=lambda x: order.get((x["deck"], x["setup"], x["opponent"]), 0))
    times = np.array(_TIMES) if _TIMES else np.zeros(1)
    missed = [f"{x['deck']} {x['setup']} vs {x['opponent']}" for x in lines if not x["above_half"]]
    built = [d for d in C.DECKS if any(x["deck"] == d and x["opponent"] == "blueprint"
                                       for x in lines)]
    summary = [
        "lines whose interval is not wholly above 50%: " + (", ".join(missed) or "none"),
        "blueprint opponent: " + (", ".join(built) if built else
                                  "not measured (its strategy was not built where these lines were played)"),
        f"decisions with a choice timed: {len(_TIMES)} (games kept from a stopped run are not "
        f"timed); median {1000 * float(np.median(times)):.1f} ms, 95th percentile "
        f"{1000 * float(np.percentile(times, 95)):.1f} ms, slowest {1000 * float(times.max()):.0f} ms",
    ]
    print("\n".join(summary))
    timing = ({"timed": len(_TIMES), "median": 1000 * float(np.median(times)),
               "p95": 1000 * float(np.percentile(times, 95)), "max": 1000 * float(times.max()),
               "commit": code_commit()} if _TIMES or stored_ms is None else stored_ms)
    if not _TIMES and stored_ms is not None:
        summary[-1] = (f"decisions with a choice timed (commit {stored_ms.get('commit', '?')[:12]}): "
                       f"{stored_ms['timed']}; median {stored_ms['median']:.1f} ms, 95th percentile "
                       f"{stored_ms['p95']:.1f} ms, slowest {stored_ms['max']:.0f} ms")
    now = code_commit()
    text = header + [describe(x, now) for x in lines] + summary
    record = {"version": farol_version(), "commit": now, "seed": args.seed,
              "agent": AGENT, "games": args.games, "matches": lines,
              "decision_ms": timing, "lines": text}
    save(args.out, f"coup_{AGENT}_agent", text, record)


if __name__ == "__main__":
    main()
