"""Starfinder boarding (seed 003): pure Python, no Django.

See :mod:`.rules` for the party cap, boarding attack and resistance, bands, exact odds and
the resolver that rolls and logs.

Imports: the rules engine's dice and errors (``battles.rules``) only; no Django, no other
game system (import-linter, pyproject.toml).
"""

from battles.systems.sf_boarding.errors import BadBoardingInput, BoardingError, PartyTooLarge
from battles.systems.sf_boarding.rules import (
    BANDS,
    TRAINING,
    BoardingResult,
    Party,
    band_for,
    band_odds,
    boarding_allowed,
    boarding_attack_modifier,
    boarding_resistance,
    combine_parties,
    life_science_dc,
    max_party_size,
    pathogen_party,
    recovered,
    repel_bonus,
    resolve_boarding,
    security_modifier,
    size_modifier,
    tactical_cr,
)

__all__ = [
    "BANDS",
    "TRAINING",
    "BadBoardingInput",
    "BoardingError",
    "BoardingResult",
    "Party",
    "PartyTooLarge",
    "band_for",
    "boarding_allowed",
    "repel_bonus",
    "band_odds",
    "boarding_attack_modifier",
    "boarding_resistance",
    "combine_parties",
    "life_science_dc",
    "max_party_size",
    "pathogen_party",
    "recovered",
    "resolve_boarding",
    "security_modifier",
    "size_modifier",
    "tactical_cr",
]
