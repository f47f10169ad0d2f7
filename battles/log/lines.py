"""Battle log lines in the reader's language, built from each engine event's ``data``.

The rules engine (``battles.rules``, no Django) writes every ``Event`` with an English
``summary``; that stays stored as is. :func:`event_line` rebuilds the line for the
frequent kinds with gettext, naming ships by their names (the set-up row's ``ships`` map,
``battles.services.engine_log.setup_row``) and sides by their faction names. Any kind or data
shape it does not know — an old log, a hand-made row, an id missing from the names —
falls back to the stored ``summary``: a log line is never lost and never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils.translation import gettext, ngettext

from battles.log.rolls import roll_purpose
from campaign.core.stored_text import end_reason_label

_SHIP_ID = re.compile(r"\bship-\d+\b")


class _Unknown(Exception):
    """A data shape this module does not know: use the stored summary."""


@dataclass
class LogNames:
    """What a log line may name: engine ship id -> ship name, faction slug -> name."""

    ships: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)

    def ship(self, ship_id: Any) -> str:
        if isinstance(ship_id, str) and ship_id in self.ships:
            return self.ships[ship_id]
        raise _Unknown

    def unit(self, unit_id: Any) -> str:
        """A ship, or a launched unit ``ship-12.hangar-1`` as ``<carrier name> hangar-1``."""
        if not isinstance(unit_id, str):
            raise _Unknown
        if unit_id in self.ships:
            return self.ships[unit_id]
        head, dot, rest = unit_id.partition(".")
        if dot and head in self.ships:
            return f"{self.ships[head]} {rest}"
        raise _Unknown

    def side(self, slug: Any) -> str:
        if not isinstance(slug, str) or not slug:
            raise _Unknown
        return self.sides.get(slug, slug)

    def ids_to_names(self, text: str) -> str:
        """``text`` with each known engine ship id replaced by the ship's name."""
        return _SHIP_ID.sub(lambda m: self.ships.get(m.group(0), m.group(0)), text)


def log_names(
    events: list[Any], side_names: Mapping[str, str], hidden_refs: set[str] = frozenset()
) -> LogNames:
    """The names a log may use: ships from the set-up row (``kind == "setup"``), minus
    the engine ids in ``hidden_refs`` (units the reader may not see are never named)."""
    ships: dict[str, str] = {}
    for event in events:
        if event.kind != "setup":
            continue
        data = event.data if isinstance(event.data, dict) else {}
        table = data.get("ships")
        if isinstance(table, dict):
            for ship_id, row in table.items():
                name = row.get("name") if isinstance(row, dict) else None
                if isinstance(name, str) and name and ship_id not in hidden_refs:
                    ships[ship_id] = name
        break
    return LogNames(ships=ships, sides=dict(side_names))


def hidden_unit_names(events: list[Any], hidden_refs: set[str]) -> set[str]:
    """The names the engine gave the units in ``hidden_refs`` (the set-up row's ``ships``
    map): an unnamed ship is "<class> <n>" there, and the engine's summaries name a
    target that way ("… flies towards Sa'ar 1") without its id in the data. A filter
    that hides a unit must look for these words in every printed line (issue 9, leak 3).
    """
    words: set[str] = set()
    for event in events:
        if event.kind != "setup":
            continue
        table = event.data.get("ships") if isinstance(event.data, dict) else None
        if isinstance(table, dict):
            for ship_id in hidden_refs & table.keys():
                row = table[ship_id]
                name = row.get("name") if isinstance(row, dict) else None
                if isinstance(name, str) and name.strip():
                    words.add(name)
        break
    return words


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Unknown
    return int(value)


def _match(pattern: str, text: Any) -> re.Match[str]:
    found = re.fullmatch(pattern, text) if isinstance(text, str) else None
    if found is None:
        raise _Unknown
    return found


# --- one function per kind -----------------------------------------------------------


def _setup(data: dict, names: LogNames, event: Any) -> str:
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise _Unknown
    turns = _int(data.get("max_turns"))
    return ngettext(
        "%(a)s against %(b)s; seed %(seed)s, at most %(turns)s turn",
        "%(a)s against %(b)s; seed %(seed)s, at most %(turns)s turns",
        turns,
    ) % {
        "a": names.side(sides[0]),
        "b": names.side(sides[1]),
        "seed": _int(data.get("seed")),
        "turns": turns,
    }


def _deploy(data: dict, names: LogNames, event: Any) -> str:
    return gettext("fleets deployed")


def _initiative(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(side)s has the initiative") % {"side": names.side(data.get("winner"))}


def _initiative_roll(data: dict, names: LogNames, event: Any) -> str:
    rolls = data.get("rolls")
    if not isinstance(rolls, dict) or len(rolls) != 2:
        raise _Unknown
    parts = [f"{names.side(slug)} {_int(value)}" for slug, value in rolls.items()]
    return gettext("initiative roll: %(rolls)s") % {"rolls": ", ".join(parts)}


_VOLLEY = r".*: (?:(?P<kills>\d+) killed|(?P<systems>\d+) system hit\(s\)|(?P<damage>\d+) damage|(?P<none>no effect))"  # noqa: E501


def _volley(summary: Any) -> str:
    found = _match(_VOLLEY, summary)
    if found["kills"]:
        n = int(found["kills"])
        return ngettext("%(n)d killed", "%(n)d killed", n) % {"n": n}
    if found["systems"]:
        n = int(found["systems"])
        return ngettext("%(n)d system hit", "%(n)d systems hit", n) % {"n": n}
    if found["damage"]:
        n = int(found["damage"])
        return ngettext("%(n)d damage", "%(n)d damage", n) % {"n": n}
    return gettext("no effect")


def _fire(data: dict, names: LogNames, event: Any) -> str:
    range_mu = data.get("range")
    if isinstance(range_mu, bool) or not isinstance(range_mu, int | float):
        raise _Unknown
    return gettext(
        "%(ship)s fires %(system)s (%(weapon)s) at %(target)s, %(range)s mu: %(result)s"
    ) % {  # noqa: E501
        "ship": names.ship(data.get("ship")),
        "system": data.get("system") or "?",
        "weapon": data.get("weapon") or "?",
        "target": names.unit(data.get("target")),
        "range": f"{range_mu:.1f}",
        "result": _volley(event.summary),
    }


def _orders(data: dict, names: LogNames, event: Any) -> str:
    # The movement orders are the game's own notation (``+6, 2P``): kept as written.
    movement = data.get("movement")
    if not isinstance(movement, str):
        raise _Unknown
    return gettext("%(ship)s orders: %(orders)s") % {
        "ship": names.ship(data.get("ship")),
        "orders": movement,
    }


def _move(data: dict, names: LogNames, event: Any) -> str:
    found = _match(r".*: to \((\S+), (\S+)\) heading (\S+)", event.summary)
    orders = data.get("orders")
    if not isinstance(orders, str):
        raise _Unknown
    return gettext("%(ship)s %(orders)s: to (%(x)s, %(y)s), heading %(heading)s") % {
        "ship": names.ship(data.get("ship")),
        "orders": orders,
        "x": found[1],
        "y": found[2],
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
    found = _match(r".* on (\S+) sensors", event.summary)
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
    craft = _int(data.get("craft"))
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
        "result": _volley(event.summary),
    }


def _dogfight(data: dict, names: LogNames, event: Any) -> str:
    kills = _int(data.get("kills"))
    return ngettext(
        "%(unit)s engages %(target)s: %(n)d killed",
        "%(unit)s engages %(target)s: %(n)d killed",
        kills,
    ) % {"unit": names.unit(data.get("unit")), "target": names.unit(data.get("target")), "n": kills}


def _light_unit_losses(data: dict, names: LogNames, event: Any) -> str:
    lost, left = _int(data.get("lost")), _int(data.get("craft"))
    return ngettext(
        "%(unit)s loses %(lost)d craft, %(left)d left",
        "%(unit)s loses %(lost)d craft, %(left)d left",
        lost,
    ) % {"unit": names.unit(data.get("unit")), "lost": lost, "left": left}


def _result(data: dict, names: LogNames, event: Any) -> str:
    reason = data.get("reason")
    label = end_reason_label(reason)
    if label is None:
        raise _Unknown
    turns = _int(event.game_turn)
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
        raise _Unknown
    return gettext("%(purpose)s: d%(sides)d=%(result)d") % {
        "purpose": roll_purpose(purpose, names),
        "sides": _int(data.get("sides")),
        "result": _int(data.get("result")),
    }


LINES: dict[str, Callable[[dict, LogNames, Any], str]] = {
    "setup": _setup,
    "deploy": _deploy,
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
    rarer kinds (``battles.log.light``); both import this module's helpers, hence
    imported here on first use."""
    from battles.log.damage import DAMAGE_LINES
    from battles.log.light import LIGHT_LINES

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
    except (_Unknown, KeyError, TypeError, ValueError):
        return fallback


def ship_named(event: Any, names: LogNames) -> str | None:
    """The name of the ship ``event`` is about (``data["ship"]``), or None."""
    data = event.data if isinstance(event.data, dict) else {}
    try:
        return names.ship(data.get("ship"))
    except _Unknown:
        return None
