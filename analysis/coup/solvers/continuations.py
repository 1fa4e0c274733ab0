"""Continuation values for the re-solve's multi-valued leaves (Brown, Sandholm & Amos
2018): what a position is worth when the re-solving player plays the blueprint on and
its opponent plays on in one of a few ways.

The ways (:data:`BIASES`): the blueprint itself; the blueprint biased toward
challenging (each challenge's weight multiplied, then every information set's mix
normalised again), toward bluffing (claims and blocks of a character not held), toward
honest play (those bluffs made rarer); and, optionally, the keyed best response to the
blueprint (the best strategy among those that see what the blueprint sees). Each value
is exact on the blueprint's graph (both strategies played on to the end,
:meth:`~analysis.solve.cyclic.CyclicCFR.evaluate`), then kept, as the blueprint's leaf
table is (:mod:`.leaf_table`), by whose turn starts, both hands and both coin counts,
each position weighted by how often the blueprint's self-play reaches it.

This module is a solver: it reads the blueprint's graph and strategy, never an agent.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers import leaf_table as LT
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve.cyclic import CyclicCFR, normalise
from games.coup import cards as C
from games.coup import engine as E

NEUTRAL, CHALLENGE, BLUFF = 0, 1, 2
# A continuation's name -> the factor each kind of move's weight is multiplied by.
BIASES = {
    "blueprint": {},
    "challenging": {CHALLENGE: 4.0},
    "bluffing": {BLUFF: 4.0},
    "honest": {BLUFF: 0.1},
}
RESPONSE = "response"  # the keyed best response to the blueprint
FORMAT = 1


def move_kind(core: E.Core, player: int, action: int) -> int:
    """What ``player``'s ``action`` at ``core`` is, for the biases: a challenge, a bluff
    (a turn action or a block claiming a character not in the hand) or neither."""
    if action == C.A_CHALLENGE:
        return CHALLENGE
    step = core.queue[0][0]
    hand = core.hands[player]
    if step == E.S_ACTION:
        kind, _ = C.decode_turn_action(action)
        claim = C.KIND_CLAIM[kind]
        return BLUFF if claim is not None and claim not in hand else NEUTRAL
    if step == E.S_BLOCK and action != C.A_NO_BLOCK:
        return BLUFF if action - C.A_BLOCK not in hand else NEUTRAL
    return NEUTRAL


def slot_kinds(graph, starts: Sequence[tuple[E.Core, int]], walker,
               progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Each player's :func:`move_kind` per strategy slot of ``graph`` (walked from
    ``starts``, each a position and its node, with the ``walker`` that built it:
    :func:`~analysis.coup.solvers.leaf_table.graph_positions`)."""
    kinds = tuple(np.zeros(len(graph.slot_key[p]), np.int8) for p in (0, 1))
    for core, _, actions, lo in LT.graph_positions(graph.edge_start, graph.edge_child, starts,
                                                   walker, "moves by kind", progress):
        for j, action in enumerate(actions):
            slot = int(graph.edge_slot[lo + j])
            if slot >= 0:
                kinds[core.cur][slot] = move_kind(core, core.cur, action)
    return kinds


def biased(strategy: np.ndarray, kinds: np.ndarray, slot_key: np.ndarray,
           factors: dict[int, float]) -> np.ndarray:
    """``strategy`` with each kind of move's weight multiplied by its factor, every
    information set's mix normalised again."""
    weight = np.ones_like(strategy, dtype=float)
    for kind, factor in factors.items():
        weight[kinds == kind] = factor
    return normalise(np.asarray(strategy, float) * weight, slot_key)


def keyed_response_strategy(dg, setup: str, strategies, seat: int, iterations: int,
                            progress: bool = False) -> np.ndarray:
    """``seat``'s keyed best response to the blueprint ``strategies``, trained by
    ``iterations`` of CFR+ against it (the blueprint's key: what it sees)."""
    other = 1 - seat
    solver = CyclicCFR(dg.graph, dg.root_vector(setup), fixed={other: strategies[other]})
    solver.run(iterations, progress, desc=f"keyed best response, seat {seat}")
    return solver.average_strategy(seat)


def continuation_strategies(dg, setup: str, strategies, kinds, names: Sequence[str],
                            chooser: int, response_iterations: int = 20,
                            progress: bool = False) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each continuation's pair of strategies: the blueprint for the re-solving player,
    the continuation for ``chooser``."""
    out = {}
    for name in names:
        if name == RESPONSE:
            mine = keyed_response_strategy(dg, setup, strategies, chooser,
                                           response_iterations, progress)
        else:
            mine = biased(strategies[chooser], kinds[chooser], dg.graph.slot_key[chooser],
                          BIASES[name])
        pair = list(strategies)
        pair[chooser] = mine
        out[name] = (np.asarray(pair[0], float), np.asarray(pair[1], float))
    return out


@dataclasses.dataclass(frozen=True)
class Continuations:
    """A deck's continuation tables for one setup: ``mean[(chooser, name)]`` player 0's
    value per :func:`~.leaf_table.leaf_code` when ``chooser`` plays on by ``name`` and
    the other player by the blueprint (NaN: no such position reached)."""

    deck: str
    setup: str
    names: tuple[str, ...]
    mean: dict
    trained: int
    provenance: dict

    def leaves(self, chooser: int, fallback: Callable[[E.Core], float]
               ) -> list[Callable[[E.Core], float]]:
        """The re-solve's continuations when ``chooser`` picks: one leaf per name, each
        the table's value, ``fallback`` where the table has none."""
        def leaf(table):
            def value(core: E.Core) -> float:
                code = LT.leaf_code(core)
                v = table[code] if code is not None else np.nan
                return fallback(core) if np.isnan(v) else float(v)
            return value
        return [leaf(self.mean[(chooser, name)]) for name in self.names]

    def save(self, path: Path) -> None:
        arrays = {f"mean_{c}_{n}": self.mean[(c, n)].astype(np.float32)
                  for c in (0, 1) for n in self.names}
        about = {"format": FORMAT, "deck": self.deck, "setup": self.setup,
                 "names": list(self.names), "trained": self.trained,
                 "coin_cap": LT.COIN_CAP, "provenance": self.provenance}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, about=np.array(json.dumps(about, sort_keys=True)), **arrays)
        store.atomic_write(path, lambda fh: fh.write(buffer.getvalue()), binary=True)

    @classmethod
    def load(cls, path: Path) -> Continuations:
        try:
            with np.load(path) as z:
                about = json.loads(str(z["about"]))
                mean = {(c, n): z[f"mean_{c}_{n}"].astype(float) for c in (0, 1)
                        for n in about["names"]}
        except (*READ_ERRORS, KeyError, json.JSONDecodeError) as exc:
            raise CorruptFileError(f"{store.shown(path)}: not readable continuation "
                                   f"values ({exc})") from None
        if about.get("format") != FORMAT or about.get("coin_cap") != LT.COIN_CAP:
            raise CorruptFileError(f"{store.shown(path)}: continuation values of another "
                                   "format")
        return cls(about["deck"], about["setup"], tuple(about["names"]), mean,
                   int(about["trained"]), about["provenance"])

    def complete(self, names: Sequence[str]) -> bool:
        return all((c, n) in self.mean for c in (0, 1) for n in names)


def tables_path(deck: str, setup: str) -> Path:
    return store.cache("coup", "blueprint", f"{deck}-{setup}-continuations.npz")


def build(deck: str, setup: str, names: Sequence[str] = (*BIASES, RESPONSE),
          response_iterations: int = 20, progress: bool = False, dg=None) -> Continuations:
    """``deck``'s continuation tables for the dealt ``setup``, from its stored blueprint
    (a value sweep of the whole graph per continuation and chooser: most of an hour
    each pair on two cores), saved in the cache. Each table is kept as it is done, so a
    stopped build goes on from the tables it has (the walks of the graph are made
    again)."""
    bp = B.load_blueprint(deck)
    trained = bp.records[setup].iterations
    path = tables_path(deck, setup)
    done = stored(deck, setup)
    mean = dict(done.mean) if done is not None and done.trained == trained else {}
    todo = [(c, n) for c in (0, 1) for n in names if (c, n) not in mean]
    if todo:
        dg = B.deck_graph(deck, "dealt", progress) if dg is None else dg
        walker, roots = B.graph_starts(B.deck_games(deck, "dealt"))
        starts = [(r, dg.roots[s]) for s, r in roots.items() if s in dg.roots]
        codes = LT.turn_start_codes(dg.graph.edge_start, dg.graph.edge_child, starts, walker,
                                    progress)
        kinds = slot_kinds(dg.graph, starts, walker, progress)
        strategies = tuple(np.asarray(s, float) for s in bp.strategy[setup])
        solver = CyclicCFR(dg.graph, dg.root_vector(setup))
        visits = solver.visits(strategies, LT.VISIT_SWEEPS, progress,
                               desc=f"blueprint {deck} {setup}: visits")
        for chooser, name in todo:
            pair = continuation_strategies(dg, setup, strategies, kinds, (name,), chooser,
                                           response_iterations, progress)[name]
            value = solver.evaluate(pair, progress, desc=f"{name}, chooser {chooser}")
            mean[(chooser, name)], _ = LT.aggregate(codes, value, visits)
            kept = tuple(n for n in names if all((c, n) in mean for c in (0, 1)))
            Continuations(deck, setup, kept, mean, trained, provenance(None)).save(path)
    out = Continuations(deck, setup, tuple(names), mean, trained, provenance(None))
    out.save(path)
    return out


def stored(deck: str, setup: str) -> Continuations | None:
    """The cached tables (``None``: not built)."""
    path = tables_path(deck, setup)
    return Continuations.load(path) if path.exists() else None
