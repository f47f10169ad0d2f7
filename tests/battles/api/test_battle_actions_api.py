"""POST /api/battles/{id}/resolve and /record: organisers only, errors as 400."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle, Event, Participant


def client_for(user=None, *, enforce_csrf=False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    if user is not None:
        client.force_login(user)
    return client


def post(client: Client, url: str, body: dict | None = None):
    return client.post(url, body if body is not None else {}, content_type="application/json")


def test_an_organiser_resolves_a_battle_with_a_seed(cast, battle):
    response = post(client_for(cast.organiser), f"/api/battles/{battle.pk}/resolve", {"seed": 42})
    assert response.status_code == 200, response.content
    body = response.json()
    battle.refresh_from_db()
    assert body["status"] == "concluded" and body["mode"] == "resolved"
    assert body["seed"] == 42 == battle.seed
    assert body["winner"] == battle.winner.slug
    assert body["events"] == Event.objects.filter(battle=battle).count()
    assert 0 < body["rolls"] < body["events"]
    assert body["version"] == 2


def test_resolve_without_a_body_uses_a_random_seed_and_stores_it(cast, battle):
    response = client_for(cast.organiser).post(
        f"/api/battles/{battle.pk}/resolve", "", content_type="application/json"
    )
    assert response.status_code == 200, response.content
    battle.refresh_from_db()
    assert battle.seed is not None and response.json()["seed"] == battle.seed


@pytest.mark.parametrize(
    "who,status",
    # A player of a side sees the draft and is told why not; anyone else may not see it,
    # 404 as every route answers, so no status tells the battle exists.
    [("norge_player", 404), ("qatzrin_player", 403), ("chronicler", 404), ("outsider", 404)],
)
def test_only_organisers_may_resolve_or_record(cast, battle, who, status):
    client = client_for(getattr(cast, who))
    for action, body in (("resolve", {}), ("record", {"outcome": "x"})):
        response = post(client, f"/api/battles/{battle.pk}/{action}", body)
        assert response.status_code == status, (action, response.content)
    battle.refresh_from_db()
    assert battle.status == "draft" and not battle.events.exists()


def test_anonymous_users_get_401_and_nothing_changes(battle):
    for action in ("resolve", "record"):
        assert post(client_for(), f"/api/battles/{battle.pk}/{action}").status_code == 401
    assert Battle.objects.get(pk=battle.pk).status == "draft"


def test_a_cross_site_post_without_the_csrf_token_is_refused(cast, battle):
    client = client_for(cast.organiser, enforce_csrf=True)
    response = post(client, f"/api/battles/{battle.pk}/resolve", {"seed": 1})
    assert response.status_code == 403
    assert Battle.objects.get(pk=battle.pk).status == "draft"


def test_refusals_are_400_with_the_message(cast, battle):
    client = client_for(cast.organiser)
    assert post(client, f"/api/battles/{battle.pk}/resolve", {"seed": 3}).status_code == 200
    again = post(client, f"/api/battles/{battle.pk}/resolve", {"seed": 3})
    assert again.status_code == 400
    assert again.json()["detail"] == (  # in French, the default language
        f"bataille {battle.pk} (Skirmish skirmish) est déjà conclue "
        "(résolue par le moteur de règles)\u202f; rien n’a changé"
    )
    english = client.post(
        f"/api/battles/{battle.pk}/resolve",
        {"seed": 3},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.status_code == 400
    assert english.json()["detail"] == (
        f"battle {battle.pk} (Skirmish skirmish) is already concluded "
        "(resolved by the rules engine); nothing changed"
    )
    assert post(client, "/api/battles/999999/resolve").status_code == 404
    bad = post(client, f"/api/battles/{battle.pk}/resolve", {"max_turns": 500})
    assert bad.status_code in (400, 422)


def test_an_organiser_records_a_table_game(cast, battle):
    huulth = Participant.objects.get(side__battle=battle, ship__ship_class__name="Huulth")
    # The draft's participant ids, as an organiser's client finds them.
    detail = client_for(cast.organiser).get(f"/api/battles/{battle.pk}").json()
    ids = {p["name"]: p["id"] for side in detail["sides"] for p in side["participants"]}
    assert ids["Huulth"] == huulth.pk
    body = {
        "results": [
            {"participant": huulth.pk, "fate": "damaged", "hull_lost": 2, "systems_lost": ["fc-1"]}
        ],
        "outcome": "Qatzrin victory on the table.",
        "winner": "qatzrin",
        "game_turns": 4,
        "narrative": "### Turn 1\n\nThe destroyers close in.",
    }
    response = post(client_for(cast.organiser), f"/api/battles/{battle.pk}/record", body)
    assert response.status_code == 200, response.content
    assert response.json()["mode"] == "recorded" and response.json()["winner"] == "qatzrin"
    assert Battle.objects.get(pk=battle.pk).narrative.startswith("### Turn 1")
    huulth.refresh_from_db()
    assert (huulth.fate, huulth.hull_lost, huulth.systems_lost) == ("damaged", 2, ["fc-1"])
    assert huulth.ship.hull_lost == 2 and huulth.ship.status == "damaged"


def test_a_record_the_ssd_refuses_is_400_naming_participant_and_field(cast, battle):
    huulth = Participant.objects.get(side__battle=battle, ship__ship_class__name="Huulth")
    body = {
        "results": [{"participant": huulth.pk, "fate": "damaged", "systems_lost": ["nope"]}],
        "winner": "phalon",
    }
    response = post(client_for(cast.organiser), f"/api/battles/{battle.pk}/record", body)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert (
        f"participant {huulth.pk}" in detail
        and "systems_lost\u202f: ['nope'] ne sont pas" in detail
    )
    huulth.refresh_from_db()
    assert huulth.ship.systems_lost == [] and Battle.objects.get(pk=battle.pk).status == "draft"


@pytest.mark.parametrize("turns", [99999999999999999999, 4294967296, 51, -1])
def test_a_game_turns_outside_0_to_the_turn_limit_is_422_not_500(cast, battle, turns):
    # 10**20 was once a 500 (OverflowError in SQLite), 2**32 was recorded.
    client = client_for(cast.organiser)
    response = post(client, f"/api/battles/{battle.pk}/record", {"game_turns": turns})
    assert response.status_code == 422, response.content
    assert "game_turns" in response.content.decode()
    battle.refresh_from_db()
    assert battle.status == "draft" and battle.game_turns is None


def test_craft_lost_on_a_ship_is_refused_naming_participant_and_field(cast, battle):
    # Once {"participant": <a ship>, "craft_lost": 5} was a 200.
    huulth = Participant.objects.get(side__battle=battle, ship__ship_class__name="Huulth")
    body = {"results": [{"participant": huulth.pk, "craft_lost": 5}], "winner": "phalon"}
    response = post(client_for(cast.organiser), f"/api/battles/{battle.pk}/record", body)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert f"participant {huulth.pk}" in detail
    assert "craft_lost\u202f: 5, mais un vaisseau n’a pas de craft_lost" in detail
    assert Battle.objects.get(pk=battle.pk).status == "draft"
