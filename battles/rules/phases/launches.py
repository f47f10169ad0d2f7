"""Launches and light units out of the fire phases (rules §2 phases 3, 6 and 8, §9).

Phase 3: squadrons leave their bays and missiles their launchers (each ties an FC until
phase 9, §6) and every unit makes its main move; end of phase 6: fighters called home land
on their carrier; phase 8: fighters and missiles within 6 mu mark their target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from battles.rules.errors import MagazineDestroyed, RulesError, UnknownWeapon
from battles.rules.phases.movement import light_unit_move
from battles.rules.phases.state import (
    ATTACH_RANGE,
    ENDURANCE,
    ESCORT_AREA_DEFENCE,
    LIGHT_ATTACK_RANGE,
    MU_PER_ENDURANCE,
    NO_ORDERS,
    SALVO_MISSILES,
    BattleState,
    LightUnit,
    ShipOrders,
    alternate,
    light_kind,
    ship_pos,
)
from battles.rules.sensors import distance
from battles.rules.ships import ShipState
from battles.rules.weapons import get_weapon


def launch_bays(ship: ShipState) -> int:
    """Squadrons a ship may launch this turn: its working launch tubes, or one when the
    design has none (provisional)."""
    tubes = [s for s in ship.systems.values() if s.kind == "launch-tube"]
    if not tubes:
        return 1
    return sum(1 for s in tubes if s.working)


def phase_launch(
    state: BattleState, orders: Mapping[str, ShipOrders], acting: Sequence[str]
) -> dict[str, list[str]]:
    """Phase 3: launches (side with initiative first), a full move for each new unit, then
    the units already in flight move. Returns the FC labels each ship tied up."""
    tied: dict[str, list[str]] = {}
    new_units: list[LightUnit] = []
    for ship in state.in_action():
        for unit_id in orders.get(ship.ship_id, NO_ORDERS).recover:
            unit = state.light_units[unit_id]
            unit.home, unit.target, unit.attached_to = ship.ship_id, None, None
    for ship in alternate(state, acting):
        for system_id, target_id in orders.get(ship.ship_id, NO_ORDERS).launches:
            new_units.append(_launch_one(state, ship, system_id, target_id))
            tied.setdefault(ship.ship_id, []).append(system_id)
    for unit in new_units:
        light_unit_move(state, unit, MU_PER_ENDURANCE[unit.kind], 3)
    fresh = {u.unit_id for u in new_units}
    for unit in list(state.light_units.values()):
        if unit.unit_id not in fresh:
            light_unit_move(state, unit, MU_PER_ENDURANCE[unit.kind], 3)
    return tied


def recovery_rate(ship: ShipState, *, round_up: bool = True) -> int:
    """Squadrons a carrier may take aboard per turn (§9: « il peut en récupérer la moitié à
    chaque tour »): half its working launch tubes, rounded up by default (D-31: a one-tube
    carrier recovers 1; rounding down would leave it unable to recover at all), rounded
    down with ``round_up=False`` (option ``carrier_recovery_round_up``); one when the
    design has no tube (provisional, as ``launch_bays``)."""
    tubes = [s for s in ship.systems.values() if s.kind == "launch-tube"]
    if not tubes:
        return 1
    working = sum(1 for s in tubes if s.working)
    return -(-working // 2) if round_up else working // 2


def bay_free(system: Any) -> bool:
    """True for a working bay with no squadron aboard (never loaded, or its squadron is out)."""
    return (
        system.kind == "bay"
        and system.working
        and (not system.data.get("squadron") or bool(system.data.get("launched")))
    )


def phase_landing(state: BattleState) -> None:
    """End of phase 6: fighters flying home that ended within 3 mu of their carrier land
    in a free bay (their own first), at most ``recovery_rate`` squadrons per carrier and
    turn (§2 phase 6, §9). A landed squadron spends the next turn aboard rearming: its
    bay may launch it again from turn + 2, with its craft left and full endurance."""
    homing = [u for u in state.light_units.values() if u.home is not None and u.active]
    if not homing:
        return
    landed: dict[str, int] = {}
    for unit in homing:
        carrier = state.ships[unit.home or ""]
        if carrier.out_of_action or distance(unit.position, ship_pos(carrier)) > ATTACH_RANGE:
            continue
        if landed.get(carrier.ship_id, 0) >= recovery_rate(
            carrier, round_up=state.options.carrier_recovery_round_up
        ):
            continue
        own = carrier.systems.get(unit.bay) if unit.origin == carrier.ship_id else None
        free = [s for s in carrier.systems.values() if bay_free(s)]
        if not free:
            continue
        bay = own if own is not None and own in free else free[0]
        squadron = bay.data.get("squadron") if bay is own else None
        bay.data["squadron"] = {**(squadron or {"unit": unit.weapon}), "size": unit.craft}
        bay.data["launched"] = False
        bay.data["ready_turn"] = state.turn + 2
        landed[carrier.ship_id] = landed.get(carrier.ship_id, 0) + 1
        del state.light_units[unit.unit_id]
        state.log(
            6,
            "land",
            f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) lands on {carrier.name} "
            f"({bay.id}), rearms until turn {state.turn + 2}",
            unit=unit.unit_id,
            ship=carrier.ship_id,
            system=bay.id,
            craft=unit.craft,
            ready_turn=state.turn + 2,
        )


def escort_launch(system: Any, target: ShipState) -> bool:
    """A bay launching a fighter or PD-platform squadron at a friendly ship still in
    action: the squadron flies to it and escorts it, moving with it once within 3 mu (§2
    phase 3: « Les Chasseurs dans un rayon de 3mu d’un vaisseau peuvent choisir
    d’Escorter (allié) ou de se Projeter (ennemi) »; §9: « La Plateforme SD reste
    positionnée en Escorte d’un vaisseau »). PD platforms give it area defence (phase 9);
    the seed gives escorting fighters no other effect: they dogfight enemy light units
    within 6 mu in phase 10 (a) as any squadron does. Other gunboats and drones do not
    escort (the seed names only fighters and the PD platform)."""
    if system.kind != "bay" or target.out_of_action:
        return False
    try:
        weapon = squadron_weapon(system.data.get("squadron") or {})
    except RulesError:
        return False
    return weapon == ESCORT_AREA_DEFENCE or light_kind(weapon) == "fighter"


def squadron_weapon(squadron: Mapping[str, Any], *, where: str = "squadron") -> str:
    """The catalogue id a bay's squadron attacks with (§9): its ``unit`` word through the
    weapon aliases (``long-range-fighter`` → ``fighter-long-range``), or for ``gunboat``
    the ``variant`` (``{"unit": "gunboat", "variant": "emp"}`` → ``gunboat-emp``, the
    design catalogue's spelling). Raises ``UnknownWeapon`` naming ``where`` otherwise."""
    unit = str(squadron.get("unit", ""))
    if unit == "gunboat" and squadron.get("variant"):
        unit = f"gunboat-{squadron['variant']}"
    try:
        weapon = get_weapon(unit)
    except UnknownWeapon as error:
        raise UnknownWeapon(f"{where}: {error}") from error
    if not weapon.light_unit:
        raise UnknownWeapon(f"{where}: {unit!r} is not a launchable light unit (rules §9)")
    return weapon.id


def _launch_one(state: BattleState, ship: ShipState, system_id: str, target_id: str) -> LightUnit:
    """Launch one squadron from a bay, or one missile from a magazine-fed launcher (orders
    checked in phase 1 by ``phases.orders``)."""
    system = ship.systems[system_id]
    if system.kind == "bay":
        squadron = system.data["squadron"]
        weapon = squadron_weapon(squadron)
        craft = int(squadron.get("size", 6))
        system.data["launched"] = True
    else:
        weapon = str(system.weapon)
        craft = SALVO_MISSILES if weapon == "missile-salvo" else 1
        spend_magazine(ship, system, f"{ship.name}: launch from {system_id!r}")
    unit = LightUnit(
        unit_id=state.new_unit_id(f"{ship.ship_id}.{system_id}"),
        side=ship.side,
        weapon=weapon,
        craft=craft,
        endurance=ENDURANCE.get(weapon, 1) * MU_PER_ENDURANCE[light_kind(weapon)],
        x=ship.x,
        y=ship.y,
        origin=ship.ship_id,
        target=target_id,
        launched_turn=state.turn,
        bay=system_id if system.kind == "bay" else "",
    )
    state.light_units[unit.unit_id] = unit
    state.log(
        3,
        "launch",
        f"{ship.name} launches {weapon} ×{craft} at {state.ships[target_id].name}",
        ship=ship.ship_id,
        system=system_id,
        unit=unit.unit_id,
        weapon=weapon,
        craft=craft,
        target=target_id,
    )
    return unit


def spend_magazine(ship: ShipState, system: Any, where: str) -> None:
    """Take one round for a magazine-fed or single-use weapon (§8): from its linked
    magazine, or from its own ``ammo``. Raises ``MagazineDestroyed`` when the magazine is
    missing, damaged, destroyed or empty."""
    if system.magazine is None and system.ammo is None and not needs_magazine(system.weapon):
        return
    if system.magazine or needs_magazine(system.weapon):
        magazine = ship.systems.get(system.magazine or "")
        if magazine is None or not magazine.working or not magazine.ammo:
            raise MagazineDestroyed(
                f"{where}: magazine {system.magazine!r} is missing, destroyed or empty (rules §8)"
            )
        magazine.ammo -= 1
    elif system.ammo is not None:
        if system.ammo <= 0:
            raise MagazineDestroyed(f"{where}: no rounds left (rules §8)")
        system.ammo -= 1


@cache
def needs_magazine(weapon_id: str | None) -> bool:
    return bool(weapon_id) and get_weapon(weapon_id or "").magazine


def phase_intent(state: BattleState) -> None:
    """Phase 8: fighters and missiles within 6 mu of an enemy ship declare their target."""
    for unit in state.light_units.values():
        if not unit.active or unit.kind == "gunboat":
            continue
        target = state.ships.get(unit.target or "")
        if target is None or target.out_of_action:
            continue
        if distance(unit.position, ship_pos(target)) <= LIGHT_ATTACK_RANGE:
            state.log(
                8,
                "intent",
                f"{unit.unit_id} marks {target.name}",
                unit=unit.unit_id,
                target=target.ship_id,
            )
