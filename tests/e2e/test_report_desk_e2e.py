"""The chroniclers' desk in headless Chromium: a chronicler edits
a drafted report on a phone, watches the live preview, saves and publishes; the battle
page, its PDF and the rebuilt site show the new text; no page of the app or the site is
wider than the phone; no console error."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from battles.models import Battle, Report
from battles.reports import desk as chronicle
from campaign.publish import site_build
from campaign.refresh import site_refresh_wait
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
NEW_TEXT = "The Silith held the belt"


def _no_horizontal_scroll(page, url: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{url}: {width} px wide"


def test_chronicler_edits_previews_and_publishes_a_drafted_report_on_a_phone(
    live_server, page, cast, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    chronicle.report_draft_write(battle=battle)
    site = settings.SITE_ROOT
    site_build(out_dir=site, search_index=False)  # the published site publishing refreshes
    assert (
        NEW_TEXT not in (site / "fr/battles/test-league/colonisation-compromise.html").read_text()
    )

    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}/login/?next=/battles/{battle.pk}/")
    page.fill("#id_username", "chronicler")
    page.fill("#id_password", "pw-12345!")
    page.locator("form.login-form button[type=submit], form button[type=submit]").last.click()
    page.wait_for_url(f"**/battles/{battle.pk}/")
    _no_horizontal_scroll(page, "battle page (draft)")
    page.locator(f'a[href="/battles/{battle.pk}/report/"]').click()
    page.wait_for_url(f"**/battles/{battle.pk}/report/")
    _no_horizontal_scroll(page, "report editor")
    # The draft written from the record is there to edit: forces, turns, losses, outcome.
    draft = page.locator("#id_narrative").input_value()
    assert "## Forces" in draft and "## Pertes" in draft

    # A long URL must wrap on the battle page too, not widen it (app sheet, not report.css).
    long_url = "https://example.com/" + "very-long-path-segment/" * 12
    page.fill(
        "#id_narrative",
        f"## Récit\n\n{NEW_TEXT}[^1].\n\n{long_url}\n\n[^1]: Turn 3.\n\n" + draft,
    )
    preview = page.locator("#report-preview")
    preview.get_by_text(NEW_TEXT).wait_for()  # htmx swapped the preview in
    assert preview.locator('a[href="#narrative-fn:1"]').count() == 1
    assert preview.locator("#narrative-fn\\:1").count() == 1
    _no_horizontal_scroll(page, "report editor with preview")
    page.get_by_role("button", name="Enregistrer").click()
    page.wait_for_url(f"**/battles/{battle.pk}/report/")
    page.get_by_role("button", name="Publier le rapport").click()
    page.wait_for_url(f"**/battles/{battle.pk}/")
    assert NEW_TEXT in page.locator(".report").inner_text()
    _no_horizontal_scroll(page, "battle page (published)")

    battle.refresh_from_db()
    pdf = Report.objects.get(battle=battle, format="pdf")
    assert pdf.version == battle.version and pdf.status == "ready"
    assert page.locator(f'a[href="{pdf.file.url}"]').count() == 1  # the current PDF only
    with pdf.file.open("rb") as handle:
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(handle.read())).pages)
    assert NEW_TEXT in text

    assert site_refresh_wait(120)  # no broker: the site is rebuilt after the response
    for lang in ("fr", "en"):
        baked = (site / lang / "battles/test-league/colonisation-compromise.html").read_text()
        assert NEW_TEXT in baked, lang
    assert errors == []


def test_no_page_of_the_baked_site_is_wider_than_a_phone(page, cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_battle(cast.campaign, narrative="See https://example.org/" + "long-segment/" * 20)
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for width in (PHONE["width"], 1280):
        page.set_viewport_size({"width": width, "height": 900})
        pages = sorted(out.rglob("*.html"))
        assert len(pages) > 20
        for html in pages:
            page.goto(html.as_uri())
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"{html.relative_to(out)} at {width}: {scroll} px"
    assert errors == []
