"""A number no column holds and a text no column stores, typed into a form
or sent to the API, are a clear error naming the field, never a 500, and store nothing
(campaign.core.limits.NUMBER_MAX; campaign.core.validation.TextError; campaign.core.middleware)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.core import limits

pytestmark = pytest.mark.django_db
HUGE = "99999999999999999999"


def test_a_huge_campaign_turn_on_the_setup_form_is_a_field_error(client, league):
    client.force_login(league.organiser)
    url = reverse("battle-setup", args=[league.campaign.slug])
    before = Battle.objects.count()
    response = client.post(url, {"name": "Overflow", "campaign_turn": HUGE})
    assert response.status_code == 200  # the form again, with its error
    assert f"{limits.NUMBER_MAX}" in response.content.decode().replace("\u202f", "").replace(
        "\xa0", ""
    ).replace(" ", "")
    assert Battle.objects.count() == before


def test_a_nul_in_the_reopen_reason_is_a_message_and_the_battle_stays_concluded(
    client,
    league,
):
    client.force_login(league.organiser)
    url = reverse("battle-resolve", args=[league.battle.pk])
    client.post(url, {"action": "seed"})
    league.battle.refresh_from_db()
    client.post(url, {"action": "conclude", "seed": str(league.battle.seed)})
    league.battle.refresh_from_db()
    assert league.battle.status == "concluded"
    response = client.post(
        reverse("battle-reopen", args=[league.battle.pk]), {"reason": "oops\x00"}, follow=True
    )
    assert response.status_code == 200 and "NUL" in response.content.decode()
    league.battle.refresh_from_db()
    assert league.battle.status == "concluded"
