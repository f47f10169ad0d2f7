"""Auto-resolve: simple, documented tactics so two fleets fight a battle with no human input.

The tactics (each a small function below, all deterministic given the state):

- **Deployment** (§1): side A along y = 0 heading 0 (+y), side B 72 mu away along y = 72
  heading 3, ships 8 mu apart in fleet order, starting speed 8 mu.
- **Movement** (§3): each ship steers at the nearest enemy ship, turning as far towards it
  as its turning cap allows, and sets its speed so the gap left after the move is its
  *preferred range*: the upper bound of the first (most dice) band of its heavy weapons,
  the smallest over its weapons (12 mu for beams and pulsers, 6 for torpedoes), never
  slower than 2 mu. Orders always respect ``arcs + |Δspeed| ≤ T``.
- **Withdrawal**: a *crippled* ship — a third of its hull or less left, or nothing left to
  fight with (no working heavy weapon, missile round or squadron aboard) — turns away and
  is ordered out (it leaves at the end of the turn, §2 phase 11).
- **Fire** (§6): after movement, each ship picks targets in priority order — the most
  damaged enemy ship (lowest fraction of hull left) that any of its weapons can reach, ties
  to the one more of its weapons reach, then the nearest — one target per free FC, and
  every weapon that can reach a chosen target fires at the first one it reaches (focus
  fire). Pulsers use the mode with most dice at the range — under D-34 (default) the range
  predicted in phase 1 from the ship's own plan and the target keeping its speed and
  heading, and the pulser then reaches only as far as that mode. Under D-12 (default) a
  ship fires its lances only when no other weapon reaches an enemy ship (a lance fires
  alone). Class-1 weapons left idle fire
  as PD at the enemy squadron attached to the ship (no FC needed). Heavy weapons are aimed
  at ships only: the engine lets beam-family weapons fire at a non-attached light unit for
  one FC each (audit A12), but the AI keeps its FCs for enemy ships.
- **Light units**: carriers launch as many squadrons as they have launch tubes once an
  enemy is within 60 mu, at the nearest enemy (a squadron rearming after landing waits,
  §9; PD-platform gunboats are launched to escort their own carrier, giving it area
  defence); missile launchers fire at the nearest enemy within 36 mu. Each launch ties one
  FC in phases 1 and 3 (§6), so a ship launches at most as many units as it has working
  FCs; it keeps none back for its guns, since the seed frees those FCs again for phase 9
  (« mais sont libérés après lancement de ces unités »). A carrier calls back its
  own fighter squadrons once flying home is all their endurance still allows: the carrier
  is within their reach (distance − 3 mu ≤ endurance left) and what would be left after
  the flight is less than one endurance point (24 mu, the cost of one more attack). They
  land and rearm instead of leaving the table spent (§2 phase 6, §9). PD and ADAF always
  fire at incoming light units (the turn code does that).
- **Sa'vasku power** (§8, §10, §14): launcher nodules (penetrator, vampire) fire while the
  ship has 1 biomass and 3 PP left per shot (interceptor nodules and spicules are not
  aimed at ships: they defend the ship at the end of phase 9, as PD and ADAF do); the PP
  left are split evenly over the needle nodules that fire, the remainder to the first in
  system order. Under D-34 (default) the needles' PP are written in phase 1: split evenly
  over every working needle nodule after 3 PP are kept for each launcher nodule, spicule
  and interceptor nodule the ship's biomass can pay for.
- **Phalon vapour veil** (§14): on while no enemy is within 48 mu (no fire possible next
  turn), off otherwise so the FCs work.
- **Damage control** (§12): crew go, 3 at a time, to damaged systems in this order: core,
  life support, bridge, fire controls, drive, weapons, anything else; crew is kept back for
  boarders when any are aboard.

``resolve_battle`` plays turns until one side has no ship in action (destroyed, captured,
withdrawn, derelict or dead in space) or ``max_turns`` is reached; the result names the
winner and why (``destruction``, ``withdrawal``, ``turn-limit``, ``mutual``). Same seed and
fleets → the identical event log (tested across processes with different hash seeds).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from operator import attrgetter
from typing import Any

from battles.rules.dice import Dice, Roll, UnrecordedDice
from battles.rules.errors import BadArgument, RulesError
from battles.rules.movement import (
    HEADINGS,
    MAX_END_SPEED,
    Manoeuvre,
    Orders,
    execute,
    step,
    validate_orders,
)
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.phases.state import effective_weapon
from battles.rules.sensors import ALL_ARC_BITS, ARC_BITS, arc_mask, bearing, distance
from battles.rules.ships import ShipState, Status, SystemState
from battles.rules.turn import (
    ATTACH_RANGE,
    BIOMASS_WEAPONS,
    ESCORT_AREA_DEFENCE,
    MU_PER_ENDURANCE,
    SHOT_BIOMASS,
    SHOT_POWER_POINTS,
    BattleState,
    Event,
    FireIntent,
    ShipOrders,
    UnrecordedBattleState,
    bay_free,
    fire_controls,
    play_turn,
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


@dataclass
class BattleResult:
    """The outcome of an auto-resolved battle.

    ``winner``: the side still in action (or, at the turn limit, the side with more
    surviving strength — sum of mass × hull fraction left — None when equal); ``reason``:
    ``destruction`` (the loser has no ship left in action), ``withdrawal`` (the same, and
    at least one of its ships withdrew), ``turn-limit`` or ``mutual`` (both sides gone);
    ``turns`` played; ``events`` the whole log; ``ships`` the final states by id;
    ``strength`` surviving strength per side; ``rolls`` every die rolled, in order
    (``dice.Roll``); ``roll_marks[k]`` how many of ``rolls`` had been rolled when
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
    rolls: list[Roll] = field(default_factory=list)
    roll_marks: list[int] = field(default_factory=list)

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


def _pos(ship: ShipState) -> tuple[float, float]:
    return (ship.x, ship.y)


@cache
def _reach(weapon_id: str) -> int:
    """Longest range of a weapon (pulsers: the long mode), mu."""
    return get_weapon("pulser-long" if weapon_id == "pulser" else weapon_id).max_range


@cache
def _is_light(weapon_id: str) -> bool:
    return get_weapon(weapon_id).light_unit


class _Loadout:
    """One pass over a ship's systems: what the tactics need to know. (A plain slotted
    class: one is built per ship per turn, and a dataclass with default factories costs
    more than the scan itself.)"""

    __slots__ = (
        "guns",
        "missiles",
        "bays",
        "tubes",
        "free_tubes",
        "veil",
        "has_bays",
        "working_bays",
    )

    def __init__(self) -> None:
        self.guns: list[Any] = []  # working heavy weapons (not missiles)
        self.missiles: list[str] = []  # missile launchers with a round
        self.bays: list[str] = []  # bays whose squadron is still aboard
        self.tubes = 0
        self.free_tubes = 0
        self.veil = False
        self.has_bays = False
        self.working_bays = 0


_WORKING = Status.WORKING
_DAMAGED = Status.DAMAGED


def _loadout(ship: ShipState) -> _Loadout:
    out = _Loadout()
    for system in ship.systems.values():
        kind = system.kind
        if kind == "weapon":
            if system.status is _WORKING and system.weapon:
                if _is_light(system.weapon):
                    if _has_round(ship, system):
                        out.missiles.append(system.id)
                else:
                    out.guns.append(system)
        elif kind == "bay":
            out.has_bays = True
            out.working_bays += system.working
            squadron = system.data.get("squadron")
            aboard = system.working and not system.data.get("launched")
            if aboard and squadron and _launchable(squadron):
                out.bays.append(system.id)
        elif kind == "launch-tube":
            out.tubes += 1
            out.free_tubes += system.working
        elif kind == "vapour-veil":
            out.veil = True
    return out


def _guns(ship: ShipState) -> list[Any]:
    """``_loadout(ship).guns`` alone: the working heavy (not light-unit) weapons."""
    return [
        system
        for system in ship.systems.values()
        if system.kind == "weapon"
        and system.status is _WORKING
        and system.weapon
        and not _is_light(system.weapon)
    ]


def preferred_range(ship: ShipState, loadout: _Loadout | None = None) -> float:
    """The smallest first-band upper bound over the ship's working heavy weapons (mu); 12
    when it has none."""
    guns = (loadout or _loadout(ship)).guns
    return float(min(_first_band(g.weapon) for g in guns)) if guns else 12.0


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


def _strength(state: BattleState, side: str) -> float:
    return sum(s.mass * s.hull_left / s.hull_max for s in state.in_action(side) if s.hull_max > 0)


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


# ---- orders --------------------------------------------------------------------------


def steer(ship: ShipState, goal: tuple[float, float], gap: float, half_cap: bool = True) -> Orders:
    """Orders turning ``ship`` towards ``goal`` and setting its speed so about ``gap`` mu is
    left to close after the move (§3 limits respected)."""
    thrust = ship.thrust
    speed = int(ship.speed)
    if thrust <= 0 or not ship.bridge_working:
        return Orders(0)
    cap = max(1, thrust // 2) if half_cap else thrust
    relative = (bearing(_pos(ship), goal) - ship.heading * 60.0) % 360.0
    if relative > 180.0:
        relative -= 360.0
    arcs = max(-cap, min(cap, round(relative / 60.0)))
    spare = thrust - abs(arcs)
    wanted = max(MIN_SPEED, min(MAX_END_SPEED, math.floor(distance(_pos(ship), goal) - gap)))
    change = max(-spare, min(spare, wanted - speed))
    change = max(change, -speed)
    return _steer_orders(change, arcs)


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
        settings = _phase_1_settings(state, ship, movement, target)
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
    settings = _phase_1_settings(state, ship, movement, target)
    return ShipOrders(
        movement=movement, launches=launches, veil=veil, recover=recover, settings=settings
    )


def _phase_1_settings(
    state: BattleState, ship: ShipState, movement: Orders, target: ShipState
) -> dict[str, str | int]:
    """The ship's phase-1 settings (D-34, see the module docstring): every working pulser
    in the mode with most dice at the range predicted after this turn's move — the ship
    executing ``movement``, ``target`` keeping its speed and heading; the needle nodules'
    PP split evenly (the remainder to the first), after 3 PP are kept for each launcher
    nodule, spicule and interceptor nodule the ship's biomass can pay for. Empty when
    ``settings_in_orders`` is off (chosen at fire instead)."""
    if not state.options.settings_in_orders:
        return {}
    pulsers: list[str] = []
    needles: list[str] = []
    shots = 0
    for system in ship.systems.values():
        if system.kind != "weapon" or system.status is not _WORKING:
            continue
        if system.weapon == "pulser":
            pulsers.append(system.id)
        elif system.weapon == "needle-nodule":
            needles.append(system.id)
        elif system.weapon in BIOMASS_WEAPONS:
            shots += 1
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


def _has_round(ship: ShipState, system: Any) -> bool:
    if system.magazine:
        magazine = ship.systems.get(system.magazine)
        return bool(magazine and magazine.working and magazine.ammo)
    return system.ammo is None or system.ammo > 0


_AFT = ARC_BITS["A"]


@cache
def _gun_profile(weapon_id: str, arcs: tuple[str, ...]) -> tuple[int, int]:
    """(longest range in mu, arcs as bits) of a gun."""
    return _reach(weapon_id), arc_mask(arcs)


_LIGHT_UNITS_ONLY = frozenset({"interceptor-nodule", "spicule"})  # §8, §10: never a ship


@cache
def _needs_power(weapon_id: str | None) -> bool:
    return bool(weapon_id) and get_weapon(weapon_id or "").power_points


def _allot_power(
    ship: ShipState, intents: list[FireIntent], chosen: Mapping[str, str | int]
) -> list[FireIntent]:
    """Sa'vasku power for ``intents`` at enemy ships (§8, §10, §14; see the module
    docstring): launcher nodules fire while the ship has 1 biomass and 3 PP left for each
    shot (interceptor nodules and spicules never fire at a ship); the PP left are split
    evenly over the needle nodules that fire, the remainder to the first in system order.
    With phase-1 settings (``chosen``, D-34) the needles' PP are already set: they are
    spent first, the launcher nodules share what is left."""
    systems = ship.systems
    if not any(
        systems[i.system].weapon in BIOMASS_WEAPONS or _needs_power(systems[i.system].weapon)
        for i in intents
    ):
        return intents
    power, biomass = ship.power_points, ship.biomass
    if chosen:
        power -= sum(v for v in chosen.values() if isinstance(v, int))
    kept: list[FireIntent] = []
    needles: list[int] = []
    for intent in intents:
        weapon = systems[intent.system].weapon
        if weapon in BIOMASS_WEAPONS:
            if weapon in _LIGHT_UNITS_ONLY:
                continue
            if biomass < SHOT_BIOMASS or power < SHOT_POWER_POINTS:
                continue
            biomass -= SHOT_BIOMASS
            power -= SHOT_POWER_POINTS
        elif _needs_power(weapon):
            needles.append(len(kept))
        kept.append(intent)
    if needles and not chosen:
        place = {sid: n for n, sid in enumerate(systems)}
        needles.sort(key=lambda k: place[kept[k].system])
        share, extra = divmod(power, len(needles))
        for n, k in enumerate(needles):
            kept[k] = FireIntent(
                kept[k].system, kept[k].target, power_points=share + (extra if n == 0 else 0)
            )
    return kept


def ship_fire(state: BattleState, ship: ShipState) -> list[FireIntent]:
    """Phase 9 fire for one ship: focus on the most damaged enemy ship it can reach. A
    pulser reaches as far as its phase-1 mode (D-34); with ``lance_exclusive`` (D-12) the
    ship fires its lances only when no other weapon reaches an enemy ship."""
    weapons = []  # (system, reach in mu, arcs as bits)
    rounds: dict[str, int] = {}  # magazine id -> rounds not yet promised this turn
    systems = ship.systems
    chosen = state.settings.get(ship.ship_id, {}) if state.options.settings_in_orders else {}
    for gun in systems.values():
        # _guns(ship), inlined: this runs for every ship every turn.
        if gun.kind != "weapon" or gun.status is not _WORKING or not gun.weapon:
            continue
        if _is_light(gun.weapon):
            continue
        if gun.magazine:
            magazine = systems.get(gun.magazine)
            if magazine is None or not magazine.working:
                continue
            left = rounds.setdefault(gun.magazine, magazine.ammo or 0)
            if left <= 0:
                continue
            rounds[gun.magazine] = left - 1
        elif gun.ammo is not None and gun.ammo <= 0:  # _has_round without a magazine
            continue
        profile = str(chosen.get(gun.id, gun.weapon)) if gun.weapon == "pulser" else gun.weapon
        weapons.append((gun, *_gun_profile(profile, tuple(gun.arcs))))
    if not weapons:
        return []
    # §6: an FC tied by a launch in phase 3 is free again ("libérés après lancement").
    free = fire_controls(state, ship)
    if free <= 0:
        return _point_defence_fire(state, ship, [w for w, _, _ in weapons])
    longest2 = max([r for _, r, _ in weapons]) ** 2
    # Arcs matter only when some weapon does not cover all six, or aft is blind (§6).
    thrusting = ship.thrust_used
    all_round = not thrusting and all(m == ALL_ARC_BITS for _, _, m in weapons)
    x, y = ship.x, ship.y
    reach: dict[str, list[Any]] = {}
    rank: dict[str, tuple[float, int, float, str]] = {}
    sight = state.sight
    for enemy in state.in_action(state.enemy_of(ship.side)):
        ex, ey = enemy.x, enemy.y
        d2 = (ex - x) * (ex - x) + (ey - y) * (ey - y)
        if d2 > longest2:
            continue
        if all_round:
            gap = math.sqrt(d2)
            able = [w for w, r, _ in weapons if gap <= r]
        else:
            gap, seen_in = sight(ship, enemy.ship_id, (ex, ey))
            seen = arc_mask(seen_in)
            if thrusting:
                seen &= ~_AFT  # §6: FCs are blind aft while the ship uses thrust
                if not seen:
                    continue
            able = [w for w, r, m in weapons if gap <= r and m & seen]
        if able:
            sid = enemy.ship_id
            reach[sid] = able
            # Most damaged first, then reached by more weapons, then nearest.
            rank[sid] = (sum(enemy.hull_rows) / (enemy.hull_max or 1), -len(able), gap, sid)
    if not reach:
        return _point_defence_fire(state, ship, [w for w, _, _ in weapons])
    if state.options.lance_exclusive and any(
        w.weapon == "lance" for able in reach.values() for w in able
    ):
        # D-12: lances fire alone; keep them only when nothing else reaches an enemy ship.
        others = {sid: [w for w in able if w.weapon != "lance"] for sid, able in reach.items()}
        if any(others.values()):
            reach = {sid: able for sid, able in others.items() if able}
    ranked = sorted(reach, key=rank.__getitem__) if len(reach) > 1 else list(reach)
    intents: list[FireIntent] = []
    used: set[str] = set()
    for sid in ranked:
        if free <= 0:
            break
        fresh = [w for w in reach[sid] if w.id not in used]
        lances = [w for w in fresh if w.weapon == "lance"]
        others = [w for w in fresh if w.weapon != "lance"] if lances else fresh
        if others:
            free -= 1
            for w in others:
                intents.append(FireIntent(w.id, sid))
                used.add(w.id)
        for w in lances:
            if free <= 0:
                break
            free -= 1
            intents.append(FireIntent(w.id, sid))
            used.add(w.id)
    intents = _allot_power(ship, intents, chosen)
    if not state.light_units:
        return intents  # no squadron on the table: nothing for PD to shoot at
    return intents + _point_defence_fire(
        state, ship, [w for w, _, _ in weapons if w.id not in used]
    )


def _point_defence_fire(state: BattleState, ship: ShipState, idle: list[Any]) -> list[FireIntent]:
    """Idle class-1 weapons (beam-1, kgun-1, pulsers) fire as PD at the enemy light unit
    attached to the ship with most craft left (§6: no FC needed)."""
    if not state.light_units:
        return []
    boarders = [
        u
        for u in state.light_units.values()
        if u.active and u.side != ship.side and u.attached_to == ship.ship_id
    ]
    if not boarders:
        return []
    worst = max(boarders, key=lambda u: (u.craft, u.unit_id))
    return [FireIntent(w.id, worst.unit_id) for w in idle if _pd_capable(w.weapon)]


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
    seed: int | str,
    max_turns: int = 20,
    options: RuleOptions | Mapping[str, Any] | None = None,
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
        if isinstance(fleet, (str, bytes)) or not all(isinstance(x, ShipState) for x in fleet):
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
    state.log(0, "deploy", "fleets deployed", positions=_positions(state))
    reason = "turn-limit"
    while state.turn < max_turns:
        state.hold_roster(True)  # nobody drops out while orders are written
        orders = {ship.ship_id: ship_orders(state, ship) for ship in state.in_action()}
        state.hold_roster(False)
        play_turn(state, orders, ship_fire=ship_fire, crew_plan=crew_plan)
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
    strength = {side: round(_strength(state, side), 6) for side in state.sides}
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
        rolls=state.dice.log if record else [],
        roll_marks=state.roll_marks,
    )


def _positions(state: BattleState) -> dict[str, list[float]]:
    return {
        sid: [round(s.x, 3), round(s.y, 3), s.heading, s.speed] for sid, s in state.ships.items()
    }


__all__ = [
    "BattleResult",
    "crew_plan",
    "crippled",
    "deploy",
    "preferred_range",
    "resolve_battle",
    "ship_fire",
    "ship_orders",
    "steer",
]
