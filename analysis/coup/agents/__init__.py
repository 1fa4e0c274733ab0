"""Coup agents that reason from the history: exact beliefs over the opponent's hidden
cards (:mod:`.belief`) and the agents built on them."""
