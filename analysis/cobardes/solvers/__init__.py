"""¡Cobardes!'s solvers: public battles solved exactly, the war composed over its scores,
battles with hidden villains solved on their trunk, and a spot read off a stored solution.
They import the wing's ground (:mod:`analysis.cobardes.model`) and the solver engine,
never an agent, a study or advice."""
