"""Concluding a battle.

:func:`battle_conclude` is the one place a battle's result is written, whichever way it
was reached: the auto-resolve (``resolve.battle_resolve``), a record confirmed by both
sides (``record.record_confirm``), or the final engine state of a turn-by-turn battle
(build a :class:`Conclusion` with ``resolve.conclusion_from_engine``). It keeps a
snapshot of what it changes (``battles.services.snapshot``), which
``battles.services.reopen.battle_reopen`` puts back.

Locking (PostgreSQL): the battle row, then every participating ship, then every light-unit
group, each ``select_for_update`` in primary-key order, so two conclusions never
interleave and never deadlock; whoever comes second re-reads the committed rows and is
refused with the ship named.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from battles.models import (
    Battle,
    BattleAction,
    BattleSide,
    BattleSnapshot,
    Event,
    Participant,
)
from battles.services.common import (
    BULK,
    BattleActionError,
    battle_label,
    battle_sides,
    label,
    locked,
)
from battles.services.intel import intel_record_battle
from battles.services.permissions import require_battle_player
from battles.services.renown import award_renown, posts_before
from battles.services.snapshot import SNAPSHOT_FORMAT, lock_units, unit_changes, unit_dump
from battles.signals import battle_concluded
from campaign.core.messages import StoredMessage, message_of, text_of
from campaign.league.models import Intel
from factions.models import LightUnitGroup, Ship

__all__ = [
    "Conclusion",
    "UnitResult",
    "battle_conclude",
]


@dataclass
class UnitResult:
    """What one participant lost in this battle (not its carried damage): hull and armour
    boxes, crew factors, system ids of its class design, craft (light units), its fate
    (``Participant.Fate``) and a note."""

    participant: int
    fate: str = Participant.Fate.UNHARMED
    hull_lost: int = 0
    armour_lost: int = 0
    crew_lost: int = 0
    systems_lost: list[str] = field(default_factory=list)
    craft_lost: int = 0
    notes: str = ""


@dataclass
class Conclusion:
    """A battle's result, ready to write. ``results``: one per participant that did more
    than sit unharmed (others are unharmed), already checked against the SSDs;
    ``winner``: a side's faction slug or None (a draw); ``events``: log rows
    ``{game_turn, phase, kind, summary, data}`` replacing the battle's log (empty: the
    log is kept); ``summary``: the timeline's line, a person's words or a message
    (``campaign.core.messages``), the outcome when empty; ``outcome_message``: the
    engine's outcome as a message (``{}`` for an organiser's own words)."""

    mode: str
    results: list[UnitResult]
    winner: str | None
    outcome: str
    game_turns: int | None = None
    seed: int | None = None
    narrative: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    summary: str | StoredMessage = ""
    outcome_message: StoredMessage | dict[str, Any] = field(default_factory=dict)


#: What ``battle_conclude`` takes: a ready result, or a function that builds it from the
#: locked battle and its sides (read after the locks, so from committed rows).
ConclusionSource = Conclusion | Callable[[Battle, list[BattleSide]], Conclusion]


def _check_ships_free(battle: Battle, sides: list[BattleSide]) -> None:
    """Refuse a ship already lost, or changed by another battle concluded since this one
    was set up (``a ship is in at most one unconcluded battle``), naming both."""
    ships = {p.ship_id: p for s in sides for p in s.participants.all() if p.ship_id}
    for p in ships.values():
        if p.ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
            raise BattleActionError(
                _(
                    "%(participant)s: the ship is %(status)s already; remove it from "
                    "%(battle)s before concluding"
                )
                % {
                    "participant": label(p),
                    "status": p.ship.get_status_display(),
                    "battle": battle_label(battle),
                }
            )
    later = (
        Participant.objects.filter(ship_id__in=list(ships))
        .exclude(side__battle=battle)
        .filter(
            side__battle__status=Battle.Status.CONCLUDED,
            side__battle__concluded_at__gte=battle.created_at,
        )
        .select_related("side__battle")
        .order_by("ship_id")
        .first()
    )
    if later is not None:
        other = later.side.battle
        raise BattleActionError(
            _(
                "%(participant)s: the ship is held by %(battle)s, concluded since this "
                "battle was set up; reopen it or set this battle up again. Nothing changed."
            )
            % {"participant": label(ships[later.ship_id]), "battle": battle_label(other)}
        )


def _captor_fleet(side: BattleSide, sides: list[BattleSide], winner: str | None) -> Any:
    """The fleet a ship of ``side`` captured in this battle joins: the winning side's (or
    else the first other side's) fleet, else the fleet of its first ship; None if none."""
    others = [s for s in sides if s.pk != side.pk]
    captors = [s for s in others if s.faction.slug == winner] or others
    for s in captors:
        if s.fleet_id:
            return s.fleet_id
        for p in s.participants.all():
            if p.ship_id:
                return p.ship.fleet_id
    return None


def _apply(battle: Battle, sides: list[BattleSide], conclusion: Conclusion) -> None:
    participants = {p.pk: p for s in sides for p in s.participants.all()}
    side_of = {p.pk: s for s in sides for p in s.participants.all()}
    results: dict[int, UnitResult] = {}
    for r in conclusion.results:
        if r.participant not in participants:
            raise BattleActionError(
                _("participant %(participant)s: not a participant of battle %(battle)s")
                % {"participant": r.participant, "battle": battle.pk}
            )
        if r.fate not in Participant.Fate.values:
            raise BattleActionError(
                _("%(where)s.fate: %(value)r, expected one of %(choices)s")
                % {
                    "where": label(participants[r.participant]),
                    "value": r.fate,
                    "choices": Participant.Fate.values,
                }
            )
        results[r.participant] = r
    ships, groups = [], []
    for pk, p in participants.items():
        r = results.get(pk, UnitResult(participant=pk))
        p.fate, p.notes = r.fate, r.notes
        if p.ship_id:
            ship = p.ship
            p.hull_lost, p.armour_lost, p.crew_lost = r.hull_lost, r.armour_lost, r.crew_lost
            p.systems_lost, p.craft_lost = list(r.systems_lost), 0
            ship.hull_lost += r.hull_lost
            ship.armour_lost += r.armour_lost
            ship.crew_lost += r.crew_lost
            before = list(ship.systems_lost or [])
            ship.systems_lost = before + [s for s in r.systems_lost if s not in before]
            if r.fate == Participant.Fate.DESTROYED:
                ship.settle_status(destroyed=True)
            elif r.fate == Participant.Fate.CAPTURED:
                ship.settle_status(captured=True)
                fleet_id = _captor_fleet(side_of[pk], sides, conclusion.winner)
                if fleet_id:
                    ship.fleet_id, ship.squadron_id = fleet_id, None
            else:
                ship.settle_status()
            ships.append(ship)
        else:
            group = p.light_units
            if r.craft_lost > group.strength:
                raise BattleActionError(
                    _("%(where)s.craft_lost: %(value)s, but %(group)s has %(left)s craft left")
                    % {
                        "where": label(p),
                        "value": r.craft_lost,
                        "group": group.name,
                        "left": group.strength,
                    }
                )
            p.hull_lost = p.armour_lost = p.crew_lost = 0
            p.systems_lost, p.craft_lost = [], r.craft_lost
            group.strength -= r.craft_lost
            groups.append(group)
    names = ["fate", "hull_lost", "armour_lost", "crew_lost", "systems_lost", "craft_lost"]
    bulk_update_with_history(
        list(participants.values()), Participant, [*names, "notes"], batch_size=BULK
    )
    Ship.objects.bulk_update(
        ships,
        ["hull_lost", "armour_lost", "crew_lost", "systems_lost", "status", "fleet", "squadron"],
        batch_size=BULK,
    )
    LightUnitGroup.objects.bulk_update(groups, ["strength"], batch_size=BULK)


def battle_conclude(*, battle: Battle, conclusion: ConclusionSource, user: Any) -> Battle:
    """Write a battle's result and conclude it; returns the concluded battle.

    ``conclusion``: a :class:`Conclusion`, or a function ``(battle, sides) -> Conclusion``
    called once the rows are locked (so it reads committed, locked ships: what
    ``battle_resolve`` and ``record_confirm`` pass). ``user``: who concludes (timeline).

    In one transaction: lock the battle, its ships and light-unit groups
    (``select_for_update``, pk order); refuse a concluded battle, a ship already
    destroyed or captured, or a ship held by another battle concluded since this one was
    set up (:class:`BattleActionError` naming the ship and the other battle); keep a
    :class:`~battles.models.BattleSnapshot` of every ship, light unit and participant
    field it changes (its value before and after), and of the sides and battle fields;
    write each participant's losses and fate, each ship's
    cumulative damage and status (a captured ship joins the captor's fleet), each group's
    craft left, the log (``events``), winner, outcome, ``status=concluded``,
    ``concluded_at``, ``version + 1``; record the classes each side met
    (``battles.services.intel.intel_record_battle``) and which intel rows that created; add a
    timeline entry; give its commanders renown and their fates
    (``factions.commanders.renown``); and queue the report for when the transaction commits
    (:func:`on_concluded`). Nothing is written when it raises. ``user`` organises the
    campaign or plays one of its sides (:class:`~campaign.core.refusals.Refused`).
    """
    require_battle_player(user, battle)
    with transaction.atomic():
        b = locked(battle)
        lock_units(b)
        sides = battle_sides(b)
        _check_ships_free(b, sides)
        result = conclusion(b, sides) if callable(conclusion) else conclusion
        by_slug = {s.faction.slug: s for s in sides}
        if result.winner is not None and result.winner not in by_slug:
            raise BattleActionError(
                _("winner: %(value)r is not a side of battle %(battle)s (%(sides)s)")
                % {
                    "value": result.winner,
                    "battle": b.pk,
                    "sides": ", ".join(by_slug) or _("no sides"),
                }
            )
        participants = [p for s in sides for p in s.participants.all()]
        units: dict[str, dict[str, Model]] = {
            "ships": {str(p.ship.pk): p.ship for p in participants if p.ship_id},
            "light_units": {
                str(p.light_units.pk): p.light_units for p in participants if p.light_units_id
            },
            "participants": {str(p.pk): p for p in participants},
        }
        before = {key: {pk: unit_dump(o) for pk, o in objs.items()} for key, objs in units.items()}
        snapshot: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "battle": {
                k: getattr(b, k)
                for k in (
                    "mode",
                    "winner_id",
                    "outcome",
                    "outcome_message",
                    "game_turns",
                    "seed",
                    "narrative",
                )
            },
        }
        posts = posts_before(sides)  # before a captured ship joins its captor's fleet
        _apply(b, sides, result)
        # Only what the conclusion changed, before and after: a reopen puts back these
        # fields alone, and refuses when one was changed again since.
        for key, objs in units.items():
            snapshot[key] = {pk: unit_changes(before[key][pk], o) for pk, o in objs.items()}
        if result.events:
            Event.objects.filter(battle=b).delete()
            Event.objects.bulk_create(
                (Event(battle=b, sequence=i, **row) for i, row in enumerate(result.events, 1)),
                batch_size=BULK,
            )
        draft_version = b.version
        b.mode = result.mode
        b.mark_concluded()
        b.winner = by_slug[result.winner].faction if result.winner else None
        b.outcome = result.outcome
        b.outcome_message = result.outcome_message
        b.game_turns = result.game_turns
        b.seed = result.seed
        if result.narrative is not None:
            b.narrative = result.narrative
        b.version += 1
        fields = ["mode", "status", "winner", "outcome", "outcome_message", "game_turns"]
        fields += ["seed", "narrative"]
        fields += ["version", "concluded_at"]
        # Only the draft we read may be concluded (a second request racing this one on a
        # database without row locks finds no row to update and rolls back).
        updated = Battle.objects.filter(
            pk=b.pk, status=Battle.Status.DRAFT, version=draft_version
        ).update(**{f: getattr(b, f) for f in fields}, updated_at=timezone.now())
        if updated != 1:
            raise BattleActionError(
                _("%(battle)s changed while it was being concluded; nothing changed")
                % {"battle": battle_label(b)}
            )
        b.save(update_fields=["updated_at"])  # one history row with the concluded state
        award_renown(b, sides, posts)
        intel_record_battle(battle=b)
        snapshot["intel"] = sorted(
            Intel.objects.filter(first_battle=b).values_list("pk", flat=True)
        )
        BattleSnapshot.objects.update_or_create(
            battle=b, defaults={"data": json.loads(json.dumps(snapshot))}
        )
        line = result.summary or result.outcome_message or result.outcome
        BattleAction.objects.create(
            battle=b,
            user=user if getattr(user, "is_authenticated", False) else None,
            kind=BattleAction.Kind.CONCLUDE,
            summary=text_of(line),
            summary_message=message_of(line),
            data={"mode": result.mode, "winner": result.winner, "seed": result.seed},
        )
        on_concluded(b)
    return b


def on_concluded(battle: Battle) -> None:
    """After-conclusion work, in the conclusion's transaction: :data:`battle_concluded`
    is sent; the reports' receiver writes the drafted after-action report for the
    chroniclers (unpublished until they publish it) and queues the report files (rendered
    once the transaction commits)."""
    battle_concluded.send(sender=Battle, battle=battle)
