"""The fleet page body and fleet API answer are cached per fleet data version and viewer
scope (``factions.fleet_cache``): every kind of committed write shows at once,
and nothing cached for one scope is served to another.

These tests commit for real (``transaction=True``): inside a test wrapped in a
transaction the caches are read around (``factions.versioning.read_version``), as they
are for any request whose transaction has written fleet data.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaign.turns.models import RepairOrder
from factions.api.fleets import FleetDetailOut, FleetShipOut
from factions.models import Ship, Territory
from factions.versioning import FLEETS, DataVersion, read_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _get(client: Client, url: str):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return response, len(queries)


def _page_and_api(client: Client, fleet) -> tuple[str, dict]:
    page, _ = _get(client, f"/fleets/{fleet.slug}/")
    api, _ = _get(client, f"/api/fleets/{fleet.slug}")
    return page.content.decode(), api.json()


def _cached(client: Client, url: str) -> bool:
    """True if a second GET of ``url`` is answered from the cache: two queries, the
    version and the fleet (an anonymous client)."""
    _get(client, url)
    return _get(client, url)[1] == 2


def test_a_second_anonymous_request_takes_two_queries(world):
    client = Client()
    for url in (f"/fleets/{world.public_fleet.slug}/", f"/api/fleets/{world.public_fleet.slug}"):
        first = _get(client, url)[1]
        assert _get(client, url)[1] == 2 < first


def _rename_ship(world):
    world.damaged_ship.name = "Nimrod-Renamed"
    world.damaged_ship.save()
    return "Nimrod-Renamed"


def _update_ship(world):
    Ship.objects.filter(pk=world.damaged_ship.pk).update(name="Nimrod-Updated")
    return "Nimrod-Updated"


def _bulk_update_ship(world):
    ship = world.damaged_ship
    ship.name = "Nimrod-Bulk"
    Ship.objects.bulk_update([ship], ["name"])
    return "Nimrod-Bulk"


def _bulk_create_ship(world):
    Ship.objects.bulk_create(
        [Ship(name="Newcomer", ship_class=world.saar, fleet=world.public_fleet)]
    )
    return "Newcomer"


def _related_manager_update(world):
    world.public_fleet.ships.filter(pk=world.damaged_ship.pk).update(name="Nimrod-Related")
    return "Nimrod-Related"


def _rename_class(world):
    world.saar.name = "Sa'ar-Mk2"
    world.saar.save()
    return "Sa&#x27;ar-Mk2"


def _rename_squadron(world):
    squadron = world.damaged_ship.squadron
    squadron.name = "Escadre Renamed"
    squadron.save()
    return "Escadre Renamed"


def _repair_order(world):
    yard = Territory.objects.create(
        faction=world.cast.qatzrin, name="Qatzrin Yards", slug="q-yards", shipyard_capacity=4
    )
    RepairOrder.objects.create(
        campaign=world.cast.campaign, ship=world.damaged_ship, yard=yard, hull=2
    )
    return "Qatzrin Yards"


@pytest.mark.parametrize(
    "write",
    [
        _rename_ship,
        _update_ship,
        _bulk_update_ship,
        _bulk_create_ship,
        _related_manager_update,
        _rename_class,
        _rename_squadron,
        _repair_order,
    ],
)
def test_every_write_path_shows_at_once_on_the_cached_page(world, write):
    client = Client()
    url = f"/fleets/{world.public_fleet.slug}/"
    assert _cached(client, url)
    shown = write(world)
    page, _ = _get(client, url)
    assert shown in page.content.decode()
    assert _cached(client, url)  # and the new page is cached in turn


def test_damage_and_deletion_show_at_once_in_the_cached_api(world):
    client = Client()
    url = f"/api/fleets/{world.public_fleet.slug}"
    assert _cached(client, url)
    ship = world.damaged_ship
    ship.hull_lost = 3
    ship.save()
    row = next(s for s in client.get(url).json()["ships"] if s["id"] == ship.pk)
    assert (row["hull_lost"], row["hull_left"]) == (3, ship.ship_class.hull_boxes - 3)
    before = client.get(url).json()["ship_count"]
    world.carrier.delete()  # Nimrod fought a battle: its history protects it from deletes
    assert client.get(url).json()["ship_count"] == before - 1


def test_the_cached_api_answer_is_the_schema_and_the_uncached_one(world):
    client = Client()
    url = f"/api/fleets/{world.public_fleet.slug}"
    first = client.get(url)
    assert _cached(client, url)
    cached = client.get(url)
    assert cached["Content-Type"] == "application/json; charset=utf-8"
    assert cached.json() == first.json()
    body = cached.json()
    assert set(body) == set(FleetDetailOut.model_fields)
    assert [FleetShipOut.model_validate(s).model_dump() for s in body["ships"]] == body["ships"]
    assert body["ship_count"] == len(body["ships"]) == world.public_fleet.ships.count()


def test_a_rolled_back_write_keeps_the_version_and_a_pending_one_reads_around(world):
    before = read_version()
    assert before
    with pytest.raises(RuntimeError), transaction.atomic():
        Ship.objects.filter(pk=world.damaged_ship.pk).update(name="Never")
        assert read_version() is None  # this transaction's own write: no cache
        raise RuntimeError
    assert read_version() == before
    with transaction.atomic():
        Ship.objects.filter(pk=world.damaged_ship.pk).update(name="Committed")
    after = DataVersion.objects.get(name=FLEETS).token
    assert read_version() == after != before


def test_a_public_viewer_never_gets_the_organisers_cached_body(world):
    organiser, public = Client(), Client()
    organiser.force_login(world.cast.organiser)
    url = f"/fleets/{world.public_fleet.slug}/"
    organiser.get(url)
    organiser_keys = {k for k in cache._cache if ":faction" in k}  # locmem's own dict
    assert len(organiser_keys) == 1
    # Plant a marker in the organiser's entry: a public viewer must not be served it.
    key = next(iter(organiser_keys)).split(":", 2)[2]  # strip locmem's ":1:" prefix
    cache.set(key, "<p>ORGANISER-ONLY</p>")
    assert "ORGANISER-ONLY" in organiser.get(url).content.decode()
    assert "ORGANISER-ONLY" not in public.get(url).content.decode()


def test_a_hidden_fleet_cached_for_its_faction_stays_404_to_others(world, django_user_model):
    player = Client()
    player.force_login(world.cast.qatzrin_player)
    for url in (f"/fleets/{world.hidden_fleet.slug}/", f"/api/fleets/{world.hidden_fleet.slug}"):
        assert _get(player, url)[0].status_code == 200
        assert player.get(url).status_code == 200  # now from the cache
        for who in (None, world.cast.norge_player, world.cast.outsider):
            other = Client()
            if who:
                other.force_login(who)
            assert other.get(url).status_code == 404, (url, who)
