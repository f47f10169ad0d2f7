"""The battle actions API (battles/api/actions.py) and the resolve body:
the permission matrix per endpoint, set-up, preview, reseed, record entries, reopen."""

from __future__ import annotations

import json

import pytest

from battles.models import Battle, Event, RecordEntry
from battles.services import record_submit
from factions.models import Ship
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.conftest import WHO, login

pytestmark = pytest.mark.django_db


def _csrf_client(client):
    client.handler.enforce_csrf_checks = False
    return client


def _call(client, league, endpoint):
    b = league.battle.pk
    slug = league.campaign.slug
    if endpoint == "candidates":
        return client.get(f"/api/campaigns/{slug}/battle-candidates")
    if endpoint == "create":
        return client.post(
            f"/api/campaigns/{slug}/battles",
            json.dumps({"name": "x", "sides": [{"faction": "qatzrin"}, {"faction": "phalon"}]}),
            content_type="application/json",
        )
    if endpoint == "preview":
        return client.get(f"/api/battles/{b}/preview")
    if endpoint == "reseed":
        return client.post(f"/api/battles/{b}/reseed", "{}", content_type="application/json")
    if endpoint == "reopen":
        return client.post(f"/api/battles/{b}/reopen", "{}", content_type="application/json")
    if endpoint == "timeline":
        return client.get(f"/api/battles/{b}/timeline")
    if endpoint == "entry":
        body = {"side": "qatzrin", "results": []}
        return client.post(
            f"/api/battles/{b}/record-entries", json.dumps(body), content_type="application/json"
        )
    if endpoint == "decide":
        side = league.battle.sides.get(faction__slug="qatzrin")
        entry = record_submit(
            battle=league.battle, side=side, results=[], user=league.qatzrin_player
        )
        return client.post(f"/api/battles/{b}/record-entries/{entry.pk}/confirm")
    if endpoint == "resolve":
        return client.post(f"/api/battles/{b}/resolve", '"hello"', content_type="application/json")
    if endpoint == "record":
        body = json.dumps({"winner": "no-such-faction"})
        return client.post(f"/api/battles/{b}/record", body, content_type="application/json")
    if endpoint == "forecast":
        return client.get(f"/api/battles/{b}/forecast?battles=2")
    raise AssertionError(endpoint)


# Expected status per WHO (organiser, own player, rival player, chronicler, outsider,
# other campaign's organiser, anonymous). 400/422: allowed, but this body is refused.
MATRIX = {
    "candidates": [200, 403, 403, 403, 404, 404, 401],
    "create": [400, 403, 403, 403, 404, 404, 401],
    "preview": [400, 403, 403, 404, 404, 404, 401],
    "reseed": [200, 403, 403, 404, 404, 404, 401],
    "reopen": [400, 403, 403, 404, 404, 404, 401],
    "timeline": [200, 403, 403, 404, 404, 404, 401],
    "entry": [201, 201, 403, 404, 404, 404, 401],
    "decide": [200, 403, 200, 404, 404, 404, 401],
    "resolve": [422, 403, 403, 404, 404, 404, 401],
    "record": [400, 403, 403, 404, 404, 404, 401],
    "forecast": [200, 403, 403, 404, 404, 404, 401],
}


@pytest.mark.parametrize("endpoint", list(MATRIX))
@pytest.mark.parametrize("index", range(len(WHO)))
def test_permission_matrix_of_the_action_endpoints(client, league, endpoint, index):
    login(client, league, WHO[index])
    response = _call(client, league, endpoint)
    assert response.status_code == MATRIX[endpoint][index], (WHO[index], response.content)
    league.battle.refresh_from_db()
    assert league.battle.status == "draft"


@pytest.mark.parametrize("action", ["forecast", "resolve", "record"])
def test_another_campaigns_draft_is_404_to_a_player_as_an_unknown_id(client, league, action):
    """A player (who organises nothing) met 403 on another campaign's
    draft, telling that it exists, where every other route answers 404."""
    hidden = draft_skirmish(league.rival.campaign, slug="rival-draft", phalon=("Tsaara",))
    client.force_login(league.qatzrin_player)
    for battle_id in (hidden.pk, 999999):
        url = f"/api/battles/{battle_id}/{action}"
        if action == "forecast":
            response = client.get(url + "?battles=2")
        else:
            response = client.post(url, "{}", content_type="application/json")
        assert response.status_code == 404, (battle_id, response.content)
    # Their own campaign's draft: it exists for them, the refusal says why.
    response = client.get(f"/api/battles/{league.battle.pk}/forecast?battles=2")
    assert response.status_code == 403


@pytest.mark.parametrize("body", ['"hello"', "[]", json.dumps(json.dumps({"seed": 5})), "7", "{"])
def test_a_resolve_body_that_is_not_an_object_is_422_and_changes_nothing(client, league, body):
    client.force_login(league.organiser)
    ships = list(Ship.objects.order_by("pk").values())
    response = client.post(
        f"/api/battles/{league.battle.pk}/resolve", body, content_type="application/json"
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("body")
    league.battle.refresh_from_db()
    assert (league.battle.status, league.battle.seed) == ("draft", None)
    assert list(Ship.objects.order_by("pk").values()) == ships
    assert not Event.objects.exists()


@pytest.mark.parametrize("body", ['"hello"', "[]", "7"])
def test_a_record_body_that_is_not_an_object_is_422_and_concludes_nothing(client, league, body):
    client.force_login(league.organiser)
    response = client.post(
        f"/api/battles/{league.battle.pk}/record", body, content_type="application/json"
    )
    assert response.status_code == 422, response.content
    assert "objet JSON" in response.json()["detail"]
    league.battle.refresh_from_db()
    assert league.battle.status == "draft"


def test_resolve_with_an_object_or_no_body_still_concludes(client, league):
    client.force_login(league.organiser)
    response = client.post(
        f"/api/battles/{league.battle.pk}/resolve",
        json.dumps({"seed": 7, "max_turns": 3}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert (response.json()["seed"], response.json()["status"]) == (7, "concluded")
    assert client.post(f"/api/battles/{league.battle.pk}/resolve").status_code == 400


def test_set_up_preview_reseed_resolve_reopen_through_the_api(client, league):
    client.force_login(league.organiser)
    slug = league.campaign.slug
    candidates = client.get(f"/api/campaigns/{slug}/battle-candidates").json()
    held = set(league.battle.sides.values_list("participants__ship_id", flat=True))
    assert not {s["id"] for s in candidates["ships"]} & held
    q_class = Ship.objects.filter(fleet__faction__slug="qatzrin").first()
    p_class = Ship.objects.filter(fleet__faction__slug="phalon").first()
    a = Ship.objects.create(ship_class=q_class.ship_class, fleet=q_class.fleet, name="A")
    b = Ship.objects.create(ship_class=p_class.ship_class, fleet=p_class.fleet, name="B")
    body = {
        "name": "API clash",
        "campaign_turn": 2,
        "sides": [
            {"faction": "qatzrin", "ships": [a.pk], "primary_objective": "Win"},
            {"faction": "phalon", "ships": [b.pk]},
        ],
    }
    created = client.post(
        f"/api/campaigns/{slug}/battles", json.dumps(body), content_type="application/json"
    )
    assert created.status_code == 201, created.content
    bid = created.json()["id"]
    # The held ship is refused by name.
    body["sides"][0]["ships"] = [next(iter(held - {None}))]
    refused = client.post(
        f"/api/campaigns/{slug}/battles", json.dumps(body), content_type="application/json"
    )
    assert refused.status_code == 400 and "sides[0] (Qatzrin).ships" in refused.json()["detail"]
    assert client.get(f"/api/battles/{bid}/preview").status_code == 400  # no seed yet
    seed = client.post(f"/api/battles/{bid}/reseed", "{}", content_type="application/json")
    again = client.post(f"/api/battles/{bid}/reseed", "{}", content_type="application/json")
    assert again.status_code == 400 and "reason" in again.json()["detail"]
    preview = client.get(f"/api/battles/{bid}/preview").json()
    assert preview["seed"] == seed.json()["seed"] and len(preview["units"]) == 2
    done = client.post(f"/api/battles/{bid}/resolve")
    assert done.status_code == 200 and done.json()["outcome"] == preview["outcome"]
    assert Ship.objects.get(pk=a.pk).status == next(
        ("destroyed" if u["fate"] == "destroyed" else Ship.objects.get(pk=a.pk).status)
        for u in preview["units"]
        if u["participant"] == Battle.objects.get(pk=bid).sides.first().participants.get().pk
    )
    reopened = client.post(
        f"/api/battles/{bid}/reopen",
        json.dumps({"reason": "test"}),
        content_type="application/json",
    )
    assert reopened.json()["status"] == "draft"
    a.refresh_from_db()
    assert (a.status, a.hull_lost, a.systems_lost) == ("active", 0, [])
    kinds = [t["kind"] for t in client.get(f"/api/battles/{bid}/timeline").json()]
    assert kinds == ["create", "reseed", "conclude", "reopen"]


def test_record_entries_through_the_api(client, league):
    battle = league.battle
    raam = battle.sides.get(faction__slug="qatzrin").participants.first()
    client.force_login(league.qatzrin_player)
    url = f"/api/battles/{battle.pk}/record-entries"
    bad = {"side": "qatzrin", "results": [{"participant": raam.pk, "fate": "damaged",
                                           "hull_lost": 99}]}  # fmt: skip
    response = client.post(url, json.dumps(bad), content_type="application/json")
    assert response.status_code == 400
    assert f"participant {raam.pk}" in response.json()["detail"]
    assert "hull_lost\u202f: 99, mais il reste au" in response.json()["detail"]
    mine = client.post(
        url, json.dumps({"side": "phalon", "results": []}), content_type="application/json"
    )
    assert mine.status_code == 403  # not their side
    ok = client.post(
        url, json.dumps({"side": "qatzrin", "results": [], "winner": "phalon"}),
        content_type="application/json",
    )  # fmt: skip
    entry = ok.json()["id"]
    confirm = f"{url}/{entry}/confirm"
    assert client.post(confirm).status_code == 403  # own side
    client.force_login(league.phalon_player)
    assert client.post(confirm).json()["status"] == "confirmed"
    assert RecordEntry.objects.get(pk=entry).confirmed_by == league.phalon_player
