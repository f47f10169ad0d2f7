"""Damage, threshold checks, command countdowns, damage control, boarding, vampires, EMP.

Source: rules §4 (command systems, crew D-9), §8 (lance, vampire), §9 (EMP,
D-18), §11 (damage types, row completion, threshold checks, destruction; D-21), §12 (damage
control, D-22), §13 (boarding, D-23, capture).

Every function changes the :class:`ShipState` it is given in place (copy it first to keep
the old one), rolls only through the :class:`Dice` it is handed, and returns the
:class:`DamageEvent` list that explains what happened, in order.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from typing import NamedTuple

from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.rules.options import DEFAULT_OPTIONS, RuleOptions
from battles.rules.ships import COMMAND_SYSTEMS, ShipState, Status, SystemState
from battles.rules.tables import (
    BOARDING_THRESHOLD,
    DAMAGE_CONTROL_THRESHOLD,
    FUSILIER_BOARDING_THRESHOLD,
    FUSILIER_MARINES_REPEL_THRESHOLD,
    MARINES_REPEL_THRESHOLD,
    MAX_CREW_PER_TASK,
    crew_threshold,
    threshold_for_row,
)
from battles.rules.weapons import DamageType, Hit

__all__ = [
    "CORE_EXPLOSION_RADIUS",
    "EMP_THRESHOLD",
    "VAMPIRE_DAMAGE",
    "DamageEvent",
    "apply_hits",
    "attach_vampire",
    "board",
    "core_explosion_hit",
    "damage_control",
    "emp_hits",
    "lance_hit",
    "repel_boarders",
    "tick_countdowns",
    "tick_vampires",
]

#: §9 (D-18): an EMP hit damages a system on 4+.
EMP_THRESHOLD = 4
#: §8: a vampire deals 2 now and 2 each turn.
VAMPIRE_DAMAGE = 2
#: §4: a core explosion reaches every unit within 6 mu.
CORE_EXPLOSION_RADIUS = 6


class DamageEvent(NamedTuple):
    """One thing that happened to a ship. ``kind`` is one of: ``armour``, ``hull``, ``row``,
    ``threshold``, ``system``, ``countdown``, ``destroyed``, ``captured``, ``derelict``,
    ``core-shutdown``, ``core-explosion``, ``repair``, ``boarding``, ``vampire``, ``crew``.
    ``amount`` is boxes, turns or squads as the kind implies."""

    kind: str
    ship: str
    detail: str
    amount: int = 0

    def notation(self) -> str:
        """``"<ship> <kind>: <detail>"`` for logs."""
        return f"{self.ship} {self.kind}: {self.detail}"


_WORKING = Status.WORKING
_DAMAGED = Status.DAMAGED
_DESTROYED = Status.DESTROYED
# (enum members read through their class cost a metaclass look-up each time)
_PENETRATING = DamageType.PENETRATING
_PIERCING = DamageType.PIERCING
_SEMI_PIERCING = DamageType.SEMI_PIERCING


# ---------------------------------------------------------------------------------------
# §11 damage
# ---------------------------------------------------------------------------------------


def _split(hit: Hit, armour_left: int, options: RuleOptions) -> tuple[int, int]:
    """(armour boxes, hull boxes) of one packet against ``armour_left`` boxes (§11)."""
    d = hit.damage
    if d <= 0:
        return 0, 0
    if hit.damage_type is _PENETRATING:
        if hit.reroll or armour_left == 0:
            return 0, d
        to_armour = min(d, armour_left)
        return to_armour, d - to_armour
    if hit.damage_type is _PIERCING:
        to_armour = 1 if armour_left else 0
        return to_armour, d - to_armour
    # semi-piercing (D-21): ceil(D/2) at armour, overflow to hull; floor(D/2) to hull.
    share = math.ceil(d / 2) if options.semi_piercing_armour_round_up else d // 2
    to_armour = min(share, armour_left)
    return to_armour, d - to_armour


def apply_hits(
    ship: ShipState,
    hits: Iterable[Hit],
    dice: Dice,
    *,
    options: RuleOptions = DEFAULT_OPTIONS,
    source: str = "fire",
    internal: bool = False,
) -> list[DamageEvent]:
    """Apply damage packets to ``ship``, then the consequences, as at the end of a phase.

    Packets are split between armour and hull per §11 in the order given; afterwards each
    hull row completed is handled in row order: one armour box lost, then a threshold check
    for every working system (§11: 6 / 5+ / 4+). Crew follow hull (D-9). The ship is
    destroyed at 0 hull — or captured when ``internal=True`` (boarding damage, §13).
    Hull and armour never go below zero; hits on a ship already out of the fight are
    ignored.
    """
    events: list[DamageEvent] = []
    if ship.destroyed or ship.captured:
        return events
    # Split every packet against the armour left so far, then cross off in one go: rows
    # fill first row first either way, so one call gives the same completed rows.
    armour_left = ship.armour_left
    to_armour_total = to_hull_total = 0
    for hit in hits:
        to_armour, to_hull = _split(hit, armour_left, options)
        armour_left -= to_armour
        to_armour_total += to_armour
        to_hull_total += to_hull
    # Crossing off nothing changes nothing: the calls are skipped then.
    armour_total = ship.cross_off_armour(to_armour_total) if to_armour_total else 0
    if to_hull_total:
        before = ship.hull_left
        rows = ship.cross_off_hull(to_hull_total)
        hull_total = before - ship.hull_left
    else:
        rows, hull_total = [], 0
    if armour_total:
        events.append(
            DamageEvent("armour", ship.ship_id, f"{source}: -{armour_total} armour", armour_total)
        )
    if hull_total:
        events.append(
            DamageEvent("hull", ship.ship_id, f"{source}: -{hull_total} hull", hull_total)
        )
    events += _after_hull_loss(ship, rows, dice, internal=internal)
    return events


def _after_hull_loss(
    ship: ShipState, rows: list[int], dice: Dice, *, internal: bool
) -> list[DamageEvent]:
    events: list[DamageEvent] = []
    if ship.hull_left == 0:
        if internal:
            ship.captured = True
            events.append(DamageEvent("captured", ship.ship_id, "boarders took the ship (§13)"))
        else:
            ship.destroyed = True
            events.append(DamageEvent("destroyed", ship.ship_id, "last hull box gone (§11)"))
        return events
    for row in sorted(rows):
        lost = ship.cross_off_armour(1)
        events.append(
            DamageEvent("row", ship.ship_id, f"hull row {row} completed, -{lost} armour", row)
        )
        events += threshold_checks(ship, row, dice)
    events += _crew_follow_hull(ship)
    return events


def _crew_follow_hull(ship: ShipState) -> list[DamageEvent]:
    """D-9: crew remaining = ceil(crew_max × hull_left / hull_max)."""
    hull_max = ship.hull_max
    if hull_max == 0:
        return []
    cap = math.ceil(ship.crew_max * ship.hull_left / hull_max)
    if ship.crew_left > cap:
        lost = ship.crew_left - cap
        ship.crew_left = cap
        return [DamageEvent("crew", ship.ship_id, f"-{lost} crew factor(s) (D-9)", lost)]
    return []


def threshold_checks(ship: ShipState, row: int, dice: Dice) -> list[DamageEvent]:
    """§11: roll 1d6 for every working system after hull row ``row`` is completed.

    A face ≥ :func:`threshold_for_row` damages the system; a damaged command system starts
    its 1d6-turn countdown (§4).
    """
    need = threshold_for_row(row)
    events: list[DamageEvent] = []
    # The roll label is f"{ship.ship_id} threshold row {row} {system.id} ({need}+)", its
    # fixed parts formatted once.
    prefix, suffix = f"{ship.ship_id} threshold row {row} ", f" ({need}+)"
    why = f"threshold row {row}"
    for system in list(ship.systems.values()):
        if system.status is not _WORKING:  # not system.working
            continue
        if dice.d6(f"{prefix}{system.id}{suffix}") >= need:
            events += _knock_out(ship, system, dice, why)
    return events


def _knock_out(
    ship: ShipState, system: SystemState, dice: Dice, why: str, *, destroy: bool = False
) -> list[DamageEvent]:
    system.status = _DESTROYED if destroy else _DAMAGED
    word = "destroyed" if destroy else "damaged"
    events = [DamageEvent("system", ship.ship_id, f"{system.id} {word} ({why})")]
    if not destroy and system.kind in COMMAND_SYSTEMS:  # system.is_command
        turns = dice.d6(f"{ship.ship_id} {system.id} countdown")
        ship.countdowns[system.id] = turns
        events.append(
            DamageEvent("countdown", ship.ship_id, f"{system.id}: {turns} turn(s) (§4)", turns)
        )
    return events


def core_explosion_hit(ship: ShipState) -> Hit:
    """§4 (D-7): the packet a core explosion deals to every unit within 6 mu."""
    return Hit(ship.mass, _SEMI_PIERCING)


def tick_countdowns(
    ship: ShipState, dice: Dice, *, skip: Collection[str] = ()
) -> list[DamageEvent]:
    """End of turn (§4): every command countdown loses a turn; at zero it takes effect.

    ``skip``: system ids whose countdown was set this turn; they are left as they are.
    Project reading (§4): a countdown starts ticking at the end of the turn
    *after* the hit, so one of N set during turn t takes effect at the end of turn t+N (a
    bridge hit with 1 is out for all of turn t+1 and back at its end). The seed: "le Pont
    de commandement est inopérant pendant 1d6 tours, sauf si une équipe de contrôle des
    dégâts intervient"; core: "il reste 1d6 tours aux équipes de contrôles des dégâts pour
    intervenir" — read as whole turns after the hit, each ending with a phase-11 damage
    control roll (§12) before the countdown moves.

    Bridge: back in service. Life support: the crew dies, the ship is a derelict. Core: roll
    1d6, 1–4 shuts the ship down (dead in space), 5–6 explodes it (event
    ``core-explosion`` with ``amount`` = mass; the turn code applies
    :func:`core_explosion_hit` to every unit within :data:`CORE_EXPLOSION_RADIUS` mu).
    """
    events: list[DamageEvent] = []
    for sid in list(ship.countdowns):
        if sid in skip:
            continue
        ship.countdowns[sid] -= 1
        if ship.countdowns[sid] > 0:
            continue
        del ship.countdowns[sid]
        if sid == "bridge":
            ship.systems[sid].status = _WORKING
            events.append(DamageEvent("repair", ship.ship_id, "bridge back in service (§4)"))
        elif sid == "life-support":
            ship.crew_left = 0
            ship.derelict = True
            events.append(DamageEvent("derelict", ship.ship_id, "life support failed (§4)"))
        elif sid == "core":
            face = dice.d6(f"{ship.ship_id} core fate (1-4 shutdown, 5-6 explosion)")
            if face <= 4:
                ship.dead_in_space = True
                events.append(DamageEvent("core-shutdown", ship.ship_id, "core shut down (§4)"))
            else:
                ship.destroyed = True
                events.append(
                    DamageEvent(
                        "core-explosion",
                        ship.ship_id,
                        f"core exploded: {ship.mass} semi-piercing within "
                        f"{CORE_EXPLOSION_RADIUS} mu (§4, D-7)",
                        ship.mass,
                    )
                )
    return events


# ---------------------------------------------------------------------------------------
# §8 lance, vampire; §9 EMP
# ---------------------------------------------------------------------------------------


def lance_hit(ship: ShipState, system_id: str) -> list[DamageEvent]:
    """§8: a lance success destroys ``system_id``, chosen by the attacker.

    Raises :class:`RulesError` for a command system (not a lance target) or an id the ship
    does not have.
    """
    system = ship.systems.get(system_id)
    if system is None:
        raise RulesError(f"lance vs {ship.ship_id}: no system {system_id!r} (§8)")
    if system.kind in COMMAND_SYSTEMS:
        raise RulesError(f"lance vs {ship.ship_id}: {system_id} is a command system (§8, D-8)")
    if system.status is _DESTROYED:
        return []
    system.status = _DESTROYED
    return [DamageEvent("system", ship.ship_id, f"{system_id} destroyed (lance, §8)")]


def attach_vampire(
    ship: ShipState, dice: Dice, *, options: RuleOptions = DEFAULT_OPTIONS
) -> list[DamageEvent]:
    """§8: a vampire hit: 2 penetrating damage now, and it stays attached."""
    ship.vampires += 1
    events = [DamageEvent("vampire", ship.ship_id, "vampire attached (§8)", ship.vampires)]
    hits = [Hit(1, _PENETRATING)] * VAMPIRE_DAMAGE
    return events + apply_hits(ship, hits, dice, options=options, source="vampire")


def tick_vampires(
    ship: ShipState, dice: Dice, *, options: RuleOptions = DEFAULT_OPTIONS, fresh: int = 0
) -> list[DamageEvent]:
    """§8: each attached vampire deals 2 penetrating damage this turn.

    ``fresh``: vampires attached this turn; they do not tick yet. Project reading (§8):
    a vampire deals 2 when it lands (:func:`attach_vampire`), then +2 at each
    *later* end of turn until neutralised; the seed: "il inflige 2 points de dégâts +2/
    tour jusqu’à être neutralisé en Phase 11 par une action de Contrôle des dégâts". When
    damage control neutralised some this turn, the ones already ticking go first (the
    crew's best choice), so ``max(0, vampires - fresh)`` tick.
    """
    ticking = max(0, ship.vampires - fresh)
    if not ticking:
        return []
    hits = [Hit(1, _PENETRATING)] * (VAMPIRE_DAMAGE * ticking)
    return apply_hits(ship, hits, dice, options=options, source=f"{ticking} vampire(s)")


def emp_hits(ship: ShipState, hits: int, dice: Dice) -> list[DamageEvent]:
    """§9 (D-18): each EMP hit picks one working system at random (1dN over them, SSD
    order) and damages it on 4+. No armour or hull is lost."""
    events: list[DamageEvent] = []
    for i in range(1, hits + 1):
        working = [s for s in ship.systems.values() if s.working]
        if not working:
            break
        pick = working[dice.die(len(working), f"{ship.ship_id} EMP hit {i} system") - 1]
        face = dice.d6(f"{ship.ship_id} EMP hit {i} {pick.id} ({EMP_THRESHOLD}+)")
        if face >= EMP_THRESHOLD:
            events += _knock_out(ship, pick, dice, "EMP, D-18")
    return events


# ---------------------------------------------------------------------------------------
# §12 damage control, §13 boarding
# ---------------------------------------------------------------------------------------


def damage_control(
    ship: ShipState, assignments: Mapping[str, int], dice: Dice
) -> tuple[list[DamageEvent], int]:
    """§12: one roll per assigned system: 1 crew → 6, 2 → 5+, 3 → 4+ repairs it.

    ``assignments``: system id (or ``"vampire"`` to neutralise one vampire) → crew factors
    (1–3). A repaired command system also cancels its countdown. Destroyed systems cannot be
    repaired. Returns (events, crew factors used). Raises :class:`RulesError` when more
    crew is assigned than the ship has, or a target is not damaged.
    """
    used = sum(assignments.values())
    if used > ship.crew_left:
        raise RulesError(
            f"{ship.ship_id}: {used} crew assigned to damage control, {ship.crew_left} left (§12)"
        )
    events: list[DamageEvent] = []
    for target, crew in assignments.items():
        if not 1 <= crew <= MAX_CREW_PER_TASK:
            raise RulesError(f"{ship.ship_id}: {crew} crew on {target}; 1–3 allowed (§12)")
        if target == "vampire":
            if not ship.vampires:
                raise RulesError(f"{ship.ship_id}: no vampire attached to neutralise (§12)")
        else:
            system = ship.systems.get(target)
            if system is None or system.status is not _DAMAGED:
                raise RulesError(
                    f"{ship.ship_id}: {target!r} is not a damaged system; damage control "
                    "repairs damaged systems only (§12)"
                )
        need = DAMAGE_CONTROL_THRESHOLD[crew]
        face = dice.d6(f"{ship.ship_id} damage control {target} ({crew} crew, {need}+)")
        if face < need:
            continue
        if target == "vampire":
            ship.vampires -= 1
            events.append(DamageEvent("repair", ship.ship_id, "vampire neutralised (§12)"))
        else:
            ship.systems[target].status = _WORKING
            ship.countdowns.pop(target, None)
            events.append(DamageEvent("repair", ship.ship_id, f"{target} repaired (§12)"))
    return events, used


def board(ship: ShipState, kind: str, squads: int = 1) -> list[DamageEvent]:
    """§9, §13: ``squads`` enemy squads of ``kind`` (``marines`` / ``fusiliers``) land."""
    if kind not in ("marines", "fusiliers"):
        raise RulesError(f"{ship.ship_id}: unknown boarding party {kind!r} (§13)")
    ship.boarders += [kind] * squads
    return [DamageEvent("boarding", ship.ship_id, f"{squads} {kind} squad(s) aboard", squads)]


def repel_boarders(
    ship: ShipState,
    dice: Dice,
    *,
    crew_available: int | None = None,
    options: RuleOptions = DEFAULT_OPTIONS,
) -> list[DamageEvent]:
    """§13, phase 11: each boarding squad is met by a friendly marine squad (4+, 5+ against
    fusiliers) or by up to 3 crew factors (1 → 6, 2 → 5+, 3 → 4+; fusiliers: 1 cannot,
    2 → 6, 3 → 5+). Squads are met in order, fusiliers first, with the ship's marines first
    and then the crew spread as evenly as possible.

    ``crew_available``: crew not used on damage control (D-22); default all crew. Each
    squad not repelled stays aboard and deals ``options.boarding_damage`` internal hull
    box(es); at 0 hull the ship is captured (§13).
    """
    if not ship.boarders or ship.destroyed or ship.captured:
        return []
    crew = ship.crew_left if crew_available is None else min(crew_available, ship.crew_left)
    marines = sum(s.squads for s in ship.systems_of("marines"))
    order = sorted(ship.boarders, key=lambda k: k != "fusiliers")
    # Spread crew over the squads the marines cannot meet.
    to_crew = max(0, len(order) - marines)
    share = [0] * len(order)
    for i in range(min(marines, len(order)), len(order)):
        k = i - min(marines, len(order))
        share[i] = min(MAX_CREW_PER_TASK, crew // to_crew + (1 if k < crew % to_crew else 0))
    events: list[DamageEvent] = []
    staying: list[str] = []
    for i, kind in enumerate(order):
        fus = kind == "fusiliers"
        if i < marines:
            need: int | None = FUSILIER_MARINES_REPEL_THRESHOLD if fus else MARINES_REPEL_THRESHOLD
            by = "marines"
        else:
            table = FUSILIER_BOARDING_THRESHOLD if fus else BOARDING_THRESHOLD
            need = crew_threshold(table, share[i])
            by = f"{share[i]} crew"
        if need is None:
            staying.append(kind)
            events.append(DamageEvent("boarding", ship.ship_id, f"{kind} not opposed ({by})"))
            continue
        face = dice.d6(f"{ship.ship_id} repel {kind} {i + 1} ({by}, {need}+)")
        if face >= need:
            events.append(DamageEvent("boarding", ship.ship_id, f"{kind} repelled by {by}"))
        else:
            staying.append(kind)
            events.append(DamageEvent("boarding", ship.ship_id, f"{kind} not repelled ({by})"))
    ship.boarders = staying
    if staying:
        hits = [Hit(options.boarding_damage, _PENETRATING, reroll=True)] * len(staying)
        events += apply_hits(ship, hits, dice, options=options, source="boarders", internal=True)
    return events
