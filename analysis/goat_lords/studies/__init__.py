"""Goat Lords's studies: tournaments (``tournament``), their answers with 95% intervals
(``statistics``), the report's experiments (``plan``, ``balance``), the strongest
agent's habits (``habits``) and the what-if (``whatif``)."""
