"""A number no column holds and a text no column stores, typed into a form
or sent to the API, are a clear error naming the field, never a 500, and store nothing
(campaign.core.limits.NUMBER_MAX; campaign.core.validation.TextError; campaign.core.middleware)."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.core import limits
from campaign.turns.closing import campaign_turn_open
from campaign.turns.models import LedgerEntry
from campaign.turns.treasury import treasury_balance

pytestmark = pytest.mark.django_db
HUGE = "99999999999999999999"


def organiser_client(s):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(s.organiser)
    return c


def test_a_huge_treasury_amount_is_a_message_on_the_page_and_a_400_in_the_api(sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    c = organiser_client(s)
    response = c.post(
        "/campaigns/sample/treasury/adjust/",
        {"faction": s.norge.pk, "resources": HUGE, "technology": 0, "reason": "chest"},
        follow=True,
    )
    assert response.status_code == 400  # the page again, what was typed kept
    form = response.content.decode().split('id="treasury-adjust"')[1].split("</form>")[0]
    assert f"resources: {HUGE} is out of range (at most {limits.NUMBER_MAX})" in form
    assert f'name="resources" type="number" value="{HUGE}"' in form
    assert 'name="reason" required maxlength="300" value="chest"' in form
    assert f'<option value="{s.norge.pk}" selected>' in form
    api = c.post(
        "/api/campaigns/sample/treasury/adjust",
        {"faction": "kongeriket-norge", "resources": int(HUGE), "reason": "chest"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert api.status_code in (400, 422) and "out of range" in api.content.decode()
    assert not LedgerEntry.objects.filter(kind="adjustment").exists()


def test_a_nul_in_the_treasury_reason_is_a_message_and_stores_nothing(sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    response = organiser_client(s).post(
        "/campaigns/sample/treasury/adjust/",
        {"faction": s.norge.pk, "resources": 5, "technology": 0, "reason": "ch\x00est"},
        follow=True,
    )
    assert response.status_code == 400
    assert 'value="chest"' in response.content.decode()  # shown again without the NUL
    assert "reason" in response.content.decode() and "NUL" in response.content.decode()
    assert not LedgerEntry.objects.filter(kind="adjustment").exists()


def test_adjustments_cannot_take_a_treasury_past_the_maximum(sample):
    """Two credits of 2 147 483 647 were both accepted and the API then
    showed 4 294 968 194; the second is refused, naming the field, page and API."""
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    c = organiser_client(s)
    start = treasury_balance(campaign=s.campaign, faction=s.norge)
    room = limits.NUMBER_MAX - start.resources
    form = {"faction": s.norge.pk, "resources": room, "technology": 0, "reason": "chest"}
    c.post("/campaigns/sample/treasury/adjust/", form)
    assert treasury_balance(campaign=s.campaign, faction=s.norge).resources == limits.NUMBER_MAX
    response = c.post("/campaigns/sample/treasury/adjust/", {**form, "resources": 1}, follow=True)
    assert response.status_code == 400
    assert (
        f"resources: Kongeriket Norge holds {limits.NUMBER_MAX}; adding 1 would pass the "
        f"maximum of {limits.NUMBER_MAX}"
    ) in response.content.decode()
    api = c.post(
        "/api/campaigns/sample/treasury/adjust",
        {"faction": "kongeriket-norge", "resources": limits.NUMBER_MAX, "reason": "chest"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert api.status_code == 400
    assert api.json()["detail"].startswith("resources: Kongeriket Norge holds 2147483647;")
    tech = {"faction": "kongeriket-norge", "reason": "lab"}
    api = "/api/campaigns/sample/treasury/adjust"
    room = limits.NUMBER_MAX - start.technology
    assert (
        c.post(api, {**tech, "technology": room}, content_type="application/json").status_code
        == 201
    )
    over = c.post(
        api, {**tech, "technology": 1}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert over.status_code == 400 and over.json()["detail"].startswith("technology: ")
    balances = {
        t["faction"]: t for t in c.get("/api/campaigns/sample/treasuries").json()["treasuries"]
    }
    assert balances["kongeriket-norge"]["resources"] == limits.NUMBER_MAX
    assert balances["kongeriket-norge"]["technology"] == limits.NUMBER_MAX
    assert LedgerEntry.objects.filter(kind="adjustment").count() == 2
    # A debit from the maximum is still fine.
    c.post("/campaigns/sample/treasury/adjust/", {**form, "resources": -5})
    assert treasury_balance(campaign=s.campaign, faction=s.norge).resources == (
        limits.NUMBER_MAX - 5
    )
