"""¡Cobardes!'s what-if with villains: the war composed from the stored courtier matchups.

A battle with both villains dealt hidden is solved by CFR on an abstraction, minutes a
courtier matchup (:mod:`analysis.cobardes.studies.hidden_sweep`), too long to redo for every
variant. But a variant that changes only the war (the Victory tokens that win it, the
court deck) changes no battle: the war with villains is composed from the same stored
matchups, on the model of the guide (:func:`analysis.cobardes.studies.composed_renewal.
villain_renewal`): both villains dealt afresh in every battle, each battle played as
solved whatever the war's score (its strategy does not depend on the score), and the
keep-or-renew choices between battles solved exactly for those battles. Given the stored
battle strategies the composition is exact, so its figures are "exact on the model"
(:data:`~analysis.play.whatif.ON_MODEL`), with the battles' accuracy stated beside them:
their exploitability within the abstraction (a lower bound on the true one) and what
the model misses on the villain-free pairings, where the exact war is known.

A villain's worth in the war is its holder's chance of winning the war when dealt it in
the first battle (the rival's villain from the other eight): that battle ends as the
matchup's record says for that deal, and the war goes on from where it leads, as
composed. A variant that changes the battle gets one sentence instead, saying what its
war with villains would take.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.model import ENDING_NAMES
from analysis.cobardes.studies import balance
from analysis.cobardes.studies.composed_renewal import COMPOSITION_MISS, villain_renewal
from analysis.cobardes.studies.hidden_sweep import HiddenMatchupRecord, load_hidden
from analysis.cobardes.studies.renewal import RenewalModel, value_table
from analysis.play.whatif import Metric, on_model
from analysis.shared.params import game_parameter_spec
from analysis.shared.store import read_json
from analysis.solve.cfr import METHOD_NAMES
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidParameterError

WAR_GAME = "python_cobardes_war"
# The war's rules the composition follows; the battle's rules the hidden sweep solves
# for (farol cobardes sweep --kind hidden --warriors W --combats C); the war's rules it
# does not model (it composes the war from 0-0, with no cap on battles).
WAR_ONLY = ("victories", "court_deck")
SWEPT = ("warriors", "combats")
NOT_MODELLED = ("max_battles", "tokens0", "tokens1")
SWEEP = "farol cobardes sweep --kind hidden"


@dataclass(frozen=True)
class VillainWar:
    """The war with villains for one rule set, composed from the stored matchups.

    ``first_player``: the first player's chance of winning the war, every dealt matchup
    equally likely; ``courtiers``: each courtier's, over its rivals and both seats;
    ``villains``: each villain's holder's, dealt it in the first battle, as (mean over
    the matchups and both seats, least over the matchups, greatest); ``battle_values``:
    each villain's battle value to its holder, the same way (the guide's ranking: a war
    variant leaves it unchanged). ``exploitability_at_least``: the largest of the
    battles' exploitability within their abstraction (a lower bound on the true one);
    ``cpu_hours``: what solving the matchups took."""

    victories: int
    warriors: int
    combats: int
    court: tuple[str, ...]
    first_player: float
    courtiers: dict[str, float]
    villains: dict[str, tuple[float, float, float]]
    battle_values: dict[str, tuple[float, float, float]]
    matchups: int
    exploitability_at_least: float
    cpu_hours: float
    method: str

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["court"] = list(self.court)
        for key in ("villains", "battle_values"):
            out[key] = {k: list(v) for k, v in out[key].items()}
        return out

    @classmethod
    def from_json(cls, data: dict) -> VillainWar:
        data = dict(data)
        data["court"] = tuple(data["court"])
        for key in ("villains", "battle_values"):
            data[key] = {k: tuple(v) for k, v in data[key].items()}
        return cls(**data)


def _full(params: dict) -> dict:
    return game_parameter_spec(WAR_GAME) | dict(params)


def battle_changes(params: dict) -> dict:
    """The battle's rules ``params`` (war parameters) change from the printed ones."""
    printed = game_parameter_spec(WAR_GAME)
    war = set(WAR_ONLY) | set(NOT_MODELLED)
    return {k: v for k, v in sorted(params.items()) if k not in war and printed.get(k) != v}


def court(params: dict) -> tuple[str, ...]:
    """The court deck's courtiers (names) under the war's rules ``params``."""
    rules = pyspiel.load_game(WAR_GAME, dict(params)).rules
    return tuple(C.COURTIER_NAMES[i] for i in E.bits(rules.cfg.court_deck))


def compose(records: Mapping[tuple[str, str], HiddenMatchupRecord], model: RenewalModel
            ) -> VillainWar:
    """The war with villains of ``model`` (its court deck, armies and victories) from the
    matchup records (see the module's docstring).

    Raises
    ------
    InvalidParameterError
        A matchup of the model is not stored with how its battles end.
    """
    sol = villain_renewal(records, model)
    table = value_table(sol)
    wins = (1 + balance.seat_neutral_strength(table).dropna()) / 2
    first = float((1 + table.stack().dropna().mean()) / 2)
    pairs = [records[p] for p in model.pairings]
    war_deals = []
    for record in pairs:
        # Player 0's war value after each first deal: the battle ends as the record says
        # for that deal, each ending paid the war's value of where it leads.
        pay, _ = model.payoffs(sol.values, ((0, 0), record.pairing))
        deals = {v0: {v1: float(np.array([ends[n] for n in ENDING_NAMES]) @ pay)
                      for v1, ends in row.items()}
                 for v0, row in record.outcomes.items()}
        war_deals.append(dataclasses.replace(record, deals=deals))
    villains = {v: ((1 + m) / 2, (1 + lo) / 2, (1 + hi) / 2)
                for v, (m, lo, hi) in holder_values(war_deals).items()}
    return VillainWar(model.victories, model.warriors, model.combats, tuple(model.courtiers),
                      first, {k: float(v) for k, v in wins.items()}, villains,
                      holder_values(pairs), len(pairs),
                      max(r.exploitability_lower_bound for r in pairs),
                      sum(r.compile_seconds + r.solve_seconds for r in pairs) / 3600,
                      " and ".join(dict.fromkeys(METHOD_NAMES.get(r.method, r.method)
                                                 for r in sorted(pairs, key=lambda r: r.method))))


def holder_values(records) -> dict[str, tuple[float, float, float]]:
    """Each villain's value to its holder in each record (its ``deals``), the mean of
    both seats: (mean over the records, least, greatest), greatest mean first."""
    per = pd.DataFrame([(pd.Series(r.villain_values(0)) + pd.Series(r.villain_values(1))) / 2
                        for r in records])
    mean = per.mean().sort_values(ascending=False)
    return {v: (float(mean[v]), float(per[v].min()), float(per[v].max())) for v in mean.index}


def not_modelled(params: dict) -> list[str]:
    """The war's rules in ``params`` that the composition does not model
    (:data:`NOT_MODELLED`) set apart from the printed rules."""
    printed = game_parameter_spec(WAR_GAME)
    return [k for k in NOT_MODELLED if k in params and str(params[k]) != str(printed[k])]


def war_for(params: dict, directory=None) -> VillainWar | str:
    """The war with villains under the war's rules ``params``, composed from the stored
    matchups of its battle; or one sentence saying why not and what it would take."""
    full = _full(params)
    if full["kinds"] != "all":
        return (f"No war with villains for kinds={full['kinds']}: the stored matchups are "
                f"battles of courtiers with villains.")
    unmodelled = not_modelled(params)
    if unmodelled:
        return (f"The war with villains is composed from 0-0 with no cap on battles, so it "
                f"does not answer for {', '.join(f'{k}={params[k]}' for k in unmodelled)}.")
    changed = battle_changes(params)
    warriors, combats = int(full["warriors"]), int(full["combats"])
    try:
        model = RenewalModel(court(params), warriors, combats, int(full["victories"]))
    except InvalidParameterError as exc:
        return f"No war with villains for this court deck: {exc}."
    unsolvable = [k for k in changed if k not in SWEPT]
    if unsolvable:
        return (f"No war with villains for this variant: it changes the battle "
                f"({', '.join(f'{k}={changed[k]}' for k in unsolvable)}), so each of the "
                f"{len(model.pairings)} courtier matchups would have to be solved again with "
                f"hidden villains for its rules, and {SWEEP} solves them only for other "
                f"warriors or combats." + _cost(model.pairings))
    records = load_hidden(model.pairings, warriors, combats, directory)
    have = [p for p in model.pairings if p in records and records[p].battle_endings() is not None]
    if len(have) < len(model.pairings):
        rules = "" if not changed else f" --warriors {warriors} --combats {combats}"
        battle = ("" if not changed else " for "
                  + ", ".join(f"{k}={v}" for k, v in changed.items()))
        return (f"No war with villains for {'this variant' if changed else 'these rules'} "
                f"yet: it needs the {len(model.pairings)} courtier matchups solved with "
                f"hidden villains{battle} ({len(have)} stored); {SWEEP}{rules} solves the "
                f"rest, resuming where it stops." + _cost(model.pairings))
    return compose(records, model)


def _cost(pairings) -> str:
    """What solving the matchups took for the printed battle, from their records."""
    stored = load_hidden(pairings)
    if not stored:
        return ""
    each = sum(r.compile_seconds + r.solve_seconds for r in stored.values()) / len(stored)
    return (f" For the printed battle each took {each / 60:z.0f} CPU minutes on average, "
            f"about {len(pairings) * each / 3600:z.1f} CPU hours for all.")


def source(war: VillainWar) -> str:
    """Who answers, with its accuracy, in a few words."""
    return (f"the war with villains composed from the {war.matchups} stored matchups, exact "
            f"on that model; the battles' strategies can be beaten by at least "
            f"{war.exploitability_at_least:z.3f} a battle within their abstraction (a lower "
            f"bound on their true error)")


def metrics(printed: VillainWar, variant: VillainWar) -> list[Metric]:
    """The war with villains for both rule sets: the first player's edge, each courtier's
    and each villain's war win probability (the villains with their spread over the
    matchups), each difference exact on the model."""
    said = source(variant)
    out = [Metric("villains_first_player_edge",
                  "with villains: the first player's edge (wars won minus a half)", "share",
                  on_model(printed.first_player - 0.5), on_model(variant.first_player - 0.5),
                  on_model(variant.first_player - printed.first_player), said)]
    for name in [c for c in variant.courtiers if c in printed.courtiers]:
        a, b = printed.courtiers[name], variant.courtiers[name]
        out.append(Metric(f"villains_courtier_{name}",
                          f"with villains: wars won with the {name}", "share",
                          on_model(a), on_model(b), on_model(b - a), said))
    for name in [v for v in variant.villains if v in printed.villains]:
        a, b = printed.villains[name], variant.villains[name]
        out.append(Metric(f"villains_villain_{name}",
                          f"with villains: wars won when dealt the {name} first", "share",
                          on_model(a[0], a[1:]), on_model(b[0], b[1:]),
                          on_model(b[0] - a[0]), said))
    return out


def model_note(printed: VillainWar, variant: VillainWar) -> str:
    """The model of the war with villains and its accuracy, from the facts, for the page."""
    miss = read_json(COMPOSITION_MISS) if COMPOSITION_MISS.exists() else None
    measured = ("" if miss is None else
                f" On the {miss['pairings']} villain-free pairings, where the exact war to 3 "
                f"victories is known, the model misses it by a median of "
                f"{miss['error_median']:z.3f} and at most {miss['error_max']:z.3f} in P(win) - "
                f"P(lose), {50 * miss['error_max']:z.1f} points of wars won (not measured for "
                f"other victories): a difference smaller than that may be the model's.")
    values = ", ".join(f"the {v} {m:+z.2f}" for v, (m, _, _) in printed.battle_values.items())
    return (f"The war with villains: both villains dealt hidden afresh in every battle, each "
            f"player keeping an unplayed courtier or renewing it between battles as is best "
            f"for the war, composed exactly from the {printed.matchups} courtier matchups "
            f"solved with hidden villains ({printed.method} on an abstraction, "
            f"{printed.cpu_hours:z.1f} CPU hours, stored). Each battle is played as solved "
            f"whatever the war's score: its strategy does not depend on the score, so a "
            f"variant that changes only the war changes no battle and its war is composed "
            f"from the same matchups. Its figures are exact on that model, not 95% "
            f"intervals: the battles' strategies can be beaten by at least "
            f"{printed.exploitability_at_least:z.3f} a battle within their abstraction (a "
            f"lower bound on their true error).{measured} A villain's figure is its "
            f"holder's chance of winning the war when dealt it in the first battle, both "
            f"seats, every matchup equally likely, with its least and greatest over the "
            f"matchups. Each villain's worth in one battle does not change with the war: "
            f"{values} a battle to its holder (a battle won +1).")
