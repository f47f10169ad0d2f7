"""A fleet's roster sheet PDF: each ship with its diagram, A4; who may see the fleet only."""

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from factions.commanders.models import Commander
from factions.models import Fleet, Ship
from factions.web.roster import roster_html
from tests.conftest import client_for
from tests.world import add_ships


def pdf(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def text(reader):
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_sheet_names_every_ship_its_damage_and_draws_it(world):
    Commander.objects.create(
        faction=world.cast.qatzrin, name="Ari Ben-Dor", rank="captain", ship=world.damaged_ship
    )
    reader = pdf(client_for(world.cast, None, None).get("/fleets/qatzrin-5th/roster.pdf"))
    body = text(reader)
    for name in ("5e flotte d'incursion", "Nimrod", "Namadira 1", "Namadira 2", "Lydia"):
        assert name in body
    assert "Ari Ben-Dor" in body
    # A4 portrait (595 × 842 points); the summary table, then one block a ship.
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    assert 2 <= len(reader.pages) <= 6
    # The summary table and each ship's own block name its class: three Sa'ar, 6 times.
    assert body.count("Sa'ar") >= 6


@pytest.mark.parametrize(
    ("who", "status"),
    [
        (None, 404),
        ("outsider", 404),
        ("chronicler", 404),
        ("norge_player", 404),
        ("other_org", 404),
        ("qatzrin_player", 200),
        ("organiser", 200),
        ("staff", 200),
    ],
)
def test_a_hidden_fleets_sheet_is_for_who_may_see_the_fleet(world, rival, who, status):
    response = client_for(world.cast, rival, who).get("/fleets/qatzrin-shadow/roster.pdf")
    assert response.status_code == status
    if status == 200:
        assert "Tzel" in text(pdf(response))


def test_the_fleet_page_links_the_sheet_and_the_ships_file(world):
    html = client_for(world.cast, None, None).get("/fleets/qatzrin-5th/").content.decode()
    assert 'href="/fleets/qatzrin-5th/roster.pdf"' in html
    assert 'href="/fleets/qatzrin-5th/ships.csv"' in html


def test_the_sheets_page_reads_the_same_queries_for_3_and_100_ships(world):
    Fleet.objects.create(faction=world.cast.qatzrin, name="Grown", slug="grown")
    # Read as the view reads it (``fleet_cache.visible_fleet``): faction and admiral with it.
    fleet = Fleet.objects.select_related("faction", "admiral").get(slug="grown")
    add_ships(fleet, world.saar, 3)
    with CaptureQueriesContext(connection) as small:
        html = roster_html(fleet)
    assert html.count('class="roster-ship"') == 3
    add_ships(fleet, world.saar, 97, prefix="More")
    with CaptureQueriesContext(connection) as large:
        html = roster_html(fleet)
    assert html.count('class="roster-ship"') == 100
    assert len(large) == len(small)


@pytest.mark.django_db(transaction=True)
def test_a_sheet_is_rendered_once_per_version_of_the_fleet(world):
    client = client_for(world.cast, None, None)
    url = "/fleets/qatzrin-5th/roster.pdf"
    with CaptureQueriesContext(connection) as built:
        first = client.get(url)
    with CaptureQueriesContext(connection) as hit:
        again = client.get(url)
    assert again.content == first.content  # served from the fleet cache
    assert len(hit) < len(built)
    ship = Ship.objects.get(pk=world.damaged_ship.pk)
    ship.hull_lost = 3
    ship.save()  # a new version of the fleet data: a new sheet
    assert "1/4" in text(pdf(client.get(url))) and "2/4" in text(pdf(first))
