"""Phase 1 of rules §2, the fire side of the orders: the turn's per-system settings
(pulser modes, needle-nodule power, D-34), the Sa'vasku power budget (§8, §10, §14) and a
lance firing alone (D-12). Each raises ``IllegalOrder`` naming the ship and the system."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battles.rules.errors import IllegalOrder
from battles.rules.phases.state import (
    BIOMASS_WEAPONS,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    FireIntent,
    ShipOrders,
)
from battles.rules.sensors import LANCE, OWN_DIRECTION, FireOrder
from battles.rules.ships import ShipState
from battles.rules.weapons import get_weapon


def phase_1_settings(
    state: BattleState, ship: ShipState, order: ShipOrders
) -> dict[str, str | int]:
    """The ship's phase-1 settings (D-34): ``order.settings`` merged with the ``mode`` and
    ``power_points`` of its fire orders. Raises ``IllegalOrder`` for a setting of no pulser
    or needle nodule of the ship, an unknown mode, power points that are not a whole
    number ≥ 0, a fire order contradicting ``settings``, or — under D-34's default
    (``settings_in_orders``) — a pulser ordered to fire with no mode chosen (« le joueur
    doit choisir, pour chacun de ses Pulseurs, la portée effective »)."""
    raw = order.settings
    if not isinstance(raw, Mapping):
        raise IllegalOrder(
            f"{ship.name}: settings must map system ids to a mode or power points, got "
            f"{type(raw).__name__} (rules §2 phase 1, D-34)"
        )
    merged: dict[str, str | int] = {}
    for system_id, value in raw.items():
        system = ship.systems.get(system_id)
        weapon = get_weapon(system.weapon) if system is not None and system.weapon else None
        if weapon is None or not (weapon.modes or weapon.power_points):
            raise IllegalOrder(
                f"{ship.name}: setting of {system_id!r}: not a pulser or needle nodule of the "
                "ship (rules §2 phase 1, D-34)"
            )
        if weapon.modes and value not in weapon.modes:
            raise IllegalOrder(
                f"{ship.name}: setting of {system_id!r}: no fire mode {value!r} (modes: "
                f"{', '.join(weapon.modes)}; rules §8)"
            )
        if weapon.power_points and (type(value) is not int or value < 0):
            raise IllegalOrder(
                f"{ship.name}: setting of {system_id!r}: power points must be a whole number "
                f"≥ 0, got {value!r} (rules §8)"
            )
        merged[system_id] = value
    for intent in order.fire:
        setting = intent.mode if intent.mode is not None else intent.power_points
        if setting is None:
            continue
        value = setting
        if intent.mode is None and (type(value) is not int or value < 0):
            weapon_id = ship.systems[intent.system].weapon
            raise IllegalOrder(
                f"{ship.name}: {intent.system} ({weapon_id}) needs a number of power points "
                f"≥ 0 ordered in phase 1, got {value!r} (rules §8)"
            )
        if merged.get(intent.system, value) != value:
            raise IllegalOrder(
                f"{ship.name}: {intent.system} is set to {merged[intent.system]!r} and "
                f"ordered to fire with {value!r} (rules §2 phase 1, D-34)"
            )
        merged[intent.system] = value
    if state.options.settings_in_orders:
        for intent in order.fire:
            if (
                ship.systems[intent.system].weapon == "pulser"
                and intent.system not in merged
                and intent.target in state.ships  # as PD at a light unit any mode will do
            ):
                raise IllegalOrder(
                    f"{ship.name}: {intent.system} (pulser) ordered to fire with no mode "
                    "chosen in phase 1 (rules §8, D-34)"
                )
    return merged


def check_lance_alone(ship: ShipState, fire_orders: Sequence[FireOrder]) -> None:
    """D-12 (default ``lance_exclusive``): « Un Contrôle de tir est requis pour la Lance,
    aucun autre système d’armes ne peut être employé en même temps » — a ship ordering a
    lance to fire orders no other weapon system, bar its defence (PD, ADAF and their
    equivalents, class-1 weapons as PD)."""
    lances = [o.system for o in fire_orders if o.weapon == LANCE]
    others = [
        o.system
        for o in fire_orders
        if o.weapon != LANCE and o.weapon not in OWN_DIRECTION and not o.point_defence
    ]
    if lances and others:
        raise IllegalOrder(
            f"{ship.name}: {', '.join(lances)} (lance) ordered with {', '.join(others)}; no "
            "other weapon system fires in the phase a lance fires (rules §8, D-12)"
        )


def check_power(
    ship: ShipState, fire: Sequence[FireIntent], settings: Mapping[str, str | int]
) -> None:
    """Phase 1 check of a Sa'vasku ship's power allocation (§8, §10, §14): a
    needle nodule needs its power points ordered; launcher nodules (penetrator, vampire,
    interceptor) and spicules cost 3 PP and 1 biomass per shot; all the PP ordered come out
    of the ship's ``power_points`` for the turn. The seed: "l’allocation d’énergie sur un
    Nodule-aiguillon n’est limitée que par le score de Puissance du vaisseau"; "puisant
    dans la Biomasse (1 point) du vaisseau … et requérant des points de Puissance pour leur
    lancement (3PP)"; spicule: "il consomme 1 Biomasse et 3PP". Power set for a needle
    nodule in ``settings`` (D-34) counts whether or not it is ordered to fire."""
    firing = {intent.system for intent in fire}
    power = sum(v for k, v in settings.items() if isinstance(v, int) and k not in firing)
    biomass = 0
    if power > ship.power_points:
        raise IllegalOrder(
            f"{ship.name}: {power} power points set in phase 1, the ship has "
            f"{ship.power_points} (rules §8, §14)"
        )
    for intent in fire:
        weapon = get_weapon(ship.systems[intent.system].weapon or "")
        where = f"{ship.name}: {intent.system} ({weapon.id})"
        if weapon.power_points:
            if intent.system not in settings:
                raise IllegalOrder(
                    f"{where} needs a number of power points ≥ 0 ordered in phase 1, got "
                    f"{intent.power_points} (rules §8)"
                )
            power += int(settings[intent.system])
        elif weapon.id in BIOMASS_WEAPONS:
            power += SHOT_POWER_POINTS
            biomass += SHOT_BIOMASS
            if biomass > ship.biomass:
                raise IllegalOrder(
                    f"{where}: {SHOT_BIOMASS} biomass per shot, the ship has {ship.biomass} "
                    f"for {biomass} shot(s) (rules {weapon.section})"
                )
        else:
            continue
        if power > ship.power_points:
            raise IllegalOrder(
                f"{where}: {power} power points ordered, the ship has {ship.power_points} "
                "(rules §8, §14)"
            )
