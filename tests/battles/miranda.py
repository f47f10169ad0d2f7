"""The eve of the Miranda battle, from the sample: what the seed says happened (the
sample loader's participants and final states), then every unit put back as it was
before, with the battle (and the draft skirmish holding some of its ships) removed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.models import Battle, Participant
from campaign.league.models import Campaign, Intel
from campaign.sample.loader import sample_load
from factions.models import LightUnitGroup, Ship

SHIP_FIELDS = ("hull_lost", "armour_lost", "crew_lost", "systems_lost", "status", "fleet_id")


@dataclass
class MirandaEve:
    """``fates``: (ship id, group id) -> the sample's participant row (fate, losses);
    ``ships`` / ``groups``: the final states the seed gives (ship fields, craft left)."""

    outcome: str
    fates: dict[tuple[int | None, int | None], Any]
    ships: dict[int, tuple]
    groups: dict[int, int]


def ship_states(ids) -> dict[int, tuple]:
    """Ship id -> its damage fields (systems lost as a set: the form lists them in SSD
    order, the seed in its own)."""
    return {
        s.pk: tuple(
            frozenset(s.systems_lost) if f == "systems_lost" else getattr(s, f) for f in SHIP_FIELDS
        )
        for s in Ship.objects.filter(pk__in=ids)
    }


def group_states(ids) -> dict[int, int]:
    return dict(LightUnitGroup.objects.filter(pk__in=ids).values_list("pk", "strength"))


def miranda_eve() -> MirandaEve:
    """Load the sample, note the Miranda result, and roll the units back to the eve."""
    sample_load()
    campaign = Campaign.objects.get(slug="sample")
    miranda = Battle.objects.get(campaign=campaign, slug="colonisation-compromise")
    parts = list(Participant.objects.filter(side__battle=miranda).select_related("side__faction"))
    eve = MirandaEve(
        outcome=miranda.outcome,
        fates={(p.ship_id, p.light_units_id): p for p in parts},
        ships=ship_states([p.ship_id for p in parts if p.ship_id]),
        groups=group_states([p.light_units_id for p in parts if p.light_units_id]),
    )
    for p in parts:
        if p.ship_id:
            ship = p.ship
            destroyed = p.fate == "destroyed"
            ship.hull_lost = 0 if destroyed else ship.hull_lost - p.hull_lost
            ship.armour_lost = 0 if destroyed else ship.armour_lost - p.armour_lost
            ship.crew_lost = 0
            ship.systems_lost = [s for s in ship.systems_lost if s not in p.systems_lost]
            ship.status = "damaged" if ship.hull_lost or ship.systems_lost else "active"
            ship.save()
        else:
            p.light_units.strength += p.craft_lost
            p.light_units.save()
    Intel.objects.filter(campaign=campaign).delete()
    Battle.objects.filter(campaign=campaign).delete()  # Miranda and the draft skirmish
    return eve
