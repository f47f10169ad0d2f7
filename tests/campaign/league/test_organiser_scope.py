"""An organiser runs *their* campaigns only. An organiser of another
campaign may not resolve, record or forecast a battle, nor see its drafts, nor import
fleets or designs for a faction outside their campaigns; staff keep full access."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.league.roles import is_organiser
from factions.access import can_see_faction_secrets, organises_faction, visible_fleets
from factions.models import Fleet, ShipClass
from tests.conftest import logged_in as client_for
from tests.factions.api.test_designs_api import ftl_fleet
from tests.factions.factories import valid_design as design


def post(client: Client, url: str, body: dict):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_is_organiser_is_per_campaign(cast, rival):
    assert is_organiser(rival.organiser)  # of some campaign: unchanged meaning
    assert is_organiser(rival.organiser, rival.campaign)
    assert not is_organiser(rival.organiser, cast.campaign)
    assert is_organiser(cast.organiser, cast.campaign)
    assert is_organiser(rival.staff, cast.campaign)
    assert not is_organiser(cast.norge_player, cast.campaign)
    assert not is_organiser(None, cast.campaign)
    assert organises_faction(cast.organiser, cast.qatzrin)
    assert not organises_faction(cast.organiser, rival.phalon)
    assert not organises_faction(rival.organiser, cast.qatzrin)
    assert organises_faction(rival.staff, cast.qatzrin)


def test_another_campaigns_organiser_may_not_act_on_the_battle(cast, rival, battle):
    # Another campaign's draft is not even admitted to exist (404, as an unknown id)...
    client = client_for(rival.organiser)
    for action, body in (("resolve", {"seed": 1}), ("record", {"outcome": "x"})):
        response = post(client, f"/api/battles/{battle.pk}/{action}", body)
        assert response.status_code == 404, (action, response.content)
    response = client.get(f"/api/battles/{battle.pk}/forecast", {"battles": 2})
    assert response.status_code == 404
    battle.refresh_from_db()
    assert battle.status == "draft" and not battle.events.exists()
    # ...nor a concluded one: its campaign's actions do not exist for an outsider...
    battle_resolve(user=SYSTEM, battle=battle, seed=1, max_turns=3)
    response = post(client, f"/api/battles/{battle.pk}/record", {"outcome": "x"})
    assert response.status_code == 404
    # ...while a member of the campaign who does not organise it is refused with the reason.
    response = post(
        client_for(cast.chronicler), f"/api/battles/{battle.pk}/record", {"outcome": "x"}
    )
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "seuls les organisateurs de la campagne «\u202ftest-league\u202f» peuvent enregistrer "
        "ses batailles "
        f"(bataille {battle.pk})"
    )


def test_another_campaigns_organiser_does_not_see_the_draft(cast, rival, battle):
    client = client_for(rival.organiser)
    assert client.get(reverse("battle-detail", args=[battle.pk])).status_code == 404
    assert client.get(f"/api/battles/{battle.pk}").status_code == 404
    assert battle.pk not in [b["id"] for b in client.get("/api/battles").json()]
    assert battle.name not in client.get(reverse("home")).content.decode()
    own = Battle.objects.create(campaign=rival.campaign, name="Own draft", slug="own-draft")
    assert client.get(f"/api/battles/{own.pk}").status_code == 200
    assert client.get(reverse("battle-detail", args=[own.pk])).status_code == 200


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_the_campaigns_organiser_and_staff_still_act(cast, rival, battle, who):
    user = cast.organiser if who == "organiser" else rival.staff
    client = client_for(user)
    assert client.get(f"/api/battles/{battle.pk}").status_code == 200
    assert client.get(reverse("battle-detail", args=[battle.pk])).status_code == 200
    forecast = client.get(f"/api/battles/{battle.pk}/forecast", {"battles": 2, "max_turns": 3})
    assert forecast.status_code == 200, forecast.content
    response = post(client, f"/api/battles/{battle.pk}/resolve", {"seed": 3, "max_turns": 3})
    assert response.status_code == 200, response.content
    assert Battle.objects.get(pk=battle.pk).status == "concluded"


def test_fleet_import_is_for_organisers_of_a_campaign_of_the_faction(cast, rival):
    body = {"faction": "qatzrin", "name": "Raiders", "text": "nothing parsed before the check"}
    response = post(client_for(rival.organiser), "/api/fleets/import", body)
    assert response.status_code == 403
    # In the reader's language (French by default).
    assert (
        "seuls les organisateurs d’une campagne de «\u202fqatzrin\u202f»"
        in response.json()["detail"]
    )
    assert not Fleet.objects.exists()
    # the cast's organiser may not import for the Phalon (rival campaign only) either
    body["faction"] = "phalon"
    assert post(client_for(cast.organiser), "/api/fleets/import", body).status_code == 403
    # staff pass the check (and then get the fleet list's own 400)
    assert post(client_for(rival.staff), "/api/fleets/import", body).status_code == 400


def test_design_create_and_import_are_scoped_to_the_faction(cast, rival):
    doc = design()  # a Qatzrin design
    response = post(client_for(rival.organiser), "/api/designs", doc)
    assert response.status_code == 403
    assert "peuvent créer ses plans" in response.json()["detail"]
    body = {"faction": "qatzrin", "data": ftl_fleet(), "dry_run": True}
    response = post(client_for(rival.organiser), "/api/designs/import", body)
    assert response.status_code == 403
    assert "peuvent importer ses plans" in response.json()["detail"]
    assert not ShipClass.objects.exists()
    assert post(client_for(cast.organiser), "/api/designs/import", body).status_code == 200
    assert post(client_for(rival.staff), "/api/designs/import", body).status_code == 200


def test_hidden_fleets_are_seen_by_their_campaigns_organisers_only(cast, rival):
    hidden = Fleet.objects.create(
        faction=cast.qatzrin, name="Secret 9th", slug="secret-9th", hidden=True
    )
    own = Fleet.objects.create(
        faction=rival.phalon, name="Phalon reserve", slug="phalon-reserve", hidden=True
    )
    for user, sees_qatzrin, sees_phalon in (
        (cast.organiser, True, False),  # the cast's campaign has no Phalon here
        (rival.organiser, False, True),
        (rival.staff, True, True),
        (cast.norge_player, False, False),
        (None, False, False),
    ):
        ids = set(visible_fleets(user).values_list("pk", flat=True))
        assert (hidden.pk in ids, own.pk in ids) == (sees_qatzrin, sees_phalon), user
        assert can_see_faction_secrets(user, cast.qatzrin) is sees_qatzrin, user
        assert can_see_faction_secrets(user, rival.phalon) is sees_phalon, user
    assert can_see_faction_secrets(cast.qatzrin_player, cast.qatzrin)
    # pages and API go through the same helper
    page = client_for(rival.organiser).get(reverse("faction-detail", args=[cast.qatzrin.slug]))
    assert "Secret 9th" not in page.content.decode()
    listing = client_for(rival.organiser).get("/api/fleets").json()
    assert "Secret 9th" not in {f["name"] for f in listing}
