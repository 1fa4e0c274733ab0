"""Playing any game: bots by name, seeded matches between agents, random play-outs,
tree counts, and `farol play`'s session with its coach.

Knows no game in particular; the studies register their bots and coaches here.
"""
