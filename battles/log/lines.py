"""Battle log lines in the reader's language, built from each engine event's ``data``.

The rules engine (``battles.rules``, no Django) writes every ``Event`` with an English
``summary``; that stays stored as is. :func:`event_line` rebuilds the line for the
frequent kinds with gettext, naming ships by their names (the set-up row's ``ships`` map,
``battles.services.engine_log.setup_row``) and sides by their faction names. Any kind or data
shape it does not know — an old log, a hand-made row, an id missing from the names —
falls back to the stored ``summary``: a log line is never lost and never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.utils.translation import gettext, ngettext

from battles.log.damage import DAMAGE_LINES
from battles.log.light import LIGHT_LINES
from battles.log.names import (
    LogNames,
    UnknownShape,
    as_int,
    distance,
    match_summary,
    position,
    volley_effect,
)
from battles.log.rolls import roll_purpose
from campaign.core.stored_text import end_reason_label

# --- one function per kind -----------------------------------------------------------


def _setup(data: dict, names: LogNames, event: Any) -> str:
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise UnknownShape
    turns = as_int(data.get("max_turns"))
    return ngettext(
        "%(a)s against %(b)s; seed %(seed)s, at most %(turns)s turn",
        "%(a)s against %(b)s; seed %(seed)s, at most %(turns)s turns",
        turns,
    ) % {
        "a": names.side(sides[0]),
        "b": names.side(sides[1]),
        "seed": as_int(data.get("seed")),
        "turns": turns,
    }


def _auto_orders(data: dict, names: LogNames, event: Any) -> str:
    # The engine names the side by its slug; a reader gets the faction's name.
    side = data.get("side")
    if not isinstance(side, str):
        raise UnknownShape
    return gettext("%(side)s gave no orders in time: its ships take the auto-resolve tactics") % {
        "side": names.side(side)
    }


def _deploy(data: dict, names: LogNames, event: Any) -> str:
    return gettext("fleets deployed")


def _initiative(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(side)s has the initiative") % {"side": names.side(data.get("winner"))}


def _initiative_roll(data: dict, names: LogNames, event: Any) -> str:
    rolls = data.get("rolls")
    if not isinstance(rolls, dict) or len(rolls) != 2:
        raise UnknownShape
    parts = [f"{names.side(slug)} {as_int(value)}" for slug, value in rolls.items()]
    return gettext("initiative roll: %(rolls)s") % {"rolls": ", ".join(parts)}


def _fire(data: dict, names: LogNames, event: Any) -> str:
    range_mu = data.get("range")
    if isinstance(range_mu, bool) or not isinstance(range_mu, int | float):
        raise UnknownShape
    return gettext(
        "%(ship)s fires %(system)s (%(weapon)s) at %(target)s, %(range)s mu: %(result)s"
    ) % {  # noqa: E501
        "ship": names.ship(data.get("ship")),
        "system": data.get("system") or "?",
        "weapon": data.get("weapon") or "?",
        "target": names.unit(data.get("target")),
        "range": distance(range_mu),
        "result": volley_effect(event.summary),
    }


def _orders(data: dict, names: LogNames, event: Any) -> str:
    # The movement orders are the game's own notation (``+6, 2P``): kept as written.
    movement = data.get("movement")
    if not isinstance(movement, str):
        raise UnknownShape
    return gettext("%(ship)s orders: %(orders)s") % {
        "ship": names.ship(data.get("ship")),
        "orders": movement,
    }


def _move(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r".*: to \((\S+), (\S+)\) heading (\S+)", event.summary)
    orders = data.get("orders")
    if not isinstance(orders, str):
        raise UnknownShape
    return gettext("%(ship)s %(orders)s: to %(position)s, heading %(heading)s") % {
        "ship": names.ship(data.get("ship")),
        "orders": orders,
        "position": position(found[1], found[2]),
        "heading": found[3],
    }


def _withdraw(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(ship)s withdraws") % {"ship": names.ship(data.get("ship"))}


def _veil(data: dict, names: LogNames, event: Any) -> str:
    ship = names.ship(data.get("ship"))
    if data.get("on"):
        return gettext("%(ship)s raises its vapour veil") % {"ship": ship}
    return gettext("%(ship)s drops its vapour veil") % {"ship": ship}


def _screens(data: dict, names: LogNames, event: Any) -> str:
    ship = names.ship(data.get("ship"))
    if data.get("on"):
        return gettext("%(ship)s switches its screens on") % {"ship": ship}
    return gettext("%(ship)s switches its screens off") % {"ship": ship}


def _contact(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r".* on (\S+) sensors", event.summary)
    return gettext("%(side)s detects %(ship)s (%(sensors)s sensors)") % {
        "side": names.side(data.get("side")),
        "ship": names.ship(data.get("ship")),
        "sensors": found[1],
    }


def _contact_lost(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(side)s loses sensor contact with %(ship)s") % {
        "side": names.side(data.get("side")),
        "ship": names.ship(data.get("ship")),
    }


def _launch(data: dict, names: LogNames, event: Any) -> str:
    craft = as_int(data.get("craft"))
    return ngettext(
        "%(ship)s launches %(craft)d %(weapon)s at %(target)s",
        "%(ship)s launches %(craft)d %(weapon)s at %(target)s",
        craft,
    ) % {
        "ship": names.ship(data.get("ship")),
        "craft": craft,
        "weapon": data.get("weapon") or "?",
        "target": names.unit(data.get("target")),
    }


def _attack(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(unit)s attacks %(target)s: %(result)s") % {
        "unit": names.unit(data.get("unit")),
        "target": names.unit(data.get("target")),
        "result": volley_effect(event.summary),
    }


def _dogfight(data: dict, names: LogNames, event: Any) -> str:
    kills = as_int(data.get("kills"))
    return ngettext(
        "%(unit)s engages %(target)s: %(n)d killed",
        "%(unit)s engages %(target)s: %(n)d killed",
        kills,
    ) % {"unit": names.unit(data.get("unit")), "target": names.unit(data.get("target")), "n": kills}


def _light_unit_losses(data: dict, names: LogNames, event: Any) -> str:
    lost, left = as_int(data.get("lost")), as_int(data.get("craft"))
    return ngettext(
        "%(unit)s loses %(lost)d craft, %(left)d left",
        "%(unit)s loses %(lost)d craft, %(left)d left",
        lost,
    ) % {"unit": names.unit(data.get("unit")), "lost": lost, "left": left}


def _result(data: dict, names: LogNames, event: Any) -> str:
    reason = data.get("reason")
    label = end_reason_label(reason)
    if label is None:
        raise UnknownShape
    turns = as_int(event.game_turn)
    values = {"reason": label, "n": turns}
    if data.get("winner") is None:
        return (
            ngettext(
                "nobody wins (%(reason)s) after %(n)d turn",
                "nobody wins (%(reason)s) after %(n)d turns",
                turns,
            )
            % values
        )
    return ngettext(
        "%(side)s wins (%(reason)s) after %(n)d turn",
        "%(side)s wins (%(reason)s) after %(n)d turns",
        turns,
    ) % {**values, "side": names.side(data.get("winner"))}


def _roll(data: dict, names: LogNames, event: Any) -> str:
    # The purpose in the reader's language, ship ids and sides named (battles.log.rolls).
    purpose = data.get("purpose")
    if not isinstance(purpose, str):
        raise UnknownShape
    return gettext("%(purpose)s: d%(sides)d=%(result)d") % {
        "purpose": roll_purpose(purpose, names),
        "sides": as_int(data.get("sides")),
        "result": as_int(data.get("result")),
    }


LINES: dict[str, Callable[[dict, LogNames, Any], str]] = {
    "setup": _setup,
    "deploy": _deploy,
    "auto-orders": _auto_orders,
    "initiative": _initiative,
    "initiative-roll": _initiative_roll,
    "fire": _fire,
    "orders": _orders,
    "move": _move,
    "withdraw": _withdraw,
    "veil": _veil,
    "screens": _screens,
    "contact": _contact,
    "contact-lost": _contact_lost,
    "launch": _launch,
    "attack": _attack,
    "dogfight": _dogfight,
    "light-unit-losses": _light_unit_losses,
    "result": _result,
    "roll": _roll,
}


@cache
def _all_lines() -> dict[str, Callable[[dict, LogNames, Any], str]]:
    """:data:`LINES`, the damage kinds (``battles.log.damage``) and the light-unit and
    rarer kinds (``battles.log.light``)."""
    return {**LINES, **DAMAGE_LINES, **LIGHT_LINES}


def event_line(event: Any, names: LogNames) -> str:
    """``event``'s log line in the active language; its stored ``summary`` (else its kind)
    for a kind or data shape this module does not know."""
    fallback = event.summary or event.kind
    build = _all_lines().get(event.kind)
    if build is None or not isinstance(event.data, dict):
        return fallback
    try:
        return build(event.data, names, event)
    except (UnknownShape, KeyError, TypeError, ValueError):
        return fallback


def ship_named(event: Any, names: LogNames) -> str | None:
    """The name of the ship ``event`` is about (``data["ship"]``), or None."""
    data = event.data if isinstance(event.data, dict) else {}
    try:
        return names.ship(data.get("ship"))
    except UnknownShape:
        return None
