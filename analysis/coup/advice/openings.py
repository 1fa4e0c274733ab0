"""The opening of 2-player Coup, solved once and shipped: advice at once on a fresh clone.

The first decision of a 2-player game (nothing revealed, the starting player with one
coin, the other with two) is the same spot for every user, and its exact solve capped at
:data:`~analysis.coup.solvers.position_endgames.DEFAULT_CAP` turns takes many minutes and
gigabytes. So ``farol coup openings`` solves it once per deck and stores the answer for
every hand the mover can hold, with the solve's exploitability, in the data folder
(``coup/openings``); ``farol advise coup`` reads it there. Any other spot with two
face-down cards each is not solved while the user waits (:func:`refusal` names what
answers it instead).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analysis.coup.advice.endgame import Advice
from analysis.coup.solvers.position_endgames import (
    DEFAULT_CAP,
    TARGET,
    hidden_position,
    solved_endgame,
)
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import atomic_write_text, damaged_record, read_json
from analysis.solve import compile_cached
from analysis.solve.errors import SolveError
from analysis.solve.kernels import expected_value
from games.coup import cards as C
from games.coup.positions import Position, format_position, parse_position

VERSION = 1
CAP_PRICING = "draw"  # a 2v2 cap cannot be priced by Markov guarantees (position_endgames)
# Measured (benchmarks/results/natural_requests.txt): the opening's solve, one deck.
SOLVE_MINUTES = 20


# The coins at the first decision of each 2-player setup (a draft game's opening cannot be
# written as a position: the cards out of the game are not in it).
OPENING_COINS = {"basic": (1, 2), "standard": (2, 2)}


def opening(deck: str, setup: str = "basic") -> Position:
    """The first decision of a 2-player game of ``setup``, every face-down card hidden."""
    first, second = OPENING_COINS[setup]
    return parse_position(f"?+?/-/{first};?+?/-/{second};move:0", deck)


def hands() -> list[tuple[int, int]]:
    """Every two-card hand (three of each character in either deck)."""
    return list(itertools.combinations_with_replacement(C.CHARACTERS, 2))


def table_path(deck: str) -> Path:
    return store.data("coup", "openings", f"{deck}.json")


@dataclass(frozen=True)
class OpeningTable:
    """The opening's advice for every hand of one deck: ``answers`` maps the position as
    the mover sees it to :class:`~analysis.coup.advice.endgame.Advice`'s fields."""

    deck: str
    turn_cap: int
    cap_pricing: str
    answers: dict
    provenance: dict

    def save(self, path: Path | None = None) -> Path:
        path = table_path(self.deck) if path is None else Path(path)
        atomic_write_text(path, _dumps({"version": VERSION, **dataclasses.asdict(self)}))
        return path

    @classmethod
    def load(cls, path: Path) -> OpeningTable | None:
        """The table at ``path``; ``None`` when there is none or of another version."""
        if not Path(path).exists():
            return None
        raw = read_json(path)
        if not isinstance(raw, dict) or "answers" not in raw:
            raise damaged_record(Path(path), "not a table of opening answers")
        if raw.get("version") != VERSION:
            return None
        raw.pop("version")
        return cls(**raw)

    def advice(self, position_text: str) -> Advice | None:
        found = self.answers.get(position_text)
        if found is None:
            return None
        fields = {f.name: f.type for f in dataclasses.fields(Advice)}
        values = {k: _tuples(v) for k, v in found.items() if k in fields}
        return Advice(**values)


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _dumps(obj) -> str:
    return json.dumps(obj, indent=1) + "\n"


def stored_advice(position_text: str, deck: str, turn_cap: int, cap: str) -> Advice | None:
    """The shipped answer at ``position_text`` when it is the opening (``None`` else)."""
    if turn_cap != DEFAULT_CAP or cap != CAP_PRICING:
        return None
    try:
        position = parse_position(position_text, deck)
    except Exception:  # noqa: BLE001 (a bad position is the solver's to refuse)
        return None
    table = OpeningTable.load(table_path(deck))
    return None if table is None else table.advice(format_position(position, deck))


def stored_note(deck: str) -> str:
    """Where the shipped answers of ``deck`` are and the code that made them."""
    table = OpeningTable.load(table_path(deck))
    commit = "unknown" if table is None else str(table.provenance.get("commit", "unknown"))
    short = commit[:12] + ("+changes" if commit.endswith("+changes") else "")
    return f"{store.shown(table_path(deck))} (Farol commit {short})"


def build(deck: str, setups=("basic",), use_cache: bool = True, target: float = TARGET,
          seconds: float | None = None) -> OpeningTable:
    """Solve the opening of ``deck`` in each of ``setups`` once (each solve is cached;
    CFR+ to ``target`` exploitability or for ``seconds``: each answer carries what was
    reached) and read every hand's advice off it; the answers join those stored."""
    stored = OpeningTable.load(table_path(deck))
    answers = dict(stored.answers) if stored is not None else {}
    for setup in setups:
        answers |= _answers(deck, opening(deck, setup), use_cache, target, seconds)
    return OpeningTable(deck, DEFAULT_CAP, CAP_PRICING, answers, provenance(None))


def is_opening(position: Position, deck: str) -> bool:
    """Whether ``position`` is the first decision of a 2-player setup."""
    return hidden_position(position) in (opening(deck, s) for s in OPENING_COINS)


def _answers(deck: str, general: Position, use_cache: bool, target: float,
             seconds: float | None) -> dict:
    """Every hand's :class:`Advice` at the all-hidden ``general`` position, read off its
    solve on the compiled tree (a walk of OpenSpiel states per move and deal, as
    :func:`~analysis.coup.advice.endgame.advise` does, would take hours at this size)."""
    game, result = solved_endgame(general, deck, DEFAULT_CAP, use_cache, target, seconds)
    compiled = compile_cached(game, use_cache=use_cache)
    if len(result.strategy) != len(compiled.infoset_actions):
        raise SolveError(f"{game}: the stored solution does not fit the compiled tree")
    values = {}
    for name, pays in (("value", compiled.utility), ("win", compiled.utility > 0),
                       ("lose", compiled.utility < 0)):
        values[name] = _node_values(compiled, result.strategy, pays.astype(np.float64))
    rows = {k: i for i, k in enumerate(result.infoset_keys)}
    by_hand: dict[tuple, list] = {}
    for prob, state, node in _deals(game, compiled):
        by_hand.setdefault(tuple(state.core.hands[0]), []).append((prob, state, node))
    answers = {}
    for hand, deals in sorted(by_hand.items()):
        spot = format_position(Position((hand, general.hidden[1]), general.revealed,
                                        general.coins, 0), deck)
        answers[spot] = dataclasses.asdict(_advice(spot, deck, hand, deals, result, compiled,
                                                   values, rows))
    return answers


def _node_values(compiled, strategy: np.ndarray, pays: np.ndarray) -> np.ndarray:
    """Player 0's expected ``pays`` (one number a terminal) from every node of the tree
    under ``strategy``: internal nodes, then terminals."""
    value = np.empty(compiled.num_internal)
    expected_value(compiled.kind, compiled.infoset, compiled.edge_start, compiled.edge_child,
                   compiled.edge_prob, pays, compiled.infoset_offset,
                   np.ascontiguousarray(strategy, dtype=np.float64), value)
    return np.concatenate([value, pays])


def _child(compiled, node: int, action: int) -> int:
    for e in range(compiled.edge_start[node], compiled.edge_start[node + 1]):
        if int(compiled.edge_action[e]) == action:
            return int(compiled.edge_child[e])
    raise SolveError(f"{compiled.game}: node {node} has no move {action}")


def _deals(game, compiled) -> list[tuple[float, object, int]]:
    """(probability, state, tree node) at the first decision after each deal."""
    out, stack = [], [(game.new_initial_state(), 1.0, 0)]
    while stack:
        state, prob, node = stack.pop()
        if not state.is_chance_node():
            out.append((prob, state, node))
            continue
        for a, p in state.chance_outcomes():
            stack.append((state.child(a), prob * p, _child(compiled, node, a)))
    return out


def _advice(spot: str, deck: str, hand: tuple, deals: list, result, compiled, values: dict,
            rows: dict) -> Advice:
    """The mover's (player 0's) advice holding ``hand``, over the rival's ``deals``."""
    total = sum(p for p, _, _ in deals)
    state = deals[0][1]
    i = rows[state.information_state_string(0)]
    lo, hi = result.infoset_offset[i], result.infoset_offset[i + 1]
    actions = [int(a) for a in result.infoset_actions[lo:hi]]
    mix = [float(p) for p in result.strategy[lo:hi]]
    per = {a: dict.fromkeys(values, 0.0) for a in actions}
    theirs: dict[str, float] = {}
    for p, s, node in deals:
        for a in actions:
            child = _child(compiled, node, a)
            for name, v in values.items():
                per[a][name] += p / total * float(v[child])
        for c in set(s.core.hands[1]):
            theirs[C.card_name(c, deck)] = theirs.get(C.card_name(c, deck), 0.0) + p / total
    outcome = {name: sum(q * per[a][name] for a, q in zip(actions, mix, strict=True))
               for name in values}
    names = {a: state.action_to_string(0, a) for a in actions}
    return Advice(
        position=spot, deck=deck, turn_cap=DEFAULT_CAP, player=0,
        hand=tuple(C.card_name(c, deck) for c in hand),
        mix=tuple(sorted(((names[a], q) for a, q in zip(actions, mix, strict=True)),
                         key=lambda x: -x[1])),
        value=outcome["value"], win=outcome["win"], lose=outcome["lose"],
        draw=1.0 - outcome["win"] - outcome["lose"], iterations=result.iterations,
        exploitability=result.exploitability, nodes=result.num_nodes, cap_pricing=CAP_PRICING,
        actions=tuple((names[a], q, per[a]["value"]) for a, q in zip(actions, mix, strict=True)),
        opponent_hand=tuple(sorted(theirs.items())))


def refusal(position: Position, deck: str, setup: str) -> str:
    """Why a spot with two face-down cards each is not solved while you wait, and what
    answers it instead: the command storing the opening (when it is one), the blueprint
    (any decision), or ``--solve``."""
    first = (f"store the opening once: farol coup openings --deck {deck} --setups {setup}; "
             if is_opening(position, deck) and setup in OPENING_COINS else "")
    return (f"solving a spot with two face-down cards each takes over {SOLVE_MINUTES} "
            f"minutes and several GB; {first}any decision is advised at once after "
            f"building the blueprint once: farol coup blueprint build --deck {deck} "
            f"--setups {setup} (about 1.5 hours); or add --solve to solve this spot now")
