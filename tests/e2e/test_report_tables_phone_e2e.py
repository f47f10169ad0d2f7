"""At 390 px: the after-action report's unit and loss tables (app and baked site) show the
edge shadow of the app's other wide tables when cut, a unit's note wraps between words,
and a 29-character user name is cut with an ellipsis so the header keeps to two lines."""

from __future__ import annotations

import pytest

from battles.models import Participant
from campaign.league.models import Membership
from campaign.publish import site_build
from tests.battles.reports.report_fixtures import make_battle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db]

PHONE = {"width": 390, "height": 844}
NOTE = (
    "Boarded twice during the crossing of the asteroid belt, the carrier's marines held "
    "the hangar decks while engineers restored the reactor shielding"
)
LONG_NAME = "commander_ingrid_solheim_2026"  # 29 characters

#: Words of the element's text split over two lines (a word cut mid-way has two boxes).
_CUT_WORDS = """(el) => {
  const text = el.firstChild;
  const cut = [];
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (tops.size > 1) cut.push(m[0]);
  }
  return cut;
}"""


def _battle(cast):
    battle = make_battle(cast.campaign)
    Participant.objects.filter(side__battle=battle, ship__name="Vishnu Second").update(notes=NOTE)
    return battle


def _check_tables(page) -> None:
    for selector in (".report table.participants", ".report table.losses"):
        table = page.locator(selector).first
        assert table.evaluate("(t) => t.scrollWidth > t.clientWidth"), selector  # cut
        image = table.evaluate("(t) => getComputedStyle(t).backgroundImage")
        assert image.count("radial-gradient") == 2, (selector, image)  # a shadow each edge
        attachment = table.evaluate("(t) => getComputedStyle(t).backgroundAttachment")
        assert attachment == "local, local, scroll, scroll", selector
    note = page.locator(".report table.participants .note", has_text="Boarded twice")
    assert note.inner_text() == NOTE
    assert note.evaluate(_CUT_WORDS) == []  # every word whole on its line
    assert note.evaluate("(n) => n.getClientRects()[0].height") > 40  # and it does wrap
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_apps_report_tables_show_they_are_cut_and_notes_wrap_between_words(
    browser, live_server, cast
):
    battle = _battle(cast)
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}{battle.get_absolute_url()}")
        _check_tables(page)
    finally:
        context.close()


def test_the_sites_report_tables_show_they_are_cut_and_notes_wrap_between_words(
    browser, cast, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = _battle(cast)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False)
    pages = sorted((out / "en").rglob(f"{battle.slug}*.html"))
    assert pages, sorted(p.relative_to(out) for p in (out / "en").rglob("*.html"))
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(pages[0].as_uri())
        _check_tables(page)
    finally:
        context.close()


def test_a_long_user_name_is_cut_so_the_header_keeps_two_lines(
    browser, live_server, cast, django_user_model
):
    user = django_user_model.objects.create_user(LONG_NAME, password="pw-12345!")
    Membership.objects.create(
        campaign=cast.campaign, user=user, role=Membership.Role.PLAYER, faction=cast.norge
    )
    battle = make_battle(cast.campaign)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", LONG_NAME)
        page.fill("#id_password", "pw-12345!")
        page.locator(".login-form button[type=submit]").click()
        page.wait_for_url(live_server.url + "/")
        page.goto(f"{live_server.url}{battle.get_absolute_url()}")
        header = page.locator("header.site-header")
        line = page.locator("header .brand").bounding_box()["height"]
        assert header.bounding_box()["height"] <= 2 * line + 40, header.bounding_box()
        # The brand and the tools share the first line.
        brand, tools = page.locator("header .brand"), page.locator("header .tools")
        assert abs(brand.bounding_box()["y"] - tools.bounding_box()["y"]) < line
        who = page.locator("summary.who")
        assert who.get_attribute("title") == LONG_NAME
        assert who.inner_text().startswith(LONG_NAME)  # the text is whole, cut only on screen
        name = page.locator(".who-name")
        assert name.evaluate("(n) => n.scrollWidth > n.clientWidth")
        assert name.evaluate("(n) => getComputedStyle(n).textOverflow") == "ellipsis"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
