"""The fog of war on a 390 px phone, in headless Chromium: the Qatzrin 5th fleet, hidden,
lies at Arendal, one link from Norge's New Bergen stations; a Norwegian player reads it on
the map page as an unnamed contact (listed and drawn), never by its name, and the page is
never wider than the phone."""

from __future__ import annotations

import re

import pytest

from campaign.fog.knowledge import contact_label
from campaign.starmap.models import FleetPosition, StarSystem
from factions.models import Fleet

pytestmark = pytest.mark.e2e


def test_a_player_reads_a_contact_on_a_phone(live_server, browser, sample):
    s = sample
    qatzrin = Fleet.objects.get(slug="qatzrin-5th-long-range-incursion-fleet")
    Fleet.objects.filter(pk=qatzrin.pk).update(hidden=True)
    arendal = StarSystem.objects.get(campaign=s.campaign, slug="arendal")
    FleetPosition.objects.filter(fleet=qatzrin).update(system=arendal)
    label = contact_label(s.campaign.pk, qatzrin.pk)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    phone.set_default_timeout(15_000)
    phone.goto(live_server.url + "/login/")
    phone.fill("#id_username", "norge_player")
    phone.fill("#id_password", "pw-12345!")
    phone.locator(".login-form button[type=submit]").click()
    phone.wait_for_url(live_server.url + "/")
    phone.goto(f"{live_server.url}/campaigns/{s.campaign.slug}/map/")
    contacts = phone.locator(".starmap-contacts").inner_text()
    assert re.search(rf"{label}\u202f: \d+ blips? à Arendal", contacts), contacts
    titles = phone.locator(".starmap-scroll svg circle > title").all_text_contents()
    assert any(t.startswith(f"Contact {label} (") for t in titles), titles
    body = phone.locator("body").inner_text()
    assert qatzrin.name not in body and "Qatzrin 5" not in body
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator(".starmap-contacts").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
