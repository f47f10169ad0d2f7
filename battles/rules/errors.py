"""Errors raised by the rules engine; the API maps every one to HTTP 400."""


class RulesError(ValueError):
    """Base class: an input the rules do not allow. The message names the ship, order or
    weapon and the rule section (rules/ft-incursion.md)."""


class UnknownWeapon(RulesError):
    """A weapon id not in the catalogue (rules/ft-incursion.md §8–10)."""


class OutOfRange(RulesError):
    """A range beyond the weapon's last band."""


class IllegalOrder(RulesError):
    """An order the ship cannot carry out (§3 thrust, §6 arcs and fire control)."""


class NoFireControl(IllegalOrder):
    """No free fire control to direct this fire (§6)."""


class OutOfArc(IllegalOrder):
    """A target outside every arc of the weapon (§6)."""


class MagazineDestroyed(IllegalOrder):
    """A magazine-fed weapon whose linked magazine is empty or destroyed (§8)."""
