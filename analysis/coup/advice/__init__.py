"""Advice at a Coup spot, one module per source: the exact solve of an endgame position
(:mod:`.endgame`), the shipped openings (:mod:`.openings`), the blueprint with its
re-solves (:mod:`.blueprint`, also ``farol play``'s coach) and the re-solve over the
public beliefs (:mod:`.resolve`). Advice reads the solvers and the agents, never the
other way."""
