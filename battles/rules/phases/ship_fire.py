"""Phase 9 of rules §2: ship fire, then point defence; damage applied at the end.

Ships fire alternately, the side with the initiative first. An order the geometry no longer
allows after movement (arc, range, fire control) is refused and logged (``fire-refused``),
not raised. FC allocation (§6) has a fast check for the usual case
(``fire_control_suffices``); ``sensors.allocate_fire_control`` decides the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from battles.rules.errors import RulesError
from battles.rules.phases.effects import Pending, apply_pending
from battles.rules.phases.launches import needs_magazine, spend_magazine
from battles.rules.phases.point_defence import point_defence
from battles.rules.phases.state import (
    BIOMASS_WEAPONS,
    PD_RANGE,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    FireIntent,
    aim_point,
    alternate,
    effective_weapon,
    fire_controls,
    screen_level,
    unit_target_kind,
    volley_text,
)
from battles.rules.sensors import (
    ARC_BITS,
    LANCE,
    OWN_DIRECTION,
    FireOrder,
    allocate_fire_control,
    arc_mask,
    fire_reach,
    pd_arc_limited,
    sensor_range,
)
from battles.rules.ships import ShipState, Status
from battles.rules.weapons import Weapon, resolve_volley

_WORKING = Status.WORKING


def phase_ship_fire(
    state: BattleState,
    ship_fire: Callable[[BattleState, ShipState], Sequence[FireIntent]],
    acting: Sequence[str],
) -> None:
    """Phase 9: ships fire alternately (initiative side first), then PD/ADAF; all damage is
    applied at the end of the phase. An order the geometry no longer allows (arc, range,
    fire control after movement) is refused and logged, not raised.

    Project reading (§6): an FC tied by a launch in phase 3 is free again here;
    the seed: "Un contrôle de tir est également mobilisé pour le lancement … mais sont
    libérés après lancement de ces unités". So this turn's launches do not count against
    the ship's FCs in phase 9 (a launch still needs a free FC in phases 1 and 3)."""
    pending = Pending()
    order = alternate(state, acting)  # no ship drops out before the damage at the end
    for ship in order:
        ship_volleys(state, ship, ship_fire(state, ship), pending)
    for ship in order:
        point_defence(state, ship, pending)
    state.hold_roster(False)
    apply_pending(state, pending, 9)


def ship_volleys(
    state: BattleState,
    ship: ShipState,
    intents: Sequence[FireIntent],
    pending: Pending,
) -> None:
    """Resolve one ship's heavy-weapon fire: FC allocation (§6) then one volley per system.
    The FCs tied by this turn's launches are free again (§6, "libérés après lancement")."""
    # (intent, system, effective weapon id, range mu, target name, target arcs, as PD)
    accepted: list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]] = []
    systems = ship.systems
    ships, units = state.ships, state.light_units
    options = state.options
    # D-34: pulser modes and needle PP as written in phase 1 (``phase_orders``).
    chosen = state.settings.get(ship.ship_id, {}) if options.settings_in_orders else None
    # D-32 / D-33 off (the default): FC-directed fire reaches as far as the weapon does.
    reach_limited = options.blip_fire == "forbidden" or options.ecm_limits_fire_control
    lance = False  # a lance among the accepted orders (D-12)
    for intent in intents:
        system = systems.get(intent.system)
        unset = False  # a pulser with no phase-1 mode may still fire as PD (any mode)
        if chosen is not None and system is not None and system.weapon in _SET_IN_PHASE_1:
            setting = chosen.get(intent.system)
            if setting is None:
                unset = system.weapon == "pulser" and intent.target in units
                if not unset:
                    _refuse(state, ship, intent, _no_setting(system))
                    continue
            elif system.weapon == "pulser":
                intent = FireIntent(intent.system, intent.target, mode=str(setting))
            else:
                intent = FireIntent(intent.system, intent.target, power_points=int(setting))
        target_id = intent.target
        aim = aim_point(state, target_id)
        if system is None or system.status is not _WORKING or not system.weapon or aim is None:
            _refuse(state, ship, intent, _gone_why(system, target_id, aim))
            continue
        # side_of, with the target known to be a ship or a unit on the table
        target = ships.get(target_id) or units[target_id]
        if target.side == ship.side:
            _refuse(state, ship, intent, "a friendly unit is not a target (rules §6)")
            continue
        name, where = aim
        range_mu, arcs = state.sight(ship, target_id, where)
        weapon_id = effective_weapon(system.weapon, intent.mode, range_mu)
        try:
            state.armoury[weapon_id].band(range_mu)
        except RulesError as error:
            _refuse(state, ship, intent, error)
            continue
        as_pd = target_id in units and _as_point_defence(
            state, ship, target_id, weapon_id, range_mu, weapon_arcs=system.arcs, target_arcs=arcs
        )
        own_direction = weapon_id in OWN_DIRECTION
        if (
            not as_pd
            and not own_direction
            and target_id in units
            and units[target_id].attached_to == ship.ship_id
        ):
            # Heavy fire at a light unit is for units not attached to the ship;
            # one attached to it is engaged only by PD and its equivalents (§6, §10).
            _refuse(state, ship, intent, _ATTACHED_PD_ONLY)
            continue
        if unset and not as_pd:
            _refuse(state, ship, intent, _no_setting(system))
            continue
        if reach_limited and not as_pd and not own_direction:
            ecm = ships[target_id].ecm if target_id in ships else 0
            reach = fire_reach(
                ship.sensors,
                target_ecm=ecm,
                blip_fire=options.blip_fire,
                ecm_limits_fire_control=options.ecm_limits_fire_control,
            )
            if range_mu > reach:
                by_sensors = options.blip_fire == "forbidden" and reach == sensor_range(
                    ship.sensors, target_ecm=ecm
                )
                _refuse(state, ship, intent, _beyond_reach(range_mu, reach, by_sensors))
                continue
        accepted.append((intent, system, weapon_id, range_mu, name, arcs, as_pd))
        if weapon_id == LANCE:
            lance = True
    fcs = fire_controls(state, ship)
    if not fire_control_suffices(fcs, accepted, (), ship.thrust_used):
        accepted = _allocate_or_refuse(state, ship, fcs, accepted)
        lance = any(item[2] == LANCE for item in accepted)
    if lance and options.lance_exclusive:
        accepted = _lances_only(state, ship, accepted)
    screens: dict[str, int] = {}
    power_left = ship.power_points  # §14: this turn's PP budget (needle and launcher nodules)
    needle_power = [(k, v) for k, v in chosen.items() if not isinstance(v, str)] if chosen else ()
    if needle_power:
        # D-34: PP set in phase 1 on a needle nodule that does not fire are spent all the same.
        firing = {item[0].system for item in accepted}
        power_left -= sum(v for k, v in needle_power if k not in firing)
    for intent, system, weapon_id, range_mu, name, _, as_pd in accepted:
        try:
            cost = _shot_cost(ship, intent, state.armoury[weapon_id], power_left)
        except RulesError as error:
            _refuse(state, ship, intent, error)
            continue
        if system.magazine is not None or system.ammo is not None or needs_magazine(system.weapon):
            try:
                spend_magazine(ship, system, f"{ship.name}: {intent.system}")
            except RulesError as error:
                _refuse(state, ship, intent, error)
                continue
        target_ship = state.ships.get(intent.target)
        if target_ship is not None:
            if intent.target not in screens:
                screens[intent.target] = screen_level(state, target_ship)
            kind, screen = "ship", screens[intent.target]
        else:
            kind, screen = unit_target_kind(state.light_units[intent.target]), 0
        try:  # as try_fire does (the arguments are the engine's own: no argument checks)
            volley = resolve_volley(
                state.armoury[weapon_id],
                state.dice,
                range_mu,
                screen,
                kind,
                name,
                intent.power_points,
                1,
                as_pd,
                state.options,
            )
        except RulesError as error:
            _refuse(state, ship, intent, error, weapon=weapon_id)
            continue
        pending.add_volley(intent.target, volley, is_unit=target_ship is None)
        pending.fired.add((ship.ship_id, intent.system))
        if cost:
            power_left -= cost[0]
            ship.biomass -= cost[1]
        if state.recording:
            summary = (_fire_text, ship.name, intent.system, weapon_id, name, range_mu, volley)
            shot = (ship.ship_id, intent.system, weapon_id, intent.target, range_mu, volley)
            paid = (cost[0], power_left, ship.biomass) if cost else None
            state.record(9, "fire", summary, (_fire_data, *shot, paid))
    pending.power_left[ship.ship_id] = power_left


def _fire_text(
    ship: str, system: str, weapon: str, target: str, range_mu: float, volley: Any
) -> str:
    return f"{ship} {system} ({weapon}) at {target}, {range_mu:.1f} mu: {volley_text(volley)}"


def _fire_data(
    ship: str,
    system: str,
    weapon: str,
    target: str,
    range_mu: float,
    volley: Any,
    paid: tuple[int, int, int] | None,
) -> dict[str, Any]:
    """A ``fire`` event's data (written when first read: ``Event.data``); ``paid``: a
    Sa'vasku shot's (power points, power left, biomass left) after it."""
    data = {
        "ship": ship,
        "system": system,
        "weapon": weapon,
        "target": target,
        "range": round(range_mu, 3),
        "dice": volley.dice,
        "value": volley.value,
    }
    if paid:
        data["power_points"], data["power_left"], data["biomass"] = paid
    return data


_SET_IN_PHASE_1 = frozenset({"pulser", "needle-nodule"})  # D-34


def _no_setting(system: Any) -> str:
    what = "mode" if system.weapon == "pulser" else "power points"
    return f"no {what} chosen for {system.id} in phase 1 (rules §8, D-34)"


def _beyond_reach(range_mu: float, reach: float, by_sensors: bool) -> str:
    """Why FC-directed fire at ``range_mu`` is refused (§6, D-32 and D-33 options)."""
    if by_sensors:
        why = "beyond the ship's sensor range after ECM: a blip is no target (D-32 option)"
    else:
        why = "beyond its fire controls' 54 mu shortened by the target's ECM (D-33 option)"
    return f"target at {range_mu:.1f} mu, {why}: fire reaches {reach:g} mu (rules §6)"


def _lances_only(
    state: BattleState,
    ship: ShipState,
    accepted: list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]],
) -> list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]]:
    """D-12 (default ``lance_exclusive``): « Un Contrôle de tir est requis pour la Lance,
    aucun autre système d’armes ne peut être employé en même temps » — in the phase 9 in
    which a ship fires a lance it fires nothing but lances; its defence systems (PD, ADAF
    and their equivalents, class-1 weapons as PD) still defend. The rest is refused."""
    kept = []
    for item in accepted:
        if item[2] == LANCE or item[2] in OWN_DIRECTION or item[6]:
            kept.append(item)
        else:
            _refuse(state, ship, item[0], _LANCE_ONLY)
    return kept


_LANCE_ONLY = (
    "the ship fires a lance this phase: no other weapon system fires with it (« aucun "
    "autre système d’armes ne peut être employé en même temps », rules §8, D-12)"
)


def _gone_why(system: Any, target_id: str, aim: Any) -> str:
    """Why phase 9 refuses an order whose system or target is no longer there."""
    if system is None or not system.weapon:
        return "no weapon system of that id (rules §2 phase 1)"
    if system.status is not _WORKING:
        return f"{system.id} was {system.status} before it fired (rules §11)"
    return f"target {target_id} was destroyed or is gone before the shot (rules §6)"


def _shot_cost(
    ship: ShipState, intent: FireIntent, weapon: Weapon, power_left: int
) -> tuple[int, int] | None:
    """(power points, biomass) one phase-9 shot costs a Sa'vasku ship (§8, §10, §14; see
    ``fire_orders.check_power``), None for other weapons. Raises ``RulesError`` (the reason, for a
    ``fire-refused`` event) when the ship cannot pay: orders from ``ship_fire`` are not
    checked in phase 1, and biomass spent by earlier shots is gone."""
    if weapon.power_points:
        power = intent.power_points
        if power is None or power < 0:
            raise RulesError(f"no power points ordered for {weapon.id} (rules §8, §14)")
        if power > power_left:
            raise RulesError(
                f"{power} power points ordered, {power_left} left this turn (rules §8, §14)"
            )
        return (power, 0)
    if weapon.id not in BIOMASS_WEAPONS:
        return None
    if ship.biomass < SHOT_BIOMASS:
        raise RulesError(
            f"{weapon.id} needs {SHOT_BIOMASS} biomass per shot, {ship.biomass} left "
            f"(rules {weapon.section})"
        )
    if power_left < SHOT_POWER_POINTS:
        raise RulesError(
            f"{weapon.id} needs {SHOT_POWER_POINTS} power points per shot, {power_left} left "
            f"this turn (rules {weapon.section}, §14)"
        )
    return (SHOT_POWER_POINTS, SHOT_BIOMASS)


_AFT_BIT = ARC_BITS["A"]


def fire_control_suffices(
    fcs: int,
    accepted: Sequence[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]],
    launches: Sequence[str],
    used_thrust: bool,
) -> bool:
    """True when ``allocate_fire_control`` would accept every order as it stands (the
    usual case), checked without building its ``FireOrder``s; when False the caller asks
    ``allocate_fire_control`` itself, which names what fails."""
    used = len(launches)
    if used > fcs:
        return False
    targets: set[str] = set()
    for intent, system, weapon_id, _, _, arcs, as_pd in accepted:
        if (
            as_pd
            and pd_arc_limited(weapon_id)
            and not arc_mask(tuple(system.arcs)) & arc_mask(arcs)
        ):
            return False  # a pulser as PD keeps to its arcs (§8)
        if weapon_id in OWN_DIRECTION or as_pd:
            continue
        usable = arc_mask(tuple(system.arcs)) & arc_mask(arcs)
        if not usable or (used_thrust and not usable & ~_AFT_BIT):
            return False
        if weapon_id == LANCE:
            used += 1
        elif intent.target not in targets:
            targets.add(intent.target)
            used += 1
        else:
            continue
        if used > fcs:
            return False
    return True


def _allocate_or_refuse(
    state: BattleState,
    ship: ShipState,
    fcs: int,
    accepted: list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]],
) -> list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]]:
    """§6 FC allocation of a ship's accepted orders; orders it cannot direct are refused
    (logged) one by one in order, the rest kept."""
    orders = [
        FireOrder(intent.system, weapon_id, system.arcs, intent.target, arcs, point_defence=pd)
        for intent, system, weapon_id, _, _, arcs, pd in accepted
    ]
    try:
        allocate_fire_control(
            ship=ship.name,
            fire_controls=fcs,
            orders=orders,
            launches=(),
            used_thrust=ship.thrust_used,
        )
    except RulesError:
        pass
    else:
        return accepted
    kept: list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]] = []
    kept_orders: list[FireOrder] = []
    for item, order in zip(accepted, orders, strict=True):
        try:
            allocate_fire_control(
                ship=ship.name,
                fire_controls=fcs,
                orders=[*kept_orders, order],
                launches=(),
                used_thrust=ship.thrust_used,
            )
        except RulesError as error:
            _refuse(state, ship, item[0], error)
            continue
        kept.append(item)
        kept_orders.append(order)
    return kept


_ATTACHED_PD_ONLY = (
    "a light unit attached to the ship is engaged only by point defence: class-1 weapons "
    "within 6 mu, a pulser only in its arcs (rules §6, §8, §10)"
)


def _as_point_defence(
    state: BattleState,
    ship: ShipState,
    target_id: str,
    weapon_id: str,
    range_mu: float,
    *,
    weapon_arcs: Sequence[str],
    target_arcs: Sequence[str],
) -> bool:
    """§6, §8, §10: a class-1 weapon (beam-1, kgun-1, pulser) firing at an enemy light unit
    attached to its own ship within 6 mu acts as PD: no FC, 5+ kills one.

    A pulser does so only at a unit in one of its arcs (project reading of the
    seed: « Les Pulseurs peuvent être employés comme Systèmes de défense mais sont limités
    par leur arc de tir »); beam-1 and kgun-1 fire all round. A unit sitting on its host is
    in every arc (``sensors.target_arcs``), so this bites only off the host."""
    unit = state.light_units.get(target_id)
    return (
        unit is not None
        and unit.attached_to == ship.ship_id
        and range_mu <= PD_RANGE
        and state.armoury[weapon_id].pd_threshold is not None
        and (not pd_arc_limited(weapon_id) or not set(weapon_arcs).isdisjoint(target_arcs))
    )


def _refuse(
    state: BattleState, ship: ShipState, intent: FireIntent, why: str | RulesError, **data: Any
) -> None:
    """Log a phase-9 ``fire-refused`` event; for a ``RulesError`` (``OutOfArc``,
    ``OutOfRange``, ``NoFireControl``, ``MagazineDestroyed`` …) its class name is in
    ``data["error"]`` and its text is the reason."""
    if isinstance(why, RulesError):
        data["error"] = type(why).__name__
        why = str(why)
    state.log(
        9,
        "fire-refused",
        f"{ship.name} {intent.system} at {intent.target}: {why}",
        ship=ship.ship_id,
        system=intent.system,
        target=intent.target,
        reason=why,
        **data,
    )
