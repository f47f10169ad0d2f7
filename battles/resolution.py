"""Battles concluded two ways (DESIGN.md §4): resolved by the rules engine, or recorded
from the table. Both write the new ship states, the participants' losses and the battle
result in one transaction, then queue the report (``battles.services.report_request``).

- :func:`battle_resolve` builds engine ships (``battles.rules.ships.ShipState``) from the
  Participant/Ship rows, fights the battle with the auto-resolve tactics of
  ``battles.rules.ai`` and the campaign's rule options (§16), and stores the log as
  ``Event`` rows: a ``setup`` row (seed, options, each ship's class design and carried
  damage), then every engine event with, just before it, every die rolled since the
  previous event as a ``roll`` row (``data = {"n", "purpose", "sides", "result"}``). So a
  battle is audited roll by roll and :func:`battle_replay` re-fights it from its log alone.
- Squadrons: a light-unit group carried by a fielded ship flies from one of its bays with
  its craft left; the craft it loses go back to the group (see :func:`battle_resolve`).
- :func:`battle_record` takes what an organiser enters after a game on the table, checked
  against each ship's SSD.

The engine's events do not carry every face (initiative events give sums, threshold
checks give no face), so the dice come from ``ai.BattleResult.rolls`` and
``roll_marks``: each die is stored just before the event it decides.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from battles.rules import ai
from battles.rules.errors import RulesError
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from campaign.intel import intel_known_classes, intel_record_battle
from factions.models import LightUnitGroup, Ship

from .models import Battle, BattleSide, Event, Participant
from .services import report_request

__all__ = [
    "MAX_TURNS_LIMIT",
    "BattleActionError",
    "battle_record",
    "battle_replay",
    "battle_resolve",
    "event_rows",
]

#: Upper bound on ``max_turns`` (a battle past 50 turns is a stalemate, not a fight).
MAX_TURNS_LIMIT = 50
_SEED_BITS = 62  # fits Battle.seed (a signed 64-bit column)
_BULK = 500
# What building a ship from a malformed design document can raise (DesignError names the
# field; the others come from entries of the wrong type).
_DESIGN_ERRORS = (RulesError, KeyError, TypeError, ValueError, AttributeError)


class BattleActionError(RulesError):
    """A battle that cannot be resolved or recorded as asked. The message names the battle,
    the participant and the field; nothing has been written. (A ``RulesError``, so the API
    answers 400 with the message.)"""


# ---- reading the battle ---------------------------------------------------------------


@dataclass
class _Fielded:
    """One ship participant: its rows and the engine state it starts the battle in."""

    participant: Participant
    ship: Ship
    start: ShipState
    squadrons: dict[str, Participant] = field(default_factory=dict)  # bay id -> group

    def load_bays(self) -> None:
        """Put each carried group's craft left into its bay (none left: an empty bay)."""
        for bay_id, p in self.squadrons.items():
            _load_bay(self.start, bay_id, p.light_units.strength)


def _load_bay(ship: ShipState, bay_id: str, craft: int) -> None:
    system = ship.systems[bay_id]
    squadron = system.data.get("squadron")
    if squadron:
        data = {k: v for k, v in system.data.items() if k != "squadron"}  # empty bay: no key
        system.data = {**data, "squadron": {**squadron, "size": craft}} if craft else data


def _match_squadrons(fleet: list[_Fielded], groups: list[Participant]) -> None:
    """Pair each light-unit participant carried by a fielded ship with one of its bays:
    first every group with the bay whose squadron has its name, then the others with the
    carrier's first bays still free. A group with no bay left stays unpaired (not fielded)."""
    carriers = {f.ship.pk: f for f in fleet}
    carried = [
        (p, carriers[p.light_units.carrier_id])
        for p in groups
        if p.light_units.carrier_id in carriers
    ]

    def free_bays(f: _Fielded) -> list[str]:
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


def _locked(battle: Battle) -> Battle:
    """The battle row again, locked for this transaction, refused when concluded."""
    fresh = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    if fresh.status == Battle.Status.CONCLUDED:
        raise BattleActionError(
            f"battle {fresh.pk} ({fresh.name}) is already concluded "
            f"({fresh.get_mode_display()}); nothing changed"
        )
    return fresh


def _sides(battle: Battle) -> list[BattleSide]:
    participants = Participant.objects.select_related("ship__ship_class", "light_units").order_by(
        "pk"
    )
    return list(
        BattleSide.objects.filter(battle=battle)
        .select_related("faction")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .order_by("order", "pk")
    )


def _label(participant: Participant) -> str:
    unit = participant.ship or participant.light_units
    return f"participant {participant.pk} ({unit})"


def _engine_names(side: BattleSide) -> dict[int, str]:
    """Names the log uses: a named ship's name; an unnamed one's class and its number
    among the side's unnamed ships of that class (``Sa'ar 2``), stable across databases."""
    names: dict[int, str] = {}
    count: dict[int, int] = {}
    for p in side.participants.all():
        if p.ship is None:
            continue
        if p.ship.name:
            names[p.pk] = p.ship.name
        else:
            count[p.ship.ship_class_id] = count.get(p.ship.ship_class_id, 0) + 1
            names[p.pk] = f"{p.ship.ship_class.name} {count[p.ship.ship_class_id]}"
    return names


def _field(battle: Battle, sides: list[BattleSide]) -> list[list[_Fielded]]:
    """Engine ships per side, from the ships' current damage (``ShipState.from_design``).

    Raises :class:`BattleActionError` unless there are exactly two sides each with a ship
    able to fight, or when a class design cannot be built (naming the ship and field).
    """
    if len(sides) != 2:
        raise BattleActionError(
            f"battle {battle.pk} ({battle.name}): auto-resolve needs exactly two sides, "
            f"found {len(sides)}"
        )
    fleets: list[list[_Fielded]] = []
    seen: set[int] = set()
    for side in sides:
        names = _engine_names(side)
        fleet = []
        for p in side.participants.all():
            ship = p.ship
            if ship is None:
                continue  # light-unit groups based off-ship are not fielded (see module doc)
            if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
                raise BattleActionError(
                    f"{_label(p)}: the ship is {ship.status} and cannot fight; remove it "
                    "from the battle"
                )
            if ship.pk in seen:
                raise BattleActionError(f"{_label(p)}: the ship takes part twice")
            seen.add(ship.pk)
            try:
                start = ShipState.from_design(
                    ship.ship_class.design or {},
                    ship_id=f"ship-{ship.pk}",
                    side=side.faction.slug,
                    name=names[p.pk],
                    hull_lost=ship.hull_lost,
                    armour_lost=ship.armour_lost,
                    crew_lost=ship.crew_lost,
                    systems_lost=list(ship.systems_lost or []),
                )
            except _DESIGN_ERRORS as exc:
                raise BattleActionError(
                    f"{_label(p)}: class {ship.ship_class.name!r} (design): {exc}"
                ) from exc
            fleet.append(_Fielded(p, ship, start))
        _match_squadrons(fleet, [p for p in side.participants.all() if p.light_units_id])
        for f in fleet:
            f.load_bays()
        if not fleet:
            raise BattleActionError(
                f"battle {battle.pk} ({battle.name}): side {side.faction.slug} has no ship to field"
            )
        fleets.append(fleet)
    return fleets


def _options(battle: Battle) -> RuleOptions:
    try:
        return RuleOptions.from_dict(battle.campaign.rule_options or {})
    except RulesError as exc:
        raise BattleActionError(f"campaign {battle.campaign.slug}: rule_options: {exc}") from exc


# ---- the fight ------------------------------------------------------------------------


def _rows(result: ai.BattleResult) -> list[dict[str, Any]]:
    """Engine events and dice as row dicts (no ``sequence``), each roll just before the
    first event logged after it (``BattleResult.interleaved``), with that event's turn and
    phase (dice after the last event take its turn and phase). ``data`` is passed through
    JSON so it compares equal to what the database gives back."""
    rows: list[dict[str, Any]] = []
    pending: list[tuple[Any, int]] = []  # rolls waiting for the event they precede
    for event, roll, n in result.interleaved():
        if event is None:
            pending.append((roll, n))
            continue
        rows.extend(_roll_row(r, k, event.turn, event.phase) for r, k in pending)
        pending.clear()
        rows.append(
            {
                "game_turn": event.turn,
                "phase": event.phase,
                "kind": event.kind,
                "summary": event.summary,
                "data": json.loads(json.dumps(event.data)),
            }
        )
    if pending and result.events:
        last = result.events[-1]
        rows.extend(_roll_row(r, k, last.turn, last.phase) for r, k in pending)
    return rows


def _roll_row(roll: Any, n: int, turn: int, phase: int) -> dict[str, Any]:
    """One die as a ``roll`` row: ``data = {"n" (1-based), "purpose", "sides", "result"}``."""
    return {
        "game_turn": turn,
        "phase": phase,
        "kind": "roll",
        "summary": roll.notation(),
        "data": {"n": n + 1, "purpose": roll.purpose, "sides": roll.sides, "result": roll.result},
    }


def _setup_row(
    fleets: list[list[_Fielded]],
    *,
    seed: int,
    max_turns: int,
    options: RuleOptions,
    known_classes: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The first log row: everything needed to fight the battle again (:func:`battle_replay`)."""
    ships = {}
    for fleet in fleets:
        for f in fleet:
            ships[f.start.ship_id] = {
                "participant": f.participant.pk,
                "ship": f.ship.pk,
                "name": f.start.name,
                "side": f.start.side,
                "class": f.ship.ship_class.name,
                "design": f.ship.ship_class.design,
                "hull_lost": f.start.hull_lost,
                "armour_lost": f.start.armour_lost,
                "crew_lost": f.start.crew_lost,
                "systems_lost": list(f.ship.systems_lost or []),
                # Bay id -> craft aboard and the light-unit participant flying them.
                "squadrons": {
                    bay: {"craft": p.light_units.strength, "participant": p.pk}
                    for bay, p in f.squadrons.items()
                },
            }
    sides = [fleet[0].start.side for fleet in fleets]
    data = {
        "seed": seed,
        "max_turns": max_turns,
        "options": options.to_dict(),
        "known_classes": dict(known_classes),
        "sides": sides,
        "fleets": [[f.start.ship_id for f in fleet] for fleet in fleets],
        "ships": ships,
    }
    changed = options.non_default()
    return {
        "game_turn": 0,
        "phase": 0,
        "kind": "setup",
        # No ship count: a report may hide units of fleets its reader may not see.
        "summary": (
            f"{sides[0]} against {sides[1]}; seed {seed}, at most {max_turns} turns"
            + (f"; rule options {changed}" if changed else "")
        ),
        "data": json.loads(json.dumps(data)),
    }


def _numbered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"sequence": i, **row} for i, row in enumerate(rows, 1)]


# ---- results back into the database ------------------------------------------------------


_REASONS = {
    "destruction": "the other side has no ship left in action",
    "withdrawal": "the other side's last ships withdrew",
    "turn-limit": "more surviving strength (mass × hull left) at the turn limit",
    "mutual": "both sides lost every ship",
}


def _outcome_text(outcome: ai.BattleResult, names: Mapping[str, str], seed: int) -> str:
    turns = f"{outcome.turns} turn{'s' if outcome.turns != 1 else ''}"
    if outcome.winner is None:
        head = "No winner" + (": both sides lost every ship" if outcome.reason == "mutual" else "")
        if outcome.reason == "turn-limit":
            head = "Draw: equal surviving strength at the turn limit"
    else:
        head = f"{names[outcome.winner]} victory: {_REASONS[outcome.reason]}"
    return f"{head}, after {turns}. Resolved by the rules engine (seed {seed})."


def _ship_status(ship: Ship) -> str:
    damaged = ship.hull_lost or ship.armour_lost or ship.crew_lost or ship.systems_lost
    return Ship.Status.DAMAGED if damaged else Ship.Status.ACTIVE


def _apply_engine_state(fielded: _Fielded, final: ShipState) -> None:
    """Participant losses (this battle) and Ship damage (cumulative) from the final state."""
    start, p, ship = fielded.start, fielded.participant, fielded.ship
    before = set(start.systems_lost)
    p.hull_lost = max(0, final.hull_lost - start.hull_lost)
    p.armour_lost = max(0, final.armour_lost - start.armour_lost)
    p.crew_lost = max(0, final.crew_lost - start.crew_lost)
    p.systems_lost = [s for s in final.systems_lost if s not in before]
    ship.hull_lost, ship.armour_lost = final.hull_lost, final.armour_lost
    ship.crew_lost, ship.systems_lost = final.crew_lost, final.systems_lost
    notes = []
    if final.destroyed:
        p.fate, ship.status = Participant.Fate.DESTROYED, Ship.Status.DESTROYED
    elif final.captured:
        p.fate, ship.status = Participant.Fate.CAPTURED, Ship.Status.CAPTURED
    else:
        ship.status = _ship_status(ship)
        lost = p.hull_lost or p.armour_lost or p.crew_lost or p.systems_lost
        if final.withdrawn:
            p.fate = Participant.Fate.FLED
        else:
            p.fate = Participant.Fate.DAMAGED if lost else Participant.Fate.UNHARMED
        if final.derelict:
            notes.append("left derelict: crew lost to life support failure (§4)")
            p.fate = Participant.Fate.DAMAGED
        if final.dead_in_space:
            notes.append("left dead in space: core shut down (§4)")
            p.fate = Participant.Fate.DAMAGED
    p.notes = "; ".join(notes)


def _craft_left(rows: list[dict[str, Any]], destroyed: set[str]) -> dict[tuple[str, str], int]:
    """Craft left at the end per launched squadron, keyed by the (carrier ship id, bay id)
    it started in, from the ``launch``, ``land`` and ``light-unit-losses`` entries
    (turn.py). A squadron out of endurance keeps its craft (it is off the table, not
    destroyed); one that landed (possibly in another bay or carrier, then relaunched from
    there) is followed through its landing; one aboard a carrier in ``destroyed`` (ship
    ids) at the end is lost with it."""
    unit_origin: dict[str, tuple[str, str]] = {}
    bay_holds: dict[tuple[str, str], tuple[str, str]] = {}  # bay -> squadron (by origin)
    aboard: dict[tuple[str, str], str] = {}  # squadron (by origin) -> carrier it sits on
    left: dict[tuple[str, str], int] = {}
    for row in rows:
        data = row["data"]
        kind = row["kind"]
        if kind == "launch" and data.get("system") and data.get("unit"):
            bay = (data["ship"], data["system"])
            origin = bay_holds.pop(bay, bay)
            unit_origin[data["unit"]] = origin
            aboard.pop(origin, None)
            left[origin] = int(data.get("craft", 0))
        elif kind == "land" and data.get("unit") in unit_origin:
            origin = unit_origin[data["unit"]]
            bay_holds[(data["ship"], data["system"])] = origin
            aboard[origin] = data["ship"]
            left[origin] = int(data.get("craft", 0))
        elif kind == "light-unit-losses" and data.get("unit") in unit_origin:
            left[unit_origin[data["unit"]]] = int(data.get("craft", 0))
    for origin, carrier in aboard.items():
        if carrier in destroyed:
            left[origin] = 0
    return left


def _apply_squadron_losses(
    fielded: _Fielded, final: ShipState, craft_left: dict[tuple[str, str], int]
) -> list[Participant]:
    """Craft lost by each group the ship carried: those shot down once launched, or all
    still aboard when the carrier is destroyed. Returns the participants changed."""
    changed = []
    for bay_id, p in fielded.squadrons.items():
        group = p.light_units
        aboard = group.strength
        key = (fielded.start.ship_id, bay_id)
        # Never launched: the craft share their carrier's fate.
        left = craft_left.get(key, 0 if final.destroyed else aboard)
        p.craft_lost = max(0, aboard - left)
        group.strength = aboard - p.craft_lost
        if aboard and p.craft_lost == aboard:
            p.fate = Participant.Fate.DESTROYED
        else:
            p.fate = Participant.Fate.DAMAGED if p.craft_lost else Participant.Fate.UNHARMED
        changed.append(p)
    return changed


def _conclude(
    battle: Battle,
    sides: list[BattleSide],
    *,
    mode: str,
    winner: BattleSide | None,
    outcome: str,
    game_turns: int | None,
    seed: int | None,
    narrative: str | None = None,
) -> None:
    for side in sides:
        side.is_winner = side is winner
    BattleSide.objects.bulk_update(sides, ["is_winner"])
    draft_version = battle.version
    battle.mode = mode
    battle.status = Battle.Status.CONCLUDED
    battle.winner = winner.faction if winner else None
    battle.outcome = outcome
    battle.game_turns = game_turns
    battle.seed = seed
    fields = ["mode", "status", "winner", "outcome", "game_turns", "seed", "version"]
    if narrative is not None:
        battle.narrative = narrative
        fields.append("narrative")
    battle.version += 1
    battle.updated_at = timezone.now()
    # Only the draft we read may be concluded (a second request racing this one on a
    # database without row locks finds no row to update and rolls back).
    updated = Battle.objects.filter(
        pk=battle.pk, status=Battle.Status.DRAFT, version=draft_version
    ).update(
        **{f: getattr(battle, f) for f in fields},
        updated_at=battle.updated_at,
    )
    if updated != 1:
        raise BattleActionError(
            f"battle {battle.pk} ({battle.name}) changed while it was being concluded; "
            "nothing changed"
        )
    # Classes met (rules/ft-incursion.md §5), in the caller's transaction.
    intel_record_battle(battle=battle)
    report_request(battle=battle)


# ---- the services ----------------------------------------------------------------------


def battle_resolve(*, battle: Battle, seed: int | None = None, max_turns: int = 20) -> Battle:
    """Fight a draft ``battle`` with the rules engine and conclude it; returns the battle.

    Every ship participant fights in its current damage state (``Ship`` hull/armour boxes,
    crew factors, systems lost). A light-unit participant carried by a fielded ship flies
    from one of its bays (the bay whose squadron has the group's name, else the first free
    one) with the group's craft left; its craft lost (shot down, or aboard a carrier that
    is destroyed) are written to the participant and the group's ``strength``. A carrier's
    bays with no such participant fly the squadron its design lists. Other light-unit
    groups (stations, colonies) are not fielded and stay unharmed.

    ``seed`` (default: ``battle.seed`` when set, else a random one) drives the dice; it is
    stored on the battle. ``max_turns`` (1–50) caps the game
    turns. Tactics: ``battles/rules/ai.py``; rule options: the campaign's (§16).

    In one transaction: ``Event`` rows (setup, engine events, every roll), each
    Participant's fate and losses in this battle, each Ship's cumulative damage and status
    (destroyed / captured / damaged / active), winner, sides' ``is_winner``, outcome,
    ``game_turns``, ``mode=resolved``, ``status=concluded``, ``version + 1``, the classes
    each side met (``campaign.intel.intel_record_battle``); then the report is queued for
    when it commits.

    Raises :class:`BattleActionError` when the battle is concluded, has not exactly two
    sides with ships, a ship is already destroyed or captured, a class design cannot be
    built (naming ship and field), the campaign's rule options are invalid or
    ``max_turns`` is out of range. Nothing is written then.
    """
    if not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise BattleActionError(f"max_turns: {max_turns!r}, expected 1–{MAX_TURNS_LIMIT}")
    if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise BattleActionError(f"seed: {seed!r}, expected a whole number 0 – 2^63-1")
    with transaction.atomic():
        battle = _locked(battle)
        sides = _sides(battle)
        fleets = _field(battle, sides)
        options = _options(battle)
        if seed is None:
            seed = battle.seed if battle.seed is not None else secrets.randbits(_SEED_BITS)
        known = intel_known_classes(battle=battle)
        outcome = ai.resolve_battle(
            [f.start for f in fleets[0]],
            [f.start for f in fleets[1]],
            seed=seed,
            max_turns=max_turns,
            options=options,
            known_classes=known,
        )
        rows = _rows(outcome)
        setup = _setup_row(
            fleets, seed=seed, max_turns=max_turns, options=options, known_classes=known
        )
        Event.objects.filter(battle=battle).delete()
        Event.objects.bulk_create(
            (Event(battle=battle, **row) for row in _numbered([setup, *rows])),
            batch_size=_BULK,
        )
        fielded = [f for fleet in fleets for f in fleet]
        destroyed = {sid for sid, state in outcome.ships.items() if state.destroyed}
        craft_left = _craft_left(rows, destroyed)
        squadrons: list[Participant] = []
        for f in fielded:
            _apply_engine_state(f, outcome.ships[f.start.ship_id])
            squadrons += _apply_squadron_losses(f, outcome.ships[f.start.ship_id], craft_left)
        Participant.objects.bulk_update(
            [f.participant for f in fielded],
            ["fate", "hull_lost", "armour_lost", "crew_lost", "systems_lost", "notes"],
        )
        Participant.objects.bulk_update(squadrons, ["fate", "craft_lost"])
        LightUnitGroup.objects.bulk_update([p.light_units for p in squadrons], ["strength"])
        Ship.objects.bulk_update(
            [f.ship for f in fielded],
            ["hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"],
        )
        by_slug = {s.faction.slug: s for s in sides}
        names = {slug: s.faction.name for slug, s in by_slug.items()}
        _conclude(
            battle,
            sides,
            mode=Battle.Mode.RESOLVED,
            winner=by_slug.get(outcome.winner) if outcome.winner else None,
            outcome=_outcome_text(outcome, names, seed),
            game_turns=outcome.turns,
            seed=seed,
        )
    return battle


def event_rows(*, battle: Battle) -> list[dict[str, Any]]:
    """The battle's stored log as row dicts ``{sequence, game_turn, phase, kind, summary,
    data}``, in order."""
    return list(
        Event.objects.filter(battle=battle)
        .order_by("sequence")
        .values("sequence", "game_turn", "phase", "kind", "summary", "data")
    )


def _replay_ship(ship_id: str, spec: Mapping[str, Any]) -> ShipState:
    """A ship as the setup row stored it: design, carried damage, squadrons aboard."""
    ship = ShipState.from_design(
        spec["design"],
        ship_id=ship_id,
        side=spec["side"],
        name=spec["name"],
        hull_lost=spec["hull_lost"],
        armour_lost=spec["armour_lost"],
        crew_lost=spec["crew_lost"],
        systems_lost=spec["systems_lost"],
    )
    for bay_id, squadron in spec.get("squadrons", {}).items():
        _load_bay(ship, bay_id, squadron["craft"])
    return ship


def battle_replay(*, battle: Battle) -> list[dict[str, Any]]:
    """Fight a resolved battle again from its ``setup`` row alone (designs, carried damage,
    seed, options, turn cap as stored) and return the log it gives, in the shape of
    :func:`event_rows`; equal to the stored log unless the engine has changed since.
    Reads only; raises :class:`BattleActionError` when the battle has no setup row, or
    when the setup row cannot be read (a missing key, a wrong type, an unknown rule option
    or a design the engine refuses): ``battle N: stored setup is unreadable (...)``."""
    setup = Event.objects.filter(battle=battle, kind="setup").order_by("sequence").first()
    if setup is None:
        raise BattleActionError(f"battle {battle.pk} ({battle.name}) was not resolved: no setup")
    data = setup.data
    try:
        fleets = [
            [_replay_ship(sid, data["ships"][sid]) for sid in fleet] for fleet in data["fleets"]
        ]
        outcome = ai.resolve_battle(
            fleets[0],
            fleets[1],
            seed=data["seed"],
            max_turns=data["max_turns"],
            options=RuleOptions.from_dict(data["options"]),
            known_classes=data.get("known_classes", {}),
        )
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, RulesError) as exc:
        raise BattleActionError(
            f"battle {battle.pk}: stored setup is unreadable ({type(exc).__name__}: {exc})"
        ) from exc
    first = {k: getattr(setup, k) for k in ("game_turn", "phase", "kind", "summary", "data")}
    return _numbered([first, *_rows(outcome)])


# ---- recording a game played on the table ----------------------------------------------

_RESULT_FIELDS = {
    "participant",
    "fate",
    "hull_lost",
    "armour_lost",
    "crew_lost",
    "systems_lost",
    "craft_lost",
    "notes",
}


def _count(where: str, entry: Mapping[str, Any], name: str, default: int | None = 0) -> Any:
    value = entry.get(name, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BattleActionError(f"{where}.{name}: {value!r}, expected a whole number ≥ 0")
    return value


def crew_lost_from_hull(crew_max: int, hull_max: int, hull_lost: int) -> int:
    """Crew factors lost with ``hull_lost`` of ``hull_max`` boxes, for a ship of
    ``crew_max`` crew factors: ``crew_max - ceil(crew_max × hull_left / hull_max)``
    (rules/ft-incursion.md §4, D-9). Used where a result gives no crew figure: a battle
    recorded from the table, the sample campaign's fates."""
    return crew_max - math.ceil(crew_max * (hull_max - hull_lost) / max(hull_max, 1))


def _record_ship(where: str, p: Participant, entry: Mapping[str, Any]) -> None:
    """Check one ship's entry against its SSD and write it onto ``p`` and ``p.ship``."""
    ship = p.ship
    if entry.get("craft_lost"):
        raise BattleActionError(
            f"{where}.craft_lost: {entry['craft_lost']!r}, but a ship has no craft_lost: "
            "enter the craft a carrier lost on its light-unit group's own participant"
        )
    try:
        state = ShipState.from_design(
            ship.ship_class.design or {},
            ship_id=f"ship-{ship.pk}",
            side="table",
            hull_lost=ship.hull_lost,
            armour_lost=ship.armour_lost,
            crew_lost=ship.crew_lost,
            systems_lost=list(ship.systems_lost or []),
        )
    except _DESIGN_ERRORS as exc:
        raise BattleActionError(f"{where}: class {ship.ship_class.name!r} (design): {exc}") from exc
    fate = entry.get("fate", Participant.Fate.UNHARMED)
    if fate not in Participant.Fate.values:
        raise BattleActionError(
            f"{where}.fate: {fate!r}, expected one of {Participant.Fate.values}"
        )
    if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
        raise BattleActionError(f"{where}: the ship was already {ship.status} before this battle")
    hull_left, armour_left, crew_left = state.hull_left, state.armour_left, state.crew_left
    if fate == Participant.Fate.DESTROYED:
        # A destroyed ship loses every box and crew factor left (as the sample loader does).
        hull, armour, crew = hull_left, armour_left, crew_left
        systems: list[str] = []
    else:
        hull = _count(where, entry, "hull_lost")
        armour = _count(where, entry, "armour_lost")
        crew = _count(where, entry, "crew_lost", None)
        if hull > hull_left or (hull == hull_left and hull_left > 0):
            raise BattleActionError(
                f"{where}.hull_lost: {hull}, but the {ship.ship_class.name} has {hull_left} of "
                f"{state.hull_max} hull boxes left (losing them all means fate 'destroyed')"
            )
        if armour > armour_left:
            raise BattleActionError(
                f"{where}.armour_lost: {armour}, but the {ship.ship_class.name} has "
                f"{armour_left} of {state.armour_max} armour boxes left"
            )
        if crew is None:
            crew = max(
                0,
                crew_lost_from_hull(state.crew_max, state.hull_max, state.hull_lost + hull)
                - state.crew_lost,
            )
        if crew > crew_left:
            raise BattleActionError(
                f"{where}.crew_lost: {crew}, but the {ship.ship_class.name} has {crew_left} "
                f"of {state.crew_max} crew factors left"
            )
        systems = entry.get("systems_lost") or []
        if not isinstance(systems, list) or not all(isinstance(s, str) for s in systems):
            raise BattleActionError(f"{where}.systems_lost: expected a list of system ids")
        unknown = [s for s in systems if s not in state.systems]
        if unknown:
            raise BattleActionError(
                f"{where}.systems_lost: {unknown} are not systems of the "
                f"{ship.ship_class.name} ({', '.join(state.systems)})"
            )
        if len(set(systems)) != len(systems):
            raise BattleActionError(f"{where}.systems_lost: {systems} names a system twice")
        systems = [s for s in systems if s not in (ship.systems_lost or [])]
        lost = hull or armour or crew or systems
        if fate == Participant.Fate.UNHARMED and lost:
            raise BattleActionError(f"{where}.fate: 'unharmed' but losses are entered")
    p.fate = fate
    p.hull_lost, p.armour_lost, p.crew_lost, p.systems_lost = hull, armour, crew, systems
    ship.hull_lost += hull
    ship.armour_lost += armour
    ship.crew_lost += crew
    ship.systems_lost = [*(ship.systems_lost or []), *systems]
    if fate == Participant.Fate.DESTROYED:
        ship.status = Ship.Status.DESTROYED
    elif fate == Participant.Fate.CAPTURED:
        ship.status = Ship.Status.CAPTURED
    else:
        ship.status = _ship_status(ship)


def _record_light_units(where: str, p: Participant, entry: Mapping[str, Any]) -> None:
    group = p.light_units
    fate = entry.get("fate", Participant.Fate.UNHARMED)
    if fate not in Participant.Fate.values:
        raise BattleActionError(
            f"{where}.fate: {fate!r}, expected one of {Participant.Fate.values}"
        )
    craft = _count(where, entry, "craft_lost")
    if fate == Participant.Fate.DESTROYED:
        craft = group.strength
    if craft > group.strength:
        raise BattleActionError(
            f"{where}.craft_lost: {craft}, but {group.name} has {group.strength} craft left"
        )
    for name in ("hull_lost", "armour_lost", "crew_lost", "systems_lost"):
        if entry.get(name):
            raise BattleActionError(f"{where}.{name}: a light-unit group has no {name}")
    p.fate, p.craft_lost = fate, craft
    group.strength -= craft


def battle_record(
    *,
    battle: Battle,
    results: Sequence[Mapping[str, Any]],
    outcome: str,
    winner: str | None,
    game_turns: int | None = None,
    narrative: str | None = None,
) -> Battle:
    """Record a battle played on the table and conclude it; returns the battle.

    ``results``: one entry per participant that did more than sit unharmed —
    ``{"participant": <Participant id>, "fate": "unharmed|damaged|destroyed|captured|fled",
    "hull_lost": boxes, "armour_lost": boxes, "crew_lost": crew factors (default: from the
    hull lost, D-9), "systems_lost": [system ids of the class design, incl. fc-N,
    screen-N, drive, bridge, life-support, core], "craft_lost": craft (light units),
    "notes": text}``; losses are those of this battle, on top of the ship's carried damage.
    A destroyed ship loses every hull and armour box and crew factor it had left.
    Participants not listed are unharmed. ``winner``: a side's faction slug, or None for a
    draw. ``outcome``: text. ``game_turns``: turns played, if known (0–``MAX_TURNS_LIMIT``,
    the engine's cap too). ``narrative``:
    Markdown replacing the battle's narrative (None keeps it).

    Checked against each ship's SSD (rules/ft-incursion.md §4, §11): no more hull, armour
    or crew than the ship has left, all hull lost only with fate ``destroyed``, system ids
    of the design only, no losses with fate ``unharmed``. Raises
    :class:`BattleActionError` naming ``results[i]``, the participant and the field (or a
    concluded battle, a winner not among the sides); nothing is written then. In one
    transaction: participants, ships (cumulative damage, status), light-unit strength,
    sides' ``is_winner``, battle (``mode=recorded``, ``status=concluded``, ``version + 1``),
    the classes each side met (``campaign.intel.intel_record_battle``); then the report is
    queued.
    """
    if game_turns is not None and (
        not isinstance(game_turns, int)
        or isinstance(game_turns, bool)
        or not 0 <= game_turns <= MAX_TURNS_LIMIT
    ):
        raise BattleActionError(
            f"game_turns: {game_turns!r}, expected a whole number 0–{MAX_TURNS_LIMIT}"
        )
    with transaction.atomic():
        battle = _locked(battle)
        sides = _sides(battle)
        by_slug = {s.faction.slug: s for s in sides}
        if winner is not None and winner not in by_slug:
            raise BattleActionError(
                f"winner: {winner!r} is not a side of battle {battle.pk} "
                f"({', '.join(by_slug) or 'no sides'})"
            )
        participants = {p.pk: p for s in sides for p in s.participants.all()}
        seen: set[int] = set()
        for i, entry in enumerate(results):
            if not isinstance(entry, Mapping):
                raise BattleActionError(f"results[{i}]: expected an object")
            pk = entry.get("participant")
            p = participants.get(pk) if isinstance(pk, int) else None
            if p is None:
                raise BattleActionError(
                    f"results[{i}].participant: {pk!r} is not a participant of battle "
                    f"{battle.pk} ({', '.join(map(str, participants))})"
                )
            where = f"results[{i}] ({_label(p)})"
            if pk in seen:
                raise BattleActionError(f"{where}.participant: entered twice")
            seen.add(pk)
            extra = sorted(set(entry) - _RESULT_FIELDS)
            if extra:
                raise BattleActionError(f"{where}: unknown field(s) {extra}")
            if p.ship is not None:
                _record_ship(where, p, entry)
            else:
                _record_light_units(where, p, entry)
            p.craft_lost = p.craft_lost if p.ship is None else 0
            p.notes = str(entry.get("notes", ""))
        for pk, p in participants.items():
            if pk not in seen:
                p.fate = Participant.Fate.UNHARMED
                p.hull_lost = p.armour_lost = p.crew_lost = p.craft_lost = 0
                p.systems_lost = []
        Participant.objects.bulk_update(
            list(participants.values()),
            [
                "fate",
                "hull_lost",
                "armour_lost",
                "crew_lost",
                "systems_lost",
                "craft_lost",
                "notes",
            ],
        )
        touched = [participants[pk] for pk in seen]
        Ship.objects.bulk_update(
            [p.ship for p in touched if p.ship is not None],
            ["hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"],
        )
        LightUnitGroup.objects.bulk_update(
            [p.light_units for p in touched if p.ship is None], ["strength"]
        )
        _conclude(
            battle,
            sides,
            mode=Battle.Mode.RECORDED,
            winner=by_slug.get(winner) if winner else None,
            outcome=outcome,
            game_turns=game_turns,
            seed=None,
            narrative=narrative,
        )
    return battle
