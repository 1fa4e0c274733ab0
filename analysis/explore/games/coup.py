"""Coup's page in the explorer: 2-player spots reached by play or built by clicking cards
and coins; the advice is ``farol advise coup``'s (best's re-solve, or the exact endgame
solve under Advanced), with a strategy's stored lower bound as its accuracy.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from analysis.coup.advice import endgame as coup_advice
from analysis.coup.advice import multiplayer as multi_advice
from analysis.coup.advice import resolve as resolve_advice
from analysis.coup.advice.openings import stored_advice, stored_note
from analysis.coup.solvers import position_endgames as coup_endgames
from analysis.coup.studies.local_best_response import stored_bound
from analysis.explore.answers import Chart, Facts, accuracy, gain, number
from analysis.explore.common import (
    Game,
    Page,
    Preset,
    command,
    history_words,
    names,
    summary,
    whole,
)
from games.coup import cards as CC
from games.coup.cards import CONTESSA
from games.coup.positions import MAX_COINS, format_position, parse_position
from games.errors import FarolError, InvalidParameterError, InvalidPositionError

MAX_TURN_CAP = 6  # deeper Coup solves do not fit in memory from most positions

GAME = Game("coup", "Coup, 2-6 players", "python_coup", (
        Preset("Endgame: one card each, 3 and 2 coins",
               "deck=ambassador,position=?/duke/3;?/captain/2;move:0"),
        Preset("Endgame: two cards against one",
               "deck=ambassador,position=?+?/-/2;?/contessa/4;move:0"),
        Preset("Whole game (Ambassador deck)", "deck=ambassador"),
        Preset("Whole game (Inquisitor deck, standard setup)",
               "deck=inquisitor,two_player_setup=standard"),
        Preset("3 players, whole game (Ambassador deck)", "players=3"),
        Preset("4 players, whole game (Ambassador deck)", "players=4"),
        Preset("6 players, whole game (Ambassador deck)", "players=6"),
    ))


def _one_card_each(f: Facts) -> bool:
    """The report's endgames: one face-down card each, both players having lost a Contessa."""
    return f.face_down == (1, 1) and all(lost == (CONTESSA,) for lost in f.lost)


_ENDGAMES = ("2-player endgames with one face-down card each (both lost a Contessa), "
             "coins 0-9, capped at 2 turns")
# The full battle with hidden villains the report charts (benchmarks/cobardes_full_battle.py).
FULL_BATTLE_COURTIERS = ("Squire", "Archer")

CHARTS = (
        Chart("coup_endgame_value.png", "Mover's value in 1v1 endgames", _ENDGAMES,
          _one_card_each),
    Chart("coup_endgame_draw.png", "Draw probability at the cap", _ENDGAMES,
          _one_card_each),
    Chart("coup_bluff_rates.png", "Bluff and challenge rates", _ENDGAMES,
          _one_card_each),
    Chart("coup_bluff_by_coins.png", "Bluff rates by coins", _ENDGAMES, _one_card_each),
    Chart("coup_priced_bluff_rates.png", "Bluff rates with the cap priced",
          "the same endgames, the cap priced by Markov guarantees", _one_card_each),
)


def catalog() -> dict:
    """The decks' cards, the exact solve's settings and the coins the page offers."""
    return {
        "decks": {d: [CC.card_name(c, d) for c in range(5)] for d in CC.DECKS},
        "cap_pricings": list(coup_endgames.CAP_PRICINGS),
        "turn_cap": coup_endgames.DEFAULT_CAP, "max_turn_cap": MAX_TURN_CAP,
        "max_coins": MAX_COINS,
    }


def our_names() -> set[str]:
    return set(CC.DECKS) | {CC.card_name(c, d) for d in CC.DECKS for c in range(5)}


def options_of(options: Any) -> tuple[bool, int, str]:
    """Whether to solve exactly, and the turn cap and cap pricing of that solve, from
    ``options`` (``farol advise coup``'s ``--exact``, ``--turn-cap`` and
    ``--cap-pricing``), checked."""
    options = options if isinstance(options, dict) else {}
    exact = options.get("exact", False)
    if not isinstance(exact, bool):
        raise InvalidParameterError("exact must be true or false")
    cap = options.get("turn_cap", coup_endgames.DEFAULT_CAP)
    if isinstance(cap, str) and cap.strip().isdigit():
        cap = int(cap)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_TURN_CAP:
        raise InvalidParameterError(f"turn cap must be a whole number from 1 to {MAX_TURN_CAP}")
    pricing = options.get("cap_pricing", "markov")
    if not isinstance(pricing, str) or pricing not in coup_endgames.CAP_PRICINGS:
        raise InvalidParameterError(
            f"cap pricing must be one of {', '.join(coup_endgames.CAP_PRICINGS)}")
    return exact, cap, pricing


def exact_flags(cap: int, pricing: str) -> list[str]:
    """``farol advise coup``'s flags for the exact solve."""
    return ["--exact", "--turn-cap", str(cap), "--cap-pricing", pricing]


def facts_of(revealed: tuple[tuple[int, ...], ...]) -> Facts:
    """The facts of a Coup spot by each player's lost cards (two cards each in all)."""
    two = len(revealed) == 2
    face_down = tuple(2 - len(r) for r in revealed) if two else ()
    return Facts("coup", face_down=face_down,
                         lost=tuple(tuple(r) for r in revealed) if two else ())


def multi_summary(advice: dict) -> dict:
    """The page's answer at a 3-6 player Coup spot: each move's chance of winning with its
    95% interval and whether it ties with the best, each opponent's likely hands, the
    model in words. There is no mix and no exploitability: no equilibrium is meaningful
    at 3 or more players."""
    moves = advice["moves"]
    return {"game": "coup", "player": advice["player"], "players": advice["players"],
            "win_chances": True, "value": moves[0]["win"], "value_from": "best move",
            "actions": [{"action": m["move"], "win": m["win"], "ci95": m["ci95"],
                         "tie": m["tie_with_best"]} for m in moves],
            "opponent_hands": {p: [[h["hand"], h["probability"]] for h in hands[:6]]
                               for p, hands in advice["opponent_hands"].items()},
            "source": f"best's play-outs, {advice['rollouts_per_move']:,} games a move",
            "limits": advice["model"],
            "accuracy": {"kind": "measured", "exploitability": None,
                         "text": "each chance with its 95% interval over those games"},
            "exploitability": None, "charts": [], "json": advice}


def advice_at(state: pyspiel.State, params: Any, history: Any, options: Any) -> dict:
    """``farol advise coup --param ... --history ...`` at the spot (best's re-solve, or
    the exact solve asked under Advanced), or the line it prints where it gives none."""
    exact, cap, pricing = options_of(options)
    words = ["coup", *history_words(params, history)] + (exact_flags(cap, pricing) if exact else [])
    out: dict = {"command": command(*words)}
    try:
        if state.core.cfg.num_players > 2:  # each move played out, as --players N gives it
            if exact:
                raise InvalidParameterError("the exact solve is for 2 players; at 3-6 players "
                                            "each move is played out against opponents who "
                                            "play like best")
            advice = multi_advice.advise_multi(state, show_hands=True).to_json()
            return out | {"advice": multi_summary(advice)}
        facts = facts_of(state.core.revealed)
        if not exact:  # best's mix, as farol advise coup --history gives it
            advice = resolve_advice.advise_state(state, show_hands=True).to_json()
            return out | {"advice": summary(PAGE, advice, facts)}
        position, deck = coup_advice.position_at(state), state.core.cfg.deck
        stored = stored_advice(position, deck, cap, pricing)
        if stored is not None:  # the shipped opening, as farol advise prints it
            advice = stored.to_json() | {"stored": stored_note(deck)}
            return out | {"advice": summary(PAGE, advice, facts)}
        advice = coup_advice.advise(position, deck, cap, cap=pricing)
        return out | {"advice": summary(PAGE, advice.to_json(), facts)}
    except FarolError as exc:
        return out | {"unavailable": str(exc)}


def position_of(fields: dict) -> tuple[str, str]:
    """The position string and deck of a Coup position built in the page: your face-down
    and lost cards and coins, the rival's count of face-down cards, lost cards and coins,
    and your seat (you move)."""
    deck = fields.get("deck", "ambassador")
    if not isinstance(deck, str) or deck not in CC.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(CC.DECKS)}")
    seat = whole(fields.get("seat", 0), "seat", 0, 1)
    you = fields.get("you") if isinstance(fields.get("you"), dict) else {}
    rival = fields.get("rival") if isinstance(fields.get("rival"), dict) else {}
    cards = [CC.card_name(c, deck) for c in range(5)]
    named = [you.get("hidden"), you.get("revealed"), rival.get("revealed")]
    if any(n.strip().casefold() not in {c.casefold() for c in cards}
           for n in sum((names(v, "cards") for v in named), [])):
        raise InvalidPositionError(f"cards: the {deck} deck has {', '.join(cards)}")
    mine = names(you.get("hidden"), "your cards")
    if not mine:
        raise InvalidPositionError("your cards: pick one or two face-down cards")
    lost = [names(you.get("revealed"), "your lost cards"),
            names(rival.get("revealed"), "the rival's lost cards")]
    hidden = ["+".join(mine), "+".join("?" * whole(rival.get("hidden", 2),
                                                     "the rival's face-down cards", 1, 2))]
    coins = [whole(you.get("coins", 2), "your coins", 0, MAX_COINS),
             whole(rival.get("coins", 2), "the rival's coins", 0, MAX_COINS)]
    entries = [f"{hidden[i]}/{'+'.join(lost[i]) or '-'}/{coins[i]}" for i in range(2)]
    if seat == 1:
        entries.reverse()
    text = ";".join(entries) + f";move:{seat}"
    return format_position(parse_position(text, deck), deck), deck


def advice_of_position(fields: dict) -> dict:
    """``farol advise coup`` at a position built in the page."""
    position, deck = position_of(fields)
    exact, cap, pricing = options_of(fields.get("options"))
    out = {"spot": position, "command": command(
        "coup", position, "--deck", deck, *(exact_flags(cap, pricing) if exact else []))}
    try:
        if exact:
            advice = coup_advice.advise(position, deck, cap, cap=pricing).to_json()
        else:
            advice = resolve_advice.advise_state(
                resolve_advice.position_state(position, deck)).to_json()
    except InvalidParameterError as exc:  # the cap cannot be priced at this position
        return out | {"unavailable": str(exc)}
    revealed = parse_position(position, deck).revealed
    return out | {"advice": summary(PAGE, advice, facts_of(revealed))}


def source(advice: dict, said: str) -> str:
    """The exact endgame solve's source says how the cap is priced, and where it is stored."""
    if "turn_cap" in advice:  # the exact endgame solve, or the opening's
        said += (", the cap priced by Markov guarantees" if advice.get("cap_pricing")
                 == "markov" else ", a game reaching the cap counted as a draw")
        if advice.get("stored"):
            said += f"; solved once and stored in {advice['stored']}"
    return said


def accuracy_of(advice: dict) -> dict | None:
    """A strategy played from the deal (best's re-solve, the blueprint and its re-solve)
    is as accurate as its stored lower bound says; an exact capped solve is measured in
    the capped game; anything else, as every game says it (``None``)."""
    if "exploitability_in_turn" in advice or advice.get("agent") == "best":  # best's re-solve
        inside = (f"; inside the re-solved turn a best response gains at most "
                  f"{gain(advice['exploitability_in_turn'] / 2)} in win probability"
                  if number(advice.get("exploitability_in_turn")) else "")
        return whole_game("resolve", advice, inside)
    if "exploitability_kind" in advice:  # the blueprint, or its re-solve
        if "resolve" in advice:  # the re-solve of the next decisions from the blueprint
            r = advice["resolve"] if isinstance(advice["resolve"], dict) else {}
            inside = (f"; inside the re-solved decisions a best response gains at most "
                      f"{gain(r['exploitability'])}"
                      if number(r.get("exploitability")) else "")
            return whole_game("resolve-blueprint", advice, inside)
        return whole_game("blueprint", advice, "")
    x = advice.get("exploitability")
    if "turn_cap" in advice and number(x) and x != 0 and not advice.get("abstraction"):
        cap = advice["turn_cap"]
        turns = "1 turn" if cap == 1 else f"{cap} turns"
        return accuracy("measured", f"exploitability {gain(x)}, measured exactly in the "
                        f"game capped at {turns} (the most a best response gains there)", x)
    return None


def whole_game(agent: str, advice: dict, inside: str) -> dict:
    """The accuracy of a Coup strategy played from the deal (``agent``, as ``farol coup
    match`` names it): its stored lower bound where one is measured, else that its loss
    is not measured (a re-solve's own small gap, ``inside``, bounds nothing outside it)."""
    bound = stored_bound(agent, advice.get("deck"), advice.get("setup"))
    if bound is not None and bound["shown"]:
        return accuracy("lower bound", bound["text"] + inside, bound["gain"])
    unmeasured = "its loss to a best response in the whole game is not measured"
    if bound is not None:  # a run whose interval holds 0 bounds nothing
        unmeasured += ": " + bound["text"]
    return accuracy("not measured", unmeasured + inside)


PAGE = Page(GAME, advice_at, catalog, our_names, advice_of_position, CHARTS,
            accuracy=accuracy_of, source=source)
