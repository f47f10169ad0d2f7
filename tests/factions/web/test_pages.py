"""Faction, fleet, ship and ship-class pages: content, scoping of hidden fleets, query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from factions.designs.construction import squadron_points
from factions.models import Fleet, Ship, Squadron, Territory
from factions.ssd import draw as ssd
from tests.world import HOSTILE_MARKDOWN, add_ships


def get_as(client, user, url):
    if user is not None:
        client.force_login(user)
    return client.get(url)


# --- faction page -------------------------------------------------------------------------


def test_faction_page_shows_profile_territories_fleets_and_classes(client, world):
    response = client.get(reverse("faction-detail", kwargs={"slug": "kongeriket-norge"}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nova Oslo" in html and "Kong Harald IX" in html
    assert "Fjordheim" in html
    assert "Hjemmeflåten" in html
    assert reverse("shipclass-detail", kwargs={"pk": world.escort.pk}) in html


def test_faction_page_of_unknown_slug_is_404(client, db):
    assert client.get(reverse("faction-detail", kwargs={"slug": "nobody"})).status_code == 404


@pytest.mark.parametrize("who", [None, "outsider", "chronicler", "qatzrin_player"])
def test_faction_page_never_lists_a_hidden_fleet_to_others(client, world, who):
    user = getattr(world.cast, who) if who else None
    html = get_as(client, user, reverse("faction-detail", kwargs={"slug": "kongeriket-norge"}))
    html = html.content.decode()
    assert "Hjemmeflåten" in html
    assert "Skyggeflåten" not in html
    assert "norge-shadow" not in html


@pytest.mark.parametrize("who", ["norge_player", "organiser"])
def test_faction_page_lists_the_hidden_fleet_to_its_players_and_organisers(client, world, who):
    url = reverse("faction-detail", kwargs={"slug": "kongeriket-norge"})
    html = get_as(client, getattr(world.cast, who), url).content.decode()
    assert "Skyggeflåten" in html
    assert reverse("fleet-detail", kwargs={"slug": "norge-shadow"}) in html


def test_hostile_markdown_in_a_faction_description_is_inert(client, world):
    html = client.get(reverse("faction-detail", kwargs={"slug": "kongeriket-norge"}))
    html = html.content.decode()
    assert "<strong>puissance</strong>" in html
    assert "window.pwned" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    assert "<script>window" not in html
    assert "onerror" not in html
    assert "javascript:" not in html


def test_faction_page_costs_the_same_queries_for_many_fleets_and_classes(
    client, world, django_assert_num_queries
):
    url = reverse("faction-detail", kwargs={"slug": "qatzrin"})
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    baseline = len(ctx.captured_queries)
    for i in range(30):
        fleet = Fleet.objects.create(faction=world.cast.qatzrin, name=f"F{i}", slug=f"f-{i}")
        add_ships(fleet, world.saar, 2)
        Territory.objects.create(faction=world.cast.qatzrin, name=f"T{i}", slug=f"t-{i}")
    with django_assert_num_queries(baseline):
        response = client.get(url)
    assert "F29" in response.content.decode()


# --- fleet page ---------------------------------------------------------------------------


def test_fleet_page_lists_squadrons_ships_state_light_units_and_points(client, world):
    response = client.get(reverse("fleet-detail", kwargs={"slug": "qatzrin-5th"}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Escadre Nimrod" in html and "Ari" in html
    assert "Nimrod" in html and "Namadira 1" in html and "Lydia" in html
    assert reverse("ship-detail", kwargs={"pk": world.damaged_ship.pk}) in html
    assert reverse("shipclass-detail", kwargs={"pk": world.saar.pk}) in html
    # Nimrod lost 2 hull boxes and 1 armour box.
    saar = world.saar
    assert f"{saar.hull_boxes - 2}/{saar.hull_boxes}" in html
    assert f"{saar.armour - 1}/{saar.armour}" in html
    assert "Najna-1" in html and "4/6" in html
    # Three Sa'ar and a Kineret at their catalogue points; the Kineret's four bays hold a
    # squadron of 6 long-range fighters each (priced by factions.designs.construction, whose figures
    # are tested there); plus a beam-2 battery based on no carrier.
    totals = response.context["totals"]
    bays = 4 * squadron_points("long-range-fighter", size=6)
    battery = squadron_points("battery", size=1, variant="beam-2")
    assert bays > 0 and battery > 0
    ships = 3 * saar.points + world.kineret.points
    assert (totals.ship_points, totals.squadron_points) == (ships, bays + battery)
    assert totals.points == ships + bays + battery and totals.unpriced == 0
    assert f">{totals.points}<" in html.replace(" ", "").replace("\n", "")
    assert "Tzel" not in html  # the ship of the hidden fleet
    # The damaged share is fleet points, not hull boxes: it must not read "N hull points".
    assert totals.damaged == 1 and totals.damaged_points > 2
    assert f"la coque perdue vaut {totals.damaged_points} points" in html


def test_hostile_markdown_in_fleet_and_territory_descriptions_is_inert(client, world):
    world.public_fleet.description = HOSTILE_MARKDOWN
    world.public_fleet.save()
    Territory.objects.filter(faction=world.cast.norge).update(description=HOSTILE_MARKDOWN)
    for url in (
        reverse("fleet-detail", kwargs={"slug": "qatzrin-5th"}),
        reverse("faction-detail", kwargs={"slug": "kongeriket-norge"}),
    ):
        html = client.get(url).content.decode()
        assert "<strong>puissance</strong>" in html
        assert "<script>window" not in html and "onerror" not in html
        assert "javascript:" not in html


def test_fleet_points_say_when_some_classes_have_no_points(client, world):
    response = client.get(reverse("fleet-detail", kwargs={"slug": "norge-home"}))
    totals = response.context["totals"]
    assert (totals.ships, totals.points, totals.unpriced) == (2, 0, 2)
    assert "Points" not in response.content.decode().split("</dl>")[0]


@pytest.mark.parametrize("who", [None, "outsider", "chronicler", "qatzrin_player"])
def test_hidden_fleet_and_its_ships_are_404_for_others(client, world, who):
    user = getattr(world.cast, who) if who else None
    if user is not None:
        client.force_login(user)
    assert client.get(reverse("fleet-detail", kwargs={"slug": "norge-shadow"})).status_code == 404
    url = reverse("ship-detail", kwargs={"pk": world.norge_hidden_ship.pk})
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("who", ["norge_player", "organiser"])
def test_hidden_fleet_and_its_ships_are_visible_to_own_faction_and_organisers(client, world, who):
    client.force_login(getattr(world.cast, who))
    response = client.get(reverse("fleet-detail", kwargs={"slug": "norge-shadow"}))
    assert response.status_code == 200
    assert "Fenrir" in response.content.decode()
    url = reverse("ship-detail", kwargs={"pk": world.norge_hidden_ship.pk})
    assert client.get(url).status_code == 200


def _fleet_page_queries(client, slug):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(reverse("fleet-detail", kwargs={"slug": slug})).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("who", [None, "qatzrin_player"])
def test_fleet_page_of_100_ships_costs_the_same_queries_as_3(
    client, world, who, django_assert_num_queries
):
    if who:
        client.force_login(getattr(world.cast, who))
    small = Fleet.objects.create(faction=world.cast.qatzrin, name="Small", slug="small")
    add_ships(small, world.saar, 3)
    baseline = _fleet_page_queries(client, "small")

    big = Fleet.objects.create(faction=world.cast.qatzrin, name="Big", slug="big")
    squadrons = [Squadron.objects.create(fleet=big, name=f"Sq {i}") for i in range(5)]
    for i, squadron in enumerate(squadrons):
        add_ships(big, world.saar if i % 2 else world.kineret, 20, squadron=squadron)
    with django_assert_num_queries(baseline):
        response = client.get(reverse("fleet-detail", kwargs={"slug": "big"}))
    assert response.context["totals"].ships == 100


# --- ship and ship-class pages ------------------------------------------------------------


def test_ship_page_shows_state_and_its_damaged_ssd(client, world):
    response = client.get(reverse("ship-detail", kwargs={"pk": world.damaged_ship.pk}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nimrod" in html and "5e flotte d&#x27;incursion" in html
    assert f"{world.saar.hull_boxes - 2}/{world.saar.hull_boxes}" in html  # hull left
    lost = world.damaged_ship.systems_lost
    assert len(lost) == 2 and all(system_id in html for system_id in lost)
    figure = html.split('<figure class="ssd"', 1)[1].split("</figure>", 1)[0]
    assert "<svg" in figure
    assert f'data-system="{lost[0]}"' in figure


def test_ship_page_renders_without_a_design(client, world):
    ship = Ship.objects.filter(fleet=world.norge_fleet).first()
    response = client.get(reverse("ship-detail", kwargs={"pk": ship.pk}))
    assert response.status_code == 200
    assert '<figure class="ssd"' not in response.content.decode()


def test_ship_page_survives_an_ssd_that_cannot_be_drawn(client, world, monkeypatch):
    def broken(ship):
        raise ValueError("unreadable design")

    monkeypatch.setattr(ssd, "ship_svg", broken)
    response = client.get(reverse("ship-detail", kwargs={"pk": world.damaged_ship.pk}))
    assert response.status_code == 200
    assert '<figure class="ssd"' not in response.content.decode()


def test_ship_class_page_shows_stats_systems_ssd_and_only_visible_ships(client, world):
    url = reverse("shipclass-detail", kwargs={"pk": world.saar.pk})
    html = client.get(url).content.decode()
    assert "Sa&#x27;ar" in html and "corvette" in html
    for system in world.saar.design["systems"]:
        assert f"<code>{system['id']}</code>" in html
        assert system.get("weapon", "") in html
    assert "<svg" in html.split('<figure class="ssd"', 1)[1]
    assert "Nimrod" in html
    assert "Tzel" not in html  # in Qatzrin's hidden fleet

    client.force_login(world.cast.qatzrin_player)
    assert "Tzel" in client.get(url).content.decode()


def test_ship_class_page_of_unknown_pk_is_404(client, db):
    assert client.get(reverse("shipclass-detail", kwargs={"pk": 999})).status_code == 404
