"""What the orders form offers and how a posted form becomes orders,
plus the movement preview shown as a player types (§3 notation, drawn as SVG).

No HTTP here: views pass ``request.POST`` (any mapping of str -> str) and render what
these functions return. Field names: ``movement-<ship>``, ``fire-<ship>-<system>``
(target id, empty: hold fire), ``mode-<ship>-<system>`` (pulsers: the fire mode is
chosen with the orders, D-34), ``power-<ship>-<system>`` (needle nodules),
``launch-<ship>-<system>`` (target id), ``screens-<ship>`` / ``veil-<ship>`` (``""``
unchanged, ``on``, ``off``), ``withdraw-<ship>`` (checkbox).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext

from battles.log.refusals import rules_error_text
from battles.play.orders import TurnOrdersError
from battles.rules.errors import RulesError
from battles.rules.movement import Orders, execute, validate_orders
from battles.rules.phases.launch_orders import launch_refusal
from battles.rules.turn import BattleState
from battles.rules.weapons import get_weapon
from factions.models import LightUnitGroup

__all__ = ["movement_preview", "order_sheet", "orders_from_form", "targets_for"]

PULSER_MODES = ("pulser-short", "pulser-medium", "pulser-long")


def _mode_labels() -> dict[str, str]:
    """A pulser mode as the form offers it (rules §8: short 0–12, medium 0–24, long 0–36 mu);
    the value stays the engine's id."""
    return {
        "pulser-short": gettext("short range (0–12 mu)"),
        "pulser-medium": gettext("medium range (0–24 mu)"),
        "pulser-long": gettext("long range (0–36 mu)"),
    }


def _squadron_text(squadron: dict[str, Any]) -> str:
    """A bay's squadron as the launch control names it: the light-unit kind in the
    reader's words (``LightUnitGroup.Kind``, "chasseurs lourds") and its craft, "×4"."""
    unit = str(squadron.get("unit", "?"))
    kind = LightUnitGroup.Kind(unit).label if unit in LightUnitGroup.Kind.values else unit
    return f"{kind} ×{squadron.get('size', '?')}"


#: Prefixes of the form's per-ship fields (``<prefix>-<ship>[-<system>]``).
_FIELDS = frozenset(("movement", "fire", "mode", "power", "launch", "screens", "veil", "withdraw"))


def _light(weapon: str) -> bool:
    try:
        return bool(get_weapon(weapon).light_unit)
    except RulesError:
        return False


def _needs_power(weapon: str) -> bool:
    try:
        return bool(get_weapon(weapon).power_points)
    except RulesError:
        return False


def targets_for(
    state: BattleState,
    side: str,
    labels: Mapping[str, str],
    rename: Callable[[str], str] = str,
) -> list[dict[str, str]]:
    """Enemy ships still on the table and enemy light units, as ``{"id", "label"}``;
    ``rename``: engine id -> the key this side knows it by (``ContactKeys.opaque``);
    ``labels``: key -> what this side calls it (its board view's labels)."""
    keys = [rename(s.ship_id) for s in state.in_action(state.enemy_of(side))]
    found = [{"id": key, "label": labels.get(key, key)} for key in keys]
    units = [rename(u.unit_id) for u in state.light_units.values() if u.active and u.side != side]
    found += [{"id": key, "label": gettext("light unit %(id)s") % {"id": key}} for key in units]
    return found


def order_sheet(
    state: BattleState, side: str, given: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """One entry per ship of ``side`` still in action: its name, id, speed, heading,
    thrust, the weapon systems it may order to fire (working), its launchers (bays with a
    squadron aboard, working missile launchers) that the engine's phase 1 would let launch
    this turn, those it would refuse (``unlaunchable``, with the engine's reason, e.g.
    a station's fighters with no fire control to tie), whether it has
    screens or a vapour veil, and what ``given`` (its stored orders, if any) says for each
    field."""
    given = given or {}
    sheet = []
    for ship in state.in_action(side):
        mine = given.get(ship.ship_id) or {}
        fire = {f.get("system"): f for f in mine.get("fire", []) if isinstance(f, dict)}
        launches = {pair[0]: pair[1] for pair in mine.get("launches", []) if len(pair) == 2}
        weapons, launchers = [], []
        for system in ship.systems.values():
            if not system.working:
                continue
            if system.kind == "bay":
                squadron = system.data.get("squadron")
                if squadron and not system.data.get("launched"):
                    launchers.append(
                        {
                            "id": system.id,
                            "what": _squadron_text(squadron),
                            "target": launches.get(system.id, ""),
                        }
                    )
            elif system.kind == "weapon" and system.weapon:
                if _light(system.weapon):
                    launchers.append(
                        {
                            "id": system.id,
                            "what": system.weapon,
                            "target": launches.get(system.id, ""),
                        }
                    )
                    continue
                ordered = fire.get(system.id, {})
                weapons.append(
                    {
                        "id": system.id,
                        "weapon": system.weapon,
                        "arcs": "/".join(system.arcs),
                        "modes": (
                            [(m, _mode_labels()[m]) for m in PULSER_MODES]
                            if system.weapon == "pulser"
                            else ()
                        ),
                        "power": _needs_power(system.weapon),
                        "target": ordered.get("target", ""),
                        "mode": ordered.get("mode") or "",
                        "power_points": ordered.get("power_points"),
                    }
                )
        unlaunchable = []
        for launcher in list(launchers):
            reason = launch_refusal(state, ship, launcher["id"])
            if reason is not None:
                launchers.remove(launcher)
                why = rules_error_text(reason)  # in the reader's language
                unlaunchable.append({"id": launcher["id"], "what": launcher["what"], "why": why})
        sheet.append(
            {
                "id": ship.ship_id,
                "name": ship.name,
                "speed": int(ship.speed),
                "heading": ship.heading,
                "thrust": ship.thrust,
                "x": round(ship.x, 1),
                "y": round(ship.y, 1),
                "power_points": ship.power_points,
                "movement": mine.get("movement", ""),
                "weapons": weapons,
                "launchers": launchers,
                "unlaunchable": unlaunchable,
                "screens": ship.working_count("screen") > 0,
                "veil": ship.working_count("vapour-veil") > 0,
                "screens_order": _switch(mine.get("screens")),
                "veil_order": _switch(mine.get("veil")),
                "withdraw": bool(mine.get("withdraw")),
            }
        )
    return sheet


def _switch(value: Any) -> str:
    return "" if value is None else ("on" if value else "off")


def _whole(where: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TurnOrdersError(
            gettext("%(field)s: %(value)r is not a whole number") % {"field": where, "value": text}
        ) from None


def orders_from_form(post: Mapping[str, str], sheet: list[dict[str, Any]]) -> dict[str, Any]:
    """The orders a posted form gives, in the stored shape (``battles.play.orders``), for
    the ships of ``sheet`` (:func:`order_sheet`), plus an entry for any other ship a field
    names (for the service to refuse). Raises ``TurnOrdersError`` naming the ship and
    field for a power-point entry that is not a whole number."""
    orders: dict[str, Any] = {}
    for ship in sheet:
        sid = ship["id"]
        entry: dict[str, Any] = {"movement": post.get(f"movement-{sid}", "").strip()}
        fire = []
        for w in ship["weapons"]:
            target = post.get(f"fire-{sid}-{w['id']}", "")
            if not target:
                continue
            intent: dict[str, Any] = {"system": w["id"], "target": target}
            mode = post.get(f"mode-{sid}-{w['id']}", "")
            if mode:
                intent["mode"] = mode
            power = post.get(f"power-{sid}-{w['id']}", "").strip()
            if power:
                intent["power_points"] = _whole(f"{ship['name']}: {w['id']} power points", power)
            fire.append(intent)
        launches = [
            [lu["id"], post[f"launch-{sid}-{lu['id']}"]]
            for lu in ship["launchers"]
            if post.get(f"launch-{sid}-{lu['id']}")
        ]
        if fire:
            entry["fire"] = fire
        if launches:
            entry["launches"] = launches
        for switch in ("screens", "veil"):
            value = post.get(f"{switch}-{sid}", "")
            if value in ("on", "off"):
                entry[switch] = value == "on"
        if post.get(f"withdraw-{sid}"):
            entry["withdraw"] = True
        orders[sid] = entry
    # A field of a ship not on the sheet (another side's, one gone, a crafted form) is
    # passed on, so that the service refuses it as it refuses the API's: nothing stored.
    for name in post:
        prefix, _, rest = name.partition("-")
        other = "-".join(rest.split("-")[:2])
        if prefix in _FIELDS and other and other not in orders:
            orders[other] = {"movement": str(post.get(f"movement-{other}", "")).strip()}
    return orders


def movement_preview(state: BattleState, ship_id: str, text: str) -> dict[str, Any]:
    """What ``text`` (§3 notation) does to the ship: ``{"ok", "error", "thrust",
    "thrust_used", "speed", "end_speed", "heading", "path": [[x, y] ×3], "view": [x, y, w,
    h]}`` — the path in SVG coordinates (y flipped: +y up on the map). Never raises for
    bad text: the engine's ``IllegalOrder`` message, in the reader's language, is ``error``."""
    ship = state.ships[ship_id]
    out: dict[str, Any] = {
        "ok": False,
        "error": "",
        "thrust": ship.thrust,
        "speed": int(ship.speed),
        "heading": ship.heading,
        "name": ship.name,
    }
    try:
        plan = validate_orders(
            Orders.parse(text, ship=ship.name),
            ship=ship.name,
            thrust=ship.thrust,
            speed=int(ship.speed),
            drive_working=ship.thrust > 0,
            bridge_working=ship.bridge_working,
            half_thrust_turn_cap=state.options.half_thrust_turn_cap,
        )
    except RulesError as exc:
        out["error"] = rules_error_text(exc)
        return out
    moved = execute(plan, position=(ship.x, ship.y), heading=ship.heading)
    path = [[round(x, 2), round(-y, 2)] for x, y in moved.path]
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    pad = 4.0
    x0, y0 = min(xs) - pad, min(ys) - pad
    out.update(
        ok=True,
        thrust_used=plan.thrust_used,
        end_speed=plan.end_speed,
        heading=moved.heading,
        end=[round(moved.position[0], 1), round(moved.position[1], 1)],
        path=path,
        points=" ".join(f"{x},{y}" for x, y in path),
        start_x=path[0][0],
        start_y=path[0][1],
        end_x=path[-1][0],
        end_y=path[-1][1],
        rotate=moved.heading * 60,
        view=f"{x0} {y0} {max(xs) + pad - x0} {max(ys) + pad - y0}",
    )
    return out
