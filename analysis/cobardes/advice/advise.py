"""``farol advise cobardes``: the equilibrium mix and value of a ¡Cobardes! position.

The position is seen from the asking player ("you": the first seat, player 0, unless
``seat`` says the second; the second seat is answered at a full battle's opening, from
the stored openings). Battles without hidden
villains are solved exactly (exploitability 0); with a hidden villain the public
subgames are solved exactly and the trunk by CFR+
(:func:`analysis.cobardes.solvers.villains.advise_villains`). With a war score the battle's
payoffs are the war values of the scores it leads to (:mod:`analysis.cobardes.solvers.war`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from analysis.cobardes.agents.best import NO_HINT, HiddenAnswers
from analysis.cobardes.model import battle_params, initial_position
from analysis.cobardes.solvers import exact, openings
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.hidden_advice import (
    ON_DEMAND_NODES,
    SECONDS_PER_NODE,
    advise_hidden,
    as_matchup,
    solution_for,
    solve_cost,
    trunk_size,
)
from analysis.cobardes.solvers.spot_resolve import resolve_rest
from analysis.cobardes.solvers.villains import advise_villains
from analysis.cobardes.solvers.war import continuation
from analysis.cobardes.studies import sweep
from analysis.play.coaching import SpotAdvice, register_coach
from analysis.shared import store
from analysis.shared.lists import comma_list
from analysis.shared.numbers import decimals_for, signed
from analysis.shared.progress import say
from analysis.solve.cfr import METHOD_NAMES
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.hidden import any_villain_unknown
from games.cobardes.options import Payoffs
from games.cobardes.reachable import hands_problem, infer_combat
from games.errors import InvalidParameterError, InvalidPositionError

VARIANTS = ("warriors", "courtiers", "villains", "all")
# A position with hidden villains is solved while you wait (no --solve) when its trunk is
# estimated to solve to its floor in about this long (hidden_advice.SECONDS_PER_NODE).
ANSWER_SECONDS = 30.0
# What a hidden spot's error is, in the hint's words.
ABSTRACTION_ERROR = ("what a best response gains against the solution within its "
                     "abstraction, a lower bound on the true error")


@dataclass(frozen=True)
class Query:
    """A position to advise on, from the asking player's side."""

    mine: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    theirs: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    variant: str | None = None
    my_courtier: str | None = None
    their_courtier: str | None = None
    my_villain: str | None = None
    their_villain: str | None = None
    combat: int = 1
    combats: int = C.MAX_COMBATS
    warriors: int = C.MAX_WARRIOR
    score: tuple[int, int] | None = None
    win_value: float = 1.0
    crown_value: float = 3.0
    draw_value: float = 0.0
    unharmed: tuple[int, ...] = ()
    iterations: int | None = None  # CFR+ iterations; None: Discounted CFR to its floor
    solve: bool = False  # solve a large battle with hidden villains now, rather than refuse
    seat: int = 0  # 0: you are the first seat (player 0), 1: the second

    def __post_init__(self):
        # The villains' names are read once, here: each held as the card's own name (a
        # bad name is refused in one line); "?" (or nothing) is a rival's unknown villain.
        for field in ("my_villain", "their_villain"):
            name = getattr(self, field)
            if name is not None and name != "?":
                object.__setattr__(self, field, C.CARD_NAMES[C.villain_id(name)])

    @property
    def my_villain_card(self) -> int | None:
        """Your villain's card id (``None`` when not given)."""
        return None if self.my_villain is None else C.CARD_NAMES.index(self.my_villain)

    def resolved_variant(self) -> str:
        if self.variant is not None:
            if self.variant not in VARIANTS:
                raise InvalidParameterError(
                    f"variant {self.variant!r} is not one of {', '.join(VARIANTS)}")
            return self.variant
        court = self.my_courtier or self.their_courtier
        vil = self.my_villain or self.their_villain
        return {(False, False): "warriors", (True, False): "courtiers",
                (False, True): "villains", (True, True): "all"}[(bool(court), bool(vil))]


def parse_cards(text: str, who: str) -> tuple[int, ...]:
    """``"0,1,2,3"`` (or ``Prince``) as warrior ids; one clear error otherwise."""
    cards = []
    for token in comma_list(f"--{who}", str(text), empty_ok=True):
        card = C.card_id(token)
        if C.is_villain(card):
            raise InvalidPositionError(
                f"--{who} lists warriors only; give villains with --my-villain/--their-villain")
        if card in cards:
            raise InvalidPositionError(f"--{who}: warrior {token} is listed twice")
        cards.append(card)
    if not cards:
        raise InvalidPositionError(f"--{who} names no warrior")
    return tuple(sorted(cards))


def parse_score(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = str(text).replace(":", "-").split("-")
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        raise InvalidParameterError(f"score {text!r} is not like 1-2 (your tokens-theirs)") \
            from None
    if not (0 <= a <= 2 and 0 <= b <= 2):
        raise InvalidParameterError(f"score {text!r}: tokens go from 0 to 2 (3 wins the war)")
    return a, b


def with_combat(q: Query, combat: int | None) -> Query:
    """``q`` at ``combat``; when ``None``, the combat the hands fix (each finished combat
    took one warrior from each hand: :func:`games.cobardes.reachable.infer_combat`)."""
    if combat is not None:
        return replace(q, combat=combat)
    with_vil = q.resolved_variant() in ("villains", "all")
    hands = tuple(sum(1 << c for c in cards) for cards in (q.mine, q.theirs))
    found, why = infer_combat(q.warriors, hands, (int(with_vil), int(with_vil)), with_vil,
                              q.combats, names=("--mine", "--theirs"))
    if found is None:
        raise InvalidPositionError(why)
    return replace(q, combat=found)


def query_params(q: Query) -> dict:
    """``python_cobardes_battle`` parameters of the query (you are player 0)."""
    variant = q.resolved_variant()
    kinds = {"warriors": "warriors", "courtiers": "warriors+courtiers",
             "villains": "warriors+villains", "all": "all"}[variant]
    with_court = variant in ("courtiers", "all")
    with_vil = variant in ("villains", "all")
    if not with_court and (q.my_courtier or q.their_courtier):
        raise InvalidPositionError(f"courtiers are not in the {variant} variant")
    if not with_vil and (q.my_villain or q.their_villain):
        raise InvalidPositionError(f"villains are not in the {variant} variant")
    hands = tuple(sum(1 << c for c in cards) for cards in (q.mine, q.theirs))
    problem = hands_problem(q.warriors, q.combat, hands, (int(with_vil), int(with_vil)),
                            with_vil, names=("--mine", "--theirs"))
    if problem:
        raise InvalidPositionError(problem)
    hand0 = [C.CARD_NAMES[c] for c in q.mine]
    hand1 = [C.CARD_NAMES[c] for c in q.theirs]
    if with_vil:
        # Your own villain is private: dealt at random and read off at your information
        # set (see villains.advise); a known enemy villain is named.
        hand0.append("?")
        hand1.append(q.their_villain if q.their_villain and q.their_villain != "?" else "?")
    fields = [f"hand0:{'.'.join(hand0)}", f"hand1:{'.'.join(hand1)}", f"combat:{q.combat}"]
    if with_court:
        fields.append(f"court0:{q.my_courtier or 'none'}")
        fields.append(f"court1:{q.their_courtier or 'none'}")
    # A prince out of hand left an earlier combat unharmed (games.cobardes.reachable).
    unharmed = sorted(set(q.unharmed) | {p for p, cards in enumerate((q.mine, q.theirs))
                                         if C.PRINCE not in cards})
    if unharmed:
        fields.append("unharmed:" + ".".join(str(p) for p in unharmed))
    return battle_params(kinds=kinds, warriors=q.warriors, combats=q.combats,
                         payoffs=Payoffs(*payoffs(q)), position=";".join(fields))


def payoffs(q: Query) -> tuple[float, float, float, float, float]:
    """Your payoffs ``(win, loss, crown, crown loss, draw)`` for the battle."""
    if q.score is None:
        return (q.win_value, -q.win_value, q.crown_value, -q.crown_value, q.draw_value)
    values = war_values(q)
    win, loss = continuation(values, q.score)
    return (win, loss, 1.0, -1.0, values[q.score])


def war_values(q: Query) -> dict[tuple[int, int], float]:
    """War values by score for the query's courtier pairing (cached sweep, else solved)."""
    if q.resolved_variant() in ("villains", "all"):
        raise InvalidParameterError("--score needs a battle without villains (the war "
                                    "composition is exact only for public battles)")
    pairing = tuple((c or sweep.NO_COURTIER).rstrip("*") for c in (q.my_courtier,
                                                                      q.their_courtier))
    pairing = tuple(sweep.NO_COURTIER if c == sweep.NO_COURTIER
                    else C.COURTIER_NAMES[C.courtier_id(c)] for c in pairing)
    data = sweep.load_results([pairing], q.warriors, q.combats).get(pairing)
    if data is None:
        data = sweep.solve_pairing(pairing, q.warriors, q.combats)
    return {tuple(int(t) for t in k.split("-")): s["value"]
            for k, s in data.war["scores"].items()}


def _pairing(q: Query) -> tuple[str, str] | None:
    """The courtier matchup of a query at a battle's opening (combat 1, full hands, the
    standard payoffs, the rival's villain hidden, no courtier used), first seat first,
    else ``None``."""
    full = tuple(range(q.warriors + 1))
    standard = (q.win_value, q.crown_value, q.draw_value) == (1.0, 3.0, 0.0)
    courts = (q.my_courtier, q.their_courtier)
    if (q.resolved_variant() != "all" or not all(courts) or any("*" in c for c in courts)
            or q.mine != full or q.theirs != full or q.combat != 1 or q.score is not None
            or not standard or q.unharmed or q.their_villain not in (None, "?")
            or not q.my_villain):
        return None
    names = tuple(C.COURTIER_NAMES[C.courtier_id(c)] for c in courts)
    return names if q.seat == 0 else names[::-1]


def stored_opening(q: Query, pay) -> Advice | None:
    """The shipped advice at a full battle's opening (:mod:`analysis.cobardes.solvers.openings`)
    for the query's matchup, seat and villain, if stored: one answer for each thing the
    seat can have seen by its first decision (the first, with the rest beside it)."""
    pairing = _pairing(q)
    table = None if pairing is None else openings.stored(pairing, q.warriors, q.combats)
    if table is None:
        return None
    villain = q.my_villain
    entries = table.entries(villain, q.seat)
    if not entries:
        return None
    found = [_opening_advice(table, answer, q.seat, seen, villain, pay, q.resolved_variant(),
                             q.score) for seen, answer in entries]
    return replace(found[0], others=tuple(found[1:]))


def _opening_advice(table: openings.OpeningAdvice, answer: dict, seat: int,
                    seen: tuple[str, ...], villain: str, pay, variant: str,
                    score: tuple[int, int] | None = None) -> Advice:
    """:class:`Advice` from one stored opening answer."""
    where = store.shown(openings.table_path(table.pairing, table.warriors, table.combats))
    solver = (f"{METHOD_NAMES.get(table.method, table.method)} on the trunk's state graph "
              "until its exploitability stopped "
              f"improving ({table.iterations} iterations), public subgames solved exactly; "
              "exploitability within the abstraction, a lower bound on the true one; stored "
              f"{where} (commit {_short(str(table.provenance.get('commit', 'unknown')))})")
    before = table.value_before_deal if seat == 0 else -table.value_before_deal
    return Advice(
        answer["value"], "you", answer["decision"],
        tuple((_label(a, answer["court"]), p) for a, p in answer["mix"]),
        table.exploitability, solver, pay, variant, score,
        value_given=f"holding the {villain}", abstraction=True, value_before_deal=before,
        actions=tuple((a, p, v) for a, p, v in answer["actions"]),
        opponent_hand=tuple(answer["opponent_hand"].items()),
        source="stored opening of a hidden-villain solve, state-keyed abstraction",
        seat=seat, seen=_rival_words(seen, seat))


def _rival_words(seen: tuple[str, ...], seat: int) -> tuple[str, ...]:
    """What a seat saw, in the game's words, with the rival called the rival and the seat
    "you" (the verb after it agreeing: "you show your villain")."""
    out = []
    for text in seen:
        text = text.replace(f"P{1 - seat}", "the rival").replace(f"P{seat}", "you")
        text = re.sub(r"\byou (\w+?)e?s( \w+)?\b",
                      lambda m: _you(m.group(0)), text)
        out.append(text)
    return tuple(out)


def _you(words: str) -> str:
    """"you shows their villain" as "you show your villain"."""
    verb, *rest = words.split(" ")[1:]
    verb = {"does": "do", "has": "have"}.get(verb, verb[:-1] if verb.endswith("s") else verb)
    rest = ["your" if w == "their" else w for w in rest]
    return " ".join(["you", verb, *rest])


def _short(commit: str) -> str:
    return commit[:12] + ("+changes" if commit.endswith("+changes") else "")


def check_size(q: Query) -> None:
    """Refuse in one line, before any work, a position whose battle with hidden villains
    takes minutes and GB to solve (unless ``q.solve``), naming what answers it."""
    size = trunk_size(max(len(q.mine), len(q.theirs)) - 1)
    if size <= ON_DEMAND_NODES:
        return
    pairing = _pairing(q)
    if q.solve or (q.iterations is None and size * SECONDS_PER_NODE <= ANSWER_SECONDS):
        say(f"solving this position with hidden villains ({solve_cost(size)}); "
            "progress follows")
        return
    faster = (f"; or store this battle's opening once: {openings.build_command(pairing)}"
              if pairing is not None else "")
    raise InvalidPositionError(
        f"this position with hidden villains is not solved yet (about {size / 1e6:z.0f} "
        f"million trunk positions: {solve_cost(size)}); add --solve to solve it now"
        + faster)


def _actions(solver: FastExactSolver, pos: E.Pos, strategy: dict[int, float]
             ) -> tuple[tuple[str, float, float], ...]:
    """Each legal action of the mover at ``pos``: its name, equilibrium probability and
    value for the mover (:meth:`FastExactSolver.action_values`)."""
    court = pos.court[pos.actor]
    values = solver.action_values(pos)
    return tuple((_label(a, court), strategy.get(a, 0.0), v) for a, v in values.items())


def _named_actions(state, values: dict[int, float], mix: dict[int, float]
                   ) -> tuple[tuple[str, float, float], ...]:
    """Each legal move at ``state`` by its OpenSpiel name (as ``--history`` takes it),
    with its probability in ``mix`` and its value for the mover."""
    return tuple((state.action_to_string(a), mix.get(a, 0.0), values[a])
                 for a in state.legal_actions())


def _mover_payoffs(pay, mover: int) -> tuple[float, float, float, float, float]:
    """The battle's payoffs ``(win, loss, crown, crown loss, draw)`` for ``mover``."""
    return ((pay.win, pay.loss, pay.crown, pay.crown_loss, pay.draw) if mover == 0 else
            (-pay.loss, -pay.win, -pay.crown_loss, -pay.crown, -pay.draw))


def _rival_villains(pos: E.Pos, mover: int) -> tuple[tuple[str, float], ...]:
    """The villain the mover's rival holds, known to the mover (a public position)."""
    return tuple((C.CARD_NAMES[v], 1.0) for v in E.bits(pos.h[1 - mover] & C.VILLAIN_MASK))


def _label(action: int, court: int) -> str:
    if action < C.NUM_CARDS:
        return C.CARD_NAMES[action]
    return {E.PASS: "pass", E.ADVANCE: "advance", E.SEND: "send"}.get(
        action, E.action_name(action, court))


PAYOFF_NAMES = ("win", "loss", "crown", "crown_loss", "draw")
SEAT_NAMES = ("first", "second")


@dataclass(frozen=True)
class Advice:
    """The equilibrium mix and value of the player to move at a position.

    ``strategy`` is the mover's mix by action name, ``confrontation`` your card mix
    when no vanguard courtier is advanced (exact solves only); ``value_given`` and
    ``abstraction`` say how a battle with a hidden villain was solved.
    """

    value: float
    player: str
    decision: str
    strategy: tuple[tuple[str, float], ...]
    exploitability: float
    solver: str
    payoffs: tuple[float, float, float, float, float]
    variant: str
    score: tuple[int, int] | None = None
    confrontation: tuple[tuple[str, float], ...] | None = None
    value_given: str | None = None
    abstraction: bool | None = None
    value_before_deal: float | None = None
    actions: tuple[tuple[str, float, float], ...] | None = None
    opponent_hand: tuple[tuple[str, float], ...] = ()
    source: str = "exact solve"
    seat: int | None = None  # the asking player's seat, when it was given
    seen: tuple[str, ...] = ()  # what the seat saw before its decision (an opening's)
    others: tuple = ()  # the same seat's answers after other things seen
    model: str | None = None  # what a re-solve's model takes as given, in words

    def to_json(self) -> dict:
        """The advice as ``farol advise cobardes --json`` prints it."""
        out: dict = {"value": self.value}
        if self.seat is not None:
            out["seat"] = SEAT_NAMES[self.seat]
        if self.seen:
            out["after"] = list(self.seen)
        if self.value_given is not None:
            out["value_given"] = self.value_given
        if self.value_before_deal is not None:
            out["value_before_deal"] = self.value_before_deal
        out |= {"player": self.player, "decision": self.decision,
                "strategy": dict(self.strategy), "exploitability": self.exploitability}
        if self.actions is not None:
            out["actions"] = [{"action": a, "probability": p, "value": v}
                              for a, p, v in self.actions]
        out["opponent_hand"] = dict(self.opponent_hand)
        out["source"] = self.source
        if self.abstraction is not None:
            out["abstraction"] = self.abstraction
        out["solver"] = self.solver
        if self.model is not None:
            out["model"] = self.model
        if self.confrontation is not None:
            out["confrontation"] = dict(self.confrontation)
        out["payoffs"] = dict(zip(PAYOFF_NAMES, self.payoffs, strict=True))
        out["variant"] = self.variant
        if self.score is not None:
            out["score"] = f"{self.score[0]}-{self.score[1]}"
        if self.others:
            out["otherwise"] = [other.to_json() for other in self.others]
        return out


def advise(q: Query) -> Advice:
    """The value and equilibrium mix of the player to move at the query's position, with
    the payoffs used and how it was solved."""
    variant = q.resolved_variant()
    params = query_params(q)
    pay = payoffs(q)
    if variant in ("villains", "all"):
        shipped = stored_opening(q, pay)
        if shipped is not None:
            return shipped
    if q.seat != 0 and _pairing(q) is not None:
        raise InvalidPositionError(
            "this matchup's opening is not stored yet; store it once: "
            + openings.build_command(_pairing(q)))
    if q.seat != 0:
        raise InvalidPositionError(
            "the second player's advice by position is stored for a full battle's opening "
            "with hidden villains (combat 1, full hands, both courtiers, --my-villain); for "
            "any other spot give the moves with --history: the player to move is advised, "
            "whichever seat")
    if variant in ("villains", "all"):
        check_size(q)
        out = advise_villains(params, q.my_villain_card, iterations=q.iterations)
        return Advice(out.value, "you", out.decision, out.strategy, out.exploitability,
                      out.solver, pay, variant, q.score, value_given=out.value_given,
                      abstraction=out.abstraction, value_before_deal=out.value_before_deal,
                      actions=out.actions, opponent_hand=out.opponent_hand,
                      source=("trunk solve, state-keyed abstraction" if out.abstraction
                              else "trunk solve, perfect-recall tree"))
    cfg, pos, game_pay = initial_position(params)
    solver = FastExactSolver(cfg, game_pay)
    value = solver.value(pos)
    if pos.outcome is not None:
        raise InvalidPositionError("the battle is already over in this position")
    strategy = solver.strategy(pos)
    court = pos.court[pos.actor]
    actions = _actions(solver, pos, strategy)
    confront = solver.confrontation(pos)
    # Counted before the confrontation's mix is solved (it may solve more positions).
    how = (f"exact backward induction over {solver.solved:,} public "
           f"positions ({solver.matrix_games:,} matrix games by simplex)")
    confrontation = None
    if confront is not pos and confront.outcome is None and confront.actor >= 0:
        mix = solver.strategy(confront) if confront.actor == 0 else None
        if mix is not None:
            confrontation = tuple({_label(a, -1): p for a, p in mix.items()}.items())
    return Advice(
        value, "you" if pos.actor == 0 else "rival", E.PHASE_NAMES[pos.phase],
        tuple({_label(a, court): p for a, p in strategy.items()}.items()), 0.0, how,
        pay, variant, q.score, confrontation, actions=actions,
        opponent_hand=_rival_villains(pos, pos.actor))


def _hidden_from_a_player(pos: E.Pos) -> bool:
    """Whether a villain at ``pos`` is hidden from a player (dealt, swapped by the
    Procuress, or unknown to the rival): no exact solve answers there."""
    return bool(pos.pending) or pos.phase in (E.PROC_TAKE, E.PROC_GIVE) or \
        any_villain_unknown(pos)


def advise_spot(state, solve_large: bool = False) -> Advice:
    """The value and equilibrium mix of the player to move at a battle ``state`` reached
    by play (``farol advise cobardes --history``), seen by that player ("you"): solved
    exactly where no villain is hidden, else from the battle's hidden-villain solution
    (:mod:`analysis.cobardes.solvers.hidden_advice`, solved once and stored; a large battle
    only with ``solve_large``).

    Raises
    ------
    InvalidPositionError
        The battle is over, the next move is chance's, or its hidden-villain solution is
        missing and large (the message says what solving it takes).
    """
    if state.is_terminal():
        raise InvalidPositionError("--history: the battle is over after these moves")
    if state.is_chance_node():
        raise InvalidPositionError("--history: the next move is chance's (a deal); end the "
                                   "history at a decision")
    rules = state.get_game().rules
    pos = state.position
    if _hidden_from_a_player(pos):
        return _advise_hidden_spot(as_matchup(state), solve_large)
    solver = FastExactSolver(rules.cfg, rules.pay)
    mover = pos.actor
    value = solver.value(exact.matrix_root(pos))
    strategy = solver.strategy(pos)
    court = pos.court[mover]
    pay = rules.pay
    if mover == 1:  # seen by the mover: their payoffs, their value
        value = -value
    payoffs = _mover_payoffs(pay, mover)
    actions = _named_actions(state, solver.action_values(pos), strategy)
    return Advice(value, "you", E.PHASE_NAMES[pos.phase],
                  tuple({_label(a, court): p for a, p in strategy.items()}.items()), 0.0,
                  f"exact backward induction over {solver.solved:,} public positions "
                  f"({solver.matrix_games:,} matrix games by simplex)", payoffs,
                  rules_variant(state.get_game()), actions=actions,
                  opponent_hand=_rival_villains(pos, mover))


def _advise_hidden_spot(state, solve_large: bool) -> Advice:
    """Advice at a hidden spot of a battle whose courtiers are named: from the battle's
    solution when it is stored; at a player's first decision, from the stored opening;
    from the second combat on, by re-solving the battle's rest (unless ``solve_large``
    asks for the whole battle solved and stored); else from the whole battle solved."""
    game = state.get_game()
    stored = solution_for(game, solve_missing=False)
    if stored is not None:
        return _advise_hidden(state, stored)
    found = openings.answer_at(state)
    if found is not None:
        table, seen, answer = found
        mover = state.current_player()
        villain = C.CARD_NAMES[E.bits(state.position.h[mover] & C.VILLAIN_MASK)[0]]
        advice = _opening_advice(table, answer, mover, seen, villain,
                                 _mover_payoffs(game.rules.pay, mover), rules_variant(game))
        return replace(advice, seat=None, seen=())  # the history says both
    if trunk_size(game.rules.warriors) <= ON_DEMAND_NODES or solve_large:
        return _advise_hidden(state, solution_for(game, solve_large))
    if state.position.combat >= 2:
        return _advise_rest(state)
    if openings.stored_for(game) is not None:
        raise InvalidPositionError(
            "this spot of the first combat needs the whole battle with hidden villains "
            f"solved ({solve_cost(trunk_size(game.rules.warriors))}; the decisions the "
            "stored opening keeps are answered at once, and from the second combat on the "
            "rest of the battle is re-solved in under a minute); add --solve to solve it "
            "once now")
    return _advise_hidden(state, solution_for(game))  # refused, saying what solving takes


def _advise_rest(state) -> Advice:
    """:class:`Advice` at a hidden spot from the second combat on, by re-solving the
    rest of the battle from the start of the spot's combat
    (:mod:`analysis.cobardes.solvers.spot_resolve`)."""
    say(f"re-solving the rest of this battle from the start of combat "
        f"{state.position.combat} over the beliefs its history implies (under a minute)")
    resolved = resolve_rest(state)
    advice = _advise_hidden(resolved.rest.state, resolved.solution)
    sol = resolved.solution
    until = (f"was at most the stored battle solve's ({resolved.target:z.3g}) or stopped "
             "improving" if resolved.target > 0 else "stopped improving")
    how = (f"{METHOD_NAMES.get(sol.method, sol.method)} on the trunk's state graph of the "
           f"battle's rest from the start of combat {resolved.rest.combat} "
           f"({resolved.nodes:,} nodes), {sol.iterations} iterations until its "
           f"exploitability {until}, public subgames solved exactly, in "
           f"{resolved.seconds:z.0f} s; beliefs at the combat's start: "
           f"{resolved.rest.beliefs}")
    return replace(advice, solver=how, model=f"beliefs at the combat's start: "
                   f"{resolved.rest.beliefs}",
                   source="re-solved from the start of this combat, state-keyed abstraction")


def _advise_hidden(state, solution) -> Advice:
    """:class:`Advice` at a hidden spot from the battle's stored solution."""
    spot = advise_hidden(state, solution)
    pos = state.position
    court = pos.court[spot.mover]
    pay = state.get_game().rules.pay
    left = (" (the rival made a move the solution never makes: they rest on the deals' "
            "chances alone)") if spot.off_strategy else ""
    return Advice(
        spot.value, "you", E.PHASE_NAMES[pos.phase],
        tuple((_label(a, court), p) for a, p in spot.mix.items()), spot.exploitability,
        f"{METHOD_NAMES.get(solution.method, solution.method)} on the trunk's state graph, "
        f"{spot.iterations} iterations, public subgames "
        f"solved exactly; beliefs over {spot.worlds} histories you cannot rule out{left}",
        _mover_payoffs(pay, spot.mover), rules_variant(state.get_game()),
        abstraction=True,
        actions=_named_actions(state, spot.action_values, spot.mix),
        opponent_hand=tuple(spot.opponent_hand.items()),
        source="stored hidden-villain solve, state-keyed abstraction")


def battle_coach(game):
    """The coach of ``farol play`` for a battle: exact advice where no villain is hidden
    (:class:`FastExactSolver`, one memo for the whole game), else the answer at the table
    (:class:`analysis.cobardes.agents.best.HiddenAnswers`: the stored solution or
    opening, from the second combat on the rest re-solved), with its error."""
    rules = game.rules
    solver = FastExactSolver(rules.cfg, rules.pay)
    answers = HiddenAnswers()

    def coach(state):
        if state.is_terminal() or state.is_chance_node():
            return None
        pos = state.position
        if _hidden_from_a_player(pos):
            try:
                # Courtiers dealt at random: the matchup dealt.
                spot = answers.answer(as_matchup(state))
            except InvalidPositionError:
                return None
            if spot is None:
                return None
            return SpotAdvice(tuple((a, spot.mix[a], v) for a, v in spot.values.items()),
                              spot.error, ABSTRACTION_ERROR)
        strategy = solver.strategy(pos)
        return [(a, strategy.get(a, 0.0), v) for a, v in solver.action_values(pos).items()]

    coach.silent = NO_HINT
    return coach


register_coach("python_cobardes_battle", battle_coach)


def rules_variant(game) -> str:
    """The variant of a battle game by its ``kinds`` parameter."""
    kinds = game.get_parameters().get("kinds", "all")
    return {"warriors": "warriors", "warriors+courtiers": "courtiers",
            "warriors+villains": "villains"}.get(kinds, "all")


def mix_lines(out: dict) -> list[str]:
    """The mix as text lines, with each action's value when known (every legal action;
    the mix's own actions first)."""
    if "actions" not in out:
        return [f"  {name:>14}  {100 * p:z6.2f}%  {'#' * round(30 * p)}"
                for name, p in sorted(out["strategy"].items(), key=lambda kv: -kv[1])
                if p > 5e-7]
    rows = sorted(out["actions"], key=lambda r: (-r["probability"], -r["value"]))
    width = max([14, *(len(r["action"]) for r in rows)])
    digits = decimals_for(out.get("exploitability") or 0.0)  # what the error supports
    return [f"  {r['action']:>{width}}  {100 * r['probability']:z6.2f}%  value "
            f"{signed(r['value'], digits)}  {'#' * round(30 * r['probability'])}"
            for r in rows]


def format_spot(state, advice: Advice) -> str:
    """Advice at a spot reached by play, in plain words."""
    out = advice.to_json()
    mover = state.current_player()
    # Where a villain is hidden, only what you have seen (the state would show it).
    seen = (f"What you have seen: {state.information_state_string(mover)}"
            if out.get("abstraction") else str(state).rstrip())
    lines = [f"After {len(state.history())} moves, player {mover} to move (you):", seen]
    params = state.get_game().get_parameters()
    held = [params.get(f"courtier{p}") for p in (0, 1)]
    if params.get("allow_mirror") and held[0] not in (None, "", -1, "random", "none") and held[0] == held[1]:
        lines.append(MIRROR_NOTE.format(courtier=str(held[0])))
    lines += [f"Value for you: {signed(out['value'], decimals_for(out['exploitability']))}",
             f"Your equilibrium mix ({out['decision']}):"]
    lines += mix_lines(out)
    if out["opponent_hand"]:
        lines.append("The rival's villain: " + ", ".join(
            f"{name} {100 * p:z.1f}%" for name, p in
            sorted(out["opponent_hand"].items(), key=lambda kv: -kv[1]) if p >= 5e-4))
    label = ("Exploitability within the abstraction (a lower bound on the true one)"
             if out.get("abstraction") else "Exploitability")
    lines.append(f"{label}: {out['exploitability']:z.3g} ({out['solver']})")
    return "\n".join(lines)


MIRROR_NOTE = ("A hypothetical battle: both players hold the {courtier}, which is never "
               "dealt (each courtier card exists once).")


def mirror(q: Query) -> bool:
    """Whether both players hold the same courtier: a battle the deal never makes."""
    mine, theirs = (c.rstrip("*").strip().casefold() if c else None
                    for c in (q.my_courtier, q.their_courtier))
    return mine is not None and mine == theirs


def format_text(q: Query, advice: Advice) -> str:
    """The advice in plain words."""
    out = advice.to_json()
    mine = " ".join(C.CARD_NAMES[c] for c in q.mine)
    theirs = " ".join(C.CARD_NAMES[c] for c in q.theirs)
    lines = [f"Position: you {mine} | rival {theirs} | combat {q.combat} of {q.combats}"]
    if q.my_courtier or q.their_courtier:
        lines.append(f"Courtiers: you {q.my_courtier or 'none'} | rival "
                     f"{q.their_courtier or 'none'}")
    if q.my_villain or q.their_villain:
        lines.append(f"Villains: you {q.my_villain or '?'} | rival {q.their_villain or '?'}")
    if mirror(q):
        lines.append(MIRROR_NOTE.format(courtier=q.my_courtier.rstrip("*")))
    if "seat" in out:
        lines.append(f"Seat: you are the {out['seat']} player (player {q.seat})")
    pay = out["payoffs"]
    if "score" in out:
        lines.append(f"Score {out['score']}: value is your war value P(win) - P(lose)")
    else:
        lines.append(f"Payoffs: battle win {pay['win']:+zg}, crown {pay['crown']:+zg}, "
                     f"draw {pay['draw']:+zg}")
    if "value_before_deal" in out:
        lines.append(f"Value before the villains are dealt: {out['value_before_deal']:+z.4f}")
        for answer in [out, *out.get("otherwise", [])]:
            lines += _answer_lines(answer)
    else:
        lines.append(f"Value for you: {out['value']:+z.4f}")
        who = "Your" if out["player"] == "you" else "The rival's"
        lines.append(f"{who} equilibrium mix ({out['decision']}):")
        lines += mix_lines(out)
    if "confrontation" in out:
        lines.append("Your card mix if no vanguard courtier is advanced:")
        for name, p in sorted(out["confrontation"].items(), key=lambda kv: -kv[1]):
            if p > 5e-7:
                lines.append(f"  {name:>14}  {100 * p:z6.2f}%")
    lines.append(f"Exploitability: {out['exploitability']:z.3g} ({out['solver']})")
    return "\n".join(lines)


def _answer_lines(out: dict) -> list[str]:
    """One stored answer: what was seen, the value, the mix."""
    lines = []
    if "after" in out:
        lines.append("After: " + "; ".join(out["after"]))
    lines.append(f"Value for you, {out['value_given']}: {out['value']:+z.4f}")
    lines.append("Your equilibrium mix (" + out["decision"] + "):")
    return lines + mix_lines(out)
