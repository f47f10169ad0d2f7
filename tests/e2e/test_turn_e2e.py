"""A turn at the table, in headless Chromium: a player orders repairs on a 390 px phone
(quote, then confirm), the organiser closes the turn at 1280 px, the fleet page shows what
is left and when it ends. No page is wider than the phone."""

from __future__ import annotations

import pytest

from campaign.turns.closing import campaign_turn_open
from campaign.turns.models import CampaignTurn, RepairOrder
from campaign.turns.treasury import treasury_adjust
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.e2e


def _login(page, base, username):
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(base + "/")


def _fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_player_orders_repairs_on_a_phone_and_the_organiser_closes_the_turn(
    live_server,
    browser,
    sample,
):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign, faction=s.norge, resources=100, reason="chest", user=s.organiser
    )
    ship = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk").first()
    norway_battle(
        s.campaign,
        s.fleet,
        {ship: {"fate": "damaged", "hull_lost": 20, "systems_lost": ["beam-a"]}},
    )

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    _login(phone, live_server.url, "norge_player")
    phone.goto(f"{live_server.url}/ships/{ship.pk}/")
    _fits(phone, 390)
    phone.get_by_role("link", name="Ordonner des réparations (Sample campaign: Miranda)").click()
    phone.get_by_role("button", name="Coût et tours").click()
    quote = phone.locator(".quote")
    quote.wait_for(state="visible")
    # 20 hull + 4 crew (D-9) + beam-a (2 units) = 26 units at 12 a turn: three turn ends;
    # 20 + 4 + 9 resources (half Fleet Book points)
    assert (
        "Coût\u202f: 33 ressources\u202f; 26 unités de travail à Trøndelag." in quote.inner_text()
    )
    assert "3 fins de tour (tour 3)" in quote.inner_text()
    _fits(phone, 390)
    phone.get_by_role("button", name="Confirmer l’ordre").click()
    phone.wait_for_url(f"**{s.fleet.get_absolute_url()}")
    assert phone.locator("#h-repairs").is_visible()
    _fits(phone, 390)

    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    _login(desk, live_server.url, "organiser")
    desk.goto(f"{live_server.url}/campaigns/sample/turn/")
    assert desk.locator("#h-yards + h3").inner_text() == "Trøndelag"
    desk.get_by_role("button", name="Clore le tour").click()
    assert CampaignTurn.objects.get(campaign=s.campaign, number=1).status == "open"  # unticked
    # The close form's box (a queue row's cancel has one too, behind its button).
    desk.locator("form[action$='/turn/close/'] input[name=confirm]").check()
    desk.get_by_role("button", name="Clore le tour").click()
    desk.wait_for_url("**/campaigns/sample/turn/")
    assert (
        "Tour clos" in desk.locator(".messages").inner_text()
        or desk.locator(".messages").count() == 1
    )
    order = RepairOrder.objects.get(ship=ship)
    assert (order.hull_done, order.eta_turn) == (12, 3)

    phone.goto(f"{live_server.url}{s.fleet.get_absolute_url()}")
    row = phone.locator("#h-repairs + table tbody tr").first.inner_text()
    assert "coque 8, blindage 0, équipage 4, systèmes 1" in row and row.rstrip().endswith("3")
    _fits(phone, 390)
