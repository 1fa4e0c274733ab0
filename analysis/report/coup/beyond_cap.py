"""Beyond the cap: the state-keyed estimates where the brackets are still wide."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.coup import model
from analysis.coup.studies import abstraction as A
from analysis.coup.studies import sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, heatmaps


def _abstraction_frame(records: list[A.Estimate]):
    """One row per estimate record. The rigorous bracket is read from the bracket records
    on disk now (brackets solved after the estimate narrow it); the record's own copy is
    the fallback."""
    rows = []
    for r in records:
        solved = [c for c in r.caps if c["status"] == "solved"]
        last = solved[-1] if solved else {}
        loss = r.loss or {}
        b = A.bracket_of(r.endgame) or r.bracket or {}
        where = A.compare(r.win, b) if b and r.win is not None else {}
        rows.append({
            "deck": r.endgame.deck, "mover": r.endgame.mover_coins,
            "other": r.endgame.other_coins, "win": r.win, "cap": r.estimate_cap,
            "converged": r.converged, "stopped": r.stopped, "change": r.change,
            "caps": solved, "nodes": last.get("nodes"), "iterations": last.get("iterations"),
            "exploitability": last.get("exploitability"),
            "lower_win": b.get("lower_win"), "upper_win": b.get("upper_win"),
            "bracket_caps": f"{b['lower_cap']}/{b['upper_cap']}" if b else None,
            "inside": where.get("inside"), "outside_by": where.get("outside_by"),
            "loss": loss.get("loss"), "exact_win": loss.get("exact_win"),
            "abstract_win_in_tree": (1 + loss["abstract_value_in_tree"]) / 2 if loss else None,
            "tree_iterations": loss.get("tree_iterations"),
            "tree_exploitability": loss.get("tree_exploitability"),
            "loss_iterations": (loss.get("abstraction") or {}).get("iterations"),
            "loss_exploitability": (loss.get("abstraction") or {}).get("exploitability"),
            "seconds": r.seconds,
        })
    return pd.DataFrame(rows)


def abstraction_bullet() -> list[str]:
    """The findings' line on the state-keyed estimate (empty without data)."""
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return []
    df = _abstraction_frame(records)
    inside = df.dropna(subset=["inside"])
    zero, sides = [], set()
    for r in df[(df["mover"] == 0) & (df["other"] == 0)].sort_values("deck").itertuples():
        side, margin = _favoured_side(r)
        zero.append(f"{r.deck} {r.win:z.2f} ± {margin:z.2f}")
        sides.add(side)
    verdict = {"mover": "the player to move is favoured beyond that uncertainty",
               "other": "the other player is favoured beyond that uncertainty",
               "none": "no side is clearly favoured at that accuracy"}
    call = verdict[sides.pop()] if len(sides) == 1 else "the decks disagree"
    closed = _closed_since(df)
    since = ""
    if len(closed):
        since = (f"; {len(closed)} of them have closed since, and there the estimate is within "
                 f"{closed['miss'].max():z.1e} of the value in win probability")
    return [
        f"- **Beyond the cap (an estimate, not exact)**: the state-keyed abstraction solved "
        f"at caps up to {int(df['cap'].max())} for {len(df)} wide-bracket endgames (every "
        f"endgame whose bracket was wider than 0.001{since}): "
        f"{int(inside['inside'].astype(bool).sum())} of {len(inside)} "
        f"estimates lie inside their rigorous brackets, {int(df['converged'].sum())} converged "
        f"in the cap, and the abstraction's loss at cap 3 is {df['loss'].median():z.2f} "
        "(median exploitability in the exact tree). The mover's estimated P(win) at 0/0: "
        + "; ".join(zero) + f": {call} (see *Beyond the cap*)."] + _memory_bullet(df)


def _nodes_at(caps: list[dict], cap: int) -> int | None:
    return next((c["nodes"] for c in caps if c["cap"] == cap), None)


def _growth_words(df) -> str:
    """How fast the memory-keyed and plain graphs grow, from the records' node counts
    (``caps``: memory keys, ``caps_plain``: plain keys, merged per endgame)."""
    memory, plain = [], []
    for r in df.itertuples():
        m4, m5 = _nodes_at(r.caps, 4), _nodes_at(r.caps, 5)
        if m4 and m5:
            memory.append(m5 / m4)
        caps_plain = r.caps_plain if isinstance(r.caps_plain, list) else []
        p4, p8 = _nodes_at(caps_plain, 4), _nodes_at(caps_plain, 8)
        if p4 and p8:
            plain.append((p8 / p4) ** 0.25)
    if not memory or not plain:
        return "the memory-keyed graph grows much faster with the cap"
    return (f"from cap 4 to 5 the memory-keyed graph grows x{np.median(memory):z.1f} "
            f"(median), where the plain graph grows x{np.median(plain):z.1f} a turn from cap 4 "
            "to 8 and more slowly after")


def _memory_bullet(plain) -> list[str]:
    """The findings' line on the memory keys (empty without data)."""
    records = A.cached(model.data_dir("abstraction_memory"))
    if not records:
        return []
    df = _abstraction_frame(records).merge(plain, on=["deck", "mover", "other"],
                                           suffixes=("", "_plain"))
    df = df.dropna(subset=["loss", "loss_plain"])
    if not len(df):
        return []
    return [
        "- **Most of that loss is forgetting**: keys that also remember each player's "
        "claims since their hand last changed and the cards an examination showed cut the "
        f"loss at cap 3 from {df['loss_plain'].median():z.3f} to {df['loss'].median():z.3f} "
        f"(median over {len(df)} wide endgames), but their graph grows about x3-4 a turn, "
        "so they reach caps of 5-6 only (see *Remembering claims and sightings*)."]


_STOP_WORDS = {"caps exhausted": "largest cap tried", "time limit": "endgame's time limit",
               "over the node limit": "node limit"}


def section_abstraction(ctx: ReportContext) -> str:
    """Beyond the cap: the state-keyed abstraction's estimate where the brackets are wide."""
    lines = ["## Beyond the cap: the state-keyed estimate\n"]
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup abstraction`."])
    df = _abstraction_frame(records)
    pairs = ", ".join(f"{a}/{b}" for a, b in sorted(set(zip(df["mover"], df["other"],
                                                             strict=True))))
    wide = A.scope(pairs=[(a, b) for a in sweep.COINS for b in sweep.COINS])
    closed = _closed_since(df)
    params = records[0].parameters
    lines += [
        "Where the rigorous brackets above are still wide, this is the best available "
        "answer, **an estimate, not an exact value**. The endgame is solved in the *state-keyed "
        "abstraction* (the engine's graph mode: a player's information is their own card plus "
        "the public position, turn number included, so the order of past claims is "
        "forgotten), whose size grows about linearly with the turn cap, so caps of 16-32 "
        "turns fit where the perfect-recall tree stops at 3-4. The cap pays 0, as a game "
        "that never ends does in the uncapped definition. The caps "
        f"{', '.join(map(str, params['caps']))} are tried in turn until the value moves by "
        f"less than {params['value_tolerance']:zg} (in value, ±1) between consecutive caps, "
        f"or the graph passes {params['max_graph_nodes']:,} nodes, or the endgame has spent "
        f"{params['seconds_per_endgame']:z.0f} s; each cap is solved with CFR+ to "
        f"exploitability {params['target']:zg} within the abstraction or "
        f"{params['max_iterations']:,} iterations or {params['seconds_per_solve']:z.0f} s.",
        "",
        "What it is not: an equilibrium of Coup. Forgetting past claims changes the game; "
        "under imperfect recall CFR+ has no convergence guarantee (a max-min and a min-max "
        "in behaviour strategies may differ), and the engine's best response in the "
        "abstraction is only a lower bound, so the *exploitability within the abstraction* "
        "below is a lower bound too (it can even be negative). Two checks say how much to "
        "trust it: **the loss at cap 3**, where the perfect-recall tree still fits (the "
        "cap-3 abstract strategy played in the exact cap-3 tree: its exploitability there, "
        "by exact best response, beside the tree's exact value), and **the rigorous "
        "bracket** (the intersection of the brackets of every cap on disk): an estimate "
        "outside it is wrong by at least the distance shown.",
        "",
        f"Scope: every endgame, both decks, whose rigorous bracket is wider than 0.001: "
        f"{len(df) - len(closed)} of the {len(wide)} such endgames are estimated (mover/other "
        f"coin pairs {pairs})" + _closed_since_words(closed) + ". They took "
        f"{df['seconds'].sum() / 60:z.0f} CPU-minutes ({df['seconds'].mean():z.0f} s an "
        "endgame).",
        "",
    ]
    conv = int(df["converged"].sum())
    inside = df.dropna(subset=["inside"])
    n_in = int(inside["inside"].astype(bool).sum())
    loss = df.dropna(subset=["loss"])
    reasons = df.loc[~df["converged"].astype(bool), "stopped"].value_counts()
    why = ", ".join(f"{n} at the {_STOP_WORDS.get(k, k)}" for k, n in reasons.items())
    lines.append(
        f"**In numbers.** {conv} of {len(df)} estimates converged in the cap (value moved "
        f"< {params['value_tolerance']:zg} between the last two caps)"
        + (f"; the others stopped ({why}), and their last change is shown" if why else "")
        + ". "
        f"{n_in} of {len(inside)} estimates lie inside their rigorous bracket"
        + (f" (the others miss by up to {inside['outside_by'].max():z.3f} in win probability)"
           if n_in < len(inside) else "") + ". "
        + (f"The loss at cap 3 is {loss['loss'].median():z.3f} (median; range "
           f"{loss['loss'].min():z.3f}-{loss['loss'].max():z.3f}) as an exploitability in value "
           "(±1) units: the abstract strategies can be beaten by that much, and a profile "
           "exploitable by e has a value within 2e of the game's, i.e. within e in win "
           "probability. The exploitability "
           "within the abstraction at the last cap is "
           f"{df['exploitability'].min():z.1e} to {df['exploitability'].max():z.1e}: the "
           "estimate's error is of the order of these, not of the solver's target."
           if len(loss) else ""))
    if len(loss):
        gap = (loss["abstract_win_in_tree"] - loss["exact_win"]).abs()
        lines.append(
            "\nThe value itself fares better than the strategies: at cap 3 the abstract "
            "profile's value in the exact tree is within "
            f"{gap.max():z.1e} of the exact cap-3 P(win) (median {gap.median():z.1e}), where "
            "the loss alone would allow up to the loss itself. Caveat on *converged*: at "
            "the largest caps CFR+ ran "
            f"{int(df['iterations'].min())}-{int(df['iterations'].max())} iterations within "
            "its time cap, so two caps agreeing to 0.001 can be the solver's noise agreeing; "
            "the change between caps is a floor on the uncertainty, not a bound.")
    sizes = []
    for row in df[df["mover"] == df["other"]].itertuples():
        if row.mover in (0, 3):
            caps = ", ".join(f"cap {c['cap']}: {c['nodes']:,}" for c in row.caps)
            sizes.append(f"{row.deck} {row.mover}/{row.other}: {caps}")
    if sizes:
        lines.append("\nGraph sizes (nodes) by cap: " + "; ".join(sizes) + ".")
    img = heatmaps(ctx, df, "win", "estimated P(mover wins)", "abstraction_win", "RdBu",
                   0.0, 1.0)
    lines.append(f"\n![state-keyed estimate over coins]({img})\n")
    lines += [
        "Per endgame: the estimate (mover's win probability, a never-ending game counted "
        "as half) at its last cap, the values at each cap solved, the rigorous bracket "
        "(caps of its lower/upper end), the loss at cap 3 with the exact cap-3 value and "
        "the abstract strategy's value in the cap-3 tree, and the solver figures of the "
        "last cap (iterations, exploitability within the abstraction).\n",
        "| deck | mover | other | estimate | cap (stop) | P(win) by cap | last change of P(win) | "
        "bracket (caps) | inside? | loss at cap 3 | exact cap-3 P(win) | abstract in cap-3 "
        "tree | iterations | expl. in abstraction |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in df.sort_values(["deck", "mover", "other"]).itertuples():
        by_cap = ", ".join(f"{(1 + c['value']) / 2:z.3f}" for c in r.caps)
        stop = "converged" if r.converged else _STOP_WORDS.get(r.stopped, r.stopped)
        where = ("inside" if r.inside else f"outside by {r.outside_by:z.3f}") \
            if r.inside is not None else "–"
        lines.append(
            f"| {r.deck} | {r.mover} | {r.other} | {fmt(r.win)} | {r.cap} ({stop}) | "
            f"{by_cap} | {fmt(r.change, '.4f')} | {fmt(r.lower_win)}-{fmt(r.upper_win)} "
            f"({r.bracket_caps}) | {where} | {fmt(r.loss, '.3f')} | {fmt(r.exact_win)} | "
            f"{fmt(r.abstract_win_in_tree)} | {r.iterations} | {r.exploitability:z.1e} |")
    lines.append(
        f"\n(solver: {A.SOLVER}, cap payoff 0; the loss and the exact cap-3 value: "
        f"{A.TREE_SOLVER}, "
        + (f"{int(loss['tree_iterations'].min())}-{int(loss['tree_iterations'].max())} "
           f"iterations, exploitability at most {loss['tree_exploitability'].max():z.1e}; "
           f"the cap-3 abstraction {int(loss['loss_iterations'].min())}-"
           f"{int(loss['loss_iterations'].max())} iterations"
           if len(loss) else "not measured") + ". Win probabilities are (1 + value) / 2; "
        "the loss is an exploitability, in value units.)\n")
    lines.append("\n\n".join(_favoured(df)))
    return "\n".join(lines) + "\n"


def section_memory_keys(ctx: ReportContext) -> str:
    """The claim-memory abstraction beside the plain one: how much the forgetting costs."""
    lines = ["### Remembering claims and sightings\n"]
    records = A.cached(model.data_dir("abstraction_memory"))
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup abstraction --keys memory`."]) + "\n"
    memory = _abstraction_frame(records)
    plain = _abstraction_frame(A.cached(model.data_dir("abstraction")))
    on = ["deck", "mover", "other"]
    df = memory.merge(plain, on=on, how="left", suffixes=("", "_plain"))
    params = records[0].parameters
    both = df.dropna(subset=["loss", "loss_plain"])
    lines += [
        "Most of the estimate's loss is what the plain keys forget. The *memory keys* "
        "(`farol coup abstraction --keys memory`, `games.coup.walker.MemoryWalker`) add "
        "to each key the characters each player has claimed (turn actions and blocks) "
        "since their hand last changed in public view (a lost card, a proven claim, an "
        "exchange, a forced swap), and the card an Inquisitor's examination showed, "
        "known to the examiner and the examined until that hand changes. The price is "
        f"size: {_growth_words(df)}, so the memory keys are solved at caps "
        f"{', '.join(map(str, params['caps']))} only (same limits and solver settings as "
        "above), far from where the low-coin values settle. What they show is how good a "
        "strategy a state-keyed abstraction can give: **the loss at cap 3**, measured "
        "exactly as above.",
        "",
    ]
    if len(both):
        better = int((both["loss"] < both["loss_plain"]).sum())
        lines.append(
            f"**In numbers** ({len(df)} endgames, the widest brackets): the loss at cap 3 "
            f"drops from {both['loss_plain'].median():z.3f} (median, plain keys; largest "
            f"{both['loss_plain'].max():z.3f}) to {both['loss'].median():z.3f} (memory keys; "
            f"largest {both['loss'].max():z.3f}), lower in {better} of {len(both)}. The "
            "memory-keyed value at cap 3 played in the exact tree is within "
            f"{(both['abstract_win_in_tree'] - both['exact_win']).abs().max():z.1e} of the "
            "exact cap-3 P(win).")
    lines += [
        "",
        "| deck | mover | other | loss at cap 3, plain | loss at cap 3, memory | exact cap-3 "
        "P(win) | memory abstraction in cap-3 tree | memory P(win) by cap | memory graph "
        "nodes (last cap) | plain estimate (cap) | bracket | iterations | expl. in "
        "abstraction |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in df.sort_values(on).itertuples():
        by_cap = ", ".join(f"{c['cap']}: {(1 + c['value']) / 2:z.3f}" for c in r.caps)
        plain_est = (f"{fmt(r.win_plain)} ({r.cap_plain:z.0f})"
                     if r.win_plain is not None and not np.isnan(r.win_plain) else "–")
        lines.append(
            f"| {r.deck} | {r.mover} | {r.other} | {fmt(r.loss_plain, '.3f')} | "
            f"{fmt(r.loss, '.4f')} | {fmt(r.exact_win)} | {fmt(r.abstract_win_in_tree)} | "
            f"{by_cap} | {fmt(r.nodes, ',.0f')} | {plain_est} | "
            f"{fmt(r.lower_win)}-{fmt(r.upper_win)} | {r.iterations} | "
            f"{fmt(r.exploitability, '.1e')} |")
    memory_loss = df.dropna(subset=["loss"])
    lines.append(
        f"\n(solver: {A.MEMORY_SOLVER}, cap payoff 0, CFR+ to exploitability "
        f"{params['target']:zg} within the abstraction or {params['max_iterations']:,} "
        f"iterations or {params['seconds_per_solve']:z.0f} s a cap; the loss: the cap-3 "
        f"abstraction ({int(memory_loss['loss_iterations'].min())}-"
        f"{int(memory_loss['loss_iterations'].max())} iterations) played in the "
        f"perfect-recall tree, exact best response; exact cap-3 values: {A.TREE_SOLVER}, "
        f"exploitability at most {memory_loss['tree_exploitability'].max():z.1e}. "
        f"{df['seconds'].sum() / 60:z.0f} CPU-minutes in all.)\n"
        if len(memory_loss) else "\n")
    return "\n".join(lines) + "\n"


def _closed_since(df):
    """The estimates (rows of :func:`_abstraction_frame`) whose endgame's bracket has
    closed since they were made, with the value now known (``value``, the bracket's
    midpoint) and the estimate's ``miss``, both in win probability."""
    closed = df[(df["upper_win"] - df["lower_win"]) <= A.CONVERGED_WIDTH].copy()
    closed["value"] = (closed["lower_win"] + closed["upper_win"]) / 2
    closed["miss"] = (closed["win"] - closed["value"]).abs()
    return closed


def _closed_since_words(closed) -> str:
    """The estimates of :func:`_closed_since` set beside the value now known: a check of
    the estimate where the truth is known."""
    if not len(closed):
        return ""
    items = [f"{r.deck} {r.mover}/{r.other}: estimate {r.win:z.3f}, value {r.value:z.3f}"
             for r in closed.sort_values(["deck", "mover", "other"]).itertuples()]
    return (f"; {len(closed)} more were estimated while their bracket was open and it has "
            "closed since (a larger cap), which checks the estimate where the value is now "
            f"known: {'; '.join(items)} (largest miss {closed['miss'].max():z.1e} in win "
            "probability)")


def _favoured_side(r) -> tuple[str, float]:
    """Whom one estimate favours (``"mover"``, ``"other"`` or ``"none"``) against its own
    uncertainty, and that uncertainty: the larger of the last change between caps (in win
    probability) and the loss at cap 3 (a profile with exploitability e has a value within
    2e of the game's, i.e. within e in win probability)."""
    margin = max(r.change or 0.0, r.loss or 0.0)
    side = "none" if abs(r.win - 0.5) <= margin else "mover" if r.win > 0.5 else "other"
    return side, margin


def _favoured(df) -> list[str]:
    """Who the estimate favours at equal coins, per deck (:func:`_favoured_side`)."""
    words = {"mover": "the player to move", "other": "the other player",
             "none": "neither, within the uncertainty"}
    out = []
    for deck, g in df[df["mover"] == df["other"]].groupby("deck"):
        groups: dict[str, list[str]] = {words[k]: [] for k in ("mover", "other", "none")}
        for r in g.sort_values("mover").itertuples():
            side, margin = _favoured_side(r)
            groups[words[side]].append(f"{r.mover}/{r.other} {r.win:z.3f} ±{margin:z.3f}")
        parts = [f"{side}: {', '.join(cells)}" for side, cells in groups.items() if cells]
        out.append(f"Equal coins, {deck}, the estimate favours " + "; ".join(parts)
                   + " (the mover's P(win) ± the larger of the last change between caps and "
                   "the loss at cap 3).")
    return out
