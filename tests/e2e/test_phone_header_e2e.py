"""At 390 px: the app's header holds on two lines with the account folded under the user's
name, and the baked site's battle table shows the same edge shadow as the app's when its
Winner and PDF columns are cut."""

from __future__ import annotations

import pytest

from campaign.publish import site_build
from tests.battles.reports.report_fixtures import make_battle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db]

PHONE = {"width": 390, "height": 844}


def _log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")


def test_the_header_takes_two_lines_on_a_phone(browser, live_server, cast):
    battle = make_battle(cast.campaign)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _log_in(page, live_server, "norge_player")
        page.goto(f"{live_server.url}{battle.get_absolute_url()}")
        header = page.locator("header.site-header")
        line = page.locator("header .brand").bounding_box()["height"]
        # Two lines (brand and tools, then the breadcrumbs) and their gaps: not four.
        assert header.bounding_box()["height"] <= 2 * line + 40, header.bounding_box()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        roles = page.locator(".user-roles")
        assert roles.is_hidden()
        page.locator("summary.who").click()
        assert roles.is_visible()
        assert "Test league: joueur (Kongeriket Norge)" in roles.inner_text()
        box = page.locator(".user-menu-body").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        # The menu opens over the page: the header keeps its height.
        assert header.bounding_box()["height"] <= 2 * line + 40
    finally:
        context.close()


def test_the_sites_battle_table_shows_it_is_cut_on_a_phone(browser, cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_battle(cast.campaign)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False)
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto((out / "en" / "index.html").as_uri())
        wrap = page.locator(".site-main .table-wrap").first
        assert wrap.evaluate("(w) => w.scrollWidth > w.clientWidth")  # Winner and PDF cut
        image = wrap.evaluate("(w) => getComputedStyle(w).backgroundImage")
        assert image.count("radial-gradient") == 2, image  # a shadow at each edge
        attachment = wrap.evaluate("(w) => getComputedStyle(w).backgroundAttachment")
        assert attachment == "local, local, scroll, scroll"
    finally:
        context.close()
