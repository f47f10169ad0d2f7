"""Intel: the ship classes each faction has met in a campaign (battles/services/intel.py, rules
§5), recorded when a battle is concluded and shown only to those who may see the faction's
secrets."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.services import battle_record, battle_resolve
from battles.services.intel import intel_record_battle
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign, Intel
from campaign.publish import site_build
from campaign.sample.loader import sample_load
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db

QATZRIN = {"Sa'ar", "Ra'am", "Tzayad"}
PHALON = {"Tsaara", "Huulth", "Silith"}


def known(faction_slug: str) -> set[str]:
    return set(
        Intel.objects.filter(faction__slug=faction_slug).values_list("ship_class__name", flat=True)
    )


def record_draw(battle: Battle) -> Battle:
    return battle_record(user=SYSTEM, battle=battle, results=[], outcome="Draw", winner=None)


def test_recording_a_battle_teaches_each_side_the_other_sides_classes(cast):
    battle = record_draw(draft_skirmish(cast.campaign))
    assert known("qatzrin") == PHALON
    assert known("phalon") == QATZRIN
    rows = Intel.objects.all()
    assert rows.count() == 6  # two Sa'ar and two Ra'am fielded: one row per class
    assert {(r.campaign_id, r.first_battle_id) for r in rows} == {(cast.campaign.pk, battle.pk)}


def test_resolving_a_battle_records_intel_in_the_same_transaction(cast):
    battle = battle_resolve(user=SYSTEM, battle=draft_skirmish(cast.campaign), seed=7, max_turns=2)
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.CONCLUDED
    assert known("qatzrin") == PHALON
    assert known("phalon") == QATZRIN


def test_recording_is_idempotent_and_keeps_the_first_battle(cast):
    first = record_draw(draft_skirmish(cast.campaign, phalon=("Silith",), slug="first"))
    assert intel_record_battle(battle=first) == 0  # already written when concluded
    assert Intel.objects.count() == 3 + 1
    second = draft_skirmish(cast.campaign, qatzrin=("Sa'ar",), phalon=("Silith", "Huulth"))
    record_draw(second)
    assert known("qatzrin") == {"Silith", "Huulth"}
    silith = Intel.objects.get(faction__slug="qatzrin", ship_class__name="Silith")
    huulth = Intel.objects.get(faction__slug="qatzrin", ship_class__name="Huulth")
    assert (silith.first_battle_id, huulth.first_battle_id) == (first.pk, second.pk)
    assert intel_record_battle(battle=second) == 0
    assert Intel.objects.count() == 5


def test_intel_is_per_campaign(cast):
    other = Campaign.objects.create(name="Other league", slug="other-league")
    record_draw(draft_skirmish(cast.campaign, slug="a"))
    record_draw(draft_skirmish(other, slug="b"))
    assert Intel.objects.filter(campaign=other).count() == 6
    assert Intel.objects.count() == 12


def test_faction_page_shows_classes_met_to_its_players_and_organisers_only(cast, client):
    record_draw(draft_skirmish(cast.campaign))
    url = reverse("faction-detail", kwargs={"slug": "qatzrin"})
    for user, sees in (
        (cast.qatzrin_player, True),
        (cast.organiser, True),
        (cast.norge_player, False),
        (cast.chronicler, False),
        (None, False),
    ):
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(url).content.decode()
        assert ('id="h-intel"' in html) is sees, user
        assert ("Tsaara" in html) is sees, user  # a Phalon class, named nowhere else here
        assert ("Classes rencontrées" in html) is sees, user  # French is the default
    client.force_login(cast.qatzrin_player)
    html = client.get(reverse("faction-detail", kwargs={"slug": "phalon"})).content.decode()
    assert 'id="h-intel"' not in html  # a rival faction's intel


def test_classes_met_are_never_baked_into_the_site(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    record_draw(draft_skirmish(cast.campaign))
    out = tmp_path / "site"
    site_build(out_dir=out)
    pages = list((out / "fr" / "factions").glob("*.html")) + list(
        (out / "en" / "factions").glob("*.html")
    )
    assert {p.stem for p in pages} >= {"qatzrin", "phalon"}  # in both trees
    for page in pages:
        html = page.read_text()
        assert "h-intel" not in html and "Classes met" not in html, page
        assert "Classes rencontrées" not in html, page


def test_sample_load_records_the_miranda_battles_intel_once(db):
    summary = sample_load()
    battle = Battle.objects.get(campaign=summary.campaign, slug="colonisation-compromise")
    rows = Intel.objects.filter(first_battle=battle)
    assert rows.exists()
    sides = set(battle.sides.values_list("faction_id", flat=True))
    assert set(rows.values_list("faction_id", flat=True)) == sides
    count = Intel.objects.count()
    sample_load()
    assert Intel.objects.count() == count
