"""The star map on a 390 px phone, in headless Chromium: a Norwegian player reads the map
(it scrolls inside its box, the page never wider than the phone, no CSP violation),
orders their fleet to New Bergen and sees the order listed; the rivals' public fleets are
on the map (the fog of war names public fleets to everyone) but never in the move form."""

from __future__ import annotations

import pytest

from campaign.starmap.models import MapMove
from campaign.turns.closing import campaign_turn_open
from tests.e2e.test_csp_e2e import RECORD_VIOLATIONS

pytestmark = pytest.mark.e2e


def _login(page, base, username):
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(base + "/")


def test_a_player_orders_a_move_on_a_phone(live_server, browser, sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    phone.set_default_timeout(15_000)
    _login(phone, live_server.url, "norge_player")
    phone.add_init_script(RECORD_VIOLATIONS)  # the drawn SVG keeps to the CSP
    phone.goto(f"{live_server.url}/campaigns/{s.campaign.slug}/map/")
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("window.__csp") == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    svg = phone.locator(".starmap-scroll svg")
    assert svg.bounding_box()["width"] >= 640  # legible: the box scrolls instead
    assert phone.locator(".starmap-scroll").bounding_box()["width"] <= 390
    text = phone.locator("main").inner_text()
    assert "Steffen Konalson" in text and "68th reprisal fleet" in text
    assert "68th reprisal fleet" not in phone.locator("#move-fleet").inner_text()
    phone.select_option("#move-destination", label="New Bergen")
    phone.get_by_role("button", name="Ordonner le mouvement").click()
    phone.wait_for_selector(".starmap-orders li")
    assert "rejoindre New Bergen" in phone.locator(".starmap-orders").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    move = MapMove.objects.get()
    assert (move.fleet, move.destination.slug, move.status) == (s.fleet, "new-bergen", "queued")
