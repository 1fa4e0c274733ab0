"""The first player's edge under several decks or setups, side by side (decks, setups),
and the difference between two tables' edges with its 95% interval."""

from __future__ import annotations

from analysis.report.facts.coup import edges as E
from analysis.report.guides.coup.first_player import facts
from analysis.report.templating import one_line, render


def said(d: E.Difference) -> str:
    """A difference in words from its interval, with the difference itself where the
    interval holds 0."""
    return d.words + (f" ({E.points(d.value, d.ci)})" if E.holds_zero(d.ci) else "")


def difference_sentence(d: E.Difference, a: str, b: str) -> str:
    """``a`` minus ``b`` (the two tables' labels), in words from the difference's interval."""
    return f"{a} minus {b}: {said(d)}"


def verdict(items: list[dict], against_first: bool = False) -> str:
    """One sentence: which differ, as far as the records tell. Measured edges are compared
    as the first minus each other, or (``against_first``) each other minus the first,
    naming the smallest."""
    sources = {f["source"] for f in items}
    if sources == {"blueprint"}:
        wins = [f["bp"].win for f in items]
        gap = 100 * (max(wins) - min(wins))
        errors = [f["bp"].exploitability_at_least for f in items]
        said = f"In the blueprint's self-play the first player's win rates differ by {gap:z.1f} points"
        if any(e is None for e in errors):
            return said + "; the blueprint's error is not measured for every one of them."
        error = 100 * max(errors)
        if error >= gap:
            return (said + f", less than the blueprint's own error (a best response gains at "
                    f"least {error:z.1f} points): no difference established.")
        return said + f", more than the blueprint's measured error ({error:z.1f} points)."
    if sources == {"seats"}:
        base = items[0]
        alike = [f for f in items[1:] if E.comparable(base["edge"], f["edge"])]
        apart = [f["short"] for f in items[1:] if f not in alike]
        unlike = (f" {' and '.join(apart)}: not compared with {base['short']}, as another "
                  f"agent played {'it' if len(apart) == 1 else 'them'}." if apart else "")
        if against_first:  # each other minus the first
            each = [difference_sentence(E.edge_difference(f["edge"], base["edge"]),
                                        f["short"], base["short"]) for f in alike]
        else:  # the first minus each other
            each = [difference_sentence(E.edge_difference(base["edge"], f["edge"]),
                                        base["short"], f["short"]) for f in alike]
        said = ["The first player's edge, " + "; ".join(each) + "."] if each else []
        if against_first:
            least = min(items, key=lambda f: abs(f["edge"].value))
            said.append(f"The smallest edge measured: {least['short']} ({least['edge'].words}).")
        return " ".join(said) + unlike
    if sources == {"bracket"}:
        return "Every range holds 50%: no difference measurable yet."
    return ""


def compare(pairs: list[tuple[str, str, str]], what: str, short: list[str] | None = None,
            against_first: bool = False) -> tuple[str, str, str | None]:
    """(answer, model, headline) for ``pairs`` of (label, deck, setup); ``short``: the
    labels a difference names them by (default the labels); ``against_first``: see
    :func:`verdict`."""
    names = short or [label for label, _, _ in pairs]
    items = [facts(deck, setup) | {"label": label, "short": name}
             for (label, deck, setup), name in zip(pairs, names, strict=True)]
    sources = sorted({f["source"] for f in items})
    text = one_line(render("coup/compare.md.j2", items=items, verdict=verdict(items, against_first)))
    model = one_line(render("coup/compare_model.md.j2", items=items, sources=sources,
                            what=what, build=items[0]["build"]))
    shown = [f["headline"] for f in items if f["headline"] is not None]
    return text, model, "; ".join(shown) if shown else None
