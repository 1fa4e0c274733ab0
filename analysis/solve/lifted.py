"""Deal-lifted compile: a state graph with hidden deals, walked once for all deals.

A game whose players are dealt hidden cards has, in graph mode, one copy of every
position per deal the public cannot tell apart. Here a position is walked once for all
the deals that differ only in the cards still hidden (a *lifted node*, with one *slot*
per assignment of the hidden cards), and :mod:`analysis.solve.lifted_expand` expands the
walk into the full graph: a *plain* edge reveals nothing (each slot goes to the same
slot of the child), a *reveal* edge shows hidden cards (the walk moves the position to
every possible deal, ``transpose``), a *conceal* edge deals a hidden card (one edge per
card). The result is laid out exactly as :func:`analysis.solve.compile_game` lays it out
(tested array for array). The game offers ``game.lifted_walker()``
(:class:`games.cobardes.hidden.LiftedBattleWalker`); a game may also walk its lifted
graph in compiled code and hand :func:`compile_walked` the same arrays.
"""

from __future__ import annotations

import time
from array import array

import numpy as np
import pyspiel

from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import shown
from analysis.solve.compiled import CHANCE, PLAYER0, CompiledGame, check_supported
from analysis.solve.digest import key_digest
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.lifted_expand import CONCEAL, NO_CHILD, PLAIN, REVEAL, LiftedWalkArrays, expand
from analysis.solve.memory import default_memory_budget, format_bytes

__all__ = ["CONCEAL", "PLAIN", "REVEAL", "LiftedWalkArrays", "compile_lifted", "compile_walked"]

_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)
# Bytes a position walked in Python costs (its edges, its memo entry; measured: ~370,
# most of it still held after the walk).
LIFTED_WALK_BYTES = 400


def compile_lifted(game: pyspiel.Game, max_memory: int | None = None, progress: bool | None = None,
                   key_names: bool = True, walker=None) -> CompiledGame:
    """Compile ``game``'s state graph (as ``compile_game(game, graph=True)``) through a
    walk that visits each position once for all deals of the hidden cards.

    Parameters
    ----------
    game
        A game offering ``lifted_walker()``.
    max_memory
        Memory budget in bytes for the expanded graph (default: half the available memory).
    progress
        tqdm bars for the walk and the expansion.
    key_names
        Keep printable information-set keys (as ``compile_game``).
    walker
        The lifted walker to use instead of ``game.lifted_walker()`` (one that wraps it,
        e.g. to end the game early).

    Raises
    ------
    UnsupportedGameError
        The game offers no lifted walker, or the walk meets something a lifted walk
        cannot express (a reveal that depends on the deal).
    GameTooLargeError
        The expanded graph would exceed ``max_memory``.
    """
    check_supported(game)
    if walker is None and not hasattr(game, "lifted_walker"):
        raise UnsupportedGameError(f"{game} offers no lifted walker; use compile_game(graph=True)")
    budget = max_memory if max_memory is not None else default_memory_budget()
    start = time.perf_counter()
    if walker is None:
        walker = game.lifted_walker()
    walk = _LiftedWalk(walker, str(game), key_names, progress)
    walk.run(max_positions=max(1, budget // LIFTED_WALK_BYTES))
    return compile_walked(str(game), walk.arrays(), budget, start)


def compile_walked(name: str, parts: LiftedWalkArrays, budget: int, start: float) -> CompiledGame:
    """The :class:`CompiledGame` of a deal-lifted walk's arrays (``start``: the
    ``perf_counter`` time the compile began, for its seconds)."""
    walked = parts.walked  # before the expansion frees the walk's arrays
    arrays = expand(parts, name, budget)
    return CompiledGame(game=name, mode="graph", compile_seconds=time.perf_counter() - start,
                        walked=walked, **arrays)


class _LiftedWalk:
    """The walk over lifted nodes and its flat arrays.

    The walker offers ``lifts``, ``private_cards``, ``conceals``, ``deal_pool``,
    ``still_hidden``, ``hidden_state_key``, ``hidden_infoset_key``, ``unmask_infoset_key``,
    ``infoset_key_aliases`` and ``transpose``. The walk checks what
    it relies on: moving a position to another deal leaves its masked key unchanged (else
    that deal cannot be there and the slot stays unreachable), every deal of a reveal
    reveals the same players, and an information set has the same legal actions
    everywhere. The expansion keeps only the slots reachable from the root.
    """

    def __init__(self, walker, name, key_names, progress):
        self.w = walker
        self.name = name
        self.key_names = key_names
        self.progress = shown(progress)
        self.cards = tuple(walker.private_cards)
        self.nv = len(self.cards)
        # Lifted nodes (numbered as opened: the root is 0).
        self.kind = array("b")
        self.hmask = array("b")
        self.liid = array("i")
        self.elo = array("q")
        self.ehi = array("q")
        # Lifted edges.
        self.etype = array("b")
        self.echild = array("q")
        self.eprob = array("d")
        self.eaction = array("i")
        self.earg = array("b")
        self.epool = array("q")
        self.table = array("q")
        self.util = array("d")
        # Lifted information sets.
        self.iplayer = array("b")
        self.iown = array("b")
        self.ioffset = array("q", [0])
        self.iactions = array("i")
        self.ikeys: list = []
        self.iindex: dict = {}
        self.memo: dict = {}
        self.on_stack: set = set()
        # Information sets whose key equals another's with a hidden card put back:
        # (set, card, digest of the masked key), resolved to ``aliases`` after the walk.
        self.alias_keys: list = []
        self.aliases: list = []
        self.acted: list = [None, None]  # a position where each player acts (for names)
        self.names: list[dict[int, str]] = [{}, {}]

    # ------------------------------------------------------------------ the walk
    def run(self, max_positions: int = 2**62):
        w = self.w
        root = w.root()
        if w.actor(root) == _TERMINAL_ID:
            raise UnsupportedGameError(f"{self.name} ends before anyone moves: nothing to solve")
        bar = None
        if self.progress:
            bar = progress_bar(desc="walking positions", unit=" nodes", unit_scale=True,
                               mininterval=0.5)
        hidden = (-1, -1)
        key = key_digest(w.hidden_state_key(root, hidden))
        self.memo[key] = 0
        self.on_stack.add(key)
        stack = [self._open(root, hidden, key)]
        while stack:
            frame = stack[-1]
            jobs, results = frame[2], frame[4]
            j = frame[3]
            if j < len(jobs):
                frame[3] = j + 1
                if jobs[j] is None:  # a deal that cannot be at this position
                    continue
                child, child_hidden = jobs[j]
                if w.actor(child) == _TERMINAL_ID:
                    self.util.append(float(w.returns(child)[0]))
                    results.append(-len(self.util))
                    continue
                ckey = key_digest(w.hidden_state_key(child, child_hidden))
                known = self.memo.get(ckey)
                if known is not None:
                    if ckey in self.on_stack:
                        raise UnsupportedGameError(f"{self.name}: the state graph has a cycle")
                    results.append(known)
                    continue
                if len(self.kind) >= max_positions:
                    raise GameTooLargeError(
                        f"{self.name}: more than {max_positions:,} positions to walk (~"
                        f"{format_bytes(max_positions * LIFTED_WALK_BYTES)}), over the memory "
                        "budget")
                self.memo[ckey] = len(self.kind)
                self.on_stack.add(ckey)
                results.append(len(self.kind))
                stack.append(self._open(child, child_hidden, ckey))
                if bar is not None and len(self.kind) % 20000 == 0:
                    bar.update(20000)
                continue
            stack.pop()
            self._close(frame)
        if bar is not None:
            bar.close()
        for iid, card, digest in self.alias_keys:
            hid = self.iindex.get(digest)
            if hid is not None and self.iown[hid]:
                self.aliases.append((hid, card, iid))
        self.memo, self.on_stack, self.iindex, self.alias_keys = {}, set(), {}, []

    def _open(self, pos, hidden, key):
        """Number a new lifted node and list the children its edges need walked."""
        w = self.w
        node = len(self.kind)
        player = w.actor(pos)
        self.hmask.append((hidden[0] >= 0) | (hidden[1] >= 0) << 1)
        self.elo.append(0)
        self.ehi.append(0)
        jobs, templates = [], []
        if player == _CHANCE_ID:
            self.kind.append(CHANCE)
            self.liid.append(-1)
            q = w.conceals(pos)
            outcomes = [(a, p) for a, p in w.chance_outcomes(pos) if p > 0]
            if q >= 0:
                if hidden[q] >= 0:
                    raise UnsupportedGameError(f"{self.name}: a second hidden card for player {q}")
                pool = w.deal_pool(pos)
                for x in hidden:
                    if x >= 0:
                        pool |= 1 << x
                a = outcomes[0][0]
                new = (a, hidden[1]) if q == 0 else (hidden[0], a)
                templates.append((CONCEAL, q, 0.0, -1, pool, 1))
                jobs.append((w.child(pos, a), new))
            else:
                for a, p in outcomes:
                    self._edge(pos, hidden, a, p, jobs, templates)
        else:
            self.kind.append(PLAYER0 + player)
            actions = w.legal_actions(pos)
            codes = [-2 - player if a == hidden[player] else a for a in actions]
            ikey = w.hidden_infoset_key(pos, player, hidden)
            full = key_digest((player, ikey))
            iid = self.iindex.get(full)
            if iid is None:
                iid = len(self.iplayer)
                self.iindex[full] = iid
                self.iplayer.append(player)
                self.iown.append(hidden[player] >= 0)
                self.iactions.extend(codes)
                self.ioffset.append(len(self.iactions))
                if self.key_names:
                    self.ikeys.append(ikey)
                if hidden[player] < 0:
                    for card, masked in w.infoset_key_aliases(ikey, player):
                        self.alias_keys.append((iid, card, key_digest((player, masked))))
                known = self.names[player]
                for a in actions:
                    if a not in known and a != hidden[player]:
                        known[a] = w.action_to_string(pos, player, a)
                if self.acted[player] is None:
                    self.acted[player] = pos
            else:
                lo, hi = self.ioffset[iid], self.ioffset[iid + 1]
                if list(self.iactions[lo:hi]) != codes:
                    raise UnsupportedGameError(
                        f"{self.name}: information set {iid} of player {player} has different "
                        "legal actions at different nodes")
            self.liid.append(iid)
            for a in actions:
                self._edge(pos, hidden, a, 0.0, jobs, templates)
        return [node, templates, jobs, 0, [], key]

    def _edge(self, pos, hidden, a, prob, jobs, templates):
        w = self.w
        code = a
        for q in (0, 1):
            if hidden[q] >= 0 and a == hidden[q]:
                code = -2 - q
        child = w.child(pos, a)
        after = self._after(child, hidden)
        revealed = _revealed(hidden, after)
        if not revealed:
            templates.append((PLAIN, 0, prob, code, 0, 1))
            jobs.append((child, after))
            return
        players = [q for q in (0, 1) if revealed >> q & 1]
        count = 0
        nv = self.nv
        here = w.hidden_state_key(pos, hidden)
        for beta in range(nv ** len(players)):
            targets = {}
            rest = beta
            for q in reversed(players):
                targets[q] = self.cards[rest % nv]
                rest //= nv
            moved = self._move(pos, hidden, here, targets)
            if moved is None:
                jobs.append(None)
                count += 1
                continue
            mpos, mhidden = moved
            ma = mhidden[-2 - code] if code < -1 else a
            mchild = w.child(mpos, ma)
            mafter = self._after(mchild, mhidden)
            if _revealed(mhidden, mafter) != revealed:
                raise UnsupportedGameError(
                    f"{self.name}: what a move reveals depends on the hidden cards")
            jobs.append((mchild, mafter))
            count += 1
        templates.append((REVEAL, revealed, prob, code, 0, count))

    def _after(self, child, hidden):
        w = self.w
        return tuple(x if x >= 0 and w.still_hidden(child, q, x) else -1
                     for q, x in enumerate(hidden))

    def _move(self, pos, hidden, here, targets):
        """``pos`` (masked key ``here``) moved to the deal giving player ``q`` card
        ``targets[q]`` (the other hidden cards kept where possible), or ``None`` if no such
        deal is at ``pos``."""
        w = self.w
        if len(targets) == 2 and targets[0] == targets[1]:
            return None
        cur, now = pos, list(hidden)
        for q, v in targets.items():
            x = now[q]
            if v == x:
                continue
            cur = w.transpose(cur, x, v)
            for r in (0, 1):
                if r != q and now[r] == v:
                    now[r] = x
            now[q] = v
        now = tuple(now)
        if now != hidden and w.hidden_state_key(cur, now) != here:
            return None
        return cur, now

    def _close(self, frame):
        node, templates, jobs, _, results, key = frame
        # Jobs that were None (deals not at this position) have no result: re-align.
        codes = iter(results)
        resolved = [next(codes) if job is not None else NO_CHILD for job in jobs]
        self.elo[node] = len(self.etype)
        k = 0
        for etype, arg, prob, code, pool, count in templates:
            self.etype.append(etype)
            self.eprob.append(prob)
            self.eaction.append(code)
            self.earg.append(arg)
            self.epool.append(pool)
            if etype == REVEAL:
                self.echild.append(len(self.table))
                self.table.extend(resolved[k:k + count])
            else:
                self.echild.append(resolved[k])
            k += count
        self.ehi[node] = len(self.etype)
        self.on_stack.discard(key)

    # ------------------------------------------------------------------ the expansion
    @property
    def walked(self) -> int:
        return len(self.kind) if self.kind is not None else 0

    def arrays(self) -> LiftedWalkArrays:
        """The walk's result for :func:`analysis.solve.lifted_expand.expand` (its
        Python arrays are handed over, not copied)."""
        w = self.w
        keys = self.ikeys

        def key_of(iid, card):
            return w.unmask_infoset_key(keys[iid], int(self.iplayer[iid]), card)

        def name_of(player, action):
            return w.action_to_string(self.acted[player], player, action)

        parts = LiftedWalkArrays(
            self.cards, *(np.frombuffer(getattr(self, name), dtype=dtype) for name, dtype in (
                ("kind", np.int8), ("hmask", np.int8), ("liid", np.int32), ("elo", np.int64),
                ("ehi", np.int64), ("etype", np.int8), ("echild", np.int64),
                ("eprob", np.float64), ("eaction", np.int32), ("earg", np.int8),
                ("epool", np.int64), ("table", np.int64), ("util", np.float64),
                ("iplayer", np.int8), ("iown", np.int8), ("ioffset", np.int64),
                ("iactions", np.int32))),
            aliases=self.aliases, names=self.names, name_of=name_of,
            key_of=key_of if self.key_names else None,
            # Python keeps most of what the walk freed.
            held_bytes=self.walked * LIFTED_WALK_BYTES)
        for name in ("kind", "hmask", "elo", "ehi", "etype", "echild", "eprob", "eaction",
                     "earg", "epool", "table", "util", "liid"):
            setattr(self, name, None)
        return parts


def _revealed(hidden, after) -> int:
    """Bit mask of the players whose hidden card (``hidden``) a move showed (``after``)."""
    return sum(1 << q for q in (0, 1) if hidden[q] >= 0 and after[q] < 0)

