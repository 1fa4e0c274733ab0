"""The what-if's page: the variant beside the printed rules, every answer with its interval
and the difference with its own, one chart, and a short summary for the terminal.

The numbers come from the :class:`~analysis.play.whatif.WhatIf` record alone; the prose is
the template ``whatif.md.j2``. The page and its record go to ``<out>/whatif/<name>/``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

from matplotlib.figure import Figure

from analysis.play.whatif import ON_MODEL, Estimate, Metric, WhatIf
from analysis.report.templating import render
from analysis.shared.store import atomic_write_text

GAME_NAMES = {"coup": "Coup", "cobardes": "¡Cobardes!", "goat_lords": "Goat Lords"}
# The metrics of the summary, in order, where present.
HEADLINES = ("first_player_edge", "draw_rate", "length")
# ¡Cobardes!'s war with villains: its metrics' keys start so, and get a section of their own.
WITH_VILLAINS = "villains_"


def _clean(est: Estimate) -> Estimate:
    """``est`` with values within rounding of 0 written as 0 (no "-0.0")."""
    def zero(x: float) -> float:
        return 0.0 if abs(x) < 5e-7 else x
    return dataclasses.replace(est, value=zero(est.value), low=zero(est.low),
                               high=zero(est.high))


def _kind(est: Estimate) -> str:
    """What a solved figure is, in brackets: "(exact)" or "(exact on the model)"."""
    return " (exact on the model)" if est.kind == ON_MODEL else " (exact)"


def number(est: Estimate, unit: str, kind: bool = True) -> str:
    """A value with its interval in the unit's words ("51.2% [49.1, 53.3]"); a solved one
    says what kind it is ("(exact)") unless ``kind`` is false."""
    est = _clean(est)
    if math.isnan(est.value):
        return "none measured"
    if unit == "share":
        text = f"{100 * est.value:z.1f}%"
        span = f" [{100 * est.low:z.1f}, {100 * est.high:z.1f}]"
    elif unit == "value":
        text, span = f"{est.value:+z.3f}", f" [{est.low:+z.3f}, {est.high:+z.3f}]"
    else:
        text, span = f"{est.value:z.2f}", f" [{est.low:z.2f}, {est.high:z.2f}]"
    return text + ((_kind(est) if kind else "") if est.solved else span)


def spread(est: Estimate, unit: str) -> str:
    """The least and greatest of the cases a figure averages ("37.2 to 49.6%")."""
    if est.spread is None:
        return ""
    lo, hi = est.spread
    if unit == "share":
        return f"{100 * lo:z.1f} to {100 * hi:z.1f}%"
    return f"{lo:+z.3f} to {hi:+z.3f}"


def change(est: Estimate, unit: str, kind: bool = True) -> str:
    """A difference with its interval ("+1.5 points [-0.3, +3.2]"); a solved one says
    what kind it is unless ``kind`` is false."""
    est = _clean(est)
    if math.isnan(est.value):
        return "none measured"
    if unit == "share":
        text = f"{100 * est.value:+z.1f} points"
        span = f" [{100 * est.low:+z.1f}, {100 * est.high:+z.1f}]"
    elif unit == "value":
        text, span = f"{est.value:+z.3f}", f" [{est.low:+z.3f}, {est.high:+z.3f}]"
    else:
        text, span = f"{est.value:+z.2f} {unit}", f" [{est.low:+z.2f}, {est.high:+z.2f}]"
    if est.solved:
        return text + (_kind(est) if kind else "")
    verdict = "" if est.holds(0.0) else " — a real change"  # an interval here (not solved)
    return text + span + verdict


def verdict(m: Metric) -> str:
    """One sentence: does the variant change this answer?"""
    d = m.difference
    if math.isnan(d.value):
        return f"{m.label}: none measured."
    if d.solved:
        return f"{m.label}: {number(m.printed, m.unit)} → {number(m.variant, m.unit)}."
    if d.holds(0.0):
        return (f"{m.label}: no change shown ({change(d, m.unit)}; printed "
                f"{number(m.printed, m.unit)}).")
    return f"{m.label}: {number(m.printed, m.unit)} → {number(m.variant, m.unit)} ({change(d, m.unit)})."


SKILL_SAYS_LITTLE = "the skill measure against greedy says little"


def summary_lines(result: WhatIf) -> list[str]:
    """The few answers a designer reads first: the edge, draws, length and skill."""
    keys = [k for k in HEADLINES if any(m.key == k for m in result.metrics)]
    keys += [m.key for m in result.metrics if m.key.startswith("skill_")]
    lines = [verdict(result.metric(k)) for k in keys]
    ranked = ranking(result)
    if ranked:
        lines.append(f"the courtiers, strongest first: printed {ranked[0]}; variant {ranked[1]}.")
    villains = villain_war_line(result)
    if villains:
        lines.append(villains)
    # Where the strong agent does not beat the weak one under the printed rules, the skill
    # answer measures little: said here in one line, not only on the page.
    lines += [note for note in result.notes if SKILL_SAYS_LITTLE in note]
    return lines


def villain_war_line(result: WhatIf) -> str | None:
    """¡Cobardes!'s war with villains in one line: the first player, the strongest
    courtier and the villain worth most, printed rules → variant (None: not answered)."""
    found = {m.key[len(WITH_VILLAINS):]: m for m in result.metrics
             if m.key.startswith(WITH_VILLAINS)}
    if "first_player_edge" not in found:
        return None

    def best(prefix: str, side: str) -> str:
        top = max((m for k, m in found.items() if k.startswith(prefix)),
                  key=lambda m: getattr(m, side).value)
        return f"{top.key[len(WITH_VILLAINS + prefix):]} {100 * getattr(top, side).value:z.1f}%"

    edge = found["first_player_edge"]
    return (f"with villains (exact on the war composed from the stored battles): the first "
            f"player wins {100 * (0.5 + edge.printed.value):z.1f}% → "
            f"{100 * (0.5 + edge.variant.value):z.1f}% of wars; strongest courtier "
            f"{best('courtier_', 'printed')} → {best('courtier_', 'variant')}; the villain "
            f"worth most dealt first {best('villain_', 'printed')} → "
            f"{best('villain_', 'variant')}.")


def villain_section(result: WhatIf) -> dict | None:
    """¡Cobardes!'s war with villains for the page: who answers, the first player and
    the courtiers (one table), the villains with their spread (another); None when not
    answered."""
    rows = [m for m in result.metrics if m.key.startswith(WITH_VILLAINS)]
    if not rows:
        return None

    def row(m: Metric) -> list[str]:
        return [m.label.split(": ", 1)[-1], number(m.printed, m.unit, False),
                number(m.variant, m.unit, False), change(m.difference, m.unit, False)]

    def ranked(prefix: str) -> list[Metric]:
        found = [m for m in rows if m.key.startswith(WITH_VILLAINS + prefix)]
        return sorted(found, key=lambda m: -m.variant.value)

    courtiers = [row(m) for m in ranked("first_player")] + [row(m) for m in ranked("courtier_")]
    villains = [[m.key[len(WITH_VILLAINS + "villain_"):], number(m.printed, m.unit, False),
                 spread(m.printed, m.unit), number(m.variant, m.unit, False),
                 spread(m.variant, m.unit), change(m.difference, m.unit, False)]
                for m in ranked("villain_")]
    return {"source": rows[0].source, "kind": rows[0].difference.kind,
            "courtiers": courtiers, "villains": villains}


def ranking(result: WhatIf) -> tuple[str, str] | None:
    """The courtiers in order of their war value, under each rule set (None: no courtier
    answers)."""
    rows = [m for m in result.metrics if m.key.startswith("courtier_")]
    if not rows:
        return None

    def order(side: str) -> str:
        ranked = sorted(rows, key=lambda m: -getattr(m, side).value)
        return ", ".join(f"{m.key[len('courtier_'):]} {getattr(m, side).value:+z.2f}"
                         for m in ranked)
    return order("printed"), order("variant")


def chart(result: WhatIf, path: Path) -> None:
    """The variant minus the printed rules for every answer given as a share, in points,
    each with its 95% interval (a dot alone: solved exactly)."""
    shares = [m for m in result.metrics if m.unit == "share"
              and not math.isnan(m.difference.value) and not m.key.startswith(WITH_VILLAINS)]
    fig = Figure(figsize=(7.5, 0.32 * len(shares) + 1.4))
    ax = fig.add_subplot(1, 1, 1)
    for y, m in enumerate(reversed(shares)):
        d = m.difference
        colour = "#c0392b" if changed(d) else "#1f6fb4"
        if not d.solved:  # an exact figure is a dot alone, never drawn as an interval
            ax.plot([100 * d.low, 100 * d.high], [y, y], color=colour, lw=2)
        ax.plot([100 * d.value], [y], "o", color=colour, ms=4)
    ax.axvline(0, color="#555555", lw=0.8)
    ax.set_yticks(range(len(shares)), [m.label for m in reversed(shares)], fontsize=7)
    ax.set_xlabel(chart_caption(shares), fontsize=8)
    ax.set_title(f"{GAME_NAMES[result.game]}: {title(result)}", fontsize=9)
    fig.savefig(path, bbox_inches="tight")


def changed(d: Estimate) -> bool:
    """Whether a difference (a share) is a change: its 95% interval leaves 0 out, or,
    solved, it is not 0.0 points as printed."""
    return round(100 * d.value, 1) != 0 if d.solved else not d.holds(0.0)


def chart_caption(shares: list[Metric]) -> str:
    """The chart's caption: what its marks are, as its figures are (intervals, exact)."""
    solved = [m.difference.solved for m in shares]
    what = ("each with its 95% interval" if not any(solved) else
            "each solved exactly (a dot)" if all(solved) else
            "a line: its 95% interval; a dot alone: solved exactly")
    return f"variant minus printed rules (percentage points), {what}; red: a change"


def page_chart_words(result: WhatIf) -> str:
    """The page's words for its chart, as :func:`chart_caption` says them."""
    shares = [m for m in result.metrics if m.unit == "share"
              and not math.isnan(m.difference.value) and not m.key.startswith(WITH_VILLAINS)]
    return "The variant minus the printed rules, " + chart_caption(shares).split(", ", 1)[1]


def title(result: WhatIf) -> str:
    return ", ".join(f"{k}={v}" for k, v in result.variant.items()) or "the printed rules"


def write_page(result: WhatIf, out: Path) -> Path:
    """Write ``<out>/whatif/<name>/index.md``, its chart and its record; returns the page."""
    folder = Path(out) / "whatif" / result.name
    folder.mkdir(parents=True, exist_ok=True)
    chart(result, folder / "chart.svg")
    rows = [[m.label, number(m.printed, m.unit), number(m.variant, m.unit),
             change(m.difference, m.unit), m.source] for m in result.metrics
            if not m.key.startswith(WITH_VILLAINS)]
    villains = villain_section(result)
    players = result.base.get("players")
    question = (f"{players} players" if players else "the war without villains"
                + (", and with them" if villains else ""))
    base = {k: v for k, v in result.base.items() if k != "players"}
    games = ", ".join(f"{k.replace('_', ' ')}: {v:,}" for k, v in result.games.items())
    text = render("whatif.md.j2", title=title(result), game_name=GAME_NAMES[result.game],
                  question=question, variant_text=title(result),
                  base_text=(" (" + ", ".join(f"{k}={v}" for k, v in base.items()) + ")"
                             if base else ""),
                  summary="\n".join(f"- {line}" for line in summary_lines(result)),
                  rows=rows, villains=villains, notes=result.notes, games_text=games or "nothing",
                  seconds_text=f"{result.seconds:z,.0f} s for this run",
                  seed=result.seed, version=result.version, commit=result.commit,
                  chart_words=page_chart_words(result))
    page = folder / "index.md"
    atomic_write_text(page, text + "\n")
    atomic_write_text(folder / "whatif.json", json.dumps(result.to_json(), indent=1) + "\n")
    return page
