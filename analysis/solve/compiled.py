"""The compiled game: a two-player zero-sum game as flat numpy arrays, and the node kinds.

:func:`check_supported` says which games can be compiled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from analysis.solve.errors import UnsupportedGameError

# Bump when the compiled layout or its meaning changes (it keys the disk cache).
COMPILE_VERSION = 1

TERMINAL, CHANCE, PLAYER0, PLAYER1 = 0, 1, 2, 3


# The numeric arrays of a :class:`CompiledGame` (what the disk cache stores and what two
# compiles of one game are compared by).
ARRAYS = (
    "kind", "infoset", "edge_start", "edge_child", "edge_prob", "edge_action", "utility",
    "infoset_player", "infoset_offset", "infoset_actions", "infoset_parent_row",
)


@dataclass(frozen=True, eq=False)
class CompiledGame:
    """A game compiled into flat arrays (CSR-style):

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
    """

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


def names_to_json(names: list[dict[int, str]]) -> str:
    return json.dumps([{str(k): v for k, v in d.items()} for d in names])


def names_from_json(text: str) -> list[dict[int, str]]:
    return [{int(k): v for k, v in d.items()} for d in json.loads(text)]

