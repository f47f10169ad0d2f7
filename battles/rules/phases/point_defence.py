"""End of phase 9 (rules §2, §10): PD, ADAF, their Kra'vak and Sa'vasku equivalents
(scattergun, spicule, interceptor nodule) and escorting PD-platform gunboats (§9) fire at
enemy light units near their ship."""

from __future__ import annotations

from collections.abc import Sequence

from battles.rules.phases.effects import Pending
from battles.rules.phases.launches import spend_magazine
from battles.rules.phases.state import (
    BIOMASS_WEAPONS,
    ESCORT_AREA_DEFENCE,
    PD_RANGE,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    LightUnit,
    ship_pos,
    try_fire,
    unit_target_kind,
)
from battles.rules.sensors import distance
from battles.rules.ships import ShipState, Status
from battles.rules.weapons import get_weapon

INTERCEPTOR_RANGE = 12.0  # mu, §8: « dans un rayon de 12mu »
#: §10: the equivalents' reach and whom they defend against: PD (attached to or homing on
#: the ship) or ADAF (any enemy light unit in reach).
_EQUIVALENTS = {
    "spicule": (PD_RANGE, "pd"),
    "scattergun": (PD_RANGE, "adaf"),
    "interceptor-nodule": (INTERCEPTOR_RANGE, "adaf"),
}


def point_defence(state: BattleState, ship: ShipState, pending: Pending) -> None:
    """PD fires at enemy light units attached to the ship or homing on it within 6 mu;
    ADAF at any enemy light unit within 6 mu (§10); so does each PD-platform gunboat
    squadron escorting the ship (§9, :func:`_escort_area_defence`), and the equivalents
    (:func:`_equivalents`). Each engages the threat with the most craft."""
    enemies = [
        u
        for u in state.light_units.values()
        if u.active
        and u.side != ship.side
        and distance(u.position, ship_pos(ship)) <= INTERCEPTOR_RANGE
    ]
    if not enemies:
        return
    near = [u for u in enemies if distance(u.position, ship_pos(ship)) <= PD_RANGE]
    if not near:
        _equivalents(state, ship, pending, enemies)  # interceptor nodules reach 12 mu
        return
    enemies, wide = near, enemies
    for system in ship.systems.values():
        if not system.working or system.kind not in ("pd", "adaf"):
            continue
        pool = (
            enemies
            if system.kind == "adaf"
            else [u for u in enemies if ship.ship_id in (u.attached_to, u.target)]
        )
        pool = [u for u in pool if u.craft > pending.kills.get(u.unit_id, 0)]
        if not pool:
            continue
        unit = max(pool, key=lambda u: (u.craft - pending.kills.get(u.unit_id, 0), u.unit_id))
        range_mu = distance(unit.position, ship_pos(ship))
        volley = try_fire(
            state,
            9,
            system.kind,
            range_mu=min(range_mu, PD_RANGE),
            target=unit_target_kind(unit),
            target_name=unit.unit_id,
        )
        if volley is None:
            continue
        pending.add_volley(unit.unit_id, volley, is_unit=True)
        state.log(
            9,
            "point-defence",
            f"{ship.name} {system.id} at {unit.unit_id}: {volley.kills} killed",
            ship=ship.ship_id,
            system=system.id,
            unit=unit.unit_id,
            kills=volley.kills,
        )
    _equivalents(state, ship, pending, wide)
    for escort in state.light_units.values():
        if (
            escort.weapon == ESCORT_AREA_DEFENCE
            and escort.attached_to == ship.ship_id
            and escort.side == ship.side
            and escort.active
        ):
            _escort_area_defence(state, ship, escort, enemies, pending)


def _escort_area_defence(
    state: BattleState,
    ship: ShipState,
    escort: LightUnit,
    enemies: Sequence[LightUnit],
    pending: Pending,
) -> None:
    """§9 table, §10: a PD-platform gunboat squadron escorting ``ship`` fires as its ADAF at
    the enemy light unit within 6 mu of the ship with most craft left, with the gunboats'
    own dice — per craft, the ``gunboat-pd`` dice at that range (2 within 6 mu) — each
    read on the PD table (−2 against gunboats, §10)."""
    pool = [u for u in enemies if u.craft > pending.kills.get(u.unit_id, 0)]
    if not pool:
        return
    unit = max(pool, key=lambda u: (u.craft - pending.kills.get(u.unit_id, 0), u.unit_id))
    range_mu = min(distance(unit.position, ship_pos(ship)), PD_RANGE)
    dice = get_weapon(ESCORT_AREA_DEFENCE).band(range_mu).dice * escort.craft
    volley = try_fire(
        state,
        9,
        "adaf",
        range_mu=range_mu,
        count=dice,
        target=unit_target_kind(unit),
        target_name=f"{unit.unit_id} (escort {escort.unit_id})",
    )
    if volley is None:
        return
    pending.add_volley(unit.unit_id, volley, is_unit=True)
    state.log(
        9,
        "point-defence",
        f"{escort.unit_id} escorting {ship.name} at {unit.unit_id}: {volley.kills} killed",
        ship=ship.ship_id,
        system=escort.unit_id,
        unit=unit.unit_id,
        kills=volley.kills,
        escort=True,
    )


def _equivalents(
    state: BattleState, ship: ShipState, pending: Pending, enemies: Sequence[LightUnit]
) -> None:
    """§10: the Kra'vak and Sa'vasku equivalents defend their own ship like the system they
    stand for, with their own dice and their own fire direction (no FC), each at the enemy
    light unit in reach with most craft left, if they did not fire in this phase already:

    - spicule, « l’équivalent du Système de défense humain … aux effets identiques à ceux
      de son homologue »: as PD — units attached to the ship or homing on it, ≤ 6 mu, one
      die on the PD table; costs 1 biomass and 3 PP (« il consomme 1 Biomasse et 3PP »);
    - scattergun, « l’équivalent d’une Zone de défense, à ceci près qu’il est d’un usage
      unique »: as ADAF — any enemy light unit ≤ 6 mu; the unit loses 1d6 (« Les unités
      légères subissent 1d6 pertes (1d6/2 pour une escadrille de Chasseurs lourds) »);
      spends its one round;
    - interceptor nodule, « l’équivalent Sa’vasku d’une Zone de défense, ou plus
      précisément d’un Disperseur Kra’vak … dans un rayon de 12mu »: any enemy light unit
      ≤ 12 mu loses 1d6 (heavy fighters 1d6/2, D-17); 1 biomass and 3 PP a shot.

    A Sa'vasku ship pays from the PP its ship fire left (``pending.power_left``)."""
    here = ship_pos(ship)
    for system in ship.systems.values():
        reach_kind = _EQUIVALENTS.get(system.weapon or "")
        if reach_kind is None or system.kind != "weapon" or system.status is not Status.WORKING:
            continue
        if (ship.ship_id, system.id) in pending.fired:
            continue
        reach, kind = reach_kind
        pool = [
            u
            for u in enemies
            if distance(u.position, here) <= reach
            and (kind == "adaf" or ship.ship_id in (u.attached_to, u.target))
            and u.craft > pending.kills.get(u.unit_id, 0)
        ]
        if not pool:
            continue
        weapon = system.weapon or ""
        power = pending.power_left.get(ship.ship_id, ship.power_points)
        if weapon in BIOMASS_WEAPONS and (ship.biomass < SHOT_BIOMASS or power < SHOT_POWER_POINTS):
            continue  # « il consomme 1 Biomasse et 3PP »: nothing left to pay with
        if not _has_round(ship, system):
            continue
        unit = max(pool, key=lambda u: (u.craft - pending.kills.get(u.unit_id, 0), u.unit_id))
        range_mu = distance(unit.position, here)
        volley = try_fire(
            state,
            9,
            weapon,
            range_mu=min(range_mu, reach),
            target=unit_target_kind(unit),
            target_name=unit.unit_id,
        )
        if volley is None:
            continue
        if system.ammo is not None or system.magazine is not None:
            spend_magazine(ship, system, f"{ship.name}: {system.id}")
        paid = {}
        if weapon in BIOMASS_WEAPONS:
            ship.biomass -= SHOT_BIOMASS
            pending.power_left[ship.ship_id] = power - SHOT_POWER_POINTS
            paid = {"power_points": SHOT_POWER_POINTS, "biomass": ship.biomass}
        pending.fired.add((ship.ship_id, system.id))
        pending.add_volley(unit.unit_id, volley, is_unit=True)
        state.log(
            9,
            "point-defence",
            f"{ship.name} {system.id} ({weapon}) at {unit.unit_id}: {volley.kills} killed",
            ship=ship.ship_id,
            system=system.id,
            unit=unit.unit_id,
            kills=volley.kills,
            weapon=weapon,
            **paid,
        )


def _has_round(ship: ShipState, system: object) -> bool:
    magazine_id = getattr(system, "magazine", None)
    if magazine_id:
        magazine = ship.systems.get(magazine_id)
        return bool(magazine and magazine.working and magazine.ammo)
    ammo = getattr(system, "ammo", None)
    return ammo is None or ammo > 0
