"""What a report section is given: the ruleset, where its charts go, and the budget."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from games.catalog import GameFamily


def quick_mode() -> bool:
    """True when ``FAROL_QUICK`` asks for small budgets (CI, notebooks)."""
    return os.environ.get("FAROL_QUICK", "").strip() not in ("", "0", "false", "no")


@dataclass
class ReportContext:
    """What a section needs: the ruleset, where to write figures, the budget."""

    family: GameFamily
    outdir: Path
    quick: bool = False
    figures: list[str] = field(default_factory=list)

    def save_figure(self, fig: Figure, stem: str) -> str:
        """Save ``fig`` as ``<outdir>/<family>_<stem>.png``; returns the Markdown-relative path."""
        name = f"{self.family.key}_{stem}.png"
        fig.savefig(self.outdir / name, dpi=110, bbox_inches="tight")
        self.figures.append(name)
        return name


Section = Callable[[ReportContext], str]
