"""The ``cobardes`` family of Farol's catalog: both games, their test parameters and views."""

from __future__ import annotations

from games.catalog import GameEntry, GameFamily, register_family
from games.cobardes import view as battle_view
from games.cobardes import war
from games.cobardes.options import PARAMETER_HELP

SUMMARY = """\
Two players each hold seven **warriors** (0 to 6; the 0 is the prince), one hidden
**villain** and one face-up **courtier**. A **battle** is up to 7 combats. In each
combat both players reveal a card at the same time. Two warriors fight: one that
exceeds the other by **2 or more** wins the battle (a Victory token); if the loser
is the **prince**, the winner takes the **Crown** and the whole war. Two villains
are exchanged (the Executioner wins, the Seductress captures). A villain against a
warrior does its trick (the Assassin kills the prince, the Thug beats the 4, the
Friar stops the battle, the Troubadour wins if your prince already survived a
combat...) and usually lets its owner then play any warrior, knowing the enemy's.
**Vanguard** courtiers act before a combat (the Fortune-Teller and the Maiden make
the rival play first, the Standard-Bearer adds 1, the Procuress swaps villains,
the Inquisitor hunts the 2); **rearguard** courtiers save a losing warrior after
it (Archer, Sentinel, Squire, Royal Guard, Wolf). Played cards stay on the
battlefield until the battle ends. The **war** is won with 3 Victory tokens or the
Crown; between battles used villains and courtiers are replaced, unused ones may
be kept.
"""

SMALL_BATTLE = {"warriors": 2, "combats": 3, "kinds": "warriors"}
REDUCED = {
    "warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
    "court_deck": "Squire/Maiden/Archer",
}

BATTLE_CONTRACT = (
    {},
    {"kinds": "warriors"},
    {"kinds": "warriors+courtiers", "quicker": "random"},
    {"kinds": "warriors+villains", "villain0": "Assassin", "villain1": "Seductress"},
    {"villain0": "Troubadour", "villain1": "Executioner", "courtier0": "Archer",
     "courtier1": "Squire"},
    dict(REDUCED),
    {"kinds": "warriors", "position": "hand0:0.1.2.3;hand1:0.1.2.4;combat:4",
     "crown_value": 5.0, "crown_loss_value": -2.0, "draw_value": 0.5},
    {"followup": "mandatory", "exchange_limit": 0, "courtier0": "Procuress",
     "courtier1": "Inquisitor"},
    {"courtier0": "Fortune-Teller", "courtier1": "Maiden", "quicker": "p1"},
)


def register() -> None:
    """Add the ``cobardes`` family to the catalog."""
    register_family(GameFamily(
        key="cobardes",
        title="¡Cobardes!",
        summary=SUMMARY,
        rules_doc="docs/rules/cobardes.md",
        games=(
            GameEntry(
                name="python_cobardes_battle",
                title="¡Cobardes! — one battle",
                contract_params=BATTLE_CONTRACT,
                small_variants=(
                    ("warriors 0-2, 3 combats", SMALL_BATTLE),
                    ("warriors 0-4, 5 combats", {"kinds": "warriors", "warriors": 4, "combats": 5}),
                    ("warriors 0-2, Squire vs Archer, 3 combats",
                     {"warriors": 2, "combats": 3, "kinds": "warriors+courtiers",
                      "courtier0": "Squire", "courtier1": "Archer"}),
                    ("warriors 0-2, Thug/Sheep/Executioner hidden, 2 combats",
                     {"warriors": 2, "combats": 2, "kinds": "warriors+villains",
                      "villain_deck": "Thug/Sheep/Executioner"}),
                ),
                render=battle_view.render,
                parameter_help=PARAMETER_HELP,
            ),
            GameEntry(
                name="python_cobardes_war",
                title="¡Cobardes! — the war",
                contract_params=war.WAR_CONTRACT,
                small_variants=war.WAR_SMALL,
                render=war.render,
                parameter_help=war.WAR_PARAMETER_HELP,
            ),
        ),
    ))
