"""A whole auto-resolved battle (see ``battles.rules.ai``): deployment, the turn loop, damage
control, the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from battles.rules.ai.fire import ship_fire
from battles.rules.ai.kit import (
    _DAMAGED,
    _REPAIR_RANK,
    DEPLOY_GAP,
    DEPLOY_SPACING,
    REPAIR_ORDER,
    START_SPEED,
    _strength,
)
from battles.rules.ai.plans import ship_orders
from battles.rules.dice import Dice, Roll, UnrecordedDice
from battles.rules.errors import BadArgument
from battles.rules.movement import (
    HEADINGS,
)
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.ships import ShipState, SystemState
from battles.rules.turn import (
    BattleState,
    Event,
    UnrecordedBattleState,
    play_turn,
)


@dataclass
class BattleResult:
    """The outcome of an auto-resolved battle.

    ``winner``: the side still in action (or, at the turn limit, the side with more
    surviving strength — sum of mass × hull fraction left — None when equal); ``reason``:
    ``destruction`` (the loser has no ship left in action), ``withdrawal`` (the same, and
    at least one of its ships withdrew), ``turn-limit`` or ``mutual`` (both sides gone);
    ``turns`` played; ``events`` the whole log; ``ships`` the final states by id;
    ``strength`` surviving strength per side; ``dice`` the battle's dice (None: no die
    kept) and ``rolls`` every die they rolled, in order (``dice.Roll``, written when first
    read: ``Dice.log``); ``roll_marks[k]`` how many of ``rolls`` had been rolled when
    ``events[k]`` was logged, so the dice that decided event ``k`` are
    ``rolls[roll_marks[k - 1]:roll_marks[k]]`` (an audit log stores each die just before
    the event it decides; see :meth:`interleaved`).
    """

    winner: str | None
    reason: str
    turns: int
    seed: int | str
    events: list[Event]
    ships: dict[str, ShipState]
    strength: dict[str, float] = field(default_factory=dict)
    dice: Dice | None = field(default=None, repr=False)
    roll_marks: list[int] = field(default_factory=list)

    @property
    def rolls(self) -> list[Roll]:
        """Every die rolled, in order (``dice.log``; empty when no dice are kept)."""
        return [] if self.dice is None else self.dice.log

    def log_dicts(self) -> list[dict[str, Any]]:
        """The event log as JSON-ready dicts."""
        return [e.as_dict() for e in self.events]

    def interleaved(self) -> Iterator[tuple[Event | None, Roll | None, int]]:
        """The events and dice in the order they happened: ``(event, None, k)`` for event
        ``k`` and ``(None, roll, n)`` for die ``n`` (0-based), each die before the first
        event logged after it (dice rolled after the last event, if any, come last)."""
        done = 0
        rolls = self.rolls
        for k, (event, mark) in enumerate(zip(self.events, self.roll_marks, strict=True)):
            for n in range(done, mark):
                yield None, rolls[n], n
            done = max(done, mark)
            yield event, None, k
        for n in range(done, len(rolls)):
            yield None, rolls[n], n


# ---- helpers -------------------------------------------------------------------------


def clone(ship: ShipState) -> ShipState:
    """An independent copy of a ship state for a new battle: every mutable part copied.
    (``ShipState.copy`` is a generic deep copy, far slower; the Monte-Carlo benchmark
    clones 29 ships per battle.) Field lists are read from the dataclasses, so new fields
    are carried over."""
    systems = {}
    for key, system in ship.systems.items():
        copied = SystemState(*_system_values(system))
        copied.data = dict(system.data)
        systems[key] = copied
    new = ShipState(*_ship_values(ship))
    new.hull_rows = list(ship.hull_rows)
    new.armour = list(ship.armour)
    new.systems = systems
    new.countdowns = dict(ship.countdowns)
    new.boarders = list(ship.boarders)
    return new


_SYSTEM_FIELDS = tuple(f.name for f in fields(SystemState) if f.init)
_SHIP_FIELDS = tuple(f.name for f in fields(ShipState) if f.init)
_system_values = attrgetter(*_SYSTEM_FIELDS)  # one call: the tuple of field values
_ship_values = attrgetter(*_SHIP_FIELDS)


def crew_plan(state: BattleState, ship: ShipState) -> dict[str, int]:
    """Phase 11 damage control: crew to damaged systems by priority, 3 per system; when
    boarders are aboard, up to 3 crew per squad are kept back to repel them."""
    reserve = min(ship.crew_left, 3 * len(ship.boarders))
    crew = ship.crew_left - reserve
    damaged = [s for s in ship.systems.values() if s.status is _DAMAGED]
    if len(damaged) > 1:
        damaged.sort(key=lambda s: _REPAIR_RANK.get(s.kind, len(REPAIR_ORDER)))
    plan: dict[str, int] = {}
    if ship.vampires and crew > 0:
        plan["vampire"] = min(3, crew)
        crew -= plan["vampire"]
    for system in damaged:
        if crew <= 0:
            break
        plan[system.id] = min(3, crew)
        crew -= plan[system.id]
    return plan


# ---- the battle ----------------------------------------------------------------------


def deploy(fleet: Sequence[ShipState], *, y: float, heading: int) -> None:
    """Place a fleet on a line at ``y`` (§1), ``DEPLOY_SPACING`` mu apart, centred on x = 0."""
    width = (len(fleet) - 1) * DEPLOY_SPACING
    for i, ship in enumerate(fleet):
        ship.x = -width / 2 + i * DEPLOY_SPACING
        ship.y = y
        ship.heading = heading % HEADINGS
        ship.speed = START_SPEED


def resolve_battle(
    fleet_a: Sequence[ShipState],
    fleet_b: Sequence[ShipState],
    *,
    seed: object,
    max_turns: object = 20,
    options: object = None,
    deployed: bool = False,
    known_classes: Mapping[str, Iterable[str]] | None = None,
    record: bool = True,
) -> BattleResult:
    """Fight a whole battle with the tactics of this module; the fleets are not mutated.

    ``fleet_a`` / ``fleet_b``: ship states (``ShipState.from_design``); every ship of a
    fleet must share one ``side`` label, different from the other fleet's, and ship ids
    must be unique. Unless ``deployed`` the fleets are placed as ``deploy`` says.
    ``options``: ``RuleOptions`` or its dict form (§16). ``known_classes``: per side label,
    the ship class names that side has already met in the campaign (§5: a contact names its
    class only when known). ``record=False`` keeps no log (``events``, ``rolls`` and
    ``roll_marks`` come back empty) for Monte-Carlo runs: the dice fall and every rule
    plays the same, so winner, reason, turns and ship states are those of the recorded
    battle with that seed (tested). Raises ``BadArgument`` (a ``RulesError``, so a
    ``ValueError``) for fleets that are not sequences of ``ShipState``, empty fleets, mixed
    sides, duplicate ids, a seed that is not an int or str (None would not replay),
    ``max_turns`` < 1 or options of the wrong type; ``RulesError`` for unknown options.
    """
    if seed is None or isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise BadArgument(f"resolve_battle: seed {seed!r}: a whole number or a string (replay)")
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        raise BadArgument(f"resolve_battle: max_turns {max_turns!r}: a whole number ≥ 1")
    for label, fleet in (("fleet_a", fleet_a), ("fleet_b", fleet_b)):
        # Read as objects: compiled, a ``Sequence[ShipState]`` would check each item itself.
        members: Iterable[object] = fleet
        if isinstance(members, (str, bytes)) or not all(isinstance(x, ShipState) for x in members):
            raise BadArgument(f"resolve_battle: {label} must be a sequence of ShipState")
    if not isinstance(options, (RuleOptions, Mapping)) and options is not None:
        raise BadArgument(
            f"resolve_battle: options must be RuleOptions or a mapping, got "
            f"{type(options).__name__} (§16)"
        )
    ships_a = [clone(s) for s in fleet_a]
    ships_b = [clone(s) for s in fleet_b]
    if not ships_a or not ships_b:
        raise BadArgument("resolve_battle: both fleets need at least one ship")
    sides = []
    for label, fleet in (("fleet_a", ships_a), ("fleet_b", ships_b)):
        found = {s.side for s in fleet}
        if len(found) != 1:
            raise BadArgument(f"resolve_battle: {label} mixes sides {sorted(found)}")
        sides.append(found.pop())
    if sides[0] == sides[1]:
        raise BadArgument(f"resolve_battle: both fleets are side {sides[0]!r}")
    ids = [s.ship_id for s in ships_a + ships_b]
    if len(set(ids)) != len(ids):
        raise BadArgument("resolve_battle: ship ids must be unique across both fleets")
    if not deployed:
        deploy(ships_a, y=0.0, heading=0)
        deploy(ships_b, y=DEPLOY_GAP, heading=3)
    if options is None:
        rule_options = DEFAULT_OPTIONS
    elif isinstance(options, RuleOptions):
        rule_options = options
    else:
        rule_options = RuleOptions.from_dict(dict(options))
    state = (BattleState if record else UnrecordedBattleState)(
        ships={s.ship_id: s for s in ships_a + ships_b},
        sides=(sides[0], sides[1]),
        dice=Dice(seed) if record else UnrecordedDice(seed),
        options=rule_options,
        known_classes={side: set(names) for side, names in (known_classes or {}).items()},
    )
    if record:  # the positions as they are now, rounded when the event is read (Event.data)
        at = [(sid, s.x, s.y, s.heading, s.speed) for sid, s in state.ships.items()]
        state.record(0, "deploy", "fleets deployed", (_deploy_data, at))
    reason = "turn-limit"
    # Nobody drops out between the end of a turn and its next phase 9 (``play_turn`` holds
    # the roster on from phase 1): one snapshot serves the check below and the orders.
    state.hold_roster(True)
    while state.turn < max_turns:
        orders = {ship.ship_id: ship_orders(state, ship) for ship in state.in_action()}
        play_turn(state, orders, ship_fire=ship_fire, crew_plan=crew_plan)
        state.hold_roster(True)
        present = {ship.side for ship in state.in_action()}
        alive = [side for side in state.sides if side in present]
        if len(alive) < 2:
            if not alive:
                reason = "mutual"
            elif any(s.withdrawn for s in state.ships.values() if s.side != alive[0]):
                reason = "withdrawal"
            else:
                reason = "destruction"
            break
    state.hold_roster(False)
    strength = {side: _strength(state, side) for side in state.sides}
    a, b = state.sides
    if reason in ("destruction", "withdrawal"):
        winner: str | None = a if state.in_action(a) else b
    elif strength[a] == strength[b]:
        winner = None
    else:
        winner = a if strength[a] > strength[b] else b
    state.log(
        state.turn and 11,
        "result",
        f"{winner or 'nobody'} wins ({reason}) after {state.turn} turn(s)",
        winner=winner,
        reason=reason,
        strength=strength,
    )
    return BattleResult(
        winner,
        reason,
        state.turn,
        seed,
        state.events,
        state.ships,
        strength,
        dice=state.dice if record else None,
        roll_marks=state.roll_marks,
    )


def _deploy_data(at: list[tuple[str, float, float, int, int | float]]) -> dict[str, Any]:
    """The ``deploy`` event's data: each ship's position (3 decimals), heading, speed."""
    return {"positions": {sid: [round(x, 3), round(y, 3), h, speed] for sid, x, y, h, speed in at}}
