"""End to end in headless Chromium: an organiser sets up a battle
between the sample's Norwegian and Phalon fleets through the pages, previews the
auto-resolve, concludes it, sees the ships damaged on the fleet page, reopens it and sees
every ship as before — at 390 px (a phone at the table) with the keyboard for the form."""

from __future__ import annotations

import re

import pytest
from django.forms.models import model_to_dict

from battles.models import Battle
from battles.services.common import battle_sides
from campaign.league.models import Campaign, Membership
from campaign.sample.loader import sample_load
from factions.models import Ship
from tests.battles.miranda import group_states, miranda_eve, ship_states
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e

PASSWORD = "pw-e2e-12345!"


def _ships(fleet_slug: str) -> list[dict]:
    return [model_to_dict(s) for s in Ship.objects.filter(fleet__slug=fleet_slug).order_by("pk")]


def _fleet_rows(page, base: str, slug: str) -> list[str]:
    """The fleet page's ship rows as the reader sees them (status, hull, armour, crew)."""
    page.goto(f"{base}/fleets/{slug}/")
    return page.locator("tr.ship").all_inner_texts()


def _login(page, base: str, username: str) -> None:
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_load_state()


def test_organiser_sets_up_previews_concludes_and_reopens_at_390px(
    live_server, browser, transactional_db
):
    from django.contrib.auth import get_user_model

    sample_load()
    campaign = Campaign.objects.get(slug="sample")
    user = get_user_model().objects.create_user("orga", password=PASSWORD)
    Membership.objects.create(campaign=campaign, user=user, role="organiser")
    norge_fleet = "norge-steffen-konalson-deep-incursion-fleet"
    phalon_fleet = "phalon-68th-reprisal-fleet"
    before = {f: _ships(f) for f in (norge_fleet, phalon_fleet)}

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    base = live_server.url
    _login(page, base, "orga")
    assert "Sample campaign: Miranda" in page.locator(".user-roles").text_content()
    rows_before = {f: _fleet_rows(page, base, f) for f in (norge_fleet, phalon_fleet)}

    page.goto(base + "/campaigns/sample/")
    page.get_by_role("link", name="Set up a battle").click()
    page.wait_for_url("**/battles/new/")
    page.fill("#id_name", "Raid on Petra IV")
    page.select_option("#id_faction_a", label="Kongeriket Norge")
    with page.expect_response(lambda r: re.search(r"faction_b=\d", r.url) is not None):
        page.select_option("#id_faction_b", label="Phalon")
    wait_for_units_swap(page)
    page.fill("#id_primary_a", "Strike the station")
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "battle-setup-390.png"), full_page=True)
    # Every ship the two fleets may still field: one "select the group" button a fleet.
    for fleet in page.locator("[data-fleet-group]").all():
        legend = fleet.locator("legend").first.inner_text()
        if "Steffen" in legend or "68" in legend:
            fleet.locator("[data-check-all]").click()
    # The keyboard works: focus the submit button and press Enter.
    page.get_by_role("button", name="Set up the battle").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/resolve/")
    battle = Battle.objects.get(name="Raid on Petra IV")
    kinds = set(battle.sides.values_list("faction__slug", flat=True))
    assert kinds == {"kongeriket-norge", "phalon"}
    assert battle.sides.get(faction__slug="kongeriket-norge").participants.count() >= 2

    page.get_by_role("button", name="Draw the dice and preview").click()
    page.wait_for_selector("#preview-units")
    outcome = page.locator(".outcome").inner_text()
    assert "Resolved by the rules engine" in outcome
    page.wait_for_selector("#forecast table")  # the htmx forecast arrived
    page.screenshot(path=str(SCREENSHOT_DIR / "battle-preview-390.png"), full_page=True)
    # No horizontal scroll of the page itself at 390 px.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    page.get_by_role("button", name="Conclude with this result").click()
    page.wait_for_url(f"**/battles/{battle.pk}/")
    battle.refresh_from_db()
    assert battle.status == "concluded" and battle.outcome == outcome
    after = {f: _ships(f) for f in (norge_fleet, phalon_fleet)}
    assert after != before  # someone took damage

    rows_after = {f: _fleet_rows(page, base, f) for f in (norge_fleet, phalon_fleet)}
    assert rows_after != rows_before  # the damage shows on the fleet pages
    page.goto(base + f"/battles/{battle.pk}/")
    page.get_by_role("button", name="Reopen: put every ship back as before the battle").click()
    page.wait_for_url(f"**/battles/{battle.pk}/")
    assert {f: _ships(f) for f in (norge_fleet, phalon_fleet)} == before
    battle.refresh_from_db()
    assert battle.status == "draft"
    assert {f: _fleet_rows(page, base, f) for f in (norge_fleet, phalon_fleet)} == rows_before
    page.goto(base + f"/battles/{battle.pk}/")
    timeline = page.locator(".timeline").inner_text()
    assert "set up" in timeline and "concluded" in timeline and "reopened" in timeline
    assert not errors
    context.close()


def test_miranda_recorded_through_the_form_in_the_browser(live_server, browser, transactional_db):
    """The seed's Miranda battle set up and recorded through the pages at 1280 px: every
    ship's losses, Petra IV's fighters and the colonies' batteries; the other side (here
    the organiser) confirms; the fleets end as the seed says."""
    from django.contrib.auth import get_user_model

    eve = miranda_eve()
    campaign = Campaign.objects.get(slug="sample")
    user = get_user_model().objects.create_user("orga", password=PASSWORD)
    Membership.objects.create(campaign=campaign, user=user, role="organiser")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    page = context.new_page()
    page.set_default_timeout(30_000)
    base = live_server.url
    _login(page, base, "orga")

    page.goto(base + "/campaigns/sample/battles/new/")
    page.fill("#id_name", "Colonisation compromise")
    page.fill("#id_campaign_turn", "1")
    page.select_option("#id_faction_a", label="Phalon")
    with page.expect_response(lambda r: re.search(r"faction_b=\d", r.url) is not None):
        page.select_option("#id_faction_b", label="Collectif G+")
    wait_for_units_swap(page)
    for fleet in page.locator("[data-fleet-group]").all():
        legend = fleet.locator("legend").first.inner_text()
        if "68th" in legend or "Ganesha" in legend:
            fleet.locator("[data-check-all]").click()
    for name in ("Nith", "Tuus", "Miranda colony battery A", "Miranda colony battery B"):
        page.get_by_label(name, exact=False).first.check()
    page.get_by_role("button", name="Set up the battle").click()
    page.wait_for_url("**/resolve/")
    battle = Battle.objects.get(campaign=campaign, name="Colonisation compromise")
    participants = [p for s in battle_sides(battle) for p in s.participants.all()]
    assert len(participants) == len(eve.fates)

    page.goto(base + f"/battles/{battle.pk}/record/")
    for p in participants:
        old = eve.fates[(p.ship_id, p.light_units_id)]
        row = page.locator(f"#unit-{p.pk}")
        row.locator("select[name$='-fate']").select_option(old.fate)
        if p.ship_id:
            if old.fate != "destroyed":
                row.locator("input[name$='-hull_lost']").fill(str(old.hull_lost))
                row.locator("input[name$='-armour_lost']").fill(str(old.armour_lost))
            for system in old.systems_lost:
                row.locator(f"input[name$='-systems_lost'][value='{system}']").check()
        else:
            row.locator("input[name$='-craft_lost']").fill(str(old.craft_lost))
    page.select_option("#id_battle-winner", label="Phalon")
    page.fill("#id_battle-outcome", eve.outcome)
    page.fill("#id_battle-game_turns", "5")
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "battle-record-1280.png"))
    page.get_by_role("button", name="Submit the entry").click()
    page.wait_for_selector("text=Entries waiting for confirmation")
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"**/battles/{battle.pk}/")
    battle.refresh_from_db()
    assert (battle.status, battle.winner.slug) == ("concluded", "phalon")
    assert ship_states(eve.ships) == eve.ships
    assert group_states(eve.groups) == eve.groups
    context.close()


def wait_for_units_swap(page) -> None:
    """Wait until htmx has swapped in the units of the sides just chosen."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
