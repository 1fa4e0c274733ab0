"""¡Cobardes! solved: the questions users ask of the game, answered by solvers.

Public battles (no hidden card) are solved exactly by backward induction (``exact``,
``fast_exact``, ``graph``), composed into the war (``war``, ``renewal``) and swept over
every pairing (``sweep``, ``balance``); hidden villains go through the state-keyed engine
and the trunk left once public subgames are cut off (``villains``, ``trunk``,
``subgames``). ``advise`` and ``bot`` answer ``farol advise`` and ``farol play``.
"""
