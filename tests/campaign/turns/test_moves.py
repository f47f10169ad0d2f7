"""Fleet movements: ordered during a turn, carried out when it closes, undone when it
reopens; rivals see them only afterwards and only for fleets they may see; the page and
API permission matrix."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from campaign.core.messages import decode
from campaign.publish.builder import site_build
from campaign.starmap.models import FleetPosition, StarSystem
from campaign.turns.access import turn_summary_for
from campaign.turns.closing import campaign_turn_close, campaign_turn_open, campaign_turn_reopen
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.models import FleetMove
from campaign.turns.moves import fleet_move_order
from factions.models import Faction, Fleet, Territory

pytestmark = pytest.mark.django_db
WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org", None]


@pytest.fixture
def moving(sample):
    """The sample without its star map: territory-to-territory moves are those of a
    campaign with no map (with one, moves go along its links: tests/campaign/starmap)."""
    s = sample
    FleetPosition.objects.filter(campaign=s.campaign).delete()
    StarSystem.objects.filter(campaign=s.campaign).delete()
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    s.kristiansand = Territory.objects.get(slug="kristiansand")
    s.petra = Territory.objects.get(slug="petra-iv")
    return s


def test_a_move_is_carried_out_at_the_close_and_undone_at_the_reopen(moving):
    s = moving
    assert s.fleet.territory.slug == "trondelag"
    move = fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.kristiansand, user=s.norge_player
    )
    assert (move.turn, move.origin.slug, move.status) == (1, "trondelag", "queued")
    s.fleet.refresh_from_db()
    assert s.fleet.territory.slug == "trondelag"  # not before the close
    turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    s.fleet.refresh_from_db()
    move.refresh_from_db()
    assert (s.fleet.territory.slug, move.status) == ("kristiansand", "done")
    assert turn.summary["moves"] == [
        {
            "fleet": s.fleet.pk,
            "name": s.fleet.name,
            "origin": "Trøndelag",
            "destination": s.kristiansand.name,
        }
    ]
    assert decode(s.fleet.history.first().history_change_reason) == {
        "key": "turn.moved",
        "params": {"n": 1, "place": "Kristiansand"},
    }
    campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=1)
    s.fleet.refresh_from_db()
    move.refresh_from_db()
    assert (s.fleet.territory.slug, move.status) == ("trondelag", "queued")


def test_a_new_order_replaces_the_queued_one(moving):
    s = moving
    first = fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.kristiansand, user=s.norge_player
    )
    second = fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.petra, user=s.norge_player
    )
    first.refresh_from_db()
    assert (first.status, second.status) == ("cancelled", "queued")
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    s.fleet.refresh_from_db()
    assert s.fleet.territory == s.petra


def test_bad_orders_are_refused_naming_the_field(moving):
    s = moving
    trondelag = s.fleet.territory
    with translation.override("en"):
        with pytest.raises(TurnPermissionError, match="Kongeriket Norge"):
            fleet_move_order(
                campaign=s.campaign, fleet=s.fleet, destination=s.petra, user=s.qatzrin_player
            )
        with pytest.raises(TurnActionError, match="destination: .* is at Trøndelag already"):
            fleet_move_order(
                campaign=s.campaign, fleet=s.fleet, destination=trondelag, user=s.norge_player
            )
        outsiders = Faction.objects.create(name="Outsiders", slug="outsiders")
        elsewhere = Territory.objects.create(faction=outsiders, name="Far", slug="far")
        with pytest.raises(TurnActionError, match="destination: Far is not a territory"):
            fleet_move_order(
                campaign=s.campaign, fleet=s.fleet, destination=elsewhere, user=s.norge_player
            )
        campaign_turn_close(campaign=s.campaign, user=s.organiser)
        with pytest.raises(TurnActionError, match="no open turn"):
            fleet_move_order(
                campaign=s.campaign, fleet=s.fleet, destination=s.petra, user=s.norge_player
            )
    assert not FleetMove.objects.exists()


def test_rivals_see_a_hidden_fleets_move_neither_before_nor_after(moving):
    s = moving
    s.fleet.hidden = True
    s.fleet.save()
    fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.kristiansand, user=s.norge_player
    )
    rival = Client(HTTP_ACCEPT_LANGUAGE="en")
    rival.force_login(s.qatzrin_player)
    html = rival.get("/campaigns/sample/turn/").content.decode()
    assert s.fleet.name not in html
    assert rival.get("/api/campaigns/sample/moves").json() == []
    turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    assert turn_summary_for(s.qatzrin_player, turn.summary, campaign=turn.campaign)["moves"] == []
    assert (
        turn_summary_for(s.norge_player, turn.summary, campaign=turn.campaign)["moves"][0]["fleet"]
        == s.fleet.pk
    )
    html = rival.get("/campaigns/sample/turn/").content.decode()
    assert s.fleet.name not in html and "Kristiansand" not in html


def test_a_public_fleets_move_shows_in_the_summary_to_rivals(moving):
    s = moving
    fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.kristiansand, user=s.norge_player
    )
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    rival = Client(HTTP_ACCEPT_LANGUAGE="en")
    rival.force_login(s.qatzrin_player)
    html = rival.get("/campaigns/sample/turn/").content.decode()
    assert f"{s.fleet.name} moved to Kristiansand" in html


@pytest.mark.parametrize("who", WHO)
def test_move_page_matrix(moving, who):
    s = moving
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who:
        c.force_login(getattr(s, who))
    response = c.post(
        "/campaigns/sample/moves/", {"fleet": s.fleet.pk, "destination": s.kristiansand.pk}
    )
    expected = {"organiser": 302, "norge_player": 302, "chronicler": 403, None: 302}.get(who, 404)
    assert response.status_code == expected
    made = FleetMove.objects.filter(fleet=s.fleet, status="queued").first()
    assert (made is not None) is (who in ("organiser", "norge_player"))
    if made is None:
        made = fleet_move_order(
            campaign=s.campaign, fleet=s.fleet, destination=s.petra, user=s.organiser
        )
    response = c.post(f"/campaigns/sample/moves/{made.pk}/cancel/")
    assert response.status_code == expected
    made.refresh_from_db()
    assert (made.status == "cancelled") is (who in ("organiser", "norge_player"))


def test_turn_page_form_orders_and_shows_the_order(moving):
    s = moving
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(s.norge_player)
    html = c.get("/campaigns/sample/turn/").content.decode()
    assert f'name="fleet" value="{s.fleet.pk}"' in html and "Order the movement" in html
    response = c.post(
        "/campaigns/sample/moves/",
        {"fleet": s.fleet.pk, "destination": s.kristiansand.pk},
        follow=True,
    )
    html = response.content.decode()
    assert "Movement ordered." in html and "ordered to Kristiansand" in html
    response = c.post("/campaigns/sample/moves/", {"fleet": s.fleet.pk, "destination": "x"})
    html = c.get("/campaigns/sample/turn/").content.decode()
    assert "destination: &#x27;x&#x27; is not a whole number" in html


@pytest.mark.parametrize("who", WHO)
def test_move_api_matrix(moving, who):
    s = moving
    c = Client()
    if who:
        c.force_login(getattr(s, who))
    body = {
        "fleet": s.fleet.slug,
        "destination": "kristiansand",
        "destination_faction": "kongeriket-norge",
    }
    response = c.post("/api/campaigns/sample/moves", body, content_type="application/json")
    expected = {"organiser": 201, "norge_player": 201, "chronicler": 403, None: 401}.get(who, 404)
    assert response.status_code == expected, response.content
    if expected == 201:
        move = response.json()
        assert (move["origin"], move["destination"], move["status"]) == (
            "trondelag",
            "kristiansand",
            "queued",
        )
        listed = c.get("/api/campaigns/sample/moves").json()
        assert [m["id"] for m in listed] == [move["id"]]
        done = c.post(f"/api/campaigns/sample/moves/{move['id']}/cancel")
        assert done.status_code == 200 and done.json()["status"] == "cancelled"
        bad = c.post(
            "/api/campaigns/sample/moves",
            {**body, "destination": "nowhere"},
            content_type="application/json",
        )
        assert bad.status_code == 400 and "nowhere" in bad.json()["detail"]
    assert Fleet.objects.get(pk=s.fleet.pk).territory.slug == "trondelag"


def test_the_site_map_shows_a_moved_fleet_where_the_turn_left_it(moving, settings, tmp_path):
    """A movement carried out at the close is in the fleet's history at the close time:
    the baked map of that turn (campaign.publish.maps) shows the fleet at its destination."""
    s = moving
    settings.MEDIA_ROOT = tmp_path / "media"
    fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=s.kristiansand, user=s.norge_player
    )
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    html = (out / "en" / "maps" / "sample" / "turn-1.html").read_text()
    text = " ".join(re.sub(r"<[^>]+>", " ", html[html.index("<main") :]).split())
    assert f"Kristiansand moon Kongeriket Norge {s.fleet.name}" in text
    assert "Trøndelag moon · shipyard Kongeriket Norge — —" in text  # no fleet left there
