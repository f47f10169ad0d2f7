"""End of phase 9 (rules §2, §10): PD, ADAF and escorting PD-platform gunboats (§9) fire
at enemy light units within 6 mu."""

from __future__ import annotations

from collections.abc import Sequence

from battles.rules.phases.effects import Pending
from battles.rules.phases.state import (
    ESCORT_AREA_DEFENCE,
    PD_RANGE,
    BattleState,
    LightUnit,
    ship_pos,
    try_fire,
    unit_target_kind,
)
from battles.rules.sensors import distance
from battles.rules.ships import ShipState
from battles.rules.weapons import get_weapon


def point_defence(state: BattleState, ship: ShipState, pending: Pending) -> None:
    """PD fires at enemy light units attached to the ship or homing on it within 6 mu;
    ADAF at any enemy light unit within 6 mu (§10); so does each PD-platform gunboat
    squadron escorting the ship (§9, :func:`_escort_area_defence`). Each engages the
    threat with the most craft."""
    enemies = [
        u
        for u in state.light_units.values()
        if u.active and u.side != ship.side and distance(u.position, ship_pos(ship)) <= PD_RANGE
    ]
    if not enemies:
        return
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
