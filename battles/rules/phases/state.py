"""What every phase shares: the battle state, orders and light units, and small helpers.

``BattleState`` holds one battle between two sides (ships, light units, dice, options,
log); ``ShipOrders`` / ``FireIntent`` are a ship's orders for a turn (§2 phase 1);
``LightUnit`` a squadron, drone group or missile on the table (§9); ``Event`` one entry
of the log. The constants are the distances and costs of rules §2, §9, §10 and §14.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import zip_longest
from typing import Any

from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.rules.movement import Orders
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.phases.event import Event
from battles.rules.sensors import sight_line
from battles.rules.ships import ShipState, Status
from battles.rules.weapons import Armoury, fire_profile, get_weapon

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
    (§2 phase 6, §9; they fly home from phase 3 and land when within 3 mu after phase 6).
    ``settings``: the turn's per-system choices written in phase 1 (D-34) — a pulser's
    mode id (``{"p1": "pulser-medium"}``, « le joueur doit choisir, pour chacun de ses
    Pulseurs, la portée effective ») and a needle nodule's power points (``{"n1": 6}``,
    « il faut indiquer la répartition de puissance »); a ``FireIntent``'s ``mode`` and
    ``power_points`` count as phase-1 settings too."""

    # ``movement`` (``str | Orders``) and ``settings`` (``dict[str, str | int]``) are ``Any``:
    # orders of the wrong type reach phase 1's checks (an ``IllegalOrder`` naming the ship),
    # not the compiled engine's TypeError (and mypyc's dataclasses cannot take ``object``).
    movement: Any = ""
    fire: list[FireIntent] = field(default_factory=list)
    launches: list[tuple[str, str]] = field(default_factory=list)
    screens: bool | None = None
    veil: bool | None = None
    withdraw: bool = False
    recover: list[str] = field(default_factory=list)
    settings: Any = field(default_factory=dict)


# The orders of a ship given none (read only; saves building one per ship and phase).


NO_ORDERS = ShipOrders()


@lru_cache(maxsize=4096)  # bounded: players' orders reach here too
def orders_text(orders: Orders) -> str:
    """``str(orders)``: the §3 notation of ``orders`` (the text the log stores)."""
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
    #: ship id -> system id -> this turn's phase-1 pulser mode or needle PP (D-34)
    settings: dict[str, dict[str, str | int]] = field(default_factory=dict)
    roll_marks: list[int] = field(default_factory=list)  # per event: dice rolled before it
    _unit_counter: int = 0
    _hold: bool = field(default=False, repr=False)
    _roster: dict[str | None, tuple[ShipState, ...]] | None = field(default=None, repr=False)

    _sight: dict[tuple[str, str], tuple[float, tuple[str, ...]]] = field(
        default_factory=dict, repr=False
    )

    #: Weapon profiles with ``options`` applied, resolved once per battle (``weapons.Armoury``).
    armoury: Armoury = field(init=False, repr=False)

    #: False on ``UnrecordedBattleState``: the busiest log sites skip building their
    #: summary and data (a forecast reads neither). A field set by ``__post_init__``, not a
    #: ``ClassVar``: mypyc makes every class attribute of a dataclass a field (mypyc#1122).
    recording: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.armoury = Armoury(self.options)
        self.recording = True

    def hold_roster(self, hold: bool) -> None:
        """Serve ``in_action`` from a snapshot (True) or recompute it every call (False).
        Only for stretches of the turn where no ship can be destroyed or leave; holding
        again while held keeps the snapshot (the stretch goes on)."""
        if not (hold and self._hold):
            self._roster = None
        self._hold = hold
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

    def log(self, phase: int, kind: str, summary: str | tuple[Any, ...], **data: Any) -> Event:
        """Append and return an event of the current turn. ``summary``: its text, or a
        ``(render, *args)`` tuple writing it when first read (``Event.summary``)."""
        return self.record(phase, kind, summary, data)

    def record(
        self,
        phase: int,
        kind: str,
        summary: str | tuple[Any, ...],
        data: dict[str, Any] | tuple[Any, ...],
    ) -> Event:
        """:meth:`log` with ``data`` handed over as a dict (kept as the event's ``data``)
        or a ``(write, *args)`` tuple writing it when first read (``Event.data``). The
        busiest log sites (fire, orders, moves, damage) call this: a dict display or a
        tuple costs far less than packing keyword arguments into ``**data``."""
        event = Event(self.turn, phase, kind, summary, data)
        self.events.append(event)
        self.roll_marks.append(self.dice.rolled)
        return event

    def in_action(self, side: str | None = None) -> Sequence[ShipState]:
        """Ships still fighting (optionally of one side), in insertion order. While
        ``play_turn`` holds the roster still (phases 1–8 and phase 9 before its damage,
        when no ship can drop out) the same tuple is served each call; otherwise a new
        list, computed again."""
        roster = self._roster
        if roster is None:
            if not self._hold:
                # Not held: just the list asked for (the roster may change after any call).
                if side is None:
                    return [s for s in self.ships.values() if not s.out_of_action]
                return [s for s in self.ships.values() if s.side == side and not s.out_of_action]
            everyone = tuple(s for s in self.ships.values() if not s.out_of_action)
            roster = self._roster = {None: everyone}
            for name in self.sides:
                roster[name] = tuple(s for s in everyone if s.side == name)
        return roster.get(side, ())

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
    ``dice.UnrecordedDice`` (``battles.rules.forecast``): outcomes only, a tenth faster.
    ``contacts`` stays empty: phase 7 only feeds the log (``phases.sensors``)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.recording = False

    def log(self, phase: int, kind: str, summary: str | tuple[Any, ...], **data: Any) -> Event:
        return _UNRECORDED

    def record(
        self,
        phase: int,
        kind: str,
        summary: str | tuple[Any, ...],
        data: dict[str, Any] | tuple[Any, ...],
    ) -> Event:
        return _UNRECORDED


# ---- helpers the phases share --------------------------------------------------------


def ship_pos(ship: ShipState) -> tuple[float, float]:
    return (ship.x, ship.y)


def effective_weapon(system_weapon: str, mode: str | None, range_mu: float) -> str:
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


def screen_level(state: BattleState, ship: ShipState) -> int:
    """Screen level a shot at ``ship`` meets: its screens, or 2 while its vapour veil is on
    (§14)."""
    if ship.ship_id in state.veiled:
        return max(2, ship.screen_level)
    return ship.screen_level


def fire_controls(state: BattleState, ship: ShipState) -> int:
    """Working FCs; none while the ship's own vapour veil is on (§14) or its bridge is out."""
    return 0 if ship.ship_id in state.veiled else ship.fire_controls


def alternate(state: BattleState, acting: Sequence[str]) -> list[ShipState]:
    """Ships in action, the two sides taking turns one ship at a time, the side with the
    initiative first (§2 phases 3 and 9), each side in fleet order."""
    first, second = (state.in_action(side) for side in acting)
    order: list[ShipState] = []
    for a, b in zip_longest(first, second):
        if a is not None:
            order.append(a)
        if b is not None:
            order.append(b)
    return order


def unit_target_kind(unit: LightUnit) -> str:
    """The ``weapons.fire`` target kind of a light unit."""
    if unit.kind == "missile":
        return "missile"
    if unit.kind == "gunboat":
        return "gunboat"
    return "heavy-fighter" if unit.weapon in ("fighter-heavy", "drone-heavy") else "fighter"


def aim_point(state: BattleState, target_id: str) -> tuple[str, tuple[float, float]] | None:
    """(name, position) of a ship or light unit still on the table, else None."""
    ship = state.ships.get(target_id)
    if ship is not None:
        gone = ship.destroyed or ship.withdrawn or ship.captured
        return None if gone else (ship.name, ship_pos(ship))
    unit = state.light_units.get(target_id)
    if unit is not None and unit.active:
        return unit.unit_id, unit.position
    return None


def side_of(state: BattleState, target_id: str) -> str | None:
    ship = state.ships.get(target_id)
    if ship is not None:
        return ship.side
    unit = state.light_units.get(target_id)
    return unit.side if unit is not None else None


def volley_text(volley: Any) -> str:
    if volley.kills:
        return f"{volley.kills} killed"
    if volley.systems:
        return f"{volley.systems} system hit(s)"
    return f"{volley.damage} damage" if volley.hits else "no effect"


def try_fire(state: BattleState, phase: int, weapon_id: str, **kwargs: Any) -> Any:
    """One volley through ``weapons.fire`` with the battle's dice and options; None (and an
    event) when the weapon cannot engage that target kind."""
    try:
        return fire_profile(state.armoury[weapon_id], state.dice, options=state.options, **kwargs)
    except RulesError as error:
        state.log(phase, "fire-refused", str(error), weapon=weapon_id)
        return None


ESCORT_AREA_DEFENCE = "gunboat-pd"  # §9: PD platforms give the ship they escort ADAF
