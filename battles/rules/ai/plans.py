"""Phase-1 orders of the tactics (see ``battles.rules.ai``): movement towards the nearest enemy
or away when crippled, launches, the vapour veil, recalls, and the D-34 settings (pulser modes
and needle-nodule power chosen from the range predicted after the move).
"""

from __future__ import annotations

import math
from functools import cache

from battles.rules.ai.kit import (
    LAUNCH_RANGE,
    MIN_SPEED,
    MISSILE_RANGE,
    VEIL_RANGE,
    _Loadout,
    _loadout,
    _nearest,
    _pos,
    crippled,
    preferred_range,
)
from battles.rules.errors import RulesError
from battles.rules.movement import (
    MAX_END_SPEED,
    Manoeuvre,
    Orders,
    execute,
    step,
    validate_orders,
)
from battles.rules.phases.state import effective_weapon
from battles.rules.sensors import bearing, distance
from battles.rules.ships import ShipState
from battles.rules.turn import (
    ATTACH_RANGE,
    ESCORT_AREA_DEFENCE,
    MU_PER_ENDURANCE,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    ShipOrders,
    bay_free,
    squadron_weapon,
)

# ---- orders --------------------------------------------------------------------------


def steer(ship: ShipState, goal: tuple[float, float], gap: float, half_cap: bool = True) -> Orders:
    """Orders turning ``ship`` towards ``goal`` and setting its speed so about ``gap`` mu is
    left to close after the move (§3 limits respected)."""
    thrust = ship.thrust
    speed = int(ship.speed)
    if thrust <= 0 or not ship.bridge_working:
        return Orders(0)
    cap = max(1, thrust // 2) if half_cap else thrust
    here = _pos(ship)
    relative = (bearing(here, goal) - ship.heading * 60.0) % 360.0
    if relative > 180.0:
        relative -= 360.0
    arcs = _clamp(round(relative / 60.0), -cap, cap)
    spare = thrust - abs(arcs)
    wanted = _clamp(math.floor(distance(here, goal) - gap), MIN_SPEED, MAX_END_SPEED)
    # Up to ``spare`` faster; as much slower, but never below 0 (no reversing, §3).
    change = _clamp(wanted - speed, -min(spare, speed), spare)
    return _steer_orders(change, arcs)


def _clamp(value: int, low: int, high: int) -> int:
    """``value`` bounded to ``low``…``high`` (``low ≤ high``)."""
    return low if value < low else high if value > high else value


@cache
def _steer_orders(change: int, arcs: int) -> Orders:
    """``Orders`` of a speed change and signed arcs (starboard positive); shared, since
    orders are frozen and the tactics write the same few again and again."""
    steps = (Manoeuvre(abs(arcs), "T" if arcs > 0 else "B"),) if arcs else ()
    return Orders(change, steps)


def ship_orders(state: BattleState, ship: ShipState) -> ShipOrders:
    """Phase 1 orders for one ship under the tactics of this module."""
    target = _nearest(state, ship)
    if target is None:
        return ShipOrders()
    half_cap = state.options.half_thrust_turn_cap
    kit = _loadout(ship)
    recover = _recall(state, ship, kit) if kit.has_bays and state.light_units else []
    if crippled(ship, kit):
        away = (2 * ship.x - target.x, 2 * ship.y - target.y)
        movement = steer(ship, away, 0.0, half_cap)
        settings = _phase_1_settings(state, ship, movement, target, kit)
        return ShipOrders(movement=movement, withdraw=True, recover=recover, settings=settings)
    gap = distance(_pos(ship), _pos(target))
    movement = steer(ship, _pos(target), preferred_range(ship, kit), half_cap)
    launches: list[tuple[str, str]] = []
    if kit.bays and gap <= LAUNCH_RANGE:
        next_turn = state.turn + 1
        ready = [b for b in kit.bays if ship.systems[b].data.get("ready_turn", 0) <= next_turn]
        for b in ready[: kit.free_tubes if kit.tubes else 1]:
            # PD platforms escort their carrier (area defence, §9); the rest attack.
            escort = squadron_weapon(ship.systems[b].data["squadron"]) == ESCORT_AREA_DEFENCE
            launches.append((b, ship.ship_id if escort else target.ship_id))
    if kit.missiles and gap <= MISSILE_RANGE:
        launches += [(m, target.ship_id) for m in kit.missiles]
    if launches:
        # Each launch ties an FC in phases 1 and 3 (§6); it is free again for the guns in
        # phase 9 (« libérés après lancement »), so a ship launches up to all its FCs.
        launches = launches[: ship.fire_controls]
    veil = gap > VEIL_RANGE if kit.veil else None
    settings = _phase_1_settings(state, ship, movement, target, kit)
    return ShipOrders(
        movement=movement, launches=launches, veil=veil, recover=recover, settings=settings
    )


def _phase_1_settings(
    state: BattleState, ship: ShipState, movement: Orders, target: ShipState, kit: _Loadout
) -> dict[str, str | int]:
    """The ship's phase-1 settings (D-34, see the module docstring): every working pulser
    in the mode with most dice at the range predicted after this turn's move — the ship
    executing ``movement``, ``target`` keeping its speed and heading; the needle nodules'
    PP split evenly (the remainder to the first), after 3 PP are kept for each launcher
    nodule, spicule and interceptor nodule the ship's biomass can pay for. Empty when
    ``settings_in_orders`` is off (chosen at fire instead). The weapons are read from
    ``kit``, the ship's loadout already scanned for this turn's orders."""
    if not state.options.settings_in_orders:
        return {}
    pulsers, needles, shots = kit.pulsers, kit.needles, kit.biomass_shots  # one scan (kit)
    settings: dict[str, str | int] = {}
    if pulsers:
        mode = effective_weapon("pulser", None, _predicted_gap(state, ship, movement, target))
        settings.update(dict.fromkeys(pulsers, mode))
    if needles:
        kept = SHOT_POWER_POINTS * min(shots, ship.biomass // SHOT_BIOMASS)
        share, extra = divmod(max(0, ship.power_points - kept), len(needles))
        for n, sid in enumerate(needles):
            settings[sid] = share + (extra if n == 0 else 0)
    return settings


def _predicted_gap(
    state: BattleState, ship: ShipState, movement: Orders, target: ShipState
) -> float:
    """Range in mu between ``ship`` after ``movement`` and ``target`` after a straight move
    at its present speed and heading (the AI does not read enemy orders)."""
    try:
        plan = validate_orders(
            movement,
            ship=ship.name,
            thrust=ship.thrust,
            speed=int(ship.speed),
            drive_working=ship.thrust > 0,
            bridge_working=ship.bridge_working,
            half_thrust_turn_cap=state.options.half_thrust_turn_cap,
        )
        mine = execute(plan, position=_pos(ship), heading=ship.heading).position
    except RulesError:
        mine = _pos(ship)
    theirs = step(_pos(target), target.heading, float(target.speed))
    return distance(mine, theirs)


_ATTACK_COST = MU_PER_ENDURANCE["fighter"]  # mu: a fighter attack spends one point


def _recall(state: BattleState, ship: ShipState, kit: _Loadout) -> list[str]:
    """The ship's own fighter squadrons to call back (see the module docstring): those
    not already flying home for which ``0 ≤ endurance − (distance − 3 mu) < 24 mu``."""
    if not kit.working_bays or not any(bay_free(s) for s in ship.systems.values()):
        return []
    sid = ship.ship_id
    return [
        u.unit_id
        for u in state.light_units.values()
        if u.origin == sid
        and u.home is None
        and u.active
        and u.kind == "fighter"
        and u.bay
        and 0.0 <= u.endurance - (distance(u.position, _pos(ship)) - ATTACH_RANGE) < _ATTACK_COST
    ]
