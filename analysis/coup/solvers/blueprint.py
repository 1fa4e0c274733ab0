"""The 2-player Coup blueprint: a strong strategy for the whole game, from the deal.

The whole game's position graph (every position reachable from the deals of the three
2-player setups, no turn cap: play that loops is part of the game) is solved by CFR+
on the graph (:mod:`analysis.solve.cyclic`), each player's strategy keyed by what the
player sees now: their own cards, the coins, the cards lost, whose turn and the
pending claim, block or challenge (:func:`blueprint_key`). It is an abstraction: a
player forgets the order of past claims. Its accuracy is measured, never assumed
(:mod:`analysis.coup.studies.blueprint_bounds`). A Coup that wins at once is always played
(:class:`~games.coup.walker.DecisiveCoupWalker`, an exact reduction).

Artifacts: the graph and the training checkpoints in the cache (hundreds of MB, built on
first use), the strategy per deck in the cache, and a small summary record per deck
under the data store.
"""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analysis.coup.guarantees import (
    PositionGraph,
    encode_key,
    markov_key,
    position_graph,
    position_id,
    position_key,
    uncapped_roots,
)
from analysis.coup.model import full_game
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import READ_ERRORS, CorruptFileError, atomic_write_text, read_json
from analysis.solve.cyclic import CyclicCFR, CyclicGraph
from analysis.solve.key_table import KeyTable
from analysis.solve.mapped import atomic_savez, load_npz_mapped
from games.coup import cards as C
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker, decisive_coup
from games.errors import InvalidParameterError

# Setups walked and solved on one graph. The dealt setups differ only in the coins at
# the deal, so their graphs are nearly one; a draft's court of three cards makes a
# larger graph of its own.
PARTS = {"dealt": C.DEALT_SETUPS, "draft": ("draft",)}
# CFR+ iterations per setup: the whole deck fits two hours on two cores, and more did not
# lower the measured bound on the 1v1 endgames' graph (benchmarks/results/coup_blueprint.txt).
ITERATIONS = 50
CHECKPOINT_EVERY = 10  # iterations between saves: a stopped build loses minutes, not hours
GRAPH_FORMAT = 1


def blueprint_key(s: E.Core, player: int) -> tuple:
    """What ``player``'s blueprint strategy depends on at ``s``: their own cards and the
    public position (:func:`~analysis.coup.guarantees.markov_key`), plus whether the
    game was drafted (a drafted court holds three cards, so exchanges differ)."""
    return markov_key(s, player) + (any(s.unused),)


def check_deck(deck: str) -> str:
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck {deck!r}: choose one of {', '.join(C.DECKS)}")
    return deck


def check_setup(setup: str) -> str:
    if setup not in C.SETUPS:
        raise InvalidParameterError(f"setup {setup!r}: choose one of {', '.join(C.SETUPS)}")
    return setup


def part_of(setup: str) -> str:
    """The graph ``setup`` is solved on (a key of :data:`PARTS`)."""
    return next(part for part, setups in PARTS.items() if check_setup(setup) in setups)


def graph_path(deck: str, part: str) -> Path:
    return store.cache("coup", "blueprint", f"{deck}-{part}-graph.npz")


def checkpoint_path(deck: str, setup: str) -> Path:
    return store.cache("coup", "blueprint", f"{deck}-{setup}-training.npz")


def strategy_path(deck: str, part: str) -> Path:
    return store.cache("coup", "blueprint", f"{deck}-{part}-strategy.npz")


def summary_path(deck: str) -> Path:
    return store.data("coup", "blueprint", f"{deck}.json")


@dataclasses.dataclass(frozen=True)
class DeckGraph:
    """One deck's whole-game graph for the solver, with what a reader needs to find a
    player's information set: ``keys[p]`` maps :func:`encode_key` of
    :func:`blueprint_key` to ``(first slot, number of actions)``; ``roots`` the node
    of each setup's deal."""

    deck: str
    graph: CyclicGraph
    keys: tuple[dict, dict]
    roots: dict[str, int]

    def root_vector(self, start: str) -> np.ndarray:
        root = np.zeros(self.graph.num_nodes)
        root[self.roots[start]] = 1.0
        return root


def cyclic_graph(g: PositionGraph) -> CyclicGraph:
    """The position graph as the solver's input: a win pays +1, a loss -1."""
    payoff = np.select([g.winner == 0, g.winner == 1], [1.0, -1.0], 0.0)
    slot = np.where(g.slot[0] >= 0, g.slot[0], g.slot[1])
    return CyclicGraph(g.kind, payoff, g.edge_start, g.edge_child, g.edge_prob, slot,
                       g.slot_key)


def walk(name: str, games: dict, progress: bool = False) -> DeckGraph:
    """The graph of every position reachable from the starts of ``games`` (a name ->
    2-player ``python_coup`` game differing only in where they start), no turn cap."""
    walker, starts = graph_starts(games)
    g = position_graph(walker, list(starts.values()), progress, key=blueprint_key,
                       depth_first=True)
    nodes = {setup: g.index[position_id(position_key(root))] for setup, root in starts.items()}
    return DeckGraph(name, cyclic_graph(g), g.key_slots, nodes)


def graph_starts(games: dict) -> tuple[DecisiveCoupWalker, dict[str, E.Core]]:
    """The walker that steps the graph of ``games`` (uncapped, no history) and each
    game's start under it, by name: what a walk of that graph starts from."""
    config, roots = uncapped_roots(list(games.values()))
    for root in roots:
        root.turn = 0  # the graph's positions carry no turn count
    return DecisiveCoupWalker(config, history=False), dict(zip(games, roots, strict=True))


def deck_games(deck: str, part: str) -> dict:
    """The 2-player setups of ``deck`` solved on the graph ``part``, by name."""
    return {setup: full_game(setup, check_deck(deck), 1) for setup in PARTS[part]}


def walk_deck(deck: str, part: str, progress: bool = False) -> DeckGraph:
    """Walk the whole game of ``deck`` from the deals of ``part``'s setups (minutes)."""
    return walk(deck, deck_games(deck, part), progress)


def history_roots(games: dict) -> tuple[E.Config, dict[str, E.Core]]:
    """The uncapped config the graph of ``games`` is stepped under, and each game's
    start with its event log (what the players see), for play on the graph."""
    config, _ = uncapped_roots(list(games.values()))
    roots = {}
    for name, game in games.items():
        root = DecisiveCoupWalker(game.config, history=True).root()
        root.cfg = config
        roots[name] = root
    return config, roots


def _pack_keys(keys) -> dict:
    if isinstance(keys, KeyTable):
        return keys.arrays()
    blob = b"".join(keys)
    offsets = np.cumsum([0] + [len(k) for k in keys], dtype=np.int64)
    first, count = (np.array(v, np.int64) for v in zip(*keys.values(), strict=True)) \
        if keys else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    return KeyTable(np.frombuffer(blob, np.uint8), offsets, first, count).arrays()


_KEY_ARRAYS = ("blob", "offsets", "first", "count", "hashes", "order")


def _unpack_keys(arrays: dict, p: int) -> KeyTable:
    """Player ``p``'s key table from a saved file's ``arrays`` (files saved before the
    index was stored build it at the first lookup)."""
    return KeyTable(*(arrays.get(f"{name}{p}") for name in _KEY_ARRAYS))


def save_deck_graph(dg: DeckGraph, path: Path) -> None:
    g = dg.graph
    arrays = {"format": np.int64(GRAPH_FORMAT), "kind": g.kind, "payoff": g.payoff,
              "edge_start": g.edge_start, "edge_child": g.edge_child,
              "edge_prob": g.edge_prob, "edge_slot": g.edge_slot,
              "roots": np.array(list(dg.roots.values()), np.int64),
              "root_names": np.frombuffer(json.dumps(list(dg.roots)).encode(), np.uint8)}
    for p in (0, 1):
        arrays[f"slot_key{p}"] = g.slot_key[p]
        arrays |= {f"{name}{p}": a for name, a in _pack_keys(dg.keys[p]).items()}
    atomic_savez(path, **arrays)


def load_deck_graph(deck: str, path: Path) -> DeckGraph:
    """A saved deck graph (a damaged or outdated file raises :class:`CorruptFileError`)."""
    try:
        with np.load(path) as z:
            a = {k: z[k] for k in z.files}
        if int(a["format"]) != GRAPH_FORMAT:
            raise ValueError("an older format")
        graph = CyclicGraph(a["kind"], a["payoff"], a["edge_start"], a["edge_child"],
                            a["edge_prob"], a["edge_slot"], (a["slot_key0"], a["slot_key1"]))
        graph.check()
        keys = tuple(_unpack_keys(a, p) for p in (0, 1))
        names = json.loads(a["root_names"].tobytes())
        roots = dict(zip(names, a["roots"].tolist(), strict=True))
    except (*READ_ERRORS, KeyError, TypeError) as exc:
        raise CorruptFileError(f"{store.shown(path)}: not a readable Coup graph ({exc})") from None
    return DeckGraph(deck, graph, keys, roots)


def deck_graph(deck: str, part: str, progress: bool = False) -> DeckGraph:
    """The graph of ``deck``'s setups in ``part`` from the cache, walked and saved first
    when missing or damaged."""
    path = graph_path(check_deck(deck), part)
    if path.exists():
        try:
            return load_deck_graph(deck, path)
        except CorruptFileError as exc:
            store.say_damaged(path, str(exc))
    dg = walk_deck(deck, part, progress)
    save_deck_graph(dg, path)
    return dg


@dataclasses.dataclass(frozen=True)
class TrainingRecord:
    """How one setup's blueprint was trained, and its value at the deal (the first
    player's payoff, +1 a win, -1 a loss) under the blueprint's self-play."""

    deck: str
    setup: str
    iterations: int
    seconds: float
    first_player_value: float
    nodes: int
    edges: int
    information_sets: tuple[int, int]
    provenance: dict

    @property
    def first_player_win(self) -> float:
        return (1.0 + self.first_player_value) / 2.0

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> TrainingRecord:
        d = dict(d)
        d["information_sets"] = tuple(d["information_sets"])
        return cls(**d)


def train(deck: str, setup: str, iterations: int = ITERATIONS, progress: bool = False,
          dg: DeckGraph | None = None, values: dict | None = None
          ) -> tuple[TrainingRecord, tuple[np.ndarray, np.ndarray]]:
    """CFR+ on ``deck``'s graph from ``setup``'s deal, resumable from its checkpoint;
    the record and both players' average strategies (a probability per slot). The
    record's value at the deal comes from the blueprint's value at every position, which
    is put in ``values[setup]`` when a dict is given (advice re-solves from it)."""
    dg = deck_graph(deck, part_of(setup), progress) if dg is None else dg
    solver = CyclicCFR(dg.graph, dg.root_vector(setup))
    path = checkpoint_path(deck, setup)
    if path.exists():
        try:
            solver.load(path)  # a refused file leaves the solver as it was: a fresh start
        except CorruptFileError as exc:
            store.say_damaged(path, str(exc))
            path.unlink()
    solver.run(iterations, progress, checkpoint=path, every=CHECKPOINT_EVERY,
               desc=f"blueprint {deck} {setup}", resume=False)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    everywhere = solver.evaluate(strategies, progress, desc=f"blueprint {deck} {setup}: values")
    if values is not None:
        values[setup] = everywhere
    record = TrainingRecord(deck, setup, solver.iterations, solver.seconds,
                            float(everywhere[dg.roots[setup]]), dg.graph.num_nodes, dg.graph.num_edges,
                            tuple(len(k) for k in dg.keys), provenance(None))
    return record, strategies


@dataclasses.dataclass(frozen=True)
class Blueprint:
    """One deck's blueprint: each setup's strategies, read by information set.

    ``keys[part][p]`` maps :func:`encode_key` of :func:`blueprint_key` to player ``p``'s
    slots on the graph ``part`` (:data:`PARTS`); ``strategy[setup][p]`` holds a
    probability per slot; ``records[setup]`` how it was trained. Query it with
    :meth:`action_probabilities` (an OpenSpiel state, as OpenSpiel's ``Policy`` does)
    or :meth:`mix` (an engine position).
    """

    deck: str
    keys: dict[str, tuple[dict, dict]]
    strategy: dict[str, tuple[np.ndarray, np.ndarray]]
    records: dict[str, TrainingRecord]

    @property
    def setups(self) -> tuple[str, ...]:
        return tuple(s for s in C.SETUPS if s in self.strategy)

    def mix(self, core: E.Core, player: int, setup: str) -> np.ndarray | None:
        """``player``'s probabilities over ``core.legal_actions()`` (in that order), or
        ``None`` where the position is not in the blueprint (a position set up by hand
        that the deal cannot reach)."""
        if setup not in self.strategy:
            raise InvalidParameterError(
                f"the {self.deck} blueprint has no {setup!r} setup; it has "
                f"{', '.join(self.setups) or 'none yet'}")
        legal = core.legal_actions()
        coup = decisive_coup(core)
        if coup is not None:
            return np.array([1.0 if a == coup else 0.0 for a in legal])
        found = self.keys[part_of(setup)][player].get(encode_key(blueprint_key(core, player)))
        if found is None or found[1] != len(legal):
            return None
        first, count = found
        return self.strategy[setup][player][first:first + count].astype(float)

    def action_probabilities(self, state, player_id: int | None = None) -> dict[int, float]:
        """The blueprint's mix at an OpenSpiel ``python_coup`` state (action -> probability);
        an empty dict where the position is not in the blueprint."""
        params = state.get_game().get_parameters()
        if params["players"] != 2 or params["deck"] != self.deck:
            raise InvalidParameterError(
                f"the {self.deck} blueprint plays 2-player games with the {self.deck} deck")
        player = state.current_player() if player_id is None else player_id
        mix = self.mix(state.core, player, params["two_player_setup"])
        if mix is None:
            return {}
        return dict(zip(state.legal_actions(), mix.tolist(), strict=True))


def save_blueprint(bp: Blueprint, part: str, path: Path) -> None:
    """Save the setups of ``part`` (the graph's keys once, a strategy per setup)."""
    setups = [s for s in PARTS[part] if s in bp.strategy]
    arrays = {"format": np.int64(GRAPH_FORMAT),
              "records": np.frombuffer(json.dumps(
                  {s: bp.records[s].to_json() for s in setups if s in bp.records}).encode(),
                  np.uint8)}
    for p in (0, 1):
        arrays |= {f"{name}{p}": a for name, a in _pack_keys(bp.keys[part][p]).items()}
    for setup in setups:
        for p in (0, 1):
            arrays[f"strategy_{setup}_{p}"] = bp.strategy[setup][p].astype(np.float32)
    atomic_savez(path, **arrays)


def _load_part(path: Path) -> tuple[tuple[dict, dict], dict, dict]:
    # Mapped, not read: a deck's strategies are hundreds of MB, and advice or a game
    # reads a few thousand of their rows.
    try:
        a = load_npz_mapped(path)
        if int(a["format"]) != GRAPH_FORMAT:
            raise ValueError("an older format")
        records = {s: TrainingRecord.from_json(r)
                   for s, r in json.loads(a["records"].tobytes()).items()}
        keys = tuple(_unpack_keys(a, p) for p in (0, 1))
        strategy = {s: (a[f"strategy_{s}_0"], a[f"strategy_{s}_1"]) for s in C.SETUPS
                    if f"strategy_{s}_0" in a}
    except (*READ_ERRORS, KeyError, TypeError) as exc:
        raise CorruptFileError(f"{store.shown(path)}: not a readable blueprint ({exc})") from None
    return keys, strategy, records


def load_blueprint(deck: str) -> Blueprint:
    """``deck``'s blueprint from the cache, every setup built so far (refused in one line
    when none is built or a file is damaged)."""
    keys, strategy, records = {}, {}, {}
    for part in PARTS:
        path = strategy_path(check_deck(deck), part)
        if path.exists():
            keys[part], more, done = _load_part(path)
            strategy |= more
            records |= done
    if not strategy:
        raise InvalidParameterError(
            f"no {deck} blueprint yet: build it with `farol coup blueprint build --deck {deck}`")
    return Blueprint(deck, keys, strategy, records)


def read_summary(deck: str) -> dict:
    """The committed summary of ``deck``'s blueprint (``{}`` when none is stored)."""
    path = summary_path(deck)
    return read_json(path) if path.exists() else {}


@dataclasses.dataclass(frozen=True)
class Accuracy:
    """How much a best response beats one setup's blueprint, from below, in win
    probability (the mean over the two seats): ``keyed``, an exact lower bound (a best
    response among strategies that see what the blueprint sees); ``local``, the gain of
    the local best response that plans ``local_depth`` decisions, measured over
    ``local_games`` games a seat, with its 95% interval."""

    keyed: float | None = None
    local: tuple[float, float, float] | None = None
    local_games: int = 0
    local_depth: int = 0

    @property
    def at_least(self) -> float | None:
        """The larger of the two lower bounds (the local one at its 95% interval's low
        end); ``None`` when neither is measured."""
        found = [x for x in (self.keyed, self.local[1] if self.local else None) if x is not None]
        return max(found) if found else None

    def text(self) -> str:
        """The bounds in a few words, for tables and advice."""
        parts = []
        if self.keyed is not None:
            parts.append(f"at least {self.keyed:z.3f} (exact lower bound)")
        if self.local is not None:
            g, lo, hi = self.local
            parts.append(f"{g:z.3f} [{lo:z.3f}, {hi:z.3f}] won by a best response planning "
                         + ("its next decision" if self.local_depth == 1
                            else f"{self.local_depth} decisions")
                         + f" ({self.local_games:,} games a seat, 95%)")
        return "; ".join(parts) if parts else "not measured yet"


def accuracy(summary: dict, setup: str) -> Accuracy:
    """``setup``'s measured bounds in a deck's summary (of the local responses, the one
    played over the most games)."""
    b = summary.get("bounds", {}).get(setup, {})
    local = None
    games = depth = 0
    runs = b.get("local_best_response", [])
    if runs:
        # The run with the most games a seat (then the deepest): the one measured best.
        depth = max(runs, key=lambda r: (r["games"], r.get("depth", 1))).get("depth", 1)
        seats = {r["seat"]: r for r in runs if r.get("depth", 1) == depth}
        if set(seats) == {0, 1}:
            gain = sum(r["gain"] for r in seats.values()) / 4  # win probability, mean of seats
            half = math.sqrt(sum(((r["ci95"][1] - r["ci95"][0]) / 4) ** 2
                                 for r in seats.values())) / 2
            local = (gain, gain - half, gain + half)
            games = min(r["games"] for r in seats.values())
    return Accuracy(b.get("exploitability_lower_bound"), local, games if local else 0,
                    depth if local else 0)


def build(deck: str, part: str, setups=None, iterations: int = ITERATIONS,
          progress: bool = False, dg: DeckGraph | None = None,
          values: dict | None = None) -> Blueprint:
    """Train ``setups`` (by default all) of the graph ``part`` of ``deck``, each
    resumable, and save the blueprint and its summary; setups already trained to
    ``iterations`` are kept as they are (``values``: see :func:`train`)."""
    setups = PARTS[part] if setups is None else tuple(setups)
    if any(part_of(s) != part for s in setups):
        raise InvalidParameterError(f"the {part} graph holds {', '.join(PARTS[part])} only")
    dg = deck_graph(deck, part, progress) if dg is None else dg
    path = strategy_path(deck, part)
    strategy, records = {}, {}
    if path.exists():
        try:
            _, strategy, records = _load_part(path)
        except CorruptFileError as exc:
            store.say_damaged(path, str(exc))
    for setup in setups:
        if setup in records and records[setup].iterations >= iterations:
            continue
        records[setup], strategy[setup] = train(deck, setup, iterations, progress, dg, values)
        save_blueprint(Blueprint(deck, {part: dg.keys}, strategy, records), part, path)
        update_summary(deck, functools.partial(_trained, setup, records[setup].to_json()))
    return Blueprint(deck, {part: dg.keys}, strategy, records)


def _trained(setup: str, record: dict, summary: dict) -> None:
    old = summary.get("setups", {}).get(setup)
    summary.setdefault("setups", {})[setup] = record
    if not same_training(old, record):
        summary.get("bounds", {}).pop(setup, None)  # measured on the strategy this replaces


# What a training record says of its strategy: CFR+ is deterministic, so the same graph
# and iterations give the same strategy, and its value from the deal confirms it.
SAME_STRATEGY = ("iterations", "nodes", "edges", "first_player_value")


def same_training(old: dict | None, new: dict) -> bool:
    """Whether a setup trained again (a build from an empty cache) made the strategy the
    stored one was, whose measured bounds then still hold."""
    return old is not None and all(k in old and old[k] == new.get(k) for k in SAME_STRATEGY)


def update_summary(deck: str, change: Callable[[dict], None] | None = None, **fields) -> None:
    """Write ``fields`` into ``deck``'s summary record and apply ``change`` to it (in
    place), the rest kept, under a lock: two processes building a deck's parts at once
    keep each other's setups."""
    lock = store.cache("coup", "blueprint", f"{deck}-summary.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        summary = read_summary(deck) | {"deck": deck} | fields
        if change is not None:
            change(summary)
        path = summary_path(deck)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(summary, indent=1, sort_keys=True) + "\n")
