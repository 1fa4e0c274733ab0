"""Benchmark: ``farol whatif`` on 2 cores, against its aims.

Three what-ifs, each run twice in a fresh data folder: first the printed rules alone
(their games or solutions, which every variant then reads from the store), then the
variant, timed on its own (``--workers 2``):

- Coup, 4 players, an Assassination costing 4: ``fast`` in every seat until every seat's
  win rate is known to ±2 points (and the draw rate, the game's length), then ``fast``
  against honest and random (±4 points). Aim: every seat to ±2 points in 10 minutes.
- ¡Cobardes!, the war to 2 victories without villains: every ordered pairing of two of
  the ten courtiers solved exactly. Aim: 2 minutes.
- Goat Lords, 2 players, 8 Goat Lords in the deck: ``greedy`` in both seats to ±2
  points, then ``lord:24`` against greedy and random (±5 points). Aim: seats to ±2
  points in 10 minutes.

Run: ``.venv/bin/python benchmarks/whatif_speed.py [--only coup,cobardes,goat-lords]
[--note TEXT]``; writes ``benchmarks/results/whatif_speed[_CASES].{txt,json}``.
``--render FILE.json [--note TEXT]`` writes a saved run's text again (nothing is measured).
The load average is taken at the start and at the end of each case: on a shared machine
the wall time is not the program's alone, and the processor time is given beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cobardes.studies import whatif as CW
from analysis.coup.studies import whatif as KW
from analysis.goat_lords.studies import whatif as GW
from analysis.shared import store
from analysis.shared.provenance import provenance

WORKERS = 2
SHIPPED = store.data("whatif", "cobardes")
AIMS = {"coup": 600.0, "cobardes": 120.0, "goat-lords": 600.0}


def _cpu() -> float:
    """Processor seconds of this process and of its finished worker processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def seats_width(result) -> float:
    """The widest 95% half-width of the variant's seat win rates."""
    return max(m.variant.half_width for m in result.metrics if m.key.startswith("seat_"))


SEED = 1  # the Coup and Goat Lords matches' seed (the ¡Cobardes! war is solved exactly)


def run_coup(variant: dict) -> object:
    return KW.run_whatif(variant, players=4, workers=WORKERS, seed=SEED)


def run_goat(variant: dict) -> object:
    return GW.run_whatif(variant, players=2, strong="lord:24", workers=WORKERS, seed=SEED)


def run_cobardes(variant: dict) -> object:
    return CW.run_whatif(variant, workers=WORKERS)


CASES = {
    "coup": (run_coup, {"assassination_cost": 4}, {"assassination_cost": 3}),
    "cobardes": (run_cobardes, {"victories": 2}, {"victories": 3}),
    "goat-lords": (run_goat, {"copies_goat_lord": 8}, {"copies_goat_lord": 4}),
}


def measure(only: list[str]) -> dict:
    out = {"machine": machine(), **provenance(SEED), "workers": WORKERS, "cases": {}}
    for key in only:
        run, variant, printed = CASES[key]
        with tempfile.TemporaryDirectory() as tmp, store.use(Path(tmp)):
            if key == "cobardes":
                # The printed war is shipped (reports/data/whatif/cobardes), as in a clone.
                shutil.copytree(SHIPPED, store.data("whatif", "cobardes"))
            start = time.perf_counter()
            base = run(printed)
            printed_s = time.perf_counter() - start
            start, cpu = time.perf_counter(), _cpu()
            result = run(variant)
            variant_s = time.perf_counter() - start
            variant_cpu = _cpu() - cpu
        case = {"variant": variant, "load_end": round(os.getloadavg()[0], 2),
                "printed_seconds": round(printed_s, 1),
                "variant_seconds": round(variant_s, 1),
                "variant_cpu_seconds": round(variant_cpu, 1), "aim_seconds": AIMS[key],
                "games": result.games, "printed_games": base.games,
                "metrics": [m.to_json() for m in result.metrics]}
        if key != "cobardes":
            case["seats_half_width"] = seats_width(result)
            table = [m for m in result.metrics if m.source == result.metric("seat_1").source]
            case["table_reached"] = all(m.reached for m in table)
        out["cases"][key] = case
    return out


def _interval(e: dict) -> str:
    """A figure's interval, or what kind of solved figure it is ("exact")."""
    kind = e.get("kind", "exact" if e.get("exact") else "95% interval")
    return f"[{e['low']:+.4f}, {e['high']:+.4f}]" if kind == "95% interval" else kind


def lines(m: dict) -> list[str]:
    out = [f"machine: {m['machine']}", f"farol {m['version']}, commit {m['commit']}; "
           f"{m['workers']} worker processes; the printed rules first (stored), then the "
           "variant alone"]
    if m.get("note"):
        out.append(f"note: {m['note']}")
    for key, c in m["cases"].items():
        within = "within" if c["variant_seconds"] <= c["aim_seconds"] else "over"
        printed = ("read from the shipped record" if key == "cobardes" and c["printed_seconds"] < 1
                   else f"{c['printed_seconds']:.0f} s")
        out.append(f"{key}, {c['variant']}: variant {c['variant_seconds']:.0f} s wall ({within} "
                   f"the aim of {c['aim_seconds']:.0f} s); printed rules first: {printed}")
        if "load_end" in c:
            out.append(f"  load average {c['load_end']:.2f} at the end of the case")
        if "variant_cpu_seconds" in c:
            cpu = c["variant_cpu_seconds"]
            out.append(f"  processor time of the variant's run: {cpu:.0f} s, all processes "
                       f"(half of it, {cpu / 2:.0f} s, is the wall time on 2 idle cores if the "
                       "work split evenly: an estimate, not measured)")
        out.append(f"  games or solves: {c['games']}")
        if "seats_half_width" in c:
            out.append(f"  seats: widest 95% half-width {100 * c['seats_half_width']:.2f} points"
                       f" (aim 2); every table metric at its aim: {c['table_reached']}")
        for metric in c["metrics"]:
            d = metric["difference"]
            if d["value"] is None:
                continue
            out.append(f"  {metric['label']}: printed {metric['printed']['value']:.4f} "
                       f"{_interval(metric['printed'])}, variant {metric['variant']['value']:.4f} "
                       f"{_interval(metric['variant'])}, difference {d['value']:+.4f} "
                       f"{_interval(d)}")
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(CASES))
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    parser.add_argument("--note", default=None,
                        help="what else ran on the machine, written beside the figures")
    parser.add_argument("--render", type=Path, default=None, metavar="FILE.json",
                        help="write a saved run's text again from its record (no run)")
    args = results_file.parse_args(parser, argv)
    if args.render is not None:
        m = json.loads(args.render.read_text())
        if args.note:
            m["note"] = args.note
        text = lines(m)
        print(*text, sep="\n")
        save(args.render.parent, args.render.stem, text, m | {"lines": text})
        return
    os.environ.setdefault("FAROL_PROGRESS", "1")
    m = measure(args.only.split(","))
    if args.note:
        m["note"] = args.note
    text = lines(m)
    print(*text, sep="\n")
    save(args.out, "whatif_speed" + ("" if args.only == ",".join(CASES) else "_" + args.only.replace(",", "_")),
         text, m | {"lines": text})


if __name__ == "__main__":
    main()
