"""Errors of the Star Wars Starship Battles house rules; every one is a ``RulesError``."""

from battles.rules.errors import RulesError


class StarshipBattlesError(RulesError):
    """Base class for seed 002 (house rules); the message names the field."""


class BadScreenSplit(StarshipBattlesError):
    """A screen split over facings that does not add up to the ship's screen value."""


class RangeError(StarshipBattlesError):
    """A range that is not a whole number of squares or beyond what the weapon reaches."""


class UnknownShip(StarshipBattlesError):
    """An attack naming a ship not in the fleet turn."""
