"""The committed pages (guides, appendices, the site, the charts drawn as SVG, the README
and the docs) hold no negative zero (``-0.00``, ``[-0.0, +5.1]``, ``seat 1: -0``) and no
plural after one ("1 coins"); ``tests/cli/test_examples.py`` scans what the commands'
examples print the same way. Numbers are formatted so that a value rounding to zero has
no sign (``analysis.report.markdown.number``, the ``z`` of Python's format)."""

from __future__ import annotations

from pathlib import Path

import pytest
from text_hygiene import slips

from analysis.report.markdown import number, pct_ci, pp

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([*ROOT.glob("reports/*.md"), *ROOT.glob("reports/*.svg"),
                *ROOT.glob("reports/site/*.html"), *ROOT.glob("reports/whatif/**/*.md"),
                *ROOT.glob("docs/**/*.md"), ROOT / "README.md"])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_holds_a_negative_zero_or_a_plural_after_one(page):
    found = slips(page.read_text(encoding="utf-8"))
    assert not found, f"{page.name}: {found[:5]}"


def test_the_check_finds_each_slip():
    for text in ("-0.00", "-0.0 points", "[-0.0, +5.1]", "seat 1: -0", "\u22120.0", "1 coins",
                 "after 1 turns"):
        assert slips(text), text
    for text in ("0.00-0.00", "-0.05", "+0.0", "1/1 coins", "4.1 points", "seat 1 wins",
                 "1 coin", "11 coins", "10 games", "range 0-9"):
        assert not slips(text), text


def test_the_number_formats_never_show_a_negative_zero():
    assert number(-0.0004, "+.2f") == "+0.00" and number(-0.0004, ".3f") == "0.000"
    assert number(-0.4, ".0f") == "0" and number(-0.6, ".0f") == "-1"
    assert pp(-0.0001, (-0.0002, 0.051)) == "+0.0 pp [+0.0, +5.1]"
    assert pct_ci(-1e-6, (-1e-6, 0.02)) == "0.0% [0.0, 2.0]"
