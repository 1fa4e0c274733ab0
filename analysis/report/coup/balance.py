"""Balance questions: the value of each character and of moving first."""

from __future__ import annotations

from analysis.coup import model
from analysis.coup.studies import balance, bluffing, larger
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, solver_note
from analysis.report.guides.coup.readers import endgame_records
from analysis.shared.store import read_rows


def section_balance(ctx: ReportContext) -> str:
    records = endgame_records()
    lines = ["## Balance\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet."])
    note = solver_note(bluffing.frame(records))
    fp = balance.first_player(records)
    lines.append(f"On the 1v1 endgames ({note}):\n")
    lines.append("| deck | mover value, equal coins (mean) | P(win) | P(lose) | "
                 "value 1 coin vs 2 | value 2 vs 2 |")
    lines.append("|---|---|---|---|---|---|")
    for r in fp.itertuples():
        lines.append(f"| {r.deck} | {fmt(r.mean_mover_value_equal_coins, '+.3f')} | "
                     f"{fmt(r.mover_win_equal_coins)} | {fmt(r.mover_lose_equal_coins)} | "
                     f"{fmt(r.value_1_vs_2, '+.3f')} | {fmt(r.value_2_vs_2, '+.3f')} |")
    caps = read_rows(model.data_dir("cap_study.json"))  # a damaged file is refused
    for cap in (2, 3):
        one = caps.get(f"inquisitor_contessa-contessa_m1_o2_cap{cap}")
        two = caps.get(f"inquisitor_contessa-contessa_m2_o2_cap{cap}")
        if one and two:
            lines.append(
                f"\nCap {cap}, Inquisitor: mover with 1 coin against 2: value "
                f"{one['value']:+z.4f} (win {one['win']:z.3f}, draw {one['draw']:z.3f}; "
                f"{one['iterations']} iterations, exploitability {one['exploitability']:z.1e}); "
                f"with 2 against 2: {two['value']:+z.4f} (win {two['win']:z.3f}, draw "
                f"{two['draw']:z.3f}; {two['iterations']} iterations, exploitability "
                f"{two['exploitability']:z.1e}).")
    dd = balance.deck_difference(records)
    if not dd.empty:
        v = dd["ambassador_minus_inquisitor"]
        lines.append(
            f"\nAmbassador minus Inquisitor, mover value per coin pair: mean {v.mean():+z.3f}, "
            f"range {v.min():+z.3f} to {v.max():+z.3f} over {len(v)} pairs.\n")
    try:
        rows = larger.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        rows = {}
    op = balance.opening(rows)
    if not op.empty:
        lines.append("The full 2-player game's opening (2v2 influence): 1-coin rule "
                     "(`?+?/-/1;?+?/-/2`) against 2 coins each, as far as the engine reaches:\n")
        lines.append("| case | deck | cap | status | est. histories | value | iterations | "
                     "exploitability |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for r in op.itertuples():
            lines.append(f"| {r.case} | {r.deck} | {r.turn_cap} | {r.status} | "
                         f"{r.estimated_tree_nodes:z.3g} | {fmt(r.tree_value, '+.4f')} | "
                         f"{fmt(r.tree_iterations, '.0f')} | {fmt(r.tree_exploitability, '.1e')} |")
        lines.append(
            "\nWith two cards each almost nothing is decided within the one or two turns that "
            "fit (the values are ~0), so the full game's first-player advantage is not "
            "measurable by exact solving here; the endgame figures above are the measurable "
            "part.\n")
    return "\n".join(lines)
