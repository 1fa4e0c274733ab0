"""The opening of a full ¡Cobardes! battle with hidden villains, shipped: advice at once.

A full battle with both villains hidden takes some ten minutes and several GB to solve
(:mod:`analysis.cobardes.hidden_solution`, about 1 GB on disk), yet its first decision
is the same for everyone who plays that courtier matchup. ``farol cobardes openings``
reads, off the battle's solution, the advice at that decision for each villain you can
be dealt (your mix, each move's value, what the rival likely holds) and stores it in a
few kilobytes in the data folder (``cobardes/openings``); ``farol advise cobardes`` with
the battle's opening (combat 1, full hands) reads it there. Any other spot of a large
battle with hidden villains is refused in one line naming the command that solves it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import pyspiel

from analysis.cobardes.hidden_advice import advise_hidden, solution_for
from analysis.cobardes.hidden_sweep import hidden_params
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import atomic_write_text, damaged_record, read_json
from games.cobardes import cards as C
from games.cobardes import engine as E

GAME = "python_cobardes_battle"
VERSION = 1


def table_path(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> Path:
    names = "__".join(C.COURTIER_NAMES[C.courtier_id(c)].lower().replace(" ", "")
                      .replace("-", "") for c in pairing)
    return store.data("cobardes", "openings", f"{names}__w{warriors}c{combats}.json")


def opening_game(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> pyspiel.Game:
    """The battle of ``pairing`` (your courtier first) with both villains dealt hidden."""
    return pyspiel.load_game(GAME, hidden_params(tuple(pairing), warriors, combats))


def opening_state(game: pyspiel.Game, villain: int) -> pyspiel.State | None:
    """The battle's first decision with ``villain`` dealt to player 0 (the rival's any:
    player 0 cannot see it); ``None`` when ``villain`` cannot be dealt."""
    state = game.new_initial_state()
    first = True
    while state.is_chance_node():
        outcomes = [a for a, p in state.chance_outcomes() if p > 0]
        if first and state.position.pending[0] == ("villain", 0):
            if villain not in outcomes:
                return None
            state.apply_action(villain)
            first = False
        else:
            state.apply_action(outcomes[0])
    return state


@dataclass(frozen=True)
class OpeningAdvice:
    """The first decision of a battle for each villain you hold: ``answers[villain]``
    has ``value`` (yours holding it), ``decision``, ``mix`` (by OpenSpiel action, with
    your ``court``) and ``actions`` (each move by name: its probability and value), ``opponent_hand`` (the rival's villain by probability) and
    ``worlds``; ``value_before_deal`` is yours before any villain is dealt;
    ``exploitability`` is measured within the state-keyed abstraction (a lower bound on
    the true one) after ``iterations`` CFR+ iterations."""

    pairing: tuple[str, str]
    warriors: int
    combats: int
    game: str
    iterations: int
    exploitability: float
    value_before_deal: float
    answers: dict
    provenance: dict

    def save(self) -> Path:
        path = table_path(self.pairing, self.warriors, self.combats)
        atomic_write_text(path, json.dumps({"version": VERSION, **dataclasses.asdict(self)},
                                           indent=1) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> OpeningAdvice | None:
        """The table at ``path``; ``None`` when there is none or of another version."""
        if not Path(path).exists():
            return None
        raw = read_json(path)
        if not isinstance(raw, dict) or "answers" not in raw:
            raise damaged_record(Path(path), "not a table of opening answers")
        if raw.pop("version", None) != VERSION:
            return None
        raw["pairing"] = tuple(raw["pairing"])
        return cls(**raw)


def build(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS) -> OpeningAdvice:
    """Solve the battle of ``pairing`` once (or read its stored solution) and read the
    advice at its first decision for every villain player 0 can hold."""
    game = opening_game(pairing, warriors, combats)
    solution = solution_for(game, solve_large=True)
    answers = {}
    for villain in C.VILLAINS:
        state = opening_state(game, villain)
        if state is None:
            continue
        spot = advise_hidden(state, solution)
        names = {a: state.action_to_string(a) for a in state.legal_actions()}
        answers[C.CARD_NAMES[villain]] = {
            "value": spot.value, "decision": E.PHASE_NAMES[state.position.phase],
            "mix": [[a, p] for a, p in spot.mix.items()], "court": state.position.court[0],
            "actions": [[names[a], spot.mix[a], v] for a, v in spot.action_values.items()],
            "opponent_hand": spot.opponent_hand, "worlds": spot.worlds}
    return OpeningAdvice(tuple(pairing), warriors, combats, str(game), solution.iterations,
                         solution.exploitability, solution.value, answers,
                         provenance(None))


def stored(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS
           ) -> OpeningAdvice | None:
    """The shipped opening advice of ``pairing``, if any."""
    return OpeningAdvice.load(table_path(pairing, warriors, combats))


def build_command(pairing: tuple[str, str]) -> str:
    """The command that solves ``pairing``'s battle and stores its opening advice."""
    return f"farol cobardes openings --matchups '{pairing[0]}/{pairing[1]}'"
