"""``farol whatif GAME --param K=V ...``: the designer's what-if. The game's balance
questions answered for the variant and for the printed rules side by side, each answer
with its 95% interval (or solved exactly) and the difference with its own; a Markdown page
with one chart under ``reports/whatif/<name>/`` and a short summary here. Resumable: the
games and solutions already kept are read, only the missing ones are played or solved.
"""

from __future__ import annotations

import argparse
import json

import matplotlib

from analysis.cli.lists import add_param_argument, comma_list
from analysis.cli.numbers import int_in
from analysis.cli.outputs import check_output_dir, with_schema
from analysis.cli.parser import add_examples
from analysis.play.whatif import WhatIfRequest, variant_name
from analysis.report.whatif import summary_lines, write_page
from analysis.shared import progress
from analysis.shared.params import parse_params
from analysis.wings import WINGS, by_command
from games.errors import InvalidParameterError


def _tables() -> str:
    """Each game's table sizes and default, as ``--players``'s help says them."""
    return "; ".join(f"{w.command} {w.players[0]}-{w.players[1]}, default {w.default_players}"
                     if w.players else f"{w.command} 2" for w in WINGS)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=[w.command for w in WINGS],
                        help=", ".join(w.command for w in WINGS))
    add_param_argument(parser, "a rule of the variant, e.g. --param assassination_cost=4 "
                               "(farol games lists them)")
    parser.add_argument("--players", type=int_in(2), default=None,
                        help=f"players at the table ({_tables()})")
    parser.add_argument("--agent", default=None,
                        help="the agent in every seat (default: "
                             + "; ".join(f"{w.command}: {w.whatif_agents}" for w in WINGS) + ")")
    parser.add_argument("--strong", default=None,
                        help="the strong agent of the skill measure (defaults as --agent says)")
    parser.add_argument("--skill-players", default=None, metavar="N,N,...",
                        help="player counts for the skill measure (default: --players)")
    parser.add_argument("--precision", type=float, default=0.02,
                        help="half-width of the 95%% interval aimed at for each seat's win rate "
                             "and the draw rate (default 0.02: ±2 points)")
    parser.add_argument("--skill-precision", type=float, default=None,
                        help="the same for the skill measure (default: the game's, 0.04 for "
                             "Coup, 0.05 for Goat Lords)")
    parser.add_argument("--max-games", type=int_in(10), default=6000,
                        help="the most games a question plays on each side (default 6000)")
    parser.add_argument("--seed", type=int_in(0), default=1, help="the seed (default 1)")
    parser.add_argument("--workers", type=int_in(1), default=1, help="worker processes (default 1)")
    parser.add_argument("--scheduler", default=None,
                        help="play on a Dask cluster: the scheduler's address (tcp://host:8786)")
    parser.add_argument("--name", default=None,
                        help="the page's folder under reports/whatif/ (default: the parameters)")
    parser.add_argument("--out", default="reports", help="output folder (default reports/)")
    parser.add_argument("--json", action="store_true", help="print the record as JSON")
    parser.set_defaults(func=run)
    add_examples(parser,
                 "farol whatif cobardes --param kinds=warriors --param victories=2",
                 "farol whatif coup --param assassination_cost=4 --players 2",
                 "farol whatif goat-lords --param hand_size=5 --players 3")


def counts(text: str | None, low: int, high: int) -> tuple[int, ...] | None:
    """``--skill-players`` as player counts (one-line error otherwise)."""
    if text is None:
        return None
    out = []
    for item in comma_list("--skill-players", text):
        if not item.isdigit() or not low <= int(item) <= high:
            raise InvalidParameterError(f"--skill-players: {item!r} is not a player count "
                                        f"from {low} to {high}")
        out.append(int(item))
    return tuple(out)


def skill_counts(wing, text: str | None) -> tuple[int, ...] | None:
    """``--skill-players`` for ``wing``: refused in one line where its what-if has no
    choice of table."""
    if text is None:
        return None
    if wing.players is None:
        raise InvalidParameterError(f"--skill-players: the {wing.title} what-if is for two "
                                    "players; leave --skill-players out")
    return counts(text, *wing.players)


def run(args: argparse.Namespace) -> int:
    matplotlib.use("Agg")
    wing = by_command(args.game)
    outdir = check_output_dir(args.out, "--out")
    variant = parse_params(wing.whatif_game, args.param)
    if "players" in variant:
        raise InvalidParameterError("give the table's size with --players; --param is for the "
                                    "rules the variant changes")
    for option in ("precision", "skill_precision"):
        value = getattr(args, option)
        if value is not None and not 0 < value < 0.5:
            raise InvalidParameterError(f"--{option.replace('_', '-')} takes a half-width "
                                        f"between 0 and 0.5, not {value}")
    wing.check_players(args.players)
    name = args.name or variant_name(variant)
    request = WhatIfRequest(variant, players=args.players, agent=args.agent,
                            strong=args.strong, skill_players=skill_counts(wing, args.skill_players),
                            seed=args.seed, precision=args.precision,
                            skill_precision=args.skill_precision, max_games=args.max_games,
                            workers=args.workers, scheduler=args.scheduler,
                            progress=progress.shown(), name=name)
    result = wing.whatif(request)
    page = write_page(result, outdir)
    if args.json:
        print(json.dumps(with_schema("whatif", result.to_json()), indent=1))
        return 0
    print(f"What if {', '.join(f'{k}={v}' for k, v in variant.items()) or 'nothing changed'} "
          f"({args.game}); page: {page}")
    for line in summary_lines(result):
        print(f"  {line}")
    return 0
