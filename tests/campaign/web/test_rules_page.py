"""The campaign's "rules in force" page: every reading D-n, its meaning, the
seed's words and the campaign's setting against the default; campaign ``rule_options``
accept every engine option."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.readings import READINGS, rules_in_force
from battles.rules.options import DEFAULT_OPTIONS, OPTION_HELP

URL = reverse("campaign-rules", kwargs={"slug": "test-league"})


def test_every_reading_d1_to_d34_is_listed_once_and_every_option_belongs_to_one():
    assert [r.id for r in READINGS] == [f"D-{n}" for n in range(1, 35)]
    listed = {name for r in READINGS for name in r.options}
    assert listed == set(OPTION_HELP) == set(DEFAULT_OPTIONS.to_dict())


@pytest.mark.parametrize(
    "who", ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", None]
)
def test_anyone_who_sees_the_campaign_reads_its_rules(client, cast, who):
    if who:
        client.force_login(getattr(cast, who))
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    for n in range(1, 35):
        assert f'id="D-{n}"' in html
    # D-12 with the seed's words and the option at its default
    assert "aucun autre système d’armes ne peut être employé en même temps" in html
    assert "<code>lance_exclusive</code>" in html


def test_unknown_campaign_is_404(client, db):
    assert client.get(reverse("campaign-rules", kwargs={"slug": "nope"})).status_code == 404


def test_campaign_page_links_to_its_rules(client, cast):
    html = client.get(reverse("campaign-detail", kwargs={"slug": "test-league"})).content
    assert URL.encode() in html


def test_the_campaigns_settings_are_shown_against_the_defaults(client, cast, settings):
    settings.LANGUAGE_CODE = "en"
    cast.campaign.rule_options = {"half_thrust_turn_cap": True, "blip_fire": "forbidden"}
    cast.campaign.save()
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE="en")
    rows = {r["id"]: r for r in response.context["readings"]}
    assert rows["D-3"]["changed"] and rows["D-32"]["changed"]
    assert rows["D-3"]["settings"] == [
        {"name": "half_thrust_turn_cap", "value": "yes", "default": "no", "changed": True}
    ]
    assert rows["D-32"]["settings"][0]["value"] == "forbidden"
    assert not rows["D-12"]["changed"] and rows["D-5"]["settings"] == []
    assert response.context["error"] is None
    html = response.content.decode()
    assert html.count('class="changed"') == 2


def test_refused_options_are_reported_and_defaults_shown(client, cast):
    cast.campaign.rule_options = {"laser": True}
    cast.campaign.save()
    response = client.get(URL)
    assert "unknown rule option 'laser'" in response.context["error"]
    assert not any(r["changed"] for r in response.context["readings"])
    assert 'role="alert"' in response.content.decode()


def test_rule_options_accept_every_option_and_refuse_bad_values(cast):
    campaign = cast.campaign
    flipped = {}
    for name, default in DEFAULT_OPTIONS.to_dict().items():
        if isinstance(default, bool):
            flipped[name] = not default
        elif isinstance(default, str):
            flipped[name] = "forbidden"
        else:
            flipped[name] = 2
    campaign.rule_options = flipped
    campaign.full_clean()
    assert all(
        r["changed"] for r in rules_in_force(rule_options=flipped)["readings"] if r["settings"]
    )
    campaign.rule_options = {"lance_exclusive": "no"}
    with pytest.raises(ValidationError, match="'lance_exclusive' must be true or false"):
        campaign.full_clean()


def test_the_page_is_french_by_default(client, cast):
    cast.campaign.rule_options = {"laser": 1}
    cast.campaign.save()
    html = client.get(URL).content.decode()
    assert "<h1>Règles en vigueur</h1>" in html
    assert "Là où le livre de règles se tait" in html
    assert "sont refusées par le moteur" in html
    assert "cette campagne\u202f: non (par défaut\u202f: non)" in html
    assert "Durant la phase 9 où un Vaisseau tire à la Lance" in html
    assert "Fixé dans le moteur." in html


@pytest.mark.parametrize("who", ["organiser", "qatzrin_player", "outsider", None])
def test_the_api_gives_the_same_rules_in_force(client, cast, who):
    if who:
        client.force_login(getattr(cast, who))
    cast.campaign.rule_options = {"lance_exclusive": False}
    cast.campaign.save()
    response = client.get("/api/rules/campaigns/test-league", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    body = response.json()
    assert body["campaign"] == "test-league" and body["error"] is None
    assert [r["id"] for r in body["readings"]] == [f"D-{n}" for n in range(1, 35)]
    d12 = next(r for r in body["readings"] if r["id"] == "D-12")
    assert d12["changed"] and d12["settings"][0]["name"] == "lance_exclusive"
    assert "aucun autre système d’armes" in d12["seed"]
    assert client.get("/api/rules/campaigns/nope").status_code == 404
