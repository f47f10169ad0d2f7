"""The star map API: the permission matrix, what each reader reads, orders and refusals
(400 naming the field, nothing written)."""

import json

import pytest

from campaign.starmap.models import MapMove
from campaign.starmap.movement import map_move_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")


def en_client(cast, rival, who):
    """A test client of ``who`` reading the pages and answers in English."""
    return client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def turn(starmap):
    campaign_turn_open(campaign=starmap.campaign, user=starmap.organiser)
    return starmap


def api(s, suffix=""):
    return f"/api/campaigns/{s.campaign.slug}/map{suffix}"


@pytest.mark.parametrize(
    ("who", "status", "fleets"),
    [
        ("organiser", 200, ["Home Fleet", "Raiders", "Shadow"]),
        ("norge_player", 200, ["Home Fleet", "Raiders"]),
        ("qatzrin_player", 200, ["Home Fleet", "Raiders", "Shadow"]),
        ("chronicler", 200, ["Home Fleet", "Raiders"]),
        ("outsider", 404, None),
        ("other_org", 404, None),
        ("staff", 200, ["Home Fleet", "Raiders", "Shadow"]),
        (None, 401, None),
    ],
)
def test_map_read_matrix(turn, rival, who, status, fleets):
    response = en_client(turn, rival, who).get(api(turn))
    assert response.status_code == status
    if fleets is not None:
        assert sorted(f["name"] for f in response.json()["fleets"]) == fleets


def test_map_read_shape(turn, rival):
    data = en_client(turn, rival, "norge_player").get(api(turn)).json()
    sol = next(s for s in data["systems"] if s["slug"] == "sol")
    assert sol == {
        "id": turn.sol.pk,
        "name": "Sol",
        "slug": "sol",
        "x": 100,
        "y": 100,
        "holder": "Kongeriket Norge",
        "territories": [
            {
                "id": turn.oslo.pk,
                "name": "Oslo Station",
                "kind": "station",
                "faction": "Kongeriket Norge",
                "has_shipyard": True,
            }
        ],
    }
    assert {"id": turn.vega_rigel.pk, "a": "vega", "b": "rigel", "travel_turns": 2} in data["links"]
    assert [f for f in data["fleets"] if f["faction"] == "Kongeriket Norge"] == [
        {
            "id": turn.home.pk,
            "name": "Home Fleet",
            "slug": "home-fleet",
            "faction": "Kongeriket Norge",
            "ships": 1,
            "system": "sol",
            "link": None,
            "heading": None,
            "arrival_turn": None,
            "destination": None,
        }
    ]


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("who", "fleet", "status"),
    [
        ("organiser", "raiders", 201),
        ("norge_player", "home-fleet", 201),
        ("qatzrin_player", "home-fleet", 404),
        ("chronicler", "home-fleet", 403),
        ("outsider", "home-fleet", 404),
        ("other_org", "home-fleet", 404),
        (None, "home-fleet", 401),
    ],
)
def test_move_create_matrix(turn, rival, who, fleet, status):
    client = en_client(turn, rival, who)
    response = post(client, api(turn, "/moves"), {"fleet": fleet, "destination": "vega"})
    assert response.status_code == status
    assert MapMove.objects.count() == (1 if status == 201 else 0)


def test_move_create_answer_and_cancel(turn, rival):
    client = en_client(turn, rival, "norge_player")
    response = post(client, api(turn, "/moves"), {"fleet": "home-fleet", "destination": "rigel"})
    body = response.json()
    assert {k: body[k] for k in ("turn", "fleet", "origin", "destination", "route")} == {
        "turn": 1,
        "fleet": "home-fleet",
        "origin": "sol",
        "destination": "rigel",
        "route": ["sol", "deneb", "rigel"],
    }
    assert (body["travel_turns"], body["status"]) == (2, "queued")
    cancel = api(turn, f"/moves/{body['id']}/cancel")
    assert en_client(turn, rival, "qatzrin_player").post(cancel).status_code == 404
    assert client.post(cancel).json()["status"] == "cancelled"
    assert client.post(cancel).status_code == 400


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"fleet": "home-fleet", "destination": "far"},
            "destination: no link leads from Sol to Far",
        ),
        (
            {"fleet": "home-fleet", "destination": "nowhere"},
            "destination: no system 'nowhere' on this map",
        ),
        (
            {"fleet": "home-fleet", "destination": "sol"},
            "destination: Home Fleet is in Sol already",
        ),
    ],
)
def test_bad_move_is_400_naming_the_field(turn, rival, body, detail):
    response = post(en_client(turn, rival, "norge_player"), api(turn, "/moves"), body)
    assert response.status_code == 400
    assert detail in json.dumps(response.json(), ensure_ascii=False)
    assert MapMove.objects.count() == 0


def test_missing_field_is_422(turn, rival):
    response = post(
        en_client(turn, rival, "norge_player"), api(turn, "/moves"), {"fleet": "home-fleet"}
    )
    assert response.status_code == 422
    assert MapMove.objects.count() == 0


def test_map_read_at_a_closed_turn_and_bad_turn(turn, rival, django_capture_on_commit_callbacks):
    s = turn
    s.shadow.delete()
    map_move_order(campaign=s.campaign, fleet=s.home, destination=s.vega, user=s.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_close(campaign=s.campaign, user=s.organiser)
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    map_move_order(campaign=s.campaign, fleet=s.home, destination=s.sol, user=s.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_close(campaign=s.campaign, user=s.organiser)
    client = en_client(s, rival, "norge_player")
    at = {t: client.get(api(s), {"turn": t}).json() for t in (1, 2)}
    # The Raiders are public: the fog of war names them to every faction.
    assert [(f["name"], f["system"]) for f in at[1]["fleets"]] == [
        ("Home Fleet", "vega"),
        ("Raiders", "rigel"),
    ]
    assert [(f["name"], f["system"]) for f in at[2]["fleets"]] == [
        ("Home Fleet", "sol"),
        ("Raiders", "rigel"),
    ]
    assert client.get(api(s), {"turn": 0}).status_code == 422
    assert client.get(api(s), {"turn": 10**30}).status_code == 422
    # A turn the campaign never had: 422 naming ``turn``, not today's map under its number.
    never = client.get(api(s), {"turn": 99})
    assert never.status_code == 422
    assert never.json()["detail"] == "turn: Test league has no turn 99"


def test_another_campaigns_hidden_fleet_is_404_and_never_named(turn, rival):
    """A fleet of another campaign is 404 for this campaign's organiser, as if it did not
    exist: its name is in no answer."""
    Fleet.objects.create(
        faction=rival.phalon, name="Secret Armada", slug="secret-armada", hidden=True
    )
    client = en_client(turn, rival, "organiser")
    response = post(client, api(turn, "/moves"), {"fleet": "secret-armada", "destination": "vega"})
    assert response.status_code == 404
    assert "Secret Armada" not in response.content.decode()
    assert MapMove.objects.count() == 0
