"""Fast as fleets grow: every list and detail page and API endpoint takes the
same number of SQL queries whether the fleet has 3 ships or 100 (and the battle 3
participants or 100), for the public and for an organiser.

Each test counts the queries with the page league as built (``world``: a 3-ship
squadron), grows the fleet to 100 ships fighting in the battle, each carrying a fighter
group, and asserts the same count with ``django_assert_num_queries``.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import Participant
from factions.models import LightUnitGroup, Ship


def _urls(world) -> list[str]:
    fleet, ship, battle = world.public_fleet, world.damaged_ship, world.battle
    return [
        "/",
        f"/campaigns/{world.cast.campaign.slug}/",
        "/factions/qatzrin/",
        f"/fleets/{fleet.slug}/",
        f"/ships/{ship.pk}/",
        f"/classes/{world.saar.pk}/",
        f"/battles/{battle.pk}/",
        "/api/factions",
        "/api/factions/qatzrin",
        "/api/fleets",
        f"/api/fleets/{fleet.slug}",
        f"/api/ships/{world.carrier.pk}",
        "/api/battles",
        f"/api/battles/{battle.pk}",
        "/api/designs",
        f"/api/designs/{world.saar.pk}",
    ]


def _grow(world, ships: int = 100) -> None:
    """The public fleet to ``ships`` ships, all in the battle, each with a fighter group."""
    fleet = world.public_fleet
    side = world.battle.sides.get(faction=world.cast.qatzrin)
    missing = ships - fleet.ships.count()
    new = Ship.objects.bulk_create(
        [Ship(ship_class=world.saar, fleet=fleet, name=f"Grown {i}") for i in range(missing)]
    )
    groups = LightUnitGroup.objects.bulk_create(
        [
            LightUnitGroup(
                name=f"Wing {i}", kind="fighter", faction=world.cast.qatzrin, carrier=s, size=6
            )
            for i, s in enumerate(new)
        ]
    )
    Participant.objects.bulk_create(
        [Participant(side=side, ship=s, fate="damaged", hull_lost=1) for s in new]
        + [Participant(side=side, light_units=g) for g in groups]
    )


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


@pytest.mark.parametrize("who", [None, "organiser"])
def test_queries_stay_flat_from_3_to_100_ships(world, who, django_assert_num_queries):
    client = Client()
    if who:
        client.force_login(getattr(world.cast, who))
    urls = _urls(world)
    small = {url: _count(client, url) for url in urls}
    _grow(world)
    assert world.public_fleet.ships.count() == 100
    for url in urls:
        with django_assert_num_queries(small[url]):
            assert client.get(url).status_code == 200, url


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", [None, "organiser"])
def test_cached_fleet_page_and_api_stay_flat_and_smaller(world, who):
    """The fleet page and API answered from their cache (factions.fleet_cache; committed
    data, so the caches are in use) take the same queries for 3 and 100 ships, fewer than
    when built."""
    from django.core.cache import cache

    cache.clear()
    client = Client()
    if who:
        client.force_login(getattr(world.cast, who))
    urls = [f"/fleets/{world.public_fleet.slug}/", f"/api/fleets/{world.public_fleet.slug}"]
    built = {url: _count(client, url) for url in urls}
    hit = {url: _count(client, url) for url in urls}
    assert all(hit[url] < built[url] for url in urls), (hit, built)
    _grow(world)
    for url in urls:
        assert _count(client, url) == built[url]  # the write changed the version: built
        assert _count(client, url) == hit[url]
