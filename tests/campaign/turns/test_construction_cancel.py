"""Cancelling a construction: the refund (turns not worked; technology only before any
work), one ledger entry, the page and API permission matrix, and nothing refunded twice."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from campaign.turns.building import construction_cancel, construction_order, construction_refund
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.models import LedgerEntry
from campaign.turns.treasury import treasury_adjust, treasury_balance
from factions.models import ShipClass

pytestmark = pytest.mark.django_db
WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org", None]


@pytest.fixture
def building(sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=2000,
        technology=5,
        reason="chest",
        user=s.organiser,
    )
    s.tordenskjold = ShipClass.objects.get(faction=s.norge, name="Tordenskjold")
    s.build = construction_order(
        campaign=s.campaign,
        user=s.norge_player,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        ship_class=s.tordenskjold,
        name="Olav",
    )
    return s


def test_an_unstarted_construction_refunds_everything(building):
    s = building
    squadron = construction_order(
        campaign=s.campaign,
        user=s.norge_player,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        light_kind="gunboat",
        light_variant="emp",
        name="Skarv",
    )
    assert (squadron.cost, squadron.tech_cost) == (54, 1)  # seed: EMP gunboats, 6 × 9
    before = treasury_balance(campaign=s.campaign, faction=s.norge)
    assert construction_refund(squadron) == (54, 1)
    construction_cancel(construction=squadron, user=s.norge_player)
    after = treasury_balance(campaign=s.campaign, faction=s.norge)
    assert (after.resources - before.resources, after.technology - before.technology) == (54, 1)
    entry = LedgerEntry.objects.get(construction=squadron, kind="refund")
    assert (entry.resources, entry.technology) == (54, 1)
    assert "Skarv" in entry.reason and entry.user == s.norge_player
    squadron.refresh_from_db()
    assert squadron.status == "cancelled"
    assert construction_refund(squadron) == (0, 0)


def test_a_started_construction_refunds_the_turns_not_worked(building):
    s = building
    total, cost = s.build.turns_total, s.build.cost
    assert total >= 2  # a Tordenskjold takes more than one turn end
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    s.build.refresh_from_db()
    assert s.build.turns_left == total - 1
    assert construction_refund(s.build) == (cost * (total - 1) // total, 0)
    before = treasury_balance(campaign=s.campaign, faction=s.norge)
    construction_cancel(construction=s.build, user=s.organiser)
    after = treasury_balance(campaign=s.campaign, faction=s.norge)
    assert after.resources - before.resources == cost * (total - 1) // total
    assert after.technology == before.technology


def test_cancelling_twice_or_a_rival_is_refused_and_refunds_once(building):
    s = building
    with pytest.raises(TurnPermissionError, match="Kongeriket Norge"):
        construction_cancel(construction=s.build, user=s.qatzrin_player)
    construction_cancel(construction=s.build, user=s.norge_player)
    with translation.override("en"), pytest.raises(TurnActionError, match="Olav is cancelled"):
        construction_cancel(construction=s.build, user=s.norge_player)
    with translation.override("fr"), pytest.raises(TurnActionError, match="Olav est annulé"):
        construction_cancel(construction=s.build, user=s.norge_player)
    assert LedgerEntry.objects.filter(construction=s.build, kind="refund").count() == 1


@pytest.mark.parametrize("who", WHO)
def test_cancel_page_matrix(building, who):
    s = building
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who:
        c.force_login(getattr(s, who))
    response = c.post(f"/campaigns/sample/constructions/{s.build.pk}/cancel/", {"confirm": "yes"})
    expected = {"organiser": 302, "norge_player": 302, "chronicler": 403, None: 302}.get(who, 404)
    assert response.status_code == expected
    s.build.refresh_from_db()
    assert (s.build.status == "cancelled") is (who in ("organiser", "norge_player"))


def test_turn_page_offers_the_cancel_with_its_refund(building):
    s = building
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(s.norge_player)
    html = c.get("/campaigns/sample/turn/").content.decode()
    assert f"/campaigns/sample/constructions/{s.build.pk}/cancel/" in html
    assert f"Cancel (refund {s.build.cost} resources, 0 technology)" in html
    assert "I confirm: cancel the construction of" in html
    # Without the "I confirm" box nothing happens.
    url = f"/campaigns/sample/constructions/{s.build.pk}/cancel/"
    response = c.post(url, follow=True)
    assert "Tick “I confirm” to go on; nothing was done." in response.content.decode()
    s.build.refresh_from_db()
    assert s.build.status == "queued"
    response = c.post(url, {"confirm": "yes"}, follow=True)
    assert "Construction cancelled." in response.content.decode()
    # French page, French words
    c = Client(HTTP_ACCEPT_LANGUAGE="fr")
    c.force_login(s.norge_player)
    response = c.post(url, {"confirm": "yes"}, follow=True)
    assert "ne peut pas être annulée" in response.content.decode()


@pytest.mark.parametrize("who", WHO)
def test_cancel_api_matrix(building, who):
    s = building
    c = Client()
    if who:
        c.force_login(getattr(s, who))
    response = c.post(
        f"/api/campaigns/sample/constructions/{s.build.pk}/cancel", content_type="application/json"
    )
    expected = {"organiser": 200, "norge_player": 200, "chronicler": 403, None: 401}.get(who, 404)
    assert response.status_code == expected, response.content
    if expected == 200:
        body = response.json()
        assert body["status"] == "cancelled"
        assert (body["refunded"], body["refunded_technology"]) == (s.build.cost, 0)
        again = c.post(
            f"/api/campaigns/sample/constructions/{s.build.pk}/cancel",
            content_type="application/json",
        )
        assert again.status_code == 400 and "Olav est annulé" in again.json()["detail"]
