"""A reopen names the turn it reopens: a second submit of the same request is refused
(409, nothing done) instead of undoing the turn before; the confirmation names the open
turn that reopening discards."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.turns.closing import (
    campaign_turn_close,
    campaign_turn_open,
    campaign_turn_reopen,
)
from campaign.turns.errors import TurnActionError, TurnConflict
from campaign.turns.models import CampaignTurn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _statuses(campaign) -> list[tuple[int, str]]:
    return list(campaign.turns.order_by("number").values_list("number", "status"))


@pytest.fixture
def two_closed(sample):
    """Turns n and n+1 closed, n+2 open."""
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    first = campaign_turn_close(campaign=s.campaign, user=s.organiser).number
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    s.first = first
    return s


def test_the_same_reopen_twice_undoes_one_turn(two_closed):
    s = two_closed
    n = s.first
    assert _statuses(s.campaign)[-3:] == [(n, "closed"), (n + 1, "closed"), (n + 2, "open")]
    turn = campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=n + 1)
    assert turn.number == n + 1
    after_one = _statuses(s.campaign)
    assert after_one[-2:] == [(n, "closed"), (n + 1, "open")]
    with pytest.raises(TurnConflict) as refused:
        campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=n + 1)
    assert str(refused.value) == (
        f"turn {n + 1} is not the last closed turn (turn {n} is): nothing was reopened"
    )
    assert refused.value.status == 409 and isinstance(refused.value, TurnActionError)
    assert _statuses(s.campaign) == after_one


def test_the_api_reopen_names_its_turn(two_closed):
    s = two_closed
    n = s.first
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(s.organiser)
    url = "/api/campaigns/sample/turn/reopen"
    first = c.post(url, {"turn": n + 1}, content_type="application/json")
    assert first.status_code == 200 and first.json()["open"]["number"] == n + 1
    assert first.json()["last_closed"]["number"] == n
    again = c.post(url, {"turn": n + 1}, content_type="application/json")
    assert again.status_code == 409
    assert again.json() == {
        "detail": f"turn {n + 1} is not the last closed turn (turn {n} is): nothing was reopened"
    }
    assert CampaignTurn.objects.get(campaign=s.campaign, number=n).status == "closed"
    # A request that does not say which turn is refused by the schema: nothing done.
    assert c.post(url, {}, content_type="application/json").status_code == 422
    assert CampaignTurn.objects.get(campaign=s.campaign, number=n).status == "closed"


def test_the_page_form_names_its_turn_and_a_double_submit_undoes_one(two_closed):
    s = two_closed
    n = s.first
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(s.organiser)
    html = c.get("/campaigns/sample/turn/").content.decode()
    form = html.split('action="/campaigns/sample/turn/reopen/"')[1].split("</form>")[0]
    assert f'<input type="hidden" name="turn" value="{n + 1}">' in form
    assert f"Turn {n + 2}, open now, will be discarded: reopening turn {n + 1} removes it." in form
    data = {"confirm": "yes", "turn": n + 1}
    c.post("/campaigns/sample/turn/reopen/", data)
    page = c.post("/campaigns/sample/turn/reopen/", data, follow=True).content.decode()
    assert f"turn {n + 1} is not the last closed turn (turn {n} is): nothing was reopened" in page
    assert _statuses(s.campaign)[-2:] == [(n, "closed"), (n + 1, "open")]
    # The confirmation now speaks of the turn just reopened, which the next reopen removes.
    assert f"Turn {n + 1}, open now, will be discarded: reopening turn {n} removes it." in page
    missing = c.post("/campaigns/sample/turn/reopen/", {"confirm": "yes"}, follow=True)
    assert "turn: the turn to reopen is missing; nothing was done." in missing.content.decode()
    assert _statuses(s.campaign)[-2:] == [(n, "closed"), (n + 1, "open")]
