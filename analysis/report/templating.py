"""The Jinja2 templates every report's prose lives in (guides and methods appendices
alike): the environment, its filters and globals, and how a template is filled.

A template is filled with facts only (numbers, names, records); every number it prints
comes from the facts it is given, through the filters below."""

from __future__ import annotations

from pathlib import Path

import jinja2

from analysis.report import markdown, separate

TEMPLATES = Path(__file__).resolve().parent / "templates"

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
# A number in a format of Python's mini-language: ``{{ x | f("+.1f") }}``, ``{{ n | f(",") }}``.
ENV.filters["f"] = markdown.number  # never a negative zero
ENV.filters["number"] = markdown.number
ENV.filters["string_repr"] = repr  # a value as Python writes it: ``'ambassador'``, ``2``
ENV.globals["table"] = markdown.table
# The rule every ranking word and every edge is printed by (analysis.report.separate).
ENV.globals.update(apart=separate.apart, above=separate.above, excludes=separate.excludes,
                   compared=separate.compared, top=separate.top, bottom=separate.bottom,
                   contenders=separate.contenders, no_clear=separate.NO_CLEAR)


def render(name: str, **facts) -> str:
    """The template ``name`` (under ``analysis/report/templates``) filled with ``facts``,
    without the blank lines at either end."""
    return ENV.get_template(name).render(**facts).strip()


def fill(name: str, **facts) -> str:
    """The template ``name`` filled with ``facts``, exactly as it renders (a section's
    Markdown keeps its own blank lines and line ends)."""
    return ENV.get_template(name).render(**facts)


def one_line(text: str) -> str:
    """Prose rendered for a table cell: its lines joined by spaces."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
