"""The battle action pages (battles/web/actions.py): the permission matrix per URL,
set-up through the form, the record formset's errors naming the ship, preview and
conclude, reopen, and query counts that stay flat as battles grow."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from battles.models import Battle, BattleAction, Participant, RecordEntry
from battles.services import record_submit
from campaign.league.models import Campaign
from factions.models import Ship
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.conftest import WHO
from tests.battles.conftest import login as _login

pytestmark = pytest.mark.django_db
SEED = 20261130


MATRIX = {
    # url name: expected status per user (302: to the login page)
    "setup": [200, 403, 403, 403, 404, 404, 302],
    "resolve": [200, 403, 403, 404, 404, 404, 302],
    "forecast": [200, 403, 403, 404, 404, 404, 302],
    "record": [200, 200, 200, 404, 404, 404, 302],
}


@pytest.mark.parametrize("page", list(MATRIX))
@pytest.mark.parametrize("index", range(len(WHO)))
def test_permission_matrix_of_the_get_pages(client, league, page, index):
    who = WHO[index]
    _login(client, league, who)
    if page == "setup":
        url = reverse("battle-setup", args=[league.campaign.slug])
    else:
        url = reverse(f"battle-{page}", args=[league.battle.pk])
    response = client.get(url)
    assert response.status_code == MATRIX[page][index], (who, page)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    "who,status", list(zip(WHO, [302, 403, 403, 404, 404, 404, 302], strict=True))
)
def test_reopen_and_decide_are_refused_to_all_but_organisers(client, league, who, status):
    _login(client, league, who)
    response = client.post(reverse("battle-reopen", args=[league.battle.pk]))
    assert response.status_code == status
    if who == "organiser":  # a draft: refused with a message, nothing changes
        league.battle.refresh_from_db()
        assert league.battle.status == "draft"


def test_setup_form_creates_the_battle_with_the_units_chosen(client, league):
    client.force_login(league.organiser)
    free = Ship.objects.create(
        ship_class=Ship.objects.filter(fleet__faction__slug="qatzrin").first().ship_class,
        fleet=Ship.objects.filter(fleet__faction__slug="qatzrin").first().fleet,
        name="Free Sa'ar",
    )
    phalon_ship = Ship.objects.create(
        ship_class=Ship.objects.filter(fleet__faction__slug="phalon").first().ship_class,
        fleet=Ship.objects.filter(fleet__faction__slug="phalon").first().fleet,
        name="Free Phalon",
    )
    url = reverse("battle-setup", args=[league.campaign.slug])
    page = client.get(url).content.decode()
    assert "Free Sa&#x27;ar" in page
    held = Participant.objects.filter(ship__isnull=False).first().ship
    assert f'name="ships" value="{held.pk}"' not in page  # in the draft: not offered
    assert f'name="ships" value="{free.pk}"' in page
    qatzrin = league.qatzrin.pk
    phalon = league.battle.sides.get(faction__slug="phalon").faction_id
    response = client.post(
        url,
        {
            "name": "Second clash",
            "campaign_turn": 3,
            "faction_a": qatzrin,
            "faction_b": phalon,
            "primary_a": "Hold",
            "ships": [free.pk, phalon_ship.pk],
        },
    )
    battle = Battle.objects.get(name="Second clash")
    assert response.status_code == 302
    assert response["Location"] == reverse("battle-resolve", args=[battle.pk])
    sides = {s.faction_id: s for s in battle.sides.all()}
    assert [p.ship_id for p in sides[qatzrin].participants.all()] == [free.pk]
    assert sides[qatzrin].primary_objective == "Hold"
    assert BattleAction.objects.get(battle=battle).user == league.organiser


def test_setup_page_lists_the_ships_a_draft_holds_here_or_in_another_campaign(client, league):
    client.force_login(league.organiser)
    url = reverse("battle-setup", args=[league.campaign.slug])
    held_here = Participant.objects.filter(side__battle=league.battle, ship__isnull=False)
    here = [p.ship for p in held_here]
    # A second campaign shares the Qatzrin faction; its draft holds one more ship.
    other = Campaign.objects.create(name="Rival league", slug="rival-league")
    other.factions.add(league.qatzrin)
    spare = Ship.objects.create(
        ship_class=here[0].ship_class, fleet=here[0].fleet, name="Lent Sa'ar"
    )
    elsewhere = Battle.objects.create(campaign=other, name="Secret draft", slug="secret-draft")
    side = elsewhere.sides.create(faction=league.qatzrin, order=0)
    Participant.objects.create(side=side, ship=spare)
    page = client.get(url).content.decode()
    listing = page.split('class="held-ships"')[1].split("</details>")[0]
    assert f"{len(here) + 1} vaisseaux tenus par des batailles non conclues" in listing
    assert f'<a href="{league.battle.get_absolute_url()}">{escape(league.battle.name)}</a>' in (
        listing
    )
    assert "Lent Sa&#x27;ar" in listing
    assert (
        "une bataille d’une autre campagne, Rival league\u202f: demandez à ses organisateurs"
        in (listing)
    )
    assert "Secret draft" not in page and elsewhere.get_absolute_url() not in page
    assert f'name="ships" value="{spare.pk}"' not in page


def test_preview_then_conclude_then_reopen_through_the_pages(client, league):
    client.force_login(league.organiser)
    url = reverse("battle-resolve", args=[league.battle.pk])
    client.post(url, {"action": "seed"})
    league.battle.refresh_from_db()
    seed = league.battle.seed
    page = client.get(url).content.decode()
    assert "Conclure avec ce résultat" in page and 'id="preview-units"' in page
    # Each unit's fate in the reader's language (Participant.Fate labels), not the code.
    rows = page.split('id="preview-units"')[1].split("<tbody>")[1].split("<tr>")[1:]
    fates = [row.split("</th><td>")[1].split("</td>")[0] for row in rows]
    assert fates and set(fates) <= {"intact", "endommagé", "détruit", "capturé", "retiré"}
    assert Battle.objects.get(pk=league.battle.pk).status == "draft"
    # A re-run without a reason is refused and keeps the seed.
    client.post(url, {"action": "reseed", "reason": ""})
    league.battle.refresh_from_db()
    assert league.battle.seed == seed
    before = list(Ship.objects.order_by("pk").values())
    response = client.post(url, {"action": "conclude", "seed": str(seed)})
    assert response.status_code == 302
    league.battle.refresh_from_db()
    assert league.battle.status == "concluded"
    assert list(Ship.objects.order_by("pk").values()) != before
    detail = client.get(reverse("battle-detail", args=[league.battle.pk])).content.decode()
    assert "Chronologie" in detail and "Rouvrir" in detail
    response = client.post(
        reverse("battle-reopen", args=[league.battle.pk]), {"reason": "wrong fleet"}, follow=True
    )
    # The confirmation is shown once (base.html), not once more by the page.
    assert response.content.decode().count("Bataille rouverte") == 1
    league.battle.refresh_from_db()
    assert league.battle.status == "draft"
    assert list(Ship.objects.order_by("pk").values()) == before


def test_record_formset_errors_name_the_ship_and_field_and_other_side_confirms(client, league):
    battle = league.battle
    client.force_login(league.qatzrin_player)
    url = reverse("battle-record", args=[battle.pk])
    page = client.get(url).content.decode()
    q_parts = list(battle.sides.get(faction__slug="qatzrin").participants.order_by("pk"))
    assert page.count('class="unit-row"') == len(q_parts)  # own side only
    data = {
        "unit-TOTAL_FORMS": len(q_parts),
        "unit-INITIAL_FORMS": len(q_parts),
        "battle-winner": "phalon",
        "battle-outcome": "Phalon hold the field",
    }
    for i, p in enumerate(q_parts):
        data.update({f"unit-{i}-fate": "unharmed", f"unit-{i}-hull_lost": 0,
                     f"unit-{i}-armour_lost": 0})  # fmt: skip
    data["unit-1-fate"] = "damaged"
    data["unit-1-hull_lost"] = 99
    page = client.post(url, data).content.decode()
    # Under the ship's own hull field, without the API's "results[1] (…).hull_lost:" path.
    assert "results[1] (participant" not in page
    fieldset = page.split('class="unit-row"')[2]
    # In French, the league's language, under the hull field of that ship.
    assert "99, mais il reste au" in fieldset.split('name="unit-1-armour_lost"')[0]
    assert not RecordEntry.objects.exists()
    data["unit-1-hull_lost"] = 2
    data["unit-1-systems_lost"] = ["fc-1"]
    assert client.post(url, data).status_code == 302
    # The confirmation is shown once (base.html), not once more by the record page.
    assert client.get(url).content.decode().count("il attend sa confirmation") == 1
    entry = RecordEntry.objects.get()
    # The same side may not confirm its own entry; the other side may.
    decide = reverse("battle-record-decide", args=[battle.pk, entry.pk, "confirm"])
    assert client.post(decide).status_code == 403
    client.force_login(league.phalon_player)
    # The other side reads what it is asked to confirm: each unit's fate and losses.
    page = client.get(url).content.decode()
    entry_html = page.split("Ce que ce compte rendu enregistre")[1].split("</details>")[0]
    damaged_name = escape(str(q_parts[1].ship))
    row = entry_html.split(damaged_name)[1].split("</tr>")[0]
    assert "endommagé</td><td>2</td><td>0</td>" in row and "fc-1" in row
    assert f"({len(q_parts)} unités)" in page
    response = client.post(decide, follow=True)
    assert response.redirect_chain[0][1] == 302
    assert "Compte rendu confirmé\u202f; la bataille attend" in response.content.decode()
    battle.refresh_from_db()
    assert battle.status == "draft"  # the Phalon side has not entered theirs
    p_parts = list(battle.sides.get(faction__slug="phalon").participants.order_by("pk"))
    data = {"unit-TOTAL_FORMS": len(p_parts), "unit-INITIAL_FORMS": len(p_parts)}
    for i, _p in enumerate(p_parts):
        data[f"unit-{i}-fate"] = "unharmed"
        data[f"unit-{i}-hull_lost"] = data[f"unit-{i}-armour_lost"] = 0
        data[f"unit-{i}-craft_lost"] = 0
    assert client.post(url, data).status_code == 302
    second = RecordEntry.objects.exclude(pk=entry.pk).get()
    client.force_login(league.organiser)
    client.post(reverse("battle-record-decide", args=[battle.pk, second.pk, "confirm"]))
    battle.refresh_from_db()
    damaged = Ship.objects.get(pk=q_parts[1].ship_id)
    assert (battle.status, battle.winner.slug) == ("concluded", "phalon")
    assert (damaged.hull_lost, damaged.systems_lost) == (2, ["fc-1"])


@pytest.mark.parametrize(
    "who,status", list(zip(WHO, [302, 200, 403, 404, 404, 404, 302], strict=True))
)
def test_confirming_an_entry_is_for_the_organiser_or_the_other_side(client, league, who, status):
    """A Qatzrin entry: its own side's player may not decide on it; the Phalon player and
    the organiser may; others get 404 (no role, or a draft they cannot see)."""
    q_side = league.battle.sides.get(faction__slug="qatzrin")
    entry = record_submit(battle=league.battle, side=q_side, results=[], user=league.qatzrin_player)
    _login(client, league, who)
    response = client.post(
        reverse("battle-record-decide", args=[league.battle.pk, entry.pk, "reject"])
    )
    entry.refresh_from_db()
    if who == "own_player":  # the entry's own side
        assert (response.status_code, entry.status) == (403, "submitted")
    elif who == "rival_player":
        assert (response.status_code, entry.status) == (302, "rejected")
    else:
        assert response.status_code == status
        assert entry.status == ("rejected" if who == "organiser" else "submitted")


@pytest.mark.parametrize("page", ["resolve", "record", "detail", "setup"])
def test_query_counts_stay_flat_from_3_to_60_ships(
    client, league, page, django_assert_max_num_queries, django_assert_num_queries
):
    """The same number of queries for a 3-ship and a 60-ship battle page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(league.organiser)
    small = draft_skirmish(
        league.campaign, slug="small", qatzrin=("Sa'ar",), phalon=("Huulth", "Silith")
    )
    big = draft_skirmish(
        league.campaign, slug="big", qatzrin=("Sa'ar",) * 30, phalon=("Silith",) * 30
    )
    counts = []
    for battle in (small, big):
        if page == "resolve":
            Battle.objects.filter(pk=battle.pk).update(seed=SEED)
        url = reverse(f"battle-{page}", args=[battle.pk])
        if page == "setup":  # the ships offered grow with the fleets
            Battle.objects.filter(pk=battle.pk).delete()
            url = reverse("battle-setup", args=[league.campaign.slug])
        client.get(url)  # warm caches (sessions, content types)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def _unharmed_entry(battle, side_slug: str | None) -> dict:
    sides = battle.sides.all()
    if side_slug is not None:
        sides = sides.filter(faction__slug=side_slug)
    parts = [p for s in sides.order_by("pk") for p in s.participants.order_by("pk")]
    data = {"unit-TOTAL_FORMS": len(parts), "unit-INITIAL_FORMS": len(parts)}
    for i, p in enumerate(parts):
        data[f"unit-{i}-fate"] = "unharmed"
        data[f"unit-{i}-hull_lost"] = data[f"unit-{i}-armour_lost"] = 0
        if not p.ship_id:
            data[f"unit-{i}-craft_lost"] = 0
    return data


def test_a_submitted_entry_replaces_the_form_says_who_confirms_and_can_be_withdrawn(client, league):
    battle = league.battle
    url = reverse("battle-record", args=[battle.pk])
    client.force_login(league.qatzrin_player)
    blank = client.get(url).content.decode()
    # Systems are named as on the SSD, their id after.
    assert "contrôle de tir 1 (fc-1)</label>" in blank
    response = client.post(url, _unharmed_entry(battle, "qatzrin"), follow=True)
    page = response.content.decode()
    assert "Soumettre le compte rendu" not in page and 'class="unit-row"' not in page
    waits = "Le compte rendu de Qatzrin attend sa confirmation par Phalon ou un organisateur."
    assert waits in page
    entry = RecordEntry.objects.get()
    withdraw = reverse("battle-record-decide", args=[battle.pk, entry.pk, "withdraw"])
    assert f'action="{withdraw}"' in page
    # The other side may not withdraw it; without "I confirm" nothing happens.
    client.force_login(league.phalon_player)
    assert client.post(withdraw, {"confirm": "yes"}).status_code == 403
    other = client.get(url).content.decode()
    assert "Soumettre le compte rendu" in other and "Votre compte rendu" not in other
    client.force_login(league.qatzrin_player)
    client.post(withdraw)
    entry.refresh_from_db()
    assert entry.status == "submitted"
    page = client.post(withdraw, {"confirm": "yes"}, follow=True).content.decode()
    entry.refresh_from_db()
    assert entry.status == "rejected"
    assert "Compte rendu retiré\u202f; vous pouvez en soumettre un nouveau." in page
    assert "Soumettre le compte rendu" in page


def test_the_organiser_is_told_they_may_confirm_their_own_entry(client, league):
    battle = league.battle
    url = reverse("battle-record", args=[battle.pk])
    client.force_login(league.organiser)
    blank = client.get(url).content.decode()
    assert "vous pouvez le confirmer vous-même, sur cette page" in blank
    page = client.post(url, _unharmed_entry(battle, None), follow=True).content.decode()
    assert "en tant qu’organisateur, vous pouvez le confirmer vous-même ci-dessous" in page
    assert "Votre compte rendu pour tous les camps attend sa confirmation." in page
    assert "Soumettre le compte rendu" not in page
    entry = RecordEntry.objects.get()
    client.post(reverse("battle-record-decide", args=[battle.pk, entry.pk, "confirm"]))
    battle.refresh_from_db()
    assert battle.status == "concluded"


def test_a_hull_refusal_names_the_fate_as_the_form_does(client, league):
    battle = league.battle
    url = reverse("battle-record", args=[battle.pk])
    client.force_login(league.organiser)
    data = _unharmed_entry(battle, None)
    data["unit-0-fate"] = "damaged"
    data["unit-0-hull_lost"] = 999
    page = client.post(url, data).content.decode()
    assert "c’est le sort «\u202fdétruit\u202f»)" in page and "«\u202fdestroyed\u202f»" not in page
    assert 'name="unit-0-hull_lost" value="999"' in page
