"""Layout defects found by trying the product as a new user: the account
page after a token is made, on a phone, and the chroniclers' desk on a desktop, where the
live preview's losses table overflowed its column and the page."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.reports import desk as chronicle
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.e2e


def _log_in(page, live_server, username: str, next_url: str) -> None:
    page.goto(f"{live_server.url}/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345!")
    page.press("#id_password", "Enter")
    page.wait_for_url(f"**{next_url}")


def test_account_page_with_a_token_is_no_wider_than_a_phone(live_server, page, cast):
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, live_server, "norge_player", "/account/")
    page.fill("input[name=name]", "table laptop")
    page.locator("main button", has_text="Créer un jeton").click()
    page.wait_for_load_state()
    assert page.locator("code", has_text="adm_").count() >= 1
    # The header's tools (user name, roles) and the token list's visually-hidden
    # "Actions" header once stuck out past the edge.
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => e.tagName + '.' + e.className)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide


def test_report_desk_preview_keeps_wide_tables_in_its_column(live_server, page, cast, settings):
    settings.MEDIA_ROOT = settings.BASE_DIR / "media" / "e2e-trial"
    battle = make_battle(cast.campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    chronicle.report_draft_write(battle=battle)
    page.set_viewport_size({"width": 1280, "height": 900})
    url = f"/battles/{battle.pk}/report/"
    _log_in(page, live_server, "chronicler", url)
    assert page.locator(".desk-preview table").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # A header is a word on a line, not one letter a line.
    header = page.locator(".desk-preview table th").first.bounding_box()
    assert header["width"] > 30
