"""The ¡Cobardes! agents, one module per bot named after it: :mod:`.solved` (the
equilibrium strategy, solved before play where a villain is hidden) and :mod:`.best` (the
same strategy answered at the table: the stored opening, the rest re-solved). Importing
this package registers them with :func:`analysis.play.bots.register_bot`, in the order of
the table; ``random`` is every game's.
"""

# isort: off
from analysis.cobardes.agents import solved
from analysis.cobardes.agents import best
# isort: on
from analysis.play import bots as every_game

# Every bot name ¡Cobardes! takes -> the module that holds that bot.
BOTS = {"random": every_game, "solved": solved, "best": best}
