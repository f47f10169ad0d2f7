"""Every faction of the sample can repair and build on campaign turn 1: each has a yard
(Qatzrin's home port and the G+ Miranda colony A are the project's readings of seed 000,
README *The sample's yards*) and a fleet at it."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign.core.actors import SYSTEM
from campaign.sample.loader import sample_load
from campaign.turns.building import build_blockers, construction_order
from campaign.turns.closing import campaign_turn_open
from campaign.turns.repairs import repair_order
from campaign.turns.treasury import treasury_adjust, treasury_balance
from factions.models import Fleet, Ship

#: faction -> (the yard its fleet is at, that yard's capacity)
YARDS = {
    "kongeriket-norge": ("trondelag", 12),
    "qatzrin": ("qatzrin", 8),
    "phalon": ("petra-iv", 6),
    "collectif-g-plus": ("miranda-colony-a", 4),
}


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield sample_load()
        transaction.set_rollback(True)


@pytest.fixture
def turn_one(loaded, db):
    campaign = loaded.campaign
    turn = campaign_turn_open(campaign=campaign, user=SYSTEM)
    assert turn.number == 1
    for faction in campaign.factions.all():
        treasury_adjust(
            campaign=campaign,
            faction=faction,
            resources=500,
            technology=1,
            reason="test opening",
            user=SYSTEM,
        )
    return campaign


def test_every_sample_fleet_is_at_a_yard_of_its_own_faction(loaded, db):
    fleets = Fleet.objects.filter(faction__in=loaded.campaign.factions.all()).select_related(
        "faction", "territory"
    )
    at = {f.faction.slug: (f.territory.slug, f.territory.shipyard_capacity) for f in fleets}
    assert at == YARDS
    assert all(f.territory.faction_id == f.faction_id for f in fleets)
    assert build_blockers(list(loaded.campaign.factions.all())) == {}


@pytest.mark.parametrize("faction_slug", sorted(YARDS))
def test_each_faction_orders_a_repair_and_a_construction_on_turn_1(turn_one, faction_slug):
    campaign = turn_one
    faction = campaign.factions.get(slug=faction_slug)
    fleet = Fleet.objects.select_related("territory").get(faction=faction)
    ship = (
        Ship.objects.filter(fleet=fleet)
        .exclude(status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED])
        .select_related("ship_class", "fleet__faction", "fleet__territory")
        .order_by("pk")
        .first()
    )
    ship.hull_lost = max(ship.hull_lost, 1)
    ship.status = Ship.Status.DAMAGED
    ship.save(update_fields=["hull_lost", "status"])
    repair = repair_order(campaign=campaign, ship=ship, user=SYSTEM, hull=1)
    assert (repair.yard.slug, repair.hull, repair.ordered_turn) == (YARDS[faction_slug][0], 1, 1)
    assert (repair.cost, repair.unit_costs["hull"]) == (1, 1)  # a hull box at half price
    built = construction_order(
        campaign=campaign, user=SYSTEM, faction=faction, yard=fleet.territory, fleet=fleet,
        light_kind="fighter",
    )  # fmt: skip
    assert (built.yard.slug, built.fleet_id, built.cost) == (YARDS[faction_slug][0], fleet.pk, 18)
    balance = treasury_balance(campaign=campaign, faction=faction)
    assert balance.resources == 500 - 1 - 18
