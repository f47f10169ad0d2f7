"""The standings page on a phone (390 px): the victory points table scrolls within its
frame and the charts scale to the screen, nothing widens the page; the organiser's rules
form saves and the table follows."""

from __future__ import annotations

import pytest

from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from tests.battles.scoring.scoring_fixtures import (
    record_qatzrin_victory,
    scored_battle,
    territories,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def test_standings_fit_a_phone_and_the_rules_form_saves(browser, live_server, cast,
                                                         django_user_model):  # fmt: skip
    record_qatzrin_victory(scored_battle(cast, django_user_model), cast.organiser)
    territories(cast)
    campaign_turn_open(campaign=cast.campaign, user=cast.organiser)
    campaign_turn_close(campaign=cast.campaign, user=cast.organiser)
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", "organiser")
        page.fill("#id_password", "pw-12345!")
        page.locator(".login-form button[type=submit]").click()
        page.wait_for_url(live_server.url + "/")
        page.goto(f"{live_server.url}/campaigns/{cast.campaign.slug}/standings/")
        assert page.locator("figure.chart svg").count() == 3
        for i in range(3):
            box = page.locator("figure.chart svg").nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        qatzrin = page.locator("table.vp-factions tr", has_text="Qatzrin")
        assert qatzrin.locator("td").first.inner_text() == "10"  # 3 + 5 + 2 territories
        page.locator("#scoring-rules-link").click()
        page.fill("#rule-per_holding", "4")
        page.locator("form.stack button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/campaigns/{cast.campaign.slug}/standings/")
        assert qatzrin.locator("td").first.inner_text() == "16"  # 2 territories × 4 now
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
