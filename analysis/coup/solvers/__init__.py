"""The Coup solvers: exact beliefs, re-solving (over the public beliefs or on the blueprint),
the blueprint's leaf table, the blueprint itself, brackets of capped games, solved endgames
and the cards-and-coins value of a position. They import no agent, study or advice."""
