"""The ¡Cobardes! agents, one module per bot named after it: :mod:`.solved` (the
equilibrium strategy; ``best`` plays it). Importing this package registers them with
:func:`analysis.play.bots.register_bot`; ``random`` is every game's."""

from analysis.cobardes.agents import solved
from analysis.play import bots as every_game

# Every bot name ¡Cobardes! takes -> the module that holds that bot.
BOTS = {"random": every_game, "solved": solved, "best": solved}
