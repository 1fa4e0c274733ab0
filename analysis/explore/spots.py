"""The spots the explorer shows and the advice at them, as JSON for the page.

A spot is either reached by play (a game's parameters, ``k=v,k=v``, each a ``--param``, and
the moves from its start by their OpenSpiel names, as for ``--history``) or built by
clicking (a ¡Cobardes! position of cards, courtiers, villains and score; a Coup position
of cards, lost cards and coins). The advice is the one ``farol advise cobardes|coup``
prints with ``--json``: the same functions compute it. Where advice cannot be given at a
spot, the page gets the line ``farol advise`` would print. Goat Lords has no equilibrium
to show: its "advice" is the move Farol's strongest agent (``best``) makes there.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from typing import Any

import pyspiel

from analysis.cobardes import advise as cobardes_advice
from analysis.coup.advice import endgame as coup_advice
from analysis.coup.advice import multiplayer as multi_advice
from analysis.coup.advice import resolve as resolve_advice
from analysis.coup.advice.openings import stored_advice, stored_note
from analysis.coup.solvers import position_endgames as coup_endgames
from analysis.explore import answers
from analysis.goat_lords import bots as goat_bots
from analysis.shared.lists import comma_list
from analysis.shared.params import load_game, parse_params
from games import catalog as game_catalog
from games.cobardes import cards as BC
from games.coup import cards as CC
from games.coup.positions import MAX_COINS, format_position, parse_position
from games.errors import FarolError, InvalidParameterError, InvalidPositionError
from games.history import replay

MAX_TURN_CAP = 6  # deeper Coup solves do not fit in memory from most positions
MAX_MOVES = 3000  # moves in one history (a Goat Lords game of rounds is long)


@dataclass(frozen=True)
class Preset:
    """Parameters to start a game from, offered in the page's list."""

    title: str
    params: str


@dataclass(frozen=True)
class Game:
    """A game the explorer shows: its OpenSpiel name and the parameters to start from."""

    key: str
    title: str
    name: str
    presets: tuple[Preset, ...]
    build: bool = True  # a spot can be built by clicking cards (else only stepped to)


GAMES = {
    "cobardes": Game("cobardes", "¡Cobardes! battle", "python_cobardes_battle", (
        Preset("Squire against Archer (courtiers)",
               "kinds=warriors+courtiers,courtier0=Squire,courtier1=Archer"),
        Preset("Warriors only", "kinds=warriors"),
        Preset("Small: warriors 0-3, 3 combats", "kinds=warriors,warriors=3,combats=3"),
        Preset("Wolf against Royal Guard (courtiers)",
               "kinds=warriors+courtiers,courtier0=Wolf,courtier1=Royal Guard"),
    )),
    "coup": Game("coup", "Coup, 2-6 players", "python_coup", (
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
    )),
    "goat_lords": Game("goat_lords", "Goat Lords", "python_goat_lords", (
        Preset("2 players, one round", "players=2,scoring=single"),
        Preset("2 players, rounds to 1,000 points (the rulebook's game)", "players=2"),
        Preset("4 players, one round", "players=4,scoring=single"),
    ), build=False),
}

def game_of(key: Any) -> Game:
    """The explorer's game called ``key``."""
    if not isinstance(key, str) or key not in GAMES:
        raise InvalidParameterError(f"game must be one of {', '.join(GAMES)}")
    return GAMES[key]


def our_names() -> set[str]:
    """The explorer's own names (games, their parameters, cards): a message may quote
    them even where the user sent them too."""
    names = set(GAMES) | {g.name for g in GAMES.values()} | set(CC.DECKS)
    names |= set(BC.CARD_NAMES) | set(BC.COURTIER_NAMES)
    names |= {CC.card_name(c, d) for d in CC.DECKS for c in range(5)}
    for g in GAMES.values():
        spec = next(t for t in pyspiel.registered_games() if t.short_name == g.name)
        names |= set(spec.parameter_specification)
    return names


def catalog() -> dict:
    """What the page offers: the games, their presets and the cards it shows to click."""
    return {
        "games": [{"key": g.key, "title": g.title, "name": g.name, "build": g.build,
                   "presets": [{"title": p.title, "params": p.params} for p in g.presets]}
                  for g in GAMES.values()],
        "cobardes": {
            "warriors": list(BC.CARD_NAMES[:BC.NUM_WARRIORS]),
            "courtiers": list(BC.COURTIER_NAMES),
            "villains": [BC.CARD_NAMES[v] for v in BC.VILLAINS],
            "variants": list(cobardes_advice.VARIANTS),
            "max_combats": BC.MAX_COMBATS,
        },
        "coup": {
            "decks": {d: [CC.card_name(c, d) for c in range(5)] for d in CC.DECKS},
            "cap_pricings": list(coup_endgames.CAP_PRICINGS),
            "turn_cap": coup_endgames.DEFAULT_CAP, "max_turn_cap": MAX_TURN_CAP,
            "max_coins": MAX_COINS,
        },
    }


def _text(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidParameterError(f"{field} must be text, not {type(value).__name__}")
    return value


def history_of(value: Any) -> list[str]:
    """The moves of ``value``: a list of move names or one ``;``-separated text."""
    if isinstance(value, str) or value is None:
        names = [n.strip() for n in _text(value, "history").split(";") if n.strip()]
    elif isinstance(value, list) and all(isinstance(n, str) for n in value):
        names = [n.strip() for n in value if n.strip()]
    else:
        raise InvalidParameterError("history must be a list of move names")
    if len(names) > MAX_MOVES:
        raise InvalidParameterError(f"history: at most {MAX_MOVES} moves")
    if any(";" in n for n in names):
        raise InvalidParameterError("history: a move name holds no ';'")
    return names


def load(key: Any, params: Any) -> pyspiel.Game:
    """The game ``key`` with ``params`` written ``k=v,k=v`` (each a ``--param``)."""
    game = game_of(key)
    return load_game(game.name, parse_params(game.name, param_items(params)))


def param_items(params: Any) -> list[str]:
    """The ``k=v`` items of the page's parameters ``k=v,k=v`` (empty ones left out)."""
    return list(comma_list("params", _text(params, "params"), empty_ok=True))


def spot(key: Any, params: Any, history: Any) -> pyspiel.State:
    """The state the moves ``history`` reach from the start of the game."""
    return replay(load(key, params), ";".join(history_of(history)), flag="moves played")


def seat_of(state: pyspiel.State) -> int:
    """Whose eyes the page shows ``state`` with: the player to move; at a chance move or
    the end, the last player who moved (player 0 before anyone has)."""
    if not state.is_terminal() and not state.is_chance_node():
        return int(state.current_player())
    walk, seat = state.get_game().new_initial_state(), 0
    for action in state.history():
        if walk.current_player() >= 0:
            seat = int(walk.current_player())
        walk.apply_action(action)
    return seat


def describe(state: pyspiel.State) -> dict:
    """A state for the page: its text as one player sees it (the game's own, as ``farol
    play`` shows it: the rival's hidden cards are not in it), whose move it is and the
    moves legal there by name (a chance node's outcomes with their probabilities), or
    the final returns."""
    seat = seat_of(state)
    render = game_catalog.entry(state.get_game().get_type().short_name).render
    out: dict = {"text": render(state, seat).rstrip(), "seat": seat,
                 "moves_played": len(state.history()),
                 "terminal": state.is_terminal(), "chance": state.is_chance_node(),
                 "player": int(state.current_player()), "moves": []}
    if state.is_terminal():
        out["returns"] = [float(r) for r in state.returns()]
    elif state.is_chance_node():
        out["moves"] = [{"name": state.action_to_string(pyspiel.PlayerId.CHANCE, a),
                         "probability": float(p)}
                        for a, p in state.chance_outcomes() if p > 0]
    elif not state.is_simultaneous_node():
        player = state.current_player()
        out["moves"] = [{"name": state.action_to_string(player, a)}
                        for a in state.legal_actions(player)]
    return out


def coup_options(options: Any) -> tuple[bool, int, str]:
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


def cobardes_solve(options: Any) -> bool:
    """Whether to solve a battle with hidden villains now when it is not stored (``farol
    advise cobardes``'s ``--solve``), from ``options``, checked."""
    options = options if isinstance(options, dict) else {}
    solve = options.get("solve", False)
    if not isinstance(solve, bool):
        raise InvalidParameterError("solve must be true or false")
    return solve


def exact_flags(cap: int, pricing: str) -> list[str]:
    """``farol advise coup``'s flags for the exact solve."""
    return ["--exact", "--turn-cap", str(cap), "--cap-pricing", pricing]


def summary(key: str, advice: dict, facts: answers.Facts) -> dict:
    """The advice's JSON with what every page shows alike: each action's probability and
    value (``None`` where the answer gives no value), sorted most played first; the value
    for the player to move (:func:`~analysis.explore.answers.spot_value`); one source and
    its accuracy; what the model leaves out; and the report charts that describe the
    spot (chosen by ``facts``)."""
    actions = advice.get("actions") or None
    if actions is None and "moves" in advice:  # the re-solve's advice
        actions = [{"action": m["move"], "probability": m["probability"], "value": m["value"]}
                   for m in advice["moves"]]
    if actions is None:
        mix = advice.get("strategy") or {m["action"]: m["probability"]
                                         for m in advice.get("mix", [])}
        actions = [{"action": a, "probability": p, "value": None} for a, p in mix.items()]
    actions = [{"action": r["action"], "probability": r["probability"], "value": r["value"]}
               for r in actions]
    actions.sort(key=lambda r: (-r["probability"],
                                -(r["value"] if r["value"] is not None else 0)))
    value, value_from = answers.spot_value(advice, actions)
    accuracy = answers.accuracy_of(key, advice)
    return {"game": key, "player": advice.get("player"), "value": value,
            "value_from": value_from,
            "no_value": None if value is not None else
            "this answer gives no value for the spot, only its mix",
            "actions": actions,
            "opponent_hand": advice.get("opponent_hand", advice.get("opponent_hands", {})),
            "source": answers.source_of(key, advice), "limits": answers.limits_of(advice),
            "accuracy": accuracy, "exploitability": accuracy["exploitability"],
            "charts": answers.charts_for(facts), "json": advice}


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


def cobardes_facts(game: pyspiel.Game, advice: dict) -> answers.Facts:
    """The :class:`~analysis.explore.answers.Facts` of a battle reached by play."""
    params = game.get_parameters()
    return answers.Facts(
        "cobardes", cobardes_advice.rules_variant(game), params["warriors"],
        params["combats"], (params["courtier0"], params["courtier1"]),
        hidden=hidden_villain(advice))


def query_facts(query: cobardes_advice.Query, advice: dict) -> answers.Facts:
    """The facts of a built battle (you are the first seat, player 0)."""
    court = tuple((c or "").rstrip("*") for c in (query.my_courtier, query.their_courtier))
    court = tuple(BC.COURTIER_NAMES[BC.courtier_id(c)] if c else "" for c in court)
    return answers.Facts("cobardes", query.resolved_variant(), query.warriors, query.combats,
                         court, score=query.score is not None, hidden=hidden_villain(advice))


def hidden_villain(advice: dict) -> bool:
    """Whether the battle's answer is one where a villain is hidden from a player."""
    return "value_given" in advice or advice.get("abstraction") is not None


def coup_facts(revealed: tuple[tuple[int, ...], ...]) -> answers.Facts:
    """The facts of a Coup spot by each player's lost cards (two cards each in all)."""
    two = len(revealed) == 2
    face_down = tuple(2 - len(r) for r in revealed) if two else ()
    return answers.Facts("coup", face_down=face_down,
                         lost=tuple(tuple(r) for r in revealed) if two else ())


def command(*words: str) -> str:
    """The ``farol advise`` command line that prints the same advice."""
    return " ".join(shlex.quote(w) for w in ("farol", "advise", *words))


def advice_at(key: Any, params: Any, history: Any, options: Any = None) -> dict:
    """``{"advice": ...}`` at the spot the moves reach, as ``farol advise KEY --param ...
    --history`` gives it, or ``{"unavailable": line}`` with its message where it gives
    none; ``command`` is that command line. Bad parameters or moves raise (they are not
    the spot's fault). For Goat Lords, the move of the ``best`` agent."""
    state = spot(key, params, history)
    if key == "goat_lords":
        return agent_move(state)
    words = [key, *(w for item in param_items(params) for w in ("--param", item)),
             "--history", ";".join(history_of(history))]
    exact, cap, pricing = coup_options(options) if key == "coup" else (False, None, None)
    if exact:
        words += exact_flags(cap, pricing)
    solve = key == "cobardes" and cobardes_solve(options)
    if solve:
        words.append("--solve")
    out: dict = {"command": command(*words)}
    try:
        if key == "cobardes":
            advice = cobardes_advice.advise_spot(state, solve).to_json()
            facts = cobardes_facts(state.get_game(), advice)
            return out | {"advice": summary(key, advice, facts)}
        if state.core.cfg.num_players > 2:  # each move played out, as --players N gives it
            if exact:
                raise InvalidParameterError("the exact solve is for 2 players; at 3-6 players "
                                            "each move is played out against opponents who "
                                            "play like best")
            advice = multi_advice.advise_multi(state, show_hands=True).to_json()
            return out | {"advice": multi_summary(advice)}
        facts = coup_facts(state.core.revealed)
        if not exact:  # best's mix, as farol advise coup --history gives it
            advice = resolve_advice.advise_state(state, show_hands=True).to_json()
            return out | {"advice": summary(key, advice, facts)}
        position, deck = coup_advice.position_at(state), state.core.cfg.deck
        stored = stored_advice(position, deck, cap, pricing)
        if stored is not None:  # the shipped opening, as farol advise prints it
            advice = stored.to_json() | {"stored": stored_note(deck)}
            return out | {"advice": summary(key, advice, facts)}
        advice = coup_advice.advise(position, deck, cap, cap=pricing)
        return out | {"advice": summary(key, advice.to_json(), facts)}
    except FarolError as exc:
        return out | {"unavailable": str(exc)}


AGENT = "best"
AGENT_SEED = 0  # the agent searches with this seed: the same spot, the same move
NO_GOAT_VALUE = ("Goat Lords is not solved, so its spots have no value to show; the advice "
                 "is the move Farol's strongest agent picks by searching from what its "
                 "seat sees")


def agent_move(state: pyspiel.State) -> dict:
    """Goat Lords: the move Farol's strongest agent makes at ``state`` (it sees what its
    seat sees), among the legal moves, or ``{"unavailable": line}`` where nobody moves."""
    if state.is_terminal():
        return {"unavailable": "the game is over"}
    if state.is_chance_node():
        return {"unavailable": "chance moves next (a card drawn): pick its outcome first"}
    seat = int(state.current_player())
    agent = goat_bots.build_bot(AGENT, state.get_game(), seat, AGENT_SEED)
    choice = agent(state.clone())
    legal = [(state.action_to_string(seat, a), a == choice) for a in state.legal_actions(seat)]
    played = next(name for name, chosen in legal if chosen)
    agent_name = goat_bots.pinned(AGENT)
    actions = [{"action": name, "probability": 1.0 if chosen else 0.0, "value": None}
               for name, chosen in sorted(legal, key=lambda m: not m[1])]
    accuracy = answers.accuracy_of("goat_lords", {})
    return {"advice": {
        "game": "goat_lords", "player": seat, "value": None, "value_from": "",
        "no_value": NO_GOAT_VALUE, "actions": actions, "opponent_hand": {}, "agent": True,
        "source": f"Farol's strongest Goat Lords agent ({agent_name}: information-set "
                  f"search from what seat {seat} sees, seed {AGENT_SEED})",
        "limits": None, "accuracy": accuracy, "exploitability": None,
        "charts": answers.charts_for(answers.Facts("goat_lords")),
        "json": {"agent": agent_name, "seed": AGENT_SEED, "seat": seat, "move": played,
                 "legal": [name for name, _ in legal]}}}


# ------------------------------------------------------------- positions built by clicking
def _names(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidParameterError(f"{field} must be a list of card names")
    return value


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidParameterError(
            f"{field} must be a whole number from {low} to {high}")
    return value


def _name_or_none(value: Any, field: str) -> str | None:
    text = _text(value, field).strip()
    return text or None


def cobardes_query(fields: dict) -> cobardes_advice.Query:
    """The ``farol advise cobardes`` query of a battle position built in the page."""
    warriors = _whole(fields.get("warriors", BC.MAX_WARRIOR), "warriors", 0, BC.MAX_WARRIOR)
    full = [BC.CARD_NAMES[c] for c in range(warriors + 1)]
    mine = _names(fields.get("mine", full), "mine")
    theirs = _names(fields.get("theirs", full), "theirs")
    score = _name_or_none(fields.get("score"), "score")
    variant = _name_or_none(fields.get("variant"), "variant")
    return cobardes_advice.Query(
        mine=cobardes_advice.parse_cards(",".join(mine), "mine"),
        theirs=cobardes_advice.parse_cards(",".join(theirs), "theirs"),
        variant=variant,
        my_courtier=_name_or_none(fields.get("my_courtier"), "my_courtier"),
        their_courtier=_name_or_none(fields.get("their_courtier"), "their_courtier"),
        my_villain=_name_or_none(fields.get("my_villain"), "my_villain"),
        their_villain=_name_or_none(fields.get("their_villain"), "their_villain"),
        combat=_whole(fields.get("combat", 1), "combat", 1, BC.MAX_COMBATS),
        combats=_whole(fields.get("combats", BC.MAX_COMBATS), "combats", 1,
                       BC.MAX_COMBATS),
        warriors=warriors, score=cobardes_advice.parse_score(score))


def coup_position(fields: dict) -> tuple[str, str]:
    """The position string and deck of a Coup position built in the page: your face-down
    and lost cards and coins, the rival's count of face-down cards, lost cards and coins,
    and your seat (you move)."""
    deck = fields.get("deck", "ambassador")
    if not isinstance(deck, str) or deck not in CC.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(CC.DECKS)}")
    seat = _whole(fields.get("seat", 0), "seat", 0, 1)
    you = fields.get("you") if isinstance(fields.get("you"), dict) else {}
    rival = fields.get("rival") if isinstance(fields.get("rival"), dict) else {}
    cards = [CC.card_name(c, deck) for c in range(5)]
    named = [you.get("hidden"), you.get("revealed"), rival.get("revealed")]
    if any(n.strip().casefold() not in {c.casefold() for c in cards}
           for n in sum((_names(v, "cards") for v in named), [])):
        raise InvalidPositionError(f"cards: the {deck} deck has {', '.join(cards)}")
    mine = _names(you.get("hidden"), "your cards")
    if not mine:
        raise InvalidPositionError("your cards: pick one or two face-down cards")
    lost = [_names(you.get("revealed"), "your lost cards"),
            _names(rival.get("revealed"), "the rival's lost cards")]
    hidden = ["+".join(mine), "+".join("?" * _whole(rival.get("hidden", 2),
                                                     "the rival's face-down cards", 1, 2))]
    coins = [_whole(you.get("coins", 2), "your coins", 0, MAX_COINS),
             _whole(rival.get("coins", 2), "the rival's coins", 0, MAX_COINS)]
    entries = [f"{hidden[i]}/{'+'.join(lost[i]) or '-'}/{coins[i]}" for i in range(2)]
    if seat == 1:
        entries.reverse()
    text = ";".join(entries) + f";move:{seat}"
    return format_position(parse_position(text, deck), deck), deck


def advice_of_position(key: Any, fields: Any) -> dict:
    """``{"advice": ...}`` for a position built in the page (``farol advise KEY`` with
    the position's flags), or ``{"unavailable": line}`` where no advice is given."""
    game = game_of(key)
    if not game.build:
        raise InvalidParameterError(f"{game.title}: a spot is reached by stepping through "
                                    "a game, not built")
    fields = fields if isinstance(fields, dict) else {}
    if key == "cobardes":
        query = replace(cobardes_query(fields), solve=cobardes_solve(fields.get("options")))
        out = {"command": command(*battle_flags(query))}
        advice = cobardes_advice.advise(query).to_json()
        return out | {"advice": summary(key, advice, query_facts(query, advice))}
    position, deck = coup_position(fields)
    exact, cap, pricing = coup_options(fields.get("options"))
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
    return out | {"advice": summary(key, advice, coup_facts(revealed))}


def battle_flags(query: cobardes_advice.Query) -> list[str]:
    """The ``farol advise cobardes`` flags of a built battle position."""
    def cards(ids):
        return ",".join(BC.CARD_NAMES[c] for c in ids)

    words = ["cobardes", "--warriors", str(query.warriors), "--mine", cards(query.mine),
             "--theirs", cards(query.theirs), "--combat", str(query.combat),
             "--combats", str(query.combats)]
    for flag, value in (("--my-courtier", query.my_courtier),
                        ("--their-courtier", query.their_courtier),
                        ("--my-villain", query.my_villain),
                        ("--their-villain", query.their_villain)):
        if value:
            words += [flag, value]
    if query.score is not None:
        words += ["--score", f"{query.score[0]}-{query.score[1]}"]
    if query.solve:
        words.append("--solve")
    return words
