"""Long lists on a phone (390 px): the campaign page's battle filters and page links and
the organisers' history page fit the screen; filtering through htmx replaces the list and
keeps the filter in the address."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSide
from campaign.turns.models import LedgerEntry
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def _log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")


def _fits(page, selector: str) -> None:
    for box in (
        page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())
    ):
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, (selector, box)


def test_battle_filters_and_pages_on_a_phone(browser, live_server, cast):
    for i in range(60):
        b = Battle.objects.create(
            campaign=cast.campaign, name=f"Battle {i:03}", slug=f"b{i}", status="concluded",
            campaign_turn=1 + i % 3,
        )  # fmt: skip
        BattleSide.objects.create(battle=b, faction=cast.qatzrin, order=0)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/campaigns/test-league/")
        _fits(page, "#battle-filters .field")
        _fits(page, "nav.pager a")
        assert page.locator("nav.pager").inner_text().count("page 1 sur 2") == 1
        page.fill("#bf-turn", "2")
        page.locator("#battle-filters button[type=submit]").click()
        page.wait_for_url("**turn=2**")
        page.wait_for_function("document.querySelectorAll('#battle-list tbody tr').length == 20")
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT_DIR / "lists-campaign-390.png"), full_page=True)
    finally:
        context.close()


def test_the_history_page_on_a_phone(browser, live_server, cast):
    LedgerEntry.objects.bulk_create(
        LedgerEntry(campaign=cast.campaign, faction=cast.norge, turn=1, kind="income",
                    resources=i, reason=f"r{i}")
        for i in range(70)
    )  # fmt: skip
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _log_in(page, live_server, "organiser")
        page.goto(f"{live_server.url}/campaigns/test-league/history/")
        _fits(page, "#history-filters .field")
        _fits(page, "nav.pager a")
        page.select_option("#id_kind", "member")
        page.locator("#history-filters button[type=submit]").click()
        page.wait_for_url("**kind=member**")
        page.wait_for_function(
            "document.querySelectorAll('table.campaign-history tbody tr').length == 4"
        )
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT_DIR / "lists-history-390.png"), full_page=True)
    finally:
        context.close()
