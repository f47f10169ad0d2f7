"""Phase 11 of rules §2: damage control and boarding (§12, §13), vampires (§8), command
countdowns (§4), withdrawals, and spent light units leave the table."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from battles.rules.damage import damage_control, repel_boarders, tick_countdowns, tick_vampires
from battles.rules.phases.effects import log_damage
from battles.rules.phases.state import NO_ORDERS, BattleState, ShipOrders
from battles.rules.ships import ShipState, Status


def _end_of_turn_ship(
    state: BattleState,
    ship: ShipState,
    assignment: Mapping[str, int],
    running: Collection[str] = (),
    vampires_before: int = 0,
) -> None:
    """Phase 11 for one ship: damage control (§12), vampires (§8), boarders (§13), command
    countdowns (§4). Assignments the ship cannot make (more crew than it has, a system
    not damaged) are dropped and logged. ``running``: the ship's countdowns that already
    ran at the start of the turn; only they tick (§4 reading: a countdown set this turn
    starts at the end of the next one; a repair by damage control ends it, and a later
    hit sets a new one). ``vampires_before``: vampires attached at the start of the turn;
    those attached since dealt their 2 on landing and do not tick this turn (§8 reading,
    see ``damage.tick_vampires``)."""
    fresh_vampires = max(0, ship.vampires - vampires_before)
    valid: dict[str, int] = {}
    budget = ship.crew_left
    for target, crew in assignment.items():
        if target == "boarders":
            continue
        system = ship.systems.get(target)
        damaged = system is not None and system.status is Status.DAMAGED
        if (damaged or (target == "vampire" and ship.vampires)) and 1 <= crew <= budget:
            crew = min(crew, 3)
            valid[target] = crew
            budget -= crew
        else:
            state.log(
                11,
                "crew-refused",
                f"{ship.name}: {crew} crew on {target} refused (rules §12)",
                ship=ship.ship_id,
                system=target,
                crew=crew,
            )
    used = 0
    if valid:
        events, used = damage_control(ship, valid, state.dice)
        for target, crew in valid.items():
            state.log(
                11,
                "damage-control",
                f"{ship.name}: {crew} crew on {target}",
                ship=ship.ship_id,
                system=target,
                crew=crew,
            )
        log_damage(state, 11, events)
    # Each step below does nothing (no die, no event) without its vampires, boarders or
    # countdowns; most ships have none, so the calls are skipped.
    if ship.vampires:
        log_damage(
            state, 11, tick_vampires(ship, state.dice, options=state.options, fresh=fresh_vampires)
        )
    if ship.boarders:
        free = ship.crew_left if state.options.damage_control_crew_repel else ship.crew_left - used
        log_damage(
            state,
            11,
            repel_boarders(ship, state.dice, crew_available=max(0, free), options=state.options),
        )
    if ship.countdowns:
        fresh = [sid for sid in ship.countdowns if sid not in running]
        log_damage(state, 11, tick_countdowns(ship, state.dice, skip=fresh))


def phase_end_of_turn(
    state: BattleState,
    orders: Mapping[str, ShipOrders],
    crew_plan: Callable[[BattleState, ShipState], Mapping[str, int]] | None,
    running: Mapping[str, Collection[str]] | None = None,
    vampires: Mapping[str, int] | None = None,
) -> None:
    """Phase 11: damage control and boarding (§12, §13), command countdowns and vampires
    (§4, §8), withdrawals ordered in phase 1, spent light units leave the table.
    ``running``: by ship id, the countdowns that ran at the start of the turn (§4);
    ``vampires``: by ship id, the vampires attached at the start of the turn (§8)."""
    for ship in state.in_action():
        assignment = dict(crew_plan(state, ship)) if crew_plan else {}
        _end_of_turn_ship(
            state,
            ship,
            assignment,
            (running or {}).get(ship.ship_id, ()),
            (vampires or {}).get(ship.ship_id, 0),
        )
    for ship in state.in_action():
        if orders.get(ship.ship_id, NO_ORDERS).withdraw:
            ship.withdrawn = True
            state.log(11, "withdraw", f"{ship.name} withdraws", ship=ship.ship_id)
    for unit in state.light_units.values():
        if not unit.active:
            continue
        host = state.ships.get(unit.attached_to or "")
        if host is not None and host.out_of_action:
            unit.attached_to = None
        if unit.endurance <= 0:
            # §9: no endurance, no weapons: the unit is out of the fight (project reading:
            # it leaves the table rather than drifting as a target).
            unit.destroyed = True
            state.log(
                11, "light-unit-spent", f"{unit.unit_id} is out of endurance", unit=unit.unit_id
            )
    state.light_units = {k: u for k, u in state.light_units.items() if u.active}
