"""The turn-by-turn page in the reader's words: pulser modes and
squadrons named, not by their engine keys; one decimal separator on a card; two ships of a
class told apart in the odds panel as on the board ("Sa'ar 1", "Sa'ar 2")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from battles.play.forms import _squadron_text
from battles.play.game_turns import turn_play_start
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from factions.models import Faction
from tests.battles.battle_fixtures import SEED, draft_skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast, django_user_model):
    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar", "Sa'ar"), phalon=("Silith",))
    phalon_player = django_user_model.objects.create_user("phalon_player", password="pw")
    Membership.objects.create(
        campaign=cast.campaign,
        user=phalon_player,
        role=Membership.Role.PLAYER,
        faction=Faction.objects.get(slug="phalon"),
    )
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=5)
    return battle, cast.qatzrin_player, phalon_player


def page(battle, user) -> str:
    c = Client()  # French, the default language
    c.force_login(user)
    return c.get(f"/battles/{battle.pk}/turns/").content.decode()


def test_pulser_modes_are_offered_by_range_not_by_key(game):
    battle, _q, phalon = game
    html = page(battle, phalon)
    options = re.findall(r'<option value="(pulser-\w+)"[^>]*>([^<]*)</option>', html)
    assert options[:3] == [
        ("pulser-short", "courte portée (0–12 mu)"),
        ("pulser-medium", "moyenne portée (0–24 mu)"),
        ("pulser-long", "longue portée (0–36 mu)"),
    ]
    # The card's position and the movement preview both write French decimals.
    assert re.search(r"en x -?\d+,\d\u202f; y -?\d+,\d", html)
    c = Client()
    c.force_login(phalon)
    silith = re.search(r'name="movement-(ship-\d+)"', html).group(1)
    preview = c.post(
        f"/battles/{battle.pk}/turns/preview/", {"ship": silith, f"movement-{silith}": "+1"}
    ).content.decode()
    assert re.search(r"arrive en x -?\d+,\d\u202f; y -?\d+,\d", preview), preview


def test_a_squadron_is_named_by_its_kind_in_the_readers_words():
    with translation.override("fr"):
        assert _squadron_text({"unit": "heavy-fighter", "size": 4}) == "chasseurs lourds ×4"
        assert _squadron_text({"unit": "fighter", "size": 3}) == "chasseurs ×3"
    with translation.override("en"):
        assert _squadron_text({"unit": "fighter", "size": 3}) == "fighters ×3"
        assert _squadron_text({"unit": "odd-thing", "size": 2}) == "odd-thing ×2"


def test_two_ships_of_a_class_are_told_apart_in_the_odds_panel(game):
    battle, qatzrin, _p = game
    html = page(battle, qatzrin)
    panel = html.split('id="odds-weapon"')[1].split("</select>")[0]
    labels = re.findall(r"<option [^>]*>([^<]*)</option>", panel)
    assert {label.split(" — ")[0] for label in labels} == {"Sa&#x27;ar 1", "Sa&#x27;ar 2"}
    assert len(labels) == len(set(labels))
