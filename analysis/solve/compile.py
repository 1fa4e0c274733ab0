"""Compile a two-player zero-sum OpenSpiel game once into flat numpy arrays.

Walking a game through OpenSpiel's state API costs microseconds a node, so the
engine walks it exactly once and keeps only flat arrays (CSR-style):

* internal nodes ``0 .. num_internal - 1`` in breadth-first topological order (the
  root is 0, parents before children), with their kind (chance, player 0, player 1)
  and information set;
* terminal nodes ``num_internal + t``, with player 0's utility ``utility[t]``;
* edges ``edge_start[n]:edge_start[n + 1]``: the children of internal node ``n`` in
  the order of its legal actions (or chance outcomes, with their probabilities), and
  each edge's OpenSpiel action (``edge_action``);
* information sets, numbered in order of first appearance, with their player, legal
  actions ``infoset_actions[infoset_offset[i]:infoset_offset[i + 1]]`` and, in tree
  mode, the flat row of the player's previous action (``infoset_parent_row``, -1 for
  none) used to compute own reach probabilities per information set.

Two modes:

``tree``
    One node per history, information sets from ``information_state_string``
    (perfect recall, exact).
``graph``
    Histories reaching the same position (equal ``state_key()``, see
    :mod:`games.keys`) become one node, and information sets are keyed by
    ``infoset_key(player)``. When every information set holds a single
    position (games of public information) this is exact; otherwise it is an
    imperfect-recall abstraction and :attr:`CompiledGame.imperfect_recall` says so.

Simultaneous-move games are made turn-based: in tree mode through OpenSpiel's
``convert_to_turn_based``; in graph mode the compiler does the same itself
(player 0 moves, then player 1 moves without seeing player 0's choice) so the
game's own state keys stay available.
"""

from __future__ import annotations

import json
import marshal
import os
import random
import time
from array import array
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

import numpy as np
import pyspiel

from analysis.solve import layout
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError

# Bump when the compiled layout or its meaning changes (it keys the disk cache).
COMPILE_VERSION = 1

TERMINAL, CHANCE, PLAYER0, PLAYER1 = 0, 1, 2, 3

_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS_ID = int(pyspiel.PlayerId.SIMULTANEOUS)
_MULTI = object()  # a position with several parents

# Bytes a node costs at its peak: the walk's growable arrays, their numpy copies and the
# solver's working arrays (reaches, values); ~1 edge a node. Graph mode adds the key tables,
# 16-byte digests (measured: 252 bytes a node at the peak of a 12.2 million-node ¡Cobardes!
# villain graph, 308 on a 0.5 million-node one that tracks positions throughout; 555 when
# the tables held the key tuples themselves).
TREE_BYTES_PER_NODE = 140
GRAPH_BYTES_PER_NODE = 300


@dataclass(frozen=True, eq=False)
class CompiledGame:
    """A game compiled into flat arrays (see the module docstring for the layout)."""

    game: str
    mode: str
    imperfect_recall: bool
    kind: np.ndarray
    infoset: np.ndarray
    edge_start: np.ndarray
    edge_child: np.ndarray
    edge_prob: np.ndarray
    edge_action: np.ndarray
    utility: np.ndarray
    infoset_player: np.ndarray
    infoset_offset: np.ndarray
    infoset_actions: np.ndarray
    infoset_keys: list[str]  # empty when compiled with ``key_names=False``
    infoset_parent_row: np.ndarray
    action_names: list[dict[int, str]] = field(default_factory=lambda: [{}, {}])
    compile_seconds: float = 0.0
    # Tree mode with ``abstract_keys=True``: each information set's state-keyed
    # counterpart (the graph mode's printable key of the same positions).
    infoset_abstract_keys: list[str] = field(default_factory=list)
    # Positions the compile's walk visited (a deal-lifted walk visits fewer than the
    # graph's internal nodes); 0 when unknown (loaded from the disk cache).
    walked: int = 0

    @property
    def num_internal(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_terminals(self) -> int:
        return int(self.utility.shape[0])

    @property
    def num_nodes(self) -> int:
        return self.num_internal + self.num_terminals

    @property
    def perfect_recall_rows(self) -> bool:
        """Whether own reaches can be computed per information set (tree, perfect recall)."""
        return bool(self.num_infosets == 0 or self.infoset_parent_row[0] != -2)

    @property
    def num_edges(self) -> int:
        return int(self.edge_child.shape[0])

    @property
    def num_infosets(self) -> int:
        return int(self.infoset_player.shape[0])

    @property
    def num_actions(self) -> int:
        """Total (information set, action) pairs: the length of regret and strategy rows."""
        return int(self.infoset_actions.shape[0])

    @property
    def root(self) -> int:
        return 0

    def nbytes(self) -> int:
        """Bytes held by the numeric arrays."""
        arrays = (
            self.kind,
            self.infoset,
            self.edge_start,
            self.edge_child,
            self.edge_prob,
            self.edge_action,
            self.utility,
            self.infoset_player,
            self.infoset_offset,
            self.infoset_actions,
            self.infoset_parent_row,
        )
        return int(sum(a.nbytes for a in arrays))

    def summary(self) -> str:
        counts = np.bincount(self.kind, minlength=4)
        return (
            f"{self.game} [{self.mode}]: {self.num_nodes:,} nodes "
            f"({self.num_terminals:,} terminal, {counts[CHANCE]:,} chance, "
            f"{counts[PLAYER0] + counts[PLAYER1]:,} decision), "
            f"{self.num_infosets:,} information sets"
            + (" (imperfect-recall abstraction)" if self.imperfect_recall else "")
        )


def check_supported(game: pyspiel.Game) -> None:
    """Refuse, in one line, a game the engine cannot solve."""
    gtype = game.get_type()
    if game.num_players() != 2:
        raise UnsupportedGameError(
            f"{game} has {game.num_players()} players; the engine solves two-player games"
        )
    if gtype.utility != pyspiel.GameType.Utility.ZERO_SUM:
        raise UnsupportedGameError(
            f"{game} is {gtype.utility.name.lower().replace('_', '-')}; "
            "the engine solves zero-sum games"
        )
    if gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise UnsupportedGameError(
            f"{game} has sampled chance; the engine needs explicit chance outcomes"
        )


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable``), or 4 GiB when unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30


def default_memory_budget() -> int:
    """Half of the available memory: the machine is shared."""
    return available_memory() // 2


def estimate_tree_nodes(
    game: pyspiel.Game, probes: int = 64, seed: int = 0, max_depth: int = 10_000
) -> float:
    """Knuth's unbiased estimate of the number of histories, from random root-to-leaf probes.

    Each probe walks to a terminal choosing uniformly among the children and adds up the
    products of branching factors along its path; the mean over probes is unbiased.
    Simultaneous nodes count their turn-based expansion (player 0's node plus one node
    of player 1 per action of player 0).
    """
    def step(state, rng):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            actions = [a for a, p in state.chance_outcomes() if p > 0]
            state.apply_action(rng.choice(actions))
            return state, len(actions), 0
        if state.is_simultaneous_node():
            legal0, legal1 = state.legal_actions(0), state.legal_actions(1)
            state.apply_actions([rng.choice(legal0), rng.choice(legal1)])
            return state, len(legal0) * len(legal1), len(legal0)  # player 1's pending nodes
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
        return state, len(actions), 0

    return _knuth_estimate(game.new_initial_state, step, probes, seed, max_depth)


def estimate_walker_nodes(walker: Any, probes: int = 64, seed: int = 0,
                          max_depth: int = 10_000) -> float:
    """:func:`estimate_tree_nodes` through a :class:`games.keys.Walker` (sequential moves):
    the size of the tree the walker describes, e.g. one that ends the game early."""
    def step(s, rng):
        player = walker.actor(s)
        if player == _TERMINAL_ID:
            return None
        if player == _CHANCE_ID:
            actions = [a for a, p in walker.chance_outcomes(s) if p > 0]
        else:
            actions = walker.legal_actions(s)
        return walker.child(s, rng.choice(actions)), len(actions), 0

    return _knuth_estimate(walker.root, step, probes, seed, max_depth)


def _knuth_estimate(new_root, step, probes: int, seed: int, max_depth: int) -> float:
    """The mean over ``probes`` random paths of the sum of branching products along each.

    ``step(s, rng)`` makes one random move: ``None`` at a terminal, else (the next
    position, the branching factor, and nodes to count at the current weight first).
    """
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        s = new_root()
        weight, estimate = 1.0, 1.0
        for _depth in range(max_depth):
            moved = step(s, rng)
            if moved is None:
                break
            s, branching, pending = moved
            estimate += weight * pending
            weight *= branching
            estimate += weight
        total += estimate
    return total / probes


def _format_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.1f} {unit}" if n < 10_000 else f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:.1f} PB"


def parse_memory(text: str | int | None) -> int | None:
    """``"8GB"``, ``"512MB"``, ``"1e9"`` or an int of bytes; ``None`` stays ``None``."""
    if text is None or isinstance(text, int):
        return text
    units = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "B": 1}
    raw = str(text).strip().upper()
    number, scale = raw, 1
    for suffix, factor in units.items():
        if raw.endswith(suffix):
            number, scale = raw[: -len(suffix)].strip(), factor
            break
    try:
        value = float(number) * scale
    except ValueError:
        from games.errors import InvalidParameterError

        raise InvalidParameterError(
            f"memory budget {text!r} is not a size like 8GB or 512MB"
        ) from None
    return int(value)


def _key_text(key: object) -> str:
    return key if isinstance(key, str) else repr(key)


def key_digest(key: object) -> bytes:
    """A 16-byte digest of a state or information-set key (graph mode's tables).

    Graph walks keep one table entry per position and per information set; a digest
    (49 bytes as a Python object) instead of the key tuple itself (~400 bytes with its
    nested tuples) is what lets a ¡Cobardes! villain graph of tens of millions of nodes
    fit in memory. Equal keys give equal digests: marshal format 2 writes no
    back-references, so the bytes depend on the key's value, not on which objects it
    shares. Two distinct keys collide with probability ~n^2 / 2^129 for n keys.
    """
    try:
        data = marshal.dumps(key, 2)
    except ValueError:  # not a plain int/str/tuple key: its repr identifies it
        data = repr(key).encode()
    return blake2b(data, digest_size=16).digest()


def compile_game(
    game: pyspiel.Game,
    graph: bool = False,
    max_memory: int | None = None,
    progress: bool = False,
    use_walker: bool = True,
    key_names: bool = True,
    abstract_keys: bool = False,
    lifted: bool = True,
    walker: Any = None,
) -> CompiledGame:
    """Walk ``game`` once into a :class:`CompiledGame`.

    Parameters
    ----------
    game
        A two-player zero-sum OpenSpiel game with explicit chance (simultaneous moves allowed).
    graph
        Merge positions with equal ``state_key()`` (the game's states must implement
        :class:`games.keys.KeyedState`).
    max_memory
        Memory budget in bytes (default: half the available memory). In tree mode the
        size is estimated before walking and the game refused with the estimate when
        it does not fit; in both modes the walk stops at the budget's node count.
    progress
        Show a tqdm bar of nodes walked.
    use_walker
        Walk the game's pure positions when it offers them
        (``game.solver_walker``, :class:`games.keys.Walker`): several times faster
        than OpenSpiel States and compiled to the same arrays. ``False`` forces the
        State walk (the tests compare the two).
    key_names
        Keep each information set's printable key (``infoset_keys``, what strategy
        tables and saved results are read by). ``False`` leaves ``infoset_keys`` empty
        and saves about a fifth of a large graph's memory: for measurements that need
        only the arrays (values, exploitability).
    abstract_keys
        Tree mode: also record, for each perfect-recall information set, the printable
        ``infoset_key`` its positions have (``infoset_abstract_keys``), i.e. the
        information set of the state-keyed abstraction (graph mode) that holds it. It
        lets :func:`analysis.solve.abstraction.graph_strategy_on_tree` play an
        abstraction's strategy in the exact game and measure its loss.
    lifted
        Graph mode, with the walker: when the game offers a deal-lifted walker that
        applies (``game.lifted_walker().lifts()``: hidden cards dealt), walk each
        position once for all deals of the hidden cards and expand the graph in numpy
        (:mod:`analysis.solve.lifted`; the same arrays, tested). ``False`` walks every deal.
    walker
        A :class:`games.keys.Walker` to compile instead of the game's own, e.g. one that
        ends the game early at positions valued otherwise
        (:class:`analysis.cobardes.subgames.PublicCut`). It must walk ``game``'s
        positions (with information-state strings in tree mode); when it offers
        ``lifts()`` and that says yes, graph mode takes the deal-lifted compile with it.
        Tree mode estimates the size of the tree it walks (:func:`estimate_walker_nodes`).

    Raises
    ------
    UnsupportedGameError
        Not two-player, not zero-sum, sampled chance, no state keys in graph mode, a
        cycle in the state graph, or information sets with different legal actions.
    GameTooLargeError
        The compiled game would exceed ``max_memory``.
    """
    check_supported(game)
    if abstract_keys and graph:
        raise UnsupportedGameError("abstract_keys maps a perfect-recall tree's information "
                                   "sets to the graph's: compile in tree mode")
    if abstract_keys and not hasattr(game.new_initial_state(), "infoset_key"):
        raise UnsupportedGameError(f"{game} offers no infoset_key(): no abstraction to map to")
    budget = max_memory if max_memory is not None else default_memory_budget()
    dynamics = game.get_type().dynamics
    simultaneous = dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if graph:
        root = game.new_initial_state()
        if not (hasattr(root, "state_key") and hasattr(root, "infoset_key")):
            raise UnsupportedGameError(
                f"{game} offers no state_key()/infoset_key(); solve it in tree mode (no --graph)"
            )
        walked = game
        per_node = GRAPH_BYTES_PER_NODE
    else:
        walked = pyspiel.convert_to_turn_based(game) if simultaneous else game
        simultaneous = False
        if not walked.get_type().provides_information_state_string:
            raise UnsupportedGameError(
                f"{game} provides no information-state strings; tree mode needs them"
            )
        per_node = TREE_BYTES_PER_NODE
        # A walker of one's own may end the game early: probe the tree it describes.
        def probe(probes=64, seed=0):
            if walker is None:
                return estimate_tree_nodes(walked, probes, seed)
            return estimate_walker_nodes(walker, probes, seed)

        estimate = probe()
        if estimate * per_node > budget / 100:
            # Knuth's estimate is unbiased but heavy-tailed (rare probes into the big
            # subtrees carry it): 64 probes put a Coup endgame at 4.5 of its 11.5 million
            # histories, 4096 probes within ~20%. Near the budget, take the larger of
            # the two; the walk itself still stops at the budget's node count.
            estimate = max(estimate, probe(probes=4096, seed=1))
        if estimate * per_node > budget:
            raise GameTooLargeError(
                f"{game} has an estimated {estimate:,.3g} histories (~"
                f"{_format_bytes(estimate * per_node)} compiled), over the memory budget of "
                f"{_format_bytes(budget)}; use graph mode or a smaller variant"
            )
    if walker is not None:
        lifts = graph and lifted and hasattr(walker, "lifts") and walker.lifts()
    else:
        lifts = (graph and use_walker and lifted and hasattr(game, "lifted_walker")
                 and game.lifted_walker().lifts())
    if lifts:
        from analysis.solve.lifted import compile_lifted

        return compile_lifted(game, max_memory=budget, progress=progress, key_names=key_names,
                              walker=walker)
    max_nodes = max(1, budget // per_node)
    start = time.perf_counter()
    if walker is None and use_walker and not simultaneous and hasattr(walked, "solver_walker"):
        walker = walked.solver_walker(history=not graph)
    if walker is not None:
        arrays = _walk_positions(
            walker, graph, max_nodes, progress, str(game), budget, per_node, key_names,
            abstract_keys,
        )
    else:
        arrays = _walk(
            walked, graph, simultaneous, max_nodes, progress, str(game), budget, per_node,
            key_names, abstract_keys,
        )
    return CompiledGame(
        game=str(walked) if not graph else str(game),
        mode="graph" if graph else "tree",
        compile_seconds=time.perf_counter() - start,
        walked=int(arrays["kind"].shape[0]),
        **arrays,
    )


class _Builder:
    """The growable arrays of a walk, shared by the State walk and the walker walk.

    Nodes are numbered as they close (children first); :func:`_finish` relabels them.
    """

    def __init__(self, graph, max_nodes, progress, name, budget, per_node, key_names=True,
                 abstract_keys=False):
        self.graph = graph
        self.key_names = key_names
        self.akeys: list[str] | None = [] if abstract_keys else None
        self.max_nodes = max_nodes
        self.name = name
        self.budget = budget
        self.per_node = per_node
        self.kind = array("b")
        self.node_infoset = array("i")
        self.edge_start = array("q")
        self.edge_child = array("i")
        self.edge_prob = array("d")
        self.edge_action = array("i")
        self.utility = array("d")
        self.iplayer = array("b")
        self.ioffset = array("q", [0])
        self.iactions = array("i")
        self.ikeys: list[str] = []
        self.infoset_index: dict = {}
        # Graph mode: the positions of each information set, each position's parent (or
        # _MULTI) and each node's (kind, infoset), to tell exact merging from an abstraction.
        # Tracking stops (and its memory is freed) as soon as a periodic check finds
        # hidden information merged: that finding cannot be undone by more nodes.
        self.tracking = graph
        self.imperfect = False
        self.infoset_states: list[set] = []
        self.parent_of: dict = {}
        self.node_info: dict = {}
        self.names: list[dict[int, str]] = [{}, {}]
        # Graph mode: the node of each walked position, and the positions on the path.
        self.memo: dict = {}
        self.on_stack: set = set()
        self.bar = None
        if progress:
            from tqdm.auto import tqdm

            self.bar = tqdm(desc="compiling", unit=" nodes", unit_scale=True, mininterval=0.5)

    def infoset_id(self, player, key, actions, state_key, action_name, text=None,
                   abstract=None):
        """The id of ``player``'s information set ``key`` (a new one if unseen).

        ``action_name(action)`` names actions the first time they appear; ``text()``
        gives the set's printable key when ``key`` itself is not (hashed histories);
        ``abstract()`` its state-keyed counterpart (``abstract_keys``).
        """
        full = key_digest((player, key)) if self.graph else (player, key)
        iid = self.infoset_index.get(full)
        if iid is None:
            iid = len(self.iplayer)
            self.infoset_index[full] = iid
            self.iplayer.append(player)
            self.iactions.extend(actions)
            self.ioffset.append(len(self.iactions))
            if self.key_names:
                self.ikeys.append(text() if text is not None else _key_text(key))
            if self.akeys is not None:
                self.akeys.append(abstract())
            if self.tracking:
                self.infoset_states.append({state_key})
            known = self.names[player]
            for a in actions:
                if a not in known:
                    known[a] = action_name(a)
            return iid
        lo, hi = self.ioffset[iid], self.ioffset[iid + 1]
        if hi - lo != len(actions) or list(self.iactions[lo:hi]) != list(actions):
            raise UnsupportedGameError(
                f"{self.name}: information set "
                f"{self.ikeys[iid] if self.key_names else iid!r} of player {player} has "
                "different legal actions at different nodes"
            )
        if self.tracking:
            self.infoset_states[iid].add(state_key)
        return iid

    def close_node(self, node_kind, iid, children, probs, value, actions=()):
        node = len(self.kind)
        if node >= self.max_nodes:
            raise GameTooLargeError(
                f"{self.name} has more than {self.max_nodes:,} nodes in "
                f"{'graph' if self.graph else 'tree'} mode "
                f"(~{_format_bytes(self.max_nodes * self.per_node)} compiled), over the "
                f"memory budget of {_format_bytes(self.budget)}"
            )
        self.kind.append(node_kind)
        self.node_infoset.append(iid)
        self.edge_start.append(len(self.edge_child))
        self.utility.append(value)
        if children:
            self.edge_child.extend(children)
            self.edge_action.extend(actions)
            if probs is None:
                self.edge_prob.extend([0.0] * len(children))
            else:
                self.edge_prob.extend(probs)
        if self.bar is not None and node % 20000 == 0:
            self.bar.update(20000 if node else 0)
        if self.tracking and node & 0xFFFFF == 0xFFFFF:
            self.check_recall()
        return node

    def check_recall(self):
        """Stop tracking positions once an information set is known to merge hidden
        information (monotone: more nodes only add positions and parents)."""
        if _merges_hidden_information(
            self.infoset_states, self.iplayer, self.parent_of, self.node_info
        ):
            self.imperfect = True
            self.tracking = False
            self.infoset_states, self.parent_of, self.node_info = [], {}, {}

    def terminal(self, returns):
        if abs(returns[0] + returns[1]) > 1e-9:
            raise UnsupportedGameError(
                f"{self.name} is not zero-sum: a terminal pays {returns[0]:g} and {returns[1]:g}"
            )
        return self.close_node(TERMINAL, -1, None, None, float(returns[0]))

    def visit(self, child_key, parent_key, raw_key):
        """Graph mode: the node of an already walked position, or ``None`` after putting
        it on the walk's path (a position met again on its own path is a cycle).

        ``child_key``/``parent_key`` are :func:`key_digest` digests; ``raw_key`` is the
        child's state key itself, for the error message.
        """
        self.link(child_key, parent_key)
        known = self.memo.get(child_key)
        if known is not None:
            return known
        if child_key in self.on_stack:
            raise UnsupportedGameError(
                f"{self.name}: the state graph has a cycle at {_key_text(raw_key)!r}; "
                "the game needs a move cap in its state key"
            )
        self.on_stack.add(child_key)
        return None

    def walked(self, key, node):
        """Graph mode: the position ``key`` is node ``node``, off the walk's path."""
        self.memo[key] = node
        self.on_stack.discard(key)

    def link(self, child_key, parent_key):
        """Record ``parent_key`` as a parent of ``child_key`` (graph mode)."""
        if self.tracking and self.parent_of.setdefault(child_key, parent_key) != parent_key:
            self.parent_of[child_key] = _MULTI

    def finish(self):
        if self.bar is not None:
            self.bar.close()
        self.edge_start.append(len(self.edge_child))
        if self.kind[-1] == TERMINAL:
            raise UnsupportedGameError(f"{self.name} ends before anyone moves: nothing to solve")
        if self.tracking:
            self.check_recall()
        imperfect = self.imperfect
        # The key tables are done with: free them before the relabelling copies the arrays
        # (on a large graph they are a third of the walk's memory).
        self.memo, self.infoset_index, self.on_stack = {}, {}, set()
        self.infoset_states, self.parent_of, self.node_info = [], {}, {}
        return _finish(
            self.graph,
            imperfect,
            np.frombuffer(self.kind, dtype=np.int8),
            np.frombuffer(self.node_infoset, dtype=np.int32),
            np.frombuffer(self.edge_start, dtype=np.int64),
            np.frombuffer(self.edge_child, dtype=np.int32),
            np.frombuffer(self.edge_prob, dtype=np.float64),
            np.frombuffer(self.edge_action, dtype=np.int32),
            np.frombuffer(self.utility, dtype=np.float64),
            np.frombuffer(self.iplayer, dtype=np.int8),
            np.frombuffer(self.ioffset, dtype=np.int64),
            np.frombuffer(self.iactions, dtype=np.int32),
            self.ikeys,
            self.names,
            self.akeys,
        )


def _walk(game, graph, simultaneous, max_nodes, progress, name, budget, per_node,
          key_names=True, abstract_keys=False):
    """Walk OpenSpiel states (any game; simultaneous nodes made turn-based in graph mode)."""
    b = _Builder(graph, max_nodes, progress, name, budget, per_node, key_names, abstract_keys)

    # A frame: [state, kind, infoset, actions, probs, next index, child ids, key, a0]
    def open_frame(state, key, player, pending_a0=None):
        # ``player`` is state.current_player(), asked once: each call into a Python game
        # crosses the C++ bridge.
        if pending_a0 is not None:  # graph mode, simultaneous node: player 1's turn
            actions = state.legal_actions(1)
            iid = b.infoset_id(
                1, ("sim", state.infoset_key(1)), actions, key,
                lambda a: state.action_to_string(1, a),
            )
            if b.tracking:
                b.node_info[(key, pending_a0)] = (PLAYER1, iid)
            return [state, PLAYER1, iid, actions, None, 0, [], (key, pending_a0), pending_a0]
        if player == _CHANCE_ID:
            outcomes = [(a, p) for a, p in state.chance_outcomes() if p > 0]
            if b.tracking:
                b.node_info[key] = (CHANCE, -1)
            return [
                state,
                CHANCE,
                -1,
                [a for a, _ in outcomes],
                [p for _, p in outcomes],
                0,
                [],
                key,
                None,
            ]
        if player == _SIMULTANEOUS_ID:
            actions = state.legal_actions(0)
            iid = b.infoset_id(
                0, ("sim", state.infoset_key(0)), actions, key,
                lambda a: state.action_to_string(0, a),
            )
            if b.tracking:
                b.node_info[key] = (PLAYER0, iid)
            return [state, PLAYER0, iid, actions, None, 0, [], key, "sim"]
        actions = state.legal_actions()
        name_of = lambda a: state.action_to_string(player, a)  # noqa: E731
        if graph:
            iid = b.infoset_id(player, state.infoset_key(player), actions, key, name_of)
            if b.tracking:
                b.node_info[key] = (PLAYER0 + player, iid)
        else:
            iid = b.infoset_id(
                player, state.information_state_string(player), actions, None, name_of,
                abstract=lambda: _key_text(state.infoset_key(player)),
            )
        return [state, PLAYER0 + player, iid, actions, None, 0, [], key, None]

    root_state = game.new_initial_state()
    root_player = root_state.current_player()
    if root_player == _TERMINAL_ID:
        b.terminal(root_state.returns())
        return b.finish()
    root_key = key_digest(root_state.state_key()) if graph else None
    stack = [open_frame(root_state, root_key, root_player)]
    if graph:
        b.on_stack.add(root_key)
    while stack:
        frame = stack[-1]
        state, node_kind, _, actions, probs, i, children, key, extra = frame
        if i < len(actions):
            frame[5] = i + 1
            action = actions[i]
            if extra == "sim":  # player 0 chose at a simultaneous node
                stack.append(open_frame(state, key, None, pending_a0=action))
                continue
            if extra is not None:  # player 1 answers: apply the joint action
                child = state.clone()
                child.apply_actions([extra, action])
            else:
                child = state.child(action)
            child_player = child.current_player()
            if child_player == _TERMINAL_ID:
                children.append(b.terminal(child.returns()))
                continue
            if graph:
                raw_key = child.state_key()
                child_key = key_digest(raw_key)
                known = b.visit(child_key, key if extra is None else (key, extra), raw_key)
                if known is not None:
                    children.append(known)
                    continue
                stack.append(open_frame(child, child_key, child_player))
            else:
                stack.append(open_frame(child, None, child_player))
            continue
        stack.pop()
        node = b.close_node(node_kind, frame[2], children, probs, 0.0, actions)
        if graph and (extra is None or extra == "sim"):
            b.walked(key, node)
        if stack:
            stack[-1][6].append(node)
    return b.finish()


# Chained history hashes (tree mode through a walker): two independent 64-bit hashes of
# the observation sequence, so a merge of distinct information sets would need both to
# collide (~n^2 / 2^128 for n histories). They keep the walk's memory per node constant.
_SALT = 0x9E3779B97F4A7C15


def _walk_positions(walker, graph, max_nodes, progress, name, budget, per_node,
                    key_names=True, abstract_keys=False):
    """Walk a game's pure positions through its :class:`games.keys.Walker`.

    Same nodes, information sets and order as :func:`_walk` on the game's States
    (tested), without a State object, a C++ round trip or a deep copy per node. In
    tree mode a player's information set is the pair of chained hashes of the
    observations they made (``walker.new_observations``); its printable key, the
    information-state string, is asked for once per information set.
    """
    b = _Builder(graph, max_nodes, progress, name, budget, per_node, key_names, abstract_keys)
    actor = walker.actor
    legal_actions = walker.legal_actions
    chance_outcomes = walker.chance_outcomes
    child_of = walker.child
    returns = walker.returns
    state_key = walker.state_key
    infoset_key = walker.infoset_key
    observe = None if graph else walker.new_observations  # graph walks keep no history

    def open_frame(pos, key, player, hist):
        if player == _CHANCE_ID:
            outcomes = [(a, p) for a, p in chance_outcomes(pos) if p > 0]
            if b.tracking:
                b.node_info[key] = (CHANCE, -1)
            return [pos, CHANCE, -1, [a for a, _ in outcomes], [p for _, p in outcomes], 0, [],
                    key, hist]
        actions = legal_actions(pos)
        name_of = lambda a: walker.action_to_string(pos, player, a)  # noqa: E731
        if graph:
            iid = b.infoset_id(player, infoset_key(pos, player), actions, key, name_of)
            if b.tracking:
                b.node_info[key] = (PLAYER0 + player, iid)
        else:
            iid = b.infoset_id(
                player, hist[player], actions, None, name_of,
                text=lambda: walker.information_state_string(pos, player),
                abstract=lambda: _key_text(infoset_key(pos, player)),
            )
        return [pos, PLAYER0 + player, iid, actions, None, 0, [], key, hist]

    def advance(hist, parent, child):
        out = []
        for player in (0, 1):
            h1, h2 = hist[player]
            for item in observe(parent, child, player):
                h1, h2 = hash((h1, item)), hash((item, h2, _SALT))
            out.append((h1, h2))
        return out

    root = walker.root()
    root_player = actor(root)
    if root_player == _TERMINAL_ID:
        b.terminal(returns(root))
        return b.finish()
    root_key = key_digest(state_key(root)) if graph else None
    stack = [open_frame(root, root_key, root_player, None if graph else [(0, 0), (0, 0)])]
    if graph:
        b.on_stack.add(root_key)
    while stack:
        frame = stack[-1]
        pos, node_kind, _, actions, probs, i, children, key, hist = frame
        if i < len(actions):
            frame[5] = i + 1
            child = child_of(pos, actions[i])
            child_player = actor(child)
            if child_player == _TERMINAL_ID:
                children.append(b.terminal(returns(child)))
                continue
            if graph:
                raw_key = state_key(child)
                child_key = key_digest(raw_key)
                known = b.visit(child_key, key, raw_key)
                if known is not None:
                    children.append(known)
                    continue
                stack.append(open_frame(child, child_key, child_player, None))
            else:
                stack.append(open_frame(child, None, child_player, advance(hist, pos, child)))
            continue
        stack.pop()
        node = b.close_node(node_kind, frame[2], children, probs, 0.0, actions)
        if graph:
            b.walked(key, node)
        if stack:
            stack[-1][6].append(node)
    return b.finish()


def _merges_hidden_information(infoset_states, iplayer, parent_of, node_info) -> bool:
    """Whether some graph information set holds positions its player could tell apart.

    An information set of one position loses nothing. Nor does one whose positions are
    all children of a single node of the opponent who saw that whole position: that is a
    simultaneous move (the opponent's choice is hidden until both have chosen), and with
    positions that determine the future, merging is exact. Anything else (positions
    reached through hidden chance, a hidden card, several parents) may forget what the
    player knew: an imperfect-recall abstraction.
    """
    for iid, states in enumerate(infoset_states):
        if len(states) == 1:
            continue
        parents = {parent_of.get(state, _MULTI) for state in states}
        if len(parents) != 1:
            return True
        parent = parents.pop()
        info = node_info.get(parent) if parent is not _MULTI else None
        if (
            info is None
            or info[0] not in (PLAYER0, PLAYER1)
            or info[0] == PLAYER0 + iplayer[iid]
            or len(infoset_states[info[1]]) != 1
        ):
            return True
    return False


def _finish(
    graph,
    imperfect,
    kind,
    infoset,
    estart,
    echild,
    eprob,
    eaction,
    utility,
    iplayer,
    ioffset,
    iactions,
    ikeys,
    names,
    akeys=None,
    root=None,
):
    """From the walk's children-first arrays to the streaming layout (see ``layout.py``).

    ``root`` is the root's index in the walk's numbering (default: the last node, as a
    children-first walk closes it).
    """
    root = kind.shape[0] - 1 if root is None else root
    internal, terminal = layout.topological_order(kind, estart, echild, root)
    kind, infoset, estart, echild, eprob, eaction, utility = layout.relabel(
        kind, infoset, estart, echild, eprob, eaction, utility, internal, terminal
    )
    m = iplayer.shape[0]
    new = layout.infoset_first_seen(infoset, m)
    order = np.argsort(new)
    offset, gather = layout.gather_rows(ioffset, order)
    actions = iactions[gather]
    # Only decision nodes have an information set (-1 elsewhere, whatever the walk held).
    infoset = np.where(kind >= PLAYER0, new[infoset], -1).astype(np.int32)
    if graph:
        rows = np.full(m, -2, dtype=np.int64)
    else:
        rows, perfect = layout.parent_rows(kind, infoset, estart, echild, offset, m)
        if not perfect:
            rows[:] = -2
    index_type = np.int32 if echild.shape[0] < 2**31 - 1 else np.int64
    return dict(
        imperfect_recall=imperfect,
        kind=kind,
        infoset=infoset,
        edge_start=estart.astype(index_type),
        edge_child=echild,
        edge_prob=eprob,
        edge_action=eaction,
        utility=utility,
        infoset_player=iplayer[order].copy(),
        infoset_offset=offset,
        infoset_actions=actions.astype(np.int32),
        infoset_keys=[ikeys[i] for i in order] if ikeys else [],
        infoset_parent_row=rows,
        action_names=names,
        infoset_abstract_keys=[akeys[i] for i in order] if akeys else [],
    )


def names_to_json(names: list[dict[int, str]]) -> str:
    return json.dumps([{str(k): v for k, v in d.items()} for d in names])


def names_from_json(text: str) -> list[dict[int, str]]:
    return [{int(k): v for k, v in d.items()} for d in json.loads(text)]


def game_code_fingerprint(game: pyspiel.Game) -> str:
    """What identifies the code behind ``game``: the stamps (size, modification time) of
    every Python file of its package, or OpenSpiel's version for its own games."""
    module = type(game).__module__
    if module and not module.startswith("pyspiel"):
        import sys

        path = getattr(sys.modules.get(module), "__file__", None)
        if path and os.path.exists(path):
            # The rules live in sibling modules (cards, engine...): stamp them all.
            folder = os.path.dirname(path)
            stamps = []
            for name in sorted(os.listdir(folder)):
                if name.endswith(".py"):
                    stat = os.stat(os.path.join(folder, name))
                    stamps.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
            return module + "|" + ",".join(stamps)
    return f"pyspiel:{getattr(pyspiel, '__version__', 'unknown')}"
