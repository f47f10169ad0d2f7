"""Phone cosmetics at 390 px: a unit's lost systems read on a row of
their own (not one syllable a line in the fate column), a weapon's target list is wide
enough to read "ne pas tirer", and the API docs are laid out at the phone's width."""

from __future__ import annotations

import pytest

from battles.models import Participant
from battles.play.game_turns import turn_play_start
from tests.battles.battle_fixtures import make_duel
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LOST = ["pulser-b", "pbl-a", "veil", "fc-2", "core", "life-support", "drive"]


def _log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")


def test_lost_systems_take_the_whole_row_on_a_phone(live_server, page, cast):
    battle = make_battle(cast.campaign)
    Participant.objects.filter(ship__name="Vishnu Second").update(systems_lost=LOST)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    lost = page.locator("tr.lost-list td").first
    assert lost.inner_text().startswith("systèmes perdus")
    table = lost.locator("xpath=ancestor::table[1]").bounding_box()
    assert lost.bounding_box()["width"] >= table["width"] - 2  # the row's whole width
    text = lost.locator(".lost-text").bounding_box()
    assert text["x"] >= 0 and text["x"] + text["width"] <= PHONE["width"], text  # in view
    assert text["height"] < 70, text  # a few lines, not one word a line
    unit_row = page.locator("tr.has-lost").first.bounding_box()
    assert unit_row["height"] < 80, unit_row  # not ~200 px
    # "systèmes" is never cut inside the word: its first line holds it whole.
    first_line = page.evaluate(
        """(td) => { const r = document.createRange(); const t = td.firstChild;
        r.setStart(t, 0); r.setEnd(t, 8); return r.getClientRects().length; }""",
        lost.locator(".lost-text").element_handle(),
    )
    assert first_line == 1


def test_the_target_list_of_a_weapon_is_readable_on_a_phone(
    browser, live_server, cast, django_user_model
):
    duel = make_duel(cast, django_user_model)
    turn_play_start(battle=duel.battle, user=cast.organiser, seed=20261201, max_turns=5)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _log_in(page, live_server, "qatzrin_player")
        page.goto(f"{live_server.url}/battles/{duel.battle.pk}/turns/")
        select = page.locator("fieldset.ship-orders select[id^=fire-]").first
        fieldset = page.locator("fieldset.ship-orders").first.bounding_box()
        width = select.bounding_box()["width"]
        assert width >= fieldset["width"] * 0.8, (width, fieldset["width"])
        # its chosen option ("ne pas tirer") is shown whole
        assert select.evaluate("(s) => s.scrollWidth <= s.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_the_api_docs_fit_a_phone(browser, live_server):
    # A mobile browser lays a page without a viewport meta out 980 px wide.
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/api/docs")
        page.locator("#swagger-ui .info").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
