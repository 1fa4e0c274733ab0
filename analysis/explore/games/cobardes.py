"""¡Cobardes!'s page in the explorer: battles reached by play or built by clicking cards,
courtiers, villains and a war score; the advice is ``farol advise cobardes``'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pyspiel

from analysis.cobardes.advice import advise as cobardes_advice
from analysis.explore import answers
from analysis.explore.answers import Chart, Facts
from analysis.explore.common import (
    Game,
    Page,
    Preset,
    command,
    history_words,
    name_or_none,
    names,
    summary,
    whole,
)
from analysis.explore.common import (
    flag as page_flag,
)
from games.cobardes import cards as BC
from games.errors import FarolError

GAME = Game("cobardes", "¡Cobardes! battle", "python_cobardes_battle", (
        Preset("Squire against Archer (courtiers)",
               "kinds=warriors+courtiers,courtier0=Squire,courtier1=Archer"),
        Preset("Warriors only", "kinds=warriors"),
        Preset("Small: warriors 0-3, 3 combats", "kinds=warriors,warriors=3,combats=3"),
        Preset("Wolf against Royal Guard (courtiers)",
               "kinds=warriors+courtiers,courtier0=Wolf,courtier1=Royal Guard"),
    ))

FULL = (BC.MAX_WARRIOR, BC.MAX_COMBATS)  # the report's battles: warriors 0-6, 7 combats
# The full battle with hidden villains the report charts (benchmarks/cobardes_full_battle.py).
FULL_BATTLE_COURTIERS = ("Squire", "Archer")


def full(f: Facts) -> bool:
    """Whether the spot's battle is the report's size."""
    return (f.warriors, f.combats) == FULL


CHARTS = (
        Chart("cobardes_warriors_mix.png", "Opening mix and play by combat",
          "the warriors-only battle, warriors 0-6, 7 combats",
          lambda f: f.variant == "warriors" and full(f) and not f.score),
    Chart("cobardes_card_importance.png", "Card importance by combat",
          "the warriors-only battle, warriors 0-6, 7 combats",
          lambda f: f.variant == "warriors" and full(f) and not f.score),
    Chart("cobardes_courtier_battle.png", "Courtier battle matchups",
          "battles with courtiers, every pairing, warriors 0-6, 7 combats",
          lambda f: f.variant == "courtiers" and full(f) and not f.score),
    Chart("cobardes_courtier_war.png", "Courtier war matchups",
          "wars with courtiers from 0-0, every pairing, warriors 0-6, 7 combats",
          lambda f: f.variant == "courtiers" and full(f)),
    Chart("cobardes_war_by_score.png", "War win probability by score",
          "wars without villains, by score, warriors 0-6, 7 combats",
          lambda f: f.score and f.variant in ("warriors", "courtiers") and full(f)),
    Chart("cobardes_villain_matchups.png", "Villain matchups",
          "battles of warriors and villains, both villains known, warriors 0-6, "
          "7 combats",
          lambda f: f.variant == "villains" and not f.hidden and full(f)),
    Chart("cobardes_hidden_villains.png", "Hidden villain deals",
          "battles of warriors and villains dealt face down, warriors 0-3, 3 combats",
          lambda f: f.variant == "villains" and f.hidden
          and (f.warriors, f.combats) == (3, 3)),
    Chart("cobardes_full_battle_villains.png", "Full battle, hidden villain deals",
          "the full battle, Squire against Archer, villains dealt face down",
          lambda f: f.variant == "all" and f.hidden and full(f)
          and f.courtiers == FULL_BATTLE_COURTIERS),
)


def catalog() -> dict:
    """The cards, courtiers, villains and variants the page offers to click."""
    return {
        "warriors": list(BC.CARD_NAMES[:BC.NUM_WARRIORS]),
        "courtiers": list(BC.COURTIER_NAMES),
        "villains": [BC.CARD_NAMES[v] for v in BC.VILLAINS],
        "variants": list(cobardes_advice.VARIANTS),
        "max_combats": BC.MAX_COMBATS,
    }


def our_names() -> set[str]:
    return set(BC.CARD_NAMES) | set(BC.COURTIER_NAMES)


def solve_option(options: Any) -> bool:
    """Whether to solve a battle with hidden villains now when it is not stored (``farol
    advise cobardes``'s ``--solve``), from ``options``, checked."""
    return page_flag(options, "solve")


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


def advice_at(state: pyspiel.State, params: Any, history: Any, options: Any) -> dict:
    """``farol advise cobardes --param ... --history ...`` at the spot, or the line it
    prints where it gives no advice."""
    solve = solve_option(options)
    words = ["cobardes", *history_words(params, history)] + (["--solve"] if solve else [])
    out: dict = {"command": command(*words)}
    try:
        advice = cobardes_advice.advise_spot(state, solve).to_json()
    except FarolError as exc:
        return out | {"unavailable": str(exc)}
    return out | {"advice": summary(PAGE, advice, cobardes_facts(state.get_game(), advice))}


def cobardes_query(fields: dict) -> cobardes_advice.Query:
    """The ``farol advise cobardes`` query of a battle position built in the page."""
    warriors = whole(fields.get("warriors", BC.MAX_WARRIOR), "warriors", 0, BC.MAX_WARRIOR)
    full = [BC.CARD_NAMES[c] for c in range(warriors + 1)]
    mine = names(fields.get("mine", full), "mine")
    theirs = names(fields.get("theirs", full), "theirs")
    score = name_or_none(fields.get("score"), "score")
    variant = name_or_none(fields.get("variant"), "variant")
    return cobardes_advice.Query(
        mine=cobardes_advice.parse_cards(",".join(mine), "mine"),
        theirs=cobardes_advice.parse_cards(",".join(theirs), "theirs"),
        variant=variant,
        my_courtier=name_or_none(fields.get("my_courtier"), "my_courtier"),
        their_courtier=name_or_none(fields.get("their_courtier"), "their_courtier"),
        my_villain=name_or_none(fields.get("my_villain"), "my_villain"),
        their_villain=name_or_none(fields.get("their_villain"), "their_villain"),
        combat=whole(fields.get("combat", 1), "combat", 1, BC.MAX_COMBATS),
        combats=whole(fields.get("combats", BC.MAX_COMBATS), "combats", 1,
                       BC.MAX_COMBATS),
        warriors=warriors, score=cobardes_advice.parse_score(score))


def advice_of_position(fields: dict) -> dict:
    """``farol advise cobardes`` at a battle position built in the page."""
    query = replace(cobardes_query(fields), solve=solve_option(fields.get("options")))
    out = {"command": command(*battle_flags(query))}
    advice = cobardes_advice.advise(query).to_json()
    return out | {"advice": summary(PAGE, advice, query_facts(query, advice))}


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


PAGE = Page(GAME, advice_at, catalog, our_names, advice_of_position, CHARTS)
