"""``farol explore``: a strategy explorer in the browser.

:mod:`analysis.explore.spots` turns what the page sends (a game, its parameters, the moves
played, or a position built by clicking cards and coins) into states and into the advice
of ``farol advise``; :mod:`analysis.explore.app` serves the page and that JSON on localhost.
"""
