"""The growable arrays of a walk: nodes, edges and information sets as they close.

Shared by the two walks (:mod:`analysis.solve.walk`); in graph mode it also tells an exact
merge of positions from an imperfect-recall abstraction.
"""

from __future__ import annotations

from array import array

import numpy as np

from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import shown
from analysis.solve import layout
from analysis.solve.compiled import PLAYER0, PLAYER1, TERMINAL
from analysis.solve.digest import key_digest, key_text
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.memory import format_bytes

MULTI = object()  # a position with several parents


class WalkBuilder:
    """The growable arrays of a walk, shared by the State walk and the walker walk.

    Nodes are numbered as they close (children first); :func:`~analysis.solve.layout.lay_out` relabels them.
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
        # MULTI) and each node's (kind, infoset), to tell exact merging from an abstraction.
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
        if shown(progress):
            self.bar = progress_bar(desc=f"compiling {name.split('(')[0]}", unit=" nodes",
                                    unit_scale=True,
                                    mininterval=0.5)

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
                self.ikeys.append(text() if text is not None else key_text(key))
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
                f"(~{format_bytes(self.max_nodes * self.per_node)} compiled), over the "
                f"memory budget of {format_bytes(self.budget)}"
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
        if merges_hidden_information(
            self.infoset_states, self.iplayer, self.parent_of, self.node_info
        ):
            self.imperfect = True
            self.tracking = False
            self.infoset_states, self.parent_of, self.node_info = [], {}, {}

    def terminal(self, returns):
        if abs(returns[0] + returns[1]) > 1e-9:
            raise UnsupportedGameError(
                f"{self.name} is not zero-sum: a terminal pays {returns[0]:zg} and {returns[1]:zg}"
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
                f"{self.name}: the state graph has a cycle at {key_text(raw_key)!r}; "
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
            self.parent_of[child_key] = MULTI

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
        return layout.lay_out(
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



def merges_hidden_information(infoset_states, iplayer, parent_of, node_info) -> bool:
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
        parents = {parent_of.get(state, MULTI) for state in states}
        if len(parents) != 1:
            return True
        parent = parents.pop()
        info = node_info.get(parent) if parent is not MULTI else None
        if (
            info is None
            or info[0] not in (PLAYER0, PLAYER1)
            or info[0] == PLAYER0 + iplayer[iid]
            or len(infoset_states[info[1]]) != 1
        ):
            return True
    return False

