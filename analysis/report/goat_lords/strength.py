"""How strong the bots are: two-player head-to-head win rates."""

from __future__ import annotations

from analysis.goat_lords.studies.statistics import bot_win_rates
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords.records import MIN_GAMES, matches, scoring_words
from analysis.report.facts.goat_lords.results import results
from analysis.report.templating import fill


def lineup_words(m) -> str:
    """Who sat at the table: "`lord:432` against 3 × `greedy`" (``lord:N``: N simulations a move)."""
    return " against ".join(f"{t.games // m.games} × `{t.agent}`" if t.games > m.games
                            else f"`{t.agent}`" for t in m.totals())


def matchup_section(ctx: ReportContext) -> str:
    stored = [{"name": name, "lineup": lineup_words(m), "players": m.params.get("players", 2),
               "games": m.games, "scoring": scoring_words(m.params), "first": m.totals()[0]}
              for name, m in matches() if m.games >= MIN_GAMES]
    short = [(name, m.games) for name, m in matches() if m.games < MIN_GAMES]
    tournament = [{"label": exp.label, "games": len(df), "seed": exp.seed,
                   "rates": bot_win_rates(df).set_index("bot").loc[exp.bots[0]]}
                  for exp, df in results(ctx)["matchups"] if not df.empty]
    return fill("goat_lords/appendix/strength.md.j2", stored=stored, short=short,
                tournament=tournament, min_games=MIN_GAMES)
