"""Membership on a phone, in headless Chromium at 390 px: the organiser invites a player
from the members page, a newcomer opens the link, creates an account and lands on the
campaign as a player of the faction. No page is wider than the phone."""

from __future__ import annotations

import pytest

from campaign.league.models import Membership
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e
WIDTH = 390


def _phone(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_an_organiser_invites_and_a_newcomer_signs_up_as_a_player(live_server, browser, cast):
    base = live_server.url
    organiser = _phone(browser)
    organiser.goto(base + "/login/")
    organiser.fill("#id_username", "organiser")
    organiser.fill("#id_password", "pw-12345!")
    organiser.locator(".login-form button[type=submit]").click()
    organiser.wait_for_url(base + "/")
    organiser.goto(base + "/campaigns/test-league/")
    organiser.get_by_role("link", name="Membres et invitations").click()
    organiser.wait_for_url("**/campaigns/test-league/members/")
    _fits(organiser)
    organiser.select_option("#invite-role", "player")
    organiser.select_option("#invite-faction", label="Qatzrin")
    organiser.get_by_role("button", name="Créer une invitation").click()
    organiser.wait_for_url("**/campaigns/test-league/members/")
    link = organiser.locator("#invitation-link").input_value()
    assert link.startswith(base + "/invitations/")
    assert "Joueur — Qatzrin" in organiser.locator("#h-invitations + ul").inner_text()
    _fits(organiser)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    organiser.screenshot(path=str(SCREENSHOT_DIR / "members-390.png"), full_page=True)

    newcomer = _phone(browser)
    newcomer.goto(link)
    assert "en tant que joueur de Qatzrin" in newcomer.locator(".lead").inner_text()
    _fits(newcomer)
    newcomer.screenshot(path=str(SCREENSHOT_DIR / "invitation-390.png"), full_page=True)
    newcomer.fill("#id_username", "nadia")
    newcomer.fill("#id_password", "stars over Mieska 9")
    newcomer.get_by_role("button", name="Créer mon compte et rejoindre").click()
    newcomer.wait_for_url(base + "/campaigns/test-league/")
    assert "votre rôle est joueur" in newcomer.locator(".messages").inner_text()
    assert "Test league: joueur (Qatzrin)" in newcomer.locator(".user-roles").text_content()
    _fits(newcomer)
    m = Membership.objects.get(user__username="nadia")
    assert (m.campaign, m.role, m.faction) == (cast.campaign, "player", cast.qatzrin)

    # The organiser sees the newcomer among the members; the link no longer works.
    organiser.goto(base + "/campaigns/test-league/members/")
    assert "nadia" in organiser.locator("#h-members + ul").inner_text()
    assert organiser.locator("#h-invitations ~ .empty").count() == 1
    newcomer.goto(link)
    assert "a déjà servi" in newcomer.locator(".lead").inner_text()
