"""Fresh-user gaps, in headless Chromium on a 390 px phone: an organiser adds an existing
user by name from the members page (a refusal names the field and keeps what was typed),
and a slow action (closing the turn) says "En cours…" and disables its button once sent,
so a second tap does not send it twice. No page is wider than the phone."""

from __future__ import annotations

import pytest

from campaign.league.models import Membership
from campaign.turns.closing import campaign_turn_open
from campaign.turns.models import CampaignTurn
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


def test_an_organiser_adds_an_existing_user_by_name_on_a_phone(live_server, browser, cast):
    base = live_server.url
    page = _phone(browser, base, "organiser")
    page.goto(base + "/campaigns/test-league/members/")
    _fits(page)
    # A player without a faction: refused, the faction field marked, the name kept.
    page.fill("#add-username", "outsider")
    page.select_option("#add-role", "player")
    page.get_by_role("button", name="Ajouter", exact=True).click()
    error = page.locator("#member-add-error")
    assert error.inner_text() == "faction\u202f: un joueur joue une faction\u202f; choisissez-la"
    assert page.locator("#add-username").input_value() == "outsider"
    assert page.locator("#add-faction").get_attribute("aria-invalid") == "true"
    _fits(page)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "member-add-refused-390.png"), full_page=True)
    page.select_option("#add-faction", label="Qatzrin")
    page.get_by_role("button", name="Ajouter", exact=True).click()
    page.wait_for_url(base + "/campaigns/test-league/members/")
    assert "outsider ajouté\u202f: joueur de Qatzrin." in page.locator(".messages").inner_text()
    assert "outsider" in page.locator("#h-members + ul").inner_text()
    m = Membership.objects.get(user=cast.outsider)
    assert (m.role, m.faction) == ("player", cast.qatzrin)
    _fits(page)


def test_closing_the_turn_shows_it_is_working_and_sends_once(live_server, browser, cast):
    campaign_turn_open(campaign=cast.campaign, user=cast.organiser)
    base = live_server.url
    page = _phone(browser, base, "organiser")
    page.goto(base + "/campaigns/test-league/turn/")
    _fits(page)
    close = "form[action$='/turn/close/']"
    # Count the submissions and keep the page here, as while a slow close is under way
    # (this listener runs after admiralty.js's, which has marked the form busy by then).
    count = """(form) => { window.sent = 0; form.addEventListener("submit", (e) => {
        if (!e.defaultPrevented) window.sent += 1;
        e.preventDefault();
    }); }"""
    page.locator(close).evaluate(count)
    page.locator(f"{close} input[name=confirm]").check()
    page.get_by_role("button", name="Clore le tour").click()
    # (A locator, not wait_for_function: its polling evaluates a string, which the CSP
    # refuses.)
    page.locator(f"{close} button:disabled").wait_for()
    busy = page.locator(f"{close} button")
    assert busy.inner_text() == "En cours…"
    assert page.locator(close).get_attribute("aria-busy") == "true"
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "turn-close-working-390.png"), full_page=True)
    busy.click(force=True)  # a second tap: the button is disabled, nothing is sent
    page.locator(close).evaluate("(form) => form.requestSubmit()")  # nor by Enter
    assert page.evaluate("window.sent") == 1
    assert CampaignTurn.objects.get(campaign=cast.campaign, number=1).status == "open"
    with page.expect_navigation():
        page.locator(close).evaluate("(form) => form.submit()")  # what the browser sends
    assert CampaignTurn.objects.get(campaign=cast.campaign, number=1).status == "closed"
    _fits(page)
