"""¡Cobardes! for players: the first combat by villain held (a frequency grid, from the
stored opening of one matchup), the learning game's opening, and when to keep an unplayed
courtier (from the war with villains once every matchup is solved, else without them),
each with its numbers."""

from __future__ import annotations

from analysis.cobardes import balance, openings, renewal
from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import GuideContext, render
from analysis.report.markdown import pct
from games.cobardes import cards as C

CARDS = ("Prince", "1", "2", "3", "4", "5", "6")
# The matchup whose opening the guide shows (the rulebook's first example pairing).
PAIRING = ("Squire", "Archer")


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


def keep_text(keep: dict[str, float]) -> str:
    always = [c for c, r in keep.items() if r >= 0.999]
    never = [c for c, r in keep.items() if r <= 0.001]
    return (f"keep an unplayed {', '.join(always) or '–'} (kept in 100% of situations); "
            f"renew an unplayed {', '.join(never) or '–'} (kept in 0%)")


def thumbs(mixes_by_seat: dict | None, keep: dict | None, opening: dict | None,
           keep_with_villains: dict | None = None) -> list[str]:
    out = []
    if keep_with_villains:
        out.append(f"After a battle, {keep_text(keep_with_villains)}: from the war with "
                   f"villains, each battle played as solved"
                   + (f". Without villains (exact): {keep_text(keep)}." if keep else "."))
    elif keep:
        out.append(f"After a battle, {keep_text(keep)}.")
    if opening:
        played = sorted(((p, c) for c, p in opening["mix"].items() if p >= 0.005), reverse=True)
        lowest = min(int(c) for _, c in played)
        lower = sum(p for c, p in opening["mix"].items() if int(c) < lowest)
        cards = [f"the {c}" for _, c in played]
        shares = [pct(p, 0) for p, _ in played]
        listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]
        said = shares[0] if len(shares) == 1 else ", ".join(shares[:-1]) + " and " + shares[-1]
        out.append(f"In the learning game, open with {listed} ({said} of the time); never "
                   f"a card below the {lowest} ({pct(lower, 0)}).")
    if mixes_by_seat:
        mixes = mixes_by_seat.get("P0", {})
        eager = sorted(((m.get(v, 0.0), v) for v, m in mixes.items()), reverse=True)
        if eager:
            (p_hi, v_hi), (p_lo, v_lo) = eager[0], eager[-1]
            out.append(f"Play your villain early when it is the {v_hi} ({pct(p_hi, 0)} of first "
                       f"combats for the first player), keep it back when it is the {v_lo} "
                       f"({pct(p_lo, 0)}).")
    return out


def part(ctx: GuideContext) -> str:
    table = openings.stored(PAIRING)
    opening = R.learning_opening()
    keep = keep_rates(R.renewal())
    vw = R.villain_war()
    with_villains = keep_rates(vw.solution) if vw is not None and vw.renewed else None
    mixes = opening_mixes(table) if table is not None else {}
    return render("cobardes/play.md.j2", grids=first_combat(mixes),
                  headers=["villain held"] + list(CARDS) + ["the villain"],
                  pairing=f"{PAIRING[0]} against {PAIRING[1]}",
                  method=R.method_words(table.method) if table is not None else "",
                  exploitability=table.exploitability if table is not None else 0,
                  thumbs=thumbs(mixes, keep, opening, with_villains),
                  command=openings.build_command(PAIRING))
