"""Goat Lords for players: the rules the numbers use, what happens by table size, and rules
of thumb with their numbers."""

from __future__ import annotations

from analysis.goat_lords.plan import SCORINGS
from analysis.goat_lords.statistics import duel_success, game_length
from analysis.report.guides.common import GuideContext, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.guides.goat_lords import wilds
from analysis.report.markdown import pct_ci, pp
from analysis.shared.params import game_parameter_spec

VALUE_KINDS = ("goat_lord", "goatini", "goatacorn", "dragon", "kraken", "ninja", "tgoat",
               "fairy", "ghoast", "ladypug", "foodie", "fainting")


def parameter_rows(ctx: GuideContext) -> list[list[str]]:
    """The parameters the tournaments and the strongest agent's matches were played with."""
    spec = game_parameter_spec(R.GAME)
    greedy = R.greedy_tables(ctx.outdir)
    tour = spec | (greedy[0][0].game_params() if greedy else {})
    match = next((m for _, m in R.matches() if m.games >= R.MIN_GAMES), None)
    played = spec | (match.params if match else {})

    def values(p: dict) -> str:
        return "/".join(str(p[f"value_{k}"]) for k in VALUE_KINDS)

    rows = [["scoring of the greedy bots' tournaments", R.scoring_words(tour)],
            ["players", ", ".join(str(e.players) for e, _ in greedy) or "–"],
            ["duel answer (`duel_answer`)", f"`{tour['duel_answer']}`"],
            ["point values, Goat Lord/Goatini/Goat-a-Corn/the nine others", values(tour)]]
    if match is not None:
        rows.insert(1, ["scoring of the strongest agent's matches", R.scoring_words(played)])
    # Each answer switches to the strong agent's games on its own (the wild per scoring).
    parts = [("seats", None), *(("extra_wild", s) for s in SCORINGS), ("sensitivity", None)]
    strong = [R.strong_group(g, label) for g, label in parts]
    strong = [tables for tables in strong if tables is not None]
    if strong:
        scorings = sorted({exp.game_params()["scoring"] for tables in strong for exp, _ in tables})
        rows.insert(1, ["scoring of the answers from the strong agent's games",
                        "; ".join(R.scoring_words({"scoring": s}) for s in scorings)])
    return rows


def part(ctx: GuideContext) -> str:
    seats = R.seat_tables(ctx.outdir)
    tables = seats.one_round
    wf = wilds.facts(ctx)
    wild = {r["players"]: r for r in wf["rows"]}
    rows, thumbs = [], []
    duels = {}
    for exp, df in tables:
        d = duel_success(df)
        duels[exp.players] = d
        w = wild.get(exp.players)
        rows.append([f"{exp.players}", pct_ci(d["attacker_rate"], (d["lo"], d["hi"])),
                     f"{d['per_game']:.1f}", f"{game_length(df)['turns']:.0f}",
                     pp(w["win"], w["ci"]) if w else "–"])
    if duels:
        lo = min(duels.values(), key=lambda d: d["attacker_rate"])
        hi = max(duels.values(), key=lambda d: d["attacker_rate"])
        thumbs.append("Attack: duels go to the attacker "
                      f"{pct_ci(lo['attacker_rate'], (lo['lo'], lo['hi']))} to "
                      f"{pct_ci(hi['attacker_rate'], (hi['lo'], hi['hi']))} of the time (95% "
                      "intervals)"
                      + (", more at bigger tables." if hi is duels[max(duels)] else "."))
    if wild:
        thumbs.append(wilds.thumb(wf))
    return render("goat_lords/play.md.j2", parameters=parameter_rows(ctx), rows=rows,
                  thumbs=thumbs, games=R.games_words(tables), who=seats.who,
                  wild_who=wf["who"])
