"""¡Cobardes!'s wing, as the layers above see it. Its what-if solves the war (no agents,
two players): the request's seed, workers, scheduler, progress and name reach it."""

from __future__ import annotations

from analysis.cobardes import agents
from analysis.cobardes.advice import advise
from analysis.cobardes.studies import whatif
from analysis.play.whatif import WhatIf, WhatIfRequest
from analysis.wings.contract import Wing


def run_whatif(request: WhatIfRequest) -> WhatIf:
    return whatif.run_whatif(request.variant, request.seed, request.workers,
                             request.scheduler, request.progress, request.name)


WING = Wing(
    key="cobardes", command="cobardes", title="¡Cobardes!", whatif_game=whatif.WAR_GAME, whatif=run_whatif,
    agents=agents, registers=(agents, advise),
    whatif_agents="the war solved exactly; its solved strategy against random, exactly",
)
