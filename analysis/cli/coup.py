"""``farol coup``: run the Coup sweeps (endgames, turn caps, larger endgames).

``farol coup sweep [--coins 0-9] [--decks ...] [--revealed contessa-contessa] [--caps 2]
[--workers 2]`` solves every 1v1 endgame not yet on disk (resumable);
``farol coup brackets [--caps 1,2,3] [--limit N]`` bounds the uncapped values
(widest brackets first); ``farol coup full-game`` bounds the 2-player game from the
deal as far as it fits; ``farol coup cap-study`` and ``farol coup larger`` run the turn-cap and larger-endgame
studies (also resumable); ``farol coup abstraction [--deck ...] [--caps 4,8,16,32]
[--pairs 0/0,1/2] [--jobs N]`` estimates the uncapped values of the endgames whose brackets
are still wide with the state-keyed abstraction at growing caps. The results are what
``farol report coup`` reads.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("coup", help="Coup sweeps: 1v1 endgames, turn caps, larger")
    sub = parser.add_subparsers(dest="coup_command", metavar="WHAT")
    sub.required = True
    sweep = sub.add_parser("sweep", help="solve every 1v1 endgame not yet on disk")
    from analysis.coup.sweep import add_arguments

    add_arguments(sweep)
    sweep.set_defaults(func=_sweep)
    brackets = sub.add_parser("brackets", help="bounds on the uncapped values (cap payoff -1 and +1)")
    from analysis.coup.sweep import add_bracket_arguments

    add_bracket_arguments(brackets)
    brackets.set_defaults(func=_brackets)
    full = sub.add_parser("full-game", help="the 2-player game from the deal: sizes and bounds")
    full.add_argument("--budget", type=float, default=1e7, help="most histories to compile")
    full.add_argument("--markov", action="store_true",
                      help="price the cap with the whole game's Markov guarantees (caps 1-2; "
                           "records go to reports/data/coup/full_game_markov.json)")
    full.add_argument("--decks", default="ambassador,inquisitor", help="decks, comma-separated")
    full.set_defaults(func=_full_game)
    cap = sub.add_parser("cap-study", help="the same endgames at turn caps 1-3")
    cap.set_defaults(func=_cap_study)
    larger = sub.add_parser("larger", help="2v1, 1v2 and 2v2 endgames as far as they fit")
    larger.add_argument("--markov", action="store_true",
                        help="bracket the 2v1 and 1v2 uncapped values, the cap priced by "
                             "Markov guarantees (reports/data/coup/larger_markov.json)")
    larger.add_argument("--budget", type=float, default=1.5e7,
                        help="with --markov: most histories to compile (cases found over a "
                             "smaller budget are tried again)")
    larger.set_defaults(func=_larger)
    abstraction = sub.add_parser(
        "abstraction", help="state-keyed estimates of uncapped values where brackets are wide")
    from analysis.coup.abstraction import add_arguments as add_abstraction_arguments

    add_abstraction_arguments(abstraction)
    abstraction.set_defaults(func=_abstraction)


def _sweep(args: argparse.Namespace) -> int:
    from analysis.coup.sweep import run_args

    return run_args(args)


def _brackets(args: argparse.Namespace) -> int:
    from analysis.coup.sweep import run_bracket_args

    return run_bracket_args(args)


def _full_game(args: argparse.Namespace) -> int:
    from analysis.coup.full_game import DECKS, MARKOV_PATH, PATH, run, run_markov
    from games.errors import InvalidParameterError

    decks = tuple(args.decks.split(","))
    unknown = [d for d in decks if d not in DECKS]
    if unknown:
        raise InvalidParameterError(f"--decks: unknown deck {unknown[0]!r} (choose from "
                                    f"{', '.join(DECKS)})")
    if args.markov:
        rows = run_markov(decks=decks, budget=int(args.budget), progress=True)
        print(f"{len(rows)} full-game rows in {MARKOV_PATH}")
        return 0
    rows = run(decks=decks, budget=int(args.budget))
    print(f"{len(rows)} full-game rows in {PATH}")
    return 0


def _cap_study(args: argparse.Namespace) -> int:
    from analysis.coup.sweep import cap_study_sweep

    rows = cap_study_sweep()
    print(f"{len(rows)} cap-study rows in reports/data/coup/cap_study.json")
    return 0


def _larger(args: argparse.Namespace) -> int:
    from analysis.coup.larger import MARKOV_PATH, PATH, run, run_markov

    if args.markov:
        rows = run_markov(budget=int(args.budget))
        print(f"{len(rows)} larger-endgame rows in {MARKOV_PATH}")
        return 0
    rows = run()
    print(f"{len(rows)} larger-endgame rows in {PATH}")
    return 0


def _abstraction(args: argparse.Namespace) -> int:
    from analysis.coup.abstraction import run_args

    return run_args(args)
