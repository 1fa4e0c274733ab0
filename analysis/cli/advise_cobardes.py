"""``farol advise cobardes``: the equilibrium mix and value of a ¡Cobardes! battle position."""

from __future__ import annotations

import argparse
import json

from analysis.cli.numbers import finite_float, int_in
from analysis.cli.outputs import with_schema
from analysis.cli.parser import add_examples
from analysis.cli.spots import add_spot_arguments, spot_from_args
from analysis.cobardes.advice.advise import (
    VARIANTS,
    Query,
    advise,
    advise_spot,
    format_spot,
    format_text,
    parse_cards,
    parse_score,
    with_combat,
)
from analysis.cobardes.solvers.hidden_advice import solve_cost, trunk_size
from games.cobardes.cards import MAX_COMBATS, MAX_WARRIOR
from games.errors import InvalidParameterError

GAME = "python_cobardes_battle"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__.split("\n\n")[0].replace("``", "")
    parser.add_argument("--variant", choices=VARIANTS, default=None,
                        help="cards in play (default: from the options given)")
    parser.add_argument("--mine", default=None, help="your warriors in hand, e.g. 0,1,2")
    parser.add_argument("--theirs", default=None, help="the rival's warriors in hand")
    parser.add_argument("--my-courtier", default=None, help="your courtier (append * if used)")
    parser.add_argument("--their-courtier", default=None, help="the rival's courtier (* if used)")
    parser.add_argument("--my-villain", default=None, help="your villain (hidden from the rival; needed "
                        "whenever villains are in play: the value shown is yours holding it, "
                        "beside the value before the villains are dealt)")
    parser.add_argument("--their-villain", default=None,
                        help="the rival's villain if known (else hidden, ?)")
    parser.add_argument("--seat", type=int_in(1, 2), default=None,
                        help="your seat: 1, the first player (player 0, who decides first in "
                        "the first combat), or 2, the second; the second seat is answered at "
                        "a full battle's opening with villains (default 1)")
    parser.add_argument("--combat", type=int_in(1, MAX_COMBATS), default=None,
                        help="the combat about to start (default: the one your hands fix, "
                        "as each finished combat took one warrior from each hand)")
    parser.add_argument("--combats", type=int_in(1, MAX_COMBATS), default=MAX_COMBATS,
                        help=f"combats in a battle ({MAX_COMBATS})")
    parser.add_argument("--warriors", type=int_in(0, MAX_WARRIOR), default=MAX_WARRIOR,
                        help=f"highest warrior, 0 to {MAX_WARRIOR} ({MAX_WARRIOR})")
    parser.add_argument("--score", default=None, help="war score, yours-theirs, e.g. 1-2")
    parser.add_argument("--win-value", type=finite_float(), default=1.0)
    parser.add_argument("--crown-value", type=finite_float(), default=3.0)
    parser.add_argument("--draw-value", type=finite_float(), default=0.0)
    parser.add_argument("--iterations", type=int_in(1), default=None,
                        help="CFR+ iterations for a position with villains given by options "
                        "(default: Discounted CFR until its exploitability stops improving; "
                        "a position that takes more than about half a minute needs --solve)")
    parser.add_argument("--solve", action="store_true",
                        help="solve a large battle with hidden villains now when it is not "
                        f"stored yet (a full battle takes "
                        f"{solve_cost(trunk_size(6))}, once), rather than refuse")
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    add_spot_arguments(parser, ("kinds=warriors+courtiers", "courtier0=Squire",
                                "courtier1=Archer"),
                       "the moves from the start of the battle, as the game names them "
                       "(deals included), e.g. 'play warrior 5;play warrior 4'; advice for "
                       "the player to move at the spot reached (the position options are "
                       "then not used)")
    parser.set_defaults(func=run)
    add_examples(
        parser,
        "farol advise cobardes --mine 0,1,2 --theirs 1,2,3 --score 1-2",
        "farol advise cobardes --param kinds=warriors+courtiers --param courtier0=Squire "
        "--param courtier1=Archer --history 'play warrior 5;play warrior 4' --json")


def query_from_args(args: argparse.Namespace) -> Query:
    full = ",".join(str(i) for i in range(args.warriors + 1))
    q = Query(
        mine=parse_cards(args.mine if args.mine is not None else full, "mine"),
        theirs=parse_cards(args.theirs if args.theirs is not None else full, "theirs"),
        variant=args.variant, my_courtier=args.my_courtier, their_courtier=args.their_courtier,
        my_villain=args.my_villain, their_villain=args.their_villain, combats=args.combats, warriors=args.warriors, score=parse_score(args.score),
        win_value=args.win_value, crown_value=args.crown_value, draw_value=args.draw_value,
        iterations=args.iterations, solve=args.solve, seat=(args.seat or 1) - 1)
    return with_combat(q, args.combat)


POSITION_FLAGS = ("variant", "mine", "theirs", "my_courtier", "their_courtier", "my_villain",
                  "their_villain", "score", "seat")


def run_history(args: argparse.Namespace) -> int:
    given = [f"--{f.replace('_', '-')}" for f in POSITION_FLAGS if getattr(args, f) is not None]
    if given:
        raise InvalidParameterError(f"{', '.join(given)}: give the spot either by "
                                    "--history or by position options, not both")
    state = spot_from_args(GAME, args)
    advice = advise_spot(state, args.solve)
    print(json.dumps(with_schema("advise-cobardes", advice.to_json()), indent=2) if args.json
          else format_spot(state, advice))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.history is not None:
        return run_history(args)
    spot_from_args(GAME, args)  # refuses --params without --history
    q = query_from_args(args)
    advice = advise(q)
    print(json.dumps(with_schema("advise-cobardes", advice.to_json()), indent=1) if args.json
          else format_text(q, advice))
    return 0
