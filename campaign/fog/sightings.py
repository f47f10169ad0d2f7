"""Sightings: at each campaign turn's close, every faction of the campaign records the
enemy fleets it sees where they stand (``campaign.fog.knowledge.seen_by``: in sensor
reach, or revealed by an organiser), so that it keeps their last-known position and turn
once they are out of sight. Reopening the turn deletes what its close wrote (and what
any later close wrote).

Hooked on ``campaign.core.signals.turn_closed`` / ``turn_reopened``, sent inside the
turn close's and reopening's transactions (``campaign.turns.closing``): a close that
fails writes no sighting. Queries: a fixed number a close, whatever the fleets.
"""

from __future__ import annotations

from campaign.core.signals import turn_closed, turn_reopened
from campaign.fog.knowledge import fleet_facts, seen_by
from campaign.fog.models import Sighting
from campaign.league.models import Campaign
from campaign.starmap.models import FleetPosition


def current_positions(campaign: Campaign) -> dict[int, tuple[int | None, int | None]]:
    """``{fleet id: (system id, link id)}`` of the fleets on ``campaign``'s map now."""
    return {
        fleet_id: (system_id, link_id)
        for fleet_id, system_id, link_id in FleetPosition.objects.filter(
            campaign=campaign
        ).values_list("fleet_id", "system_id", "link_id")
    }


def sightings_record(*, campaign: Campaign, turn: int) -> list[Sighting]:
    """Write the sightings of the close of ``turn`` (replacing any of that turn) and
    return them. Every faction of the campaign observes; a fleet seen by several factions
    gives one row each."""
    positions = current_positions(campaign)
    facts = fleet_facts(positions)
    faction_ids = list(campaign.factions.values_list("pk", flat=True))
    rows = [
        Sighting(
            campaign=campaign,
            observer_id=faction_id,
            fleet_id=fleet_id,
            turn=turn,
            system_id=positions[fleet_id][0],
            link_id=positions[fleet_id][1],
            blips=facts[fleet_id].blips,
            how=how,
        )
        for faction_id, seen in seen_by(campaign, positions, facts, faction_ids).items()
        for fleet_id, how in seen.items()
    ]
    Sighting.objects.filter(campaign=campaign, turn=turn).delete()
    return Sighting.objects.bulk_create(rows)


def sightings_forget(*, campaign: Campaign, turn: int) -> int:
    """Delete the sightings of the closes of ``turn`` and later (the turn reopened);
    returns how many."""
    deleted, _ = Sighting.objects.filter(campaign=campaign, turn__gte=turn).delete()
    return deleted


def _on_close(sender, *, campaign: Campaign, turn: int, **kwargs) -> None:
    sightings_record(campaign=campaign, turn=turn)


def _on_reopen(sender, *, campaign: Campaign, turn: int, **kwargs) -> None:
    sightings_forget(campaign=campaign, turn=turn)


def connect() -> None:
    """Connect the receivers (``FogConfig.ready``)."""
    turn_closed.connect(_on_close, dispatch_uid="fog-sightings-close")
    turn_reopened.connect(_on_reopen, dispatch_uid="fog-sightings-reopen")
