"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?
The answer's facts, read once for the guide and the methods appendix alike."""

from __future__ import annotations

from analysis.report.facts.cobardes import records as R


def facts() -> dict:
    v = R.villain_values()
    swept = len(R.hidden_sweep())
    base = {"v": v, "swept": swept, "size": R.sweep_size(), "command": R.SWEEP}
    if v is None:
        return base | {"headline": None}
    best, worst = v.values.index[0], v.values.index[-1]
    return base | {"best": best, "worst": worst, "most_in": most_in(v, best),
                   "headline": f"{best} {v.values.iloc[0]:+.2f}"}


def most_in(v: R.VillainValues, best: str) -> int | None:
    """In how many solved matchups ``best`` is worth the most to its holder (both seats
    averaged), or None with fewer than two matchups."""
    per = v.per_matchup
    return None if per is None else int((per.idxmax(axis=1) == best).sum())
