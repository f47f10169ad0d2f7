"""A turn-by-turn battle keeps its pace: the time given to each turn (``turn_interval``)
sets the next deadline every time a turn is played; without one, no deadline carries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models.turn_orders import TurnPlay
from battles.play.game_turns import turn_play_advance, turn_play_start
from battles.services import BattleActionError
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _near(when, expected) -> bool:
    return abs((when - expected).total_seconds()) < 60


def test_each_turn_played_sets_the_next_deadline(duel):
    start = timezone.now()
    turn_play_start(
        user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5, turn_interval=timedelta(hours=6)
    )
    play = TurnPlay.objects.get(battle=duel.battle)
    assert play.turn_interval == timedelta(hours=6) and play.turn_interval_hours == 6
    assert _near(play.deadline, start + timedelta(hours=6))  # turn 1's, none given
    for turn in (2, 3):
        turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
        play.refresh_from_db()
        assert play.current_turn == turn
        assert _near(play.deadline, timezone.now() + timedelta(hours=6))


def test_a_deadline_given_for_turn_one_is_kept_and_the_next_follow_the_interval(duel):
    first = timezone.now() + timedelta(days=2)
    turn_play_start(
        user=SYSTEM,
        battle=duel.battle,
        seed=SEED,
        max_turns=5,
        deadline=first,
        turn_interval=timedelta(hours=24),
    )
    play = TurnPlay.objects.get(battle=duel.battle)
    assert play.deadline == first
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    play.refresh_from_db()
    assert _near(play.deadline, timezone.now() + timedelta(hours=24))


def test_without_an_interval_no_deadline_carries(duel):
    turn_play_start(
        user=SYSTEM,
        battle=duel.battle,
        seed=SEED,
        max_turns=5,
        deadline=timezone.now() + timedelta(hours=1),
    )
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    assert TurnPlay.objects.get(battle=duel.battle).deadline is None


def test_an_interval_out_of_range_is_refused_and_nothing_starts(duel):
    with pytest.raises(BattleActionError, match=r"^turn_interval: 744 hours, expected from"):
        turn_play_start(user=SYSTEM, battle=duel.battle, turn_interval=timedelta(days=31))
    assert not TurnPlay.objects.filter(battle=duel.battle).exists()


def test_the_start_form_and_the_api_take_the_hours_for_each_turn(duel):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(duel.cast.organiser)
    page = c.get(reverse("battle-turns", args=[duel.battle.pk])).content.decode()
    assert 'name="turn_interval_hours"' in page
    response = c.post(
        reverse("battle-turns-start", args=[duel.battle.pk]),
        {"seed": SEED, "max_turns": 5, "turn_interval_hours": "12"},
    )
    assert response.status_code == 302
    play = TurnPlay.objects.get(battle=duel.battle)
    assert play.turn_interval == timedelta(hours=12)
    assert _near(play.deadline, timezone.now() + timedelta(hours=12))
    page = c.get(reverse("battle-turns", args=[duel.battle.pk])).content.decode()
    assert "Each next turn is due 12 h after the last one is played." in page
    status = c.get(f"/api/battles/{duel.battle.pk}/turns").json()
    assert status["turn_interval_hours"] == 12


def test_the_api_starts_a_play_with_hours_for_each_turn(duel):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(duel.cast.organiser)
    response = c.post(
        f"/api/battles/{duel.battle.pk}/turns/start",
        {"seed": SEED, "max_turns": 5, "turn_interval_hours": 1.5},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["turn_interval_hours"] == 1.5
    assert TurnPlay.objects.get(battle=duel.battle).turn_interval == timedelta(minutes=90)
