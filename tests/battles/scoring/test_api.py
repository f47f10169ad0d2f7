"""The standings and scoring API: who may read and write, exact values, refusals naming
the field."""

from __future__ import annotations

import json

import pytest

from battles.models import BattleSide, ScoringRules
from tests.battles.scoring.scoring_fixtures import (
    participant,
    record_qatzrin_victory,
    scored_battle,
)
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def recorded(cast, rival, django_user_model):
    battle = scored_battle(cast, django_user_model)
    return record_qatzrin_victory(battle, cast.organiser)


def put(client, url: str, body) -> object:
    return client.put(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("who", "players"),
    [("organiser", True), ("qatzrin_player", True), ("norge_player", True), ("chronicler", True),
     ("outsider", False), ("other_org", False), (None, False)],
)  # fmt: skip
def test_standings_read_by_anyone_players_for_members(cast, rival, recorded, who, players):
    response = client_for(cast, rival, who).get(f"/api/campaigns/{cast.campaign.slug}/standings")
    assert response.status_code == 200
    body = response.json()
    qatzrin = next(r for r in body["factions"] if r["faction"] == "qatzrin")
    assert qatzrin == {
        "faction": "qatzrin", "name": "Qatzrin", "vp": 8, "battles_vp": 3, "objectives_vp": 0,
        "destroyed_vp": 5, "holdings_vp": 0, "mass_destroyed": 128, "mass_lost": 17,
    }  # fmt: skip
    assert body["turns"] == [1, 2]
    assert {s["faction"]: s["values"] for s in body["vp_series"]} == {
        "qatzrin": [0, 8],
        "phalon": [0, 0],
        "kongeriket-norge": [0, 0],
    }
    expected = [
        {"name": "qatzrin_player", "faction": "qatzrin", "vp": 5},
        {"name": "qatzrin_second", "faction": "qatzrin", "vp": 3},
        {"name": "norge_player", "faction": "kongeriket-norge", "vp": 0},
    ]
    assert body["players"] == (expected if players else [])
    assert body["rules"]["victory"] == 3


def test_standings_of_no_campaign_is_404(cast, rival):
    assert client_for(cast, rival, None).get("/api/campaigns/nowhere/standings").status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("norge_player", 403), ("qatzrin_player", 403), ("chronicler", 403),
     ("outsider", 404), ("other_org", 404), (None, 401)],
)  # fmt: skip
def test_scoring_rules_put_matrix(cast, rival, who, status):
    client = client_for(cast, rival, who)
    url = f"/api/campaigns/{cast.campaign.slug}/scoring-rules"
    assert client.get(url).status_code == 200
    response = put(client, url, {"victory": 4, "destroyed_per": 50})
    assert response.status_code == status
    if status == 200:
        assert response.json()["victory"] == 4
        assert response.json()["destroyed_per"] == 50
    assert ScoringRules.objects.filter(campaign=cast.campaign, victory=4).exists() == (
        status == 200
    )


def test_scoring_rules_bad_values_are_422_naming_each_field(cast, rival):
    client = client_for(cast, rival, "organiser")
    body = {"victory": -1, "draw": 1.5, "destroyed_per": 0, "bonus": 2, "defeat": 9}
    response = put(client, f"/api/campaigns/{cast.campaign.slug}/scoring-rules", body)
    assert response.status_code == 422
    fields = [e["field"] for e in response.json()["errors"]]
    assert fields == ["victory", "draw", "destroyed_per", "bonus"]
    assert not ScoringRules.objects.filter(campaign=cast.campaign, defeat=9).exists()


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("norge_player", 403), ("qatzrin_player", 403), ("chronicler", 403),
     ("outsider", 404), ("other_org", 404), (None, 401)],
)  # fmt: skip
def test_objectives_put_matrix(cast, rival, recorded, who, status):
    response = put(client_for(cast, rival, who), f"/api/battles/{recorded.pk}/objectives",
                   {"qatzrin": 2})  # fmt: skip
    assert response.status_code == status
    if status == 200:
        assert {"faction": "qatzrin", "objectives_met": 2} in response.json()
        # The concluded battle's awards follow: 8 + 2 objectives.
        standings = (
            client_for(cast, rival, None)
            .get(f"/api/campaigns/{cast.campaign.slug}/standings")
            .json()
        )
        assert standings["factions"][0]["vp"] == 10
    met = BattleSide.objects.get(battle=recorded, faction=cast.qatzrin).objectives_met
    assert met == (2 if status == 200 else 0)


def test_objectives_of_no_side_is_422(cast, rival, recorded):
    response = put(client_for(cast, rival, "organiser"), f"/api/battles/{recorded.pk}/objectives",
                   {"kongeriket-norge": 1, "qatzrin": 101})  # fmt: skip
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == [
        "objectives_met.kongeriket-norge",
        "objectives_met.qatzrin",
    ]


def test_record_api_takes_the_objectives_met(cast, rival, django_user_model):
    battle = scored_battle(cast, django_user_model)
    client = client_for(cast, rival, "organiser")
    url = f"/api/battles/{battle.pk}/record"
    body = {"results": [{"participant": 999999, "fate": "destroyed"}], "winner": "qatzrin",
            "objectives_met": {"qatzrin": 2, "phalon": 1}}  # fmt: skip
    assert client.post(url, body, content_type="application/json").status_code == 400
    # Refused: the objectives were not kept either (one transaction).
    assert list(battle.sides.values_list("objectives_met", flat=True)) == [0, 0]
    body["results"] = [{"participant": participant(battle, "tsaara").pk, "fate": "destroyed"}]
    assert client.post(url, body, content_type="application/json").status_code == 200
    standings = client.get(f"/api/campaigns/{cast.campaign.slug}/standings").json()
    vp = {r["faction"]: (r["vp"], r["objectives_vp"]) for r in standings["factions"]}
    # Qatzrin: victory 3 + 2 objectives + 225 // 100 = 7; the Phalon: 1 objective.
    assert vp == {"qatzrin": (7, 2), "phalon": (1, 1), "kongeriket-norge": (0, 0)}
