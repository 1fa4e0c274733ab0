"""``farol cobardes``: sweeps of solved battles, the renewal war, the abstraction's loss.

``sweep`` solves every courtier pairing (or villain pair) not yet stored (resumable);
``--kind hidden`` solves the 100 courtier matchups with both villains dealt hidden;
``renewal`` solves the war with courtiers renewed between battles (resumable), or with
``--villains`` composes the war with both villains dealt hidden from the stored matchups;
``openings`` stores the advice at a full battle's first decision, for each villain you
can hold, so that ``farol advise cobardes`` answers it at once; ``abstraction`` measures the state-keyed abstraction's loss on reduced decks, whole
graph and trunk, and the value of each hidden villain deal on a reduced army.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from analysis.cli.lists import comma_list
from analysis.cli.numbers import finite_float, int_in
from analysis.cli.outputs import check_output_dir, check_output_file
from analysis.cli.parser import add_examples
from analysis.cobardes.solvers import openings, subgames, villains
from analysis.cobardes.studies import (
    balance,
    composed_renewal,
    hidden_sweep,
    renewal,
    sweep,
)
from analysis.shared import store
from analysis.shared.store import atomic_write_text
from analysis.solve.cfr import METHODS
from games.cobardes import cards as C
from games.errors import InvalidParameterError


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    sw = sub.add_parser("sweep", help="solve every pairing (cached, resumable, Dask-ready)")
    sw.add_argument("--kind", choices=("battle", "war", "villains", "all", "hidden"),
                    default="all", help="all: battle, war and villains; hidden: the 100 "
                    "courtier matchups with both villains dealt hidden (hours; not in all)")
    sw.add_argument("--matchups", default=None, metavar="A/B,...",
                    help="only these courtier matchups (with --kind hidden), e.g. "
                    "Squire/Archer,Archer/Squire")
    sw.add_argument("--method", choices=tuple(METHODS), default=hidden_sweep.METHOD,
                    help="with --kind hidden: the CFR method, run on each matchup until its "
                    f"exploitability stops improving (default {hidden_sweep.METHOD})")
    sw.add_argument("--max-iterations", type=int_in(1), default=hidden_sweep.RULE.max_iterations,
                    help="with --kind hidden: the most iterations a matchup is given "
                    f"(default {hidden_sweep.RULE.max_iterations})")
    sw.add_argument("--keep-solutions", action="store_true",
                    help="with --kind hidden: also store each matchup's solution, so that "
                    "farol advise cobardes --history answers at once in its battles (about "
                    "1 GB a matchup, in the cache folder; a matchup stored before is not "
                    "solved again: farol advise cobardes --solve solves its battle)")
    sw.add_argument("--workers", type=int_in(1), default=2, help="local processes (default 2)")
    sw.add_argument("--scheduler", default=None, help="Dask scheduler, e.g. tcp://host:8786")
    sw.add_argument("--warriors", type=int_in(0, C.MAX_WARRIOR), default=C.MAX_WARRIOR)
    sw.add_argument("--combats", type=int_in(1, C.MAX_COMBATS), default=C.MAX_COMBATS)
    sw.add_argument("--dir", default=None, help="cache folder "
                    "(default: the data folder's cobardes/pairings)")
    sw.set_defaults(func=run_sweep)
    add_examples(sw, "farol cobardes sweep --kind battle --warriors 3 --combats 3",
                 "farol cobardes sweep --kind hidden --matchups Squire/Archer,Archer/Squire",
                 "farol cobardes sweep --kind hidden --scheduler tcp://host:8786")
    op = sub.add_parser("openings", help="store the advice at a battle's opening with hidden "
                        "villains, both seats (a full battle is solved once: minutes, 5 GB; "
                        "the hidden sweep stores them as it goes)")
    op.add_argument("--matchups", required=True, metavar="A/B,...",
                    help="courtier matchups, yours first, e.g. Squire/Archer")
    op.add_argument("--warriors", type=int_in(0, C.MAX_WARRIOR), default=C.MAX_WARRIOR)
    op.add_argument("--combats", type=int_in(1, C.MAX_COMBATS), default=C.MAX_COMBATS)
    op.set_defaults(func=run_openings)
    add_examples(op, "farol cobardes openings --matchups Squire/Archer")
    rn = sub.add_parser("renewal", help="the war with courtier renewal between battles "
                        "(keep-or-renew; cached, resumable)")
    rn.add_argument("--workers", type=int_in(1), default=2, help="local processes (default 2)")
    rn.add_argument("--warriors", type=int_in(0, C.MAX_WARRIOR), default=C.MAX_WARRIOR)
    rn.add_argument("--combats", type=int_in(1, C.MAX_COMBATS), default=C.MAX_COMBATS)
    rn.add_argument("--courtiers", default="all",
                    help="the court deck, names separated by commas (default all ten)")
    rn.add_argument("--tol", type=finite_float(0, above=True), default=1e-9, help="fixed-point residual")
    rn.add_argument("--dir", default=None,
                    help="cache folder (default: the data folder's cobardes/renewal)")
    rn.add_argument("--villains", action="store_true",
                    help="the war with both villains dealt hidden in every battle, composed "
                         "from the stored matchups (farol cobardes sweep --kind hidden): "
                         "each battle played as solved, the keep-or-renew choices solved "
                         "exactly for them")
    rn.set_defaults(func=run_renewal)
    add_examples(rn, "farol cobardes renewal --warriors 3 --combats 3",
                 "farol cobardes renewal --villains")
    ab = sub.add_parser("abstraction", help="measure the state-keyed abstraction's loss")
    ab.add_argument("--iterations", type=int_in(1), default=2000)
    ab.set_defaults(func=run_abstraction)
    add_examples(ab, "farol cobardes abstraction --iterations 200")


def run_sweep(args: argparse.Namespace) -> int:
    directory = check_output_dir(args.dir or sweep.pairings_dir(), "--dir")
    if args.kind == "hidden":
        return run_hidden(args, directory)
    if args.matchups is not None:
        raise InvalidParameterError("--matchups goes with --kind hidden")
    if args.keep_solutions:
        raise InvalidParameterError("--keep-solutions goes with --kind hidden")
    if args.method != hidden_sweep.METHOD or (args.max_iterations
                                               != hidden_sweep.RULE.max_iterations):
        raise InvalidParameterError("--method and --max-iterations go with --kind hidden")
    kinds = ("battle", "war", "villains") if args.kind == "all" else (args.kind,)
    for kind in kinds:
        results = sweep.run_sweep(None, args.warriors, args.combats, directory, args.workers,
                                  args.scheduler, progress=True, war=kind)
        print(f"{kind}: {len(results)} solved in {directory}")
    return 0


def run_openings(args: argparse.Namespace) -> int:
    """``farol cobardes openings``: solve each matchup's battle (or read its stored
    solution) and store the advice at its first decision."""
    for pairing in _matchups(args.matchups):
        table = openings.build(pairing, args.warriors, args.combats)
        path = table.save()
        print(f"{pairing[0]} vs {pairing[1]}: {len(table.seats[0][0]['answers'])} villains "
              f"for each seat, exploitability within the abstraction "
              f"{table.exploitability:z.2g}; stored {store.shown(path)}")
    return 0


def _matchups(text: str | None) -> list[tuple[str, str]] | None:
    if text is None:
        return None
    out = []
    for item in comma_list("--matchups", text, hint="write courtier matchups as A/B,C/D"):
        names = [n.strip() for n in item.split("/")]
        if len(names) != 2 or not all(names):
            raise InvalidParameterError(f"--matchups: {item!r} is not two courtiers as A/B")
        out.append((C.COURTIER_NAMES[C.courtier_id(names[0])],
                    C.COURTIER_NAMES[C.courtier_id(names[1])]))
    return out


def run_hidden(args: argparse.Namespace, directory) -> int:
    matchups = _matchups(args.matchups)
    results = hidden_sweep.run_hidden_sweep(matchups, args.warriors, args.combats, directory,
                                            args.workers, args.scheduler, progress=True,
                                            method=args.method,
                                            rule=dataclasses.replace(
                                                hidden_sweep.RULE,
                                                max_iterations=args.max_iterations),
                                            keep_solutions=args.keep_solutions)
    wanted = len(matchups) if matchups is not None else len(hidden_sweep.hidden_matchups())
    print(f"hidden villains: {len(results)} of {wanted} matchups solved in {directory}")
    return 0


def court_deck(text: str) -> tuple[str, ...]:
    """``--courtiers``: ``all`` (the ten courtiers) or a comma list of names (an unknown
    name is refused when the model is built). Names separated by ``/``, the former
    spelling, still work, with a note."""
    if text == "all":
        return tuple(C.COURTIER_NAMES)
    if "/" in text and "," not in text:
        print("farol: --courtiers A/B is now spelled --courtiers A,B (a comma list)",
              file=sys.stderr)
        text = text.replace("/", ",")
    return comma_list("--courtiers", text, empty_ok=True)


def run_renewal(args: argparse.Namespace) -> int:
    """Solve the renewal war (cached, resumable) and print a summary."""
    model = renewal.RenewalModel(court_deck(args.courtiers), args.warriors,
                                 args.combats)
    if args.villains:
        return villain_war(model)
    check_output_dir(args.dir or renewal.renewal_dir(), "--dir")
    sol = renewal.run_renewal(model, args.dir, args.workers, args.tol)
    print(f"{model.size} states, residual {sol.residual:z.2e}, spectral radius "
          f"{sol.spectral_radius:z.4f}, {len(sol.history)} iterations")
    return 0


def villain_war(model: renewal.RenewalModel) -> int:
    """The war with villains composed from the stored matchups: each courtier's war win
    probability and how often it is kept when unplayed."""
    records = hidden_sweep.load_hidden(warriors=model.warriors, combats=model.combats)
    sol = composed_renewal.villain_renewal(records, model)
    table = renewal.value_table(sol)
    wins = (1 + balance.seat_neutral_strength(table).dropna()) / 2
    keep = renewal.keep_shares(sol)
    bound = max(records[p].exploitability_lower_bound for p in model.pairings)
    print(f"the war to 3 victories with both villains dealt hidden in every battle, over "
          f"{len(model.pairings)} courtier matchups; each battle played as solved (beaten "
          f"by at least {bound:z.3f} a battle within its abstraction: a lower bound), the "
          f"keep-or-renew choices solved exactly for those battles")
    print(f"{'courtier':<16} {'wars won':>9} {'kept unplayed':>14}")
    for name, p in wins.items():
        print(f"{name:<16} {100 * p:z8.1f}% {100 * keep[name]:z13.0f}%")
    print(f"first player: {100 * (1 + table.stack().mean()) / 2:z.1f}% of wars won")
    return 0


def run_abstraction(args: argparse.Namespace) -> int:
    for path in (villains.abstraction_loss_path(), subgames.cut_loss_path(),
                 subgames.hidden_villains_path()):
        check_output_file(path, "--data")
    rows = []
    for label, params in villains.REDUCED_DECKS:
        loss = villains.abstraction_loss(label, params, iterations=args.iterations)
        rows.append(loss.to_json())
        print(f"{label}: true exploitability {loss.graph_exploitability_true:z.2e} "
              f"(in abstraction {loss.graph_exploitability_in_abstraction:z.2e}, exact tree "
              f"{loss.tree_exploitability:z.2e})")
    path = villains.abstraction_loss_path()
    atomic_write_text(path, json.dumps(rows, indent=1))
    print(f"wrote {path}")
    rows = []
    for label, params in villains.REDUCED_DECKS + subgames.LARGER_DECKS:
        loss = subgames.cut_loss(label, params, iterations=args.iterations)
        rows.append(loss.to_json())
        print(f"{label}, public subgames exact: true exploitability "
              f"{loss.graph_exploitability_true:z.2e} (in abstraction "
              f"{loss.graph_exploitability_in_abstraction:z.2e}, exact tree "
              f"{loss.tree_exploitability:z.2e})", flush=True)
    path = subgames.cut_loss_path()
    atomic_write_text(path, json.dumps(rows, indent=1))
    print(f"wrote {path}")
    label, params = villains.HIDDEN_TABLE_DECK
    table = subgames.hidden_villain_values_exact(label, params, iterations=args.iterations)
    path = subgames.hidden_villains_path()
    atomic_write_text(path, json.dumps(table, indent=1))
    print(f"wrote {path} ({table['provenance']})")
    return 0
