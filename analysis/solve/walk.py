"""The two walks of a compile: OpenSpiel States, or a game's pure positions (its walker).

Both visit every node once (in graph mode every position once) depth-first and feed a
:class:`~analysis.solve.builder.WalkBuilder`; they yield the same arrays (tested).
"""

from __future__ import annotations

import pyspiel

from analysis.solve.builder import WalkBuilder
from analysis.solve.compiled import CHANCE, PLAYER0, PLAYER1
from analysis.solve.digest import key_digest, key_text

_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS_ID = int(pyspiel.PlayerId.SIMULTANEOUS)


def walk_states(game, graph, simultaneous, max_nodes, progress, name, budget, per_node,
          key_names=True, abstract_keys=False):
    """Walk OpenSpiel states (any game; simultaneous nodes made turn-based in graph mode)."""
    b = WalkBuilder(graph, max_nodes, progress, name, budget, per_node, key_names, abstract_keys)

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
                abstract=lambda: key_text(state.infoset_key(player)),
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


def walk_positions(walker, graph, max_nodes, progress, name, budget, per_node,
                    key_names=True, abstract_keys=False):
    """Walk a game's pure positions through its :class:`games.keys.Walker`.

    Same nodes, information sets and order as :func:`walk_states` on the game's States
    (tested), without a State object, a C++ round trip or a deep copy per node. In
    tree mode a player's information set is the pair of chained hashes of the
    observations they made (``walker.new_observations``); its printable key, the
    information-state string, is asked for once per information set.
    """
    b = WalkBuilder(graph, max_nodes, progress, name, budget, per_node, key_names, abstract_keys)
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
                abstract=lambda: key_text(infoset_key(pos, player)),
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

