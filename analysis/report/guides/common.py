"""What every guide is made of: answers to designers' questions, parts for players, and
the Jinja2 templates their prose lives in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from analysis.report import markdown

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
    autoescape=False,
)
ENV.filters["pct"] = markdown.pct
ENV.filters["pct_ci"] = markdown.pct_ci
ENV.filters["pp"] = markdown.pp
ENV.globals["table"] = markdown.table


def render(name: str, **facts) -> str:
    """The template ``name`` (under ``analysis/report/templates``) filled with ``facts``,
    without the blank lines at either end."""
    return ENV.get_template(name).render(**facts).strip()


def one_line(text: str) -> str:
    """Prose rendered for a table cell: its lines joined by spaces."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


@dataclass(frozen=True)
class Answer:
    """One designer's question answered once: ``answer`` is a table cell, ``headline`` the
    number in it that a test compares with the records (None: not measured yet),
    ``model`` what it was measured on, in plain words; ``detail``: optional Markdown shown
    below the answers (a chart, a small table)."""

    question: str
    answer: str
    model: str
    headline: str | None
    detail: str = ""


@dataclass
class GuideContext:
    """Where a guide writes its charts (beside the Markdown), and what it wrote."""

    key: str
    outdir: Path
    charts: list[str] = field(default_factory=list)

    def save_svg(self, text: str, stem: str) -> str:
        """Write ``<outdir>/<key>_guide_<stem>.svg``; returns the Markdown-relative path."""
        name = f"{self.key}_guide_{stem}.svg"
        (self.outdir / name).write_text(text, encoding="utf-8")
        self.charts.append(name)
        return name


Question = Callable[[GuideContext], Answer]
Part = Callable[[GuideContext], str]


@dataclass(frozen=True)
class Guide:
    """A game's guide: what players read first (``play``), then the designers' answers."""

    key: str
    title: str
    intro: str
    play: tuple[Part, ...]
    questions: tuple[Question, ...]
