"""Errors of the Starfinder action-token rules; every one is a ``RulesError`` (HTTP 400)."""

from battles.rules.errors import RulesError


class TokenRulesError(RulesError):
    """Base class for seed 001 (action tokens); the message names the field."""


class TierOutOfRange(TokenRulesError):
    """A tier or tier gap outside Starfinder's tiers (1/4 … 20)."""


class CrewOutOfRange(TokenRulesError):
    """A crew count below 1 or above the limit."""


class IllegalAction(TokenRulesError):
    """An action the tier, the post, a critical state or the tokens left do not allow."""


class UnknownAction(TokenRulesError):
    """An action id not in ``ACTIONS`` (or a removed action)."""


class UnknownSystem(TokenRulesError):
    """A system or critical state that does not exist."""
