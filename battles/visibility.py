"""What one reader may see of a battle: which of its units belong to fleets hidden from
them (their rows and their engine ids), and whether they may read the people's texts of
an unpublished report. The report, the turn board, the site's replays and rows, and the
battles API all ask here, so that they never disagree about a secret.

The rules themselves live where they always did: which fleets a user may see is
``factions.access.visible_fleets`` (public fleets, plus the hidden ones of the factions
they play or whose campaigns they organise; staff: all); who may read an unpublished
report is ``campaign.league.roles.can_edit_reports``. This module applies them to a
battle's units:

- a unit follows a fleet (:func:`followed_fleet`): a ship its fleet; a light-unit group
  its own fleet, else its carrier's (a hidden carrier hides the fighters it carries);
  a group based at a station or colony follows none and is public;
- a unit is hidden when it follows a fleet the reader does not see;
- its engine ids (``battles.refs``) are then hidden too: ``ship-<pk>`` for a ship (and so
  every unit launched from it, ``ship-<pk>.bay-1-2``), ``lu-<pk>`` for a group (a defence
  platform, and what it launches).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from battles.models import Battle, Participant
from battles.refs import light_units_ref, ship_ref
from campaign.league.roles import User, can_edit_reports
from factions.access import visible_fleets

__all__ = [
    "Reader",
    "UnitRow",
    "battle_units",
    "fleet_hidden",
    "followed_fleet",
    "hidden_fleet_ids",
    "hidden_participants",
    "hidden_refs",
    "may_read_draft",
    "public_reader",
    "reader_for",
    "unit_row",
]


@dataclass(frozen=True)
class Reader:
    """Who reads: ``seen_fleets`` the ids of the fleets they may see (among those asked
    about when built with ``among``); ``user`` the user (None: the anonymous public),
    for the per-campaign question of :func:`may_read_draft`. Build it with
    :func:`reader_for` or :func:`public_reader`."""

    seen_fleets: frozenset[int]
    user: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class UnitRow:
    """A battle participant as visibility reads it: its ship's or light-unit group's
    pk (one of the two is None) and the fleet it follows (:func:`followed_fleet`)."""

    ship_id: int | None
    light_units_id: int | None
    fleet_id: int | None


def reader_for(user: User, *, among: Iterable[int | None] | None = None) -> Reader:
    """The :class:`Reader` ``user`` is (None or anonymous: the public). ``among``: only
    these fleet ids are asked about (a report of a few battles among thousands of
    fleets); the reader must then be asked about no other. One query."""
    fleets = visible_fleets(user)
    if among is not None:
        fleets = fleets.filter(pk__in=[pk for pk in among if pk is not None])
    return Reader(frozenset(fleets.values_list("pk", flat=True)), user)


def public_reader(public_fleet_ids: Iterable[int]) -> Reader:
    """The anonymous public, from the ids of ``visible_fleets(None)`` already read (the
    site builder reads them once for every page): no query."""
    return Reader(frozenset(public_fleet_ids), None)


def followed_fleet(
    ship_id: int | None,
    ship_fleet_id: int | None,
    group_fleet_id: int | None,
    carrier_fleet_id: int | None,
) -> int | None:
    """The fleet whose visibility a participant follows, from its columns: a ship's
    (``ship_id`` set) fleet; a light-unit group's own fleet, else its carrier's; None for
    a group based at a station or colony (public)."""
    if ship_id:
        return ship_fleet_id
    return group_fleet_id if group_fleet_id is not None else carrier_fleet_id


def unit_row(participant: Participant) -> UnitRow:
    """``participant`` (a ``battles.models.Participant`` with ``ship`` and
    ``light_units__carrier`` loaded, else a query each) as a :class:`UnitRow`."""
    if participant.ship_id:
        return UnitRow(participant.ship_id, None, participant.ship.fleet_id)
    group = participant.light_units
    carrier_fleet = group.carrier.fleet_id if group.carrier_id is not None else None
    fleet = followed_fleet(None, None, group.fleet_id, carrier_fleet)
    return UnitRow(None, participant.light_units_id, fleet)


def battle_units(battle_ids: Iterable[int]) -> dict[int, list[UnitRow]]:
    """``{battle id: [UnitRow]}`` of the battles' participants, in participant order:
    one query whatever their number (every id of ``battle_ids`` is a key)."""
    units: dict[int, list[UnitRow]] = {pk: [] for pk in battle_ids}
    rows = (
        Participant.objects.filter(side__battle_id__in=list(units))
        .order_by("pk")
        .values_list(
            "side__battle_id", "ship_id", "light_units_id", "ship__fleet_id",
            "light_units__fleet_id", "light_units__carrier__fleet_id",
        )
    )  # fmt: skip
    for battle_id, ship_id, group_id, ship_fleet, group_fleet, carrier_fleet in rows:
        fleet = followed_fleet(ship_id, ship_fleet, group_fleet, carrier_fleet)
        units[battle_id].append(UnitRow(ship_id, group_id, fleet))
    return units


def fleet_hidden(reader: Reader, fleet_id: int | None) -> bool:
    """True when ``fleet_id`` is a fleet ``reader`` may not see (None, no fleet: never)."""
    return fleet_id is not None and fleet_id not in reader.seen_fleets


def hidden_fleet_ids(fleet_ids: Iterable[int | None], reader: Reader) -> frozenset[int]:
    """The ids among ``fleet_ids`` of fleets hidden from ``reader``."""
    return frozenset(pk for pk in fleet_ids if pk is not None and fleet_hidden(reader, pk))


def hidden_participants(participants: Iterable[Participant], reader: Reader) -> list[Participant]:
    """The ``participants`` (loaded as :func:`unit_row` needs) hidden from ``reader``,
    in their order."""
    return [p for p in participants if fleet_hidden(reader, unit_row(p).fleet_id)]


def hidden_refs(units: Iterable[UnitRow | Participant], reader: Reader) -> frozenset[str]:
    """The engine ids of the ``units`` (:class:`UnitRow` or participants) hidden from
    ``reader``: ``ship-<pk>`` of a ship, ``lu-<pk>`` of a light-unit group. A unit
    launched from one (``ship-3.bay-1-2``) is hidden with its owner."""
    refs = set()
    for unit in units:
        row = unit if isinstance(unit, UnitRow) else unit_row(unit)
        if not fleet_hidden(reader, row.fleet_id):
            continue
        refs.add(ship_ref(row.ship_id) if row.ship_id else light_units_ref(row.light_units_id))
    return frozenset(refs)


def may_read_draft(battle: Battle, reader: Reader) -> bool:
    """True when ``reader`` may read the people's texts (narrative, analyses) of
    ``battle``'s report: it is published, or they may edit the campaign's reports
    (``campaign.league.roles.can_edit_reports``: staff, its organisers and chroniclers).
    An unpublished report's texts are a draft: empty for everyone else."""
    if battle.report_state == Battle.ReportState.PUBLISHED:
        return True
    return can_edit_reports(reader.user, battle.campaign)
