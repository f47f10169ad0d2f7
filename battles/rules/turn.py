"""The turn sequence of rules/ft-incursion.md §2 over a ``BattleState``.

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

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache, lru_cache
from itertools import zip_longest
from typing import Any, ClassVar

from battles.rules.damage import (
    CORE_EXPLOSION_RADIUS,
    DamageEvent,
    apply_hits,
    attach_vampire,
    board,
    core_explosion_hit,
    damage_control,
    emp_hits,
    lance_hit,
    repel_boarders,
    tick_countdowns,
    tick_vampires,
)
from battles.rules.dice import Dice
from battles.rules.errors import (
    IllegalOrder,
    MagazineDestroyed,
    NoFireControl,
    RulesError,
    UnknownWeapon,
)
from battles.rules.movement import Orders, Plan, execute, validate_orders
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.sensors import (
    ARC_BITS,
    ARCS,
    LANCE,
    OWN_DIRECTION,
    Contact,
    FireOrder,
    allocate_fire_control,
    arc_mask,
    distance,
    observe,
    pd_arc_limited,
    sensor_range,
    sight_line,
)
from battles.rules.ships import COMMAND_SYSTEMS, ShipState, Status
from battles.rules.weapons import anti_ship_at_gunboats, fire, get_weapon

_WORKING = Status.WORKING

PHASES = (
    "orders",
    "initiative",
    "launch",
    "missiles-drones-move",
    "ship-movement",
    "fighters-gunboats-move",
    "sensors",
    "light-unit-intent",
    "ship-fire",
    "light-unit-fire",
    "end-of-turn",
)

ATTACH_RANGE = 3.0  # mu, §2 phase 3
LIGHT_ATTACK_RANGE = 6.0  # mu, §9
PD_RANGE = 6.0  # mu, §10
# §8, §10, §14 (Sa'vasku): a launcher-nodule or spicule shot costs 1 biomass + 3 power points,
# from the same per-turn PP budget as the needle nodules.
BIOMASS_WEAPONS = frozenset({"penetrator", "vampire", "interceptor-nodule", "spicule"})
SHOT_POWER_POINTS = 3
SHOT_BIOMASS = 1

# §9 endurance (E) and the distance one point buys, by kind; main and second moves.
ENDURANCE: dict[str, int] = {
    "missile-salvo": 1,
    "missile-standard": 2,
    "missile-heavy": 1,
    "fighter-interceptor": 5,
    "fighter-heavy": 4,
    "fighter-long-range": 8,  # provisional: "long-range" read as more endurance
    "drone": 5,
    "drone-heavy": 4,
    "gunboat-pd": 2,
    "gunboat-mpc": 7,
    "gunboat-assault": 6,
    "gunboat-transport": 5,
    "gunboat-heavy-transport": 6,
    "gunboat-emp": 4,
}
#: §9 « Salve (par 6) »: a salvo launch is six missiles, one unit of 6 craft; PD kills remove
#: them one by one and each missile left strikes for 1d6 (phase 10(d)).
SALVO_MISSILES = 6
MU_PER_ENDURANCE = {"missile": 12.0, "fighter": 24.0, "drone": 24.0, "gunboat": 18.0}
SECOND_MOVE = {"missile": 12.0, "drone": 12.0, "fighter": 12.0, "gunboat": 9.0}


@cache  # a handful of ids, asked for every unit many times a turn
def light_kind(weapon: str) -> str:
    """``missile`` / ``drone`` / ``gunboat`` / ``fighter`` for a light-unit weapon id."""
    for prefix in ("missile", "drone", "gunboat"):
        if weapon.startswith(prefix):
            return prefix
    return "fighter"


@dataclass
class Event:
    """One decision or roll-backed outcome: ``{turn, phase, kind, summary, data}``; ``data``
    holds only JSON types (the ``Event`` rows of the battles app store it as is)."""

    turn: int
    phase: int
    kind: str
    summary: str
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready record."""
        return asdict(self)


@dataclass
class LightUnit:
    """A fighter or gunboat squadron, a drone group or a missile marker on the table.

    ``weapon`` is the catalogue id of its attack (``fighter-interceptor``, ``missile-heavy``…);
    ``craft`` the craft left (a missile marker counts 1, a salvo its missiles left: 6 at
    launch, :data:`SALVO_MISSILES`); ``endurance`` the mu it may
    still fly; ``attached_to`` the ship it moves with (escorting a friend or attacking an
    enemy); ``target`` the ship it is after; ``bay`` the bay it was launched from (squadrons);
    ``home`` the friendly carrier it is flying back to, to land on (§2 phase 6, §9);
    ``squad_landed``: a transport or heavy-transport squadron has landed its one squad
    (§9, seed « débarquer une escouade »; project reading: once, never again).
    """

    unit_id: str
    side: str
    weapon: str
    craft: int
    endurance: float
    x: float
    y: float
    origin: str = ""
    target: str | None = None
    attached_to: str | None = None
    launched_turn: int = 0
    destroyed: bool = False
    bay: str = ""
    home: str | None = None
    squad_landed: bool = False

    @property
    def kind(self) -> str:
        """missile / drone / gunboat / fighter."""
        return light_kind(self.weapon)

    @property
    def position(self) -> tuple[float, float]:
        """(x, y) in mu."""
        return (self.x, self.y)

    @property
    def active(self) -> bool:
        """On the table with craft left."""
        return not self.destroyed and self.craft > 0


@dataclass(frozen=True)
class FireIntent:
    """One weapon system ordered to fire: ``system`` id, ``target`` (ship id or light-unit
    id), optional ``mode`` (pulser fire mode id) and ``power_points`` (needle nodules)."""

    system: str
    target: str
    mode: str | None = None
    power_points: int | None = None


@dataclass
class ShipOrders:
    """A ship's orders for one turn (§2 phase 1): movement notation, fire, launches (bay or
    magazine-weapon system ids with their target ship), screens on/off, vapour veil on/off
    (Phalon, §14), withdrawal (the ship leaves the battle at the end of the turn),
    ``recover``: ids of friendly fighter squadrons the ship (a carrier) calls back to land
    (§2 phase 6, §9; they fly home from phase 3 and land when within 3 mu after phase 6)."""

    movement: str | Orders = ""
    fire: list[FireIntent] = field(default_factory=list)
    launches: list[tuple[str, str]] = field(default_factory=list)
    screens: bool | None = None
    veil: bool | None = None
    withdraw: bool = False
    recover: list[str] = field(default_factory=list)


# The orders of a ship given none (read only; saves building one per ship and phase).
_NO_ORDERS = ShipOrders()


@lru_cache(maxsize=4096)  # bounded: players' orders reach here too
def _orders_text(orders: Orders) -> str:
    """``str(orders)``, remembered (orders are frozen; the AI writes the same few often)."""
    return str(orders)


@dataclass
class BattleState:
    """Everything the engine knows about one battle between two sides.

    ``ships`` by ship id (each ``ShipState.side`` is one of ``sides``); ``light_units`` by
    unit id; ``dice`` the only random source; ``options`` the campaign rule options (§16);
    ``turn`` the last turn played; ``known_classes`` per side, the ship classes that side
    has already met in the campaign (§5: sensors name only those). ``roll_marks[k]`` is
    how many dice ``dice`` had rolled when ``events[k]`` was logged (events appended through
    :meth:`log`), so the rolls ``dice.log[roll_marks[k-1]:roll_marks[k]]`` are the ones
    that decided event ``k`` (an audit log stores each just before it).
    """

    ships: dict[str, ShipState]
    sides: tuple[str, str]
    dice: Dice
    options: RuleOptions = DEFAULT_OPTIONS
    turn: int = 0
    light_units: dict[str, LightUnit] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    initiative: str | None = None
    contacts: dict[str, dict[str, str]] = field(default_factory=dict)  # side -> id -> sensors
    known_classes: dict[str, set[str]] = field(default_factory=dict)  # side -> classes met
    veiled: set[str] = field(default_factory=set)  # ships with their vapour veil on (§14)
    roll_marks: list[int] = field(default_factory=list)  # per event: dice rolled before it
    _unit_counter: int = 0
    _hold: bool = field(default=False, repr=False)
    _roster: dict[str | None, list[ShipState]] | None = field(default=None, repr=False)

    _sight: dict[tuple[str, str], tuple[float, tuple[str, ...]]] = field(
        default_factory=dict, repr=False
    )

    #: False on ``UnrecordedBattleState``: the busiest log sites skip building their
    #: summary and data (a forecast reads neither).
    recording: ClassVar[bool] = True

    def hold_roster(self, hold: bool) -> None:
        """Serve ``in_action`` from a snapshot (True) or recompute it every call (False).
        Only for stretches of the turn where no ship can be destroyed or leave."""
        self._hold = hold
        self._roster = None
        self._sight.clear()

    def sight(
        self, ship: ShipState, target_id: str, where: tuple[float, float]
    ) -> tuple[float, tuple[str, ...]]:
        """(range in mu, arcs of ``ship`` the target at ``where`` lies in); remembered
        while the roster is held (nothing moves in phase 9)."""
        if not self._hold:
            return sight_line(ship.x, ship.y, ship.heading, where[0], where[1])
        key = (ship.ship_id, target_id)
        found = self._sight.get(key)
        if found is None:
            found = self._sight[key] = sight_line(ship.x, ship.y, ship.heading, *where)
        return found

    def log(self, phase: int, kind: str, summary: str, **data: Any) -> Event:
        """Append and return an event of the current turn."""
        event = Event(self.turn, phase, kind, summary, data)
        self.events.append(event)
        self.roll_marks.append(len(self.dice.log))
        return event

    def in_action(self, side: str | None = None) -> list[ShipState]:
        """Ships still fighting (optionally of one side), in insertion order. A new list
        each call; while ``play_turn`` holds the roster still (phases 1–8 and phase 9
        before its damage, when no ship can drop out) it is served from a snapshot."""
        roster = self._roster
        if roster is None and not self._hold:
            # Not held: just the list asked for (the roster may change after any call).
            if side is None:
                return [s for s in self.ships.values() if not s.out_of_action]
            return [s for s in self.ships.values() if s.side == side and not s.out_of_action]
        if roster is None:
            everyone = [s for s in self.ships.values() if not s.out_of_action]
            roster = {None: everyone}
            for name in self.sides:
                roster[name] = [s for s in everyone if s.side == name]
            if self._hold:
                self._roster = roster
        found = roster.get(side)
        return list(found) if found is not None else []

    def enemy_of(self, side: str) -> str:
        """The other side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def new_unit_id(self, prefix: str) -> str:
        """A unit id unique in this battle."""
        self._unit_counter += 1
        return f"{prefix}-{self._unit_counter}"


_UNRECORDED = Event(0, 0, "unrecorded", "")


class UnrecordedBattleState(BattleState):
    """A ``BattleState`` that keeps no event log (``events`` and ``roll_marks`` stay
    empty); every rule plays exactly as in ``BattleState``. For Monte-Carlo runs with
    ``dice.UnrecordedDice`` (``battles.rules.forecast``): outcomes only, a tenth faster."""

    recording: ClassVar[bool] = False

    def log(self, phase: int, kind: str, summary: str, **data: Any) -> Event:
        return _UNRECORDED


# ---- adapters to the resolution and damage modules -------------------------------------


def _ship_pos(ship: ShipState) -> tuple[float, float]:
    return (ship.x, ship.y)


def _effective_weapon(system_weapon: str, mode: str | None, range_mu: float) -> str:
    """Pulsers pick a fire mode each turn (§8): the given one, else the shortest mode whose
    range covers ``range_mu`` (the one with most dice)."""
    if system_weapon != "pulser":
        return system_weapon
    if mode:
        return mode
    for candidate, longest in _PULSER_MODES:
        if range_mu <= longest:
            return candidate
    return "pulser-long"


_PULSER_MODES = tuple(
    (m, get_weapon(m).max_range) for m in ("pulser-short", "pulser-medium", "pulser-long")
)


# ---- phases ----------------------------------------------------------------------------


def _phase_orders(state: BattleState, orders: Mapping[str, ShipOrders]) -> dict[str, Plan]:
    """Phase 1: validate every ship's orders before a die is rolled (raises RulesError)."""
    plans: dict[str, Plan] = {}
    for ship_id in orders:
        if ship_id not in state.ships:
            raise IllegalOrder(f"orders for unknown ship {ship_id!r} (rules §2 phase 1)")
    half_cap = state.options.half_thrust_turn_cap
    for ship in state.in_action():
        order = orders.get(ship.ship_id, _NO_ORDERS)
        parsed = (
            order.movement
            if isinstance(order.movement, Orders)
            else Orders.parse(order.movement, ship=ship.name)
        )
        plans[ship.ship_id] = validate_orders(
            parsed,
            ship=ship.name,
            thrust=ship.thrust,
            speed=int(ship.speed),
            drive_working=ship.thrust > 0,
            bridge_working=ship.bridge_working,
            half_thrust_turn_cap=half_cap,
        )
        ordered: set[str] = set()
        for intent in order.fire:
            system = ship.systems.get(intent.system)
            if system is None or system.kind != "weapon":
                raise IllegalOrder(
                    f"{ship.name}: no weapon system {intent.system!r} to fire (rules §2 phase 1)"
                )
            if intent.system in ordered:
                raise IllegalOrder(
                    f"{ship.name}: {intent.system} ({system.weapon}) ordered to fire twice; "
                    "a weapon system fires at most once a turn (rules §6, §8)"
                )
            ordered.add(intent.system)
            if not system.working:
                raise IllegalOrder(
                    f"{ship.name}: {intent.system} is {system.status} and cannot fire (rules §11)"
                )
            try:
                modes = get_weapon(system.weapon or "").modes
            except UnknownWeapon as error:
                raise UnknownWeapon(f"{ship.name}: {intent.system}: {error}") from error
            if intent.mode is not None and intent.mode not in modes:
                raise IllegalOrder(
                    f"{ship.name}: {intent.system} ({system.weapon}) has no fire mode "
                    f"{intent.mode!r} (modes: {', '.join(modes) or 'none'}; rules §8)"
                )
            _check_target(state, ship, intent, f"{ship.name}: {intent.system} ({system.weapon})")
        _check_power(ship, order.fire)
        _check_launches(state, ship, order.launches)
        _check_fire_magazines(ship, order.fire, order.launches)
        _check_fire_control(state, ship, order)
        if order.recover:
            _check_recoveries(state, ship, order.recover)
        if state.recording:
            text = _orders_text(parsed)
            state.log(
                1,
                "orders",
                f"{ship.name}: {text}",
                ship=ship.ship_id,
                movement=text,
                fire=[asdict(f) for f in order.fire],
                launches=[list(x) for x in order.launches],
                withdraw=order.withdraw,
                **({"recover": list(order.recover)} if order.recover else {}),
            )
    return plans


def _check_target(state: BattleState, ship: ShipState, intent: FireIntent, where: str) -> None:
    """Phase 1 check of a fire order's target (§6): it must name an enemy ship or light
    unit (a light unit leaves the table at the end of the turn it is spent). Whether it
    lies in an arc and in range is known only after movement, and a target ship already
    out of action is refused in phase 9 with the rest (``fire-refused``)."""
    if not intent.target:
        raise IllegalOrder(f"{where}: no target ordered (rules §6)")
    side = _side_of(state, intent.target)
    if side is None:
        raise IllegalOrder(
            f"{where}: no ship or light unit {intent.target!r} on the table to fire at (rules §6)"
        )
    if side == ship.side:
        raise IllegalOrder(
            f"{where} at {intent.target}: a friendly unit is not a target (rules §6)"
        )


def _check_fire_magazines(
    ship: ShipState, fire: Sequence[FireIntent], launches: Sequence[tuple[str, str]]
) -> None:
    """Phase 1 check of magazine-fed fire (§8), as ``_spend_magazine`` will draw it: each
    shot takes a round from the weapon's linked magazine (which must be there and working)
    or from its own ``ammo``; this turn's missile launches (phase 3) draw first."""
    drawn: dict[str, int] = {}
    for system_id, _ in launches:  # checked by _check_launches
        system = ship.systems[system_id]
        if system.kind != "bay":
            key = system.magazine or system.id
            drawn[key] = drawn.get(key, 0) + 1
    for intent in fire:
        system = ship.systems[intent.system]
        needs = system.magazine or _needs_magazine(system.weapon)
        if not needs and system.ammo is None:
            continue
        where = f"{ship.name}: {intent.system} ({system.weapon})"
        key = (system.magazine or "") if needs else system.id
        drawn[key] = drawn.get(key, 0) + 1
        if needs:
            magazine = ship.systems.get(key)
            if magazine is None:
                raise MagazineDestroyed(f"{where}: its magazine {key!r} is missing (rules §8)")
            if not magazine.working:
                raise MagazineDestroyed(
                    f"{where}: its magazine {key!r} is {magazine.status} (rules §8)"
                )
            left = magazine.ammo or 0
        else:
            left = system.ammo or 0
        if drawn[key] > left:
            raise MagazineDestroyed(
                f"{where}: magazine {key!r} has {left} round(s) left, {drawn[key]} ordered "
                "from it this turn (rules §8)"
            )


def _check_fire_control(state: BattleState, ship: ShipState, order: ShipOrders) -> None:
    """Phase 1 check that the ship's working FCs can direct its fire orders (§6), through
    ``allocate_fire_control`` with every arc open (arcs are known only after movement):
    one FC per enemy target, a lance one of its own (D-12); systems with their own
    direction, and class-1 weapons at an enemy light unit attached to the ship or homing
    on it (it may attach in phase 3 and then meets them as PD), need none. A vapour veil
    already on, and not switched off in phase 2, leaves no FC (§14). This turn's launches
    do not count: their FCs are free again in phase 9 (see ``_phase_ship_fire``)."""
    if not order.fire:
        return
    veiled = (
        ship.ship_id in state.veiled
        and ship.working_count("vapour-veil") > 0
        and not (order.veil is False and ship.bridge_working)
    )
    fcs = 0 if veiled else ship.fire_controls
    fire_orders = []
    for intent in order.fire:
        if _aim_point(state, intent.target) is None:
            continue  # refused in phase 9: it takes no FC
        system = ship.systems[intent.system]
        weapon_id = _effective_weapon(system.weapon or "", intent.mode, 0.0)
        unit = state.light_units.get(intent.target)
        as_pd = (
            unit is not None
            and ship.ship_id in (unit.attached_to, unit.target)
            and get_weapon(weapon_id).pd_threshold is not None
        )
        fire_orders.append(
            FireOrder(intent.system, weapon_id, ARCS, intent.target, ARCS, point_defence=as_pd)
        )
    try:
        allocate_fire_control(ship=ship.name, fire_controls=fcs, orders=fire_orders)
    except NoFireControl as error:
        if not veiled:
            raise
        raise NoFireControl(f"{error}; its vapour veil is on (rules §14)") from error


def _check_power(ship: ShipState, fire: Sequence[FireIntent]) -> None:
    """Phase 1 check of a Sa'vasku ship's power allocation (§8, §10, §14; audit A1/A2): a
    needle nodule needs its power points ordered; launcher nodules (penetrator, vampire,
    interceptor) and spicules cost 3 PP and 1 biomass per shot; all the PP ordered come out
    of the ship's ``power_points`` for the turn. The seed: "l’allocation d’énergie sur un
    Nodule-aiguillon n’est limitée que par le score de Puissance du vaisseau"; "puisant
    dans la Biomasse (1 point) du vaisseau … et requérant des points de Puissance pour leur
    lancement (3PP)"; spicule: "il consomme 1 Biomasse et 3PP"."""
    power = biomass = 0
    for intent in fire:
        weapon = get_weapon(ship.systems[intent.system].weapon or "")
        where = f"{ship.name}: {intent.system} ({weapon.id})"
        if weapon.power_points:
            if intent.power_points is None or intent.power_points < 0:
                raise IllegalOrder(
                    f"{where} needs a number of power points ≥ 0 ordered in phase 1, got "
                    f"{intent.power_points} (rules §8)"
                )
            power += intent.power_points
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


def _phase_initiative(state: BattleState, orders: Mapping[str, ShipOrders]) -> list[str]:
    """Phase 2: each side rolls 2d6, ties re-rolled (D-1); the winner goes first. Screens
    are switched here. Returns the sides in acting order."""
    a, b = state.sides
    attempt = 0
    while True:
        attempt += 1
        ra = sum(state.dice.roll(2, f"initiative {a}, roll {attempt}"))
        rb = sum(state.dice.roll(2, f"initiative {b}, roll {attempt}"))
        state.log(2, "initiative-roll", f"initiative: {a} {ra}, {b} {rb}", rolls={a: ra, b: rb})
        if ra != rb:
            break
        if not state.options.initiative_reroll_ties:
            # Option against D-1: a tie keeps the previous turn's first player (else a).
            winner = state.initiative or a
            ra, rb = (1, 0) if winner == a else (0, 1)
            break
    winner = a if ra > rb else b
    state.initiative = winner
    state.log(2, "initiative", f"{winner} has the initiative", winner=winner)
    for ship in state.in_action():
        wanted = orders.get(ship.ship_id, _NO_ORDERS).screens
        if wanted is not None and wanted != ship.screens_on and ship.bridge_working:
            ship.screens_on = wanted
            state.log(
                2,
                "screens",
                f"{ship.name} switches screens {'on' if wanted else 'off'}",
                ship=ship.ship_id,
                on=wanted,
            )
    for ship in state.in_action():
        wanted = orders.get(ship.ship_id, _NO_ORDERS).veil
        if wanted is None and ship.ship_id not in state.veiled:
            continue  # nothing asked, no veil on
        has_veil = ship.working_count("vapour-veil") > 0
        if ship.ship_id in state.veiled and not has_veil:
            wanted = False  # the veil system was knocked out: it drops
        elif wanted is None or not ship.bridge_working or (wanted and not has_veil):
            continue  # §4: no screen changes while the bridge is out
        if wanted == (ship.ship_id in state.veiled):
            continue
        (state.veiled.add if wanted else state.veiled.discard)(ship.ship_id)
        state.log(
            2,
            "veil",
            f"{ship.name} vapour veil {'on' if wanted else 'off'}",
            ship=ship.ship_id,
            on=wanted,
        )
    return [winner, state.enemy_of(winner)]


def screen_level(state: BattleState, ship: ShipState) -> int:
    """Screen level a shot at ``ship`` meets: its screens, or 2 while its vapour veil is on
    (§14)."""
    if ship.ship_id in state.veiled:
        return max(2, ship.screen_level)
    return ship.screen_level


def fire_controls(state: BattleState, ship: ShipState) -> int:
    """Working FCs; none while the ship's own vapour veil is on (§14) or its bridge is out."""
    return 0 if ship.ship_id in state.veiled else ship.fire_controls


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


def _light_unit_move(state: BattleState, unit: LightUnit, budget: float, phase: int) -> None:
    """Move one light unit towards its target ship; attach within 3 mu (§2 phase 3)."""
    if not unit.active:
        return
    if unit.home is not None:
        carrier = state.ships.get(unit.home)
        if carrier is not None and not carrier.out_of_action:
            flown = _move_unit_towards(unit, _ship_pos(carrier), budget)
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
    flown = _move_unit_towards(unit, _ship_pos(target), budget)
    attach = unit.kind != "missile" and distance(unit.position, _ship_pos(target)) <= ATTACH_RANGE
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
    return min(enemies, key=lambda s: (distance(position, _ship_pos(s)), s.ship_id))


def _launch_bays(ship: ShipState) -> int:
    """Squadrons a ship may launch this turn: its working launch tubes, or one when the
    design has none (provisional)."""
    tubes = [s for s in ship.systems.values() if s.kind == "launch-tube"]
    if not tubes:
        return 1
    return sum(1 for s in tubes if s.working)


def alternate(state: BattleState, acting: Sequence[str]) -> list[ShipState]:
    """Ships in action, the two sides taking turns one ship at a time, the side with the
    initiative first (§2 phases 3 and 9), each side in fleet order."""
    first, second = (state.in_action(side) for side in acting)
    order: list[ShipState] = []
    for a, b in zip_longest(first, second):
        order.extend(s for s in (a, b) if s is not None)
    return order


def _phase_launch(
    state: BattleState, orders: Mapping[str, ShipOrders], acting: Sequence[str]
) -> dict[str, list[str]]:
    """Phase 3: launches (side with initiative first), a full move for each new unit, then
    the units already in flight move. Returns the FC labels each ship tied up."""
    tied: dict[str, list[str]] = {}
    new_units: list[LightUnit] = []
    for ship in state.in_action():
        for unit_id in orders.get(ship.ship_id, _NO_ORDERS).recover:
            unit = state.light_units[unit_id]
            unit.home, unit.target, unit.attached_to = ship.ship_id, None, None
    for ship in alternate(state, acting):
        for system_id, target_id in orders.get(ship.ship_id, _NO_ORDERS).launches:
            new_units.append(_launch_one(state, ship, system_id, target_id))
            tied.setdefault(ship.ship_id, []).append(system_id)
    for unit in new_units:
        _light_unit_move(state, unit, MU_PER_ENDURANCE[unit.kind], 3)
    fresh = {u.unit_id for u in new_units}
    for unit in list(state.light_units.values()):
        if unit.unit_id not in fresh:
            _light_unit_move(state, unit, MU_PER_ENDURANCE[unit.kind], 3)
    return tied


def recovery_rate(ship: ShipState) -> int:
    """Squadrons a carrier may take aboard per turn (§9): half its working launch tubes,
    rounded down; one when the design has no tube (provisional, as ``_launch_bays``)."""
    tubes = [s for s in ship.systems.values() if s.kind == "launch-tube"]
    if not tubes:
        return 1
    return sum(1 for s in tubes if s.working) // 2


def bay_free(system: Any) -> bool:
    """True for a working bay with no squadron aboard (never loaded, or its squadron is out)."""
    return (
        system.kind == "bay"
        and system.working
        and (not system.data.get("squadron") or bool(system.data.get("launched")))
    )


def _check_recoveries(state: BattleState, ship: ShipState, unit_ids: Sequence[str]) -> None:
    """Phase 1 check of a carrier's recovery orders (§2 phase 6, §9): each id names a
    friendly fighter squadron on the table, and the ship has a working bay."""
    if not any(s.kind == "bay" and s.working for s in ship.systems.values()):
        raise IllegalOrder(f"{ship.name}: no working bay to recover squadrons into (rules §9)")
    for unit_id in unit_ids:
        unit = state.light_units.get(unit_id)
        where = f"{ship.name}: recover {unit_id!r}"
        if unit is None or not unit.active:
            raise IllegalOrder(f"{where}: no such light unit on the table (rules §2 phase 6)")
        if unit.side != ship.side or unit.kind != "fighter":
            raise IllegalOrder(
                f"{where}: only friendly fighter squadrons land on a carrier (rules §2 phase 6)"
            )


def _phase_landing(state: BattleState) -> None:
    """End of phase 6: fighters flying home that ended within 3 mu of their carrier land
    in a free bay (their own first), at most ``recovery_rate`` squadrons per carrier and
    turn (§2 phase 6, §9). A landed squadron spends the next turn aboard rearming: its
    bay may launch it again from turn + 2, with its craft left and full endurance."""
    homing = [u for u in state.light_units.values() if u.home is not None and u.active]
    if not homing:
        return
    landed: dict[str, int] = {}
    for unit in homing:
        carrier = state.ships[unit.home or ""]
        if carrier.out_of_action or distance(unit.position, _ship_pos(carrier)) > ATTACH_RANGE:
            continue
        if landed.get(carrier.ship_id, 0) >= recovery_rate(carrier):
            continue
        own = carrier.systems.get(unit.bay) if unit.origin == carrier.ship_id else None
        free = [s for s in carrier.systems.values() if bay_free(s)]
        if not free:
            continue
        bay = own if own is not None and own in free else free[0]
        squadron = bay.data.get("squadron") if bay is own else None
        bay.data["squadron"] = {**(squadron or {"unit": unit.weapon}), "size": unit.craft}
        bay.data["launched"] = False
        bay.data["ready_turn"] = state.turn + 2
        landed[carrier.ship_id] = landed.get(carrier.ship_id, 0) + 1
        del state.light_units[unit.unit_id]
        state.log(
            6,
            "land",
            f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) lands on {carrier.name} "
            f"({bay.id}), rearms until turn {state.turn + 2}",
            unit=unit.unit_id,
            ship=carrier.ship_id,
            system=bay.id,
            craft=unit.craft,
            ready_turn=state.turn + 2,
        )


def _check_launches(
    state: BattleState, ship: ShipState, launches: Sequence[tuple[str, str]]
) -> None:
    """Phase 1 check of a ship's launch orders, so phase 3 cannot fail half-way: each
    launch ties a working FC (§6); a bay launches its squadron once, at most one squadron
    per working launch tube per turn (§9; one when the design has no tube); a missile
    launcher needs a round in its magazine (§8); the target must be an enemy ship."""
    if not launches:
        return
    if len(launches) > fire_controls(state, ship):
        raise IllegalOrder(
            f"{ship.name}: {len(launches)} launches but {fire_controls(state, ship)} working "
            "fire control(s); each launch ties one (rules §6)"
        )
    squadrons = 0
    rounds: dict[str, int] = {}
    for system_id, target_id in launches:
        system = ship.systems.get(system_id)
        where = f"{ship.name}: launch from {system_id!r}"
        if system is None or not system.working:
            raise IllegalOrder(f"{where}: no working system of that id (rules §2 phase 3)")
        target = state.ships.get(target_id)
        if target is None or (target.side == ship.side and not _escort_launch(system, target)):
            raise IllegalOrder(
                f"{where}: {target_id!r} is not an enemy ship (only PD-platform gunboats are "
                "launched to escort a friendly ship; rules §2 phase 3, §9)"
            )
        if system.kind == "bay":
            if not system.data.get("squadron") or system.data.get("launched"):
                raise IllegalOrder(f"{where}: no squadron aboard to launch (rules §9)")
            if system.data.get("ready_turn", 0) > state.turn:
                raise IllegalOrder(
                    f"{where}: the squadron landed on turn {system.data['ready_turn'] - 2} "
                    f"and rearms until turn {system.data['ready_turn']} (rules §9)"
                )
            squadron_weapon(system.data["squadron"], where=where)
            squadrons += 1
            if squadrons > _launch_bays(ship):
                raise IllegalOrder(f"{where}: no free launch tube this turn (rules §9)")
        elif system.kind == "weapon" and (system.weapon or "").startswith("missile"):
            key = system.magazine or system.id
            rounds[key] = rounds.get(key, 0) + 1
            magazine = ship.systems.get(system.magazine) if system.magazine else system
            left = magazine.ammo if magazine is not None and magazine.working else 0
            if system.magazine and (magazine is None or not magazine.working):
                left = 0
            if left is not None and left < rounds[key]:
                raise MagazineDestroyed(
                    f"{where}: magazine {system.magazine or system.id!r} is destroyed or "
                    "empty (rules §8)"
                )
        else:
            raise IllegalOrder(f"{where}: not a bay or a missile launcher (rules §2 phase 3)")


def _escort_launch(system: Any, target: ShipState) -> bool:
    """A bay launching a PD-platform squadron at a friendly ship still in action: the
    squadron flies to it and escorts it (§9), giving it area defence (phase 9)."""
    if system.kind != "bay" or target.out_of_action:
        return False
    try:
        return squadron_weapon(system.data.get("squadron") or {}) == ESCORT_AREA_DEFENCE
    except RulesError:
        return False


def squadron_weapon(squadron: Mapping[str, Any], *, where: str = "squadron") -> str:
    """The catalogue id a bay's squadron attacks with (§9): its ``unit`` word through the
    weapon aliases (``long-range-fighter`` → ``fighter-long-range``), or for ``gunboat``
    the ``variant`` (``{"unit": "gunboat", "variant": "emp"}`` → ``gunboat-emp``, the
    design catalogue's spelling). Raises ``UnknownWeapon`` naming ``where`` otherwise."""
    unit = str(squadron.get("unit", ""))
    if unit == "gunboat" and squadron.get("variant"):
        unit = f"gunboat-{squadron['variant']}"
    try:
        weapon = get_weapon(unit)
    except UnknownWeapon as error:
        raise UnknownWeapon(f"{where}: {error}") from error
    if not weapon.light_unit:
        raise UnknownWeapon(f"{where}: {unit!r} is not a launchable light unit (rules §9)")
    return weapon.id


def _launch_one(state: BattleState, ship: ShipState, system_id: str, target_id: str) -> LightUnit:
    """Launch one squadron from a bay, or one missile from a magazine-fed launcher (orders
    checked in phase 1 by ``_check_launches``)."""
    system = ship.systems[system_id]
    if system.kind == "bay":
        squadron = system.data["squadron"]
        weapon = squadron_weapon(squadron)
        craft = int(squadron.get("size", 6))
        system.data["launched"] = True
    else:
        weapon = str(system.weapon)
        craft = SALVO_MISSILES if weapon == "missile-salvo" else 1
        _spend_magazine(ship, system, f"{ship.name}: launch from {system_id!r}")
    unit = LightUnit(
        unit_id=state.new_unit_id(f"{ship.ship_id}.{system_id}"),
        side=ship.side,
        weapon=weapon,
        craft=craft,
        endurance=ENDURANCE.get(weapon, 1) * MU_PER_ENDURANCE[light_kind(weapon)],
        x=ship.x,
        y=ship.y,
        origin=ship.ship_id,
        target=target_id,
        launched_turn=state.turn,
        bay=system_id if system.kind == "bay" else "",
    )
    state.light_units[unit.unit_id] = unit
    state.log(
        3,
        "launch",
        f"{ship.name} launches {weapon} ×{craft} at {state.ships[target_id].name}",
        ship=ship.ship_id,
        system=system_id,
        unit=unit.unit_id,
        weapon=weapon,
        craft=craft,
        target=target_id,
    )
    return unit


def _spend_magazine(ship: ShipState, system: Any, where: str) -> None:
    """Take one round for a magazine-fed or single-use weapon (§8): from its linked
    magazine, or from its own ``ammo``. Raises ``MagazineDestroyed`` when the magazine is
    missing, damaged, destroyed or empty."""
    if system.magazine is None and system.ammo is None and not _needs_magazine(system.weapon):
        return
    if system.magazine or _needs_magazine(system.weapon):
        magazine = ship.systems.get(system.magazine or "")
        if magazine is None or not magazine.working or not magazine.ammo:
            raise MagazineDestroyed(
                f"{where}: magazine {system.magazine!r} is missing, destroyed or empty (rules §8)"
            )
        magazine.ammo -= 1
    elif system.ammo is not None:
        if system.ammo <= 0:
            raise MagazineDestroyed(f"{where}: no rounds left (rules §8)")
        system.ammo -= 1


@cache
def _needs_magazine(weapon_id: str | None) -> bool:
    return bool(weapon_id) and get_weapon(weapon_id or "").magazine


def _phase_second_move(state: BattleState, kinds: Iterable[str], phase: int) -> None:
    """Phases 4 and 6: the second move of missiles/drones or fighters/gunboats."""
    wanted = set(kinds)
    for unit in state.light_units.values():
        if unit.active and unit.kind in wanted:
            _light_unit_move(state, unit, SECOND_MOVE[unit.kind], phase)


def _phase_ship_movement(state: BattleState, plans: Mapping[str, Plan]) -> None:
    """Phase 5: every ship executes its plan (§3); attached light units follow."""
    for ship in state.in_action():
        plan = plans.get(ship.ship_id)
        if plan is None:
            continue
        moved = execute(plan, position=_ship_pos(ship), heading=ship.heading)
        ship.x, ship.y = moved.position
        ship.heading = moved.heading
        ship.speed = moved.speed
        ship.thrust_used = plan.thrust_used > 0
        if not state.recording:
            continue
        text = _orders_text(plan.orders)
        (x0, y0), (x1, y1), (x2, y2) = moved.path
        state.log(
            5,
            "move",
            f"{ship.name} {text}: to ({ship.x:.1f}, {ship.y:.1f}) heading {ship.heading}",
            ship=ship.ship_id,
            orders=text,
            path=[
                [round(x0, 3), round(y0, 3)],
                [round(x1, 3), round(y1, 3)],
                [round(x2, 3), round(y2, 3)],
            ],
            heading=ship.heading,
            speed=ship.speed,
            thrust_used=plan.thrust_used,
        )
    for unit in state.light_units.values():
        if unit.active and unit.attached_to in state.ships:
            host = state.ships[unit.attached_to]
            unit.x, unit.y = host.x, host.y


def _phase_sensors(state: BattleState, seen: dict[str, dict[str, str]]) -> None:
    """Phase 7: which enemy ships each side holds on sensors (§5), and how well.

    Logs only changes: a ``contact`` event (data: the ``sensors.observe`` report, the class
    shown only when in ``state.known_classes`` of that side) when a ship is first seen or
    seen better, ``contact-lost`` when it drops back to a blip.
    """
    reach: dict[tuple[str, int], float] = {}
    for side in state.sides:
        now: dict[str, str] = {}
        observers = [(s.x, s.y, s.sensors) for s in state.in_action(side)]
        advanced = any(kind == "advanced" for _, _, kind in observers)
        # Squared sensor reach of each observer against a target of a given ECM level.
        reach_by_ecm: dict[int, list[float]] = {}
        before = seen.get(side, {})
        for enemy in state.in_action(state.enemy_of(side)):
            ecm = enemy.ecm
            reaches = reach_by_ecm.get(ecm)
            if reaches is None:
                reaches = reach_by_ecm[ecm] = []
                for _, _, kind in observers:
                    key = (kind, ecm)
                    if key not in reach:
                        reach[key] = float(sensor_range(kind, target_ecm=ecm)) ** 2
                    reaches.append(reach[key])
            best: tuple[float, str] | None = None
            ex, ey = enemy.x, enemy.y
            for (x, y, kind), r2 in zip(observers, reaches, strict=True):
                dx, dy = ex - x, ey - y
                d2 = dx * dx + dy * dy
                if d2 <= r2 and (best is None or kind == "advanced"):
                    best = (math.sqrt(d2), kind)
                    if kind == "advanced" or not advanced:
                        break  # nothing better can follow
            if best is None:
                continue
            now[enemy.ship_id] = best[1]
            if before.get(enemy.ship_id) in (best[1], "advanced"):
                continue
            report = observe(
                Contact.from_ship(enemy),
                range_mu=best[0],
                sensors=best[1],
                encountered_classes=state.known_classes.get(side, ()),
            )
            state.log(
                7,
                "contact",
                f"{side} has {enemy.name} on {best[1]} sensors",
                side=side,
                ship=enemy.ship_id,
                report=report,
            )
        for ship_id in sorted(set(before) - set(now)):
            state.log(
                7,
                "contact-lost",
                f"{side} loses {state.ships[ship_id].name}",
                side=side,
                ship=ship_id,
            )
        seen[side] = now


def _phase_intent(state: BattleState) -> None:
    """Phase 8: fighters and missiles within 6 mu of an enemy ship declare their target."""
    for unit in state.light_units.values():
        if not unit.active or unit.kind == "gunboat":
            continue
        target = state.ships.get(unit.target or "")
        if target is None or target.out_of_action:
            continue
        if distance(unit.position, _ship_pos(target)) <= LIGHT_ATTACK_RANGE:
            state.log(
                8,
                "intent",
                f"{unit.unit_id} marks {target.name}",
                unit=unit.unit_id,
                target=target.ship_id,
            )


def _unit_target_kind(unit: LightUnit) -> str:
    """The ``weapons.fire`` target kind of a light unit."""
    if unit.kind == "missile":
        return "missile"
    if unit.kind == "gunboat":
        return "gunboat"
    return "heavy-fighter" if unit.weapon in ("fighter-heavy", "drone-heavy") else "fighter"


def _aim_point(state: BattleState, target_id: str) -> tuple[str, tuple[float, float]] | None:
    """(name, position) of a ship or light unit still on the table, else None."""
    ship = state.ships.get(target_id)
    if ship is not None:
        gone = ship.destroyed or ship.withdrawn or ship.captured
        return None if gone else (ship.name, _ship_pos(ship))
    unit = state.light_units.get(target_id)
    if unit is not None and unit.active:
        return unit.unit_id, unit.position
    return None


@dataclass
class _Pending:
    """Effects of a phase, applied together at its end (§2: simultaneous fire)."""

    hits: dict[str, list[Any]] = field(default_factory=dict)  # ship id -> Hit list
    systems: dict[str, int] = field(default_factory=dict)  # ship id -> lance successes
    checks: dict[str, int] = field(default_factory=dict)  # ship id -> EMP system checks
    kills: dict[str, int] = field(default_factory=dict)  # unit id -> craft lost
    vampires: dict[str, int] = field(default_factory=dict)  # ship id -> vampires attached

    def add_volley(self, target: str, volley: Any, *, is_unit: bool) -> None:
        if is_unit:
            lost = volley.kills or len(volley.hits)
            if lost:
                self.kills[target] = self.kills.get(target, 0) + lost
            return
        if volley.weapon == "vampire":
            if volley.hits:
                self.vampires[target] = self.vampires.get(target, 0) + len(volley.hits)
            return
        if volley.hits:
            self.hits.setdefault(target, []).extend(volley.hits)
        if volley.systems and volley.weapon == "lance":
            self.systems[target] = self.systems.get(target, 0) + volley.systems
        elif volley.systems:
            self.checks[target] = self.checks.get(target, 0) + volley.systems


def _phase_ship_fire(
    state: BattleState,
    ship_fire: Callable[[BattleState, ShipState], Sequence[FireIntent]],
    acting: Sequence[str],
) -> None:
    """Phase 9: ships fire alternately (initiative side first), then PD/ADAF; all damage is
    applied at the end of the phase. An order the geometry no longer allows (arc, range,
    fire control after movement) is refused and logged, not raised.

    Project reading (§6, audit A3/C7): an FC tied by a launch in phase 3 is free again here;
    the seed: "Un contrôle de tir est également mobilisé pour le lancement … mais sont
    libérés après lancement de ces unités". So this turn's launches do not count against
    the ship's FCs in phase 9 (a launch still needs a free FC in phases 1 and 3)."""
    pending = _Pending()
    for ship in alternate(state, acting):
        _ship_volleys(state, ship, ship_fire(state, ship), pending)
    for ship in alternate(state, acting):
        _point_defence(state, ship, pending)
    state.hold_roster(False)
    _apply_pending(state, pending, 9)


def _ship_volleys(
    state: BattleState,
    ship: ShipState,
    intents: Sequence[FireIntent],
    pending: _Pending,
) -> None:
    """Resolve one ship's heavy-weapon fire: FC allocation (§6) then one volley per system.
    The FCs tied by this turn's launches are free again (§6, "libérés après lancement")."""
    # (intent, system, effective weapon id, range mu, target name, target arcs, as PD)
    accepted: list[tuple[FireIntent, Any, str, float, str, tuple[str, ...], bool]] = []
    systems = ship.systems
    ships, units = state.ships, state.light_units
    for intent in intents:
        system = systems.get(intent.system)
        target_id = intent.target
        aim = _aim_point(state, target_id)
        if system is None or system.status is not _WORKING or not system.weapon or aim is None:
            _refuse(state, ship, intent, _gone_why(system, target_id, aim))
            continue
        # _side_of, with the target known to be a ship or a unit on the table
        target = ships.get(target_id) or units[target_id]
        if target.side == ship.side:
            _refuse(state, ship, intent, "a friendly unit is not a target (rules §6)")
            continue
        name, where = aim
        range_mu, arcs = state.sight(ship, target_id, where)
        weapon_id = _effective_weapon(system.weapon, intent.mode, range_mu)
        try:
            get_weapon(weapon_id).band(range_mu)
        except RulesError as error:
            _refuse(state, ship, intent, error)
            continue
        as_pd = target_id in units and _as_point_defence(
            state, ship, target_id, weapon_id, range_mu, weapon_arcs=system.arcs, target_arcs=arcs
        )
        if not as_pd and target_id in units and units[target_id].attached_to == ship.ship_id:
            # Audit A12: heavy fire at a light unit is for units not attached to the ship;
            # one attached to it is engaged only by PD (§6, §10).
            _refuse(state, ship, intent, _ATTACHED_PD_ONLY)
            continue
        accepted.append((intent, system, weapon_id, range_mu, name, arcs, as_pd))
    fcs = fire_controls(state, ship)
    if not _fire_control_suffices(fcs, accepted, (), ship.thrust_used):
        accepted = _allocate_or_refuse(state, ship, fcs, accepted)
    screens: dict[str, int] = {}
    power_left = ship.power_points  # §14: this turn's PP budget (needle and launcher nodules)
    for intent, system, weapon_id, range_mu, name, _, as_pd in accepted:
        try:
            cost = _shot_cost(ship, intent, weapon_id, power_left)
        except RulesError as error:
            _refuse(state, ship, intent, error)
            continue
        if system.magazine is not None or system.ammo is not None or _needs_magazine(system.weapon):
            try:
                _spend_magazine(ship, system, f"{ship.name}: {intent.system}")
            except RulesError as error:
                _refuse(state, ship, intent, error)
                continue
        target_ship = state.ships.get(intent.target)
        if target_ship is not None:
            if intent.target not in screens:
                screens[intent.target] = screen_level(state, target_ship)
            kind, screen = "ship", screens[intent.target]
        else:
            kind, screen = _unit_target_kind(state.light_units[intent.target]), 0
        try:  # as _fire does
            volley = fire(
                weapon_id,
                state.dice,
                options=state.options,
                range_mu=range_mu,
                screen=screen,
                target=kind,
                target_name=name,
                power_points=intent.power_points,
                count=1,
                as_pd=as_pd,
            )
        except RulesError as error:
            _refuse(state, ship, intent, error, weapon=weapon_id)
            continue
        pending.add_volley(intent.target, volley, is_unit=target_ship is None)
        if cost:
            power_left -= cost[0]
            ship.biomass -= cost[1]
        if state.recording:
            state.log(
                9,
                "fire",
                f"{ship.name} {intent.system} ({weapon_id}) at {name}, {range_mu:.1f} mu: "
                f"{_volley_text(volley)}",
                ship=ship.ship_id,
                system=intent.system,
                weapon=weapon_id,
                target=intent.target,
                range=round(range_mu, 3),
                dice=volley.dice,
                value=volley.value,
                **(
                    {"power_points": cost[0], "power_left": power_left, "biomass": ship.biomass}
                    if cost
                    else {}
                ),
            )


def _gone_why(system: Any, target_id: str, aim: Any) -> str:
    """Why phase 9 refuses an order whose system or target is no longer there."""
    if system is None or not system.weapon:
        return "no weapon system of that id (rules §2 phase 1)"
    if system.status is not _WORKING:
        return f"{system.id} was {system.status} before it fired (rules §11)"
    return f"target {target_id} was destroyed or is gone before the shot (rules §6)"


def _shot_cost(
    ship: ShipState, intent: FireIntent, weapon_id: str, power_left: int
) -> tuple[int, int] | None:
    """(power points, biomass) one phase-9 shot costs a Sa'vasku ship (§8, §10, §14; see
    ``_check_power``), None for other weapons. Raises ``RulesError`` (the reason, for a
    ``fire-refused`` event) when the ship cannot pay: orders from ``ship_fire`` are not
    checked in phase 1, and biomass spent by earlier shots is gone."""
    weapon = get_weapon(weapon_id)
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


def _fire_control_suffices(
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
            return False  # a pulser as PD keeps to its arcs (audit A13)
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

    A pulser does so only at a unit in one of its arcs (audit A13, project reading of the
    seed: « Les Pulseurs peuvent être employés comme Systèmes de défense mais sont limités
    par leur arc de tir »); beam-1 and kgun-1 fire all round. A unit sitting on its host is
    in every arc (``sensors.target_arcs``), so this bites only off the host."""
    unit = state.light_units.get(target_id)
    return (
        unit is not None
        and unit.attached_to == ship.ship_id
        and range_mu <= PD_RANGE
        and get_weapon(weapon_id).pd_threshold is not None
        and (not pd_arc_limited(weapon_id) or not set(weapon_arcs).isdisjoint(target_arcs))
    )


def _side_of(state: BattleState, target_id: str) -> str | None:
    ship = state.ships.get(target_id)
    if ship is not None:
        return ship.side
    unit = state.light_units.get(target_id)
    return unit.side if unit is not None else None


def _volley_text(volley: Any) -> str:
    if volley.kills:
        return f"{volley.kills} killed"
    if volley.systems:
        return f"{volley.systems} system hit(s)"
    return f"{volley.damage} damage" if volley.hits else "no effect"


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


def _fire(state: BattleState, phase: int, weapon_id: str, **kwargs: Any) -> Any:
    """One volley through ``weapons.fire`` with the battle's dice and options; None (and an
    event) when the weapon cannot engage that target kind."""
    try:
        return fire(weapon_id, state.dice, options=state.options, **kwargs)
    except RulesError as error:
        state.log(phase, "fire-refused", str(error), weapon=weapon_id)
        return None


def _point_defence(state: BattleState, ship: ShipState, pending: _Pending) -> None:
    """PD fires at enemy light units attached to the ship or homing on it within 6 mu;
    ADAF at any enemy light unit within 6 mu (§10); so does each PD-platform gunboat
    squadron escorting the ship (§9, :func:`_escort_area_defence`). Each engages the
    threat with the most craft."""
    enemies = [
        u
        for u in state.light_units.values()
        if u.active and u.side != ship.side and distance(u.position, _ship_pos(ship)) <= PD_RANGE
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
        range_mu = distance(unit.position, _ship_pos(ship))
        volley = _fire(
            state,
            9,
            system.kind,
            range_mu=min(range_mu, PD_RANGE),
            target=_unit_target_kind(unit),
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


ESCORT_AREA_DEFENCE = "gunboat-pd"  # §9: PD platforms give the ship they escort ADAF


def _escort_area_defence(
    state: BattleState,
    ship: ShipState,
    escort: LightUnit,
    enemies: Sequence[LightUnit],
    pending: _Pending,
) -> None:
    """§9 table, §10: a PD-platform gunboat squadron escorting ``ship`` fires as its ADAF at
    the enemy light unit within 6 mu of the ship with most craft left, with the gunboats'
    own dice — per craft, the ``gunboat-pd`` dice at that range (2 within 6 mu) — each
    read on the PD table (−2 against gunboats, §10)."""
    pool = [u for u in enemies if u.craft > pending.kills.get(u.unit_id, 0)]
    if not pool:
        return
    unit = max(pool, key=lambda u: (u.craft - pending.kills.get(u.unit_id, 0), u.unit_id))
    range_mu = min(distance(unit.position, _ship_pos(ship)), PD_RANGE)
    dice = get_weapon(ESCORT_AREA_DEFENCE).band(range_mu).dice * escort.craft
    volley = _fire(
        state,
        9,
        "adaf",
        range_mu=range_mu,
        count=dice,
        target=_unit_target_kind(unit),
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


def _apply_pending(state: BattleState, pending: _Pending, phase: int) -> None:
    """Apply a phase's effects: kills on light units, lance and EMP hits, then damage."""
    for unit_id, lost in pending.kills.items():
        unit = state.light_units[unit_id]
        unit.craft = max(0, unit.craft - lost)
        if unit.craft == 0:
            unit.destroyed = True
        state.log(
            phase,
            "light-unit-losses",
            f"{unit_id} loses {lost}, {unit.craft} left",
            unit=unit_id,
            lost=lost,
            craft=unit.craft,
        )
    for ship_id, count in pending.systems.items():
        _apply_lance(state, state.ships[ship_id], count, phase)
    for ship_id, count in pending.checks.items():
        _apply_system_checks(state, state.ships[ship_id], count, phase)
    for ship_id, hits in pending.hits.items():
        _apply_hits(state, state.ships[ship_id], hits, phase)
    for ship_id, count in pending.vampires.items():
        for _ in range(count):
            ship = state.ships[ship_id]
            _log_damage(state, phase, attach_vampire(ship, state.dice, options=state.options))


# ---- damage: adapters onto damage.py ---------------------------------------------------


def _log_damage(state: BattleState, phase: int, events: Iterable[DamageEvent]) -> None:
    recording = state.recording
    for event in events:
        if recording:
            state.log(
                phase,
                f"damage-{event.kind}",
                f"{state.ships[event.ship].name} {event.kind}: {event.detail}",
                ship=event.ship,
                detail=event.detail,
                amount=event.amount,
            )
        if event.kind == "core-explosion":
            _core_explosion(state, state.ships[event.ship], phase)


def _apply_hits(state: BattleState, ship: ShipState, hits: list[Any], phase: int) -> None:
    """§11 damage of a phase on one ship (threshold checks, destruction) via damage.py."""
    events = apply_hits(ship, hits, state.dice, options=state.options, source=f"phase {phase}")
    _log_damage(state, phase, events)


def lance_choice(ship: ShipState) -> list[str]:
    """The attacker's picks for lance hits (§8), best first: working weapons, then fire
    controls, drive, screens and anything else; never a command system."""
    rank = {"weapon": 0, "fc": 1, "drive": 2, "screen": 3}
    candidates = [
        s
        for s in ship.systems.values()
        if s.kind not in COMMAND_SYSTEMS and s.status is not Status.DESTROYED
    ]
    candidates.sort(key=lambda s: (not s.working, rank.get(s.kind, 4)))
    return [s.id for s in candidates]


def _apply_lance(state: BattleState, ship: ShipState, count: int, phase: int) -> None:
    for system_id in lance_choice(ship)[:count]:
        _log_damage(state, phase, lance_hit(ship, system_id))


def _apply_system_checks(state: BattleState, ship: ShipState, count: int, phase: int) -> None:
    _log_damage(state, phase, emp_hits(ship, count, state.dice))


def _core_explosion(state: BattleState, ship: ShipState, phase: int) -> None:
    """§4 (D-7): a core explosion deals its mass, semi-piercing, to every ship within 6 mu
    and destroys the light units there."""
    hit = core_explosion_hit(ship)
    for other in state.ships.values():
        if other is ship or other.destroyed:
            continue
        if distance(_ship_pos(other), _ship_pos(ship)) <= CORE_EXPLOSION_RADIUS:
            _apply_hits(state, other, [hit], phase)
    for unit in state.light_units.values():
        if unit.active and distance(unit.position, _ship_pos(ship)) <= CORE_EXPLOSION_RADIUS:
            unit.destroyed = True
            state.log(
                phase,
                "light-unit-losses",
                f"{unit.unit_id} caught in the explosion",
                unit=unit.unit_id,
                lost=unit.craft,
                craft=0,
            )


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
        _log_damage(state, 11, events)
    # Each step below does nothing (no die, no event) without its vampires, boarders or
    # countdowns; most ships have none, so the calls are skipped.
    if ship.vampires:
        _log_damage(
            state, 11, tick_vampires(ship, state.dice, options=state.options, fresh=fresh_vampires)
        )
    if ship.boarders:
        free = ship.crew_left if state.options.damage_control_crew_repel else ship.crew_left - used
        _log_damage(
            state,
            11,
            repel_boarders(ship, state.dice, crew_available=max(0, free), options=state.options),
        )
    if ship.countdowns:
        fresh = [sid for sid in ship.countdowns if sid not in running]
        _log_damage(state, 11, tick_countdowns(ship, state.dice, skip=fresh))


def _phase_light_fire(state: BattleState) -> None:
    """Phase 10, four sub-phases, effects applied at the end of each (§2).

    (a) every fighter, drone and gunboat squadron with endurance left engages the enemy
    fighter, drone or gunboat squadron within 6 mu with most craft (then unit id), attached or
    not (seed: « Les Chasseurs ciblant une autre unité légère dans un rayon de 6mu peuvent
    attaquer, même si cette unité effectue une projection sur un Vaisseau »); a gunboat
    leaves alone units projecting on a ship (attached to an enemy of theirs) unless it has
    area defence (the PD platform: « sauf si elles disposent de Zone de défense »); missiles
    are not dogfight targets (project reading: one PD-table die per craft, −2 against
    gunboats, D-20). A fighter or drone squadron engaging a gunboat squadron uses its
    anti-ship weapons instead (audit A14, ``weapons.anti_ship_at_gunboats``; seed:
    « Lorsque des Chasseurs engagent des Canonnières, ils peuvent employer leurs armes
    anti-Chasseurs, avec le modificateur de -2 au touché, ou anti-Vaisseaux »): per craft
    the anti-ship mean is higher — an interceptor's die 1/2 loss (4+, "1DF"), a heavy
    fighter's two dice 4/3 — than one PD-table die at −2 (a natural 6: 1/6), so it is the
    AI's choice in auto-resolve and, for now, the only mode the engine offers; (b) fighters,
    drones and gunboats attack
    their target ship within 6 mu (per craft, their catalogue profile); a fighter that
    attacks spends one endurance point; (c) antimatter and plasma bursts: no weapon of the
    catalogue makes one yet (rules §17), nothing to resolve; (d) missiles within their
    to-hit bands strike their target and are spent.
    """
    pending = _Pending()
    squadrons = _units(state, ("fighter", "gunboat", "drone"))
    for unit in squadrons:
        if unit.endurance <= 0:
            continue
        foes = [
            u
            for u in squadrons
            if u.side != unit.side
            and distance(u.position, unit.position) <= LIGHT_ATTACK_RANGE
            and not (
                unit.kind == "gunboat"
                and unit.weapon != ESCORT_AREA_DEFENCE
                and _projecting(state, u)
            )
        ]
        if not foes:
            continue
        foe = max(foes, key=lambda u: (u.craft, u.unit_id))
        if foe.kind == "gunboat" and unit.kind in ("fighter", "drone"):
            # Audit A14: fighters and drones engage gunboats with their anti-ship weapons.
            volley = anti_ship_at_gunboats(
                unit.weapon, state.dice, count=unit.craft, target_name=foe.unit_id
            )
            pending.add_volley(foe.unit_id, volley, is_unit=True)
            state.log(
                10,
                "dogfight",
                f"{unit.unit_id} engages {foe.unit_id} with anti-ship fire "
                f"({volley.dice} dice): {volley.kills} killed",
                unit=unit.unit_id,
                target=foe.unit_id,
                kills=volley.kills,
                sub_phase="a",
                attack="anti-ship",
                dice=volley.dice,
            )
            continue
        volley = _fire(
            state,
            10,
            "pd",
            range_mu=0,
            count=unit.craft,
            target=_unit_target_kind(foe),
            target_name=foe.unit_id,
        )
        if volley is not None:
            pending.add_volley(foe.unit_id, volley, is_unit=True)
            state.log(
                10,
                "dogfight",
                f"{unit.unit_id} engages {foe.unit_id}: {volley.kills} killed",
                unit=unit.unit_id,
                target=foe.unit_id,
                kills=volley.kills,
                sub_phase="a",
            )
    _apply_pending(state, pending, 10)

    pending = _Pending()
    for unit in _units(state, ("fighter", "gunboat", "drone")):
        target = state.ships.get(unit.target or "")
        if target is None or target.side == unit.side or unit.endurance <= 0:
            continue
        range_mu = distance(unit.position, _ship_pos(target))
        if range_mu > get_weapon(unit.weapon).max_range:
            continue
        if target.destroyed and unit.kind != "drone":
            continue
        volley = _fire(
            state,
            10,
            unit.weapon,
            range_mu=range_mu,
            count=unit.craft,
            screen=screen_level(state, target),
            target="ship",
            target_name=target.name,
        )
        if volley is None:
            continue
        unit.endurance = max(0.0, unit.endurance - MU_PER_ENDURANCE[unit.kind])
        if target.destroyed:
            # D-2: drones hit the wreck; rolled and logged, nothing changes.
            state.log(
                10,
                "attack-wreck",
                f"{unit.unit_id} strikes the wreck of {target.name}",
                unit=unit.unit_id,
                target=target.ship_id,
                value=volley.value,
                sub_phase="b",
            )
            continue
        pending.add_volley(target.ship_id, volley, is_unit=False)
        if (
            unit.weapon in ("gunboat-transport", "gunboat-heavy-transport")
            and not unit.squad_landed
        ):
            # §9: a transport squadron lands one squad, once (project reading of « débarquer
            # une escouade »); it keeps attacking with its gun. Boarding is fought in phase 11.
            squad = "fusiliers" if unit.weapon == "gunboat-heavy-transport" else "marines"
            _log_damage(state, 10, board(target, squad))
            unit.squad_landed = True
        state.log(
            10,
            "attack",
            f"{unit.unit_id} ({unit.weapon} ×{unit.craft}) attacks {target.name}: "
            f"{_volley_text(volley)}",
            unit=unit.unit_id,
            target=target.ship_id,
            dice=volley.dice,
            value=volley.value,
            sub_phase="b",
        )
    _apply_pending(state, pending, 10)

    pending = _Pending()
    for unit in _units(state, ("missile",)):
        target = state.ships.get(unit.target or "")
        if target is None or target.out_of_action:
            continue
        range_mu = distance(unit.position, _ship_pos(target))
        if range_mu > get_weapon(unit.weapon).max_range:
            continue
        volley = _fire(
            state,
            10,
            unit.weapon,
            range_mu=range_mu,
            count=unit.craft,
            target="ship",
            target_name=target.name,
        )
        unit.destroyed = True  # a missile strikes once
        if volley is None:
            continue
        pending.add_volley(target.ship_id, volley, is_unit=False)
        state.log(
            10,
            "missile-strike",
            f"{unit.unit_id} ({unit.weapon}) strikes {target.name}: {_volley_text(volley)}",
            unit=unit.unit_id,
            target=target.ship_id,
            value=volley.value,
            sub_phase="d",
        )
    _apply_pending(state, pending, 10)


def _projecting(state: BattleState, unit: LightUnit) -> bool:
    """The unit is projecting on a ship: attached to a ship of another side (§2 phase 3)."""
    host = state.ships.get(unit.attached_to or "")
    return host is not None and host.side != unit.side


def _units(state: BattleState, kinds: Sequence[str]) -> list[LightUnit]:
    return [u for u in state.light_units.values() if u.active and u.kind in kinds]


def _phase_end_of_turn(
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
        if orders.get(ship.ship_id, _NO_ORDERS).withdraw:
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
    for an unknown ship, movement the §3 notation or the ship's thrust refuses, a fire
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
    # §4: countdowns set this turn do not tick at its end (see _end_of_turn_ship).
    running = {sid: tuple(s.countdowns) for sid, s in state.ships.items() if s.countdowns}
    # §8: vampires attached this turn do not tick at its end (see _end_of_turn_ship).
    vampires = {sid: s.vampires for sid, s in state.ships.items() if s.vampires}
    state.hold_roster(True)  # no ship can drop out before the end of phase 9
    try:
        try:
            plans = _phase_orders(state, orders)
        except RulesError:
            # Phase 1 rolls nothing and changes nothing else: undo its log and the count.
            del state.events[first:]
            del state.roll_marks[first_mark:]
            state.turn -= 1
            raise
        _phases_2_to_9(state, orders, plans, ship_fire)
    finally:
        state.hold_roster(False)
    _phase_light_fire(state)
    _phase_end_of_turn(state, orders, crew_plan, running, vampires)
    return state.events[first:]


def _phases_2_to_9(
    state: BattleState,
    orders: Mapping[str, ShipOrders],
    plans: Mapping[str, Plan],
    ship_fire: Callable[[BattleState, ShipState], Sequence[FireIntent]] | None,
) -> None:
    acting = _phase_initiative(state, orders)
    _phase_launch(state, orders, acting)  # its tied FCs are free again in phase 9 (§6)
    _phase_second_move(state, ("missile", "drone"), 4)
    _phase_ship_movement(state, plans)
    _phase_second_move(state, ("fighter", "gunboat"), 6)
    _phase_landing(state)
    _phase_sensors(state, state.contacts)
    _phase_intent(state)
    by_orders = {sid: o.fire for sid, o in orders.items()}
    _phase_ship_fire(
        state,
        ship_fire or (lambda _s, ship: by_orders.get(ship.ship_id, [])),
        acting,
    )
