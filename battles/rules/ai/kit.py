"""What the tactics read off a ship (see ``battles.rules.ai``): the tactical constants, its
loadout in one pass over its systems, its preferred range, whether it is crippled, its nearest
enemy ship.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from battles.rules.errors import RulesError
from battles.rules.sensors import arc_mask
from battles.rules.ships import ShipState, Status, SystemState
from battles.rules.turn import (
    BIOMASS_WEAPONS,
    BattleState,
    squadron_weapon,
)
from battles.rules.weapons import get_weapon

DEPLOY_GAP = 72.0  # mu between the fleets (§1)
DEPLOY_SPACING = 8.0  # mu between ships of a fleet
START_SPEED = 8  # mu (§1: 1–10)
LAUNCH_RANGE = 60.0  # mu: squadrons launch once an enemy is this close
MISSILE_RANGE = 36.0
VEIL_RANGE = 48.0
CRIPPLED = 1 / 3  # fraction of hull left at or below which a ship withdraws
MIN_SPEED = 2
REPAIR_ORDER = ("core", "life-support", "bridge", "fc", "drive", "weapon")
_REPAIR_RANK = {kind: i for i, kind in enumerate(REPAIR_ORDER)}


def _pos(ship: ShipState) -> tuple[float, float]:
    return (ship.x, ship.y)


@cache
def _reach(weapon_id: str) -> int:
    """Longest range of a weapon (pulsers: the long mode), mu."""
    return get_weapon("pulser-long" if weapon_id == "pulser" else weapon_id).max_range


@cache
def _is_light(weapon_id: str) -> bool:
    return get_weapon(weapon_id).light_unit


class GunProfile(NamedTuple):
    """What the tactics read off a weapon id and its arcs, resolved once per battle (the
    catalogue never changes; a system's weapon and arcs neither)."""

    weapon: str
    light: bool  # a light-unit weapon: launched in phase 3, never fired in phase 9
    reach: int  # longest range, mu (pulsers: the long mode)
    first_band: int  # upper bound of the first band, mu (pulsers: the short mode); 0 if light
    mask: int  # the arcs as bits (``sensors.arc_mask``)
    lance: bool
    powered: bool  # a Sa'vasku shot: biomass weapon or needle power (§8, §14)
    biomass: bool  # costs 1 biomass and 3 PP a shot (``BIOMASS_WEAPONS``)


@cache
def gun_profile(weapon_id: str, arcs: tuple[str, ...]) -> GunProfile:
    """The ``GunProfile`` of a weapon id with ``arcs``; ``UnknownWeapon`` for an id not in
    the catalogue."""
    light = _is_light(weapon_id)
    biomass = weapon_id in BIOMASS_WEAPONS
    return GunProfile(
        weapon_id,
        light,
        _reach(weapon_id),
        0 if light else _first_band(weapon_id),
        arc_mask(arcs),
        weapon_id == "lance",
        biomass or _needs_power(weapon_id),
        biomass,
    )


def ship_guns(ship: ShipState) -> tuple[tuple[SystemState, GunProfile], ...]:
    """The ship's weapon systems (those naming a weapon, SSD order) with their profiles,
    resolved on first use and kept with the ship's index of systems by kind
    (``ShipState.derived``): the turn loops read only each system's status."""
    derived = ship.derived()
    guns = derived.get("guns")
    if guns is None:
        guns = derived["guns"] = tuple(
            (system, gun_profile(system.weapon, tuple(system.arcs)))
            for system in ship.by_kind().get("weapon", ())
            if system.weapon
        )
    return guns


@cache
def _needs_power(weapon_id: str) -> bool:
    """A needle nodule: fired with power points set each turn (§8, §14)."""
    return bool(get_weapon(weapon_id).power_points)


class _Loadout:
    """One pass over a ship's systems: what the tactics need to know. (A plain slotted
    class: one is built per ship per turn, and a dataclass with default factories costs
    more than the scan itself.)"""

    __slots__ = (
        "guns",
        "first_band",
        "missiles",
        "bays",
        "tubes",
        "free_tubes",
        "veil",
        "has_bays",
        "working_bays",
        "pulsers",
        "needles",
        "biomass_shots",
    )

    def __init__(self) -> None:
        self.guns: list[Any] = []  # working heavy weapons (not missiles)
        self.first_band = 0  # mu: the smallest first-band bound of ``guns`` (when any)
        self.missiles: list[str] = []  # missile launchers with a round
        self.bays: list[str] = []  # bays whose squadron is still aboard
        self.tubes = 0
        self.free_tubes = 0
        self.veil = False
        self.has_bays = False
        self.working_bays = 0
        self.pulsers: list[str] = []  # working pulsers (D-34: a mode set in phase 1)
        self.needles: list[str] = []  # working needle nodules (D-34: PP set in phase 1)
        self.biomass_shots = 0  # working nodules/spicules that each cost 1 biomass, 3 PP


_WORKING = Status.WORKING
_DAMAGED = Status.DAMAGED


def _loadout(ship: ShipState) -> _Loadout:
    out = _Loadout()
    for system, gun in ship_guns(ship):
        if system.status is not _WORKING:
            continue
        weapon = gun.weapon
        if weapon == "pulser":
            out.pulsers.append(system.id)
        elif weapon == "needle-nodule":
            out.needles.append(system.id)
        elif gun.biomass:
            out.biomass_shots += 1
        if gun.light:
            if _has_round(ship, system):
                out.missiles.append(system.id)
        else:
            if not out.guns or gun.first_band < out.first_band:
                out.first_band = gun.first_band
            out.guns.append(system)
    index = ship.by_kind()
    bays = index.get("bay", ())
    if bays:
        out.has_bays = True
        for system in bays:
            out.working_bays += system.working
            squadron = system.data.get("squadron")
            aboard = system.working and not system.data.get("launched")
            if aboard and squadron and _launchable(squadron):
                out.bays.append(system.id)
    tubes = index.get("launch-tube", ())
    out.tubes = len(tubes)
    out.free_tubes = sum(system.working for system in tubes)
    out.veil = "vapour-veil" in index
    return out


def preferred_range(ship: ShipState, loadout: _Loadout | None = None) -> float:
    """The smallest first-band upper bound over the ship's working heavy weapons (mu); 12
    when it has none."""
    kit = loadout or _loadout(ship)
    return float(kit.first_band) if kit.guns else 12.0


@cache
def _first_band(weapon_id: str) -> int:
    """Upper bound of a ship weapon's first band (mu)."""
    return get_weapon("pulser-short" if weapon_id == "pulser" else weapon_id).bands[0].hi


def crippled(ship: ShipState, loadout: _Loadout | None = None) -> bool:
    """A third of the hull or less left, or nothing left to fight with (no working heavy
    weapon, no missile round, no squadron aboard)."""
    if ship.hull_left <= ship.hull_max * CRIPPLED:
        return True
    kit = loadout or _loadout(ship)
    return not kit.guns and not kit.missiles and not kit.bays


def _strength(state: BattleState, side: str) -> int | float:
    """Surviving strength, 6 decimals; ``0`` (an int, as stored logs have it) with no ship
    left: compiled by mypyc, ``round`` of a ``float`` type would write ``0.0``."""
    total = sum(s.mass * s.hull_left / s.hull_max for s in state.in_action(side) if s.hull_max > 0)
    return round(total, 6) if type(total) is float else total


def _nearest(state: BattleState, ship: ShipState) -> ShipState | None:
    best: ShipState | None = None
    best_d2 = math.inf
    x, y = ship.x, ship.y
    for enemy in state.in_action(state.enemy_of(ship.side)):
        dx, dy = enemy.x - x, enemy.y - y
        d2 = dx * dx + dy * dy
        if d2 < best_d2:  # ties keep the first in fleet order
            best, best_d2 = enemy, d2
    return best


def _has_round(ship: ShipState, system: Any) -> bool:
    if system.magazine:
        magazine = ship.systems.get(system.magazine)
        return bool(magazine and magazine.working and magazine.ammo)
    return system.ammo is None or system.ammo > 0


def _launchable(squadron: Mapping[str, Any]) -> bool:
    try:
        squadron_weapon(squadron)
    except RulesError:
        return False
    return True


@cache
def _pd_capable(weapon_id: str) -> bool:
    if weapon_id == "pulser":
        return True
    return get_weapon(weapon_id).pd_threshold is not None
