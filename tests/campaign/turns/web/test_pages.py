"""The turn pages: who sees and does what (organiser / own player / rival player /
chronicler / outsider / anonymous; other campaigns 404), and what they show."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.turns.building import construction_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder
from campaign.turns.repairs import repair_order
from campaign.turns.treasury import treasury_adjust
from factions.models import Faction, ShipClass, Territory
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.django_db

WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org", None]


def client_for(s, who):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who:
        c.force_login(getattr(s, who))
    return c


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
    norway_battle(
        s.campaign,
        s.fleet,
        {s.tord_a: {"fate": "damaged", "hull_lost": 6, "systems_lost": ["beam-a"]}},
    )
    s.tord_a.refresh_from_db()
    s.order = repair_order(
        campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=6, systems=["beam-a"]
    )
    return s


# who: expected status of GET /campaigns/sample/turn/
TURN_PAGE = {
    "organiser": 200,
    "norge_player": 200,
    "qatzrin_player": 200,
    "chronicler": 403,  # a member without a faction: refused, not hidden
    "outsider": 404,
    "other_org": 404,
    None: 302,
}


@pytest.mark.parametrize("who", WHO)
def test_turn_page_matrix(played, who):
    s = played
    response = client_for(s, who).get("/campaigns/sample/turn/")
    assert response.status_code == TURN_PAGE[who]
    if response.status_code != 200:
        return
    html = response.content.decode()
    sees_norway = who in ("organiser", "norge_player")
    assert ("<h3>Trøndelag</h3>" in html) is sees_norway  # the yard's queue
    assert ("chest" in html) is sees_norway  # the ledger
    assert ('action="/campaigns/sample/turn/close/"' in html) is (who == "organiser")


def test_the_organiser_sees_what_closing_will_do(played):
    html = client_for(played, "organiser").get("/campaigns/sample/turn/").content.decode()
    assert "Kongeriket Norge: income 550 resources, 1 technology" in html
    assert "Mijna 2 (2 craft) lost with its carrier Kajna" in html  # the sample's 4 G+ groups
    assert "restored: hull 6, armour 0, crew 0, systems 1 — done" in html


@pytest.mark.parametrize("who", WHO)
def test_turn_actions_matrix(played, who):
    s = played
    c = client_for(s, who)
    before = (
        CampaignTurn.objects.count(),
        LedgerEntry.objects.count(),
        RepairOrder.objects.filter(status="queued").count(),
    )
    adj = c.post(
        "/campaigns/sample/treasury/adjust/", {"faction": s.norge.pk, "resources": 5, "reason": "x"}
    )
    close = c.post("/campaigns/sample/turn/close/", {"confirm": "yes"})
    expected = {"organiser": 302, None: 302}.get(
        who, 404 if who in ("outsider", "other_org") else 403
    )
    assert adj.status_code == close.status_code == expected
    turn = CampaignTurn.objects.get(campaign=s.campaign, number=1)
    if who == "organiser":
        assert turn.status == "closed"
        assert LedgerEntry.objects.filter(kind="adjustment", resources=5, user=s.organiser).exists()
    else:
        assert turn.status == "open"
        assert (
            CampaignTurn.objects.count(),
            LedgerEntry.objects.count(),
            RepairOrder.objects.filter(status="queued").count(),
        ) == before
        if who is None:
            assert close["Location"].startswith("/login/")


@pytest.mark.parametrize("who", WHO)
def test_repair_page_matrix(played, who):
    s = played
    other = s.fleet.ships.exclude(pk=s.tord_a.pk).get(name="Steffen Konalson")
    norway_battle(
        s.campaign, s.fleet, {other: {"fate": "damaged", "hull_lost": 2}}, name="Second raid"
    )
    c = client_for(s, who)
    url = f"/campaigns/sample/ships/{other.pk}/repair/"
    get = c.get(url, {"hull": 2, "armour": 0, "crew": 0})
    expected = {"organiser": 200, "norge_player": 200, "chronicler": 403, None: 302}.get(who, 404)
    assert get.status_code == expected
    if expected == 200:
        assert "Cost: 2 resources; 2 work units at Trøndelag." in get.content.decode()
    post = c.post(url, {"hull": 2, "armour": 0, "crew": 0})
    assert post.status_code == (302 if expected == 200 else expected)
    made = RepairOrder.objects.filter(ship=other).exists()
    assert made is (who in ("organiser", "norge_player"))
    # another campaign's URL for the same ship: 404 for everyone logged in
    if who:
        assert c.get(f"/campaigns/other/ships/{other.pk}/repair/").status_code == 404


def test_a_bad_repair_shows_the_error_and_changes_nothing(played):
    s = played
    c = client_for(s, "norge_player")
    count = LedgerEntry.objects.count()
    response = c.post(f"/campaigns/sample/ships/{s.tord_a.pk}/repair/", {"hull": 1})
    assert response.status_code == 200
    assert "already has a repair order" in response.content.decode()
    assert LedgerEntry.objects.count() == count


def test_the_ship_page_says_why_no_repair_can_be_ordered(played):
    s = played
    c = Client()  # French
    c.force_login(s.norge_player)
    repair = f"/campaigns/sample/ships/{s.tord_a.pk}/repair/"
    # An order is queued: its yard and end turn, no link to a form that would refuse.
    html = c.get(f"/ships/{s.tord_a.pk}/").content.decode()
    assert f"Réparations déjà ordonnées à Trøndelag, terminées au tour {s.order.eta_turn}" in html
    assert f'href="{repair}"' not in html and 'href="/campaigns/sample/turn/"' in html
    assert "Coût et tours" not in c.get(repair).content.decode()
    # Nothing lost: said so, no form either.
    intact = s.fleet.ships.exclude(pk=s.tord_a.pk).filter(hull_lost=0, armour_lost=0).first()
    html = c.get(f"/ships/{intact.pk}/").content.decode()
    assert "Rien à réparer\u202f: le vaisseau n’a perdu aucune case" in html
    assert f'href="/campaigns/sample/ships/{intact.pk}/repair/"' not in html
    # In transit: the yard rule's reason, capitalised.
    s.order.status = "cancelled"
    s.order.save(update_fields=["status"])
    s.fleet.territory = None
    s.fleet.save(update_fields=["territory"])
    html = c.get(f"/ships/{s.tord_a.pk}/").content.decode()
    assert f"Vaisseau Tordenskjold #{s.tord_a.pk}\u202f: la flotte" in html and "en transit" in html
    assert f'href="{repair}"' not in html


def test_a_bad_repair_value_is_explained_in_french_on_a_french_page(played):
    """The league plays in French: a refused repair reads in French, naming the field."""
    s = played
    s.order.status = "cancelled"
    s.order.save(update_fields=["status"])
    c = Client(HTTP_ACCEPT_LANGUAGE="fr")
    c.force_login(s.norge_player)
    count = LedgerEntry.objects.count()
    url = f"/campaigns/sample/ships/{s.tord_a.pk}/repair/"
    html = c.post(url, {"hull": "beaucoup"}).content.decode()
    assert "Coque\u202f: «\u202fbeaucoup\u202f» n’est pas un nombre entier" in html
    html = c.post(url, {"hull": 99}).content.decode()
    assert (
        f"Coque\u202f: 99 pour vaisseau Tordenskjold #{s.tord_a.pk}, qui n’en a perdu que" in html
    )
    assert LedgerEntry.objects.count() == count


@pytest.mark.parametrize("who", WHO)
def test_cancel_matrix(played, who):
    s = played
    url = f"/campaigns/sample/repairs/{s.order.pk}/cancel/"
    if who in ("organiser", "norge_player"):
        # The page asks first; without the "I confirm" box nothing is cancelled.
        html = client_for(s, who).get("/campaigns/sample/turn/").content.decode()
        assert f'<form method="post" action="{url}">' in html
        assert "I confirm: cancel the repair of" in html
        assert client_for(s, who).post(url).status_code == 302
        s.order.refresh_from_db()
        assert s.order.status == "queued"
    response = client_for(s, who).post(url, {"confirm": "yes"})
    expected = {"organiser": 302, "norge_player": 302, "chronicler": 403, None: 302}.get(who, 404)
    assert response.status_code == expected
    s.order.refresh_from_db()
    assert (s.order.status == "cancelled") is (who in ("organiser", "norge_player"))


@pytest.mark.parametrize("who", WHO)
def test_build_page_matrix(played, who):
    s = played
    c = client_for(s, who)
    spec = {"faction": s.norge.pk, "yard": s.yard.pk, "fleet": s.fleet.pk, "what": "gunboat:emp"}
    get = c.get("/campaigns/sample/build/", spec)
    expected = {"organiser": 200, "norge_player": 200, "qatzrin_player": 200, None: 302}.get(
        who, 403 if who == "chronicler" else 404
    )
    assert get.status_code == expected
    if who == "qatzrin_player":  # may not pick Norway
        assert "choose one of your campaign" in get.content.decode()
    if who in ("organiser", "norge_player"):
        assert "54 resources, 1 technology" in get.content.decode()
    c.post("/campaigns/sample/build/", spec)
    assert Construction.objects.exists() is (who in ("organiser", "norge_player"))


def test_fleet_page_shows_repairs_as_public_as_the_fleet(played):
    s = played
    url = s.fleet.get_absolute_url()
    for who in WHO:
        html = client_for(s, who).get(url).content.decode()
        assert 'id="h-repairs"' in html, who
        assert "Trøndelag" in html and "chest" not in html  # no ledger on the fleet page


def test_a_hidden_fleets_repairs_stay_hidden(played):
    s = played
    s.fleet.hidden = True
    s.fleet.save()
    url = s.fleet.get_absolute_url()
    assert client_for(s, "qatzrin_player").get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert 'id="h-repairs"' in client_for(s, "norge_player").get(url).content.decode()


def test_ship_page_shows_its_life_and_the_state_before_a_battle(played):
    s = played
    battle = s.tord_a.participations.get().side.battle
    html = (
        Client(HTTP_ACCEPT_LANGUAGE="en")
        .get(f"/ships/{s.tord_a.pk}/", {"before": battle.pk})
        .content.decode()
    )
    assert 'id="h-life"' in html and 'id="h-before"' in html
    assert "0 hull, 0 armour, 0 crew lost" in html  # before the raid
    assert "6 hull" in html


def test_deadline_is_entered_and_shown_in_the_campaign_time_zone(played):
    s = played
    s.campaign.time_zone = "Europe/Paris"
    s.campaign.save()
    c = client_for(s, "organiser")
    assert (
        c.post("/campaigns/sample/turn/deadline/", {"deadline": "2099-06-01T20:00"}).status_code
        == 302
    )
    turn = CampaignTurn.objects.get(campaign=s.campaign, status="open")
    assert turn.deadline.isoformat() == "2099-06-01T18:00:00+00:00"  # stored in UTC
    html = c.get("/campaigns/sample/turn/").content.decode()
    assert 'value="2099-06-01T20:00"' in html and "Europe/Paris" in html
    assert "June 1, 2099, 8 p.m.</time>" in html  # Paris time, English format
    assert (
        client_for(s, "norge_player")
        .post("/campaigns/sample/turn/deadline/", {"deadline": ""})
        .status_code
        == 403
    )
    turn.refresh_from_db()
    assert turn.deadline is not None
    bad = c.post("/campaigns/sample/turn/deadline/", {"deadline": "tomorrow"}, follow=True)
    assert bad.status_code == 400  # the page again, with what was typed
    text = bad.content.decode()
    assert "deadline: &#x27;tomorrow&#x27; is not a date and time" in text
    assert 'id="new-deadline" name="deadline" value="tomorrow" aria-invalid="true"' in text


def test_a_past_deadline_is_refused_readably_and_kept_in_the_field(sample):
    s = sample
    s.campaign.time_zone = "Europe/Paris"
    s.campaign.save()
    c = Client()  # French, the default language
    c.force_login(s.organiser)
    r = c.post("/campaigns/sample/turn/open/", {"deadline": "2020-01-01T10:00"})
    assert r.status_code == 400
    text = r.content.decode()
    assert 'id="deadline" name="deadline" value="2020-01-01T10:00" aria-invalid="true"' in text
    assert (
        "échéance\u202f: 01/01/2020 10:00 (Europe/Paris) est passée\u202f; donnez une heure future"
        in text
    )
    assert "+00:00" not in text
    assert not CampaignTurn.objects.filter(campaign=s.campaign, status="open").exists()
    r = c.post("/campaigns/sample/turn/open/", {"deadline": "2099-01-01T10:00"})
    assert r.status_code == 302
    assert CampaignTurn.objects.get(campaign=s.campaign, status="open").deadline.year == 2099
    # The open turn's deadline: a past one is refused too (the next close_due_turns run
    # would otherwise close the turn with nobody confirming).
    r = c.post("/campaigns/sample/turn/deadline/", {"deadline": "2020-01-01T10:00"})
    assert r.status_code == 400
    text = r.content.decode()
    assert "échéance\u202f: 01/01/2020 10:00 (Europe/Paris) est passée" in text
    assert 'id="new-deadline" name="deadline" value="2020-01-01T10:00" aria-invalid="true"' in text
    assert CampaignTurn.objects.get(campaign=s.campaign, status="open").deadline.year == 2099


def test_a_class_whose_stated_points_disagree_is_flagged_on_its_pages(sample):
    vaktar = ShipClass.objects.get(faction=sample.norge, name="Vaktar")
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "≠" not in c.get(vaktar.get_absolute_url()).content.decode()
    vaktar.points = 10
    vaktar.save()
    for url in (vaktar.get_absolute_url(), sample.norge.get_absolute_url()):
        assert "≠ 67 by construction" in c.get(url).content.decode(), url


def test_faction_page_counts_only_ships_afloat(sample):
    gplus = Faction.objects.get(slug="collectif-g-plus")
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(gplus.get_absolute_url()).content.decode()
    assert "Known fleets: 1170 points afloat; 1562 points destroyed or captured." in html


def test_a_closed_turns_summary_leaves_out_a_hidden_fleets_repairs_and_builds(played):
    """The turn page and GET …/turn listed a hidden fleet's ships repaired
    and built to the rival player, while its fleet and ship pages answered 404."""
    s = played
    construction_order(
        campaign=s.campaign,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        ship_class=ShipClass.objects.get(name="Vaktar"),  # ready after one turn end
        name="Hidden Newbuild",
        user=s.norge_player,
    )
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    s.fleet.hidden = True
    s.fleet.save()
    url = f"/campaigns/{s.campaign.slug}/turn/"
    api = f"/api/campaigns/{s.campaign.slug}/turn"
    seen = []
    for who in ("organiser", "norge_player", "qatzrin_player"):
        c = client_for(s, who)
        section = c.get(url).content.decode().split('id="h-summary"')[1].split("</section>")[0]
        summary = c.get(api).json()["last_closed"]["summary"]
        seen.append(
            (
                who,
                [r["ship"] for r in summary["repairs"]],
                [b["name"] for b in summary["constructions"]],
                str(s.tord_a) in section,
                "Hidden Newbuild" in section,
            )
        )
    assert seen == [
        ("organiser", [s.tord_a.pk], ["Hidden Newbuild"], True, True),
        ("norge_player", [s.tord_a.pk], ["Hidden Newbuild"], True, True),
        ("qatzrin_player", [], [], False, False),
    ]


def test_closing_the_turn_needs_the_box_ticked(played):
    c = client_for(played, "organiser")
    page = c.get("/campaigns/sample/turn/").content.decode()
    assert 'name="confirm" value="yes" required' in page
    refused = c.post("/campaigns/sample/turn/close/", follow=True)
    assert "Tick “I confirm” to close the turn; nothing was done." in refused.content.decode()
    assert CampaignTurn.objects.get(campaign=played.campaign, number=1).status == "open"
    c.post("/campaigns/sample/turn/close/", {"confirm": "yes"})
    assert CampaignTurn.objects.get(campaign=played.campaign, number=1).status == "closed"


def test_a_closed_turns_summary_shows_a_player_only_their_factions_yards_and_income(played):
    """A public fleet's repairs and builds and every faction's income
    were listed to rival players; a player reads their own faction's (as in the yard
    queue and the treasuries), organisers all, the public parts stay public."""
    s = played
    construction_order(
        campaign=s.campaign,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        ship_class=ShipClass.objects.get(name="Vaktar"),  # ready after one turn end
        name="Public Newbuild",
        user=s.norge_player,
    )
    turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    everyone = sorted(i["faction"] for i in turn.summary["income"])
    assert {s.norge.name, s.qatzrin.name} <= set(everyone)
    url = f"/campaigns/{s.campaign.slug}/turn/"
    api = f"/api/campaigns/{s.campaign.slug}/turn"
    seen = {}
    for who in ("organiser", "norge_player", "qatzrin_player", "chronicler"):
        c = client_for(s, who)
        page = c.get(url).content.decode()
        section = (
            page.split('id="h-summary"')[1].split("</section>")[0] if "h-summary" in page else ""
        )
        response = c.get(api)
        summary = response.json()["last_closed"]["summary"] if response.status_code == 200 else None
        seen[who] = (
            summary and [r["ship"] for r in summary["repairs"]],
            summary and [b["name"] for b in summary["constructions"]],
            summary and sorted(i["faction"] for i in summary["income"]),
            str(s.tord_a) in section,
            "Public Newbuild" in section,
        )
    assert seen == {
        "organiser": ([s.tord_a.pk], ["Public Newbuild"], everyone, True, True),
        "norge_player": ([s.tord_a.pk], ["Public Newbuild"], [s.norge.name], True, True),
        "qatzrin_player": ([], [], [s.qatzrin.name], False, False),
        # not a player of any faction: none of the factions' private data (the API's
        # turn answers 404 to those who hold no faction)
        "chronicler": (None, None, None, False, False),
    }


def test_the_build_page_says_why_a_faction_without_a_yard_cannot_build(played):
    """Qatzrin (then with no territory with a shipyard) got an
    empty shipyard list and "choose a shipyard and a fleet"; now the page says why."""
    s = played
    # The sample gives every faction a yard now: take Qatzrin's away.
    Territory.objects.filter(faction=s.qatzrin).update(has_shipyard=False, shipyard_capacity=0)
    reason = "Qatzrin cannot build: none of its territories has a shipyard."
    qatzrin = client_for(s, "qatzrin_player")
    page = qatzrin.get("/campaigns/sample/build/").content.decode()
    assert reason in page
    assert 'id="yard"' not in page and "Cost and turns" not in page
    refused = qatzrin.post(
        "/campaigns/sample/build/", {"faction": s.qatzrin.pk, "what": "fighter:"}
    ).content.decode()
    assert reason in refused and "choose a shipyard" not in refused
    assert not Construction.objects.filter(faction=s.qatzrin).exists()
    # The organiser builds for the factions that can, and is told about the others.
    page = client_for(s, "organiser").get("/campaigns/sample/build/").content.decode()
    assert reason in page and 'id="yard"' in page
    options = page.split('id="faction"')[1].split("</select>")[0]
    assert "Kongeriket Norge" in options and "Qatzrin" not in options
    page = client_for(s, "norge_player").get("/campaigns/sample/build/").content.decode()
    assert "cannot build" not in page and 'id="yard"' in page


def test_a_past_deadline_for_the_open_turn_is_refused_and_cron_leaves_the_turn(played):
    """The open turn's deadline once took 2020-01-01 and the next
    ``close_due_turns`` closed the turn (repairs, income, moves) with nobody confirming."""
    from io import StringIO

    from django.core.management import call_command

    s = played
    c = client_for(s, "organiser")
    turn = CampaignTurn.objects.get(campaign=s.campaign, status="open")
    before = turn.deadline
    page = c.post(
        "/campaigns/sample/turn/deadline/", {"deadline": "2020-01-01T10:00"}, follow=True
    ).content.decode()
    assert "is past; give a future time" in page
    turn.refresh_from_db()
    assert turn.deadline == before
    out = StringIO()
    call_command("close_due_turns", stdout=out)
    assert CampaignTurn.objects.get(pk=turn.pk).status == "open"
    api = c.post(
        "/api/campaigns/sample/turn/deadline",
        '{"deadline": "2020-01-01T10:00:00Z"}',
        content_type="application/json",
    )
    assert api.status_code == 400 and "future" in api.json()["detail"]


def test_reopening_a_turn_asks_first(sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    closed = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    c = client_for(s, "organiser")
    html = c.get("/campaigns/sample/turn/").content.decode()
    form = html.split('action="/campaigns/sample/turn/reopen/"')[1].split("</form>")[0]
    assert 'name="confirm" value="yes" required' in form
    assert f"I confirm: reopen turn {closed.number}" in form
    page = c.post("/campaigns/sample/turn/reopen/", follow=True).content.decode()
    assert "Tick “I confirm” to go on; nothing was done." in page
    assert CampaignTurn.objects.get(pk=closed.pk).status == "closed"
    assert f'<input type="hidden" name="turn" value="{closed.number}">' in form
    c.post("/campaigns/sample/turn/reopen/", {"confirm": "yes", "turn": closed.number})
    assert CampaignTurn.objects.get(pk=closed.pk).status == "open"
