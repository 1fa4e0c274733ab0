"""¡Cobardes!'s solvers: public battles solved exactly, the war composed over its scores,
battles with hidden villains solved on their trunk, a spot read off a stored solution, a
matchup's stored opening and the rest of a battle re-solved from a later combat.
They import the wing's ground (:mod:`analysis.cobardes.model`) and the solver engine,
never an agent, a study or advice."""
