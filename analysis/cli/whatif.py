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
from analysis.cobardes.studies import whatif as cobardes_whatif
from analysis.coup.studies import whatif as coup_whatif
from analysis.goat_lords.studies import whatif as goat_whatif
from analysis.play.whatif import variant_name
from analysis.report.whatif import summary_lines, write_page
from analysis.shared import progress
from analysis.shared.params import parse_params
from games.coup import cards as coup_cards
from games.errors import InvalidParameterError
from games.goat_lords import rules as goat_rules

GAMES = {"coup": "python_coup", "cobardes": "python_cobardes_war",
         "goat-lords": "python_goat_lords"}
# Each game's table sizes, as its rules give them.
PLAYERS = {"coup": (coup_cards.MIN_PLAYERS, coup_cards.MAX_PLAYERS, "Coup"),
           "cobardes": (2, 2, "¡Cobardes!"),
           "goat-lords": (goat_rules.MIN_PLAYERS, goat_rules.MAX_PLAYERS, "Goat Lords")}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(GAMES),
                        help="coup, cobardes (the war) or goat-lords")
    add_param_argument(parser, "a rule of the variant, e.g. --param assassination_cost=4 "
                               "(farol games lists them)")
    parser.add_argument("--players", type=int_in(1), default=None,
                        help="players at the table (Coup 2-8, Goat Lords 2-6; default 2, or 4 "
                             "for Coup)")
    parser.add_argument("--agent", default=None,
                        help="the agent in every seat (default: fast for Coup, greedy for "
                             "Goat Lords)")
    parser.add_argument("--strong", default=None,
                        help="the strong agent of the skill measure (default: fast for Coup, "
                             "lord:24 for Goat Lords; ¡Cobardes! scores its solved strategy "
                             "against random, exactly)")
    parser.add_argument("--skill-players", default=None, metavar="N,N,...",
                        help="player counts for the skill measure (default: --players)")
    parser.add_argument("--precision", type=float, default=0.02,
                        help="half-width of the 95%% interval aimed at for each seat's win rate "
                             "and the draw rate (default 0.02: ±2 points)")
    parser.add_argument("--skill-precision", type=float, default=None,
                        help="the same for the skill measure (default 0.04 Coup, 0.05 Goat Lords)")
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


def run(args: argparse.Namespace) -> int:
    matplotlib.use("Agg")
    outdir = check_output_dir(args.out, "--out")
    variant = parse_params(GAMES[args.game], args.param)
    low, high, title = PLAYERS[args.game]
    if args.players is not None and not low <= args.players <= high:
        sizes = f"{low}" if low == high else f"{low} to {high}"
        raise InvalidParameterError(f"--players: {title} takes {sizes} players, not "
                                    f"{args.players}")
    if "players" in variant:
        raise InvalidParameterError("give the table's size with --players; --param is for the "
                                    "rules the variant changes")
    for option in ("precision", "skill_precision"):
        value = getattr(args, option)
        if value is not None and not 0 < value < 0.5:
            raise InvalidParameterError(f"--{option.replace('_', '-')} takes a half-width "
                                        f"between 0 and 0.5, not {value}")
    name = args.name or variant_name(variant)
    shown = progress.shown()
    if args.game == "cobardes":
        result = cobardes_whatif.run_whatif(variant, args.seed, args.workers, args.scheduler,
                                            shown, name)
    elif args.game == "coup":
        result = coup_whatif.run_whatif(
            variant, args.players or 4, args.agent or coup_whatif.TABLE_AGENT, args.strong,
            counts(args.skill_players, coup_cards.MIN_PLAYERS, coup_cards.MAX_PLAYERS), args.seed, args.precision,
            args.skill_precision or coup_whatif.SKILL_PRECISION, args.max_games,
            args.workers, args.scheduler, shown, name=name)
    else:
        result = goat_whatif.run_whatif(
            variant, args.players or 2, args.agent or goat_whatif.TABLE_AGENT, args.strong,
            counts(args.skill_players, goat_rules.MIN_PLAYERS, goat_rules.MAX_PLAYERS), args.seed, args.precision,
            args.skill_precision or goat_whatif.SKILL_PRECISION, args.max_games,
            workers=args.workers, scheduler=args.scheduler, progress=shown, name=name)
    page = write_page(result, outdir)
    if args.json:
        print(json.dumps(with_schema("whatif", result.to_json()), indent=1))
        return 0
    print(f"What if {', '.join(f'{k}={v}' for k, v in variant.items()) or 'nothing changed'} "
          f"({args.game}); page: {page}")
    for line in summary_lines(result):
        print(f"  {line}")
    return 0
