"""The bluffing study: what the solved 1v1 endgames say about claims, challenges and cards.

Everything here reads the sweep's records (:mod:`analysis.coup.studies.sweep`); nothing is
solved again. Rates are *at equilibrium*: measured along the solved profile, weighted
by the probability that play reaches each claim (:func:`analysis.coup.solvers.endgames.analyse`).
A claim's bluff rate is P(the claimant does not hold the character | the claim is
made); its challenge rate is P(challenged | made). Averages over coin pairs weight
each position by how often the claim is made there.
"""

from __future__ import annotations

import pandas as pd

from analysis.coup.model import EndgameRecord

# The honest-play anchor quoted in issue 8: one card each, coins 0-6 each, no
# Ambassador; a published simulation of honest play has the player to move winning
# this many of the 196 (coin pair x opponent card) cases.
HONEST_PLAY_WINS = {"Captain": 163, "Assassin": 134, "Duke": 110, "Contessa": 74}
HONEST_PLAY_CASES = 196


def frame(records: list[EndgameRecord]) -> pd.DataFrame:
    """One row per endgame: deck, coins, value, outcome probabilities, solver figures."""
    rows = []
    for r in records:
        eg = r.endgame
        rows.append({
            "deck": eg.deck, "revealed": "-".join(eg.revealed), "turn_cap": eg.turn_cap,
            "mover": eg.mover_coins, "other": eg.other_coins, "value": r.value,
            "win": r.win, "draw": r.draw, "lose": r.lose,
            "exploitability": r.exploitability,
            "openspiel_exploitability": r.openspiel_exploitability,
            "iterations": r.iterations, "nodes": r.nodes, "infosets": r.infosets,
            "seconds": r.solve_seconds + r.walk_seconds,
        })
    return pd.DataFrame(rows)


def claims_frame(records: list[EndgameRecord]) -> pd.DataFrame:
    """One row per (endgame, claim): frequency, bluff rate, challenge rates."""
    rows = []
    for r in records:
        eg = r.endgame
        for claim, c in r.claims.items():
            rows.append({"deck": eg.deck, "mover": eg.mover_coins,
                         "other": eg.other_coins, "claim": claim, **c})
    return pd.DataFrame(rows)


def claim_summary(records: list[EndgameRecord], min_frequency: float = 1e-3) -> pd.DataFrame:
    """Per deck and claim: positions where it is made, mean frequency, weighted bluff and
    challenge rates (weights: how often the claim is made)."""
    df = claims_frame(records)
    if df.empty:
        return df
    df = df[df["frequency"] >= min_frequency].copy()
    out = []
    for (deck, claim), g in df.groupby(["deck", "claim"]):
        w = g["frequency"]
        bluff = g["bluff_rate"].fillna(0.0)
        chal = g["challenge_rate"].fillna(0.0)
        out.append({"deck": deck, "claim": claim, "positions": len(g),
                    "mean_frequency": float(w.mean()),
                    "bluff_rate": float((w * bluff).sum() / w.sum()),
                    "challenge_rate": float((w * chal).sum() / w.sum()),
                    "max_bluff_rate": float(bluff.max())})
    return pd.DataFrame(out).sort_values(["deck", "claim"]).reset_index(drop=True)


def claim_grid(records: list[EndgameRecord], claim: str, deck: str, column: str = "bluff_rate"
               ) -> pd.DataFrame:
    """A mover-coins x other-coins table of one claim's ``column`` (NaN: never made)."""
    df = claims_frame(records)
    df = df[(df["claim"] == claim) & (df["deck"] == deck) & (df["frequency"] >= 1e-3)]
    return df.pivot_table(index="mover", columns="other", values=column, aggfunc="first")


def _held_cards(records: list[EndgameRecord], coins: range | None, side: str):
    """``(deck, card, outcome masses)`` for each card ``side`` may hold in each record
    whose coins both lie in ``coins`` (every record without ``coins``)."""
    for r in records:
        eg = r.endgame
        if coins is not None and not (eg.mover_coins in coins and eg.other_coins in coins):
            continue
        for key, v in r.card_values.items():
            who, card = key.split(":")
            if who == side:
                yield eg.deck, card, v


def character_values(records: list[EndgameRecord], coins: range | None = None,
                     side: str = "mover") -> pd.DataFrame:
    """Per deck and card held by ``side``: P(win/draw/lose) of the mover, averaged over
    coin pairs (both coins in ``coins`` when given)."""
    df = pd.DataFrame([{"deck": deck, "card": card, "win": v["win"], "draw": v["draw"],
                        "lose": v["lose"]} for deck, card, v in _held_cards(records, coins, side)])
    if df.empty:
        return df
    out = df.groupby(["deck", "card"])[["win", "draw", "lose"]].mean().reset_index()
    out["value"] = out["win"] - out["lose"]
    return out.sort_values(["deck", "value"], ascending=[True, False]).reset_index(drop=True)


def honest_comparison(records: list[EndgameRecord]) -> pd.DataFrame:
    """Our equilibrium P(win) of the mover per card (coins 0-6 each) beside honest play's."""
    eq = character_values(records, coins=range(7))
    rows = []
    for card, wins in HONEST_PLAY_WINS.items():
        row = {"card": card, "honest_play_win": wins / HONEST_PLAY_CASES}
        for deck in sorted(eq["deck"].unique()) if not eq.empty else []:
            sel = eq[(eq["deck"] == deck) & (eq["card"] == card)]
            if not sel.empty:
                row[f"equilibrium_win_{deck}"] = float(sel["win"].iloc[0])
                row[f"equilibrium_draw_{deck}"] = float(sel["draw"].iloc[0])
        rows.append(row)
    return pd.DataFrame(rows)


def card_win_ranges(records: list[EndgameRecord], coins: range | None = None,
                    side: str = "mover") -> pd.DataFrame:
    """Per deck and card held by ``side``: the mover's win probability in the cap-priced
    records (:func:`analysis.coup.solvers.endgames.solve_priced_endgame`), averaged over coin
    pairs (both coins in ``coins`` when given).

    ``low`` counts what the mover wins within the cap plus their Markov guarantee where
    the cap stops the game, ``high`` one minus what they lose within it and the other's
    guarantee there: both players play the safe profile for the cap's turns and their
    Markov policies after it. ``win``/``cap`` are the chances of winning within the cap
    and of reaching it.
    """
    df = pd.DataFrame([{"deck": deck, "card": card, "win": v["win"], "cap": v["draw"],
                        "low": v["win"] + v.get("cap_win", 0.0),
                        "high": 1.0 - v["lose"] - v.get("cap_lose", 0.0)}
                       for deck, card, v in _held_cards(records, coins, side)])
    if df.empty:
        return df
    out = df.groupby(["deck", "card"])[["win", "cap", "low", "high"]].mean().reset_index()
    return out.sort_values(["deck", "low"], ascending=[True, False]).reset_index(drop=True)


def first_mix(records: list[EndgameRecord], deck: str, max_mover_coins: int = 6) -> pd.DataFrame:
    """The mover's first action per card held, averaged over coin pairs (rows: cards).

    Positions where the mover has more than ``max_mover_coins`` coins are left out: from
    7 coins the Coup wins outright and the card held does not matter.
    """
    rows = []
    for r in records:
        if r.endgame.deck != deck or r.endgame.mover_coins > max_mover_coins:
            continue
        for card, mix in r.first_mix.items():
            rows.append({"card": card, **mix})
    df = pd.DataFrame(rows).fillna(0.0)
    if df.empty:
        return df
    return df.groupby("card").mean()


def fake_contessa(records: list[EndgameRecord], deck: str) -> pd.DataFrame:
    """Per coin pair: how often the target claims the Contessa against an assassination,
    how often that block is a bluff, and how often the assassin challenges it."""
    df = claims_frame(records)
    label = "Block Assassinate (Contessa)"
    df = df[(df["claim"] == label) & (df["deck"] == deck)]
    return df[["mover", "other", "frequency", "bluff_rate", "challenge_rate",
               "challenge_rate_bluff", "challenge_rate_honest"]].sort_values(["mover", "other"])
