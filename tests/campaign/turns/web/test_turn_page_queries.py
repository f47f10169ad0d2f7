"""Fast as the campaign grows: the turn page (an organiser's and a player's) and the campaign
page take the same number of SQL queries after the sample's first turn (a few ships under
repair, turn 1 closed, turn 2 open) as when the Norwegian fleet has 100 more damaged ships
each under repair, 100 constructions and 100 ledger entries are queued, the campaign has
played 100 turns and fought 100 more battles."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import Battle, BattleSide
from campaign.turns.demo import sample_turn_demo
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder
from factions.models import Ship

GROWN = 100


def _grow(s) -> None:
    """Add :data:`GROWN` of everything the pages list (see the module docstring)."""
    campaign, fleet, yard = s.campaign, s.fleet, s.yard
    ship_class = fleet.ships.first().ship_class
    ships = Ship.objects.bulk_create(
        [
            Ship(
                ship_class=ship_class, fleet=fleet, name=f"Grown {i}", hull_lost=1, status="damaged"
            )
            for i in range(GROWN)
        ]
    )
    RepairOrder.objects.bulk_create(
        [
            RepairOrder(
                campaign=campaign, ship=ship, yard=yard, position=100 + i, hull=1, eta_turn=3
            )
            for i, ship in enumerate(ships)
        ]
    )
    Construction.objects.bulk_create(
        [
            Construction(
                campaign=campaign,
                faction=s.norge,
                yard=yard,
                fleet=fleet,
                ship_class=ship_class,
                name=f"Keel {i}",
                turns_total=3,
                turns_left=2,
                cost=10,
            )
            for i in range(GROWN)
        ]
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                campaign=campaign,
                faction=s.norge,
                turn=2,
                kind="adjustment",
                resources=1,
                reason="x",
            )
            for _ in range(GROWN)
        ]
    )
    # 100 turns played: the closed ones numbered before the open one, turn 1's summary each.
    first = campaign.turns.get(number=1)
    campaign.turns.filter(number=2).update(number=GROWN + 2)
    CampaignTurn.objects.bulk_create(
        [
            CampaignTurn(campaign=campaign, number=n, status="closed", summary=first.summary)
            for n in range(2, GROWN + 2)
        ]
    )
    battles = Battle.objects.bulk_create(
        [
            Battle(campaign=campaign, name=f"Clash {i}", slug=f"clash-{i}", campaign_turn=2)
            for i in range(GROWN)
        ]
    )
    qfleet = s.qatzrin.fleets.first()
    BattleSide.objects.bulk_create(
        [BattleSide(battle=b, faction=s.norge, fleet=fleet, order=0) for b in battles]
        + [BattleSide(battle=b, faction=s.qatzrin, fleet=qfleet, order=1) for b in battles]
    )


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


@pytest.mark.parametrize("who", ["organiser", "norge_player"])
def test_turn_and_campaign_pages_stay_flat(sample, who, django_assert_num_queries):
    sample_turn_demo(campaign=sample.campaign)
    client = Client()
    client.force_login(getattr(sample, who))
    urls = [f"/campaigns/{sample.campaign.slug}/turn/", f"/campaigns/{sample.campaign.slug}/"]
    small = {url: _count(client, url) for url in urls}
    _grow(sample)
    page = client.get(urls[0]).content.decode()
    assert "Grown 99" in page and "Keel 99" in page  # the grown rows are on the page
    for url in urls:
        with django_assert_num_queries(small[url]):
            assert client.get(url).status_code == 200, url
