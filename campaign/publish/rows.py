"""What the site build reads about every published battle, as plain rows, for speed.

A site build must tell which battle pages changed without loading 10 000 battles as model
objects (sides, participants, ships: ~150 000 objects, seconds of ORM work). This module
reads them with ``values_list`` queries — a fixed number whatever the league's size — into
tuples: enough for each battle page's key (:meth:`BattleRows.battle_state`), the battle
lists, the standings and which faction fought where. Only the battles whose key changed
are then loaded whole (``battles.reports.context.report_rows``), a chunk at a time.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Count, Max

from battles.models import Battle, BattleSide, Event, Participant
from battles.models.other_games import SystemParticipant
from battles.standings import LIGHT_UNITS, SHIP, SYSTEM_UNIT
from battles.visibility import Reader, fleet_hidden, followed_fleet
from campaign.league.models import Campaign
from factions.models import Faction, ShipClass

#: Battle fields a list, the feed or a key never reads: left in the database.
_TEXTS = ("narrative", "analysis", "scenario", "outcome")


def digest(value: Any) -> str:
    """A short stable hash of a JSON-able ``value`` (dates and the like as ``str``)."""
    return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()[:32]


def instance_row(obj: Any) -> list[Any]:
    """The stored values of a model instance (its concrete fields), for a page key."""
    return [getattr(obj, f.attname) for f in obj._meta.concrete_fields]


@dataclass
class SideRow:
    """One side of a battle: ``texts`` is a digest of its objectives and analysis."""

    pk: int
    faction_id: int
    fleet_id: int | None
    is_winner: bool  # its faction is the battle's winner (the one stored fact)
    texts: str


@dataclass
class BattleRows:
    """The concluded battles of some campaigns (``battles``: ``Battle`` objects without
    their long texts, with ``campaign`` and ``winner``), and per battle id its ``sides``
    (:class:`SideRow`), ``units`` (one tuple per participant: its own fields and its
    ship's state), ``events`` (count and last id of its log) and per side id ``lost``
    (``(kind, fate, fleet id the unit's visibility follows)`` per unit, as
    ``battles.standings.StandingRows.losses``: other systems' units with fleet None)."""

    battles: list[Battle]
    sides: dict[int, list[SideRow]] = field(default_factory=dict)
    units: dict[int, list[tuple]] = field(default_factory=dict)
    lost: dict[int, list[tuple[str, str, int | None]]] = field(default_factory=dict)
    events: dict[int, tuple] = field(default_factory=dict)
    classes: dict[int, str] = field(default_factory=dict)

    def battle_state(self, pk: int, public: Reader) -> list[Any]:
        """Everything of battle ``pk`` its page shows to ``public`` (the anonymous
        reader, ``battles.visibility.public_reader``), besides the battle row itself: for
        a page key."""
        units = [
            (*unit[:-2], self.classes.get(unit[-2]), not fleet_hidden(public, unit[-1]))
            for unit in self.units.get(pk, ())
        ]
        sides = [
            (s.pk, s.faction_id, s.fleet_id, not fleet_hidden(public, s.fleet_id), s.is_winner,
             s.texts)
            for s in self.sides.get(pk, ())
        ]  # fmt: skip
        return [sides, units, self.events.get(pk)]


def _raw(queryset: Any) -> list[tuple]:
    """The rows of a ``values_list`` ``queryset`` as the database driver gives them,
    without Django's per-row field conversions (a JSON list stays text, which a page key
    digests as well): 0.36 s instead of 0.95 s of CPU for the 110 000 participants of a
    10 000-battle league (``time.process_time``, same process)."""
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # e.g. ``campaign_id__in=[]``: no campaign
        return []
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _attach(battles: list[Battle], name: str, model: Any, pks: set[int]) -> None:
    """Set each battle's foreign key ``name`` to the ``model`` object of its id, read in
    one query (``None`` stays ``None``)."""
    objects = model.objects.in_bulk(list(pks))
    field = Battle._meta.get_field(name)
    for battle in battles:
        field.set_cached_value(battle, objects.get(getattr(battle, field.attname)))


def load_rows(campaign_ids: list[int]) -> BattleRows:
    """:class:`BattleRows` of the concluded battles of ``campaign_ids``, in eight queries."""
    concluded = {"campaign_id__in": campaign_ids, "status": Battle.Status.CONCLUDED}
    battles = list(
        Battle.objects.filter(**concluded)
        .defer(*_TEXTS)
        .order_by("campaign__name", "campaign_turn", "date", "name", "pk")
    )
    # Their campaign and winner read once each and shared, not one copy a battle joined
    # in (``select_related``: three model objects a battle, 0.5 s of a 2 000-battle
    # rebuild's 2.0 s of CPU).
    _attach(battles, "campaign", Campaign, {b.campaign_id for b in battles})
    _attach(battles, "winner", Faction, {b.winner_id for b in battles} - {None})
    rows = BattleRows(battles)
    by_battle = {f"battle__{k}": v for k, v in concluded.items()}
    side_battle: dict[int, int] = {}
    sides: dict[int, list[SideRow]] = defaultdict(list)
    winners = {b.pk: b.winner_id for b in battles}
    for pk, battle_id, faction_id, fleet_id, *texts in (
        BattleSide.objects.filter(**by_battle)
        .order_by("battle_id", "order", "pk")
        .values_list(
            "pk", "battle_id", "faction_id", "fleet_id",
            "primary_objective", "secondary_objectives", "analysis",
        )
    ):  # fmt: skip
        side_battle[pk] = battle_id
        won = faction_id == winners[battle_id]
        sides[battle_id].append(SideRow(pk, faction_id, fleet_id, won, digest(texts)))
    rows.sides = dict(sides)
    units: dict[int, list[tuple]] = defaultdict(list)
    lost: dict[int, list[tuple[str, str, int | None]]] = defaultdict(list)
    side_filter = {f"side__{k}": v for k, v in by_battle.items()}
    for row in _raw(
        Participant.objects.filter(**side_filter)
        .order_by("pk")
        .values_list(
            "side_id", "pk", "fate", "hull_lost", "armour_lost", "crew_lost", "systems_lost",
            "craft_lost", "notes", "ship_id", "ship__name", "ship__hull_lost",
            "ship__armour_lost", "ship__crew_lost", "ship__systems_lost", "light_units__name",
            "light_units__kind", "light_units__unit_type", "ship__fleet_id",
            "light_units__fleet_id", "light_units__carrier__fleet_id", "ship__ship_class_id",
        )
    ):  # fmt: skip
        side_id, fate = row[0], row[2]
        ship_fleet, group_fleet, carrier_fleet = row[-4:-1]
        fleet = followed_fleet(row[9], ship_fleet, group_fleet, carrier_fleet)
        units[side_battle[side_id]].append((*row[:-4], row[-1], fleet))
        lost[side_id].append((SHIP if row[9] else LIGHT_UNITS, fate, fleet))
    for side_id, pk, fate, name, hull in (
        SystemParticipant.objects.filter(**side_filter)
        .order_by("pk")
        .values_list("side_id", "pk", "fate", "name", "hull_lost")
    ):
        units[side_battle[side_id]].append(("system", pk, fate, name, hull, None, None))
        lost[side_id].append((SYSTEM_UNIT, fate, None))
    rows.units, rows.lost = dict(units), dict(lost)
    rows.events = {
        battle_id: (n, last)
        for battle_id, n, last in Event.objects.filter(**by_battle)
        .values("battle_id")
        .annotate(n=Count("pk"), last=Max("pk"))
        .values_list("battle_id", "n", "last")
    }
    rows.classes = {
        pk: digest(rest)
        for pk, *rest in ShipClass.objects.values_list(
            "pk",
            "name",
            "type_word",
            "points",
            "mass",
            "design",
            "hull_boxes",
            "armour",
            "thrust",
            "provisional",
            "faction_id",
        )
    }
    return rows
