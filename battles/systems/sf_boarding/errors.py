"""Errors of the Starfinder boarding rules; every one is a ``RulesError`` (HTTP 400)."""

from battles.rules.errors import RulesError


class BoardingError(RulesError):
    """Base class for seed 003 (boarding); the message names the field."""


class PartyTooLarge(BoardingError):
    """A boarding party larger than its cap (max(20 % of the attacker's crew, 4))."""


class BadBoardingInput(BoardingError):
    """A size, tier, training or security value out of range or of the wrong type."""
