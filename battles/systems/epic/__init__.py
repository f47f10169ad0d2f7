"""Epic-scale special abilities (seed 004): pure Python, no Django.

:mod:`.data` — every ability as data (names by effect where the seed lost them, O-4);
:mod:`.resolve` — their resolvers, with exact odds where dice decide.

Imports: the rules engine's dice and errors (``battles.rules``) only; no Django, no other
game system (import-linter, pyproject.toml).
"""

from battles.systems.epic.data import ABILITIES, Ability, get_ability
from battles.systems.epic.errors import AbilityError, TransportFull, UnknownAbility
from battles.systems.epic.resolve import (
    RESOLVERS,
    armour_breaker_save,
    aura_applies,
    bound_characters,
    camouflage_visibility,
    close_defence,
    cover_penalty,
    d6_success,
    elite_reroll,
    embark_costs,
    energy_shields,
    energy_shields_odds,
    flyer_shot,
    forward_observer,
    hq_sacrifice,
    psychic_save,
    regenerate_shields,
    resolve,
    structure_damage,
    transport_load,
)

__all__ = [
    "ABILITIES",
    "RESOLVERS",
    "Ability",
    "AbilityError",
    "TransportFull",
    "UnknownAbility",
    "armour_breaker_save",
    "aura_applies",
    "bound_characters",
    "camouflage_visibility",
    "close_defence",
    "cover_penalty",
    "d6_success",
    "elite_reroll",
    "embark_costs",
    "energy_shields",
    "energy_shields_odds",
    "flyer_shot",
    "forward_observer",
    "get_ability",
    "hq_sacrifice",
    "psychic_save",
    "regenerate_shields",
    "resolve",
    "structure_damage",
    "transport_load",
]
