"""The standings page, the scoring rules page and the objectives form: who may open them,
what each viewer reads (a hidden fleet's tonnage only for who may see it), bad input
named by field, and the standings page's queries flat as battles grow."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import BattleSide, ScoringRules, VictoryAward
from factions.models import Fleet
from tests.battles.scoring.scoring_fixtures import record_qatzrin_victory, scored_battle
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")

ROLES = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org", None]


@pytest.fixture
def recorded(cast, rival, django_user_model):
    battle = scored_battle(cast, django_user_model)
    return record_qatzrin_victory(battle, cast.organiser)


def faction_row(html: str, name: str) -> list[str]:
    """The cells of ``name``'s line in the VP table."""
    table = html.split('class="data standings vp-factions"')[1].split("</table>")[0]
    row = next(r for r in table.split("<tr>") if f">{name}</th>" in r)
    return re.findall(r'<td class="num">(?:<strong>)?(\d+)', row)


@pytest.mark.parametrize("who", ROLES)
def test_standings_page_is_public(cast, rival, recorded, who):
    response = client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en").get(
        f"/campaigns/{cast.campaign.slug}/standings/"
    )
    assert response.status_code == 200
    html = response.content.decode()
    # VP, battles, objectives, destroyed, held, mass destroyed (58 + 70), mass lost (17).
    assert faction_row(html, "Qatzrin") == ["8", "3", "0", "5", "0", "128", "17"]
    assert faction_row(html, "Phalon") == ["0", "0", "0", "0", "0", "17", "128"]
    assert "A battle won earns 3 VP, a draw 1 VP, a battle lost 0 VP." in html
    assert ("scoring-rules-link" in html) == (who == "organiser")


def test_standings_page_of_no_campaign_is_404(cast, rival):
    assert (
        client_for(cast, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
        .get("/campaigns/nowhere/standings/")
        .status_code
        == 404
    )


@pytest.mark.parametrize(("who", "lost"), [("qatzrin_player", "17"), ("organiser", "17"),
                                          ("norge_player", "0"), (None, "0")])  # fmt: skip
def test_hidden_fleet_tonnage_only_for_who_may_see_it(cast, rival, recorded, who, lost):
    side = BattleSide.objects.get(battle=recorded, faction=cast.qatzrin)
    Fleet.objects.filter(pk=side.fleet_id).update(hidden=True)
    html = (
        client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en")
        .get(f"/campaigns/{cast.campaign.slug}/standings/")
        .content
    )
    assert faction_row(html.decode(), "Qatzrin")[6] == lost  # mass lost
    assert faction_row(html.decode(), "Phalon")[5] == lost  # mass destroyed
    assert faction_row(html.decode(), "Qatzrin")[0] == "8"  # VP are public


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("norge_player", 403), ("qatzrin_player", 403), ("chronicler", 403),
     ("outsider", 404), ("other_org", 404), (None, 302)],
)  # fmt: skip
def test_scoring_rules_page_matrix(cast, rival, who, status):
    client = client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en")
    url = f"/campaigns/{cast.campaign.slug}/scoring/"
    assert client.get(url).status_code == status
    response = client.post(url, {"victory": "5", "draw": "2", "defeat": "0", "per_objective": "1",
                                 "per_holding": "1", "destroyed_points": "1",
                                 "destroyed_per": "100"})  # fmt: skip
    assert response.status_code == (302 if who in ("organiser", None) else status)
    saved = ScoringRules.objects.filter(campaign=cast.campaign, victory=5).exists()
    assert saved == (who == "organiser")


def test_scoring_rules_edit_recomputes_awards(cast, rival, recorded):
    client = client_for(cast, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(f"/campaigns/{cast.campaign.slug}/scoring/", {
        "victory": "10", "draw": "2", "defeat": "1", "per_objective": "1", "per_holding": "1",
        "destroyed_points": "2", "destroyed_per": "250"})  # fmt: skip
    assert response.status_code == 302
    # Qatzrin: 10 + 501 // 250 × 2 = 14; the Phalon: defeat 1 + 57 // 250 × 2 = 1.
    totals = dict.fromkeys(("qatzrin", "phalon"), 0)
    for slug, points in VictoryAward.objects.values_list("faction__slug", "points"):
        totals[slug] += points
    assert totals == {"qatzrin": 14, "phalon": 1}


def test_scoring_rules_bad_values_are_named_and_nothing_is_saved(cast, rival):
    client = client_for(cast, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(f"/campaigns/{cast.campaign.slug}/scoring/", {
        "victory": "-1", "draw": "x", "defeat": "0", "per_objective": "1", "per_holding": "1",
        "destroyed_points": "1", "destroyed_per": "0"})  # fmt: skip
    assert response.status_code == 422
    html = response.content.decode()
    for name in ("victory", "draw", "destroyed_per"):
        assert f'id="err-{name}"' in html
    assert 'id="err-defeat"' not in html
    assert not ScoringRules.objects.filter(campaign=cast.campaign, defeat=0, draw=0).exists()
    assert ScoringRules.objects.get(campaign=cast.campaign).victory == 3


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 302), ("norge_player", 403), ("qatzrin_player", 403), ("chronicler", 403),
     ("outsider", 404), ("other_org", 404), (None, 302)],
)  # fmt: skip
def test_objectives_form_matrix(cast, rival, recorded, who, status):
    response = client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en").post(
        f"/battles/{recorded.pk}/objectives/", {"objectives-qatzrin": "3"}
    )
    assert response.status_code == status
    met = BattleSide.objects.get(battle=recorded, faction=cast.qatzrin).objectives_met
    assert met == (3 if who == "organiser" else 0)


def test_objectives_bad_value_is_named(cast, rival, recorded):
    client = client_for(cast, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(f"/battles/{recorded.pk}/objectives/",
                           {"objectives-qatzrin": "many"}, follow=True)  # fmt: skip
    assert "objectives_met.qatzrin: a whole number from 0 to 100" in response.content.decode()


def test_standings_page_queries_flat_as_battles_grow(cast, rival, django_user_model):
    def queries() -> int:
        client = client_for(cast, rival, "qatzrin_player", HTTP_ACCEPT_LANGUAGE="en")
        client.get(f"/campaigns/{cast.campaign.slug}/standings/")  # sessions, rules row
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/campaigns/{cast.campaign.slug}/standings/").status_code == 200
        return len(ctx)

    for i in range(3):
        record_qatzrin_victory(scored_battle(cast, django_user_model, f"b{i}"), cast.organiser)
    few = queries()
    for i in range(3, 30):
        record_qatzrin_victory(scored_battle(cast, django_user_model, f"b{i}"), cast.organiser)
    assert queries() == few
