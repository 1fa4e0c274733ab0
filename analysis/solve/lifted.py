"""Deal-lifted compile: a state graph with hidden deals, walked once for all deals.

A game whose players are dealt hidden cards has, in graph mode, one copy of every
position per deal the public cannot tell apart. Here a position is walked once for all
the deals that differ only in the cards still hidden (a *lifted node*, with one *slot*
per assignment of the hidden cards), and numpy expands the walk into the full graph:
a *plain* edge reveals nothing (each slot goes to the same slot of the child), a
*reveal* edge shows hidden cards (the walk moves the position to every possible deal,
``transpose``), a *conceal* edge deals a hidden card (one edge per card). The result is
laid out exactly as :func:`analysis.solve.compile_game` lays it out (tested array for
array). The game offers ``game.lifted_walker()``
(:class:`games.cobardes.hidden.LiftedBattleWalker`).
"""

from __future__ import annotations

import time
from array import array

import numpy as np
import pyspiel
from numba import njit

from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import shown
from analysis.solve import layout
from analysis.solve.compiled import CHANCE, PLAYER0, CompiledGame, check_supported
from analysis.solve.digest import key_digest, key_text
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.memory import default_memory_budget, format_bytes

PLAIN, REVEAL, CONCEAL = 0, 1, 2
# A reveal table's entry for a deal that cannot be at the position.
_NO_CHILD = -(2**62)
_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)
# Bytes an expanded node costs at the expansion's peak (slot marks and ranks, the
# children-first arrays and their relabelled copies), and bytes a walked position costs
# (its edges, its memo entry; measured: ~370, most of it still held after the walk). The
# full ¡Cobardes! battle: 17.2 M positions, 61.2 M nodes, 13.4 GB at the peak.
LIFTED_BYTES_PER_NODE = 110
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
    walked = walk.walked  # before the expansion frees the walk's arrays
    arrays = walk.expand(budget, progress)
    return CompiledGame(game=str(game), mode="graph", compile_seconds=time.perf_counter() - start,
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
        resolved = [next(codes) if job is not None else _NO_CHILD for job in jobs]
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

    def expand(self, budget, progress):
        nv = self.nv
        cards = np.asarray(self.cards, dtype=np.int64)
        hmask = np.frombuffer(self.hmask, dtype=np.int8)
        per = np.array([1, nv, nv, nv * nv], dtype=np.int64)
        slots = per[hmask]
        base = np.zeros(slots.shape[0] + 1, dtype=np.int64)
        np.cumsum(slots, out=base[1:])
        if base[-1] * 9 > budget:
            raise GameTooLargeError(f"{self.name}: {base[-1]:,} deal slots, over the memory "
                                    f"budget of {format_bytes(budget)}")
        lifted = (
            np.frombuffer(self.kind, dtype=np.int8), hmask, base,
            np.frombuffer(self.elo, dtype=np.int64), np.frombuffer(self.ehi, dtype=np.int64),
            np.frombuffer(self.etype, dtype=np.int8), np.frombuffer(self.echild, dtype=np.int64),
            np.frombuffer(self.eprob, dtype=np.float64),
            np.frombuffer(self.eaction, dtype=np.int32),
            np.frombuffer(self.earg, dtype=np.int8), np.frombuffer(self.epool, dtype=np.int64),
            np.frombuffer(self.table, dtype=np.int64), cards,
        )
        order = _lifted_order(lifted[0], lifted[3], lifted[4], lifted[5], lifted[6], lifted[9],
                              lifted[11], nv)
        if order.shape[0] != hmask.shape[0]:
            raise UnsupportedGameError(f"{self.name}: the state graph has a cycle")
        reached, n_int, n_edges, n_term, bad = _reach(*lifted, order)
        del order
        if bad >= 0:
            raise UnsupportedGameError(
                f"{self.name}: a reachable deal has no child at lifted node {bad}: the rules "
                "read a hidden card before showing it")
        # The walk's memory is still held (Python keeps most of what the walk freed).
        need = (n_int + n_term) * LIFTED_BYTES_PER_NODE + self.walked * LIFTED_WALK_BYTES
        if need > budget:
            raise GameTooLargeError(
                f"{self.name} has {n_int + n_term:,} nodes in graph mode (~"
                f"{format_bytes(need)} to expand them after a walk of {self.walked:,} "
                f"positions), over the memory budget of {format_bytes(budget)}")
        liid = np.frombuffer(self.liid, dtype=np.int32)
        iown = np.frombuffer(self.iown, dtype=np.int8)
        iplayer = np.frombuffer(self.iplayer, dtype=np.int8)
        islots = np.where(iown == 1, nv, 1).astype(np.int64)
        ibase = np.zeros(islots.shape[0] + 1, dtype=np.int64)
        np.cumsum(islots, out=ibase[1:])
        rank = np.cumsum(reached, dtype=np.int32) - 1
        kind, ninfo, estart, echild, eprob, eaction, utility = _fill(
            *lifted, reached, rank, n_int, n_edges, n_term,
            np.frombuffer(self.util, dtype=np.float64), liid, iplayer, iown, ibase)
        del reached, rank, lifted, liid
        # The walk's arrays are done with: free them before the layout copies the graph.
        for name in ("kind", "hmask", "elo", "ehi", "etype", "echild", "eprob", "eaction",
                     "earg", "epool", "table", "util", "liid"):
            setattr(self, name, None)
        # A hidden card's set and the set of the same key with the card public are one.
        canon = np.arange(ibase[-1], dtype=np.int64)
        index = {c: i for i, c in enumerate(self.cards)}
        ioffset = np.frombuffer(self.ioffset, dtype=np.int64)
        icodes = np.frombuffer(self.iactions, dtype=np.int32)
        for hid, card, iid in self.aliases:
            lo, hi = ioffset[hid], ioffset[hid + 1]
            mine = [card if c < -1 else c for c in icodes[lo:hi].tolist()]
            if mine != icodes[ioffset[iid]:ioffset[iid + 1]].tolist():
                raise UnsupportedGameError(
                    f"{self.name}: information set {iid} of player {int(iplayer[iid])} has "
                    "different legal actions at different nodes")
            canon[ibase[hid] + index[card]] = ibase[iid]
        ninfo = np.where(ninfo >= 0, canon[np.maximum(ninfo, 0)], -1)
        iused = np.zeros(ibase[-1], dtype=np.uint8)
        iused[ninfo[ninfo >= 0]] = 1
        # Expanded information sets, compacted to the ones some node has.
        used = np.flatnonzero(iused)
        compact = np.full(ibase[-1], -1, dtype=np.int64)
        compact[used] = np.arange(used.shape[0])
        ninfo = np.where(ninfo >= 0, compact[np.maximum(ninfo, 0)], -1).astype(np.int32)
        owner = np.searchsorted(ibase, used, side="right") - 1  # lifted infoset of each
        card_index = used - ibase[owner]
        offset, gather = layout.gather_rows(ioffset, owner)
        counts = np.diff(offset)
        codes = icodes[gather].astype(np.int64)
        row_card = cards[np.repeat(card_index, counts)]
        actions = np.where(codes < -1, row_card, codes).astype(np.int32)
        players = iplayer[owner].copy()
        names = [dict(d) for d in self.names]
        for p in (0, 1):
            for a in np.unique(actions[np.repeat(players, counts) == p]).tolist():
                if a not in names[p]:
                    names[p][a] = self.w.action_to_string(self.acted[p], p, a)
        ikeys = []
        if self.key_names:
            w = self.w
            ikeys = [key_text(w.unmask_infoset_key(self.ikeys[j], int(iplayer[j]),
                                                    int(cards[c]) if iown[j] else -1))
                     for j, c in zip(owner.tolist(), card_index.tolist(), strict=True)]
        return layout.lay_out(True, True, kind, ninfo, estart, echild, eprob, eaction, utility,
                       players, offset, actions, ikeys, names, root=0)


def _revealed(hidden, after) -> int:
    """Bit mask of the players whose hidden card (``hidden``) a move showed (``after``)."""
    return sum(1 << q for q in (0, 1) if hidden[q] >= 0 and after[q] < 0)


@njit(cache=True, inline="always")
def _slot(hm, i0, i1, nv):
    if hm == 0:
        return 0
    if hm == 1:
        return i0
    if hm == 2:
        return i1
    return i0 * nv + i1


@njit(cache=True, inline="always")
def _deal_of(hm, s, nv):
    """The card indices ``(i0, i1)`` of slot ``s`` (``-1``: that player hides none);
    the inverse of :func:`_slot`."""
    if hm == 1:
        return s, -1
    if hm == 2:
        return -1, s
    if hm == 3:
        return s // nv, s % nv
    return -1, -1


@njit(cache=True)
def _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg, epool, table,
              cards, out_code, out_global, out_prob, out_action):
    """The expanded children of lifted node ``L``'s edge ``e`` at deal ``(i0, i1)``:
    child codes (``< 0`` terminal), global slots of internal children, probabilities,
    actions. Returns their number (0: a deal with no child, an error)."""
    nv = cards.shape[0]
    t = etype[e]
    code = eaction[e]
    if code == -2:
        action = cards[i0]
    elif code == -3:
        action = cards[i1]
    else:
        action = code
    if t == 2:  # conceal: one edge per card the deal can give
        q = earg[e]
        pool = epool[e]
        c = echild[e]
        n = 0
        for j in range(nv):
            if not (pool >> cards[j]) & 1 or j in (i0, i1):
                continue
            a0 = j if q == 0 else i0
            a1 = j if q == 1 else i1
            out_code[n] = c
            out_global[n] = base[c] + _slot(hmask[c], a0, a1, nv)
            out_action[n] = cards[j]
            n += 1
        for k in range(n):
            out_prob[k] = 1.0 / n
        return n
    if t == 0:
        c = echild[e]
    else:
        r = earg[e]
        if r == 1:
            beta = i0
        elif r == 2:
            beta = i1
        else:
            beta = i0 * nv + i1
        c = table[echild[e] + beta]
        if c == -(2**62):
            return 0
    out_code[0] = c
    out_prob[0] = eprob[e]
    out_action[0] = action
    if c >= 0:
        out_global[0] = base[c] + _slot(hmask[c], i0, i1, nv)
    else:
        out_global[0] = -1
    return 1


@njit(cache=True, inline="always")
def _lifted_children(e, etype, echild, earg, table, nv, out):
    """The internal lifted children of edge ``e`` into ``out``; returns their number."""
    n = 0
    if etype[e] == 1:
        width = nv * nv if earg[e] == 3 else nv
        for k in range(width):
            c = table[echild[e] + k]
            if c >= 0:
                out[n] = c
                n += 1
    elif echild[e] >= 0:
        out[0] = echild[e]
        n = 1
    return n


@njit(cache=True)
def _lifted_order(kind, elo, ehi, etype, echild, earg, table, nv):
    """Lifted internal nodes in a topological order (Kahn), parents before children."""
    n = kind.shape[0]
    buf = np.empty(nv * nv, dtype=np.int64)
    indegree = np.zeros(n, dtype=np.int32)
    for L in range(n):
        for e in range(elo[L], ehi[L]):
            for k in range(_lifted_children(e, etype, echild, earg, table, nv, buf)):
                indegree[buf[k]] += 1
    order = np.empty(n, dtype=np.int32)
    order[0] = 0
    head, tail = 0, 1
    while head < tail:
        L = order[head]
        head += 1
        for e in range(elo[L], ehi[L]):
            for k in range(_lifted_children(e, etype, echild, earg, table, nv, buf)):
                c = buf[k]
                indegree[c] -= 1
                if indegree[c] == 0:
                    order[tail] = c
                    tail += 1
    return order[:tail]


@njit(cache=True)
def _reach(kind, hmask, base, elo, ehi, etype, echild, eprob, eaction, earg, epool, table,
           cards, order):
    """Mark the deal slots reachable from the root (lifted nodes in topological order);
    count nodes, edges and terminals."""
    nv = cards.shape[0]
    reached = np.zeros(base[-1], dtype=np.uint8)
    out_code = np.empty(nv, dtype=np.int64)
    out_global = np.empty(nv, dtype=np.int64)
    out_prob = np.empty(nv, dtype=np.float64)
    out_action = np.empty(nv, dtype=np.int64)
    reached[0] = 1
    n_int = 0
    n_edges = 0
    n_term = 0
    for idx in range(order.shape[0]):
        L = order[idx]
        hm = hmask[L]
        for s in range(base[L + 1] - base[L]):
            if reached[base[L] + s] == 0:
                continue
            n_int += 1
            i0, i1 = _deal_of(hm, s, nv)
            for e in range(elo[L], ehi[L]):
                n = _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg,
                              epool, table, cards, out_code, out_global, out_prob, out_action)
                if n == 0:
                    return reached, 0, 0, 0, L
                n_edges += n
                for k in range(n):
                    if out_code[k] < 0:
                        n_term += 1
                    else:
                        reached[out_global[k]] = 1
    return reached, n_int, n_edges, n_term, -1


@njit(cache=True)
def _fill(kind, hmask, base, elo, ehi, etype, echild, eprob, eaction, earg, epool, table,
          cards, reached, rank, n_int, n_edges, n_term, util, liid, iplayer, iown, ibase):
    """The expanded graph in the compiler's children-first arrays (root 0, terminals last)."""
    nv = cards.shape[0]
    n = n_int + n_term
    out_kind = np.zeros(n, dtype=np.int8)
    out_info = np.full(n, -1, dtype=np.int32)
    out_start = np.zeros(n + 1, dtype=np.int64)
    out_child = np.empty(n_edges, dtype=np.int32)
    out_prob = np.empty(n_edges, dtype=np.float64)
    out_action = np.empty(n_edges, dtype=np.int32)
    out_util = np.zeros(n, dtype=np.float64)
    c_code = np.empty(nv, dtype=np.int64)
    c_global = np.empty(nv, dtype=np.int64)
    c_prob = np.empty(nv, dtype=np.float64)
    c_action = np.empty(nv, dtype=np.int64)
    term = n_int
    ed = 0
    for L in range(kind.shape[0]):
        hm = hmask[L]
        for s in range(base[L + 1] - base[L]):
            g = base[L] + s
            if reached[g] == 0:
                continue
            node = rank[g]
            i0, i1 = _deal_of(hm, s, nv)
            out_kind[node] = kind[L]
            j = liid[L]
            if j >= 0:
                p = iplayer[j]
                own = i0 if p == 0 else i1
                out_info[node] = ibase[j] + (own if iown[j] == 1 else 0)
            out_start[node] = ed
            for e in range(elo[L], ehi[L]):
                m = _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg,
                              epool, table, cards, c_code, c_global, c_prob, c_action)
                for k in range(m):
                    if c_code[k] < 0:
                        out_child[ed] = term
                        out_util[term] = util[-c_code[k] - 1]
                        term += 1
                    else:
                        out_child[ed] = rank[c_global[k]]
                    out_prob[ed] = c_prob[k]
                    out_action[ed] = c_action[k]
                    ed += 1
    # Internal nodes were numbered in slot order; their edge ranges must be contiguous
    # in node order, which slot order is (ranks increase with slots).
    for t in range(n_int, n + 1):
        out_start[t] = ed
    return out_kind, out_info, out_start, out_child, out_prob, out_action, out_util
