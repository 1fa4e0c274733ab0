"""¡Cobardes! advice: ``farol advise cobardes`` at a position or a spot (:mod:`.advise`),
a later spot of a full battle answered by re-solving the rest (:mod:`.spot_resolve`)."""
