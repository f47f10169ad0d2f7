"""Errors raised by the rules engine; the API maps every one to HTTP 400.

The engine writes its messages in English and imports no web framework. An error a player meets
when giving orders also carries a stable ``code`` and its ``params`` (display strings, as
the English text shows them; ``ship`` the ship the message starts with, or None), from
which ``battles.log.refusals`` writes it in the reader's language; the English text stays
``str(error)``. An error without a code is shown as written.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: an input the rules do not allow. The message names the ship, order or
    weapon and the rule section (rules §n).

    ``code`` (e.g. ``"move.unreadable"``, ``""`` when none) and ``params`` (str → str)
    let the web and API layers translate it (module docstring)."""

    def __init__(self, message: object = "", *args: object, code: str = "", **params: object):
        super().__init__(message, *args)
        self.code = code
        self.params = params


class UnknownWeapon(RulesError):
    """A weapon id not in the catalogue (rules §8–10)."""


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


class BadArgument(RulesError):
    """A public engine function given a value of the wrong type or outside its domain
    (``count=1.5``, ``range_mu='5'``, ``odds(None)``); the message names the field."""


def whole_number(value: object, field: str, where: str, *, minimum: int = 0) -> int:
    """``value`` if it is an ``int`` (not a bool) ≥ ``minimum``; else :class:`BadArgument`
    naming ``where`` and ``field``."""
    if type(value) is not int or value < minimum:  # noqa: E721 — bool and float refused
        if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
            return int(value)  # an int subclass (IntEnum …) is fine
        raise BadArgument(
            f"{where}: {field} must be a whole number ≥ {minimum}, got {value!r} "
            f"({type(value).__name__})"
        )
    return value


def real_number(value: object, field: str, where: str, *, minimum: float = 0.0) -> float:
    """``value`` if it is an ``int`` or ``float`` (not a bool, not NaN) ≥ ``minimum``; else
    :class:`BadArgument` naming ``where`` and ``field``."""
    kind = type(value)
    if (kind is int or kind is float) and value >= minimum:  # type: ignore[operator]
        return value  # type: ignore[return-value]
    if (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and value == value  # not NaN
        and value >= minimum
    ):
        return float(value)
    raise BadArgument(
        f"{where}: {field} must be a number ≥ {minimum:g}, got {value!r} ({kind.__name__})"
    )
