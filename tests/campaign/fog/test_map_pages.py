"""The fog of war on the map page (with its SVG) and the map API, for every role: the
hidden Shadow (Qatzrin, at Deneb) is named to its faction and the organisers, a contact
to Norge (whose Oslo Station at Sol watches Deneb, one link away), nothing to anyone else;
a rival's orders never show; the page's queries stay flat as fleets grow."""

import re

import pytest

from campaign.fog.knowledge import contact_label
from campaign.starmap.models import FleetPosition, MapMove
from campaign.starmap.movement import map_move_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet, Ship
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")

# who: (page status, sees the Shadow named, sees its contact)
MATRIX = {
    "organiser": (200, True, False),
    "staff": (200, True, False),
    "norge_player": (200, False, True),
    "qatzrin_player": (200, True, False),
    "chronicler": (200, False, False),
    "outsider": (404, False, False),
    "other_org": (404, False, False),
    None: (302, False, False),
}


@pytest.fixture
def m(starmap):
    campaign_turn_open(campaign=starmap.campaign, user=starmap.organiser)
    # A name no page would hold otherwise (CSS and scripts say "shadow").
    Fleet.objects.filter(pk=starmap.shadow.pk).update(name="Nocturne Veil", slug="nocturne-veil")
    starmap.label = contact_label(starmap.campaign.pk, starmap.shadow.pk)
    return starmap


def svg_of(body):
    return body.split("<svg", 1)[1].split("</svg>", 1)[0]


@pytest.mark.parametrize("who", list(MATRIX))
def test_map_page_and_svg(m, rival, who):
    status, named, contact = MATRIX[who]
    response = client_for(m, rival, who, HTTP_ACCEPT_LANGUAGE="en").get(
        f"/campaigns/{m.campaign.slug}/map/"
    )
    assert response.status_code == status
    if status != 200:
        return
    body = response.content.decode()
    svg = svg_of(body)
    assert ("Nocturne Veil" in svg) is named and ("Nocturne Veil" in body) is named
    assert "nocturne-veil" not in body
    assert (f"Contact {m.label} (1 blip)" in svg) is contact
    assert (f"{m.label}: 1 blip at Deneb" in body) is contact
    assert "Home Fleet" in svg and "Raiders" in svg  # public fleets, named to all


@pytest.mark.parametrize("who", list(MATRIX))
def test_map_api(m, rival, who):
    status, named, contact = MATRIX[who]
    response = client_for(m, rival, who).get(f"/api/campaigns/{m.campaign.slug}/map")
    assert response.status_code == {None: 401}.get(who, status)
    if response.status_code != 200:
        return
    data = response.json()
    assert ("Nocturne Veil" in response.content.decode()) is named
    expected = [
        {
            "label": m.label,
            "blips": 1,
            "system": "deneb",
            "link": None,
            "how": "sensors",
            "turn": None,
        }
    ]
    assert data["contacts"] == (expected if contact else [])
    assert data["sightings"] == []


def test_last_known_position_on_the_page_the_svg_and_the_api(m):
    turn = campaign_turn_close(campaign=m.campaign, user=m.organiser).number
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    FleetPosition.objects.filter(fleet=m.shadow).update(system=m.far)
    client = client_for(m, None, "norge_player", HTTP_ACCEPT_LANGUAGE="en")
    body = client.get(f"/campaigns/{m.campaign.slug}/map/").content.decode()
    assert f"{m.label}: 1 blip, last seen at Deneb at the close of turn {turn}" in body
    assert f"{m.label} (1 blip), last seen at the close of turn {turn}" in svg_of(body)
    data = client.get(f"/api/campaigns/{m.campaign.slug}/map").json()
    assert (data["contacts"], data["sightings"]) == (
        [],
        [
            {
                "label": m.label,
                "blips": 1,
                "system": "deneb",
                "link": None,
                "how": "sensors",
                "turn": turn,
            }
        ],
    )


def test_a_rivals_orders_never_show(m):
    move = map_move_order(
        campaign=m.campaign, fleet=m.raiders, destination=m.deneb, user=m.qatzrin_player
    )
    norge = client_for(m, None, "norge_player", HTTP_ACCEPT_LANGUAGE="en")
    body = norge.get(f"/campaigns/{m.campaign.slug}/map/").content.decode()
    assert f'name="fleet" value="{m.raiders.pk}"' not in body
    assert f"/map/moves/{move.pk}/cancel/" not in body and "ordered to Deneb" not in body
    data = norge.get(f"/api/campaigns/{m.campaign.slug}/map").json()
    raiders = next(f for f in data["fleets"] if f["slug"] == "raiders")
    assert raiders["destination"] is None
    qatzrin = client_for(m, None, "qatzrin_player", HTTP_ACCEPT_LANGUAGE="en")
    assert "ordered to Deneb" in qatzrin.get(f"/campaigns/{m.campaign.slug}/map/").content.decode()
    assert MapMove.objects.count() == 1


def test_page_queries_flat_as_hidden_fleets_grow(m, django_assert_max_num_queries):
    client = client_for(m, None, "norge_player")
    url = f"/campaigns/{m.campaign.slug}/map/"
    client.get(url)  # warm the session and the caches
    with django_assert_max_num_queries(40) as small:
        client.get(url)
    cls = m.shadow.ships.get().ship_class
    for i in range(30):
        fleet = Fleet.objects.create(
            faction=m.qatzrin, name=f"Ghost {i}", slug=f"ghost-{i}", hidden=True
        )
        Ship.objects.create(fleet=fleet, ship_class=cls, name=f"G{i}")
        FleetPosition.objects.create(
            campaign=m.campaign, fleet=fleet, system=[m.deneb, m.vega, m.far][i % 3]
        )
    with django_assert_max_num_queries(len(small.captured_queries)):
        body = client.get(url).content.decode()
    assert len(re.findall(r"Contact C-[0-9A-F]{6} \(1 blip\)", body)) == 21
    assert "Ghost" not in body
