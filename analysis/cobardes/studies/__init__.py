"""¡Cobardes!'s studies: every courtier pairing's battle and war (``sweep``), every
matchup with hidden villains (``hidden_sweep``, which stores each one's opening), the
war with courtiers renewed (``renewal``, ``composed_renewal``), the balance answers
(``balance``) and the designer's what-if (``whatif``, ``villain_whatif``)."""
