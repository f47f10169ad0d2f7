"""Privacy of the ship page: draft battles are listed to their campaign's
organisers (and staff) only; a ship's notes are its faction's secret."""

from __future__ import annotations

from html import escape

import pytest
from django.test import Client

from battles.models import Battle
from campaign.league.models import Intel
from tests.battles.battle_fixtures import draft_skirmish
from tests.conftest import client_for

WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", None]


@pytest.fixture
def ship_in_two_battles(cast):
    """A Qatzrin ship in a draft battle and in a concluded one; it carries notes."""
    draft = draft_skirmish(cast.campaign, slug="ambush")
    draft.name = "Secret ambush"
    draft.save()
    ship = draft.sides.get(order=0).participants.exclude(ship=None).first().ship
    ship.notes = "Captain drinks; cloaking field untested"
    ship.save()
    concluded = Battle.objects.create(
        campaign=cast.campaign, name="Old fight", slug="old-fight", status="concluded"
    )
    side = concluded.sides.create(faction=ship.fleet.faction, fleet=ship.fleet, order=0)
    side.participants.create(ship=ship)
    return ship


@pytest.mark.parametrize("who", WHO)
def test_a_draft_battle_is_listed_on_the_ship_page_to_organisers_only(
    cast, ship_in_two_battles, who
):
    page = client_for(cast, None, who).get(f"/ships/{ship_in_two_battles.pk}/").text
    assert "Old fight" in page
    draft = Battle.objects.get(slug="ambush")
    assert ("Secret ambush" in page) == (who == "organiser")
    assert (f"/battles/{draft.pk}/" in page) == (who == "organiser")


def test_another_campaigns_organiser_does_not_see_the_draft(cast, rival, ship_in_two_battles):
    client = Client()
    client.force_login(rival.organiser)
    response = client.get(f"/ships/{ship_in_two_battles.pk}/")
    assert response.status_code == 200
    assert "Old fight" in response.text  # the page, with the concluded battle
    assert "Secret ambush" not in response.text


@pytest.mark.parametrize("who", WHO)
def test_ship_notes_are_shown_to_those_who_see_the_factions_secrets(cast, ship_in_two_battles, who):
    """The ship is Qatzrin's (in the cast's campaign): its players and the organiser."""
    page = client_for(cast, None, who).get(f"/ships/{ship_in_two_battles.pk}/").text
    assert ("cloaking field untested" in page) == (who in {"organiser", "qatzrin_player"})


def test_the_faction_pages_intel_does_not_link_a_draft_first_battle(cast, ship_in_two_battles):
    """Intel is written at conclusion; a battle reopened as a draft must not be named."""
    draft = Battle.objects.get(slug="ambush")
    Intel.objects.create(
        campaign=cast.campaign,
        faction=cast.qatzrin,
        ship_class=ship_in_two_battles.ship_class,
        first_battle=draft,
    )
    player = client_for(cast, None, "qatzrin_player").get(f"/factions/{cast.qatzrin.slug}/").text
    assert escape(ship_in_two_battles.ship_class.name) in player and "Secret ambush" not in player
    organiser = client_for(cast, None, "organiser").get(f"/factions/{cast.qatzrin.slug}/").text
    assert "Secret ambush" in organiser
