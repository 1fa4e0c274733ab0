"""¡Cobardes!'s studies: every courtier pairing's battle and war (``sweep``), every
matchup with hidden villains (``hidden_sweep``) and its stored opening (``openings``),
the war with courtiers renewed (``renewal``, ``composed_renewal``), the balance answers
(``balance``) and the designer's what-if (``whatif``, ``villain_whatif``)."""
