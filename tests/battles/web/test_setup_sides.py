"""The set-up page offers only the chosen sides' units, names each fleet's faction and
tells same-named ships apart."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from factions.models import Fleet, Ship, Squadron

pytestmark = pytest.mark.django_db


@pytest.fixture
def norge_ship(league):
    """A Norwegian ship: the cast's campaign's third faction, not in the skirmish."""
    q = Ship.objects.filter(fleet__faction__slug="qatzrin").first()
    fleet = Fleet.objects.create(faction=league.norge, name="Nordflåten", slug="nordflaten")
    return Ship.objects.create(ship_class=q.ship_class, fleet=fleet, name="Tordenskjold")


def _sides(league):
    phalon = league.battle.sides.get(faction__slug="phalon").faction
    return league.qatzrin.pk, phalon.pk


def test_only_the_chosen_sides_ships_are_offered(client, league, norge_ship):
    client.force_login(league.organiser)
    url = reverse("battle-setup", args=[league.campaign.slug])
    # Before the sides are chosen every eligible ship is offered.
    assert f'name="ships" value="{norge_ship.pk}"' in client.get(url).content.decode()
    qatzrin, phalon = _sides(league)
    # htmx asks for the page with the two sides; the units part lists theirs only.
    page = client.get(
        url, {"faction_a": qatzrin, "faction_b": phalon}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f'name="ships" value="{norge_ship.pk}"' not in page
    offered = Ship.objects.filter(fleet__faction__in=[qatzrin, phalon]).exclude(
        participations__isnull=False
    )
    for ship in offered:
        assert f'name="ships" value="{ship.pk}"' in page
    # Without script: the "offer these sides' units" button does the same, unchecked.
    page = client.post(
        url, {"faction_a": qatzrin, "faction_b": phalon, "choose_sides": "1"}
    ).content.decode()
    assert f'name="ships" value="{norge_ship.pk}"' not in page
    assert 'class="errors"' not in page
    # A Norwegian ship posted anyway is refused on the ships field; nothing is created.
    r = client.post(
        url,
        {
            "name": "Sneaky",
            "campaign_turn": 1,
            "faction_a": qatzrin,
            "faction_b": phalon,
            "ships": [norge_ship.pk],
        },
    )
    assert r.status_code == 200 and not league.campaign.battles.filter(name="Sneaky").exists()
    assert r.context["form"].errors["ships"]


def test_each_fleet_heading_names_its_faction(client, league, norge_ship):
    client.force_login(league.organiser)
    page = client.get(reverse("battle-setup", args=[league.campaign.slug])).content.decode()
    assert "<legend>Kongeriket Norge — Nordflåten</legend>" in page


def test_same_named_ships_are_told_apart_by_number_and_squadron(client, league, norge_ship):
    client.force_login(league.organiser)
    second = Squadron.objects.create(fleet=norge_ship.fleet, name="2nd squadron")
    twin = Ship.objects.create(
        ship_class=norge_ship.ship_class,
        fleet=norge_ship.fleet,
        squadron=second,
        name="Tordenskjold",
    )
    page = client.get(reverse("battle-setup", args=[league.campaign.slug])).content.decode()
    cls = norge_ship.ship_class.name
    assert escape(f"Tordenskjold #{norge_ship.pk} ({cls})") in page
    assert escape(f"Tordenskjold #{twin.pk} (2nd squadron) ({cls})") in page
    # A name borne once keeps its plain label.
    assert f"#{Ship.objects.filter(fleet__faction__slug='qatzrin').first().pk} (" not in page
