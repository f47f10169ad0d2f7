"""The sample campaign's star map, from ``starmap.json`` (systems with their territories,
links with travel times, where each fleet and battle is; the placing is the project's,
the seed has no map: README *The star map*). Called by
:func:`campaign.sample.loader.sample_load` inside its transaction."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from campaign.sample.rows import SampleDataError, upsert
from campaign.starmap.models import FleetPosition, StarLink, StarSystem, TerritoryPlacement
from campaign.starmap.movement import berths_sync, fleet_place
from factions.models import Fleet, Territory


def starmap_load(
    data: dict[str, Any],
    *,
    campaign: Campaign,
    fleets: dict[str, tuple[Fleet, Any, Any]],
    battles: list[Battle],
) -> None:
    """The sample's star map from ``starmap.json`` (module docstring); idempotent. Raises
    :class:`SampleDataError` naming the entry for an unknown system, territory or fleet."""
    systems: dict[str, StarSystem] = {}
    territories = {t.slug: t for t in Territory.objects.filter(faction__in=campaign.factions.all())}
    for i, spec in enumerate(data["systems"]):
        system, _ = upsert(
            StarSystem,
            {"campaign": campaign, "slug": spec["slug"]},
            {"name": spec["name"], "x": spec["x"], "y": spec["y"]},
        )
        systems[spec["slug"]] = system
        for slug in spec["territories"]:
            if slug not in territories:
                raise SampleDataError(f"starmap.json: systems[{i}]: no territory {slug!r}")
            upsert(
                TerritoryPlacement,
                {"campaign": campaign, "territory": territories[slug]},
                {"system_id": system.pk},
            )
    for i, (a, b, turns) in enumerate(data["links"]):
        if a not in systems or b not in systems:
            raise SampleDataError(f"starmap.json: links[{i}]: unknown system")
        first, second = sorted([systems[a], systems[b]], key=lambda s: s.pk)
        upsert(
            StarLink,
            {"a": first, "b": second},
            {"campaign_id": campaign.pk, "travel_turns": turns},
        )
    placed = set(FleetPosition.objects.filter(campaign=campaign).values_list("fleet_id", flat=True))
    for slug, system_slug in data["fleets"].items():
        if slug not in fleets or system_slug not in systems:
            raise SampleDataError(f"starmap.json: fleets.{slug}: unknown fleet or system")
        fleet = fleets[slug][0]
        if fleet.pk not in placed:  # a fleet that has moved since stays where it is
            fleet_place(campaign=campaign, fleet=fleet, system=systems[system_slug], user=SYSTEM)
    # fleets.json wrote each fleet's territory; the map's position is the source of it.
    berths_sync(campaign=campaign, fleets=[f for f, _s, _l in fleets.values()])
    for battle in battles:
        system_slug = data["battles"].get(battle.slug)
        if system_slug and battle.system_id != systems[system_slug].pk:
            battle.system = systems[system_slug]
            battle.save(update_fields=["system"])
