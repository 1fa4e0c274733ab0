"""The opening of a full ¡Cobardes! battle with hidden villains, shipped: advice at once.

A full battle with both villains hidden takes minutes and several GB to solve
(:mod:`analysis.cobardes.solvers.hidden_solution`, about 1 GB on disk), yet its first decisions
are the same for everyone who plays that courtier matchup. Each matchup's solve in the
sweep (``farol cobardes sweep --kind hidden``, or ``farol cobardes openings``) reads,
off the battle's solution, the advice at the first decision of each seat for each
villain that seat can be dealt (the mix, each move's value, what the rival likely holds)
and stores it in a few kilobytes in the data folder (``cobardes/openings``). The second
seat's first decision comes after the first seat's opening moves: one answer for each
thing the second seat can have seen by then. ``farol advise cobardes`` with the battle's
opening (combat 1, full hands) reads it there, from either seat.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import pyspiel

from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers import exact as X
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.hidden_advice import advise_hidden, solution_for
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import atomic_write_text, damaged_record, read_json
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.hidden import any_villain_unknown

GAME = "python_cobardes_battle"
VERSION = 2


def table_path(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR,
               combats: int = C.MAX_COMBATS, directory: Path | None = None) -> Path:
    """A matchup's table: in ``directory``, by default the data folder's
    ``cobardes/openings``."""
    names = "__".join(C.COURTIER_NAMES[C.courtier_id(c)].lower().replace(" ", "")
                      .replace("-", "") for c in pairing)
    name = f"{names}__w{warriors}c{combats}.json"
    return Path(directory) / name if directory is not None else store.data(
        "cobardes", "openings", name)


def opening_game(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> pyspiel.Game:
    """The battle of ``pairing`` (your courtier first) with both villains dealt hidden."""
    return pyspiel.load_game(GAME, hidden_params(tuple(pairing), warriors, combats))


def dealt(game: pyspiel.Game, villain: int, seat: int = 0) -> pyspiel.State | None:
    """The battle once ``villain`` is dealt to ``seat`` and a villain to the rival (any:
    the seat cannot see it); ``None`` when ``villain`` cannot be dealt there."""
    state = game.new_initial_state()
    while state.is_chance_node() and state.position.pending:
        outcomes = [a for a, p in state.chance_outcomes() if p > 0]
        if state.position.pending[0] == ("villain", seat):
            if villain not in outcomes:
                return None
            state.apply_action(villain)
        else:
            state.apply_action(next(a for a in outcomes if a != villain))
    return state


def first_decisions(game: pyspiel.Game, villain: int, seat: int
                    ) -> list[tuple[tuple[str, ...], pyspiel.State]]:
    """``seat``'s first decisions in the battle holding ``villain``: one state for each
    thing the seat can have seen by then (what it saw since the deal, as the game words
    it, then the state); one state with nothing seen when the seat moves first."""
    state = dealt(game, villain, seat)
    if state is None:
        return []
    before = len(state.information_state_string(seat).split(" | "))
    found: dict[str, tuple[tuple[str, ...], pyspiel.State]] = {}
    queue = [state]
    while queue:
        s = queue.pop(0)
        if s.is_terminal():
            continue
        if s.is_chance_node():
            queue.extend(s.child(a) for a, p in s.chance_outcomes() if p > 0)
        elif s.current_player() != seat:
            queue.extend(s.child(a) for a in s.legal_actions())
        else:
            text = s.information_state_string(seat)
            found.setdefault(text, (tuple(text.split(" | ")[before:]), s))
    return list(found.values())


def decisions_to_commit(game: pyspiel.Game, villain: int, seat: int
                        ) -> list[tuple[tuple[str, ...], pyspiel.State]]:
    """``seat``'s decisions of the first combat holding ``villain`` after its first, up to
    the one where it commits its card to the confrontation (a courtier advanced or held
    back first, say): one state for each thing the seat can have seen by then (what it
    saw and did since the deal, as the game words it). Its first decisions are
    :func:`first_decisions`'."""
    state = dealt(game, villain, seat)
    if state is None:
        return []
    before = len(state.information_state_string(seat).split(" | "))
    found: dict[str, tuple[tuple[str, ...], pyspiel.State]] = {}
    queue = [(state, 0)]  # a state and how many decisions the seat made on the way
    while queue:
        s, made = queue.pop()
        if s.is_terminal() or s.position.combat > 1:
            continue
        if s.is_chance_node():
            queue.extend((s.child(a), made) for a, p in s.chance_outcomes() if p > 0)
            continue
        if s.current_player() != seat:
            queue.extend((s.child(a), made) for a in s.legal_actions())
            continue
        if made:
            text = s.information_state_string(seat)
            found.setdefault(text, (tuple(text.split(" | ")[before:]), s))
        if s.position.phase != E.COMMIT:  # committed: the card is down, stop there
            queue.extend((s.child(a), made + 1) for a in s.legal_actions())
    return sorted(found.values(), key=lambda item: (len(item[0]), item[0]))


@dataclass(frozen=True)
class OpeningAdvice:
    """The first decision of a battle for each villain you hold, from either seat.

    ``seats[0]`` is the first seat's (player 0), ``seats[1]`` the second's: each a list
    of entries, one for each thing the seat can have seen by its first decision
    (``seen``: the game's words; empty when it moves first), with ``answers`` by villain:
    ``value`` (the seat's holding it), ``decision``, ``mix`` (by OpenSpiel action, with
    the seat's ``court``), ``actions`` (each move by name: its probability and value),
    ``opponent_hand`` (the rival's villain by probability) and ``worlds``.
    ``value_before_deal`` is the first seat's before any villain is dealt;
    ``exploitability`` is measured within the state-keyed abstraction (a lower bound on
    the true one) for the strategy kept after ``iterations`` iterations of ``method``.
    ``later``, the same way by seat: each seat's later decisions of the first combat, up
    to the one where it commits its card (:func:`decisions_to_commit`; ``None`` in a
    table stored before they were kept)."""

    pairing: tuple[str, str]
    warriors: int
    combats: int
    game: str
    iterations: int
    exploitability: float
    value_before_deal: float
    seats: list
    provenance: dict
    method: str
    later: list | None = None

    def save(self, directory: Path | None = None) -> Path:
        path = table_path(self.pairing, self.warriors, self.combats, directory)
        atomic_write_text(path, json.dumps({"version": VERSION, **dataclasses.asdict(self)},
                                           indent=1) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> OpeningAdvice | None:
        """The table at ``path``; ``None`` when there is none or of another version."""
        if not Path(path).exists():
            return None
        raw = read_json(path)
        if not isinstance(raw, dict) or "seats" not in raw and "answers" not in raw:
            raise damaged_record(Path(path), "not a table of opening answers")
        if raw.pop("version", None) != VERSION:
            return None
        try:
            raw["pairing"] = tuple(raw["pairing"])
            return cls(**raw)
        except (KeyError, TypeError):
            raise damaged_record(Path(path), "not a table of opening answers") from None

    def entries(self, villain: str, seat: int = 0, later: bool = False
                ) -> list[tuple[tuple[str, ...], dict]]:
        """``seat``'s answers holding ``villain`` (a card name): ``(seen, answer)`` for
        each thing the seat can have seen by its first decision (with ``later``, by each
        of its later decisions up to its commit too)."""
        kept = self.seats[seat] + (self.later[seat] if later and self.later else [])
        return [(tuple(e["seen"]), e["answers"][villain]) for e in kept
                if villain in e["answers"]]

    @property
    def to_commit(self) -> bool:
        """Whether the table keeps each seat's decisions up to its commit (none after
        the first where the first is the commit)."""
        return self.later is not None


def _answer(state: pyspiel.State, solution, exact: FastExactSolver) -> dict:
    """The advice at ``state`` from the battle's ``solution``; where no villain is hidden
    from anyone any more (the Procuress swapped both), from the ``exact`` solve of the
    public position, the one the solution's trunk ends on there."""
    mover = state.current_player()
    pos = state.position
    names = {a: state.action_to_string(a) for a in state.legal_actions()}
    if not (pos.pending or pos.phase in (E.PROC_TAKE, E.PROC_GIVE) or any_villain_unknown(pos)):
        sign = 1.0 if mover == 0 else -1.0
        mix = exact.strategy(pos)
        values = exact.action_values(pos)
        held = [C.CARD_NAMES[v] for v in E.bits(pos.h[1 - mover] & C.VILLAIN_MASK)]
        return {"value": sign * exact.value(X.matrix_root(pos)),
                "decision": E.PHASE_NAMES[pos.phase],
                "mix": [[a, mix.get(a, 0.0)] for a in state.legal_actions()],
                "court": pos.court[mover],
                "actions": [[names[a], mix.get(a, 0.0), values[a]] for a in state.legal_actions()],
                "opponent_hand": dict.fromkeys(held or ["none"], 1.0), "worlds": 1}
    spot = advise_hidden(state, solution)
    return {"value": spot.value, "decision": E.PHASE_NAMES[pos.phase],
            "mix": [[a, p] for a, p in spot.mix.items()], "court": pos.court[mover],
            "actions": [[names[a], spot.mix[a], v] for a, v in spot.action_values.items()],
            "opponent_hand": spot.opponent_hand, "worlds": spot.worlds}


def from_solution(pairing: tuple[str, str], game: pyspiel.Game, solution,
                  warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> OpeningAdvice:
    """The advice at the battle's first decisions, read off ``solution`` (a
    :class:`~analysis.cobardes.solvers.hidden_solution.HiddenSolution` of ``game``)."""
    exact = FastExactSolver(game.rules.cfg, game.rules.pay)

    def table(decisions) -> list:
        out = []
        for seat in (0, 1):
            by_seen: dict[tuple[str, ...], dict] = {}
            for villain in C.VILLAINS:
                for seen, state in decisions(game, villain, seat):
                    by_seen.setdefault(seen, {})[C.CARD_NAMES[villain]] = _answer(
                        state, solution, exact)
            out.append([{"seen": list(seen), "answers": a} for seen, a in by_seen.items()])
        return out

    return OpeningAdvice(tuple(pairing), warriors, combats, str(game), solution.iterations,
                         solution.exploitability, solution.value, table(first_decisions),
                         provenance(None), solution.method, table(decisions_to_commit))


def build(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> OpeningAdvice:
    """Solve the battle of ``pairing`` once (or read its stored solution) and read the
    advice at its first decisions for every villain either seat can hold."""
    game = opening_game(pairing, warriors, combats)
    return from_solution(pairing, game, solution_for(game, solve_large=True), warriors,
                         combats)


def stored(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS
           ) -> OpeningAdvice | None:
    """The shipped opening advice of ``pairing``, if any."""
    return OpeningAdvice.load(table_path(pairing, warriors, combats))


def stored_for(game: pyspiel.Game) -> OpeningAdvice | None:
    """The shipped opening of the battle ``game`` (courtiers named), if any."""
    params = game.get_parameters()
    pairing = (str(params.get("courtier0")), str(params.get("courtier1")))
    if any(c in ("random", "none", "") for c in pairing):
        return None
    table = stored(pairing, game.rules.warriors, game.rules.cfg.combats)
    return table if table is not None and table.game == str(game) else None


def answer_at(state: pyspiel.State) -> tuple[OpeningAdvice, tuple[str, ...], dict] | None:
    """The stored answer at ``state`` when its mover's decision is one the battle's
    stored opening keeps (its first, or a later one up to its commit): the table, what
    the mover saw since the deal (the game's words) and the answer; else ``None``."""
    if state.position.combat != 1:
        return None
    game = state.get_game()
    table = stored_for(game)
    if table is None:
        return None
    seat = state.current_player()
    held = E.bits(state.position.h[seat] & C.VILLAIN_MASK)
    after_deal = dealt(game, held[0], seat) if len(held) == 1 else None
    if after_deal is None:
        return None
    before = len(after_deal.information_state_string(seat).split(" | "))
    seen = tuple(state.information_state_string(seat).split(" | ")[before:])
    for entry_seen, answer in table.entries(C.CARD_NAMES[held[0]], seat, later=True):
        if entry_seen == seen:
            return table, seen, answer
    return None


def build_command(pairing: tuple[str, str]) -> str:
    """The command that solves ``pairing``'s battle and stores its opening advice."""
    return f"farol cobardes openings --matchups '{pairing[0]}/{pairing[1]}'"
