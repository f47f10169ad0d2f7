"""Errors of the Epic-scale special abilities; every one is a ``RulesError`` (HTTP 400)."""

from battles.rules.errors import RulesError


class AbilityError(RulesError):
    """Base class for seed 004 (special abilities); the message names the field."""


class UnknownAbility(AbilityError):
    """An ability id not in ``ABILITIES``."""


class TransportFull(AbilityError):
    """More bases than the transport's capacity."""
