"""¡Cobardes! for players: the first combat by villain held (a frequency grid, from the
stored opening of one matchup) and when to keep an unplayed courtier (from the war with
villains once every matchup is solved, else without them), each with its numbers."""

from __future__ import annotations

from dataclasses import dataclass

from analysis.cobardes.solvers import openings
from analysis.cobardes.studies import balance, renewal
from analysis.report.facts.cobardes import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.markdown import pct
from analysis.report.markdown import table as md_table
from analysis.report.templating import one_line, render
from games.cobardes import cards as C

CARDS = ("Prince", "1", "2", "3", "4", "5", "6")
# The matchup whose opening the guide shows (the rulebook's first example pairing).
PAIRING = ("Squire", "Archer")
FIRST_COMBAT = "What should you play in the first combat?"
KEEP = "Should you keep an unplayed courtier after a battle?"


def opening_mixes(table) -> dict[str, dict[str, dict[str, float]]]:
    """Per seat ("P0", "P1"), the card mix of its first decision by villain held (card
    names as the grid heads them, the villain by its name), where the seat's first
    decision is one and the same whatever it saw before (else the seat is left out)."""
    out = {}
    for seat, entries in enumerate(table.seats):
        if len(entries) != 1:
            continue
        mixes = {}
        for villain, answer in entries[0]["answers"].items():
            mixes[villain] = {(CARDS[a] if a < len(CARDS) else C.CARD_NAMES[a]): p
                              for a, p in answer["mix"] if a < C.NUM_CARDS}
        out[f"P{seat}"] = mixes
    return out


def first_combat(mixes_by_seat: dict) -> dict[str, list[list[str]]]:
    """Per player, one row per villain held: how often each card is played in combat 1."""
    out = {}
    for player, mixes in mixes_by_seat.items():
        rows = []
        for villain in balance.VILLAINS:
            mix = mixes.get(villain)
            if mix is None:
                continue
            cells = [mix.get(c, 0.0) for c in CARDS] + [mix.get(villain, 0.0)]
            rows.append([villain] + [pct(p, 0) if p >= 0.005 else "·" for p in cells])
        out[player] = rows
    return out


def keep_rates(sol) -> dict[str, float] | None:
    """Each courtier's share of the renewal situations in which its holder keeps it
    unplayed, in the war ``sol`` (None: not solved)."""
    return None if sol is None else renewal.keep_shares(sol)


def opening() -> tuple[object, dict]:
    """The stored opening of :data:`PAIRING` (None when missing) and its mixes by seat."""
    table = openings.stored(PAIRING)
    return table, (opening_mixes(table) if table is not None else {})


def matchup_tables() -> dict[tuple[str, str], object]:
    """The stored opening of every dealt courtier matchup (mirrors, never dealt, left
    out), by matchup."""
    out = {}
    for first in balance.COURTIERS:
        for second in balance.COURTIERS:
            if first != second:
                table = openings.stored((first, second))
                if table is not None:
                    out[(first, second)] = table
    return out


def villain_laid(table, seat: int) -> dict[str, float] | None:
    """How often ``seat`` lays its villain at its first decision in ``table``, by villain
    held, each thing it can have seen counted alike; ``None`` where that decision is not
    its card (it first decides whether to advance its courtier)."""
    entries = table.seats[seat]
    answers = [e["answers"] for e in entries]
    if not answers or any(a["decision"] != "confrontation" for x in answers
                          for a in x.values()):
        return None
    out = {}
    for villain in balance.VILLAINS:
        vid = C.card_id(villain)
        shares = [sum(p for a, p in x[villain]["mix"] if a == vid) for x in answers
                  if villain in x]
        if shares:
            out[villain] = sum(shares) / len(shares)
    return out


@dataclass(frozen=True)
class FirstCards:
    """Over the dealt matchups' stored openings: by seat, each matchup's share of first
    decisions laying the villain, by villain (only the matchups where that decision is
    the seat's card); how many matchups there are; and the least and greatest
    exploitability within the abstraction of their solutions (lower bounds)."""

    laid: tuple[dict, dict]
    matchups: int
    error_low: float
    error_high: float

    def spread(self, seat: int, villain: str) -> tuple[float, float, float, int]:
        """Median, least and greatest share over the matchups, and how many."""
        values = sorted(m[villain] for m in self.laid[seat].values() if villain in m)
        if not values:
            return (float("nan"),) * 3 + (0,)
        n = len(values)
        median = (values[(n - 1) // 2] + values[n // 2]) / 2
        return median, values[0], values[-1], n


def first_cards() -> FirstCards | None:
    tables = matchup_tables()
    if not tables:
        return None
    laid = tuple({p: m for p, t in tables.items() if (m := villain_laid(t, seat)) is not None}
                 for seat in (0, 1))
    errors = [t.exploitability for t in tables.values()]
    return FirstCards(laid, len(tables), min(errors), max(errors))


def _spread_cell(f: FirstCards, seat: int, villain: str) -> str:
    median, low, high, n = f.spread(seat, villain)
    if not n:
        return "–"
    return f"{pct(median, 0)} ({pct(low, 0)}–{pct(high, 0)})"


def first_combat_reply(ctx: GuideContext) -> Reply:
    """What to play in the first combat: over every dealt matchup, how often each seat
    lays the villain it holds at its first decision (median and range over the matchups
    where that decision is its card), one sentence with the solutions' accuracy; one
    table by villain, with the Squire–Archer opening beside it as one example."""
    f = first_cards()
    table, mixes = opening()
    pairing = f"{PAIRING[0]} against {PAIRING[1]}"
    facts = {"f": f, "command": openings.build_command(PAIRING)}
    rows, headline = [], None
    if f is not None:
        medians = sorted(((f.spread(0, v)[0], v) for v in balance.VILLAINS
                          if f.spread(0, v)[3]), reverse=True)
        facts |= {"eager": medians[0], "eager_range": f.spread(0, medians[0][1]),
                  "shy": medians[-1], "carded": len(f.laid[0])}
        headline = pct(medians[0][0], 0)
        example = {p: m for p, m in mixes.items()}
        for villain in balance.VILLAINS:
            rows.append([villain, _spread_cell(f, 0, villain), _spread_cell(f, 1, villain)]
                        + [pct(example[p][villain].get(villain, 0.0), 0)
                           if villain in example.get(p, {}) else "–" for p in ("P0", "P1")])
    shown = render("cobardes/q_first_combat_shown.md.j2", rows=rows, headers=[
        "villain held", f"first player lays it (median, range; {len(f.laid[0])} matchups)",
        f"second player ({len(f.laid[1])} matchups)", f"example: {pairing}, first",
        "example, second"]) if rows else ""
    more = ("" if f is None else
            f"In the other matchups a player first decides whether to advance its courtier. "
            f"The last two columns are one example, {pairing}.")
    method = "" if f is None else (
        f"Every dealt courtier matchup ({f.matchups}): one full battle each (warriors 0-6, 7 "
        "combats, both villains dealt hidden), its opening stored for both seats: solved by "
        f"{R.method_words(table.method) if table is not None else 'Discounted CFR'} on a "
        "model that forgets the order of past moves, until its exploitability stopped "
        f"improving; exploitability within that model {f.error_low:z.4f} to "
        f"{f.error_high:z.3f} (a lower bound on the true one). A matchup counts where the "
        "player's first decision is its card; each thing it can have seen by then counts "
        "alike.")
    return Reply(FIRST_COMBAT, one_line(render("cobardes/q_first_combat.md.j2", **facts)),
                 shown, more, headline, method)


def keep_gaps(sol, courtier: str) -> list[float]:
    """In every renewal situation of the war ``sol`` where ``courtier`` is unplayed, what
    keeping it gains its holder over renewing it (the war's P(win) - P(lose), the rival
    answering as best for it)."""
    gaps = []
    for score in sol.model.scores:
        for pairing in sol.model.pairings:
            for used in renewal.USED:
                r = sol.renewal(score, pairing, used)
                t = r.table
                if pairing[0] == courtier and not used & 1:
                    gaps.append(t[(renewal.KEEP, r.reply1[renewal.KEEP])]
                                - t[(renewal.RENEW, r.reply1[renewal.RENEW])])
                if pairing[1] == courtier and not used & 2:
                    gaps.append(t[(r.choice0, renewal.RENEW)] - t[(r.choice0, renewal.KEEP)])
    return gaps


def _median(values: list[float]) -> float:
    values = sorted(values)
    n = len(values)
    return (values[(n - 1) // 2] + values[n // 2]) / 2


def keep_turn(vw, without_sol, with_villains: dict, without: dict) -> str:
    """Why the courtier whose keep share villains change most changes, from the gaps
    between keeping and renewing it in both wars (empty without both wars)."""
    if not with_villains or not without or vw.error_max is None:
        return ""
    name = max(with_villains, key=lambda c: abs(with_villains[c] - without.get(c, 0.0)))
    if abs(with_villains[name] - without.get(name, 0.0)) < 0.5:
        return ""
    near = keep_gaps(vw.solution, name)
    far = keep_gaps(without_sol, name)
    inside = sum(abs(g) <= vw.error_max for g in near) / len(near)
    return (f"The {name} turns ({pct(with_villains[name], 0)} kept with villains, "
            f"{pct(without[name], 0)} without): without villains keeping it gains a median "
            f"{_median(far):+z.3f} in P(win) − P(lose) of the war, with villains "
            f"{_median(near):+z.3f}, and in {pct(inside, 0)} of situations the gap is within "
            f"the war's error ({vw.error_max:z.3f}): a near toss-up.")


def keep_reply(ctx: GuideContext) -> Reply:
    """Keep or renew an unplayed courtier: from the war with villains once it is
    composed, else from the exact war without them; a table of both."""
    without = keep_rates(R.renewal())
    vw = R.villain_war()
    with_villains = keep_rates(vw.solution) if vw is not None and vw.renewed else None
    keep = with_villains or without
    error = vw.win_error if with_villains is not None else None
    facts = {"keep": keep, "with_villains": with_villains is not None,
             "command": R.RENEWAL, "error": error,
             "always": [c for c, r in (keep or {}).items() if r >= 0.999],
             "never": [c for c, r in (keep or {}).items() if r <= 0.001]}
    rows, heads = [], ["courtier"]
    if with_villains:
        heads.append("kept unplayed, with villains")
    if without:
        heads.append("without villains (exact)")
    for name in sorted(keep or {}, key=lambda c: -keep[c]):
        row = [name]
        if with_villains:
            row.append(pct(with_villains[name], 0))
        if without:
            row.append(pct(without.get(name, float("nan")), 0))
        rows.append(row)
    method = ("The share of the war's keep-or-renew situations in which the holder keeps "
              "the courtier unplayed: " + (R.villain_war_model(vw) + " Without villains: "
                                          if with_villains else "")
              + "the war to 3 victories, courtiers renewed between battles, solved exactly.")
    turn = keep_turn(vw, R.renewal(), with_villains, without) if with_villains else ""
    return Reply(KEEP, one_line(render("cobardes/q_keep.md.j2", **facts)),
                 md_table(heads, rows) if rows else "", turn,
                 None if not keep else ", ".join(facts["always"]), method if keep else "")


def caveat(ctx: GuideContext) -> str:
    table, _ = opening()
    f = first_cards()
    return render("cobardes/play_caveat.md.j2",
                  method=R.method_words(table.method) if table is not None else "",
                  low=f.error_low if f is not None else None,
                  high=f.error_high if f is not None else None)
