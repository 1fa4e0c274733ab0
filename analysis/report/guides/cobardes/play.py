"""¡Cobardes! for players: the first combat by villain held (a frequency grid, from the
stored opening of one matchup) and when to keep an unplayed courtier (from the war with
villains once every matchup is solved, else without them), each with its numbers."""

from __future__ import annotations

from analysis.cobardes.studies import balance, openings, renewal
from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import GuideContext, Reply, one_line, render
from analysis.report.markdown import pct
from analysis.report.markdown import table as md_table
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


def first_combat_reply(ctx: GuideContext) -> Reply:
    """What to play in the first combat, by villain held: one sentence from the first
    player's mixes (the villain laid most and least often), then both seats' grids."""
    table, mixes = opening()
    grids = first_combat(mixes)
    eager = sorted(((m.get(v, 0.0), v) for v, m in mixes.get("P0", {}).items()), reverse=True)
    pairing = f"{PAIRING[0]} against {PAIRING[1]}"
    facts = {"grids": grids, "pairing": pairing, "command": openings.build_command(PAIRING),
             "eager": eager[0] if eager else None, "shy": eager[-1] if eager else None}
    seats = {"P0": "first", "P1": "second"}  # the first commits face down, the second answers
    rows = [[seats[p]] + row for p in ("P0", "P1") for row in grids.get(p, [])]
    shown = render("cobardes/q_first_combat_shown.md.j2", rows=rows,
                   headers=["player", "villain held"] + list(CARDS) + ["the villain"]
                   ) if rows else ""
    method = "" if table is None else (
        f"One full battle ({pairing}, warriors 0-6, 7 combats, both villains dealt hidden), "
        f"its opening stored for both seats: {R.method_words(table.method)} on a model that "
        f"forgets the order of past moves, until its exploitability stopped improving; "
        f"exploitability within that model {table.exploitability:z.3f} (a lower bound on the "
        f"true one).")
    headline = None if not eager else pct(eager[0][0], 0)
    return Reply(FIRST_COMBAT, one_line(render("cobardes/q_first_combat.md.j2", **facts)),
                 shown, 'In the table, "·" means under 0.5%.' if rows else "", headline, method)


def keep_reply(ctx: GuideContext) -> Reply:
    """Keep or renew an unplayed courtier: from the war with villains once it is
    composed, else from the exact war without them; a table of both."""
    without = keep_rates(R.renewal())
    vw = R.villain_war()
    with_villains = keep_rates(vw.solution) if vw is not None and vw.renewed else None
    keep = with_villains or without
    facts = {"keep": keep, "with_villains": with_villains is not None,
             "command": R.RENEWAL,
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
    return Reply(KEEP, one_line(render("cobardes/q_keep.md.j2", **facts)),
                 md_table(heads, rows) if rows else "", "",
                 None if not keep else ", ".join(facts["always"]), method if keep else "")


def caveat(ctx: GuideContext) -> str:
    table, _ = opening()
    return render("cobardes/play_caveat.md.j2",
                  method=R.method_words(table.method) if table is not None else "",
                  exploitability=table.exploitability if table is not None else None)
