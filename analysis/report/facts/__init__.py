"""What the reports state, read once from the stored records: one package per game.

The guides and the methods appendices both read their figures here, so an answer has
one source; neither imports the other, and the facts import neither."""
