"""The API's refusals in the reader's language: ours through gettext
where raised, every 404 the same "not found" (never why, nor django-ninja's DEBUG text
naming the model), django-ninja's own 401 translated too."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from factions.models import Fleet

pytestmark = pytest.mark.django_db


def post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


@pytest.fixture
def player(cast):
    client = Client()
    client.force_login(cast.norge_player)
    return client


@pytest.mark.parametrize(
    "lang,designs,fleets",
    [
        (
            "fr",
            "seuls les organisateurs peuvent créer des plans",
            "seuls les organisateurs peuvent importer des flottes",
        ),
        ("en", "only organisers may create designs", "only organisers may import fleets"),
    ],
)
def test_organiser_only_refusals_follow_the_language(player, lang, designs, fleets):
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    response = post(player, "/api/designs", {"faction": "qatzrin"}, **headers)
    assert (response.status_code, response.json()["detail"]) == (403, designs)
    body = {"faction": "qatzrin", "name": "x", "text": "Sa'ar"}
    response = post(player, "/api/fleets/import", body, **headers)
    assert (response.status_code, response.json()["detail"]) == (403, fleets)


@pytest.mark.parametrize("debug", [False, True])
def test_every_404_says_the_same_in_the_readers_language(player, cast, settings, debug):
    """A missing battle and another faction's fleet (it exists) answer alike, also with
    DEBUG on, where django-ninja printed "Not Found: No Battle matches the given query."
    and "Not Found: not your faction's fleet"."""
    settings.DEBUG = debug

    Fleet.objects.create(faction=cast.qatzrin, name="Strike", slug="strike")
    move = {"fleet": "strike", "destination": "x", "destination_faction": "qatzrin"}
    answers = [
        player.get("/api/battles/999999"),
        post(player, f"/api/campaigns/{cast.campaign.slug}/moves", move),
    ]
    assert [(r.status_code, r.json()) for r in answers] == [(404, {"detail": "introuvable"})] * 2
    english = player.get("/api/battles/999999", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json() == {"detail": "not found"}


def test_django_ninjas_own_401_is_translated():
    response = post(Client(), "/api/designs", {"faction": "qatzrin"})
    assert response.status_code == 401
    assert response.json()["detail"].startswith("connectez-vous, ou envoyez un jeton personnel")
