"""Phases 3–6 of rules §2, the moves: light units fly at their target ship and attach
within 3 mu (phase 3 main move, 4 and 6 second moves); ships execute their plans (phase 5,
§3) and carry attached units with them.

Light-unit movement is a project reading where §2/§9 are silent (see ``turn``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from battles.rules.movement import Orders, Plan, execute
from battles.rules.phases.state import (
    ATTACH_RANGE,
    SECOND_MOVE,
    BattleState,
    LightUnit,
    orders_text,
    ship_pos,
)
from battles.rules.sensors import distance
from battles.rules.ships import ShipState


def _move_unit_towards(unit: LightUnit, goal: tuple[float, float], budget: float) -> float:
    """Fly ``unit`` straight at ``goal``, at most ``budget`` mu and its endurance (mu left);
    returns mu flown."""
    gap = distance(unit.position, goal)
    flown = max(0.0, min(budget, unit.endurance, gap))
    if flown > 0:
        dx, dy = goal[0] - unit.x, goal[1] - unit.y
        norm = math.hypot(dx, dy)
        unit.x += dx / norm * flown
        unit.y += dy / norm * flown
        unit.endurance -= flown
    return flown


def light_unit_move(state: BattleState, unit: LightUnit, budget: float, phase: int) -> None:
    """Move one light unit towards its target ship; attach within 3 mu (§2 phase 3)."""
    if not unit.active:
        return
    if unit.home is not None:
        carrier = state.ships.get(unit.home)
        if carrier is not None and not carrier.out_of_action:
            flown = _move_unit_towards(unit, ship_pos(carrier), budget)
            state.log(
                phase,
                "light-unit-move",
                f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) flies {flown:.1f} mu back to "
                f"{carrier.name}",
                unit=unit.unit_id,
                to=[round(unit.x, 3), round(unit.y, 3)],
                flown=round(flown, 3),
                endurance=round(unit.endurance, 3),
                home=carrier.ship_id,
            )
            return
        unit.home = None  # the carrier is gone: back to the fight
    if unit.attached_to is not None:
        host = state.ships.get(unit.attached_to)
        if host is not None and not host.destroyed:
            unit.x, unit.y = host.x, host.y
            return
        unit.attached_to = None
    target = state.ships.get(unit.target) if unit.target else None
    if target is None or target.out_of_action:
        target = _nearest_enemy_ship(state, unit.side, unit.position)
        unit.target = target.ship_id if target else None
    if target is None:
        return
    flown = _move_unit_towards(unit, ship_pos(target), budget)
    attach = unit.kind != "missile" and distance(unit.position, ship_pos(target)) <= ATTACH_RANGE
    if attach:
        unit.attached_to = target.ship_id
        unit.x, unit.y = target.x, target.y
    state.log(
        phase,
        "light-unit-move",
        f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) flies {flown:.1f} mu towards "
        f"{target.name}" + (", attaches" if attach else ""),
        unit=unit.unit_id,
        to=[round(unit.x, 3), round(unit.y, 3)],
        flown=round(flown, 3),
        endurance=round(unit.endurance, 3),
        attached_to=unit.attached_to,
    )


def _nearest_enemy_ship(
    state: BattleState, side: str, position: tuple[float, float]
) -> ShipState | None:
    enemies = state.in_action(state.enemy_of(side))
    if not enemies:
        return None
    return min(enemies, key=lambda s: (distance(position, ship_pos(s)), s.ship_id))


def phase_second_move(state: BattleState, kinds: Iterable[str], phase: int) -> None:
    """Phases 4 and 6: the second move of missiles/drones or fighters/gunboats."""
    wanted = set(kinds)
    for unit in state.light_units.values():
        if unit.active and unit.kind in wanted:
            light_unit_move(state, unit, SECOND_MOVE[unit.kind], phase)


def _move_text(name: str, orders: Orders, x: float, y: float, heading: int) -> str:
    return f"{name} {orders_text(orders)}: to ({x:.1f}, {y:.1f}) heading {heading}"


def _move_data(
    ship_id: str,
    orders: Orders,
    path: tuple[tuple[float, float], ...],
    heading: int,
    speed: int,
    thrust_used: int,
) -> dict[str, Any]:
    """A ``move`` event's data (written when first read: ``Event.data``); the path's
    three points (start, after the first half of the move, end) rounded to 3 decimals."""
    return {
        "ship": ship_id,
        "orders": orders_text(orders),
        "path": [[round(x, 3), round(y, 3)] for x, y in path],
        "heading": heading,
        "speed": speed,
        "thrust_used": thrust_used,
    }


def phase_ship_movement(state: BattleState, plans: Mapping[str, Plan]) -> None:
    """Phase 5: every ship executes its plan (§3); attached light units follow."""
    for ship in state.in_action():
        plan = plans.get(ship.ship_id)
        if plan is None:
            continue
        moved = execute(plan, position=ship_pos(ship), heading=ship.heading)
        ship.x, ship.y = moved.position
        ship.heading = moved.heading
        ship.speed = moved.speed
        ship.thrust_used = plan.thrust_used > 0
        if not state.recording:
            continue
        orders, heading = plan.orders, ship.heading
        summary = (_move_text, ship.name, orders, ship.x, ship.y, heading)
        data = (_move_data, ship.ship_id, orders, moved.path, heading, ship.speed, plan.thrust_used)
        state.record(5, "move", summary, data)
    for unit in state.light_units.values():
        if unit.active and unit.attached_to in state.ships:
            host = state.ships[unit.attached_to]
            unit.x, unit.y = host.x, host.y
