"""The turns' admin: a turn's status and the campaign's current turn are read-only there;
closing and reopening a turn are admin actions that run the services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.turns.models import CampaignTurn, LedgerEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.com", "pw"))
    return client


def test_a_turn_status_posted_through_the_change_form_is_not_written(damaged, admin_client):
    turn = CampaignTurn.objects.get(campaign=damaged.campaign, number=1)
    url = reverse("admin:turns_campaignturn_change", args=[turn.pk])
    response = admin_client.post(
        url,
        {
            "campaign": turn.campaign_id,
            "number": 1,
            "status": "closed",
            "closed_at_0": "2026-01-01",
            "closed_at_1": "10:00",
            "deadline_0": "",
            "deadline_1": "",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    turn.refresh_from_db()
    assert (turn.status, turn.closed_at) == ("open", None)
    assert not LedgerEntry.objects.filter(kind="income").exists()


def test_the_current_turn_is_read_only_in_the_campaign_admin(damaged, admin_client):
    from django.contrib import admin

    from campaign.league.models import Campaign

    assert "current_turn" in admin.site._registry[Campaign].get_readonly_fields(None)


def test_the_close_and_reopen_actions_run_the_services(damaged, admin_client):
    s = damaged
    turn = CampaignTurn.objects.get(campaign=s.campaign, number=1)
    url = reverse("admin:turns_campaignturn_changelist")
    admin_client.post(url, {"action": "close", "_selected_action": [turn.pk]})
    turn.refresh_from_db()
    assert turn.status == "closed"
    # The close service's work: each of the four factions' income credited.
    assert LedgerEntry.objects.filter(campaign=s.campaign, kind="income", turn=1).count() == 4
    admin_client.post(url, {"action": "reopen", "_selected_action": [turn.pk]})
    turn.refresh_from_db()
    assert turn.status == "open"
    assert not LedgerEntry.objects.filter(campaign=s.campaign, kind="income").exists()


def test_an_action_refused_by_the_service_changes_nothing(damaged, admin_client):
    turn = CampaignTurn.objects.get(campaign=damaged.campaign, number=1)
    url = reverse("admin:turns_campaignturn_changelist")
    response = admin_client.post(
        url, {"action": "reopen", "_selected_action": [turn.pk]}, follow=True
    )
    errors = [m for m in response.context["messages"] if m.level_tag == "error"]
    assert len(errors) == 1
    turn.refresh_from_db()
    assert turn.status == "open"
