"""The turn API: every action, the permission matrix, errors as 400 naming the field."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.turns.closing import campaign_turn_open
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder
from campaign.turns.treasury import treasury_adjust
from factions.models import ShipClass
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.django_db
# A member without the right (the chronicler) gets 403, anyone outside the campaign 404.
WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org", None]


def api(s, who):
    c = Client()
    if who:
        c.force_login(getattr(s, who))
    return c


def post(c, url, body=None):
    return c.post(url, body or {}, content_type="application/json")


@pytest.fixture
def played(sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=500,
        technology=2,
        reason="chest",
        user=s.organiser,
    )
    s.tord_a = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk").first()
    norway_battle(s.campaign, s.fleet, {s.tord_a: {"fate": "damaged", "hull_lost": 6}})
    return s


def _state():
    return (
        list(CampaignTurn.objects.values_list("number", "status")),
        LedgerEntry.objects.count(),
        RepairOrder.objects.count(),
        Construction.objects.count(),
    )


ACTS = {"organiser", "norge_player"}


@pytest.mark.parametrize("who", WHO)
def test_reads_matrix(played, who):
    c = api(played, who)
    for url in ("turn", "repairs", "constructions", "treasuries"):
        response = c.get(f"/api/campaigns/sample/{url}")
        expected = (
            401
            if who is None
            else 404
            if who in ("outsider", "other_org")
            else 403
            if who == "chronicler"
            else 200
        )
        assert response.status_code == expected, (url, response.content)
    if who == "qatzrin_player":
        body = c.get("/api/campaigns/sample/treasuries").json()
        assert [t["faction"] for t in body["treasuries"]] == ["qatzrin"] and body["ledger"] == []
        assert c.get("/api/campaigns/sample/turn").json()["preview"] is None
    if who == "organiser":
        preview = c.get("/api/campaigns/sample/turn").json()["preview"]
        assert {"faction": "Kongeriket Norge", "resources": 550, "technology": 1} in preview[
            "income"
        ]


@pytest.mark.parametrize("who", WHO)
def test_repair_order_matrix(played, who):
    s = played
    c = api(s, who)
    before = _state()
    quote = post(
        c, "/api/campaigns/sample/repairs", {"ship": s.tord_a.pk, "hull": 6, "dry_run": True}
    )
    response = post(c, "/api/campaigns/sample/repairs", {"ship": s.tord_a.pk, "hull": 6})
    if who in ACTS:
        assert (
            quote.status_code == 200 and quote.json()["cost"] == 6 and quote.json()["eta_turn"] == 1
        )
        assert response.status_code == 201, response.content
        assert response.json()["left"]["hull"] == 6
    else:
        expected = 401 if who is None else 403 if who in ("qatzrin_player", "chronicler") else 404
        assert quote.status_code == response.status_code == expected, response.content
        assert _state() == before


def test_repair_errors_are_400_naming_the_ship_and_change_nothing(played):
    s = played
    c = api(s, "norge_player")
    destroyed = s.fleet.ships.exclude(pk=s.tord_a.pk).filter(ship_class__name="Tordenskjold").get()
    destroyed.status = "destroyed"
    destroyed.save()
    before = _state()
    r = post(c, "/api/campaigns/sample/repairs", {"ship": destroyed.pk, "hull": 1})
    assert r.status_code == 400
    assert r.json()["detail"] == (
        f"vaisseau Tordenskjold #{destroyed.pk} est au statut «\u202fdétruit\u202f»\u202f: "
        "il ne peut pas être réparé"
    )
    r = post(c, "/api/campaigns/sample/repairs", {"ship": s.tord_a.pk, "hull": 7})
    assert r.status_code == 400 and r.json()["detail"].startswith(
        "coque\u202f: 7 pour vaisseau Tordenskjold"
    )
    # The same refusal in English for a reader who asks for it.
    r = c.post(
        "/api/campaigns/sample/repairs",
        {"ship": s.tord_a.pk, "hull": 7},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.status_code == 400 and r.json()["detail"].startswith("hull: 7 for ship Tordenskjold")
    assert _state() == before


@pytest.mark.parametrize("who", WHO)
def test_turn_actions_matrix(played, who):
    c = api(played, who)
    before = _state()
    close = post(c, "/api/campaigns/sample/turn/close")
    if who == "organiser":
        assert close.status_code == 200 and close.json()["last_closed"]["number"] == 1
        again = post(c, "/api/campaigns/sample/turn/close")
        assert again.status_code == 400
        assert again.json()["detail"] == "Sample campaign: Miranda n’a pas de tour ouvert à clore"
        opened = post(
            c, "/api/campaigns/sample/turn/open", {"deadline": "2099-01-01T18:00:00+01:00"}
        )
        assert opened.status_code == 200
        assert opened.json()["open"]["deadline"].startswith("2099-01-01T17:00:00")  # UTC
        reopened = post(c, "/api/campaigns/sample/turn/reopen", {"turn": 1})
        assert reopened.status_code == 200 and reopened.json()["open"]["number"] == 1
    else:
        expected = (
            401 if who is None else 403 if who in ACTS | {"qatzrin_player", "chronicler"} else 404
        )
        assert close.status_code == expected
        for action in ("open", "reopen"):
            body = {"turn": 1} if action == "reopen" else None
            assert post(c, f"/api/campaigns/sample/turn/{action}", body).status_code == expected
        assert _state() == before


@pytest.mark.parametrize("who", WHO)
def test_construction_and_treasury_matrix(played, who):
    s = played
    c = api(s, who)
    before = _state()
    spec = {
        "faction": "kongeriket-norge",
        "yard": "trondelag",
        "fleet": s.fleet.slug,
        "light_kind": "gunboat",
    }
    build = post(
        c, "/api/campaigns/sample/constructions", {**spec, "light_variant": "heavy-transport"}
    )
    adjust = post(
        c,
        "/api/campaigns/sample/treasury/adjust",
        {"faction": "qatzrin", "resources": 10, "reason": "x"},
    )
    if who in ACTS:
        assert (
            build.status_code == 201
            and build.json()["cost"] == 72
            and build.json()["tech_cost"] == 1
        )
    if who == "organiser":
        assert adjust.status_code == 201 and adjust.json()["user"] == "organiser"
    if who not in ACTS:
        expected = 401 if who is None else 403 if who in ("qatzrin_player", "chronicler") else 404
        assert build.status_code == adjust.status_code == expected
        assert _state() == before
    if who == "norge_player":
        assert adjust.status_code == 403


def test_a_design_with_wrong_stated_points_is_flagged_in_the_quote(played):
    s = played
    vaktar = ShipClass.objects.get(faction=s.norge, name="Vaktar")
    vaktar.points = 99
    vaktar.save()
    body = {
        "faction": "kongeriket-norge",
        "yard": "trondelag",
        "fleet": s.fleet.slug,
        "ship_class": vaktar.pk,
    }
    r = post(api(s, "organiser"), "/api/campaigns/sample/constructions", {**body, "dry_run": True})
    assert r.status_code == 200
    assert (r.json()["cost"], r.json()["points_stated"], r.json()["points_flagged"]) == (
        67,
        99,
        True,
    )


def test_cancel_via_api_refunds(played):
    s = played
    c = api(s, "norge_player")
    order = post(c, "/api/campaigns/sample/repairs", {"ship": s.tord_a.pk, "hull": 6}).json()
    assert (
        post(
            api(s, "qatzrin_player"), f"/api/campaigns/sample/repairs/{order['id']}/cancel"
        ).status_code
        == 404
    )
    r = post(c, f"/api/campaigns/sample/repairs/{order['id']}/cancel")
    assert r.status_code == 200 and r.json()["refunded"] == 6 and r.json()["status"] == "cancelled"


def test_fleet_api_counts_only_ships_afloat(sample):
    body = Client().get("/api/fleets/g-plus-ganesha-long-range-force").json()
    # Miranda: 4 of the 10 G+ ships destroyed, 3 damaged (sample fates)
    assert body["territory"] == "miranda-colony-a"
    t = body["totals"]
    assert (t["afloat"], t["lost"], t["damaged"]) == (6, 4, 3)
    assert (t["points"], t["lost_points"], t["damaged_points"]) == (1170, 1562, 355)
