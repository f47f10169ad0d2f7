"""Notifications on a phone, in headless Chromium at 390 px: a player turns a kind off on
their account page (saved through htmx, the page stays), the organiser's webhook page
refuses a private address naming the field. No page is wider than the phone."""

from __future__ import annotations

import pytest

from campaign.notify.models import CampaignWebhook, NotificationPreference
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e
WIDTH = 390


def _phone(browser, base, username):
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(base + "/")
    return page


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_preferences_and_the_webhook_on_a_phone(live_server, browser, cast):
    base = live_server.url
    player = _phone(browser, base, "norge_player")
    player.goto(base + "/account/")
    _fits(player)
    form = player.locator("#notify-preferences")
    form.get_by_label("Un tour de bataille joué").uncheck()
    form.get_by_role("button", name="Enregistrer les notifications").click()
    player.locator("#notify-preferences [role=status]").wait_for()
    assert player.url == base + "/account/"  # htmx swapped the form in place
    assert (
        not player.locator("#notify-preferences")
        .get_by_label("Un tour de bataille joué")
        .is_checked()
    )
    assert list(
        NotificationPreference.objects.filter(user=cast.norge_player, email=False).values_list(
            "kind", flat=True
        )
    ) == ["turn_played"]
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SCREENSHOT_DIR / "notify-account-390.png"), full_page=True)

    organiser = _phone(browser, base, "organiser")
    organiser.goto(base + "/campaigns/test-league/")
    organiser.get_by_role("link", name="Notifications et webhook").click()
    organiser.wait_for_url("**/campaigns/test-league/notifications/")
    organiser.fill("#webhook-url", "http://169.254.169.254/latest/meta-data/")
    organiser.get_by_role("button", name="Enregistrer le webhook").click()
    error = organiser.locator("#webhook-error")
    assert "169.254.169.254" in error.inner_text() and "réseau privé" in error.inner_text()
    assert not CampaignWebhook.objects.exists()
    _fits(organiser)
    organiser.screenshot(path=str(SCREENSHOT_DIR / "notify-webhook-390.png"), full_page=True)
