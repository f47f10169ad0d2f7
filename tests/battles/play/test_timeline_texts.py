"""What the timeline and the outcome say of a turn-by-turn battle: each kind of entry
labelled as what it is (not all "orders"; a first seed drawn is no re-run), an early end
said to be the organiser's (not "at the turn limit"), and the end and the campaign turn's
close done only once confirmed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from battles.models import Battle, BattleAction
from battles.play.game_turns import (
    turn_orders_submit,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
)
from battles.services import battle_reseed
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED

pytestmark = pytest.mark.django_db


def labels(battle, language: str) -> list[str]:
    with translation.override(language):
        return [a.label() for a in BattleAction.objects.filter(battle=battle).order_by("at", "pk")]


def test_a_first_seed_drawn_is_not_called_a_reseed(duel):
    battle_reseed(battle=duel.battle, reason="", user=duel.cast.organiser)
    battle_reseed(battle=duel.battle, reason="a fairer draw", user=duel.cast.organiser)
    assert labels(duel.battle, "en")[-2:] == [
        "dice seed drawn",
        "auto-resolve re-run with another seed",
    ]
    assert labels(duel.battle, "fr")[-2:] == [
        "graine des dés tirée",
        "résolution automatique relancée avec une autre graine",
    ]


def test_each_turn_by_turn_entry_is_labelled_as_what_it_is(duel):
    turn_play_start(battle=duel.battle, seed=SEED, max_turns=4, user=duel.cast.organiser)
    q = f"ship-{duel.qatzrin_side.participants.filter(ship__isnull=False).first().ship_id}"
    turn_orders_submit(
        user=SYSTEM, battle=duel.battle, side=duel.qatzrin_side, orders={q: {"movement": "+1"}}
    )
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    turn_play_end(battle=duel.battle, user=duel.cast.organiser)
    assert labels(duel.battle, "en")[-5:] == [
        "turn-by-turn play started",
        "orders submitted",
        "turn played",
        "turn-by-turn play ended",
        "concluded",
    ]
    assert labels(duel.battle, "fr")[-5:] == [
        "partie tour par tour commencée",
        "ordres reçus",
        "tour joué",
        "partie tour par tour terminée",
        "terminée",
    ]
    organiser = Client()
    organiser.force_login(duel.cast.organiser)
    page = organiser.get(f"/battles/{duel.battle.pk}/", HTTP_ACCEPT_LANGUAGE="en").content
    assert b"<strong>turn played</strong>" in page
    timeline = organiser.get(f"/api/battles/{duel.battle.pk}/timeline", HTTP_ACCEPT_LANGUAGE="en")
    timeline = timeline.json()
    assert [a["label"] for a in timeline][-2:] == ["turn-by-turn play ended", "concluded"]


def test_an_early_end_says_the_organiser_ended_it(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=4)
    for _ in range(2):
        turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    ended = turn_play_end(battle=duel.battle, user=duel.cast.organiser)
    assert "turn limit" not in ended.outcome
    assert "the battle ended by the organiser after turn 2." in ended.outcome
    assert ended.outcome.endswith(f"Played turn by turn from both sides' orders (seed {SEED}).")


def test_ending_the_battle_needs_the_box_ticked(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=4)
    organiser = Client()
    organiser.force_login(duel.cast.organiser)
    url = f"/battles/{duel.battle.pk}/turns/end/"
    refused = organiser.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "Tick “I confirm” to end the battle; nothing was done." in refused.content.decode()
    assert Battle.objects.get(pk=duel.battle.pk).status == Battle.Status.DRAFT
    ended = organiser.post(url, {"confirm": "yes"}, follow=True)
    assert ended.redirect_chain[0][1] == 302
    assert "La bataille a été arrêtée et conclue." in ended.content.decode()
    assert Battle.objects.get(pk=duel.battle.pk).status == Battle.Status.CONCLUDED


def test_playing_the_turn_now_needs_the_box_ticked(duel):
    play = turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=4)
    organiser = Client()
    organiser.force_login(duel.cast.organiser)
    page = organiser.get(f"/battles/{duel.battle.pk}/turns/", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "I confirm: play the turn now, with the auto-resolve tactics" in text
    assert 'name="confirm" value="yes" required' in text.split("turns/play/")[1]
    url = f"/battles/{duel.battle.pk}/turns/play/"
    refused = organiser.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "Tick “I confirm” to play the turn now; nothing was done." in refused.content.decode()
    play.refresh_from_db()
    assert play.turns_played == 0
    played = organiser.post(url, {"confirm": "yes"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert played.redirect_chain[0][1] == 302
    # The organiser is told what happened, not left to spot the new turn number.
    assert (
        "The turn was played; a side without orders followed the auto tactics."
        in played.content.decode()
    )
    play.refresh_from_db()
    assert play.turns_played == 1
