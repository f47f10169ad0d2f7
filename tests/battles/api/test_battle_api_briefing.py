"""``GET /api/battles/{id}`` on a draft: a side's player gets the briefing the battle page
shows them (their own side's objectives, the other sides' factions only); rivals not in the
battle, chroniclers, outsiders, anonymous and other campaigns' organisers get 404."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from campaign.league.models import Membership
from factions.models import Faction, Territory
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(cast, django_user_model):
    """The skirmish left a draft, set at a Qatzrin territory, each side with a secret
    objective, and a player of the Phalon side."""
    battle = draft_skirmish(cast.campaign)
    place = Territory.objects.create(faction=cast.qatzrin, name="Ha'Ir", slug="ha-ir")
    Battle.objects.filter(pk=battle.pk).update(
        territory=place, scenario="A raid on **Ha'Ir**.", location="Ha'Ir orbit"
    )
    battle.sides.filter(order=0).update(
        primary_objective="Hold the yard.", secondary_objectives="Save the *Tzayad*."
    )
    battle.sides.filter(order=1).update(
        primary_objective="Burn the yard.", secondary_objectives="Spare the Silith."
    )
    phalon_player = django_user_model.objects.create_user("phalon_player", password="pw-12345!")
    Membership.objects.create(
        campaign=cast.campaign,
        user=phalon_player,
        role=Membership.Role.PLAYER,
        faction=Faction.objects.get(slug="phalon"),
    )
    cast.phalon_player = phalon_player
    return battle


def _get(cast, who, battle):
    client = Client()
    if who:
        client.force_login(getattr(cast, who))
    return client.get(f"/api/battles/{battle.pk}")


def test_a_sides_player_reads_their_own_briefing_and_nothing_of_the_other_side(cast, draft):
    response = _get(cast, "qatzrin_player", draft)
    assert response.status_code == 200, response.content
    assert response.json() == {
        "id": draft.pk,
        "name": "Skirmish skirmish",
        "slug": "skirmish",
        "campaign": "test-league",
        "campaign_turn": 2,
        "status": "draft",
        "briefing": {
            "place": "Ha'Ir",
            "scenario_html": "<p>A raid on <strong>Ha'Ir</strong>.</p>",
            "sides": [
                {
                    "faction": "Qatzrin",
                    "fleet": "qatzrin skirmish",
                    "primary_html": "<p>Hold the yard.</p>",
                    "secondary_html": "<p>Save the <em>Tzayad</em>.</p>",
                }
            ],
            "opponents": ["Phalon"],
        },
    }
    for secret in ("Burn the yard", "Spare the Silith", "phalon skirmish", "Huulth", "Nith"):
        assert secret not in response.text, secret


def test_the_other_sides_player_reads_theirs(cast, draft):
    body = _get(cast, "phalon_player", draft).json()
    assert [s["faction"] for s in body["briefing"]["sides"]] == ["Phalon"]
    assert body["briefing"]["sides"][0]["primary_html"] == "<p>Burn the yard.</p>"
    assert body["briefing"]["opponents"] == ["Qatzrin"]
    for secret in ("Hold the yard", "Tzayad", "qatzrin skirmish"):
        assert secret not in _get(cast, "phalon_player", draft).text, secret


@pytest.mark.parametrize("who", [None, "outsider", "chronicler", "norge_player"])
def test_anyone_outside_the_battle_gets_404_on_a_draft(cast, draft, who):
    assert _get(cast, who, draft).status_code == 404


def test_another_campaigns_organiser_gets_404(cast, rival, draft):
    client = Client()
    client.force_login(rival.organiser)
    assert client.get(f"/api/battles/{draft.pk}").status_code == 404


def test_the_organiser_still_reads_the_whole_draft(cast, draft):
    body = _get(cast, "organiser", draft).json()
    assert "briefing" not in body
    assert [s["primary_objective"] for s in body["sides"]] == ["Hold the yard.", "Burn the yard."]


def test_once_concluded_the_player_reads_the_battle_not_the_briefing(cast, draft):
    Battle.objects.filter(pk=draft.pk).update(status=Battle.Status.CONCLUDED)
    body = _get(cast, "qatzrin_player", draft).json()
    assert "briefing" not in body and body["status"] == "concluded"
    assert len(body["sides"]) == 2
