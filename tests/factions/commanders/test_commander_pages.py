"""Commander pages and API (``/commanders/<id>/``, ``/api/commanders/{id}``,
``/api/factions/{slug}/commanders``): who sees which commander, the faction page's list
(queries flat as commanders grow), links from fleet and ship pages, and the fleet-list
import creating or reusing records."""

from __future__ import annotations

from html import escape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from factions.models import Commander, Fleet, RenownAward
from factions.services import fleet_import
from tests.conftest import client_for
from tests.world import HOSTILE_MARKDOWN, add_ships

pytestmark = pytest.mark.usefixtures("english")

#: Everyone of the matrix: the cast, the other campaign's organiser, staff, anonymous.
WHO = [
    "organiser", "qatzrin_player", "norge_player", "chronicler", "outsider", "other_org",
    "staff", None,
]  # fmt: skip
#: Who sees Qatzrin's hidden fleet: its players, its campaign's organisers, staff.
SEES_QATZRIN_SECRETS = {"organiser", "qatzrin_player", "staff"}


@pytest.fixture
def people(world, rival):
    """The public fleet's admiral (Yael Dor, the world's) with renown from the world's
    battle; a captain in Qatzrin's hidden fleet; a relieved Qatzrin commander."""
    admiral = Commander.objects.get(name="Yael Dor")
    admiral.biography = HOSTILE_MARKDOWN
    admiral.save()
    RenownAward.objects.create(commander=admiral, battle=world.battle, kind="victory", points=2)
    RenownAward.objects.create(commander=admiral, battle=world.battle, kind="kills", points=1)
    hidden = Commander.objects.create(
        faction=world.cast.qatzrin, name="Shadow Captain", rank="captain", ship=world.hidden_ship
    )
    relieved = Commander.objects.create(faction=world.cast.qatzrin, name="Ret. Commodore")
    return {"admiral": admiral, "hidden": hidden, "relieved": relieved}


@pytest.mark.parametrize("who", WHO)
def test_a_public_fleets_admiral_has_a_page_anyone_reads(world, rival, people, who):
    page = client_for(world.cast, rival, who).get(people["admiral"].get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "Yael Dor" in html and escape(world.public_fleet.name) in html
    assert '<dd class="renown">3</dd>' in html
    assert "<script>window" not in html and "onerror" not in html  # biography sanitised


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("key", ["hidden", "relieved"])
def test_a_hidden_fleets_captain_and_a_relieved_commander_are_their_factions_secret(
    world, rival, people, who, key
):
    client = client_for(world.cast, rival, who)
    pk = people[key].pk
    expected = 200 if who in SEES_QATZRIN_SECRETS else 404
    assert client.get(f"/commanders/{pk}/").status_code == expected
    assert client.get(f"/api/commanders/{pk}").status_code == expected
    listed = {c["name"] for c in client.get("/api/factions/qatzrin/commanders").json()}
    assert (people[key].name in listed) == (who in SEES_QATZRIN_SECRETS)
    faction_page = client.get("/factions/qatzrin/").content.decode()
    assert (people[key].name in faction_page) == (who in SEES_QATZRIN_SECRETS)


def test_an_unknown_commander_is_404(world):
    client = client_for(world.cast, None, "organiser")
    assert client.get("/commanders/999999/").status_code == 404
    assert client.get("/api/commanders/999999").status_code == 404
    assert client.get("/api/factions/nowhere/commanders").status_code == 404


def test_the_api_answers_the_record_place_and_awards(world, rival, people):
    body = client_for(world.cast, rival, None).get(f"/api/commanders/{people['admiral'].pk}")
    assert body.json() == {
        "id": people["admiral"].pk,
        "name": "Yael Dor",
        "rank": "admiral",
        "status": "active",
        "renown": 3,
        "faction": "qatzrin",
        "biography": HOSTILE_MARKDOWN,
        "place": {
            "kind": "fleet",
            "id": world.public_fleet.pk,
            "name": world.public_fleet.name,
            "fleet": "qatzrin-5th",
        },
        "awards": [
            {"battle": world.battle.pk, "battle_name": world.battle.name, "kind": "kills",
             "points": 1},
            {"battle": world.battle.pk, "battle_name": world.battle.name, "kind": "victory",
             "points": 2},
        ],
    }  # fmt: skip
    listed = client_for(world.cast, rival, None).get("/api/factions/qatzrin/commanders").json()
    assert listed == [
        {"id": people["admiral"].pk, "name": "Yael Dor", "rank": "admiral", "status": "active",
         "renown": 3},
        {"id": Commander.objects.get(name="Ari").pk, "name": "Ari", "rank": "commander",
         "status": "active", "renown": 0},
    ]  # fmt: skip
    # A page at a time, the total in the header; a negative limit is 422.
    page = client_for(world.cast, rival, None).get(
        "/api/factions/qatzrin/commanders", {"limit": 1, "offset": 1}
    )
    assert ([c["name"] for c in page.json()], page["X-Total-Count"]) == (["Ari"], "2")
    assert (
        client_for(world.cast, rival, None)
        .get("/api/factions/qatzrin/commanders", {"limit": -1})
        .status_code
        == 422
    )


def test_a_captured_captain_aboard_a_hidden_fleet_does_not_show_where(world, rival):
    """Their own faction sees the record, never the place in another faction's hidden
    fleet."""
    prisoner = Commander.objects.create(
        faction=world.cast.qatzrin, name="Cpt Prisoner", rank="captain", status="captured",
        ship=world.norge_hidden_ship,
    )  # fmt: skip
    client = client_for(world.cast, rival, "qatzrin_player")
    page = client.get(prisoner.get_absolute_url()).content.decode()
    assert "Cpt Prisoner" in page and world.norge_hidden_ship.name not in page
    assert client.get(f"/api/commanders/{prisoner.pk}").json()["place"] is None
    assert (
        client_for(world.cast, rival, "norge_player")
        .get(f"/api/commanders/{prisoner.pk}")
        .json()["place"]["name"]
        == world.norge_hidden_ship.name
    )


def test_fleet_and_ship_pages_link_their_commanders(world, rival, people):
    captain = Commander.objects.create(
        faction=world.cast.qatzrin, name="Cpt Nimrod", rank="captain", ship=world.damaged_ship
    )
    client = client_for(world.cast, rival, None)
    fleet_page = client.get(world.public_fleet.get_absolute_url()).content.decode()
    ari = Commander.objects.get(name="Ari")
    for person in (people["admiral"], ari, captain):
        assert f'href="{person.get_absolute_url()}"' in fleet_page
    ship_page = client.get(world.damaged_ship.get_absolute_url()).content.decode()
    assert f'<a href="{captain.get_absolute_url()}">Cpt Nimrod</a>' in ship_page
    fleet = client.get("/api/fleets/qatzrin-5th").json()
    assert fleet["admiral"] == "Yael Dor"
    assert fleet["squadrons"][0]["commander"] == "Ari"
    assert {s["name"]: s["captain"] for s in fleet["ships"]}["Nimrod"] == "Cpt Nimrod"
    assert client.get(f"/api/ships/{world.damaged_ship.pk}").json()["captain"] == "Cpt Nimrod"


@pytest.mark.parametrize("who", [None, "qatzrin_player"])
def test_faction_page_costs_the_same_queries_as_commanders_grow(
    world, rival, people, who, django_assert_num_queries
):
    client = client_for(world.cast, rival, who)
    with CaptureQueriesContext(connection) as ctx:
        client.get("/factions/qatzrin/")
    baseline = len(ctx.captured_queries)
    for i in range(20):
        fleet = Fleet.objects.create(faction=world.cast.qatzrin, name=f"F{i}", slug=f"f-{i}")
        ship = add_ships(fleet, world.saar, 1)[0]
        admiral = Commander.objects.create(
            faction=world.cast.qatzrin, name=f"Adm {i}", rank="admiral", fleet=fleet
        )
        Commander.objects.create(faction=world.cast.qatzrin, name=f"Cpt {i}", ship=ship)
        RenownAward.objects.create(commander=admiral, battle=world.battle, kind="kills", points=i)
    with django_assert_num_queries(baseline):
        html = client.get("/factions/qatzrin/").content.decode()
    assert "Adm 19" in html and "Cpt 19" in html


def test_the_fleet_list_import_creates_then_reuses_the_admirals_record(world):
    qatzrin = world.cast.qatzrin
    first = fleet_import(
        faction=qatzrin, text="3 corvettes classe Sa'ar", fleet_name="Patrol", admiral="Ilan Zur"
    )
    ilan = Commander.objects.get(faction=qatzrin, name="Ilan Zur")
    assert (ilan.rank, ilan.fleet_id, ilan.status) == ("admiral", first.pk, "active")
    # The same name in the faction is the same person: moved to the new fleet (one place).
    second = fleet_import(
        faction=qatzrin, text="3 corvettes classe Sa'ar", fleet_name="Patrol 2",
        admiral=" Ilan Zur ",
    )  # fmt: skip
    assert Commander.objects.filter(name="Ilan Zur").count() == 1
    ilan.refresh_from_db()
    assert ilan.fleet_id == second.pk
    assert not Commander.objects.filter(fleet=first).exists()
