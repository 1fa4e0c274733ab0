"""The first player's edge under several decks or setups, side by side (decks, setups)."""

from __future__ import annotations

from analysis.report.guides.common import one_line, render
from analysis.report.guides.coup.first_player import facts


def verdict(items: list[dict]) -> str:
    """One sentence: which differ, as far as the records tell."""
    sources = {f["source"] for f in items}
    if sources == {"blueprint"}:
        wins = [f["bp"].win for f in items]
        gap = 100 * (max(wins) - min(wins))
        errors = [f["bp"].exploitability_at_least for f in items]
        said = f"In the blueprint's self-play the first player's win rates differ by {gap:.1f} points"
        if any(e is None for e in errors):
            return said + "; the blueprint's error is not measured for every one of them."
        error = 100 * max(errors)
        if error >= gap:
            return (said + f", less than the blueprint's own error (a best response gains at "
                    f"least {error:.1f} points): no difference established.")
        return said + f", more than the blueprint's measured error ({error:.1f} points)."
    if sources == {"seats"}:
        cis = [f["seat"].ci95 for f in items]
        apart = max(lo for lo, _ in cis) > min(hi for _, hi in cis)
        return ("The intervals are apart: the first player's edge differs." if apart else
                "The intervals overlap: no difference measured.")
    if sources == {"bracket"}:
        return "Every range holds 50%: no difference measurable yet."
    return ""


def compare(pairs: list[tuple[str, str, str]], what: str) -> tuple[str, str, str | None]:
    """(answer, model, headline) for ``pairs`` of (label, deck, setup)."""
    items = [facts(deck, setup) | {"label": label} for label, deck, setup in pairs]
    sources = sorted({f["source"] for f in items})
    text = one_line(render("coup/compare.md.j2", items=items, verdict=verdict(items)))
    model = one_line(render("coup/compare_model.md.j2", items=items, sources=sources,
                            what=what, build=items[0]["build"]))
    shown = [f["headline"] for f in items if f["headline"] is not None]
    return text, model, "; ".join(shown) if shown else None

