"""Phases 1 and 2 of rules §2: orders checked before any die is rolled, then initiative.

``phase_orders`` raises a ``RulesError`` for anything the orders as written get wrong
(``play_turn`` lists which); ``phase_initiative`` rolls 2d6 a side (D-1: ties re-rolled)
and switches screens and vapour veils (§14).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from battles.rules.errors import (
    IllegalOrder,
    MagazineDestroyed,
    NoFireControl,
    UnknownWeapon,
)
from battles.rules.movement import Orders, Plan, validate_orders
from battles.rules.phases.fire_orders import check_lance_alone, check_power, phase_1_settings
from battles.rules.phases.launch_orders import check_launches, check_recoveries
from battles.rules.phases.launches import (
    needs_magazine,
)
from battles.rules.phases.state import (
    NO_ORDERS,
    BattleState,
    FireIntent,
    ShipOrders,
    aim_point,
    effective_weapon,
    orders_text,
    side_of,
)
from battles.rules.sensors import ARCS, FireOrder, allocate_fire_control
from battles.rules.ships import ShipState
from battles.rules.weapons import get_weapon


def phase_orders(state: BattleState, orders: object) -> dict[str, Plan]:
    """Phase 1: validate every ship's orders before a die is rolled (raises RulesError):
    ``orders`` must map ship ids to ``ShipOrders`` (``IllegalOrder`` naming the ship
    otherwise), of ships on the table and still in action — orders for a ship destroyed,
    captured, withdrawn, derelict or dead in space are refused, naming it. Records each
    ship's phase-1 settings (pulser modes, needle PP, D-34) in ``state.settings``."""
    plans: dict[str, Plan] = {}
    if not isinstance(orders, Mapping):
        raise IllegalOrder(
            f"orders must map ship ids to ShipOrders, got {type(orders).__name__} "
            "(rules §2 phase 1)"
        )
    for ship_id, order in orders.items():
        ship = state.ships.get(ship_id) if isinstance(ship_id, str) else None
        if ship is None:
            raise IllegalOrder(
                f"orders for unknown ship {ship_id!r} (rules §2 phase 1)",
                code="order.unknown-ship",
                ship=None,
                id=repr(ship_id),
            )
        if not isinstance(order, ShipOrders):
            raise IllegalOrder(
                f"{ship.name}: orders must be ShipOrders, got {type(order).__name__} "
                "(rules §2 phase 1)"
            )
        if ship.out_of_action:
            raise IllegalOrder(
                f"{ship.name}: orders for a ship out of action ({_why_out(ship)}); it takes "
                "no more orders (rules §2 phase 1)",
                code="order.out-of-action",
                ship=ship.name,
                why=_why_out(ship),
            )
    half_cap = state.options.half_thrust_turn_cap
    state.settings = {}
    for ship in state.in_action():
        order = orders.get(ship.ship_id, NO_ORDERS)
        parsed = (
            order.movement
            if isinstance(order.movement, Orders)
            else Orders.parse(order.movement, ship=ship.name)
        )
        thrust = ship.thrust
        plans[ship.ship_id] = validate_orders(
            parsed,
            ship=ship.name,
            thrust=thrust,
            speed=int(ship.speed),
            drive_working=thrust > 0,
            bridge_working=ship.bridge_working,
            half_thrust_turn_cap=half_cap,
        )
        if _movement_only(ship, order):
            settings: dict[str, str | int] = {}  # nothing else written: nothing else to check
        else:
            settings = _check_fire_and_launches(state, ship, order)
        if state.recording:
            # The order's lists as tuples: the event is written when read (Event.data).
            data = (
                _orders_data,
                ship.ship_id,
                parsed,
                tuple(order.fire),
                tuple(order.launches),
                order.withdraw,
                tuple(order.recover),
                dict(settings) if settings else None,
            )
            state.record(1, "orders", (_orders_text, ship.name, parsed), data)
    return plans


def _orders_text(name: str, movement: Orders) -> str:
    return f"{name}: {orders_text(movement)}"


def _orders_data(
    ship_id: str,
    movement: Orders,
    fire: tuple[FireIntent, ...],
    launches: tuple[tuple[str, str], ...],
    withdraw: bool,
    recover: tuple[str, ...],
    settings: dict[str, str | int] | None,
) -> dict[str, Any]:
    """An ``orders`` event's data (written when first read: ``Event.data``)."""
    data = {
        "ship": ship_id,
        "movement": orders_text(movement),
        "fire": [asdict(f) for f in fire],
        "launches": [list(x) for x in launches],
        "withdraw": withdraw,
    }
    if recover:
        data["recover"] = list(recover)
    if settings:
        data["settings"] = settings
    return data


def _why_out(ship: ShipState) -> str:
    for flag in ("destroyed", "captured", "withdrawn", "derelict"):
        if getattr(ship, flag):
            return flag
    return "dead in space"


def _movement_only(ship: ShipState, order: ShipOrders) -> bool:
    """True when ``order`` writes nothing phase 1 checks beyond movement, screens, veil and
    withdrawal — no fire, launch, recovery or setting (the tactics' usual orders): the
    checks of ``_check_fire_and_launches`` then have nothing to refuse (a ship's power
    points are never below 0, so ``check_power`` passes with nothing ordered)."""
    return (
        not (order.fire or order.launches or order.recover or order.settings)
        and isinstance(order.settings, dict)  # a falsy non-dict goes to the full check
        and ship.power_points >= 0
    )


def _check_fire_and_launches(
    state: BattleState, ship: ShipState, order: ShipOrders
) -> dict[str, str | int]:
    """Phase 1 checks of a ship's fire orders, settings (D-34), power, launches, magazines,
    FCs and recoveries (see ``play_turn``); records and returns its phase-1 settings."""
    ordered: set[str] = set()
    for intent in order.fire:
        system = ship.systems.get(intent.system)
        if system is None or system.kind != "weapon":
            raise IllegalOrder(
                f"{ship.name}: no weapon system {intent.system!r} to fire (rules §2 phase 1)",
                code="fire.no-system",
                ship=ship.name,
                system=repr(intent.system),
            )
        if intent.system in ordered:
            raise IllegalOrder(
                f"{ship.name}: {intent.system} ({system.weapon}) ordered to fire twice; "
                "a weapon system fires at most once a turn (rules §6, §8)",
                code="fire.twice",
                ship=ship.name,
                system=intent.system,
                weapon=str(system.weapon),
            )
        ordered.add(intent.system)
        if not system.working:
            raise IllegalOrder(
                f"{ship.name}: {intent.system} is {system.status} and cannot fire (rules §11)",
                code="fire.not-working",
                ship=ship.name,
                system=intent.system,
                status=str(system.status),
            )
        try:
            modes = get_weapon(system.weapon or "").modes
        except UnknownWeapon as error:
            raise UnknownWeapon(f"{ship.name}: {intent.system}: {error}") from error
        if intent.mode is not None and intent.mode not in modes:
            raise IllegalOrder(
                f"{ship.name}: {intent.system} ({system.weapon}) has no fire mode "
                f"{intent.mode!r} (modes: {', '.join(modes) or 'none'}; rules §8)",
                code="fire.no-mode",
                ship=ship.name,
                system=intent.system,
                weapon=str(system.weapon),
                mode=repr(intent.mode),
                modes=", ".join(modes) or "none",
            )
        _check_target(state, ship, intent, str(system.weapon))
    settings = phase_1_settings(state, ship, order)
    if settings:
        state.settings[ship.ship_id] = settings
    check_power(ship, order.fire, settings)
    check_launches(state, ship, order.launches)
    _check_fire_magazines(ship, order.fire, order.launches)
    _check_fire_control(state, ship, order)
    if order.recover:
        check_recoveries(state, ship, order.recover)
    return settings


def _check_target(state: BattleState, ship: ShipState, intent: FireIntent, weapon: str) -> None:
    """Phase 1 check of a fire order's target (§6): it must name an enemy ship or light
    unit (a light unit leaves the table at the end of the turn it is spent). Whether it
    lies in an arc and in range is known only after movement, and a target ship already
    out of action is refused in phase 9 with the rest (``fire-refused``)."""
    where = f"{ship.name}: {intent.system} ({weapon})"
    said = {"ship": ship.name, "system": intent.system, "weapon": weapon}
    if not intent.target:
        raise IllegalOrder(f"{where}: no target ordered (rules §6)", code="fire.no-target", **said)
    side = side_of(state, intent.target)
    if side is None:
        raise IllegalOrder(
            f"{where}: no ship or light unit {intent.target!r} on the table to fire at (rules §6)",
            code="fire.target-not-on-table",
            target=repr(intent.target),
            **said,
        )
    if side == ship.side:
        raise IllegalOrder(
            f"{where} at {intent.target}: a friendly unit is not a target (rules §6)",
            code="fire.friendly-target",
            target=str(intent.target),
            **said,
        )


def _check_fire_magazines(
    ship: ShipState, fire: Sequence[FireIntent], launches: Sequence[tuple[str, str]]
) -> None:
    """Phase 1 check of magazine-fed fire (§8), as ``spend_magazine`` will draw it: each
    shot takes a round from the weapon's linked magazine (which must be there and working)
    or from its own ``ammo``; this turn's missile launches (phase 3) draw first."""
    drawn: dict[str, int] = {}
    for system_id, _ in launches:  # checked by check_launches
        system = ship.systems[system_id]
        if system.kind != "bay":
            key = system.magazine or system.id
            drawn[key] = drawn.get(key, 0) + 1
    for intent in fire:
        system = ship.systems[intent.system]
        needs = system.magazine or needs_magazine(system.weapon)
        if not needs and system.ammo is None:
            continue
        where = f"{ship.name}: {intent.system} ({system.weapon})"
        said = {"ship": ship.name, "system": intent.system, "weapon": str(system.weapon)}
        key = (system.magazine or "") if needs else system.id
        drawn[key] = drawn.get(key, 0) + 1
        if needs:
            magazine = ship.systems.get(key)
            if magazine is None:
                raise MagazineDestroyed(
                    f"{where}: its magazine {key!r} is missing (rules §8)",
                    code="fire.magazine-missing",
                    magazine=repr(key),
                    **said,
                )
            if not magazine.working:
                raise MagazineDestroyed(
                    f"{where}: its magazine {key!r} is {magazine.status} (rules §8)",
                    code="fire.magazine-not-working",
                    magazine=repr(key),
                    status=str(magazine.status),
                    **said,
                )
            left = magazine.ammo or 0
        else:
            left = system.ammo or 0
        if drawn[key] > left:
            raise MagazineDestroyed(
                f"{where}: magazine {key!r} has {left} round(s) left, {drawn[key]} ordered "
                "from it this turn (rules §8)",
                code="fire.magazine-rounds",
                magazine=repr(key),
                left=str(left),
                ordered=str(drawn[key]),
                **said,
            )


def _check_fire_control(state: BattleState, ship: ShipState, order: ShipOrders) -> None:
    """Phase 1 check that the ship's working FCs can direct its fire orders (§6), through
    ``allocate_fire_control`` with every arc open (arcs are known only after movement):
    one FC per enemy target, a lance one of its own (D-12); systems with their own
    direction, and class-1 weapons at an enemy light unit attached to the ship or homing
    on it (it may attach in phase 3 and then meets them as PD), need none. A vapour veil
    already on, and not switched off in phase 2, leaves no FC (§14). This turn's launches
    do not count: their FCs are free again in phase 9 (see ``phase_ship_fire``)."""
    if not order.fire:
        return
    veiled = (
        ship.ship_id in state.veiled
        and ship.working_count("vapour-veil") > 0
        and not (order.veil is False and ship.bridge_working)
    )
    fcs = 0 if veiled else ship.fire_controls
    fire_orders = []
    for intent in order.fire:
        if aim_point(state, intent.target) is None:
            continue  # refused in phase 9: it takes no FC
        system = ship.systems[intent.system]
        weapon_id = effective_weapon(system.weapon or "", intent.mode, 0.0)
        unit = state.light_units.get(intent.target)
        as_pd = (
            unit is not None
            and ship.ship_id in (unit.attached_to, unit.target)
            and get_weapon(weapon_id).pd_threshold is not None
        )
        fire_orders.append(
            FireOrder(intent.system, weapon_id, ARCS, intent.target, ARCS, point_defence=as_pd)
        )
    if state.options.lance_exclusive:
        check_lance_alone(ship, fire_orders)
    try:
        allocate_fire_control(ship=ship.name, fire_controls=fcs, orders=fire_orders)
    except NoFireControl as error:
        if not veiled:
            raise
        raise NoFireControl(f"{error}; its vapour veil is on (rules §14)") from error


def phase_initiative(state: BattleState, orders: Mapping[str, ShipOrders]) -> list[str]:
    """Phase 2: each side rolls 2d6, ties re-rolled (D-1); the winner goes first. Screens
    are switched here. Returns the sides in acting order."""
    a, b = state.sides
    dice, recording = state.dice, state.recording
    attempt = 0
    while True:
        attempt += 1
        ra = sum(dice.roll(2, f"initiative {a}, roll {attempt}" if recording else ""))
        rb = sum(dice.roll(2, f"initiative {b}, roll {attempt}" if recording else ""))
        if recording:
            state.log(2, "initiative-roll", f"initiative: {a} {ra}, {b} {rb}", rolls={a: ra, b: rb})
        if ra != rb:
            break
        if not state.options.initiative_reroll_ties:
            # Option against D-1: a tie keeps the previous turn's first player (else a).
            winner = state.initiative or a
            ra, rb = (1, 0) if winner == a else (0, 1)
            break
    winner = a if ra > rb else b
    state.initiative = winner
    if recording:
        state.log(2, "initiative", f"{winner} has the initiative", winner=winner)
    for ship in state.in_action():
        wanted = orders.get(ship.ship_id, NO_ORDERS).screens
        if wanted is not None and wanted != ship.screens_on and ship.bridge_working:
            ship.screens_on = wanted
            state.log(
                2,
                "screens",
                f"{ship.name} switches screens {'on' if wanted else 'off'}",
                ship=ship.ship_id,
                on=wanted,
            )
    for ship in state.in_action():
        wanted = orders.get(ship.ship_id, NO_ORDERS).veil
        if wanted is None and ship.ship_id not in state.veiled:
            continue  # nothing asked, no veil on
        has_veil = ship.working_count("vapour-veil") > 0
        if ship.ship_id in state.veiled and not has_veil:
            wanted = False  # the veil system was knocked out: it drops
        elif wanted is None or not ship.bridge_working or (wanted and not has_veil):
            continue  # §4: no screen changes while the bridge is out
        if wanted == (ship.ship_id in state.veiled):
            continue
        (state.veiled.add if wanted else state.veiled.discard)(ship.ship_id)
        state.log(
            2,
            "veil",
            f"{ship.name} vapour veil {'on' if wanted else 'off'}",
            ship=ship.ship_id,
            on=wanted,
        )
    return [winner, state.enemy_of(winner)]
