"""What every guide is made of: answers to designers' questions, parts for players, and
the Jinja2 templates their prose lives in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from analysis.report import markdown
from analysis.report.guides import separate

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
    autoescape=False,
    extensions=["jinja2.ext.do"],
)
ENV.filters["pct"] = markdown.pct
ENV.filters["pct_ci"] = markdown.pct_ci
ENV.filters["pp"] = markdown.pp
ENV.filters["number"] = markdown.number
ENV.globals["table"] = markdown.table
# The rule every ranking word and every edge is printed by (analysis.report.guides.separate).
ENV.globals.update(apart=separate.apart, above=separate.above, excludes=separate.excludes,
                   compared=separate.compared, top=separate.top, bottom=separate.bottom,
                   contenders=separate.contenders, no_clear=separate.NO_CLEAR)


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
class Reply:
    """A question answered for a player who has five minutes: ``answer`` is one sentence
    (at most 30 words) that answers it with its number, ``shown`` one compact Markdown
    table or one chart, ``more`` at most a sentence or two after it; ``headline`` the
    figure a test compares with the records (None: not measured yet) and ``method`` how
    it was measured, in plain words, for the methods appendix."""

    question: str
    answer: str
    shown: str = ""
    more: str = ""
    headline: str | None = None
    method: str = ""


@dataclass(frozen=True)
class Section:
    """A part of a guide (``## title``): its questions in order, and what to keep in mind
    of all its numbers, said once at its end (``caveat``)."""

    title: str
    replies: tuple[Callable[[GuideContext], Reply], ...]
    caveat: Callable[[GuideContext], str] = lambda ctx: ""


@dataclass(frozen=True)
class Guide:
    """A game's guide. Either ``sections`` of questions, each answered in its first
    sentence (:class:`Reply`); or, the older form, what players read first (``play``),
    then the designers' answers in one table (``questions``)."""

    key: str
    title: str
    intro: str
    play: tuple[Part, ...] = ()
    questions: tuple[Question, ...] = ()
    sections: tuple[Section, ...] = ()
    # What the methods appendix says first of all the answers (a table of the rules the
    # numbers use, say); Markdown.
    notes: tuple[Part, ...] = ()
