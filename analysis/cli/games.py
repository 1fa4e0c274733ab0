"""``farol games``: list Farol's games with their parameters and defaults."""

from __future__ import annotations

import argparse

from analysis.cli.bots import bots_for
from analysis.cli.parser import add_examples
from analysis.shared.params import game_parameter_spec
from games import catalog


def describe_games() -> str:
    """Every ruleset, its games, their parameters with defaults and what each does (in the
    game's own words: :attr:`games.catalog.GameEntry.parameter_help`), and the bots that
    play them."""
    lines: list[str] = []
    for fam in catalog.families():
        lines.append(f"{fam.title}  [report: farol report {fam.key}; rulings: {fam.rules_doc}]")
        for entry in fam.games:
            lines.append(f"  {entry.name}: {entry.title}")
            spec = game_parameter_spec(entry.name)
            width = max((len(f"{k} = {v!r}") for k, v in spec.items()), default=0)
            for key, value in sorted(spec.items()):
                said = f"{key} = {value!r}"
                text = entry.parameter_help.get(key, "")
                lines.append(f"      {said:<{width}}  {text}".rstrip())
            bots = ", ".join(b.name for b in bots_for(entry.name))
            lines.append(f"      opponents for farol play: {bots}")
        lines.append("")
    if not lines:
        return "No games are registered."
    return "\n".join(lines).rstrip()


def configure(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(func=run)
    add_examples(parser, "farol games")


def run(args: argparse.Namespace) -> int:
    print(describe_games())
    return 0
