"""``farol cobardes``: sweeps of solved battles and the abstraction-loss measurement.

``farol cobardes sweep [--kind battle|war|villains|all] [--workers N]
[--scheduler tcp://host:8786]`` solves every courtier pairing (or villain pair) not yet
cached under ``reports/data/cobardes/pairings`` (resumable: interrupt and rerun);
``farol cobardes renewal`` solves the war with courtier renewal (keep-or-renew
decisions between battles, :mod:`analysis.cobardes.renewal`; cached, resumable);
``farol cobardes abstraction`` measures the state-keyed abstraction's loss on reduced
decks, for the whole graph and for the trunk left once the public subgames are solved
exactly (:mod:`analysis.cobardes.subgames`), and solves the value of each hidden villain
deal on a reduced army exactly; it writes ``reports/data/cobardes/abstraction_loss.json``,
``cut_loss.json`` and ``hidden_villains.json``.
"""

from __future__ import annotations

import argparse
import json

from analysis.cobardes import bot  # noqa: F401  (registers the solved bot)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cobardes", help="¡Cobardes!: sweeps of solved battles, "
                                   "abstraction loss")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    sw = sub.add_parser("sweep", help="solve every pairing (cached, resumable, Dask-ready)")
    sw.add_argument("--kind", choices=("battle", "war", "villains", "all"), default="all")
    sw.add_argument("--workers", type=int, default=2, help="local processes (default 2)")
    sw.add_argument("--scheduler", default=None, help="Dask scheduler, e.g. tcp://host:8786")
    sw.add_argument("--warriors", type=int, default=6)
    sw.add_argument("--combats", type=int, default=7)
    sw.add_argument("--dir", default=None, help="cache folder "
                    "(default reports/data/cobardes/pairings)")
    sw.set_defaults(func=run_sweep)
    rn = sub.add_parser("renewal", help="the war with courtier renewal between battles "
                        "(keep-or-renew; cached, resumable)")
    from analysis.cobardes import renewal

    renewal.add_arguments(rn)
    rn.set_defaults(func=run_renewal)
    ab = sub.add_parser("abstraction", help="measure the state-keyed abstraction's loss")
    ab.add_argument("--iterations", type=int, default=2000)
    ab.set_defaults(func=run_abstraction)


def run_sweep(args: argparse.Namespace) -> int:
    from analysis.cobardes import sweep

    directory = args.dir or sweep.DEFAULT_DIR
    kinds = ("battle", "war", "villains") if args.kind == "all" else (args.kind,)
    for kind in kinds:
        results = sweep.run_sweep(None, args.warriors, args.combats, directory, args.workers,
                                  args.scheduler, progress=True, war=kind)
        print(f"{kind}: {len(results)} solved in {directory}")
    return 0


def run_renewal(args: argparse.Namespace) -> int:
    from analysis.cobardes import renewal

    return renewal.run(args)


def run_abstraction(args: argparse.Namespace) -> int:
    from analysis.cobardes import report, subgames, villains

    rows = []
    for label, params in villains.REDUCED_DECKS:
        loss = villains.abstraction_loss(label, params, iterations=args.iterations)
        rows.append(loss.to_json())
        print(f"{label}: true exploitability {loss.graph_exploitability_true:.2e} "
              f"(in abstraction {loss.graph_exploitability_in_abstraction:.2e}, exact tree "
              f"{loss.tree_exploitability:.2e})")
    report.ABSTRACTION_JSON.parent.mkdir(parents=True, exist_ok=True)
    report.ABSTRACTION_JSON.write_text(json.dumps(rows, indent=1))
    print(f"wrote {report.ABSTRACTION_JSON}")
    rows = []
    for label, params in villains.REDUCED_DECKS + subgames.LARGER_DECKS:
        loss = subgames.cut_loss(label, params, iterations=args.iterations)
        rows.append(loss.to_json())
        print(f"{label}, public subgames exact: true exploitability "
              f"{loss.graph_exploitability_true:.2e} (in abstraction "
              f"{loss.graph_exploitability_in_abstraction:.2e}, exact tree "
              f"{loss.tree_exploitability:.2e})", flush=True)
    report.CUT_JSON.write_text(json.dumps(rows, indent=1))
    print(f"wrote {report.CUT_JSON}")
    label, params = villains.HIDDEN_TABLE_DECK
    table = subgames.hidden_villain_values_exact(label, params, iterations=args.iterations)
    report.HIDDEN_JSON.write_text(json.dumps(table, indent=1))
    print(f"wrote {report.HIDDEN_JSON} ({table['provenance']})")
    return 0
