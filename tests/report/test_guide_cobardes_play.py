"""The ¡Cobardes! guide's play answers against the stored records, recomputed here in
plain Python: the first combat over every dealt matchup's stored opening, the villains'
places only where their error separates them, and why a courtier's keep share turns."""

from __future__ import annotations

import json
import re
import statistics

import pytest

from analysis.report.facts.cobardes import records as R
from analysis.report.facts.cobardes import villains as villain_facts
from analysis.report.guides.cobardes import play, villains
from analysis.report.guides.common import GuideContext
from analysis.shared import store
from games.cobardes import cards as C


def _tables():
    folder = store.data("cobardes", "openings")
    out = {}
    for path in sorted(folder.glob("*__w6c7.json")):
        first, second = path.name.split("__")[:2]
        if first != second:  # a mirror is never dealt
            out[path.name] = json.loads(path.read_text())
    return out


def test_the_first_combat_answer_is_the_median_over_the_matchups(tmp_path):
    tables = _tables()
    if len(tables) < 2:
        pytest.skip("the matchups' openings are not stored")
    laid: dict[str, list[float]] = {}
    carded = 0
    for t in tables.values():
        entries = [e["answers"] for e in t["seats"][0]]
        if any(a["decision"] != "confrontation" for x in entries for a in x.values()):
            continue
        carded += 1
        for villain in entries[0]:
            vid = C.card_id(villain)
            shares = [sum(p for a, p in x[villain]["mix"] if a == vid) for x in entries
                      if villain in x]
            laid.setdefault(villain, []).append(sum(shares) / len(shares))
    eager = max(laid, key=lambda v: statistics.median(laid[v]))
    reply = play.first_combat_reply(GuideContext("cobardes", tmp_path))
    assert f"({carded} of {len(tables)} matchups)" in reply.answer
    median = round(100 * statistics.median(laid[eager]))
    low, high = (round(100 * f(laid[eager])) for f in (min, max))
    assert f"it lays the {eager} a median {median}% ({low}%–{high}%)" in reply.answer
    errors = [t["exploitability"] for t in tables.values()]
    assert f"error at least {min(errors):.3f}–{max(errors):.3f} a battle" in reply.answer
    assert "example: Squire against Archer" in reply.shown


def test_villains_are_placed_only_where_the_error_separates_them(tmp_path):
    v = R.villain_values()
    if v is None:
        pytest.skip("no villain values stored")
    places = villain_facts.ranks(v)
    e = v.exploitability_at_least
    values = dict(v.values.items())
    for name, place in places.items():
        first, _, last = place.partition("–")
        last = last or first
        clearly_above = sum(round(100 * (values[o] - e)) > round(100 * (values[name] + e))
                            for o in values if o != name)
        clearly_below = sum(round(100 * (values[o] + e)) < round(100 * (values[name] - e))
                            for o in values if o != name)
        assert (int(first), int(last)) == (clearly_above + 1, len(values) - clearly_below)
    reply = villains.reply(GuideContext("cobardes", tmp_path))
    assert f"error at least {e:.3f}" in reply.answer
    assert re.search(r"\| Beggar \| -?\+?\d\.\d\d \| \d–\d \|", reply.shown)
    assert "-0.00" not in reply.shown


def test_the_keep_gaps_give_the_keep_shares():
    """Keeping is chosen exactly where it gains at least as much as renewing (ties kept),
    so the gaps the guide explains a turn by give the keep shares it shows."""
    sol = play.R.renewal()
    if sol is None:
        pytest.skip("the war without villains is not stored")
    shares = play.keep_rates(sol)
    for courtier in ("Standard-Bearer", "Maiden", "Sentinel"):
        gaps = play.keep_gaps(sol, courtier)
        assert sum(g >= 0 for g in gaps) / len(gaps) == pytest.approx(shares[courtier])
