"""The turn sequence of rules §2 over a ``BattleState``.

``play_turn(state, orders)`` runs the eleven phases once:

 1 orders (validated before any die is rolled)   7 sensors
 2 initiative 2d6, re-roll ties (D-1); screens   8 light-unit intent
 3 launches, then light units move                9 ship fire (+ PD/ADAF), damage at the end
 4 missiles and drones: second move              10 light-unit fire (a)–(d), damage per sub-phase
 5 ship movement                                 11 damage control, boarding, countdowns
 6 fighters and gunboats: second move

Every die goes through ``state.dice``; every decision is an ``Event`` (turn, phase, kind,
summary, data) with JSON-ready data, so a battle is replayed from its seed and audited from
its log. The engine trusts orders only after phase 1 has validated them.

Each phase group lives in a module of ``battles.rules.phases`` (orders and initiative,
movement, sensors, launches and light units, ship fire and point defence, light-unit
fire, effects and end of turn); this module runs them in order and re-exports the names
the rest of the code imports from ``battles.rules.turn``.

Event kinds, by phase: 1 ``orders``; 2 ``initiative-roll``, ``initiative``, ``screens``,
``veil``; 3–6 ``launch``, ``light-unit-move``, ``move``, ``land`` (end of 6: fighters
called back by their carrier, §9); 7 ``contact``, ``contact-lost``; 8 ``intent``;
9 ``fire``, ``fire-refused``, ``point-defence``; 10 ``dogfight``, ``attack``,
``attack-wreck``, ``missile-strike``; 11 ``damage-control``, ``crew-refused``, ``withdraw``,
``light-unit-spent``; in 9–11 ``light-unit-losses`` and ``damage-<kind>`` for every
``damage.DamageEvent`` (``damage-hull``, ``damage-destroyed``, ``damage-captured`` …).
``ai.resolve_battle`` adds ``deploy`` (phase 0) and a closing ``result``. Ship ids are in
``data["ship"]``, targets in ``data["target"]``, light units in ``data["unit"]``.

Light-unit movement is a project reading where §2/§9 are silent (flagged ``provisional``):
a unit's main move (phase 3) is the distance one endurance point buys (fighters and drones
24 mu, gunboats 18, missiles 12); endurance is a budget in mu (E × that distance); a fighter
or gunboat squadron also spends one endurance point per attack; a unit ending within 3 mu of
its target ship attaches to it and then moves with it (§2 phase 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from battles.rules.errors import RulesError
from battles.rules.phases.effects import apply_pending, lance_choice
from battles.rules.phases.end_of_turn import phase_end_of_turn
from battles.rules.phases.launches import (
    bay_free,
    phase_intent,
    phase_landing,
    phase_launch,
    recovery_rate,
    squadron_weapon,
)
from battles.rules.phases.light_fire import phase_light_fire
from battles.rules.phases.movement import phase_second_move, phase_ship_movement
from battles.rules.phases.orders import phase_initiative, phase_orders
from battles.rules.phases.sensors import phase_sensors
from battles.rules.phases.ship_fire import fire_control_suffices, phase_ship_fire, ship_volleys
from battles.rules.phases.state import (
    ATTACH_RANGE,
    BIOMASS_WEAPONS,
    ENDURANCE,
    ESCORT_AREA_DEFENCE,
    LIGHT_ATTACK_RANGE,
    MU_PER_ENDURANCE,
    PD_RANGE,
    PHASES,
    SALVO_MISSILES,
    SECOND_MOVE,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    Event,
    FireIntent,
    LightUnit,
    ShipOrders,
    UnrecordedBattleState,
    alternate,
    fire_controls,
    light_kind,
    screen_level,
)
from battles.rules.ships import ShipState

__all__ = [
    "ATTACH_RANGE",
    "BIOMASS_WEAPONS",
    "ENDURANCE",
    "ESCORT_AREA_DEFENCE",
    "LIGHT_ATTACK_RANGE",
    "MU_PER_ENDURANCE",
    "PD_RANGE",
    "PHASES",
    "SALVO_MISSILES",
    "SECOND_MOVE",
    "SHOT_BIOMASS",
    "SHOT_POWER_POINTS",
    "BattleState",
    "Event",
    "FireIntent",
    "LightUnit",
    "ShipOrders",
    "UnrecordedBattleState",
    "alternate",
    "apply_pending",
    "bay_free",
    "fire_controls",
    "lance_choice",
    "light_kind",
    "play_turn",
    "recovery_rate",
    "screen_level",
    "ship_volleys",
    "squadron_weapon",
]

# The names tests of single phases used before the split (same functions).
_phase_ship_fire = phase_ship_fire
_phase_light_fire = phase_light_fire
_fire_control_suffices = fire_control_suffices


def play_turn(
    state: BattleState,
    orders: Mapping[str, ShipOrders],
    *,
    ship_fire: Callable[[BattleState, ShipState], Sequence[FireIntent]] | None = None,
    crew_plan: Callable[[BattleState, ShipState], Mapping[str, int]] | None = None,
) -> list[Event]:
    """Play one turn (§2) in place on ``state``; returns the turn's events.

    ``orders`` by ship id (missing ships keep speed and heading). Fire is chosen in phase 9,
    after movement: by ``ship_fire(state, ship)`` when given (auto-resolve), else from each
    ship's ``ShipOrders.fire``. ``crew_plan(state, ship)`` maps damaged system ids (and
    ``"boarders"``) to crew factors for phase 11; by default no crew is assigned.

    Phase 1 checks the orders as written and raises a ``RulesError`` before any die is
    rolled, leaving the state as it was (turn, events, dice): ``IllegalOrder`` for orders
    that are not a mapping of ``ShipOrders``, for an unknown ship or one out of action
    (destroyed, captured, withdrawn …), movement the §3 notation or the ship's thrust
    refuses, phase-1 settings of no pulser or needle nodule or a pulser fired at a ship
    with no mode chosen (D-34), a lance ordered with other weapons (D-12), a fire
    order for no weapon system, a system out of action (§11), a system ordered to fire
    twice (§6, §8), an unknown fire mode (§8), no target, an unknown target id or a
    friendly target (§6), power points or biomass the ship lacks (§8, §14), launches or
    recoveries the ship cannot make (§6, §9); ``UnknownWeapon`` for a weapon id not in the
    catalogue; ``MagazineDestroyed`` for fire or launches from a magazine missing,
    destroyed or holding fewer rounds than ordered from it (§8); ``NoFireControl`` for
    more targets than working FCs (a lance takes its own, D-12; none while a vapour veil
    already on stays on, §14).

    Orders are written before movement, so what only movement decides is not an error:
    phase 9 logs it as a ``fire-refused`` event (``data``: ``ship``, ``system``,
    ``target``, ``reason`` and, for a ``RulesError``, its class name in ``error``):
    ``OutOfArc`` (target outside every arc of the weapon), ``OutOfRange`` (beyond the
    weapon's last band), ``NoFireControl`` (the aft arc while thrusting; a vapour veil
    switched on this turn, §14; a light unit homing on the ship that did not attach, so
    is no point-defence target), a system knocked out before it fired (§11), a target
    destroyed or gone before the shot (§6). Fire chosen by ``ship_fire`` is not checked
    in phase 1: phase 9 refuses what of it the rules refuse.
    """

    first = len(state.events)
    first_mark = len(state.roll_marks)
    state.turn += 1
    # §4: countdowns set this turn do not tick at its end; §8: nor do vampires attached
    # this turn (see phases.end_of_turn).
    running = {sid: tuple(s.countdowns) for sid, s in state.ships.items() if s.countdowns}
    vampires = {sid: s.vampires for sid, s in state.ships.items() if s.vampires}
    state.hold_roster(True)  # no ship can drop out before the end of phase 9
    try:
        try:
            plans = phase_orders(state, orders)  # 1
        except RulesError:
            # Phase 1 rolls nothing and changes nothing else: undo its log and the count.
            del state.events[first:]
            del state.roll_marks[first_mark:]
            state.turn -= 1
            raise
        acting = phase_initiative(state, orders)  # 2
        phase_launch(state, orders, acting)  # 3 (its tied FCs are free again in 9, §6)
        phase_second_move(state, ("missile", "drone"), 4)  # 4
        phase_ship_movement(state, plans)  # 5
        phase_second_move(state, ("fighter", "gunboat"), 6)  # 6
        phase_landing(state)  # end of 6
        phase_sensors(state, state.contacts)  # 7
        phase_intent(state)  # 8
        by_orders = {sid: o.fire for sid, o in orders.items()}
        chosen = ship_fire or (lambda _s, ship: by_orders.get(ship.ship_id, []))
        phase_ship_fire(state, chosen, acting)  # 9
    finally:
        state.hold_roster(False)
    phase_light_fire(state)  # 10
    phase_end_of_turn(state, orders, crew_plan, running, vampires)  # 11
    return state.events[first:]
