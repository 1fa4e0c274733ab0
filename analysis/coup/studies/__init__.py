"""The Coup studies: the questions asked of the solvers and the agents, each answered by
sweeps, matches or self-play whose results are stored for the reports (the endgame
sweeps and their bluffing and balance, brackets of the full game and of larger endgames,
the state-keyed estimate, the blueprint's bluffs and bounds, the seat balance with its
duplicate deals, the strongest agent's play tables)."""
