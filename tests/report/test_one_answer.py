"""One answer per question: every place in the reports that gives a figure or a name for a
question (the first player's edge, the strongest villain or courtier, a wild's worth...)
gives the same one.

The registry below lists, for each place, how to read its claims: first from the facts
functions the guides and appendices render (``facts``), then, as a second line of
defence, from the rendered Markdown (the guide's rows and rules of thumb, the appendix
sections that state answers). A claim is ``(question, place, shown)``; the test fails
when two places give a question different figures or different names.

A figure given for another model than the answer's (the blueprint's own value, a
smaller battle, greedy bots) is labelled as such in the appendix (the phrases of
``LABELLED``), so it is not read as a claim on the question; the guides never show one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from analysis.report.cobardes.renewal_war import renewal_section
from analysis.report.cobardes.summary import summary_section as cobardes_summary
from analysis.report.context import ReportContext
from analysis.report.coup.from_the_deal import section_from_the_deal
from analysis.report.goat_lords.strong import strong_section
from analysis.report.goat_lords.summary import summary_section as goat_summary
from analysis.report.guides.cobardes import courtiers, villains
from analysis.report.guides.cobardes import first_player as cobardes_first_player
from analysis.report.guides.common import GuideContext
from analysis.report.guides.coup import first_player, hands, seats
from analysis.report.guides.goat_lords import duels, wilds
from analysis.report.guides.goat_lords import first_player as goat_first_player
from analysis.report.guides.write import GUIDES, render_guide
from analysis.report.markdown import pct, pct_ci, pp
from games import catalog
from games.coup.cards import DECKS, SETUPS

KEYS = ("coup", "cobardes", "goat_lords")
# A figure as shown: a point (a percentage, points, or a signed value) and its interval.
FIGURE = re.compile(r"([+-]?\d+(?:\.\d+)?)(?:%| pp)?(?: \[([^\]]+)\])?")
NAME = r"([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)"  # a card's name: one or two capitalised words
# How the appendix labels a figure of another model than the answer's: such a line is not
# a claim on the question (and the guides never show one).
LABELLED = ("not the guide's answer", "a simpler model than the guide's answer",
            "a smaller model than the guide's answer", "the blueprint's own value")


@dataclass(frozen=True)
class Claim:
    question: str
    place: str
    shown: str  # a figure ("51.1% [48.0, 54.2]") or a name ("Executioner")


@dataclass
class Reports:
    """What the reports say, rendered from the stored records into a temporary folder."""

    guide: dict[str, str]
    appendix: dict[str, str]
    outdir: Path


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Reports:
    out = tmp_path_factory.mktemp("one_answer")
    guide = {key: render_guide(GUIDES[key], out) for key in KEYS}

    def ctx(key: str) -> ReportContext:
        return ReportContext(catalog.family(key), out)

    appendix = {"coup": section_from_the_deal(ctx("coup")),
                "cobardes": cobardes_summary(ctx("cobardes")) + "\n"
                + renewal_section(ctx("cobardes")),
                "goat_lords": goat_summary(ctx("goat_lords")) + "\n"
                + strong_section(ctx("goat_lords"))}
    return Reports(guide, appendix, out)


def figure(text: str) -> tuple[float, str | None] | None:
    """The first figure of ``text``: its point and its interval (None: none shown)."""
    m = FIGURE.search(text)
    if m is None:
        return None
    interval = re.sub(r"\s+", "", m.group(2)) if m.group(2) else None
    return float(m.group(1)), interval


def answered(text: str, question: str) -> str:
    """What a guide of questions says under ``### question`` ("" where it does not ask it)."""
    parts = text.split(f"\n### {question}\n")
    return re.split(r"\n#{2,3} |\n\*\*About these numbers", parts[1])[0] if len(parts) == 2 else ""


def table(text: str, header_has: str) -> list[tuple[list[str], list[str]]]:
    """(header, cells) of each row of every Markdown table whose header holds ``header_has``."""
    out, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells if header_has in line else []
        elif header and not set(line) <= set("|-: "):
            out.append((header, cells))
    return out


# --- Coup: the first of two players' win rate, by deck and setup ------------------------

def coup_question(deck: str, setup: str) -> str:
    return f"Coup: first player's win rate, 2 players, {deck} deck, {setup} setup"


def coup_facts(r: Reports) -> list[Claim]:
    return [Claim(coup_question(d, s), "the answer's facts (first_player.facts)", f["headline"])
            for d in DECKS for s in SETUPS
            if (f := first_player.facts(d, s))["headline"] is not None and f["source"] != "bracket"]


FIRST = "Does the first player win more?"


def coup_guide(r: Reports) -> list[Claim]:
    """The first player's win rate at 2 players as the guide gives it: in its answer, in the
    table by player count (the rulebook's setup) and in the table by setup."""
    text, claims = r.guide["coup"], []
    first = answered(text, FIRST)
    if m := re.match(r"At 2 players the first player wins ([\d.]+% \[[^\]]+\])", first):
        claims.append(Claim(coup_question("ambassador", "basic"), "guide: first-player answer",
                            m.group(1)))
    for header, cells in table(first, "seat 1 wins"):
        if cells[0] == "2":
            for col, h in enumerate(header):
                deck = h.split(" deck")[0].lower()
                if h.endswith("seat 1 wins") and cells[col] != "–" and "(" not in cells[col]:
                    claims.append(Claim(coup_question(deck, "basic"),
                                        "guide: first-player table", cells[col]))
    words = {"the starting player takes 1 coin": "basic", "2 coins each": "standard",
             "drafted hands": "draft"}
    for header, cells in table(answered(text, "Which 2-player setup is fairest?"),
                               "first player wins"):
        for col, h in enumerate(header):
            if h.endswith("first player wins") and cells[col] != "–":
                claims.append(Claim(coup_question(h.split(" deck")[0].lower(), words[cells[0]]),
                                    "guide: setup table", cells[col]))
    return claims


def coup_appendix(r: Reports) -> list[Claim]:
    text, claims = r.appendix["coup"], []
    for header, cells in table(text, "first player wins"):
        col = next(i for i, h in enumerate(header) if "first player wins" in h)
        claims.append(Claim(coup_question(cells[0], cells[1]), f"appendix: table '{header[col]}'",
                            cells[col]))
    for _, cells in table(text, "win rate by seat"):
        m = re.fullmatch(r"2 players, (\w+) deck, (\w+) setup", cells[0])
        seat = re.search(r"(?:^|; )1: ([^;]+)", cells[-1])
        if m and seat:
            claims.append(Claim(coup_question(m.group(1).lower(), m.group(2)),
                                "appendix: seat win rates, seat 1", seat.group(1)))
    return claims


def seat_question(players: int, deck: str) -> str:
    return f"Coup: seat 1's win rate, {players} players, {deck} deck"


def coup_seat_facts(r: Reports) -> list[Claim]:
    return [Claim(seat_question(x["players"], d), "the answer's facts (seats.facts)",
                  pct_ci(x["first"].win_rate, x["first"].ci95))
            for d in DECKS for x in seats.facts(d)["rows"]]


def coup_seat_guide(r: Reports) -> list[Claim]:
    claims = []
    for header, cells in table(answered(r.guide["coup"], FIRST), "seat 1 wins"):
        if int(cells[0]) > 2:
            for col, h in enumerate(header):
                if h.endswith("seat 1 wins") and cells[col] != "–":
                    claims.append(Claim(seat_question(int(cells[0]), h.split(" deck")[0].lower()),
                                        "guide: first-player table", cells[col]))
    return claims


def coup_seat_appendix(r: Reports) -> list[Claim]:
    claims = []
    for _, cells in table(r.appendix["coup"], "win rate by seat"):
        m = re.fullmatch(r"(\d) players, (\w+) deck", cells[0])
        seat = re.search(r"(?:^|; )1: ([^;]+)", cells[-1])
        if m and seat and int(m.group(1)) > 2:
            claims.append(Claim(seat_question(int(m.group(1)), m.group(2).lower()),
                                "appendix: seat win rates, seat 1", seat.group(1)))
    return claims


HAND_BEST = "Coup: strongest starting hand, 2 players, ambassador deck, basic setup"
HAND_WORST = "Coup: weakest starting hand, 2 players, ambassador deck, basic setup"


def coup_hands(r: Reports) -> list[Claim]:
    """The strongest and weakest starting hands: the answer's facts, the guide's row and
    the appendix's line for the same table."""
    f, claims = hands.facts(), []
    if f["best"]:
        claims.append(Claim(HAND_BEST, "the answer's facts (hands.facts)", f["best"][0].hand))
    if f["worst"]:
        claims.append(Claim(HAND_WORST, "the answer's facts (hands.facts)", f["worst"][0].hand))
    for _, cells in table(answered(r.guide["coup"], "Which starting hands are strongest?"),
                          "strongest"):
        if cells[0] == "2":
            claims += [Claim(HAND_BEST, "guide: hands table", cells[2].split()[0]),
                       Claim(HAND_WORST, "guide: hands table", cells[3].split()[0])]
    for line in r.appendix["coup"].splitlines():
        if line.startswith("- Starting hands, 2 players, Ambassador deck, basic setup: "):
            best = re.search(r"best ([\w+]+)", line)
            worst = re.findall(r"([\w+]+) [\d.]+% \[", line.split("; worst ", 1)[-1])
            claims += [Claim(HAND_BEST, "appendix: starting hands", best.group(1)),
                       Claim(HAND_WORST, "appendix: starting hands", worst[-1])]
    return claims


# --- ¡Cobardes!: the strongest and weakest villain and courtier -------------------------

VILLAIN_BEST, VILLAIN_WORST = "¡Cobardes!: strongest villain", "¡Cobardes!: weakest villain"
COURTIER_BEST, COURTIER_WORST = "¡Cobardes!: strongest courtier", "¡Cobardes!: weakest courtier"


def cobardes_facts(r: Reports) -> list[Claim]:
    claims, place = [], "the answer's facts ({}.facts)"
    v = villains.facts()
    if v["headline"] is not None:
        values = v["v"].values
        claims += [Claim(VILLAIN_BEST, place.format("villains"),
                         f"{v['best']} {values[v['best']]:+.2f}"),
                   Claim(VILLAIN_WORST, place.format("villains"),
                         f"{v['worst']} {values[v['worst']]:+.2f}")]
    c = courtiers.facts()
    if c["headline"] is not None:
        claims += [Claim(COURTIER_BEST, place.format("courtiers"), c["best"]),
                   Claim(COURTIER_WORST, place.format("courtiers"), c["worst"])]
    return claims


def cobardes_guide(r: Reports) -> list[Claim]:
    text, claims = r.guide["cobardes"], []
    villain = answered(text, "Which villain is worth most?")
    if m := re.search(rf"The {NAME}: \*\*([+-]\d+\.\d+)\*\*", villain):
        claims.append(Claim(VILLAIN_BEST, "guide: villain answer", f"{m.group(1)} {m.group(2)}"))
    if m := re.search(rf"the {NAME} is worth least, ([+-]\d+\.\d+)", villain):
        claims.append(Claim(VILLAIN_WORST, "guide: villain answer", f"{m.group(1)} {m.group(2)}"))
    courtier = answered(text, "Which courtier is strongest?")
    # With villains the answer is a different war's; its war without villains (the
    # appendix's) follows.
    without = courtier.partition("Without villains (courtiers renewed, exact):")[2]
    if without:
        if m := re.search(rf"strongest {NAME} ", without):
            claims.append(Claim(COURTIER_BEST, "guide: courtier answer", m.group(1)))
        if m := re.search(rf"weakest {NAME} ", without):
            claims.append(Claim(COURTIER_WORST, "guide: courtier answer", m.group(1)))
    elif "with villains" not in courtier:
        if m := re.search(rf"^The {NAME}: it wins", courtier):
            claims.append(Claim(COURTIER_BEST, "guide: courtier answer", m.group(1)))
        if m := re.search(rf"The weakest: the {NAME},", courtier):
            claims.append(Claim(COURTIER_WORST, "guide: courtier answer", m.group(1)))
    return claims


def cobardes_appendix(r: Reports) -> list[Claim]:
    """Each finding in brief that names a villain worth most (least), or a courtier the
    strongest (weakest), with the value beside it where it gives one."""
    claims = []
    for line in r.appendix["cobardes"].splitlines():
        if any(label in line for label in LABELLED):
            continue
        place = "appendix: " + (re.search(r"\*\*([^*]+)\*\*", line) or [None, "?"])[1]
        best = re.search(rf"(?:the|Holding the) {NAME} is worth most \(([+-]\d+\.\d+)", line)
        worst = re.search(rf"worth most \([^()]*\), the {NAME} least \(([+-]\d+\.\d+)", line)
        if best:
            claims.append(Claim(VILLAIN_BEST, place, f"{best.group(1)} {best.group(2)}"))
        if worst:
            claims.append(Claim(VILLAIN_WORST, place, f"{worst.group(1)} {worst.group(2)}"))
        if m := re.search(rf"the {NAME} is the strongest", line):
            claims.append(Claim(COURTIER_BEST, place, m.group(1)))
        if m := re.search(rf"the {NAME} the weakest", line):
            claims.append(Claim(COURTIER_WORST, place, m.group(1)))
    return claims


COBARDES_FIRST = "¡Cobardes!: first player's war win probability"


def cobardes_first(r: Reports) -> list[Claim]:
    """The first player's war: the answer's facts, the guide's row, and the appendix's
    renewal war (player 0's war value v averaged over the deals, a win probability of
    (1 + v) / 2)."""
    claims = []
    f = cobardes_first_player.facts()
    if f["win"] is not None:
        claims.append(Claim(COBARDES_FIRST, "the answer's facts (first_player.facts)",
                            pct(f["win"])))
    first = answered(r.guide["cobardes"], "Does the first player win more?")
    # With villains first, the war without them (the appendix's) after it.
    without = re.search(r"Without villains \(courtiers renewed, exact\): ([\d.]+%)", first)
    alone = re.search(r"without villains the first player wins \*\*([\d.]+%)\*\*", first)
    if m := without or alone:
        claims.append(Claim(COBARDES_FIRST, "guide: first-player answer", m.group(1)))
    text = " ".join(r.appendix["cobardes"].split())
    if m := re.search(r"player 0's war value is ([+-]\d\.\d+) with renewal", text):
        claims.append(Claim(COBARDES_FIRST, "appendix: the war with renewal",
                            pct((1 + float(m.group(1))) / 2)))
    return claims


def cobardes_tiers(r: Reports) -> list[Claim]:
    """The renewal war's tier list in the appendix: its first and last courtier."""
    rows = [cells for _, cells in table(r.appendix["cobardes"], "P(win war), renewal")]
    if not rows:
        return []
    return [Claim(COURTIER_BEST, "appendix: tier list with renewal, first", rows[0][1]),
            Claim(COURTIER_WORST, "appendix: tier list with renewal, last", rows[-1][1])]


# --- Goat Lords: what one more wild in the opening hand is worth ------------------------

def wild_question(scoring: str, players: int) -> str:
    game = "the rulebook's game" if scoring == "rounds" else "one round"
    return f"Goat Lords: one more wild's worth, {game}, {players} players"


def goat_facts(r: Reports) -> list[Claim]:
    f = wilds.facts(GuideContext("goat_lords", r.outdir))
    place = "the answer's facts (wilds.facts)"
    return ([Claim(wild_question("rounds", x["players"]), place, pp(x["win"], x["ci"]))
             for x in f["rulebook"]]
            + [Claim(wild_question("single", x["players"]), place, pp(x["win"], x["ci"]))
               for x in f["rows"]])


def wild_claims(text: str, place: str, rulebook: bool) -> list[Claim]:
    """Figures given for the wild in ``text``: before "one round" they answer the
    headline (the rulebook's game where measured), after it one round."""
    claims = []
    split = re.split(r"(?i)\bin one round\b|\bone round \(`scoring=single`\)", text, maxsplit=1)
    for k, part in enumerate(split):
        scoring = "single" if k or not rulebook else "rounds"
        for n, shown in re.findall(r"(\d)p ([+-]\d+\.\d pp(?: \[[^\]]+\])?)", part):
            claims.append(Claim(wild_question(scoring, int(n)), place, shown))
        for shown, n in re.findall(r"([+-]\d+\.\d pp(?: \[[^\]]+\])?)(?: of win rate)? at "
                                   r"(\d) players", part):
            claims.append(Claim(wild_question(scoring, int(n)), place, shown))
    return claims


WILD = "What is one more wild worth?"


def goat_guide(r: Reports) -> list[Claim]:
    block = answered(r.guide["goat_lords"], WILD)
    paragraph = block.split("\n\n")[0]
    claims = wild_claims(paragraph, "guide: wild answer", "rulebook" in paragraph)
    for header, cells in table(block, "win rate gained"):
        for col, h in enumerate(header):
            if h.endswith("win rate gained") and cells[col] not in ("–", ""):
                scoring = "rounds" if h.startswith("rulebook") else "single"
                claims.append(Claim(wild_question(scoring, int(cells[0])),
                                    f"guide: wild table ({h})", cells[col]))
    return claims


def goat_appendix(r: Reports) -> list[Claim]:
    text, claims = r.appendix["goat_lords"], []
    rulebook = any(c.question == wild_question("rounds", 2) for c in goat_facts(r))
    for line in text.splitlines():
        if line.startswith("- **The guide's answer") and "wild" in line:
            claims += wild_claims(line, "appendix: the guide's answer", rulebook)
    for header, cells in table(text, "gained over the fair share"):
        if header[0] == "scoring":
            col = header.index("gained over the fair share")
            claims.append(Claim(wild_question(cells[0], int(cells[1])),
                                "appendix: strong agent's wild table", cells[col]))
    return claims


def seat_edge_question(scoring: str, players: int) -> str:
    game = "the rulebook's game" if scoring == "rounds" else "one round"
    return f"Goat Lords: the first seat's edge over its fair share, {game}, {players} players"


def duel_question(scoring: str, players: int) -> str:
    game = "the rulebook's game" if scoring == "rounds" else "one round"
    return f"Goat Lords: the attacker's share of duels, {game}, {players} players"


def goat_tables(r: Reports) -> list[Claim]:
    """The first seat's edge and the duels: the answers' facts, the guide's rows (the main
    scoring, then "With one round"), the appendix's table of the strong agent."""
    gctx = GuideContext("goat_lords", r.outdir)
    edge, duel, claims = goat_first_player.facts(gctx), duels.facts(gctx), []
    for rows, other, question, shown in (
            (edge["rows"], edge["other"], seat_edge_question, lambda x: pp(x["edge"], x["ci"])),
            (duel["rows"], duel["other"], duel_question, lambda x: pct_ci(x["rate"], x["ci"]))):
        for x in rows + other:
            scoring = x["params"]["scoring"] if x in rows else "single"
            claims.append(Claim(question(scoring, x["players"]),
                                "the answer's facts (first_player.facts, duels.facts)", shown(x)))
    main = edge["rows"][0]["params"]["scoring"] if edge["rows"] else "single"
    text = r.guide["goat_lords"]
    for title, question, header_has in (
            ("Does the first player win more?", seat_edge_question, "seat 1 − fair share"),
            ("Do duels favour the attacker?", duel_question, "attacker wins a duel")):
        for header, cells in table(answered(text, title), header_has):
            for col, h in enumerate(header):
                if col and ("fair share" in h and "seat 1" in h or h in (
                        "attacker wins a duel", "in one round")) and cells[col] != "–":
                    scoring = "single" if ("one round" in h or h == "in one round") else main
                    claims.append(Claim(question(scoring, int(cells[0])),
                                        f"guide: {title} table ({h})", cells[col]))
    for header, cells in table(r.appendix["goat_lords"], "attacker wins a duel"):
        if header[:2] != ["scoring", "players"]:
            continue
        edge_at, duel_at = header.index("first seat − fair"), header.index("attacker wins a duel")
        claims += [Claim(seat_edge_question(cells[0], int(cells[1])),
                         "appendix: strong agent's table", cells[edge_at]),
                   Claim(duel_question(cells[0], int(cells[1])),
                         "appendix: strong agent's table", cells[duel_at])]
    return claims


PLACES: dict[str, list[Callable[[Reports], list[Claim]]]] = {
    "coup": [coup_facts, coup_guide, coup_appendix, coup_seat_facts, coup_seat_guide,
             coup_seat_appendix, coup_hands],
    "cobardes": [cobardes_facts, cobardes_guide, cobardes_appendix, cobardes_first,
                 cobardes_tiers],
    "goat_lords": [goat_facts, goat_guide, goat_appendix, goat_tables],
}


def split(shown: str) -> tuple[str, tuple[float, str | None] | None]:
    """A claim as (name, figure): ``"Executioner +0.33"`` -> ("Executioner", (0.33, None)),
    ``"51.1% [48.0, 54.2]"`` -> ("", (51.1, "48.0,54.2"))."""
    m = re.match(r"^(\D*?)\s*([+-]?\d.*)?$", shown)
    name, rest = m.group(1).strip(), m.group(2)
    return name, figure(rest) if rest else None


def same(a: str, b: str) -> bool:
    """Two claims agree: the same name, and the same figure (and interval where both
    show one); a name with a value agrees with the same name without it."""
    (name_a, fa), (name_b, fb) = split(a), split(b)
    if name_a != name_b:
        return False
    if fa is None or fb is None:
        return True
    return fa[0] == fb[0] and (fa[1] is None or fb[1] is None or fa[1] == fb[1])


def contradictions(claims: list[Claim]) -> list[str]:
    """One line for each question two places answer differently."""
    by_question: dict[str, list[Claim]] = defaultdict(list)
    for c in claims:
        by_question[c.question].append(c)
    found = []
    for question, said in sorted(by_question.items()):
        if any(not same(a.shown, b.shown) for a in said for b in said):
            found.append(f"{question}: " + "; ".join(f"{c.place} says {c.shown!r}" for c in said))
    return found


@pytest.mark.parametrize("key", KEYS)
def test_every_place_gives_the_same_answer(reports, key):
    claims = [c for place in PLACES[key] for c in place(reports)]
    problems = contradictions(claims)
    assert not problems, "Different answers to one question:\n" + "\n".join(problems)


@pytest.mark.parametrize("key", KEYS)
def test_each_question_is_read_in_the_guide_and_the_appendix(reports, key):
    """The check is not empty: each question with an answer is read from the facts and
    from at least one rendered place besides."""
    claims = [c for place in PLACES[key] for c in place(reports)]
    facts = {c.question for c in claims if c.place.startswith("the answer's facts")}
    assert facts
    for question in facts:
        places = {c.place for c in claims if c.question == question}
        assert len(places) >= 2, f"{question}: read only from {places}"
    shown = {c.question for c in claims if not c.place.startswith("the answer's facts")}
    assert facts & shown


@pytest.mark.parametrize("key", ("coup", "goat_lords"))
def test_the_guides_figures_carry_their_interval(reports, key):
    """Every figure the guide gives for these questions is shown with its 95% interval."""
    bare = [c for place in PLACES[key] for c in place(reports)
            if c.place.startswith("guide") and (f := figure(c.shown)) is not None
            and f[1] is None]
    assert not bare, f"figures without their interval: {bare}"


def test_the_proven_range_holds_the_coup_answer():
    """The whole game's proven range (shown in the appendix) holds the first player's win
    rate the guide gives, for every deck and setup with both."""
    ranges = first_player.R.brackets()
    for deck in DECKS:
        for setup in SETUPS:
            f = first_player.facts(deck, setup)
            if (setup, deck) in ranges and f["win"] is not None:
                lo, hi, _ = ranges[(setup, deck)]
                assert lo <= f["win"] <= hi, (deck, setup, f["headline"], lo, hi)


@pytest.mark.parametrize("key", KEYS)
def test_other_models_figures_are_in_the_appendix_only(reports, key):
    """A figure labelled as another model's (not the answer) appears in the appendix only,
    and where it does the appendix also gives the answer."""
    assert not [label for label in LABELLED if label in reports.guide[key]]
    if any(label in reports.appendix[key] for label in LABELLED):
        assert "guide" in reports.appendix[key] and any(
            c.place.startswith("appendix") for place in PLACES[key] for c in place(reports))


def test_the_check_catches_two_answers():
    """Different figures, different intervals or different names are caught; the same
    answer said with or without its value is not."""
    q = "a question"
    assert contradictions([Claim(q, "a", "51.7%"), Claim(q, "b", "51.1% [48.0, 54.2]")])
    assert contradictions([Claim(q, "a", "51.1% [48.0, 54.2]"), Claim(q, "b", "51.1% [47.0, 54.2]")])
    assert contradictions([Claim(q, "a", "Executioner +0.33"), Claim(q, "b", "Thug +0.35")])
    assert contradictions([Claim(q, "a", "Executioner +0.33"), Claim(q, "b", "Executioner +0.37")])
    assert contradictions([Claim(q, "a", "+1.7 pp [-0.7, +4.2]"), Claim(q, "b", "+3.4 pp")])
    assert not contradictions([Claim(q, "a", "51.1% [48.0, 54.2]"), Claim(q, "b", "51.1%")])
    assert not contradictions([Claim(q, "a", "Squire"), Claim(q, "b", "Squire")])
    assert not contradictions([Claim(q, "a", "Executioner +0.33"), Claim(q, "b", "Executioner")])
