"""Leaf values for the 2-player re-solve, read off the blueprint: a small shipped table.

The re-solve (:mod:`.belief_resolve`) stops at the end of the turn and needs a value for
each position it stops at. The blueprint knows one for every position of the whole game:
both players playing it on to the end, exact on its graph
(:func:`analysis.coup.solvers.blueprint_resolve.blueprint_values`). That graph has
millions of positions and takes most of an hour to build, so this table keeps only what a
leaf can be looked up by: whose turn starts, both players' cards and both players' coins.
Each entry is the blueprint's mean value over the positions where such a turn starts, each
position weighted by how often the blueprint's self-play reaches it (the court and the
cards already lost are averaged out). A deck's table is a few hundred kilobytes and ships
with Farol; it covers the dealt setups, the ones the blueprint graph of ``dealt`` holds.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers.blueprint_resolve import blueprint_values
from analysis.shared import store
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import provenance
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve.cyclic import CyclicCFR
from games.coup import cards as C
from games.coup import engine as E

COIN_CAP = 12  # coins above this share the entry of 12
# Sweeps of the expected visits: they only weigh positions against each other, so a
# play that loops for long need not be followed to the last decimal.
VISIT_SWEEPS = 1000
FORMAT = 1
HANDS = tuple(h for n in range(3)
              for h in itertools.combinations_with_replacement(range(C.NUM_CHARACTERS), n))
HAND_CODE = {h: i for i, h in enumerate(HANDS)}
SIZE = 2 * len(HANDS) ** 2 * (COIN_CAP + 1) ** 2


def leaf_code(core: E.Core) -> int | None:
    """The table entry of ``core``: the player whose turn starts next (the actor at a
    turn's start, else the other player), both hands and both coin counts; ``None``
    where a hand holds more than two cards (in the middle of an exchange)."""
    mover = core.actor if core.kind == -1 else 1 - core.actor
    h0 = HAND_CODE.get(tuple(sorted(core.hands[0])))
    h1 = HAND_CODE.get(tuple(sorted(core.hands[1])))
    if h0 is None or h1 is None:
        return None
    c0, c1 = (min(c, COIN_CAP) for c in core.coins)
    return (((mover * len(HANDS) + h0) * len(HANDS) + h1) * (COIN_CAP + 1) + c0) \
        * (COIN_CAP + 1) + c1


def graph_positions(edge_start: np.ndarray, edge_child: np.ndarray,
                    starts: Sequence[tuple[E.Core, int]], walker, desc: str,
                    progress: bool = False) -> Iterator[tuple[E.Core, int, list[int], int]]:
    """Every node of a position graph reached from ``starts`` (each a position and its
    node), once, with its position (walked with the ``walker`` that built the graph,
    moves in its order): ``(position, node, moves, first edge)`` for each node where the
    game goes on (a chance node's moves are its outcomes)."""
    nodes = edge_start.shape[0] - 1
    seen = np.zeros(nodes, bool)
    stack = []
    for core, node in starts:
        if not seen[node]:
            seen[node] = True
            stack.append((core, node))
    with progress_bar(total=nodes, desc=desc, unit=" positions", progress=progress) as shown:
        while stack:
            core, node = stack.pop()
            shown.update(1)
            if core.over:
                continue
            if core.cur == E.CHANCE:
                actions = [a for a, _ in core.chance_outcomes()]
            else:
                actions = walker.legal_actions(core)
            lo, hi = int(edge_start[node]), int(edge_start[node + 1])
            if hi - lo != len(actions):
                raise ValueError("the graph and the game disagree on a position's moves")
            yield core, node, actions, lo
            for j, action in enumerate(actions):
                child = int(edge_child[lo + j])
                if not seen[child]:
                    seen[child] = True
                    stack.append((walker.child(core, action), child))


def turn_start_codes(edge_start: np.ndarray, edge_child: np.ndarray,
                     starts: Sequence[tuple[E.Core, int]], walker,
                     progress: bool = False) -> np.ndarray:
    """The :func:`leaf_code` of every node of a position graph where a turn starts (-1
    at the others), found by walking the graph from ``starts`` (each a position and its
    node) with the ``walker`` that built it (:func:`graph_positions`)."""
    codes = np.full(edge_start.shape[0] - 1, -1, np.int32)
    for core, node, _, _ in graph_positions(edge_start, edge_child, starts, walker,
                                             "turn starts", progress):
        if core.cur != E.CHANCE and core.kind == -1 and core.cur == core.actor:
            code = leaf_code(core)
            codes[node] = -1 if code is None else code
    return codes


def aggregate(codes: np.ndarray, value: np.ndarray, weight: np.ndarray,
              size: int = SIZE) -> tuple[np.ndarray, np.ndarray]:
    """Each code's ``weight``-weighted mean ``value`` over the nodes that carry it (NaN
    where none does, or none has weight) and the weight behind it."""
    at = codes >= 0
    mass = np.bincount(codes[at], weights=weight[at], minlength=size)
    total = np.bincount(codes[at], weights=weight[at] * value[at], minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(mass > 0, total / mass, np.nan)
    return mean, mass


@dataclasses.dataclass(frozen=True)
class LeafTable:
    """A deck's leaf values: ``mean[setup]`` player 0's blueprint value per
    :func:`leaf_code` (NaN: no such position reached), ``mass[setup]`` the expected
    visits behind it, ``trained[setup]`` the blueprint's CFR+ iterations."""

    deck: str
    mean: dict[str, np.ndarray]
    mass: dict[str, np.ndarray]
    trained: dict[str, int]
    provenance: dict

    @property
    def setups(self) -> tuple[str, ...]:
        return tuple(s for s in C.SETUPS if s in self.mean)

    def value(self, core: E.Core, setup: str) -> float | None:
        """Player 0's value of ``core`` from the table (``None``: no entry)."""
        code = leaf_code(core)
        if code is None:
            return None
        v = self.mean[setup][code]
        return None if np.isnan(v) else float(v)

    def leaf(self, setup: str, fallback: Callable[[E.Core], float]) -> Callable[[E.Core], float]:
        """The re-solve's leaf for ``setup``: the table's value, ``fallback`` where the
        table has none."""
        table = self.mean[setup]

        def leaf(core: E.Core) -> float:
            code = leaf_code(core)
            v = table[code] if code is not None else np.nan
            return fallback(core) if np.isnan(v) else float(v)
        return leaf

    def save(self, path: Path) -> None:
        arrays = {}
        for setup in self.setups:
            arrays[f"mean_{setup}"] = self.mean[setup].astype(np.float32)
            arrays[f"mass_{setup}"] = self.mass[setup].astype(np.float32)
        about = {"format": FORMAT, "deck": self.deck, "trained": self.trained,
                 "coin_cap": COIN_CAP, "provenance": self.provenance}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, about=np.array(json.dumps(about, sort_keys=True)), **arrays)
        store.atomic_write(path, lambda fh: fh.write(buffer.getvalue()), binary=True)

    @classmethod
    def load(cls, path: Path) -> LeafTable:
        try:
            with np.load(path) as z:
                about = json.loads(str(z["about"]))
                arrays = {k: z[k].astype(float) for k in z.files if k != "about"}
        except (*READ_ERRORS, KeyError, json.JSONDecodeError) as exc:
            raise CorruptFileError(f"{store.shown(path)}: not a readable leaf table "
                                   f"({exc})") from None
        if about.get("format") != FORMAT or about.get("coin_cap") != COIN_CAP:
            raise CorruptFileError(f"{store.shown(path)}: a leaf table of another format")
        setups = [k.removeprefix("mean_") for k in arrays if k.startswith("mean_")]
        for setup in setups:
            if arrays[f"mean_{setup}"].shape != (SIZE,):
                raise CorruptFileError(f"{store.shown(path)}: a leaf table of another size")
        return cls(about["deck"], {s: arrays[f"mean_{s}"] for s in setups},
                   {s: arrays[f"mass_{s}"] for s in setups}, dict(about["trained"]),
                   about["provenance"])


def table_path(deck: str) -> Path:
    return store.data("coup", "leaves", f"{deck}.npz")


def stored_table(deck: str) -> LeafTable | None:
    """``deck``'s table under the current data folder (``None``: none stored), read once
    per process for each file and version of it."""
    path = table_path(deck)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    return _read(path, stamp)


@functools.lru_cache(maxsize=4)
def _read(path: Path, stamp: int) -> LeafTable:
    return LeafTable.load(path)


stored_table.cache_clear = _read.cache_clear


def build(deck: str, setups: Sequence[str], progress: bool = False, dg=None,
          values: dict | None = None) -> LeafTable:
    """``deck``'s table for ``setups`` (dealt ones) from its stored blueprint, joined to
    the setups already stored, and saved (``dg``: the dealt graph when already loaded;
    ``values``: each setup's node values when already computed)."""
    bp = B.load_blueprint(deck)
    dg = B.deck_graph(deck, "dealt", progress) if dg is None else dg
    walker, roots = B.graph_starts(B.deck_games(deck, "dealt"))
    starts = [(r, dg.roots[s]) for s, r in roots.items() if s in dg.roots]
    codes = turn_start_codes(dg.graph.edge_start, dg.graph.edge_child, starts, walker,
                             progress)
    stored = stored_table(deck)
    mean = dict(stored.mean) if stored else {}
    mass = dict(stored.mass) if stored else {}
    trained = dict(stored.trained) if stored else {}
    for setup in setups:
        strategies = tuple(np.asarray(s, float) for s in bp.strategy[setup])
        value = (values or {}).get(setup)
        if value is None:
            value = blueprint_values(bp, setup, dg, progress)
        visits = CyclicCFR(dg.graph, dg.root_vector(setup)).visits(
            strategies, VISIT_SWEEPS, progress, desc=f"blueprint {deck} {setup}: visits")
        mean[setup], mass[setup] = aggregate(codes, np.asarray(value, float), visits)
        trained[setup] = bp.records[setup].iterations
    table = LeafTable(deck, mean, mass, trained, provenance(None))
    table.save(table_path(deck))
    stored_table.cache_clear()
    return table
