"""One side's orders for one game turn, as stored (JSON) and as the engine takes them.

Stored shape (``TurnOrders.orders``), by engine ship id (``ship-<pk>``)::

    {"movement": "+3, 1B, 2T, 18",                  # rules §3 notation
     "fire": [{"system": "beam-1", "target": "ship-7",
               "mode": "pulser-short" | null,        # pulser fire mode (§8)
               "power_points": 3 | null}],           # needle nodules (§8, §14)
     "launches": [["bay-1", "ship-7"]],              # bay or launcher, target ship (§9)
     "screens": true | false | null, "veil": true | false | null,
     "withdraw": false, "recover": ["ship-3.bay-1-2"]}

A point-defence assignment is a fire order at an enemy light unit (§10). Every key but
``movement`` may be left out. :func:`parse_side_orders` checks the shape and who may order
which ship; the engine's phase 1 (``play_turn``) then checks what the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from battles.rules.turn import BattleState, FireIntent, ShipOrders
from battles.services import BattleActionError

__all__ = ["ForeignShipError", "TurnOrdersError", "parse_side_orders", "ship_orders_from_json"]

_KEYS = {"movement", "fire", "launches", "screens", "veil", "withdraw", "recover"}
_FIRE_KEYS = {"system", "target", "mode", "power_points"}


class TurnOrdersError(BattleActionError):
    """Orders refused: the message names the ship (and the field); nothing was stored."""


class ForeignShipError(TurnOrdersError):
    """Orders for an id that is not a ship of the side: the message only repeats the id
    as sent, so it is shown unmasked (masking an enemy's id alone would single it out)."""


def _text(where: str, value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected text") % {"field": f"{where}.{field}", "value": value}
        )
    return value


def _flag(where: str, value: Any, field: str, *, optional: bool) -> bool | None:
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected true or false")
            % {"field": f"{where}.{field}", "value": value}
        )
    return value


def _list(where: str, value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected a list")
            % {"field": f"{where}.{field}", "value": value}
        )
    return value


def _fire(where: str, entry: Any) -> FireIntent:
    if not isinstance(entry, Mapping):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected an object with system and target")
            % {"field": where, "value": entry}
        )
    extra = sorted(set(entry) - _FIRE_KEYS)
    if extra:
        raise TurnOrdersError(
            _("%(where)s: unknown field(s) %(fields)s") % {"where": where, "fields": extra}
        )
    mode = entry.get("mode") or None
    power = entry.get("power_points")
    if power is not None and (not isinstance(power, int) or isinstance(power, bool)):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected a whole number")
            % {"field": f"{where}.power_points", "value": power}
        )
    return FireIntent(
        system=_text(where, entry.get("system"), "system"),
        target=_text(where, entry.get("target"), "target"),
        mode=_text(where, mode, "mode") if mode is not None else None,
        power_points=power,
    )


def ship_orders_from_json(name: str, data: Mapping[str, Any]) -> ShipOrders:
    """``ShipOrders`` from one ship's stored orders (see the module docstring); ``name``
    heads every error. Raises :class:`TurnOrdersError` for a wrong shape or type."""
    where = f"{name}"
    if not isinstance(data, Mapping):
        raise TurnOrdersError(
            _("%(field)s: %(value)r, expected an object of orders")
            % {"field": where, "value": data}
        )
    extra = sorted(set(data) - _KEYS)
    if extra:
        raise TurnOrdersError(
            _("%(where)s: unknown field(s) %(fields)s") % {"where": where, "fields": extra}
        )
    launches = []
    for i, pair in enumerate(_list(where, data.get("launches", []), "launches")):
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise TurnOrdersError(
                _("%(field)s: %(value)r, expected [system, target]")
                % {"field": f"{where}.launches[{i}]", "value": pair}
            )
        launches.append(
            (
                _text(where, pair[0], f"launches[{i}][0]"),
                _text(where, pair[1], f"launches[{i}][1]"),
            )
        )
    return ShipOrders(
        movement=_text(where, data.get("movement", ""), "movement"),
        fire=[
            _fire(f"{where}.fire[{i}]", f)
            for i, f in enumerate(_list(where, data.get("fire", []), "fire"))
        ],
        launches=launches,
        screens=_flag(where, data.get("screens"), "screens", optional=True),
        veil=_flag(where, data.get("veil"), "veil", optional=True),
        withdraw=bool(_flag(where, data.get("withdraw", False), "withdraw", optional=False)),
        recover=[
            _text(where, u, "recover") for u in _list(where, data.get("recover", []), "recover")
        ],
    )


def parse_side_orders(
    state: BattleState, side: str, orders: Any, *, names: Mapping[str, str]
) -> dict[str, ShipOrders]:
    """Check one side's orders against the battle as it stands and return them as the
    engine takes them. ``names``: engine ship id -> name (every ship set up in the battle).

    Raises :class:`ForeignShipError` (one text, whatever the id) for an id that is not a
    ship of ``side`` in the battle, :class:`TurnOrdersError` naming the ship for a ship
    destroyed, captured or gone from the table, or a wrong shape.
    """
    if not isinstance(orders, Mapping):
        raise TurnOrdersError(
            _("orders: %(value)r, expected an object keyed by ship id") % {"value": orders}
        )
    parsed: dict[str, ShipOrders] = {}
    for ship_id, data in orders.items():
        ship = state.ships.get(ship_id)
        if ship is None or ship.side != side:
            # One answer for every id that is not one of the side's ships (an enemy's,
            # hidden or not, another battle's, none at all): a different one would tell
            # a player which ids are the enemy's ships.
            raise ForeignShipError(
                _("%(ship)r: not a ship of your side in this battle; nothing stored")
                % {"ship": ship_id}
            )
        label = f"{names.get(ship_id, ship.name)} ({ship_id})"
        if ship.out_of_action:
            if ship.destroyed:
                why = _("%(ship)s: the ship is destroyed and takes no orders; nothing stored")
            elif ship.captured:
                why = _("%(ship)s: the ship is captured and takes no orders; nothing stored")
            elif ship.withdrawn:
                why = _("%(ship)s: the ship has withdrawn and takes no orders; nothing stored")
            else:
                why = _("%(ship)s: the ship is out of action and takes no orders; nothing stored")
            raise TurnOrdersError(why % {"ship": label})
        parsed[ship_id] = ship_orders_from_json(label, data)
    return parsed
