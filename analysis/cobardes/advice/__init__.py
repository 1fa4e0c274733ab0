"""¡Cobardes! advice: ``farol advise cobardes`` at a position or a spot (:mod:`.advise`;
a later spot of a full battle is answered by re-solving the rest,
:mod:`analysis.cobardes.solvers.spot_resolve`)."""
