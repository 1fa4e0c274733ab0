"""Strategy guides: one short page per game that opens with the answers.

Each game's guide (:mod:`analysis.report.guides.coup` ...) is a list of parts for players
and of designers' questions, one module per question: its facts come from the stored
records, its prose from a template under ``analysis/report/templates``. The long
reports (``reports/<game>.md``) are the guides' methods appendices.
"""
