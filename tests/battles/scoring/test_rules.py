"""Scoring rules: a row with the defaults for every new campaign, the rules in words in
both languages, the even shares, and the objectives form only on the organisers' pages."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.models import ScoringRules, VictoryAward
from battles.scoring.rules import points_for, rules_for, rules_in_words, share_of
from campaign.league.models import Campaign
from tests.battles.scoring.scoring_fixtures import scored_battle
from tests.conftest import client_for


@pytest.mark.django_db
def test_a_new_campaign_gets_the_default_rules():
    campaign = Campaign.objects.create(name="New league", slug="new-league")
    rules = ScoringRules.objects.get(campaign=campaign)
    assert (rules.victory, rules.draw, rules.defeat, rules.per_objective, rules.per_holding,
            rules.destroyed_points, rules.destroyed_per) == (3, 1, 0, 1, 1, 1, 100)  # fmt: skip
    assert rules_for(campaign).pk == rules.pk


@pytest.mark.django_db
def test_rules_in_words_in_both_languages():
    rules = ScoringRules(victory=5, draw=2, defeat=1, per_holding=2, destroyed_per=150)
    with translation.override("en"):
        assert (
            rules_in_words(rules)[0] == "A battle won earns 5 VP, a draw 2 VP, a battle lost 1 VP."
        )
        assert rules_in_words(rules)[3].startswith("Every 150 construction points")
    with translation.override("fr"):
        words = rules_in_words(rules)
    assert words[0] == (
        "Une bataille gagnée rapporte 5 PV, un match nul 2 PV, une bataille perdue 1 PV."
    )
    assert words[2] == (
        "Chaque système stellaire qu’une faction détient à la clôture d’un tour de campagne "
        "(chaque territoire, dans une campagne sans carte stellaire) rapporte 2 PV."
    )


def test_points_and_even_shares():
    rules = ScoringRules(destroyed_points=2, destroyed_per=100, per_holding=3)
    assert points_for(rules, VictoryAward.Reason.DESTROYED, 299) == 4
    assert points_for(rules, VictoryAward.Reason.HOLDINGS, 2) == 6
    assert [share_of(7, i, 3) for i in range(3)] == [3, 2, 2]
    assert [share_of(1, i, 2) for i in range(2)] == [1, 0]
    assert share_of(5, 0, 1) == 5


@pytest.mark.parametrize(("who", "form"), [("organiser", True), ("qatzrin_player", False)])
def test_objectives_form_on_the_record_page_for_organisers(cast, rival, django_user_model, who,
                                                           form):  # fmt: skip
    battle = scored_battle(cast, django_user_model)
    response = client_for(cast, rival, who).get(f"/battles/{battle.pk}/record/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ('name="objectives-qatzrin"' in html) == form
    assert (f'name="next" value="/battles/{battle.pk}/record/"' in html) == form
