"""Putting a battle's units on the engine's table: ships in their current damage, carried
squadrons in their bays, and station or colony defences as fixed platforms.

Defences (the rules give colony defences no SSD, so these are project
readings, documented here and in README.md):

- a **battery** group (``LightUnitGroup.kind == "battery"``, ``unit_type`` a beam weapon
  id such as ``beam-2``, default ``beam-2``) with no carrier is a fixed platform of
  ``strength`` all-round mounts, mass 10 and 3 hull boxes a mount, one fire control.
  Each mount destroyed is one craft (battery) lost; the platform destroyed loses them all;
- a **based squadron** (fighters, interceptors, gunboats… with no carrier, based at a
  territory or a named station or colony) flies from a fixed platform (mass 20, 12 hull
  boxes, no weapon) with one bay holding its craft left; its losses count as a carrier's.

Platforms start at speed 0 and keep it (thrust 0); they stand ``PLATFORM_LINE`` mu ahead
of their fleet's deployment line, towards the enemy (the fight is over the defended place).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from battles.models import Battle, BattleSide, Participant
from battles.refs import light_units_ref
from battles.rules import ai
from battles.rules.errors import RulesError
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from battles.rules.weapons import get_weapon
from battles.services.common import (
    DESIGN_ERRORS,
    BattleActionError,
    battle_label,
    engine_ship,
    label,
)
from factions.models import LightUnitGroup, Ship

ALL_ARCS = ["F", "FS", "AS", "A", "AP", "FP"]
BATTERY_MASS, BATTERY_HULL = 10, 3  # per mount (project reading, see module doc)
BASE_MASS, BASE_HULL = 20, 12
PLATFORM_LINE = 24.0  # mu ahead of their fleet's line, towards the enemy (project reading)


@dataclass
class Fielded:
    """One unit on the table: its participant, the ship row (None for a defence
    platform), the engine state it starts in, and the carried groups by bay id."""

    participant: Participant
    ship: Ship | None
    start: ShipState
    squadrons: dict[str, Participant] = field(default_factory=dict)  # bay id -> group
    start_design: dict[str, Any] | None = None  # a platform's synthesised design

    @property
    def platform(self) -> bool:
        """True for a station/colony defence (no ship row)."""
        return self.ship is None

    def load_bays(self) -> None:
        """Put each carried group's craft left into its bay (none left: an empty bay)."""
        for bay_id, p in self.squadrons.items():
            load_bay(self.start, bay_id, p.light_units.strength)


def load_bay(ship: ShipState, bay_id: str, craft: int) -> None:
    """Set the craft aboard bay ``bay_id`` (0: the bay is empty)."""
    system = ship.systems[bay_id]
    squadron = system.data.get("squadron")
    if squadron:
        data = {k: v for k, v in system.data.items() if k != "squadron"}  # empty bay: no key
        system.data = {**data, "squadron": {**squadron, "size": craft}} if craft else data


def _match_squadrons(fleet: list[Fielded], groups: list[Participant]) -> None:
    """Pair each light-unit participant carried by a fielded ship with one of its bays:
    first every group with the bay whose squadron has its name, then the others with the
    carrier's first bays still free. A group with no bay left stays unpaired (not fielded)."""
    carriers = {f.ship.pk: f for f in fleet if f.ship is not None}
    carried = [
        (p, carriers[p.light_units.carrier_id])
        for p in groups
        if p.light_units.carrier_id in carriers
    ]

    def free_bays(f: Fielded) -> list[str]:
        return [
            s.id
            for s in f.start.systems.values()
            if s.kind == "bay" and s.data.get("squadron") and s.id not in f.squadrons
        ]

    unpaired = []
    for p, f in carried:
        named = [
            b
            for b in free_bays(f)
            if f.start.systems[b].data["squadron"].get("name") == p.light_units.name
        ]
        if named:
            f.squadrons[named[0]] = p
        else:
            unpaired.append((p, f))
    for p, f in unpaired:
        bays = free_bays(f)
        if bays:
            f.squadrons[bays[0]] = p


def engine_names(side: BattleSide) -> dict[int, str]:
    """Names the log uses: a named ship's name; an unnamed one's class and its number
    among the side's unnamed ships of that class (``Sa'ar 2``), stable across databases."""
    names: dict[int, str] = {}
    numbers: dict[int, int] = {}
    for p in side.participants.all():
        if p.ship is None:
            continue
        if p.ship.name:
            names[p.pk] = p.ship.name
        else:
            numbers[p.ship.ship_class_id] = numbers.get(p.ship.ship_class_id, 0) + 1
            names[p.pk] = f"{p.ship.ship_class.name} {numbers[p.ship.ship_class_id]}"
    return names


def is_defence(group: LightUnitGroup) -> bool:
    """A group fought as a station/colony defence: no carrier, and based at a territory
    or a named station/colony (``location``), or a battery. (A fleet's group with no
    carrier and no base is not fielded.)"""
    if group.carrier_id is not None:
        return False
    return bool(group.territory_id or group.location) or group.kind == LightUnitGroup.Kind.BATTERY


def defence_design(group: LightUnitGroup) -> dict[str, Any]:
    """The ``admiralty-design/1`` document of a defence platform (see module doc).
    Raises :class:`BattleActionError` naming the group for a battery whose ``unit_type``
    is not a weapon of the catalogue."""
    if group.kind == LightUnitGroup.Kind.BATTERY:
        weapon = group.unit_type or "beam-2"
        try:
            get_weapon(weapon)
        except RulesError as exc:
            raise BattleActionError(
                _("light units %(group)r.unit_type: %(weapon)r is not a weapon (%(error)s)")
                % {"group": group.name, "weapon": weapon, "error": exc}
            ) from exc
        mounts = max(group.strength, 1)
        return {
            "format": "admiralty-design/1",
            "name": group.name,
            "mass": BATTERY_MASS * mounts,
            "thrust": 0,
            "hull": {"boxes": BATTERY_HULL * mounts},
            "fire_controls": 1,
            "command": [],
            "systems": [
                {"id": f"battery-{i}", "kind": "weapon", "weapon": weapon, "arcs": ALL_ARCS}
                for i in range(1, mounts + 1)
            ],
        }
    squadron: dict[str, Any] = {"name": group.name, "unit": group.kind, "size": group.strength}
    return {
        "format": "admiralty-design/1",
        "name": group.name,
        "mass": BASE_MASS,
        "thrust": 0,
        "hull": {"boxes": BASE_HULL},
        "fire_controls": 0,
        "command": [],
        "systems": [{"id": "bay-a", "kind": "bay", "squadron": squadron}],
    }


def _platform(p: Participant, side: BattleSide) -> Fielded | None:
    group = p.light_units
    if group.strength <= 0:
        return None  # nothing left to fight with
    design = defence_design(group)
    try:
        start = ShipState.from_design(
            design, ship_id=light_units_ref(group.pk), side=side.faction.slug, name=group.name
        )
    except DESIGN_ERRORS as exc:
        raise BattleActionError(
            _("%(participant)s: defence platform: %(error)s")
            % {"participant": label(p), "error": exc}
        ) from exc
    fielded = Fielded(p, None, start, start_design=design)
    if group.kind != LightUnitGroup.Kind.BATTERY:
        fielded.squadrons["bay-a"] = p
    return fielded


def field_battle(battle: Battle, sides: list[BattleSide]) -> list[list[Fielded]]:
    """Engine units per side: ships from their current damage
    (``ShipState.from_design``), carried squadrons in their bays, defences as platforms.

    Raises :class:`BattleActionError` unless there are exactly two sides each with a unit
    able to fight, a ship is destroyed, captured or fielded twice, or a class design cannot
    be built (naming the participant and the field).
    """
    if len(sides) != 2:
        raise BattleActionError(
            _("%(battle)s: auto-resolve needs exactly two sides, found %(n)s")
            % {"battle": battle_label(battle), "n": len(sides)}
        )
    fleets: list[list[Fielded]] = []
    seen: set[int] = set()
    for side in sides:
        names = engine_names(side)
        fleet = []
        for p in side.participants.all():
            ship = p.ship
            if ship is None:
                continue
            if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
                raise BattleActionError(
                    _(
                        "%(participant)s: the ship is %(status)s and cannot fight; remove it "
                        "from the battle"
                    )
                    % {"participant": label(p), "status": ship.get_status_display()}
                )
            if ship.pk in seen:
                raise BattleActionError(
                    _("%(participant)s: the ship takes part twice") % {"participant": label(p)}
                )
            seen.add(ship.pk)
            try:
                start = engine_ship(ship, side=side.faction.slug, name=names[p.pk])
            except DESIGN_ERRORS as exc:
                raise BattleActionError(
                    _("%(participant)s: class %(ship_class)r (design): %(error)s")
                    % {"participant": label(p), "ship_class": ship.ship_class.name, "error": exc}
                ) from exc
            fleet.append(Fielded(p, ship, start))
        groups = [p for p in side.participants.all() if p.light_units_id]
        _match_squadrons(fleet, groups)
        for f in fleet:
            f.load_bays()
        for p in groups:
            if is_defence(p.light_units):
                platform = _platform(p, side)
                if platform is not None:
                    fleet.append(platform)
        if not fleet:
            raise BattleActionError(
                _("%(battle)s: side %(side)s has no ship to field")
                % {"battle": battle_label(battle), "side": side.faction.name}
            )
        fleets.append(fleet)
    return fleets


def deploy(fleet_a: list[ShipState], fleet_b: list[ShipState], fixed: set[str]) -> None:
    """Place both fleets as ``ai.resolve_battle`` does (§1), then stop the fixed platforms
    (ids in ``fixed``): they keep speed 0."""
    ai.deploy(fleet_a, y=0.0, heading=0)
    ai.deploy(fleet_b, y=ai.DEPLOY_GAP, heading=3)
    for fleet, y in ((fleet_a, PLATFORM_LINE), (fleet_b, ai.DEPLOY_GAP - PLATFORM_LINE)):
        platforms = [s for s in fleet if s.ship_id in fixed]
        for i, ship in enumerate(platforms):
            # The fight is over the defended place: its platforms stand ahead of the fleet.
            ship.x = (i - (len(platforms) - 1) / 2) * ai.DEPLOY_SPACING
            ship.y = y
            ship.speed = 0


def rule_options(battle: Battle) -> RuleOptions:
    """The campaign's rule options (§16); raises :class:`BattleActionError` when invalid."""
    try:
        return RuleOptions.from_dict(battle.campaign.rule_options or {})
    except RulesError as exc:
        raise BattleActionError(
            _("campaign %(campaign)s: rule_options: %(error)s")
            % {"campaign": battle.campaign.slug, "error": exc}
        ) from exc
