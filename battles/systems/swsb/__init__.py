"""Star Wars Starship Battles house rules (seed 002): pure Python.

:mod:`.rules` — screens, fire order, ranges, formations, critical table, exact attack odds;
:mod:`.fleet` — ship states and the fleet-turn resolver that rolls and logs.

Imports: the rules engine's dice and errors (``battles.rules``) only; no Django, no other
game system (import-linter, pyproject.toml).
"""

from battles.systems.swsb.errors import (
    BadScreenSplit,
    RangeError,
    StarshipBattlesError,
    UnknownShip,
)
from battles.systems.swsb.fleet import (
    Attack,
    SWEvent,
    SWShip,
    TurnResult,
    fleet_turn,
    ship_from_dict,
)
from battles.systems.swsb.rules import (
    CRITICAL_TABLE,
    FACINGS,
    FIRE_RANKS,
    LASTING_EFFECTS,
    AttackOdds,
    attack_odds,
    critical_damage,
    critical_effect,
    escort_target,
    fire_order,
    formation_fits,
    hunting_bonus,
    navigation_move,
    range_penalties,
    split_screens,
)

__all__ = [
    "CRITICAL_TABLE",
    "FACINGS",
    "FIRE_RANKS",
    "LASTING_EFFECTS",
    "Attack",
    "AttackOdds",
    "BadScreenSplit",
    "RangeError",
    "SWEvent",
    "SWShip",
    "StarshipBattlesError",
    "TurnResult",
    "UnknownShip",
    "attack_odds",
    "critical_damage",
    "critical_effect",
    "escort_target",
    "fire_order",
    "formation_fits",
    "fleet_turn",
    "hunting_bonus",
    "navigation_move",
    "range_penalties",
    "ship_from_dict",
    "split_screens",
]
