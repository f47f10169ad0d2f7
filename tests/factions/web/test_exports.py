"""CSV downloads of fleets and ships: scoped like the pages (a hidden fleet only for those
who may see it), exact rows with the damage, filters, formula-safe cells, flat queries."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from factions.commanders.models import Commander
from factions.models import Fleet, Ship
from tests.conftest import client_for
from tests.world import add_ships

SHIPS = "/campaigns/test-league/ships.csv"
FLEETS = "/campaigns/test-league/fleets.csv"
PUBLIC_SHIPS = {"Nimrod", "Namadira 1", "Namadira 2", "Lydia", "Draug 1", "Draug 2"}


def rows(response):
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:])))


@pytest.mark.parametrize(
    ("who", "secret"),
    [
        (None, set()),
        ("outsider", set()),
        ("chronicler", set()),
        ("other_org", set()),
        ("norge_player", {"Fenrir"}),
        ("qatzrin_player", {"Tzel"}),
        ("organiser", {"Fenrir", "Tzel"}),
        ("staff", {"Fenrir", "Tzel"}),
    ],
)
def test_the_ships_file_holds_what_the_viewer_may_see(world, rival, who, secret):
    got = {r["ship"] for r in rows(client_for(world.cast, rival, who).get(SHIPS))}
    assert got == PUBLIC_SHIPS | secret


@pytest.mark.parametrize(
    ("who", "fleets"),
    [
        (None, {"qatzrin-5th", "norge-home"}),
        ("qatzrin_player", {"qatzrin-5th", "norge-home", "qatzrin-shadow"}),
        ("organiser", {"qatzrin-5th", "norge-home", "qatzrin-shadow", "norge-shadow"}),
    ],
)
def test_the_fleets_file_holds_what_the_viewer_may_see(world, rival, who, fleets):
    got = rows(client_for(world.cast, rival, who).get(FLEETS))
    assert {r["slug"] for r in got} == fleets


def test_a_ship_row_carries_its_damage_and_never_its_notes(world):
    Ship.objects.filter(pk=world.damaged_ship.pk).update(notes="secret plan")
    Commander.objects.create(
        faction=world.cast.qatzrin, name="Dor", rank="captain", ship=world.damaged_ship
    )
    (row,) = [
        r
        for r in rows(client_for(world.cast, None, "organiser").get(SHIPS))
        if r["ship"] == "Nimrod"
    ]
    saar = world.saar
    assert row == {
        "id": str(world.damaged_ship.pk),
        "faction": "Qatzrin",
        "fleet": "5e flotte d'incursion",
        "squadron": "Escadre Nimrod",
        "ship": "Nimrod",
        "class": "Sa'ar",
        "type": row["type"],
        "captain": "Dor",
        "status": "damaged",
        "hull_lost": "2",
        "hull_boxes": str(saar.hull_boxes),
        "armour_lost": "1",
        "armour": str(saar.armour),
        "crew_lost": "0",
        "crew_factors": str(saar.crew_factors),
        "systems_lost": " ".join(s["id"] for s in saar.design["systems"][:2]),
        "points": str(saar.points) if saar.points is not None else "",
    }
    assert (
        "secret plan" not in client_for(world.cast, None, "organiser").get(SHIPS).content.decode()
    )


def test_the_fleets_file_counts_ships_afloat(world):
    Ship.objects.filter(name="Namadira 2").update(status=Ship.Status.DESTROYED)
    got = {r["slug"]: r for r in rows(client_for(world.cast, None, None).get(FLEETS))}
    assert (got["qatzrin-5th"]["ships"], got["qatzrin-5th"]["ships_afloat"]) == ("4", "3")
    assert got["qatzrin-5th"]["hidden"] == "no"
    assert got["qatzrin-5th"]["admiral"] == "Yael Dor"


def test_filters_pick_rows_and_a_bad_one_names_its_field(world):
    client = client_for(world.cast, None, "organiser")
    got = rows(client.get(SHIPS + "?fleet=qatzrin-5th&status=damaged"))
    assert [r["ship"] for r in got] == ["Nimrod"]
    assert {r["ship"] for r in rows(client.get(SHIPS + "?name=draug"))} == {"Draug 1", "Draug 2"}
    assert [r["slug"] for r in rows(client.get(FLEETS + "?faction=qatzrin&name=ombre"))] == [
        "qatzrin-shadow"
    ]
    bad = client.get(SHIPS + "?status=sunk")
    assert bad.status_code == 400
    assert bad.content.decode().startswith("status:")


def test_a_fleet_file_is_404_where_the_fleet_page_is(world, rival):
    url = "/fleets/qatzrin-shadow/ships.csv"
    assert client_for(world.cast, rival, "norge_player").get(url).status_code == 404
    assert client_for(world.cast, rival, None).get(url).status_code == 404
    assert [r["ship"] for r in rows(client_for(world.cast, rival, "qatzrin_player").get(url))] == [
        "Tzel"
    ]


def test_cells_a_spreadsheet_would_run_are_quoted(world):
    for i, name in enumerate(('=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)")):
        ship = Ship.objects.create(name=name, ship_class=world.saar, fleet=world.public_fleet)
        Commander.objects.create(faction=world.cast.qatzrin, name=f"c{i}", ship=ship)
    got = {r["ship"] for r in rows(client_for(world.cast, None, None).get(SHIPS))}
    assert {'\'=HYPERLINK("http://x")', "'+1", "'-2", "'@SUM(A1)"} <= got


def test_campaign_of_another_league_and_unknown_ones(world, rival):
    assert (
        client_for(world.cast, rival, None).get("/campaigns/nowhere/ships.csv").status_code == 404
    )
    got = rows(client_for(world.cast, rival, "staff").get("/campaigns/other-league/ships.csv"))
    assert got == []


def test_queries_stay_flat_from_3_to_100_ships(world, django_assert_num_queries):
    client = client_for(world.cast, None, "organiser")
    fleet = Fleet.objects.create(faction=world.cast.qatzrin, name="Grown", slug="grown")
    add_ships(fleet, world.saar, 3)
    urls = (SHIPS, FLEETS, "/fleets/grown/ships.csv")
    small = {}
    for url in urls:
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        small[url] = len(captured)
    add_ships(fleet, world.saar, 97, prefix="More")
    # Captains and an admiral are rows of their own: read with the ships, not one by one.
    Commander.objects.create(faction=world.cast.qatzrin, name="Grown's admiral", fleet=fleet)
    Commander.objects.bulk_create(
        Commander(faction=world.cast.qatzrin, name=f"Captain {s.pk}", ship=s)
        for s in fleet.ships.all()
    )
    for url in urls:
        with django_assert_num_queries(small[url]):
            response = client.get(url)
        assert len(rows(response)) >= (100 if url != FLEETS else 1)
