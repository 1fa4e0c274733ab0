"""Balance questions: the value of each character and of moving first."""

from __future__ import annotations

from analysis.coup import model
from analysis.coup.studies import balance, bluffing, larger
from analysis.report.context import ReportContext
from analysis.report.coup.tables import solver_note
from analysis.report.facts.coup.readers import endgame_records
from analysis.report.templating import fill
from analysis.shared.store import read_rows


def section_balance(ctx: ReportContext) -> str:
    records = endgame_records()
    if not records:
        return fill("coup/appendix/balance.md.j2", note="")
    caps_study = read_rows(model.data_dir("cap_study.json"))  # a damaged file is refused
    caps = []
    for cap in (2, 3):
        one = caps_study.get(f"inquisitor_contessa-contessa_m1_o2_cap{cap}")
        two = caps_study.get(f"inquisitor_contessa-contessa_m2_o2_cap{cap}")
        if one and two:
            caps.append((cap, one, two))
    dd = balance.deck_difference(records)
    try:
        rows = larger.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        rows = {}
    return fill("coup/appendix/balance.md.j2", note=solver_note(bluffing.frame(records)),
                first_player=list(balance.first_player(records).itertuples()), caps=caps,
                decks=None if dd.empty else dd["ambassador_minus_inquisitor"],
                opening=list(balance.opening(rows).itertuples()))
